#pragma once

#include <QByteArray>

#include <optional>
#include <vector>

namespace Eddy::Net {

// One dispatched text/event-stream event (WHATWG HTML §9.2). `data` joins data: lines with '\n'.
struct SseEvent
{
    QByteArray event = "message";
    QByteArray data;
    QByteArray id;
    std::optional<int> retryMs;
};

// Incremental text/event-stream parser: feed it chunks as they arrive, split anywhere (even
// inside a CRLF); it returns the events completed by that chunk. Comments are dropped.
class SseParser final
{
public:
    std::vector<SseEvent> feed(const QByteArray &chunk);
    void reset();

    QByteArray lastEventId() const { return m_lastEventId; }
    std::optional<int> retryMs() const { return m_retryMs; }

private:
    void processLine(const QByteArray &line, std::vector<SseEvent> &out);

    QByteArray m_buffer;
    QByteArray m_data;
    QByteArray m_eventType;
    QByteArray m_lastEventId;
    std::optional<int> m_retryMs;
    bool m_hasData = false;
    bool m_pendingCr = false;
    bool m_atStart = true; // a leading UTF-8 BOM is skipped
};

} // namespace Eddy::Net
