#include "app/mcp/exchange.h"

#include "app/mcp/client.h"
#include "app/mcp/connection.h"
#include "app/mcp/notmcp.h"
#include "app/mcp/taskreplyparser.h"

#include <utility>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

// Deeper nesting is refused before parsing: nlohmann::json's dump() and comparisons recurse, so
// a hostile 100,000-level document would overflow the stack once stored.
constexpr int kMaxJsonDepth = 512;

bool tooDeep(const QByteArray &bytes)
{
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : bytes) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

json parseJson(const QByteArray &bytes)
{
    if (tooDeep(bytes))
        return json(json::value_t::discarded);
    return json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, /*allow_exceptions=*/false);
}

QString notJsonMessage(const QString &method, const QByteArray &bytes)
{
    if (tooDeep(bytes))
        return QObject::tr(
                   "The server's answer to %1 is nested deeper than %2 levels; Eddy refuses "
                   "it rather than risk its stack.")
            .arg(method)
            .arg(kMaxJsonDepth);
    return QObject::tr(
               "The server's answer to %1 is not valid JSON (or not UTF-8); check that the URL "
               "points at an MCP endpoint.")
        .arg(method);
}

// A longer Retry-After is capped: a server that asked for hours (or a wrong date) would otherwise
// leave its tasks unpolled long after it came back.
constexpr qint64 kMaxRetryAfterMs = 10 * 60 * 1000;

// Retry-After in ms (-1 when absent or invalid), capped; *note says so when it was.
qint64 retryAfterOf(const QByteArray &header, const QString &method, QString *note)
{
    const qint64 asked = Error::parseRetryAfter(header);
    if (asked <= kMaxRetryAfterMs)
        return asked;
    const QString wait
        = asked >= 3600 * 1000
              ? QObject::tr("%1 h").arg(QString::number(double(asked) / 3600000.0, 'g', 3))
              : QObject::tr("%1 min").arg((asked + 59999) / 60000);
    *note = QObject::tr("the server asked to wait %1; Eddy retries in %2 min")
                .arg(wait)
                .arg(kMaxRetryAfterMs / 60000);
    qCInfo(lcMcp).noquote() << method << "-" << *note;
    return kMaxRetryAfterMs;
}

} // namespace

void Exchange::drop()
{
    done = true;
    onMessage = nullptr;
    onDone = nullptr;
    isPoll = false;
    onStreamOpened = nullptr;
    watchdog.reset();
    if (Net::HttpReply *r = std::exchange(reply, nullptr))
        r->release();
}

void Exchange::replyHeadersReceived(Net::HttpReply *r)
{
    if (done)
        return;
    const QByteArrayView type = r->headerView("Content-Type");
    const QByteArrayView sse("text/event-stream");
    isSse = type.size() >= sse.size()
            && QByteArrayView(type).first(sse.size()).compare(sse, Qt::CaseInsensitive) == 0;
    if (isInitialize)
        connection->setSessionId(r->header("Mcp-Session-Id"));
    if (std::exchange(resuming, false) && (!isSse || r->statusCode() != 200)) {
        refuseResume(r->statusCode());
        return;
    }
    if (watchdog)
        watchdog->headersReceived(isSse);
    if (isSse && onStreamOpened)
        std::exchange(onStreamOpened, nullptr)();
}

void Exchange::refuseResume(int httpStatus)
{
    Error e = dropError;
    e = Error::transport(
        Client::tr("%1 The server could not resume the stream (HTTP %2 to a GET with "
                   "Last-Event-ID).")
            .arg(e.message())
            .arg(httpStatus));
    e.setHttpStatus(httpStatus);
    e.setStreamDropped(true);
    complete({}, e, httpStatus);
}

