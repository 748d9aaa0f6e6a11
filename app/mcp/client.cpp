#include "app/mcp/client.h"

#include "app/mcp/headers.h"
#include "app/mcp/streamedcall.h"
#include "app/mcp/taskreplyparser.h"
#include "app/net/httpclient.h"
#include "app/net/sseparser.h"
#include "app/secret.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <charconv>
#include <set>
#include <utility>

Q_LOGGING_CATEGORY(lcMcp, "eddy.mcp")

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

// Era per origin for this process (CORE-VER: cache per origin).
QHash<QString, Era> &eraCache()
{
    static QHash<QString, Era> cache;
    return cache;
}

// json::contains() looks up object keys only: on an array it is always false.
bool listsVersion(const json &supported, const char *version)
{
    return supported.is_array()
           && std::find(supported.begin(), supported.end(), json(version)) != supported.end();
}

QString originOf(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                        | QUrl::RemoveUserInfo).toString();
}

QString jsonString(const json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

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
        return QObject::tr("The server's answer to %1 is nested deeper than %2 levels; Eddy refuses "
                           "it rather than risk its stack.").arg(method).arg(kMaxJsonDepth);
    return QObject::tr("The server's answer to %1 is not valid JSON (or not UTF-8); check that the URL "
                       "points at an MCP endpoint.").arg(method);
}

// resultType of a result object: absent means "complete" (pre-2026 servers).
QString resultTypeOf(const json &result)
{
    const auto it = result.find("resultType");
    if (it == result.end())
        return QStringLiteral("complete");
    if (!it->is_string())
        return QStringLiteral("<not a string>");
    return QString::fromStdString(it->get<std::string>());
}

std::string idKey(const json &id)
{
    return id.is_string() ? id.get<std::string>() : id.dump();
}

constexpr int kMaxInputRounds = 32;

// A longer Retry-After is capped: a server that asked for hours (or a wrong date) would otherwise
// leave its tasks unpolled long after it came back.
constexpr qint64 kMaxRetryAfterMs = 10 * 60 * 1000;

// Retry-After in ms (-1 when absent or invalid), capped; *note says so when it was.
qint64 retryAfterOf(const QByteArray &header, const QString &method, QString *note)
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
bool hasIdempotencyKey(const json &arguments)
{
    const auto it = arguments.find("idempotency_key");
    return arguments.is_object() && it != arguments.end() && it->is_string() && !it->get<std::string>().empty();
}

DiscoverInfo discoverInfoFromResult(const json &result)
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
    info.serverName = jsonString(serverInfo, "name");
    info.serverVersion = jsonString(serverInfo, "version");
    info.instructions = jsonString(result, "instructions");
    const auto ttl = result.find("ttlMs");
    info.ttlMs = ttl != result.end() && ttl->is_number_integer() ? ttl->get<qint64>() : 0;
    info.fetchedAt = QDateTime::currentDateTimeUtc();
    return info;
}

json errorObjectOf(const Error &e)
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
    // Its stream may be resumed with GET + Last-Event-ID (streamresume.cpp) when it drops.
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
    // The watchdog's limit passed: no answer in time, or a stream that went silent.
    void wentSilent(bool streaming, int ms)
    {
        const int status = reply ? reply->statusCode() : 0;
        if (!streaming) {
            complete({}, Error::timeout(QObject::tr("%1: no answer within %2 s.")
                                            .arg(method).arg(ms / 1000.0)), status);
            return;
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

    void complete(const json &response, const Error &error, int status)
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
            watchdog->activity();
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
            if (message.is_discarded())
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
            complete(message, {}, status);
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
        else
            e = Error::http(status, QObject::tr("The server answered %1 with HTTP %2 and no "
                                                "JSON-RPC body; check the server URL.")
                                        .arg(method).arg(status));
        e.setRetryAfterMs(retryAfterMs);
        e.setMethod(method);
        complete({}, e, status);
    }
};

