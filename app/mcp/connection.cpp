#include "app/mcp/connection.h"

#include "app/mcp/client.h"
#include "app/mcp/headers.h"
#include "app/mcp/notmcp.h"
#include "app/mcp/oauth.h"
#include "app/net/httpclient.h"
#include "app/secret.h"
#include "app/vocab/jsonfield.h"

#include <QDateTime>
#include <QHash>
#include <QTimer>

#include <algorithm>
#include <charconv>
#include <utility>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

// Era per origin for this process (CORE-VER: cache per origin).
QHash<QString, Era> &eraCache()
{
    static QHash<QString, Era> cache;
    return cache;
}

std::shared_ptr<const OAuthSettings> &oauthSettings()
{
    static std::shared_ptr<const OAuthSettings> settings;
    return settings;
}

// json::contains() looks up object keys only: on an array it is always false.
bool listsVersion(const json &supported, const char *version)
{
    return supported.is_array()
           && std::find(supported.begin(), supported.end(), json(version)) != supported.end();
}

QString originOf(const QUrl &url)
{
    return url
        .adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                  | QUrl::RemoveUserInfo)
        .toString();
}

} // namespace

Connection::Connection(const ServerConfig &config,
                       Net::HttpClient *http,
                       QObject *owner,
                       Hooks hooks)
    : m_config(config)
    , m_owner(owner)
    , m_hooks(std::move(hooks))
    , m_tokenUtf8(m_config.token.toUtf8())
    , m_http(http)
{
    if (oauthSettings() && m_config.token.isEmpty()) {
        m_oauth = new OAuth(http, m_config.url, m_config.verifyTls, oauthSettings(), owner);
        m_tokenUtf8 = m_oauth->storedAccessToken();
    }
    const auto cached = eraCache().constFind(originOf(m_config.url));
    if (cached != eraCache().constEnd())
        m_era = *cached;
    if (!m_config.verifyTls)
        qCWarning(lcMcp) << "TLS verification is OFF for" << originOf(m_config.url)
                         << "- anyone on the network path can read task ids and results";
}

void Connection::setOAuthSettings(std::shared_ptr<const OAuthSettings> settings)
{
    oauthSettings() = std::move(settings);
}

QByteArray Connection::dpopNonceNow() const
{
    return m_oauth ? m_oauth->resourceNonce() : QByteArray();
}

void Connection::authorizeThen(int httpStatus,
                               const QByteArray &sentNonce,
                               std::function<void(const Error &)> then)
{
    QPointer<QObject> owner(m_owner); // owns this connection
    m_oauth->authorize(
        httpStatus,
        m_lastChallenge,
        [this, owner, httpStatus, then = std::move(then)](const QString &error) {
            if (!owner)
                return;
            if (!error.isEmpty()) {
                then(Error::http(httpStatus, error));
                return;
            }
            m_tokenUtf8 = m_oauth->accessToken();
            then({});
        },
        m_lastDpopNonce,
        sentNonce);
}

void Connection::signRequest(Net::HttpRequest &http) const
{
    if (m_oauth)
        m_oauth->sign(http, m_tokenUtf8);
    else
        http.bearerToken = m_tokenUtf8;
}

Connection::~Connection()
{
    for (const std::weak_ptr<Exchange> &weak : m_exchanges) {
        if (auto exchange = weak.lock())
            exchange->abort();
    }
    // Only while the HTTP client lives: an owner may delete it before the client.
    if (m_http && m_era == Era::Legacy && !m_sessionId.isEmpty())
        endLegacySession();
}

void Connection::endLegacySession()
{
    // 2025-11-25: a client that no longer needs its session SHOULD DELETE it. Nobody waits for
    // the answer; the reply belongs to the HTTP client, which outlives this one.
    Net::HttpRequest http;
    http.url = m_config.url;
    http.method = Net::HttpRequest::Method::Delete;
    http.headers
        = {{"MCP-Protocol-Version", protocolVersion().toLatin1()}, {"Mcp-Session-Id", m_sessionId}};
    http.timeoutMs = std::min(m_config.timeoutMs > 0 ? m_config.timeoutMs : 10000, 10000);
    http.verifyTls = m_config.verifyTls;
    signRequest(http);
    Net::HttpReply *reply = m_http->post(http);
    reply->setParent(m_http.data());
    QObject::connect(reply, &Net::HttpReply::finished, reply, &QObject::deleteLater);
    qCDebug(lcMcp) << "ending legacy session" << redactSecret(QString::fromLatin1(m_sessionId));
    m_sessionId.clear();
}

