#pragma once

#include <QByteArray>

namespace Eddy::Mcp {

// W3C Trace Context for a task: one trace id per task (kept with the task), a fresh span id per
// request, so every tools/call and tasks/* of one task lands in one trace.
class TraceContext final
{
public:
    TraceContext() = default;
    static TraceContext create();                               // a new random trace id
    static TraceContext fromTraceId(const QByteArray &traceId); // 32 lower-case hex chars
    static TraceContext fromTraceparent(const QByteArray &traceparent);
    static bool isValidTraceparent(const QByteArray &traceparent);

    bool isValid() const { return m_traceId.size() == 32; }
    QByteArray traceId() const { return m_traceId; }
    // "00-<trace id>-<new random span id>-01"
    QByteArray newTraceparent() const;

private:
    QByteArray m_traceId;
};

} // namespace Eddy::Mcp