Client::Client(ServerConfig config, Net::HttpClient *http, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_tokenUtf8(m_config.token.toUtf8()), m_http(http)
{
    const auto cached = eraCache().constFind(originOf(m_config.url));
    if (cached != eraCache().constEnd())
        m_era = *cached;
    if (!m_config.verifyTls)
        qCWarning(lcMcp) << "TLS verification is OFF for" << originOf(m_config.url)
                         << "- anyone on the network path can read task ids and results";
}

Client::~Client()
{
    for (const std::weak_ptr<Exchange> &weak : m_exchanges) {
        if (auto exchange = weak.lock())
            exchange->abort();
    }
    // Only while the HTTP client lives: an owner may delete it before this client.
    if (m_http && m_era == Era::Legacy && !m_sessionId.isEmpty())
        endLegacySession();
}

void Client::endLegacySession()
{
    // 2025-11-25: a client that no longer needs its session SHOULD DELETE it. Nobody waits for
    // the answer; the reply belongs to the HTTP client, which outlives this one.
    Net::HttpRequest http;
    http.url = m_config.url;
    http.method = Net::HttpRequest::Method::Delete;
    http.headers = {{"MCP-Protocol-Version", protocolVersion().toLatin1()},
                    {"Mcp-Session-Id", m_sessionId}};
    http.timeoutMs = std::min(m_config.timeoutMs > 0 ? m_config.timeoutMs : 10000, 10000);
    http.verifyTls = m_config.verifyTls;
    http.bearerToken = m_tokenUtf8;
    Net::HttpReply *reply = m_http->post(http);
    reply->setParent(m_http.data());
    connect(reply, &Net::HttpReply::finished, reply, &QObject::deleteLater);
    qCDebug(lcMcp) << "ending legacy session" << redactSecret(QString::fromLatin1(m_sessionId));
    m_sessionId.clear();
}

void Client::clearEraCache()
{
    eraCache().clear();
}

void Client::setEra(Era era)
{
    setEraInternal(era, false);
}

void Client::setEraInternal(Era era, bool announce)
{
    if (m_era != era) {
        m_legacyReady = false;
        m_sessionId.clear();
    }
    m_era = era;
    if (era == Era::Unknown)
        eraCache().remove(originOf(m_config.url));
    else
        eraCache().insert(originOf(m_config.url), era);
    if (announce)
        emit eraDetected(era);
}

QString Client::protocolVersion() const
{
    if (m_era == Era::Legacy)
        return m_version.isEmpty() ? QString::fromLatin1(kLegacyVersion) : m_version;
    return QString::fromLatin1(kModernVersion);
}

json Client::makeMeta(const QByteArray &traceparent) const
{
    json meta = json::object();
    if (m_era != Era::Legacy) {
        meta["io.modelcontextprotocol/protocolVersion"] = kModernVersion;
        meta["io.modelcontextprotocol/clientInfo"] = {{"name", "eddy"}, {"version", EDDY_VERSION}};
        meta["io.modelcontextprotocol/clientCapabilities"] = {
            {"elicitation", {{"form", json::object()}, {"url", json::object()}}},
            {"extensions", {{kTasksExtension, json::object()}}}};
    }
    if (!traceparent.isEmpty())
        meta["traceparent"] = traceparent.toStdString();
    return meta;
}

QList<std::pair<QByteArray, QByteArray>> Client::makeHeaders(const Request &request) const
{
    using Header = std::pair<QByteArray, QByteArray>;
    // Literals: no allocation per request for the names and constant values.
    static const Header accept(QByteArrayLiteral("Accept"),
                               QByteArrayLiteral("application/json, text/event-stream"));
    static const Header contentType(QByteArrayLiteral("Content-Type"),
                                    QByteArrayLiteral("application/json"));
    QList<Header> headers;
    if (m_era == Era::Legacy) {
        headers = {accept, contentType};
        if (request.method != QLatin1String("initialize"))
            headers.append(Header(QByteArrayLiteral("MCP-Protocol-Version"),
                                  protocolVersion().toLatin1()));
        if (!m_sessionId.isEmpty())
            headers.append(Header(QByteArrayLiteral("Mcp-Session-Id"), m_sessionId));
        return headers;
    }
    if (m_modernHeaders.isEmpty())
        m_modernHeaders = {accept, contentType,
                           Header(QByteArrayLiteral("MCP-Protocol-Version"),
                                  QByteArray(kModernVersion))};
    headers.reserve(m_modernHeaders.size() + 2 + request.extraHeaders.size());
    headers += m_modernHeaders;
    const bool isGet = request.method == QLatin1String("tasks/get");
    headers.append(Header(QByteArrayLiteral("Mcp-Method"),
                          isGet ? QByteArrayLiteral("tasks/get") : request.method.toUtf8()));
    if (!request.mcpName.isNull())
        headers.append(Header(QByteArrayLiteral("Mcp-Name"), Headers::encodeUtf8(request.mcpName)));
    headers += request.extraHeaders;
    return headers;
}

std::shared_ptr<Client::Exchange> Client::post(
    const Request &request, const json &message,
    ExchangeDone done)
{
    return post(request,
                QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)),
                message.contains("id") ? message["id"] : json(), std::move(done));
}

std::shared_ptr<Client::Exchange> Client::post(const Request &request, QByteArray body,
                                               const json &requestId, ExchangeDone done)
{
    Net::HttpRequest http;
    http.url = m_config.url;
    http.headers = makeHeaders(request);
    http.body = std::move(body);
    http.timeoutMs = request.timeoutMs < 0 ? 0
                     : request.timeoutMs > 0 ? request.timeoutMs
                                             : m_config.timeoutMs;
    if (request.timeoutMs >= 0) { // a listen stream may be silent for as long as it likes
        http.lowSpeedBytesPerSec = m_config.lowSpeedBytesPerSec;
        http.lowSpeedWindowMs = m_config.lowSpeedWindowMs;
    }
    http.verifyTls = m_config.verifyTls;
    http.maxResponseBytes = m_config.maxResponseBytes;
    http.bearerToken = m_tokenUtf8;
    // A poll reads and changes nothing: it may take the HTTP client's poll lane.
    http.mayRepeat = request.method == QLatin1String("tasks/get");

    auto exchange = std::make_shared<Exchange>();
    exchange->client = this;
    exchange->method = request.method;
    exchange->isInitialize = request.method == QLatin1String("initialize");
    exchange->requestId = requestId;
    exchange->onDone = std::move(done);
    exchange->reply = m_http->post(http);
    if (request.onStreamOpened) {
        exchange->resumable = m_era == Era::Legacy; // GET + Last-Event-ID is 2025-11-25 wire
        exchange->onStreamOpened = request.onStreamOpened;
        std::weak_ptr<Exchange> weak = exchange;
        exchange->watchdog = std::make_unique<StreamWatchdog>(
            request.firstByteMs > 0 ? request.firstByteMs : m_config.timeoutMs, request.streamIdleMs,
            [weak](bool streaming, int ms) {
                if (auto e = weak.lock())
                    e->wentSilent(streaming, ms);
            });
    }
    if (m_exchanges.size() >= m_exchangeSweepAt) {
        std::erase_if(m_exchanges, [](const std::weak_ptr<Exchange> &w) { return w.expired(); });
        m_exchangeSweepAt = std::max<size_t>(64, 2 * m_exchanges.size());
    }
    m_exchanges.push_back(exchange);
    // The reply keeps the exchange alive even if the caller drops its pointer.
    exchange->reply->setHandler(exchange);
    return exchange;
}

void Client::whenReady(std::function<void(const Error &)> then)
{
    if (m_era == Era::Modern || (m_era == Era::Legacy && m_legacyReady)) {
        then({});
        return;
    }
    m_waiting.push_back(std::move(then));
    if (m_detecting)
        return;
    m_detecting = true;
    if (m_era == Era::Legacy)
        legacyInitialize([this](const Error &e) {
            m_detecting = false;
            auto waiting = std::move(m_waiting);
            m_waiting.clear();
            for (auto &w : waiting)
                w(e);
        });
    else
        detectEra();
}