void Connection::clearEraCache()
{
    eraCache().clear();
}

void Connection::setEra(Era era, bool announce)
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
    if (announce && m_hooks.eraDetected)
        m_hooks.eraDetected(era);
}

QString Connection::protocolVersion() const
{
    if (m_era == Era::Legacy)
        return m_version.isEmpty() ? QString::fromLatin1(kLegacyVersion) : m_version;
    return QString::fromLatin1(kModernVersion);
}

const DiscoverInfo &Connection::adoptDiscoverResult(const json &result)
{
    m_discovery = DiscoverInfo::fromDiscoverResult(result);
    return *m_discovery;
}

void Connection::whenReady(std::function<void(const Error &)> then)
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

void Connection::detectEra(bool versionRetried)
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
        setEra(Era::Legacy, false);
        legacyInitialize([this, release](const Error &e) {
            if (e.isOk() && m_hooks.eraDetected)
                m_hooks.eraDetected(Era::Legacy);
            else
                setEra(Era::Unknown, false);
            release(e);
        });
    };
    Request request;
    request.method = QStringLiteral("server/discover");
    const json message = {{"jsonrpc", "2.0"},
                          {"id", m_nextId++},
                          {"method", "server/discover"},
                          {"params", {{"_meta", makeMeta({})}}}};
    const QByteArray sentNonce = dpopNonceNow(); // post() signs with it
    post(request, message, [=, this](const json &response, const Error &error, int status, qint64) {
        if (mayAuthorize(status)) {
            authorizeThen(status, sentNonce, [this, versionRetried, release](const Error &e) {
                if (e.isOk())
                    detectEra(versionRetried);
                else
                    release(e);
            });
            return;
        }
        if (status == 401 || status == 403) {
            // Authentication says nothing about the era: report it and detect again later.
            release(error.isOk() ? Error::fromJsonRpcObject(
                        response.value("error", json()), QStringLiteral("server/discover"), status)
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
            const Error rpc = Error::fromJsonRpcObject(
                response["error"], QStringLiteral("server/discover"), status);
            const int code = rpc.code();
            if (code == ErrorCode::UnsupportedProtocolVersion) {
                // Modern server that does not speak our version: only a legacy overlap helps.
                // If it lists the version we sent (a proxy or a fleet mid-upgrade answered),
                // the mutually supported version is ours: ask once more, never in a loop.
                const json supported = rpc.data().is_object()
                                           ? rpc.data().value("supported", json::array())
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
                setEra(Era::Modern, true);
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
        m_discovery = DiscoverInfo::fromDiscoverResult(result);
        setEra(Era::Modern, true);
        release({});
    });
}

void Connection::legacyInitialize(std::function<void(const Error &)> then)
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
    post(request,
         message,
         [this, then](const json &response, const Error &error, int status, qint64) {
             if (!error.isOk()) {
                 then(error);
                 return;
             }
             if (response.contains("error")) {
                 // Neither protocol is spoken at this URL, and the HTTP status says why: an MCP
                 // server's own "not found" at a wrong path (its JSON-RPC body names no method we
                 // sent), not a server that is down or lacks a method.
                 if (status >= 400 && NotMcp::looksLikeIt(status, true))
                     then(NotMcp::error(Error::http(
                         status,
                         NotMcp::message(
                             m_config.url.toString(), status, QStringLiteral("initialize")))));
                 else
                     then(Error::fromJsonRpcObject(
                         response["error"], QStringLiteral("initialize"), status));
                 return;
             }
             const json result = response.value("result", json());
             const QString version = Json::string(result, "protocolVersion");
             static const QStringList known{QString::fromLatin1(kLegacyVersion),
                                            QStringLiteral("2025-06-18"),
                                            QStringLiteral("2025-03-26")};
             if (!known.contains(version)) {
                 then(Error::protocol(
                     Client::tr("The server chose protocol version \"%1\", which Eddy does not "
                                "speak; update Eddy or the server.")
                         .arg(version)));
                 return;
             }
             m_version = version;
             m_discovery = DiscoverInfo::fromInitializeResult(result, version);
             Request note;
             note.method = QStringLiteral("notifications/initialized");
             post(note,
                  json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                  [this, then](const json &, const Error &e, int, qint64) {
                      if (e.isOk())
                          m_legacyReady = true;
                      then(e);
                  });
         });
}

json Connection::makeMeta(const QByteArray &traceparent) const
{
    json meta = json::object();
    if (m_era != Era::Legacy) {
        meta["io.modelcontextprotocol/protocolVersion"] = kModernVersion;
        meta["io.modelcontextprotocol/clientInfo"] = {{"name", "eddy"}, {"version", EDDY_VERSION}};
        meta["io.modelcontextprotocol/clientCapabilities"]
            = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
               {"extensions", {{kTasksExtension, json::object()}}}};
    }
    if (!traceparent.isEmpty())
        meta["traceparent"] = traceparent.toStdString();
    return meta;
}

