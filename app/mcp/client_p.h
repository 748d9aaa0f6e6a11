#pragma once

// Private to the Client sources: the helpers and the HTTP exchange its parts share.

#include "app/mcp/client.h"

#include "app/mcp/headers.h"
#include "app/mcp/streamedcall.h"
#include "app/mcp/notmcp.h"
#include "app/mcp/taskreplyparser.h"
#include "app/net/httpclient.h"
#include "app/net/sseparser.h"
#include "app/secret.h"
#include "app/vocab/jsonfield.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <charconv>
#include <set>
#include <utility>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

// json::contains() looks up object keys only: on an array it is always false.
inline bool listsVersion(const json &supported, const char *version)
{
    return supported.is_array()
           && std::find(supported.begin(), supported.end(), json(version)) != supported.end();
}

inline QString originOf(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                        | QUrl::RemoveUserInfo).toString();
}

// Deeper nesting is refused before parsing: nlohmann::json's dump() and comparisons recurse, so
// a hostile 100,000-level document would overflow the stack once stored.
constexpr int kMaxJsonDepth = 512;

inline bool tooDeep(const QByteArray &bytes)
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

inline json parseJson(const QByteArray &bytes)
{
    if (tooDeep(bytes))
        return json(json::value_t::discarded);
    return json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, /*allow_exceptions=*/false);
}

inline QString notJsonMessage(const QString &method, const QByteArray &bytes)
{
    if (tooDeep(bytes))
        return QObject::tr("The server's answer to %1 is nested deeper than %2 levels; Eddy refuses "
                           "it rather than risk its stack.").arg(method).arg(kMaxJsonDepth);
    return QObject::tr("The server's answer to %1 is not valid JSON (or not UTF-8); check that the URL "
                       "points at an MCP endpoint.").arg(method);
}

// resultType of a result object: absent means "complete" (pre-2026 servers).
inline QString resultTypeOf(const json &result)
{
    const auto it = result.find("resultType");
    if (it == result.end())
        return QStringLiteral("complete");
    if (!it->is_string())
        return QStringLiteral("<not a string>");
    return QString::fromStdString(it->get<std::string>());
}

inline std::string idKey(const json &id)
{
    return id.is_string() ? id.get<std::string>() : id.dump();
}

constexpr int kMaxInputRounds = 32;

// A longer Retry-After is capped: a server that asked for hours (or a wrong date) would otherwise
// leave its tasks unpolled long after it came back.
constexpr qint64 kMaxRetryAfterMs = 10 * 60 * 1000;

// Retry-After in ms (-1 when absent or invalid), capped; *note says so when it was.
inline qint64 retryAfterOf(const QByteArray &header, const QString &method, QString *note)
{
    const qint64 asked = Error::parseRetryAfter(header);
    if (asked <= kMaxRetryAfterMs)
        return asked;
    const QString wait = asked >= 3600 * 1000
                             ? QObject::tr("%1 h").arg(QString::number(double(asked) / 3600000.0, 'g', 3))
                             : QObject::tr("%1 min").arg((asked + 59999) / 60000);
    *note = QObject::tr("the server asked to wait %1; Eddy retries in %2 min")
                .arg(wait).arg(kMaxRetryAfterMs / 60000);
    qCInfo(lcMcp).noquote() << method << "-" << *note;
    return kMaxRetryAfterMs;
}

// The call carries a key the server deduplicates on (eddy-cfd-server's `idempotency_key`, the
// argument Eddy's sweeps fill in), so sending it twice yields one task.
inline bool hasIdempotencyKey(const json &arguments)
{
    const auto it = arguments.find("idempotency_key");
    return arguments.is_object() && it != arguments.end() && it->is_string() && !it->get<std::string>().empty();
}

