#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

#include "app/mcp/headers.h"
#include "app/mcp/oauth.h"
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

namespace {

// Era per origin for this process (CORE-VER: cache per origin).
QHash<QString, Era> &eraCache()
{
    static QHash<QString, Era> cache;
    return cache;
}

} // namespace

static std::shared_ptr<const OAuthSettings> &oauthSettings()
{
    static std::shared_ptr<const OAuthSettings> settings;
    return settings;
}

Client::Client(ServerConfig config, Net::HttpClient *http, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_tokenUtf8(m_config.token.toUtf8()), m_http(http)
{
    if (oauthSettings() && m_config.token.isEmpty()) {
        m_oauth = new OAuth(http, m_config.url, m_config.verifyTls, oauthSettings(), this);
        m_tokenUtf8 = m_oauth->storedAccessToken();
    }
    const auto cached = eraCache().constFind(originOf(m_config.url));
    if (cached != eraCache().constEnd())
        m_era = *cached;
    if (!m_config.verifyTls)
        qCWarning(lcMcp) << "TLS verification is OFF for" << originOf(m_config.url)
                         << "- anyone on the network path can read task ids and results";
}

void Client::setOAuthSettings(std::shared_ptr<const OAuthSettings> settings)
{
    oauthSettings() = std::move(settings);
}

QByteArray Client::dpopNonceNow() const
{
    return m_oauth ? m_oauth->resourceNonce() : QByteArray();
}

void Client::authorizeThen(int httpStatus, const QByteArray &sentNonce,
                           std::function<void(const Error &)> then)
{
    QPointer<Client> self(this);
    m_oauth->authorize(httpStatus, m_lastChallenge, [self, httpStatus, then = std::move(then)](const QString &error) {
        if (!self)
            return;
        if (!error.isEmpty()) {
            then(Error::http(httpStatus, error));
            return;
        }
        self->m_tokenUtf8 = self->m_oauth->accessToken();
        then({});
    }, m_lastDpopNonce, sentNonce);
}

void Client::signRequest(Net::HttpRequest &http) const
{
    if (m_oauth)
        m_oauth->sign(http, m_tokenUtf8);
    else
        http.bearerToken = m_tokenUtf8;
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
    signRequest(http);
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
            // Neither protocol is spoken at this URL, and the HTTP status says why: an MCP
            // server's own "not found" at a wrong path (its JSON-RPC body names no method we
            // sent), not a server that is down or lacks a method.
            if (status >= 400 && NotMcp::looksLikeIt(status, true))
                then(NotMcp::error(Error::http(
                    status, NotMcp::message(m_config.url.toString(), status, QStringLiteral("initialize")))));
            else
                then(Error::fromJsonRpcObject(response["error"], QStringLiteral("initialize"), status));
            return;
        }
        const json result = response.value("result", json());
        const QString version = Json::string(result, "protocolVersion");
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
        info.serverName = Json::string(serverInfo, "name");
        info.serverVersion = Json::string(serverInfo, "version");
        info.instructions = Json::string(result, "instructions");
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

// Cancelling a tools/call in flight that is not a task (a streamed call). Tasks are cancelled
// with tasks/cancel instead (never notifications/cancelled: the Tasks extension forbids it).

void Client::cancelCall(CallJob *job, const QString &reason,
                        std::function<void(const Error &)> done, int notifyTimeoutMs)
{
    const auto report = [done](const Error &e) {
        if (done)
            done(e);
    };
    if (!job || job->isFinished()) {
        report({});
        return;
    }
    const auto exchange = std::dynamic_pointer_cast<Exchange>(job->m_abortTarget.lock());
    // 2026-07-28 (and an exchange not sent yet): closing the response stream is cancellation.
    if (m_era != Era::Legacy || !exchange || exchange->done || exchange->requestId.is_null()) {
        job->abort();
        report({});
        return;
    }
    // 2025-11-25: a disconnect is not cancellation; the server is told which request to stop,
    // then the stream is closed (the server ends it itself once it has stopped the run).
    qCInfo(lcMcp) << "cancelling" << exchange->method << "request" << exchange->requestId.dump().c_str()
                  << "with notifications/cancelled";
    QPointer<CallJob> guard(job);
    auto closed = std::make_shared<bool>(false);
    const auto close = [guard, closed, report](const Error &e) {
        if (std::exchange(*closed, true))
            return;
        if (guard)
            guard->abort();
        report(e);
    };
    Request note;
    note.method = QStringLiteral("notifications/cancelled");
    note.allowReinit = false;
    note.allowVersionRetry = false;
    post(note,
         json{{"jsonrpc", "2.0"},
              {"method", "notifications/cancelled"},
              {"params",
               {{"requestId", exchange->requestId}, {"reason", reason.toStdString()}}}},
         [close](const json &, const Error &e, int, qint64) {
             if (!e.isOk())
                 qCWarning(lcMcp).noquote()
                     << "notifications/cancelled was not taken:" << e.message();
             close(e);
         });
    QTimer::singleShot(notifyTimeoutMs, this, [close] {
        close(Error::timeout(tr("The server did not take notifications/cancelled in time; Eddy "
                                "closed the stream.")));
    });
}

// Streamed calls: a tools/call that cannot become a task may be answered as a long SSE stream
// (timed by a watchdog, not a total timeout), and its stream is resumed when it drops.

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