void Client::detectEra(bool versionRetried)
{
    auto release = [this](const Error &e) {
        m_detecting = false;
        auto waiting = std::move(m_waiting);
        m_waiting.clear();
        for (auto &w : waiting)
            w(e);
    };
    auto goLegacy = [this, release] {
        qCInfo(lcMcp) << originOf(m_config.url) << "is not a 2026-07-28 server; trying 2025-11-25";
        setEraInternal(Era::Legacy, false);
        legacyInitialize([this, release](const Error &e) {
            if (e.isOk())
                emit eraDetected(Era::Legacy);
            else
                setEraInternal(Era::Unknown, false);
            release(e);
        });
    };
    Request request;
    request.method = QStringLiteral("server/discover");
    const json message = {{"jsonrpc", "2.0"},
                          {"id", m_nextId++},
                          {"method", "server/discover"},
                          {"params", {{"_meta", makeMeta({})}}}};
    post(request, message, [=, this](const json &response, const Error &error, int status, qint64) {
        if (status == 401 || status == 403) {
            // Authentication says nothing about the era: report it and detect again later.
            release(error.isOk() ? Error::fromJsonRpcObject(response.value("error", json()),
                                                            QStringLiteral("server/discover"), status)
                                 : error);
            return;
        }
        if (!error.isOk()) {
            // An HTTP error without a JSON-RPC body (400/404/405) means a pre-2026 server.
            if (error.kind() == Error::Kind::Http
                && (status == 400 || status == 404 || status == 405)) {
                goLegacy();
                return;
            }
            release(error);
            return;
        }
        if (response.contains("error")) {
            const Error rpc = Error::fromJsonRpcObject(response["error"], QStringLiteral("server/discover"), status);
            const int code = rpc.code();
            if (code == ErrorCode::UnsupportedProtocolVersion) {
                // Modern server that does not speak our version: only a legacy overlap helps.
                // If it lists the version we sent (a proxy or a fleet mid-upgrade answered),
                // the mutually supported version is ours: ask once more, never in a loop.
                const json supported = rpc.data().is_object() ? rpc.data().value("supported", json::array())
                                                              : json::array();
                if (!versionRetried && listsVersion(supported, kModernVersion)) {
                    qCInfo(lcMcp) << originOf(m_config.url) << "refused" << kModernVersion
                                  << "although it lists it; asking once more";
                    detectEra(true);
                    return;
                }
                for (const json &v : supported) {
                    if (v.is_string() && v.get<std::string>() == kLegacyVersion) {
                        goLegacy();
                        return;
                    }
                }
                release(rpc);
                return;
            }
            if (code == ErrorCode::HeaderMismatch
                || code == ErrorCode::MissingRequiredClientCapability) {
                setEraInternal(Era::Modern, true);
                release(rpc);
                return;
            }
            // Every modern server implements server/discover, so any other error here
            // (-32601, -32600, "not initialized", ...) is a legacy server.
            goLegacy();
            return;
        }
        const json result = response.value("result", json());
        if (!result.is_object() || !result.contains("supportedVersions")) {
            goLegacy();
            return;
        }
        m_discovery = discoverInfoFromResult(result);
        setEraInternal(Era::Modern, true);
        release({});
    });
}

void Client::legacyInitialize(std::function<void(const Error &)> then)
{
    m_sessionId.clear();
    m_legacyReady = false;
    Request request;
    request.method = QStringLiteral("initialize");
    const json message = {
        {"jsonrpc", "2.0"},
        {"id", m_nextId++},
        {"method", "initialize"},
        {"params",
         {{"protocolVersion", kLegacyVersion},
          {"capabilities", {{"elicitation", {{"form", json::object()}, {"url", json::object()}}}}},
          {"clientInfo", {{"name", "eddy"}, {"version", EDDY_VERSION}}}}}};
    post(request, message, [this, then](const json &response, const Error &error, int status, qint64) {
        if (!error.isOk()) {
            then(error);
            return;
        }
        if (response.contains("error")) {
            then(Error::fromJsonRpcObject(response["error"], QStringLiteral("initialize"), status));
            return;
        }
        const json result = response.value("result", json());
        const QString version = jsonString(result, "protocolVersion");
        static const QStringList known{QString::fromLatin1(kLegacyVersion),
                                       QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26")};
        if (!known.contains(version)) {
            then(Error::protocol(tr("The server chose protocol version \"%1\", which Eddy does not "
                                    "speak; update Eddy or the server.").arg(version)));
            return;
        }
        m_version = version;
        DiscoverInfo info;
        info.era = Era::Legacy;
        info.protocolVersion = version;
        info.supportedVersions = {version};
        const json caps = result.value("capabilities", json::object());
        info.capabilities = caps.is_object() ? caps : json::object();
        const json serverInfo = result.value("serverInfo", json::object());
        info.serverName = jsonString(serverInfo, "name");
        info.serverVersion = jsonString(serverInfo, "version");
        info.instructions = jsonString(result, "instructions");
        info.fetchedAt = QDateTime::currentDateTimeUtc();
        m_discovery = info;
        Request note;
        note.method = QStringLiteral("notifications/initialized");
        post(note, json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
             [this, then](const json &, const Error &e, int, qint64) {
                 if (e.isOk())
                     m_legacyReady = true;
                 then(e);
             });
    });
}

void Client::finishLater(Job *job, const Error &error)
{
    QPointer<Job> guard(job);
    QTimer::singleShot(0, job, [guard, error] {
        if (guard)
            guard->finish(error);
    });
}

void Client::send(Request request, RpcDone done, QObject *context)
{
    QPointer<QObject> guard(context);
    if (m_era == Era::Modern || (m_era == Era::Legacy && m_legacyReady)) { // whenReady's fast path
        sendNow(std::move(request), std::move(done), guard);
        return;
    }
    whenReady([this, request = std::move(request), done = std::move(done), guard](const Error &e) mutable {
        if (!guard)
            return;
        if (!e.isOk()) {
            done({json(), e});
            return;
        }
        sendNow(std::move(request), std::move(done), guard);
    });
}

std::shared_ptr<Client::Exchange> Client::sendNow(Request request, RpcDone done,
                                                  QPointer<QObject> context)
{
    const qint64 id = m_nextId++;
    if (request.isPoll && m_era == Era::Modern) {
        // The steady-state poll: body written directly, answer read without a JSON tree.
        const QByteArray taskId = request.mcpName; // shared, not copied
        QPointer<TaskJob> job = request.pollJob;
        QByteArray body = modernGetBody(
            id, std::string_view(taskId.constData(), size_t(taskId.size())), request.traceparent);
        auto exchange = sendNow(std::move(request), std::move(done), context, id, std::move(body));
        if (!exchange->done) {
            exchange->isPoll = true;
            exchange->pollJob = std::move(job);
            exchange->expectedTaskId = taskId;
            exchange->requestNumber = id;
        }
        return exchange;
    }
    if (request.isPoll && !request.params.contains("taskId"))
        request.params = {{"taskId", request.mcpName.toStdString()}};
    json params = request.params.is_object() ? request.params : json::object();
    json meta = makeMeta(request.traceparent);
    if (const auto existing = params.find("_meta"); existing != params.end() && existing->is_object())
        for (auto it = existing->begin(); it != existing->end(); ++it)
            meta[it.key()] = it.value();
    if (!meta.empty())
        params["_meta"] = std::move(meta);
    const json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", request.method.toStdString()},
                          {"params", std::move(params)}};
    if (auto *listen = qobject_cast<Listen *>(context.data()))
        listen->m_requestId = id;
    return sendNow(std::move(request), std::move(done), context, id,
                   QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)));
}

