#include "app/stallprobe.h"

#include <QDateTime>

#include <algorithm>
#include <cstdio>

#include <time.h>

namespace Eddy {

namespace {

constexpr qint64 kPeriodNs = 10'000'000;
constexpr qint64 kWindowNs = 5'000'000'000;

double percentile(std::vector<double> &v, double q)
{
    if (v.empty())
        return 0;
    const auto at = v.begin() + std::min<std::ptrdiff_t>(std::ptrdiff_t(q * double(v.size())), std::ptrdiff_t(v.size()) - 1);
    std::nth_element(v.begin(), at, v.end());
    return *at;
}

} // namespace

StallProbe::StallProbe(QObject *parent)
    : QObject(parent)
{
    const QString path = qEnvironmentVariable("EDDY_STALL_PROBE");
    if (path.isEmpty())
        return;
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::Append | QIODevice::Text)) {
        std::fprintf(stderr, "eddy: EDDY_STALL_PROBE: cannot append to %s: %s; the probe is off\n",
                     qPrintable(path), qPrintable(m_file.errorString()));
        return;
    }
    m_latencies.reserve(size_t(kWindowNs / kPeriodNs) * 2);
    m_clock.start();
    m_running = true;
    m_poster = std::thread([this] {
        timespec next;
        clock_gettime(CLOCK_MONOTONIC, &next);
        while (m_running) {
            next.tv_nsec += kPeriodNs;
            if (next.tv_nsec >= 1'000'000'000) {
                next.tv_nsec -= 1'000'000'000;
                ++next.tv_sec;
            }
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
            const qint64 sent = m_clock.nsecsElapsed();
            QMetaObject::invokeMethod(this, [this, sent] { received(sent); }, Qt::QueuedConnection);
        }
    });
}

StallProbe::~StallProbe()
{
    m_running = false;
    if (m_poster.joinable())
        m_poster.join();
}

void StallProbe::received(qint64 sentNs)
{
    const qint64 now = m_clock.nsecsElapsed();
    m_latencies.push_back(double(now - sentNs) / 1e6);
    if (now - m_windowStartNs >= kWindowNs) {
        flush();
        m_windowStartNs = now;
    }
}

void StallProbe::flush()
{
    const size_t n = m_latencies.size();
    const double p50 = percentile(m_latencies, 0.5);
    const double p99 = percentile(m_latencies, 0.99);
    const double mx = n ? *std::max_element(m_latencies.begin(), m_latencies.end()) : 0;
    const QByteArray line = QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + ' '
                            + QByteArray::number(qulonglong(n)) + ' ' + QByteArray::number(p50, 'f', 3)
                            + ' ' + QByteArray::number(p99, 'f', 3) + ' ' + QByteArray::number(mx, 'f', 3)
                            + '\n';
    m_file.write(line);
    m_file.flush();
    m_latencies.clear();
}

} // namespace Eddy
