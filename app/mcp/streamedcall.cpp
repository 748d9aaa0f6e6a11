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

StreamWatchdog::StreamWatchdog(int firstByteMs,
                               int idleMs,
                               std::function<void(bool streaming, int ms)> fired)
    : m_timer(std::make_unique<QTimer>())
    , m_fired(std::move(fired))
    , m_firstByteMs(std::max(1, firstByteMs))
    , m_idleMs(std::max(1, idleMs))
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::CoarseTimer);
    QObject::connect(m_timer.get(), &QTimer::timeout, m_timer.get(), [this] {
        auto fired = std::exchange(m_fired, nullptr);
        const bool streaming = m_streaming;
        const int ms = streaming ? m_idleMs : m_firstByteMs;
        if (fired)
            fired(streaming, ms); // may delete this watchdog: nothing of it is used after
    });
    m_timer->start(m_firstByteMs);
}

StreamWatchdog::~StreamWatchdog()
{
    // May run inside the timer's own timeout (fired() ends the exchange that owns this).
    m_timer->stop();
    m_timer.release()->deleteLater();
}

void StreamWatchdog::headersReceived(bool isSse)
{
    if (!isSse || m_streaming)
        return; // a JSON answer keeps the deadline counted from the start
    m_streaming = true;
    m_timer->start(m_idleMs);
}

void StreamWatchdog::restart()
{
    if (!m_fired)
        return;
    m_streaming = false;
    m_timer->start(m_firstByteMs);
}

void StreamWatchdog::activity()
{
    if (m_streaming && m_fired)
        m_timer->start(m_idleMs);
}

} // namespace Eddy::Mcp