QByteArray Client::modernGetBody(qint64 id, std::string_view taskId, const QByteArray &traceparent)
{
    if (m_modernMeta.isEmpty()) {
        const std::string meta = makeMeta({}).dump(); // {...}: keep the members only
        m_modernMeta = QByteArray::fromStdString(meta.substr(1, meta.size() - 2));
    }
    // Task ids and traceparents are nearly always plain ASCII; anything else goes through the
    // JSON writer so the body stays valid whatever the server chose as an id.
    const auto quoted = [](QByteArray &out, std::string_view text) {
        const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
            return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        });
        if (plain) {
            out += '"';
            out.append(text.data(), qsizetype(text.size()));
            out += '"';
        } else {
            out += QByteArray::fromStdString(
                json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace));
        }
    };
    QByteArray body;
    body.reserve(160 + m_modernMeta.size() + qsizetype(taskId.size()) + traceparent.size());
    body += "{\"jsonrpc\":\"2.0\",\"id\":";
    char digits[24]; // written in place: QByteArray::number would allocate per poll
    body.append(digits, std::to_chars(digits, digits + sizeof digits, id).ptr - digits);
    body += ",\"method\":\"tasks/get\",\"params\":{\"taskId\":";
    quoted(body, taskId);
    body += ",\"_meta\":{";
    body += m_modernMeta;
    if (!traceparent.isEmpty()) {
        body += ",\"traceparent\":";
        quoted(body, std::string_view(traceparent.constData(), size_t(traceparent.size())));
    }
    body += "}}}";
    return body;
}

std::shared_ptr<Client::Exchange> Client::sendNow(Request request, RpcDone done,
                                                  QPointer<QObject> context, qint64 id,
                                                  QByteArray body)
{
    // The session this request carries: its 404 ends that session, never a newer one.
    const QByteArray sentSession = m_era == Era::Legacy ? m_sessionId : QByteArray();
    auto exchange = post(request, std::move(body), json(id), nullptr);
    if (request.onNotification || request.onServerRequest) {
        auto onNotification = request.onNotification;
        auto onServerRequest = request.onServerRequest;
        exchange->onMessage = [onNotification, onServerRequest](const json &msg) {
            if (msg.contains("id")) {
                if (onServerRequest)
                    onServerRequest(msg);
            } else if (onNotification) {
                onNotification(msg);
            }
        };
    }
    if (auto *job = qobject_cast<Job *>(context.data()))
        job->m_abortTarget = exchange;
    else if (auto *listen = qobject_cast<Listen *>(context.data()))
        listen->m_abortTarget = exchange;
    // Set last, so the request moves into it instead of being copied.
    exchange->onDone = [this, request = std::move(request), done = std::move(done), context, id, sentSession](
                           const json &response, const Error &error, int status,
                           qint64 retryAfterMs) mutable {
        if (!context)
            return;
        const bool legacySessionGone = m_era == Era::Legacy && !sentSession.isEmpty()
                                       && status == 404 && request.allowReinit;
        if (legacySessionGone) {
            // 2025-11-25: a 404 on a request carrying a session id means the session is gone.
            // After a server restart every request in flight gets one: only the first ends the
            // session; the others must neither fail nor clear the session initialized since
            // (a request sent without one is answered -32602, which reads as "task gone").
            if (m_sessionId == sentSession) {
                qCInfo(lcMcp) << "legacy session expired; initializing again";
                m_legacyReady = false;
                m_sessionId.clear();
            }
            request.allowReinit = false;
            send(std::move(request), std::move(done), context);
            return;
        }
        if (!error.isOk()) {
            Error e = error;
            e.setMethod(request.method);
            if (retryAfterMs >= 0)
                e.setRetryAfterMs(retryAfterMs);
            done({json(), e});
            return;
        }
        if (response.is_null()) { // 202 Accepted
            done({json(), {}});
            return;
        }
        const auto version = response.find("jsonrpc");
        if (version == response.end() || *version != "2.0") {
            done({json(), Error::protocol(tr("The server's answer to %1 is not JSON-RPC 2.0.")
                                              .arg(request.method))});
            return;
        }
        const auto rid = response.find("id");
        if (response.contains("error")) {
            if (rid != response.end() && !rid->is_null() && *rid != json(id)) {
                done({json(), Error::protocol(tr("The server answered %1 with an error for another "
                                                 "request id.").arg(request.method))});
                return;
            }
            Error rpc = Error::fromJsonRpcObject(response["error"], request.method, status);
            rpc.setRetryAfterMs(retryAfterMs);
            if (rpc.code() == ErrorCode::UnsupportedProtocolVersion && m_era == Era::Modern
                && request.allowVersionRetry) {
                const json supported = rpc.data().is_object()
                                           ? rpc.data().value("supported", json::array())
                                           : json::array();
                if (listsVersion(supported, kModernVersion)) {
                    // It lists the version we sent: ask once more, with a new id.
                    request.allowVersionRetry = false;
                    send(std::move(request), std::move(done), context);
                    return;
                }
                if (listsVersion(supported, kLegacyVersion)) {
                    setEraInternal(Era::Legacy, true);
                    request.allowVersionRetry = false;
                    send(std::move(request), std::move(done), context);
                    return;
                }
            }
            done({json(), rpc});
            return;
        }
        if (rid == response.end() || *rid != json(id)) {
            done({json(), Error::protocol(tr("The server's answer to %1 has a missing or wrong "
                                             "request id; it cannot be trusted.").arg(request.method))});
            return;
        }
        const json &result = response["result"];
        if (!result.is_object()) {
            done({json(), Error::protocol(tr("The server's result for %1 is not a JSON object.")
                                              .arg(request.method))});
            return;
        }
        done({result, {}});
    };
    return exchange;
}