inline DiscoverInfo discoverInfoFromResult(const json &result)
{
    DiscoverInfo info;
    info.era = Era::Modern;
    info.protocolVersion = QString::fromLatin1(kModernVersion);
    const json versions = result.value("supportedVersions", json::array());
    if (versions.is_array())
        for (const json &v : versions)
            if (v.is_string())
                info.supportedVersions << QString::fromStdString(v.get<std::string>());
    const json caps = result.value("capabilities", json::object());
    info.capabilities = caps.is_object() ? caps : json::object();
    const json meta = result.value("_meta", json::object());
    const json serverInfo = meta.is_object()
                                ? meta.value("io.modelcontextprotocol/serverInfo", json::object())
                                : json::object();
    info.serverName = Json::string(serverInfo, "name");
    info.serverVersion = Json::string(serverInfo, "version");
    info.instructions = Json::string(result, "instructions");
    const auto ttl = result.find("ttlMs");
    info.ttlMs = ttl != result.end() && ttl->is_number_integer() ? ttl->get<qint64>() : 0;
    info.fetchedAt = QDateTime::currentDateTimeUtc();
    return info;
}

inline json errorObjectOf(const Error &e)
{
    json out = {{"code", e.code()}, {"message", e.serverMessage().toStdString()}};
    if (!e.data().is_null())
        out["data"] = e.data();
    return out;
}

} // namespace

