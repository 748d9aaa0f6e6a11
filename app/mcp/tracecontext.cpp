#include "app/mcp/tracecontext.h"

#include <QRandomGenerator>

namespace Eddy::Mcp {

namespace {

// One call into the shared generator per id (it locks a mutex per call): a new span id per poll.
QByteArray randomHex(int bytes)
{
    Q_ASSERT(bytes > 0 && bytes <= 16);
    quint32 words[4] = {};
    const int count = (bytes + 3) / 4;
    QByteArray raw;
    do {
        QRandomGenerator::global()->fillRange(words, count);
        raw = QByteArray(reinterpret_cast<const char *>(words), bytes);
    } while (raw.count('\0') == bytes); // all-zero ids are invalid in W3C Trace Context
    return raw.toHex();
}

bool isLowerHex(const QByteArray &text)
{
    for (char c : text) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

} // namespace

TraceContext TraceContext::create()
{
    TraceContext ctx;
    ctx.m_traceId = randomHex(16);
    return ctx;
}

TraceContext TraceContext::fromTraceId(const QByteArray &traceId)
{
    TraceContext ctx;
    if (traceId.size() == 32 && isLowerHex(traceId) && traceId != QByteArray(32, '0'))
        ctx.m_traceId = traceId;
    return ctx;
}

bool TraceContext::isValidTraceparent(const QByteArray &tp)
{
    // version "00": 00-<32 hex>-<16 hex>-<2 hex>, ids not all zero
    if (tp.size() != 55 || tp[2] != '-' || tp[35] != '-' || tp[52] != '-')
        return false;
    const QByteArray version = tp.left(2), trace = tp.mid(3, 32), span = tp.mid(36, 16),
                     flags = tp.mid(53, 2);
    return version == "00" && isLowerHex(trace) && isLowerHex(span) && isLowerHex(flags)
           && trace != QByteArray(32, '0') && span != QByteArray(16, '0');
}

TraceContext TraceContext::fromTraceparent(const QByteArray &traceparent)
{
    if (!isValidTraceparent(traceparent))
        return {};
    return fromTraceId(traceparent.mid(3, 32));
}

QByteArray TraceContext::newTraceparent() const
{
    if (!isValid())
        return {};
    return "00-" + m_traceId + '-' + randomHex(8) + "-01";
}

} // namespace Eddy::Mcp