DiscoverJob *Client::discover(bool forceRefresh)
{
    auto *job = new DiscoverJob(this);
    QPointer<DiscoverJob> guard(job);
    whenReady([this, guard, forceRefresh](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        const bool fresh = m_discovery
                           && (m_era == Era::Legacy
                               || m_discovery->fetchedAt.addMSecs(m_discovery->ttlMs)
                                      > QDateTime::currentDateTimeUtc());
        if (m_discovery && ((fresh && !forceRefresh) || m_era == Era::Legacy)) {
            guard->m_info = *m_discovery;
            finishLater(guard);
            return;
        }
        Request request;
        request.method = QStringLiteral("server/discover");
        sendNow(request, [this, guard](RpcResult r) {
            if (!guard)
                return;
            if (r.error.isOk()) {
                if (!r.result.contains("supportedVersions") || !r.result.contains("capabilities")) {
                    guard->finish(Error::protocol(tr("The server's discover result lacks "
                                                     "supportedVersions or capabilities.")));
                    return;
                }
                m_discovery = discoverInfoFromResult(r.result);
                guard->m_info = *m_discovery;
            }
            guard->finish(r.error);
        }, guard.data());
    });
    return job;
}

ToolsJob *Client::listTools()
{
    auto *job = new ToolsJob(this);
    QPointer<ToolsJob> guard(job);
    auto collected = std::make_shared<json>(json::array());
    auto cursors = std::make_shared<std::set<std::string>>(); // every nextCursor seen so far
    auto page = std::make_shared<std::function<void(json)>>();
    *page = [this, guard, collected, cursors, page](json cursor) {
        Request request;
        request.method = QStringLiteral("tools/list");
        if (!cursor.is_null())
            request.params["cursor"] = cursor;
        send(request, [this, guard, collected, cursors, page](RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk()) {
                guard->finish(r.error);
                *page = nullptr;
                return;
            }
            const QString rt = resultTypeOf(r.result);
            const auto tools = r.result.find("tools");
            if (rt != QLatin1String("complete") || tools == r.result.end() || !tools->is_array()) {
                guard->finish(Error::protocol(tr("The server's tools/list result is invalid "
                                                 "(resultType \"%1\", tools %2).")
                                                  .arg(rt, tools == r.result.end() ? tr("missing")
                                                                                   : tr("not a list"))));
                *page = nullptr;
                return;
            }
            for (const json &t : *tools)
                collected->push_back(t);
            const auto next = r.result.find("nextCursor");
            if (next != r.result.end() && next->is_string() && !next->get<std::string>().empty()
                && collected->size() < 100000) {
                if (!cursors->insert(next->get<std::string>()).second || cursors->size() > 1000) {
                    // A cursor seen before (or a thousand pages): the list would never end.
                    guard->finish(Error::protocol(tr("The server's tools/list pages loop: it sent the "
                                                     "cursor \"%1\" again after %2 pages; ask its "
                                                     "operator to fix its pagination.")
                                                      .arg(QString::fromStdString(next->get<std::string>()).left(80))
                                                      .arg(cursors->size())));
                    *page = nullptr;
                    return;
                }
                auto again = *page;
                again(*next);
                return;
            }
            addTools(*collected, guard);
            guard->finish();
            *page = nullptr;
        }, guard.data());
    };
    (*page)(json());
    return job;
}

void Client::addTools(const json &list, ToolsJob *job)
{
    std::vector<Tool> tools;
    QSet<QString> names;
    for (const json &entry : list) {
        Tool tool;
        QString why;
        if (Tool::fromJson(entry, &tool, &why)) {
            if (!names.contains(tool.name)) {
                names.insert(tool.name);
                tools.push_back(std::move(tool));
                continue;
            }
            why = tr("tools/list lists the tool \"%1\" more than once; Eddy keeps the first.").arg(tool.name);
        }
        qCWarning(lcMcp) << "tools/list:" << why;
        job->m_rejected << why;
        emit warning(why);
    }
    m_tools = tools;
    job->m_tools = std::move(tools);
}

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

const Tool *Client::findTool(const QString &name) const
{
    for (const Tool &tool : m_tools)
        if (tool.name == name)
            return &tool;
    return nullptr;
}

CallJob *Client::callTool(const QString &name, const json &arguments, CallOptions options)
{
    auto *job = new CallJob(this);
    QPointer<CallJob> guard(job);
    auto opts = std::make_shared<CallOptions>(std::move(options));
    whenReady([this, guard, name, arguments, opts](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        if (m_era == Era::Legacy)
            legacyCall(guard, name, arguments, opts);
        else
            runCall(guard, name, arguments, opts, opts->resumeInputResponses,
                    opts->resumeRequestState, false,
                    opts->resumeRequestState.is_null() && opts->resumeInputResponses.is_null() ? 0 : 1);
    });
    return job;
}