void Exchange::wentSilent(StreamWatchdog::Limit why, int ms, StreamWatchdog::Floor floor)
{
    const int status = reply ? reply->statusCode() : 0;
    switch (why) {
    case StreamWatchdog::Limit::NoAnswer:
        complete(
            {},
            Error::timeout(QObject::tr("%1: no answer within %2 s.").arg(method).arg(ms / 1000.0)),
            status);
        return;
    case StreamWatchdog::Limit::TooSlow:
        complete({},
                 Error::timeout(QObject::tr("%1: the answer came slower than the floor "
                                            "(%2 bytes a second over %3 s); abandoned as a "
                                            "transient failure.")
                                    .arg(method)
                                    .arg(floor.bytesPerSec)
                                    .arg(ms / 1000.0)),
                 status);
        return;
    case StreamWatchdog::Limit::Silent:
        break;
    }
    Error e = Error::transport(QObject::tr("The event stream of %1 sent nothing (not even a "
                                           "keep-alive) for %2 s; Eddy closed it.")
                                   .arg(method)
                                   .arg(ms / 1000.0));
    e.setHttpStatus(status);
    e.setStreamDropped(true);
    complete({}, e, status);
}

void Exchange::complete(json response, const Error &error, int status)
{
    if (done)
        return;
    auto cb = std::move(onDone);
    // Our answer is in: closing a still-open stream now is not a cancellation.
    drop();
    if (cb)
        cb(response, error, status, retryAfterMs);
}

void Exchange::handleMessage(const json &message, int status)
{
    if (!message.is_object()) {
        complete({},
                 Error::protocol(QObject::tr("The server sent a JSON-RPC message for %1 "
                                             "that is not an object.")
                                     .arg(method)),
                 status);
        return;
    }
    const bool hasMethod = message.contains("method");
    if (!hasMethod && (message.contains("result") || message.contains("error"))) {
        complete(message, {}, status);
        return;
    }
    if (hasMethod && onMessage) {
        auto keep = onMessage; // the callee may end this exchange
        keep(message);
    }
}

void Exchange::onReadyRead()
{
    if (!reply || done)
        return;
    const QByteArray chunk = reply->readAll();
    if (watchdog)
        watchdog->activity(chunk.size());
    if (!isSse) {
        body += chunk;
        return;
    }
    const int status = reply->statusCode();
    for (const Net::SseEvent &event : sse.feed(chunk)) {
        if (done)
            return;
        if (!event.id.isEmpty())
            lastEventId = event.id;
        if (event.event != "message" || event.data.isEmpty())
            continue;
        const json message = parseJson(event.data);
        if (message.is_discarded()) {
            complete({},
                     Error::protocol(tooDeep(event.data)
                                         ? notJsonMessage(method, event.data)
                                         : QObject::tr("The server's event stream for %1 carried "
                                                       "data that is not valid JSON (or not "
                                                       "UTF-8).")
                                               .arg(method)),
                     status);
            return;
        }
        handleMessage(message, status);
    }
}