QList<std::pair<QByteArray, QByteArray>> Connection::makeHeaders(const Request &request) const
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
            headers.append(
                Header(QByteArrayLiteral("MCP-Protocol-Version"), protocolVersion().toLatin1()));
        if (!m_sessionId.isEmpty())
            headers.append(Header(QByteArrayLiteral("Mcp-Session-Id"), m_sessionId));
        return headers;
    }
    if (m_modernHeaders.isEmpty())
        m_modernHeaders
            = {accept,
               contentType,
               Header(QByteArrayLiteral("MCP-Protocol-Version"), QByteArray(kModernVersion))};
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

std::shared_ptr<Exchange>
Connection::post(const Request &request, const json &message, Exchange::Done done)
{
    return post(
        request,
        QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)),
        message.contains("id") ? message["id"] : json(),
        std::move(done));
}

std::shared_ptr<Exchange> Connection::post(const Request &request,
                                           QByteArray body,
                                           const json &requestId,
                                           Exchange::Done done)
{
    Net::HttpRequest http;
    http.url = m_config.url;
    http.headers = makeHeaders(request);
    http.body = std::move(body);
    http.timeoutMs = request.timeoutMs < 0   ? 0
                     : request.timeoutMs > 0 ? request.timeoutMs
                                             : m_config.timeoutMs;
    // A listen stream may be silent for as long as it likes; a streamed call's watchdog applies
    // the floor itself until its answer turns out to be a stream.
    if (request.timeoutMs >= 0) {
        http.lowSpeedBytesPerSec = m_config.lowSpeedBytesPerSec;
        http.lowSpeedWindowMs = m_config.lowSpeedWindowMs;
    }
    http.verifyTls = m_config.verifyTls;
    http.maxResponseBytes = m_config.maxResponseBytes;
    // A poll reads and changes nothing: it may take the HTTP client's poll lane.
    http.mayRepeat = request.method == QLatin1String("tasks/get");
    signRequest(http);

    auto exchange = std::make_shared<Exchange>();
    exchange->connection = this;
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
            request.firstByteMs > 0 ? request.firstByteMs : m_config.timeoutMs,
            request.streamIdleMs,
            StreamWatchdog::Floor{m_config.lowSpeedBytesPerSec, m_config.lowSpeedWindowMs},
            [weak](StreamWatchdog::Limit why, int ms, StreamWatchdog::Floor floor) {
                if (auto e = weak.lock())
                    e->wentSilent(why, ms, floor);
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

void Connection::send(Request request, RpcDone done, QObject *context)
{
    QPointer<QObject> guard(context);
    if (m_era == Era::Modern || (m_era == Era::Legacy && m_legacyReady)) { // whenReady's fast path
        sendNow(std::move(request), std::move(done), guard);
        return;
    }
    whenReady([this, request = std::move(request), done = std::move(done), guard](
                  const Error &e) mutable {
        if (!guard)
            return;
        if (!e.isOk()) {
            done({json(), e});
            return;
        }
        sendNow(std::move(request), std::move(done), guard);
    });
}

std::shared_ptr<Exchange>
Connection::sendNow(Request request, RpcDone done, QPointer<QObject> context)
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
    if (const auto existing = params.find("_meta");
        existing != params.end() && existing->is_object())
        for (auto it = existing->begin(); it != existing->end(); ++it)
            meta[it.key()] = it.value();
    if (!meta.empty())
        params["_meta"] = std::move(meta);
    const json message = {{"jsonrpc", "2.0"},
                          {"id", id},
                          {"method", request.method.toStdString()},
                          {"params", std::move(params)}};
    return sendNow(
        std::move(request),
        std::move(done),
        context,
        id,
        QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)));
}