void Client::runCall(CallJob *job, QString name, json arguments, std::shared_ptr<CallOptions> opts,
                     json inputResponses, json requestState, bool relisted, int round, bool resent)
{
    QPointer<CallJob> guard(job);
    Request request;
    request.method = QStringLiteral("tools/call");
    request.mcpName = name.toUtf8();
    request.traceparent = opts->traceparent;
    request.timeoutMs = opts->timeoutMs;
    request.onNotification = opts->onNotification;
    request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
    request.params["_meta"] = {{"progressToken", newProgressToken()}};
    if (opts->onStreamOpened && !mayMakeTask(name))
        streamable(request, *opts);
    if (!inputResponses.is_null())
        request.params["inputResponses"] = inputResponses;
    if (!requestState.is_null())
        request.params["requestState"] = requestState; // echoed exactly as received
    if (const Tool *tool = findTool(name)) {
        QString why;
        if (!Headers::paramHeaders(tool->headerParams, arguments, &request.extraHeaders, &why)) {
            finishLater(job, Error::protocol(tr("Cannot call %1: %2").arg(name, why)));
            return;
        }
    }
    sendNow(request, [this, guard, name, arguments, opts, inputResponses, requestState, relisted,
                      round, resent](RpcResult r) {
        if (!guard)
            return;
        if (!r.error.isOk() && r.error.isStreamDropped() && !resent && hasIdempotencyKey(arguments)) {
            // Spec: a broken stream means re-issuing the request with a new id. With an
            // idempotency key the server hands back the task the first attempt created (if it
            // did), so one silent re-send cannot start a second simulation.
            qCInfo(lcMcp) << "the event stream of tools/call" << name
                          << "dropped before the answer; sending it again once (idempotent)";
            runCall(guard, name, arguments, opts, inputResponses, requestState, relisted, round, true);
            return;
        }
        if (!r.error.isOk()) {
            if (r.error.kind() == Error::Kind::JsonRpc && r.error.code() == ErrorCode::HeaderMismatch
                && !relisted) {
                // The tool's x-mcp-header set may have changed: re-list once and retry.
                ToolsJob *relist = listTools();
                connect(relist, &Job::finished, guard.data(), [this, guard, name, arguments, opts] {
                    if (guard)
                        runCall(guard, name, arguments, opts, json(), json(), true, 0);
                });
                return;
            }
            guard->finish(r.error);
            return;
        }
        const QString rt = resultTypeOf(r.result);
        if (rt == QLatin1String("complete")) {
            guard->m_kind = CallJob::Kind::Complete;
            guard->m_callResult = r.result;
            guard->finish();
            return;
        }
        if (rt == QLatin1String("task")) {
            QString why;
            TaskState state = TaskState::parse(r.result, Era::Modern, TaskState::Source::CreateResult, &why);
            if (!state.isValid()) {
                guard->finish(Error::protocol(tr("The server's task handle for %1 is invalid: %2")
                                                  .arg(name, why)));
                return;
            }
            qCDebug(lcMcp) << "task created" << redactSecret(state.taskId) << toString(state.status);
            guard->m_kind = CallJob::Kind::Task;
            guard->m_task = state;
            guard->finish();
            return;
        }
        if (rt == QLatin1String("input_required")) {
            const json requests = r.result.value("inputRequests", json());
            const json state = r.result.value("requestState", json());
            if (round >= kMaxInputRounds) {
                guard->finish(Error::protocol(tr("The server asked for input on %1 more than %2 "
                                                 "times in a row; giving up.").arg(name).arg(kMaxInputRounds)));
                return;
            }
            if (!requests.is_object() && state.is_null()) {
                guard->finish(Error::protocol(tr("The server's input_required answer to %1 has "
                                                 "neither inputRequests nor requestState.").arg(name)));
                return;
            }
            if (opts->onInputRequired)
                opts->onInputRequired(state, requests.is_object() ? requests : json());
            if (!guard)
                return;
            if (!requests.is_object() || requests.empty()) {
                runCall(guard, name, arguments, opts, json(), state, relisted, round + 1);
                return;
            }
            if (!opts->inputHandler) {
                guard->finish(Error::protocol(tr("The tool %1 asked for input before starting, "
                                                 "but nothing can answer it here.").arg(name)));
                return;
            }
            auto answered = std::make_shared<bool>(false);
            opts->inputHandler(requests, [this, guard, name, arguments, opts, state, relisted,
                                          round, answered](json responses) {
                if (!guard || *answered)
                    return;
                *answered = true;
                runCall(guard, name, arguments, opts, std::move(responses), state, relisted, round + 1);
            });
            return;
        }
        guard->finish(Error::protocol(tr("The server answered %1 with an unknown resultType \"%2\".")
                                          .arg(name, rt)));
    }, guard.data());
}

void Client::legacyCall(CallJob *job, QString name, json arguments, std::shared_ptr<CallOptions> opts)
{
    QPointer<CallJob> guard(job);
    auto proceed = [this, guard, name, arguments, opts] {
        if (!guard)
            return;
        const Tool *tool = findTool(name);
        const bool augment = m_discovery && m_discovery->offersTasks() && tool
                             && tool->taskSupport() != QLatin1String("forbidden");
        Request request;
        request.method = QStringLiteral("tools/call");
        request.traceparent = opts->traceparent;
        request.timeoutMs = opts->timeoutMs;
        request.onNotification = opts->onNotification;
        request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
        request.params["_meta"] = {{"progressToken", newProgressToken()}};
        if (augment)
            request.params["task"] = json::object();
        else if (opts->onStreamOpened)
            streamable(request, *opts);
        sendNow(request, [guard, name, augment](RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk()) {
                guard->finish(r.error);
                return;
            }
            const auto task = r.result.find("task");
            if (task != r.result.end() && task->is_object()) {
                if (!augment) {
                    guard->finish(Error::protocol(tr("The server made a task for %1 although Eddy "
                                                     "did not ask for one.").arg(name)));
                    return;
                }
                QString why;
                TaskState state = TaskState::parse(r.result, Era::Legacy, TaskState::Source::CreateResult, &why);
                if (!state.isValid()) {
                    guard->finish(Error::protocol(tr("The server's task handle for %1 is invalid: %2")
                                                      .arg(name, why)));
                    return;
                }
                guard->m_kind = CallJob::Kind::Task;
                guard->m_task = state;
                guard->finish();
                return;
            }
            guard->m_kind = CallJob::Kind::Complete;
            guard->m_callResult = r.result;
            guard->finish();
        }, guard.data());
    };
    if (m_tools.empty()) {
        ToolsJob *list = listTools();
        connect(list, &Job::finished, job, proceed);
    } else {
        proceed();
    }
}