// One HTTP POST carrying one JSON-RPC message, answered by JSON or by an SSE stream. Messages on
// the stream other than our response go to onMessage; done() runs once with the response.
// The reply's handler (called directly, no signal connections per request); the reply keeps it
// alive while it lives.
struct Client::Exchange final : Net::HttpReply::Handler,
                                 Abortable,
                                 std::enable_shared_from_this<Client::Exchange>
{
    Client *client = nullptr; // ends every exchange before it goes (~Client)
    Net::HttpReply *reply = nullptr;
    Net::SseParser sse;
    QByteArray body;
    json requestId;
    QString method;
    bool isSse = false;
    bool isInitialize = false; // its answer carries the legacy session id
    bool done = false;
    qint64 retryAfterMs = -1; // from Retry-After, for the caller's error
    std::function<void(const json &)> onMessage;
    Client::ExchangeDone onDone;
    // tasks/get (modern): a steady-state answer goes straight into the job's TaskState, no JSON
    // tree. The id shares the request's Mcp-Name bytes.
    QPointer<TaskJob> pollJob;
    QByteArray expectedTaskId;
    qint64 requestNumber = 0;
    bool isPoll = false;
    // A call that may be answered as a long stream (streamedcall.h): told when the stream opens,
    // and timed by the watchdog instead of a total HTTP timeout.
    std::function<void()> onStreamOpened;
    std::unique_ptr<StreamWatchdog> watchdog;
    // Its stream may be resumed with GET + Last-Event-ID when it drops.
    bool resumable = false;
    bool resuming = false; // a resumption GET is under way
    int resumes = 0;
    QByteArray lastEventId;
    Error dropError; // why the stream was being resumed

    // Ends the exchange: no more callbacks; the reply is released (a running one ends quietly).
    void drop()
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
    void release() { drop(); }
    void abort() override { drop(); }

    void replyHeadersReceived(Net::HttpReply *r) override
    {
        if (done)
            return;
        const QByteArrayView type = r->headerView("Content-Type");
        const QByteArrayView sse("text/event-stream");
        isSse = type.size() >= sse.size()
                && QByteArrayView(type).first(sse.size()).compare(sse, Qt::CaseInsensitive) == 0;
        if (isInitialize)
            client->m_sessionId = r->header("Mcp-Session-Id");
        if (std::exchange(resuming, false) && (!isSse || r->statusCode() != 200)) {
            client->resumeRefused(*this, r->statusCode());
            return;
        }
        if (watchdog)
            watchdog->headersReceived(isSse);
        if (isSse && onStreamOpened)
            std::exchange(onStreamOpened, nullptr)();
    }
    // The watchdog's limit passed: no answer in time, too slow (below `floor`), or a stream that
    // went silent.
    void wentSilent(StreamWatchdog::Limit why, int ms, StreamWatchdog::Floor floor)
    {
        const int status = reply ? reply->statusCode() : 0;
        switch (why) {
        case StreamWatchdog::Limit::NoAnswer:
            complete({}, Error::timeout(QObject::tr("%1: no answer within %2 s.")
                                            .arg(method).arg(ms / 1000.0)), status);
            return;
        case StreamWatchdog::Limit::TooSlow:
            complete({}, Error::timeout(QObject::tr("%1: the answer came slower than the floor "
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
                                       .arg(method).arg(ms / 1000.0));
        e.setHttpStatus(status);
        e.setStreamDropped(true);
        complete({}, e, status);
    }
    void replyReadyRead(Net::HttpReply *) override { onReadyRead(); }
    void replyFinished(Net::HttpReply *) override { onFinished(); }

    void complete(json response, const Error &error, int status)
    {
        if (done)
            return;
        auto cb = std::move(onDone);
        // Our answer is in: closing a still-open stream now is not a cancellation.
        drop();
        if (cb)
            cb(response, error, status, retryAfterMs);
    }

    // A message from the server: our response ends the exchange; everything else is passed on.
    void handleMessage(const json &message, int status)
    {
        if (!message.is_object()) {
            complete({}, Error::protocol(QObject::tr("The server sent a JSON-RPC message for %1 "
                                                     "that is not an object.").arg(method)),
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

    void onReadyRead()
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
                complete({}, Error::protocol(tooDeep(event.data)
                                                 ? notJsonMessage(method, event.data)
                                                 : QObject::tr("The server's event stream for %1 carried "
                                                               "data that is not valid JSON (or not "
                                                               "UTF-8).").arg(method)), status);
                return;
            }
            handleMessage(message, status);
        }
    }

    void onFinished()
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
                    if (isSse && client->resumeStream(*this, e))
                        return;
                    complete({}, e, status);
                    return;
                }
            }
        }
        if (isSse) {
            Error e = Error::transport(QObject::tr("The server closed the event stream of %1 "
                                                   "before answering; the request will have to be "
                                                   "sent again.").arg(method));
            e.setHttpStatus(status);
            e.setStreamDropped(true);
            if (client->resumeStream(*this, e))
                return;
            complete({}, e, status);
            return;
        }
        body += r->readAll();
        if (isPoll && status == 200) {
            TaskState state;
            if (TaskReplyParser::parseGetResponse(
                    std::string_view(body.constData(), size_t(body.size())), requestNumber,
                    std::string_view(expectedTaskId.constData(), size_t(expectedTaskId.size())),
                    &state)) {
                const QPointer<TaskJob> job = pollJob;
                release();
                if (job)
                    Client::finishPoll(job, std::move(state));
                return;
            }
        }
        const QByteArray retryAfter = r->header("Retry-After");
        if (status == 401 || status == 403) {
            client->m_lastChallenge = r->header("WWW-Authenticate");
            client->m_lastDpopNonce = r->header("DPoP-Nonce");
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
                complete({}, NotMcp::error(Error::protocol(NotMcp::message(client->config().url.toString(), status, method))),
                         status);
            else if (message.is_discarded())
                complete({}, Error::protocol(notJsonMessage(method, text)), status);
            else
                complete({}, Error::protocol(QObject::tr("The server's answer to %1 is not a "
                                                         "JSON-RPC response.").arg(method)),
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
            e = Error::http(status, QObject::tr("The server is rate-limiting %1 (HTTP 429)%2; Eddy "
                                                "will slow down and retry.").arg(method, cappedNote));
        else if (status == 503)
            e = Error::http(status, QObject::tr("The server is temporarily unavailable (HTTP 503) "
                                                "for %1%2; Eddy will retry later.").arg(method, cappedNote));
        else if (status == 401 || status == 403)
            e = Error::http(status, QObject::tr("The server refused %1 (HTTP %2): check the "
                                                "server's access token in its settings.")
                                        .arg(method).arg(status));
        else if (NotMcp::looksLikeIt(status, !message.is_discarded() && !message.is_null()))
            e = NotMcp::error(Error::http(status, NotMcp::message(client->config().url.toString(), status, method)));
        else
            e = Error::http(status, QObject::tr("The server answered %1 with HTTP %2 and no "
                                                "JSON-RPC body; check the server URL.")
                                        .arg(method).arg(status));
        e.setRetryAfterMs(retryAfterMs);
        e.setMethod(method);
        complete({}, e, status);
    }
};

} // namespace Eddy::Mcp
