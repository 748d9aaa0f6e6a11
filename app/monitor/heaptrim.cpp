#include "app/monitor/heaptrim.h"

#include <malloc.h>

namespace Eddy::Monitor {

namespace {
constexpr int kPeriodMs = 60'000;
} // namespace

HeapTrim::HeapTrim(QObject *parent)
    : QObject(parent)
{
    m_timer.setInterval(kPeriodMs);
    connect(&m_timer, &QTimer::timeout, this, [] { malloc_trim(0); });
    m_timer.start();
}

} // namespace Eddy::Monitor