void Client::finishPoll(TaskJob *job, TaskState state)
{
    job->m_state = std::move(state);
    job->finish();
}

TaskJob *Client::getTask(const std::string &taskId, const QByteArray &traceparent)
{
    auto *job = new TaskJob(this);
    QPointer<TaskJob> guard(job);
    Request request;
    request.method = QStringLiteral("tasks/get");
    request.mcpName = QByteArray::fromStdString(taskId);
    request.isPoll = true; // params built only if the full path needs them
    request.pollJob = guard;
    request.traceparent = traceparent;
    // The id for the checks below shares the Mcp-Name bytes: no copy of it per poll.
    const QByteArray idBytes = request.mcpName;
    send(std::move(request), [this, guard, taskId = idBytes](RpcResult r) {
        if (!guard)
            return;
        if (!r.error.isOk()) {
            guard->finish(r.error);
            return;
        }
        const QString rt = resultTypeOf(r.result);
        // "task" is tolerated here: the extension's own examples show it on tasks/get.
        if (rt != QLatin1String("complete") && rt != QLatin1String("task")) {
            guard->finish(Error::protocol(tr("The server answered tasks/get with resultType \"%1\".")
                                              .arg(rt)));
            return;
        }
        QString why;
        TaskState state = TaskState::parse(r.result, m_era, TaskState::Source::GetResult, &why);
        if (!state.isValid()
            || std::string_view(state.taskId)
                   != std::string_view(taskId.constData(), size_t(taskId.size()))) {
            guard->finish(Error::protocol(tr("The server's tasks/get answer is invalid: %1")
                                              .arg(state.isValid() ? tr("it is about another task") : why)));
            return;
        }
        if (m_era == Era::Legacy
            && (state.status == TaskStatus::InputRequired
                || (state.isTerminal() && state.status != TaskStatus::Cancelled))) {
            legacyFetchPayload(guard, std::move(state));
            return;
        }
        guard->m_state = std::move(state);
        guard->finish();
    }, job);
    return job;
}

void Client::legacyFetchPayload(TaskJob *job, TaskState state)
{
    QPointer<TaskJob> guard(job);
    LegacyTask &task = m_legacyTasks[state.taskId];
    if (task.payloadError && !task.payloadResult && !state.isTerminal()) {
        // An error from tasks/result while tasks/get calls the task live is about the request
        // ("the server is shutting down"), not the task's outcome: report it, poll again.
        const Error e = Error::fromJsonRpcObject(*task.payloadError, QStringLiteral("tasks/result"), 0);
        task = LegacyTask();
        job->m_state = std::move(state);
        finishLater(job, e);
        return;
    }
    if (task.payloadResult || task.payloadError) {
        state.applyLegacyPayload(task.payloadResult.value_or(json()), task.payloadError.value_or(json()));
        if (!state.isTerminal())
            state.status = TaskStatus::Completed;
        // Delivered: the caller stores it; a later poll simply asks tasks/result again.
        m_legacyTasks.erase(state.taskId);
        job->m_state = std::move(state);
        finishLater(job);
        return;
    }
    if (state.status == TaskStatus::InputRequired && !task.pendingRequests.empty()) {
        json requests = json::object();
        for (auto it = task.pendingRequests.begin(); it != task.pendingRequests.end(); ++it) {
            json params = it.value().value("params", json::object());
            if (params.is_object())
                params.erase("_meta");
            requests[it.key()] = {{"method", it.value().value("method", "")}, {"params", params}};
        }
        state.inputRequests = requests;
        job->m_state = std::move(state);
        finishLater(job);
        return;
    }
    if (task.streamEnded) {
        // The last tasks/result stream died without a payload: report and let the next poll retry.
        const Error e = task.streamError.isOk()
                            ? Error::transport(tr("The server ended tasks/result without a result."))
                            : task.streamError;
        task = LegacyTask();
        job->m_state = std::move(state);
        finishLater(job, e);
        return;
    }
    if (!task.resultStream)
        openLegacyResultStream(state.taskId);
    const std::string id = state.taskId;
    task.waiters.push_back([this, guard, state] {
        if (guard && !guard->isFinished())
            legacyFetchPayload(guard, state);
    });
    // The server may take a while to put its question on the stream; never wait forever.
    QTimer::singleShot(m_config.timeoutMs, job, [guard, state]() mutable {
        if (!guard || guard->isFinished())
            return;
        guard->m_state = std::move(state);
        guard->finish(Error::timeout(tr("The server did not send the pending input request of "
                                        "the task in time; poll again.")));
    });
}

void Client::openLegacyResultStream(const std::string &taskId)
{
    Request request;
    request.method = QStringLiteral("tasks/result");
    request.params = {{"taskId", taskId}};
    request.timeoutMs = -1; // blocks until the task is terminal
    auto runWaiters = [this, taskId] {
        auto it = m_legacyTasks.find(taskId);
        if (it == m_legacyTasks.end())
            return;
        auto waiters = std::move(it->second.waiters);
        it->second.waiters.clear();
        for (auto &w : waiters)
            w();
    };
    request.onServerRequest = [this, taskId, runWaiters](const json &message) {
        auto it = m_legacyTasks.find(taskId);
        if (it == m_legacyTasks.end() || !message.contains("method"))
            return;
        it->second.pendingRequests["srv:" + idKey(message["id"])] = message;
        runWaiters();
    };
    auto exchange = sendNow(request, [this, taskId, runWaiters](RpcResult r) {
        auto it = m_legacyTasks.find(taskId);
        if (it == m_legacyTasks.end())
            return;
        LegacyTask &task = it->second;
        task.streamEnded = true;
        task.resultStream.reset();
        // The questions came on this stream; once it is gone (a restarted server has forgotten
        // their ids and would accept an answer with 202 and drop it), the next stream asks again.
        task.pendingRequests = json::object();
        if (r.error.isOk())
            task.payloadResult = r.result;
        else if (r.error.kind() == Error::Kind::JsonRpc && !r.error.isTaskGone())
            task.payloadError = errorObjectOf(r.error);
        else
            task.streamError = r.error;
        runWaiters();
    }, this);
    m_legacyTasks[taskId].resultStream = exchange;
}