QByteArray
Connection::modernGetBody(qint64 id, std::string_view taskId, const QByteArray &traceparent)
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

std::shared_ptr<Exchange> Connection::sendNow(
    Request request, RpcDone done, QPointer<QObject> context, qint64 id, QByteArray body)
{
    // The session this request carries: its 404 ends that session, never a newer one.
    const QByteArray sentSession = m_era == Era::Legacy ? m_sessionId : QByteArray();
    const QByteArray sentNonce = dpopNonceNow(); // post() signs with it
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
    if (context)
        m_hooks.sent(context.data(), exchange, id);
    // Set last, so the request moves into it instead of being copied.
    exchange->onDone = [this,
                        request = std::move(request),
                        done = std::move(done),
                        context,
                        id,
                        sentSession,
                        sentNonce](json &response,
                                   const Error &error,
                                   int status,
                                   qint64 retryAfterMs) mutable {
        if (!context)
            return;
        // A DPoP nonce challenge (RFC 9449 §9) is no sign-in and does not use up the request's
        // one: OAuth adopts a nonce this request did not carry, and ends with a message when it
        // did.
        const bool dpopNonce = status == 401 && m_lastChallenge.contains("use_dpop_nonce");
        if (mayAuthorize(status) && (!request.authorized || dpopNonce)) {
            // A sign-in answers the challenge, then the request goes once more with the new
            // token (OAuth bounds the sign-ins; a second refusal is the caller's error).
            request.authorized = request.authorized || !dpopNonce;
            authorizeThen(status,
                          sentNonce,
                          [this, request = std::move(request), done = std::move(done), context](
                              const Error &e) mutable {
                              if (!context)
                                  return;
                              if (!e.isOk()) {
                                  Error failed = e;
                                  failed.setMethod(request.method);
                                  done({nlohmann::json(), failed});
                                  return;
                              }
                              send(std::move(request), std::move(done), context);
                          });
            return;
        }
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
            done({json(),
                  Error::protocol(Client::tr("The server's answer to %1 is not JSON-RPC 2.0.")
                                      .arg(request.method))});
            return;
        }
        const auto rid = response.find("id");
        if (response.contains("error")) {
            if (rid != response.end() && !rid->is_null() && *rid != json(id)) {
                done({json(),
                      Error::protocol(Client::tr("The server answered %1 with an error for another "
                                                 "request id.")
                                          .arg(request.method))});
                return;
            }
            if (status >= 400 && NotMcp::looksLikeIt(status, true)
                && (rid == response.end() || rid->is_null())) {
                // An HTTP "not found" (or 405, 501, ...) whose JSON-RPC error answers no request:
                // an MCP server's reply for a path that is not its endpoint. Its URL is wrong,
                // whatever era the origin's other servers speak.
                done({json(),
                      NotMcp::error(Error::http(
                          status,
                          NotMcp::message(m_config.url.toString(), status, request.method)))});
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
                    setEra(Era::Legacy, true);
                    request.allowVersionRetry = false;
                    send(std::move(request), std::move(done), context);
                    return;
                }
            }
            done({json(), rpc});
            return;
        }
        if (rid == response.end() || *rid != json(id)) {
            done({json(),
                  Error::protocol(Client::tr("The server's answer to %1 has a missing or wrong "
                                             "request id; it cannot be trusted.")
                                      .arg(request.method))});
            return;
        }
        const auto result = response.find("result");
        if (result == response.end() || !result->is_object()) {
            done({json(),
                  Error::protocol(Client::tr("The server's result for %1 is not a JSON object.")
                                      .arg(request.method))});
            return;
        }
        done({std::move(*result), {}}); // not copied: a status call's result can be large
    };
    return exchange;
}

// --- resuming a streamed call's SSE stream (2025-11-25: GET with Last-Event-ID)

bool Connection::resumeStream(Exchange &exchange, const Error &why)
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
    QTimer::singleShot(delayMs, m_owner, [this, keep] {
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

} // namespace Eddy::Mcp
