#include "app/mcp/tracecontext.h"

#include <QRandomGenerator>

#include <cstring>

namespace Eddy::Mcp {

namespace {

constexpr char s_hex[] = "0123456789abcdef";

// n random bytes as 2n lower-case hex chars at out, never all zero (invalid in W3C Trace
// Context). One call into the shared generator per id (it locks a mutex per call): a new span id
// per poll, so no allocation here.
void randomHex(char *out, int bytes)
{
    Q_ASSERT(bytes > 0 && bytes <= 16);
    quint32 words[4] = {};
    const int count = (bytes + 3) / 4;
    unsigned char raw[16];
    bool zero = true;
    while (zero) {
        QRandomGenerator::global()->fillRange(words, count);
        std::memcpy(raw, words, size_t(bytes));
        for (int i = 0; i < bytes && zero; ++i)
            zero = raw[i] == 0;
    }
    for (int i = 0; i < bytes; ++i) {
        out[2 * i] = s_hex[raw[i] >> 4];
        out[2 * i + 1] = s_hex[raw[i] & 0xf];
    }
}

bool isLowerHex(const char *p, qsizetype n)
{
    for (qsizetype i = 0; i < n; ++i) {
        const char c = p[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

bool isAllZero(const char *p, qsizetype n)
{
    for (qsizetype i = 0; i < n; ++i) {
        if (p[i] != '0')
            return false;
    }
    return true;
}

} // namespace

TraceContext TraceContext::create()
{
    TraceContext ctx;
    ctx.m_traceId = QByteArray(32, Qt::Uninitialized);
    randomHex(ctx.m_traceId.data(), 16);
    return ctx;
}

TraceContext TraceContext::fromTraceId(const QByteArray &traceId)
{
    TraceContext ctx;
    if (traceId.size() == 32 && isLowerHex(traceId.constData(), 32)
        && !isAllZero(traceId.constData(), 32))
        ctx.m_traceId = traceId;
    return ctx;
}

bool TraceContext::isValidTraceparent(const QByteArray &tp)
{
    // version "00": 00-<32 hex>-<16 hex>-<2 hex>, ids not all zero. Checked in place: every poll
    // reads its task's stored traceparent.
    if (tp.size() != 55 || tp[2] != '-' || tp[35] != '-' || tp[52] != '-')
        return false;
    const char *p = tp.constData();
    return p[0] == '0' && p[1] == '0' && isLowerHex(p + 3, 32) && isLowerHex(p + 36, 16)
           && isLowerHex(p + 53, 2) && !isAllZero(p + 3, 32) && !isAllZero(p + 36, 16);
}

TraceContext TraceContext::fromTraceparent(const QByteArray &traceparent)
{
    TraceContext ctx;
    if (isValidTraceparent(traceparent))
        ctx.m_traceId = traceparent.mid(3, 32);
    return ctx;
}

QByteArray TraceContext::newTraceparent() const
{
    if (!isValid())
        return {};
    // Written in place: "00-" + trace id + '-' + 16 hex + "-01" (55 bytes, one allocation).
    QByteArray out(55, Qt::Uninitialized);
    char *p = out.data();
    std::memcpy(p, "00-", 3);
    std::memcpy(p + 3, m_traceId.constData(), 32);
    p[35] = '-';
    randomHex(p + 36, 8);
    std::memcpy(p + 52, "-01", 3);
    return out;
}

} // namespace Eddy::Mcp