AckJob *Client::updateTask(const std::string &taskId, const json &inputResponses,
                           const QByteArray &traceparent)
{
    auto *job = new AckJob(this);
    QPointer<AckJob> guard(job);
    if (!inputResponses.is_object() || inputResponses.empty()) {
        finishLater(job, Error::protocol(tr("tasks/update needs at least one input response.")));
        return job;
    }
    whenReady([this, guard, taskId, inputResponses, traceparent](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        if (m_era == Era::Legacy) {
            legacyRespond(guard, taskId, inputResponses);
            return;
        }
        Request request;
        request.method = QStringLiteral("tasks/update");
        request.mcpName = QByteArray::fromStdString(taskId);
        request.params = {{"taskId", taskId}, {"inputResponses", inputResponses}};
        request.traceparent = traceparent;
        sendNow(request, [guard](RpcResult r) {
            if (!guard)
                return;
            if (r.error.isOk()) {
                const QString rt = resultTypeOf(r.result);
                if (rt == QLatin1String("task"))
                    r.error = Error::protocol(tr("The server answered tasks/update with a task "
                                                 "(CreateTaskResult), which only tools/call may "
                                                 "return; the answer was ignored."));
                else if (rt != QLatin1String("complete"))
                    r.error = Error::protocol(tr("The server answered tasks/update with resultType "
                                                 "\"%1\".").arg(rt));
            }
            guard->finish(r.error);
        }, guard.data());
    });
    return job;
}

void Client::legacyRespond(AckJob *job, const std::string &taskId, const json &inputResponses)
{
    QPointer<AckJob> guard(job);
    auto it = m_legacyTasks.find(taskId);
    std::vector<std::pair<std::string, json>> toSend;
    for (auto r = inputResponses.begin(); r != inputResponses.end(); ++r) {
        if (it == m_legacyTasks.end() || !it->second.pendingRequests.contains(r.key())) {
            finishLater(job, Error::protocol(tr("The task has no outstanding input request with "
                                                "key %1; poll it again before answering.")
                                                 .arg(QString::fromStdString(r.key()))));
            return;
        }
        toSend.emplace_back(r.key(), r.value());
    }
    auto remaining = std::make_shared<int>(int(toSend.size()));
    auto firstError = std::make_shared<Error>();
    for (auto &[key, response] : toSend) {
        const json request = it->second.pendingRequests[key];
        json result = response.is_object() ? response : json::object();
        result["_meta"]["io.modelcontextprotocol/related-task"] = {{"taskId", taskId}};
        const json message = {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", result}};
        Request r;
        r.method = QStringLiteral("(response to %1)")
                       .arg(QString::fromStdString(request.value("method", "")));
        post(r, message, [this, guard, taskId, key, remaining, firstError](
                             const json &, const Error &error, int, qint64) {
            if (error.isOk()) {
                if (auto t = m_legacyTasks.find(taskId); t != m_legacyTasks.end())
                    t->second.pendingRequests.erase(key);
            } else if (firstError->isOk()) {
                *firstError = error;
            }
            if (--*remaining == 0 && guard)
                guard->finish(*firstError);
        });
    }
}

AckJob *Client::cancelTask(const std::string &taskId, const QByteArray &traceparent)
{
    auto *job = new AckJob(this);
    QPointer<AckJob> guard(job);
    Request request;
    request.method = QStringLiteral("tasks/cancel");
    request.mcpName = QByteArray::fromStdString(taskId);
    request.params = {{"taskId", taskId}};
    request.traceparent = traceparent;
    send(request, [this, guard](RpcResult r) {
        if (!guard)
            return;
        if (r.error.isOk()) {
            const QString rt = resultTypeOf(r.result);
            if (rt == QLatin1String("task")) {
                r.error = Error::protocol(tr("The server answered tasks/cancel with a task "
                                             "(CreateTaskResult), which only tools/call may return."));
            } else if (rt != QLatin1String("complete")) {
                r.error = Error::protocol(tr("The server answered tasks/cancel with resultType "
                                             "\"%1\".").arg(rt));
            } else if (m_era == Era::Legacy || r.result.contains("taskId")) {
                guard->m_state = TaskState::parse(r.result, m_era, TaskState::Source::GetResult);
            }
        }
        guard->finish(r.error);
    }, job);
    return job;
}

Listen *Client::listen(std::vector<std::string> taskIds)
{
    auto *listen = new Listen(taskIds);
    QPointer<Listen> guard(listen);
    whenReady([this, guard, taskIds](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk() || m_era == Era::Legacy) {
            const Error why = e.isOk() ? Error::protocol(tr("This server speaks 2025-11-25, which "
                                                            "has no subscriptions/listen; poll "
                                                            "instead."))
                                       : e;
            QTimer::singleShot(0, guard.data(), [guard, why] {
                if (guard)
                    guard->finish(why);
            });
            return;
        }
        Request request;
        request.method = QStringLiteral("subscriptions/listen");
        request.params = {{"notifications", {{"taskIds", taskIds}}}};
        request.timeoutMs = -1;
        request.onNotification = [guard](const json &message) {
            if (guard)
                guard->handleMessage(message);
        };
        sendNow(request, [guard](RpcResult r) {
            if (guard)
                guard->finish(r.error);
        }, guard.data());
    });
    return listen;
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
        http.bearerToken = m_tokenUtf8;
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
                            "Last-Event-ID).").arg(e.message()).arg(httpStatus));
    e.setHttpStatus(httpStatus);
    e.setStreamDropped(true);
    exchange.complete({}, e, httpStatus);
}

} // namespace Eddy::Mcp