void Exchange::onFinished()
{
    if (!reply || done)
        return;
    Net::HttpReply *r = reply;
    const int status = r->statusCode();
    const Net::Error net = r->error();
    if (!net.isOk()) {
        switch (net.kind()) {
        case Net::Error::Kind::Timeout:
            complete({}, Error::timeout(QObject::tr("%1: %2").arg(method, net.message())), status);
            return;
        case Net::Error::Kind::TooLarge:
            complete({}, Error::protocol(QObject::tr("%1: %2").arg(method, net.message())), status);
            return;
        case Net::Error::Kind::Aborted:
            complete({}, Error::aborted(), status);
            return;
        default:
            if (!isSse || status == 0 || body.isEmpty()) {
                Error e = Error::transport(QObject::tr("%1: %2").arg(method, net.message()));
                e.setHttpStatus(status);
                e.setStreamDropped(isSse);
                if (isSse && connection->resumeStream(*this, e))
                    return;
                complete({}, e, status);
                return;
            }
        }
    }
    if (isSse) {
        Error e = Error::transport(QObject::tr("The server closed the event stream of %1 "
                                               "before answering; the request will have to be "
                                               "sent again.")
                                       .arg(method));
        e.setHttpStatus(status);
        e.setStreamDropped(true);
        if (connection->resumeStream(*this, e))
            return;
        complete({}, e, status);
        return;
    }
    body += r->readAll();
    if (isPoll && status == 200) {
        TaskState state;
        if (TaskReplyParser::parseGetResponse(
                std::string_view(body.constData(), size_t(body.size())),
                requestNumber,
                std::string_view(expectedTaskId.constData(), size_t(expectedTaskId.size())),
                &state)) {
            const QPointer<TaskJob> job = pollJob;
            release();
            if (job)
                connection->polled(job, std::move(state));
            return;
        }
    }
    const QByteArray retryAfter = r->header("Retry-After");
    if (status == 401 || status == 403) {
        connection->challenged(r->header("WWW-Authenticate"), r->header("DPoP-Nonce"));
    }
    const QByteArray &text = body;
    json message;
    if (!text.trimmed().isEmpty())
        message = parseJson(text);
    bool isRpc = message.is_object() && !message.is_discarded()
                 && (message.contains("result") || message.contains("error"));
    if (isRpc && status >= 400) {
        // On an HTTP error only a real JSON-RPC message speaks for the request: a gateway's
        // {"error": "slow down"} on a 429 or 503 is rate limiting, not the server's answer.
        const auto version = message.find("jsonrpc");
        const auto err = message.find("error");
        isRpc = version != message.end() && version->is_string() && *version == "2.0"
                && (message.contains("result")
                    || (err != message.end() && err->is_object() && err->contains("code")
                        && (*err)["code"].is_number_integer()));
    }
    if (status == 202 && text.trimmed().isEmpty()) {
        complete(json(nullptr), {}, status);
        return;
    }
    if (status >= 200 && status < 300 && !isRpc) {
        // A body that starts like JSON but does not parse is a broken MCP answer, not a web
        // page: only the latter says the URL points at something else.
        const QByteArray head = text.trimmed().left(1);
        const bool jsonShaped = head == "{" || head == "[";
        if (message.is_discarded() && NotMcp::looksLikeIt(status, jsonShaped))
            complete({},
                     NotMcp::error(Error::protocol(
                         NotMcp::message(connection->config().url.toString(), status, method))),
                     status);
        else if (message.is_discarded())
            complete({}, Error::protocol(notJsonMessage(method, text)), status);
        else
            complete({},
                     Error::protocol(QObject::tr("The server's answer to %1 is not a "
                                                 "JSON-RPC response.")
                                         .arg(method)),
                     status);
        return;
    }
    QString capped;
    retryAfterMs = retryAfterOf(retryAfter, method, &capped);
    if (isRpc) {
        // A JSON-RPC body is authoritative whatever the HTTP status (spec digest §5.12).
        complete(std::move(message), {}, status);
        return;
    }
    const QString cappedNote = capped.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(capped);
    Error e;
    if (status == 429)
        e = Error::http(status,
                        QObject::tr("The server is rate-limiting %1 (HTTP 429)%2; Eddy "
                                    "will slow down and retry.")
                            .arg(method, cappedNote));
    else if (status == 503)
        e = Error::http(status,
                        QObject::tr("The server is temporarily unavailable (HTTP 503) "
                                    "for %1%2; Eddy will retry later.")
                            .arg(method, cappedNote));
    else if (status == 401 || status == 403)
        e = Error::http(status,
                        QObject::tr("The server refused %1 (HTTP %2): check the "
                                    "server's access token in its settings.")
                            .arg(method)
                            .arg(status));
    else if (NotMcp::looksLikeIt(status, !message.is_discarded() && !message.is_null()))
        e = NotMcp::error(Error::http(
            status, NotMcp::message(connection->config().url.toString(), status, method)));
    else
        e = Error::http(status,
                        QObject::tr("The server answered %1 with HTTP %2 and no "
                                    "JSON-RPC body; check the server URL.")
                            .arg(method)
                            .arg(status));
    e.setRetryAfterMs(retryAfterMs);
    e.setMethod(method);
    complete({}, e, status);
}

} // namespace Eddy::Mcp
