#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

// Streamed calls: a tools/call that cannot become a task may be answered as a long SSE stream
// (timed by a watchdog, not a total timeout), and its stream is resumed when it drops.

namespace Eddy::Mcp {

bool Client::mayMakeTask(const QString &name) const
{
    if (m_discovery && !m_discovery->offersTasks())
        return false;
    const Tool *tool = findTool(name);
    // Unknown tool on a server that may offer tasks: the call is sent as before (task-capable).
    return !tool || tool->taskSupport() != QLatin1String("forbidden");
}

void Client::streamable(Request &request, const CallOptions &options) const
{
    request.onStreamOpened = options.onStreamOpened;
    request.firstByteMs = request.timeoutMs > 0 ? request.timeoutMs : m_config.timeoutMs;
    request.streamIdleMs = options.streamIdleMs;
    request.timeoutMs = -1; // no total timeout, no slow-transfer floor: the watchdog times it
}

// --- resuming a streamed call's SSE stream (2025-11-25: GET with Last-Event-ID)

bool Client::resumeStream(Exchange &exchange, const Error &why)
{
    static constexpr int kMaxResumes = 5;
    if (!exchange.resumable || exchange.lastEventId.isEmpty() || exchange.resumes >= kMaxResumes
        || !m_http || exchange.done)
        return false;
    ++exchange.resumes;
    exchange.dropError = why;
    // The server's retry: field, else a second; never more than half a minute.
    const int delayMs = std::clamp(exchange.sse.retryMs().value_or(1000), 0, 30000);
    exchange.sse.reset(); // a half event of the broken stream is not continued
    exchange.isSse = false;
    if (Net::HttpReply *r = std::exchange(exchange.reply, nullptr))
        r->release();
    qCInfo(lcMcp) << "the event stream of" << exchange.method << "dropped; resuming it in"
                  << delayMs << "ms (attempt" << exchange.resumes << "of" << kMaxResumes << ")";
    std::shared_ptr<Exchange> keep = exchange.shared_from_this();
    QTimer::singleShot(delayMs, this, [this, keep] {
        if (keep->done || !m_http)
            return;
        Net::HttpRequest http;
        http.method = Net::HttpRequest::Method::Get;
        http.url = m_config.url;
        http.headers = {{"Accept", "text/event-stream"},
                        {"Last-Event-ID", keep->lastEventId},
                        {"MCP-Protocol-Version", protocolVersion().toLatin1()}};
        if (!m_sessionId.isEmpty())
            http.headers.append({"Mcp-Session-Id", m_sessionId});
        http.timeoutMs = 0; // the watchdog times it, as it timed the POST
        http.verifyTls = m_config.verifyTls;
        http.maxResponseBytes = m_config.maxResponseBytes;
        signRequest(http);
        keep->resuming = true;
        keep->reply = m_http->post(http);
        keep->reply->setHandler(keep);
        if (keep->watchdog)
            keep->watchdog->restart();
    });
    return true;
}

void Client::resumeRefused(Exchange &exchange, int httpStatus)
{
    Error e = exchange.dropError;
    e = Error::transport(tr("%1 The server could not resume the stream (HTTP %2 to a GET with "
                            "Last-Event-ID).")
                             .arg(e.message())
                             .arg(httpStatus));
    e.setHttpStatus(httpStatus);
    e.setStreamDropped(true);
    exchange.complete({}, e, httpStatus);
}

} // namespace Eddy::Mcp
