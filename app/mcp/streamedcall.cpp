#include "app/mcp/streamedcall.h"

#include <QRandomGenerator>

namespace Eddy::Mcp {

std::string newProgressToken()
{
    quint64 bits[2];
    QRandomGenerator::system()->fillRange(bits);
    return QStringLiteral("eddy-%1%2")
        .arg(bits[0], 16, 16, QLatin1Char('0'))
        .arg(bits[1], 16, 16, QLatin1Char('0'))
        .toStdString();
}

StreamWatchdog::StreamWatchdog(int firstByteMs, int idleMs, Floor floor, Fired fired)
    : m_timer(std::make_unique<QTimer>())
    , m_fired(std::move(fired))
    , m_firstByteMs(std::max(1, firstByteMs))
    , m_idleMs(std::max(1, idleMs))
    , m_floor(floor)
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::CoarseTimer);
    QObject::connect(m_timer.get(), &QTimer::timeout, m_timer.get(), [this] {
        if (m_streaming)
            fire(Limit::Silent, m_idleMs);
        else
            fire(Limit::NoAnswer, m_firstByteMs);
    });
    m_timer->start(m_firstByteMs);
    if (m_floor.bytesPerSec > 0 && m_floor.windowMs > 0) {
        m_floorTimer = std::make_unique<QTimer>();
        m_floorTimer->setTimerType(Qt::CoarseTimer);
        QObject::connect(m_floorTimer.get(), &QTimer::timeout, m_floorTimer.get(),
                         [this] { checkFloor(); });
        m_floorTimer->start(m_floor.windowMs);
    }
}

StreamWatchdog::~StreamWatchdog()
{
    // May run inside a timer's own timeout (fired() ends the exchange that owns this).
    m_timer->stop();
    m_timer.release()->deleteLater();
    if (m_floorTimer) {
        m_floorTimer->stop();
        m_floorTimer.release()->deleteLater();
    }
}

void StreamWatchdog::fire(Limit why, int ms)
{
    auto fired = std::exchange(m_fired, nullptr);
    if (fired)
        fired(why, ms, m_floor); // may delete this watchdog: nothing of it is used after
}

void StreamWatchdog::checkFloor()
{
    if (m_streaming || !m_fired)
        return;
    const qint64 needed = qint64(m_floor.bytesPerSec) * m_floor.windowMs / 1000;
    if (m_windowBytes < needed) {
        fire(Limit::TooSlow, m_floor.windowMs);
        return;
    }
    m_windowBytes = 0;
}

void StreamWatchdog::headersReceived(bool isSse)
{
    if (m_streaming)
        return;
    if (!isSse) {
        // A JSON answer keeps the deadline counted from the start; its body gets a full window.
        m_windowBytes = 0;
        if (m_floorTimer)
            m_floorTimer->start(m_floor.windowMs);
        return;
    }
    m_streaming = true;
    if (m_floorTimer)
        m_floorTimer->stop(); // a stream may idle with keep-alives far below any floor
    m_timer->start(m_idleMs);
}

void StreamWatchdog::restart()
{
    if (!m_fired)
        return;
    m_streaming = false;
    m_windowBytes = 0;
    m_timer->start(m_firstByteMs);
    if (m_floorTimer)
        m_floorTimer->start(m_floor.windowMs);
}

void StreamWatchdog::activity(qint64 bytes)
{
    if (!m_fired)
        return;
    if (m_streaming)
        m_timer->start(m_idleMs);
    else
        m_windowBytes += bytes;
}

} // namespace Eddy::Mcp
