#include "app/net/sseparser.h"

namespace Eddy::Net {

void SseParser::reset()
{
    *this = SseParser();
}

std::vector<SseEvent> SseParser::feed(const QByteArray &chunk)
{
    std::vector<SseEvent> out;
    qsizetype start = 0;
    const qsizetype n = chunk.size();
    if (n == 0)
        return out; // an empty read must not forget a CR still waiting for its LF
    const char *p = chunk.constData();
    qsizetype i = 0;
    if (m_pendingCr && n > 0 && p[0] == '\n')
        start = i = 1; // the LF of a CRLF split across chunks
    m_pendingCr = false;
    for (; i < n; ++i) {
        const char c = p[i];
        if (c != '\n' && c != '\r')
            continue;
        m_buffer.append(p + start, i - start);
        processLine(m_buffer, out);
        m_buffer.clear();
        if (c == '\r') {
            if (i + 1 < n) {
                if (p[i + 1] == '\n')
                    ++i;
            } else {
                m_pendingCr = true;
            }
        }
        start = i + 1;
    }
    if (start < n)
        m_buffer.append(p + start, n - start);
    return out;
}

void SseParser::processLine(const QByteArray &rawLine, std::vector<SseEvent> &out)
{
    QByteArray line = rawLine;
    if (m_atStart) {
        m_atStart = false;
        if (line.startsWith("\xEF\xBB\xBF"))
            line.remove(0, 3);
    }
    if (line.isEmpty()) {
        // Dispatch (WHATWG: nothing when the data buffer is empty, but the type still resets).
        if (m_hasData) {
            SseEvent event;
            if (!m_eventType.isEmpty())
                event.event = m_eventType;
            event.data = m_data;
            event.id = m_lastEventId;
            event.retryMs = m_retryMs;
            out.push_back(std::move(event));
        }
        m_data.clear();
        m_hasData = false;
        m_eventType.clear();
        return;
    }
    if (line.startsWith(':'))
        return; // comment, e.g. keep-alive
    QByteArray field;
    QByteArray value;
    const qsizetype colon = line.indexOf(':');
    if (colon < 0) {
        field = line;
    } else {
        field = line.left(colon);
        value = line.mid(colon + 1);
        if (value.startsWith(' '))
            value.remove(0, 1);
    }
    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_eventType = value;
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = value;
    } else if (field == "retry") {
        bool digits = !value.isEmpty();
        for (char c : value)
            digits = digits && c >= '0' && c <= '9';
        if (digits) {
            bool ok = false;
            const int ms = value.toInt(&ok);
            if (ok)
                m_retryMs = ms;
        }
    }
}

} // namespace Eddy::Net
