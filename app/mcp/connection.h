#pragma once

#include "app/mcp/discoverinfo.h"
#include "app/mcp/era.h"
#include "app/mcp/error.h"
#include "app/mcp/exchange.h"
#include "app/mcp/serverconfig.h"
#include "app/mcp/taskstate.h"

#include <QByteArray>
#include <QList>
#include <QPointer>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace Eddy::Net {
class HttpClient;
struct HttpRequest;
} // namespace Eddy::Net

namespace Eddy::Mcp {

class OAuth;
struct OAuthSettings;
class TaskJob;

// The JSON-RPC exchange with one MCP server, in the era it speaks: detects the era (2026-07-28
// first, 2025-11-25 fallback; cached per origin for this process) and keeps the legacy session,
// signs requests in (OAuth), writes each request's _meta and routing headers, and checks each
// answer (sign-in retry, legacy session 404, version fallback) before handing it on. Owned by a
// Client and living on its thread; it knows nothing of tools or tasks: what a request is for is
// the caller's.
class Connection final
{
    Q_DISABLE_COPY_MOVE(Connection)

public:
    struct RpcResult
    {
        nlohmann::json result; // the JSON-RPC result object when error is ok
        Error error;
    };
    using RpcDone = std::function<void(RpcResult)>;
    struct Request
    {
        QString method;
        nlohmann::json params; // null until set: tasks/get polls never build it
        QByteArray mcpName;    // Mcp-Name value, unencoded UTF-8
        QList<std::pair<QByteArray, QByteArray>> extraHeaders;
        QByteArray traceparent;
        int timeoutMs = 0; // 0 = the config's timeout, < 0 = none (listen streams)
        std::function<void(const nlohmann::json &)> onNotification;
        // Legacy: a server->client request on the response stream (elicitation during
        // tasks/result). Return true to keep the stream, which then stays open after finishing.
        std::function<void(const nlohmann::json &)> onServerRequest;
        bool allowReinit = true;
        bool authorized = false; // sent again after a sign-in: a second refusal is final
        bool allowVersionRetry = true;
        // tasks/get of the task id in mcpName: in the modern era the body is written without a
        // JSON tree and a steady-state answer goes straight into pollJob (others to the RpcDone
        // as usual).
        bool isPoll = false;
        QPointer<TaskJob> pollJob;
        // tools/call that may stream for long (CallOptions::onStreamOpened).
        std::function<void()> onStreamOpened;
        int firstByteMs = 0;
        int streamIdleMs = 0;
    };
    // What the connection tells its Client, set once (no closure per request). The context of a
    // request is the Client's job or Listen it is sent for.
    struct Hooks
    {
        // A request (or its re-send) went out for `context`: aborting the context stops
        // `exchange`; `id` is its JSON-RPC id.
        void (*sent)(QObject *context, const std::shared_ptr<Exchange> &exchange, qint64 id);
        // A steady-state tasks/get answer, read without a JSON tree: the job finishes with it.
        void (*polled)(TaskJob *job, TaskState state);
        // The era was detected (or changed by a server's version answer).
        std::function<void(Era)> eraDetected;
    };

    // `config` and `owner` are the Client's and outlive this connection; timers and sign-ins
    // run in the owner's context.
    Connection(const ServerConfig &config, Net::HttpClient *http, QObject *owner, Hooks hooks);
    // Ends every exchange before its callbacks (which capture the Client) could run, and DELETEs
    // the legacy session.
    ~Connection();

    const ServerConfig &config() const { return m_config; }
    static void setOAuthSettings(std::shared_ptr<const OAuthSettings> settings);

    Era era() const { return m_era; }
    // announce: emit the detection through Hooks::eraDetected.
    void setEra(Era era, bool announce);
    static void clearEraCache();
    QString protocolVersion() const;
    // Runs `then` once the era is known and (legacy) the session is initialized.
    void whenReady(std::function<void(const Error &)> then);
    // What the server said about itself: its handshake, or the last server/discover.
    const std::optional<DiscoverInfo> &discovery() const { return m_discovery; }
    // Reads a server/discover result and keeps it as the discovery.
    const DiscoverInfo &adoptDiscoverResult(const nlohmann::json &result);

    // Sends once the connection is ready (whenReady); `done` runs unless `context` went first.
    void send(Request request, RpcDone done, QObject *context);
    // Sends now: the connection must be ready.
    std::shared_ptr<Exchange> sendNow(Request request, RpcDone done, QPointer<QObject> context);
    // Posts one message as it is (a notification, or the client's response to a server request):
    // no readiness, no _meta, no checks of the answer.
    std::shared_ptr<Exchange>
    post(const Request &request, const nlohmann::json &message, Exchange::Done done);

    qint64 requestsSent() const { return m_nextId - 1; }
    QByteArray legacySessionId() const { return m_sessionId; }

    // For Exchange: what an answer tells the connection.
    void setSessionId(QByteArray sessionId) { m_sessionId = std::move(sessionId); }
    void challenged(QByteArray wwwAuthenticate, QByteArray dpopNonce)
    {
        m_lastChallenge = std::move(wwwAuthenticate);
        m_lastDpopNonce = std::move(dpopNonce);
    }
    void polled(TaskJob *job, TaskState state) { m_hooks.polled(job, std::move(state)); }
    // A streamed call's stream dropped: true when a GET with Last-Event-ID will resume it (the
    // server sent event ids), after the server's retry: delay.
    bool resumeStream(Exchange &exchange, const Error &why);

private:
    std::shared_ptr<Exchange>
    sendNow(Request request, RpcDone done, QPointer<QObject> context, qint64 id, QByteArray body);
    std::shared_ptr<Exchange> post(const Request &request,
                                   QByteArray body,
                                   const nlohmann::json &requestId,
                                   Exchange::Done done);
    QByteArray modernGetBody(qint64 id, std::string_view taskId, const QByteArray &traceparent);
    nlohmann::json makeMeta(const QByteArray &traceparent) const;
    QList<std::pair<QByteArray, QByteArray>> makeHeaders(const Request &request) const;
    void detectEra(bool versionRetried = false);
    void legacyInitialize(std::function<void(const Error &)> then);
    void endLegacySession();

    // The token on a request: bearer, or DPoP with a fresh proof (OAuth::sign).
    void signRequest(Net::HttpRequest &http) const;
    bool mayAuthorize(int httpStatus) const
    {
        return m_oauth
               && (httpStatus == 401
                   || (httpStatus == 403 && m_lastChallenge.contains("insufficient_scope")));
    }
    // Signs in for the challenge just answered, then calls `then` (ok: m_tokenUtf8 is new).
    // sentNonce: the DPoP nonce the refused request carried (dpopNonceNow() when it was signed).
    void authorizeThen(int httpStatus,
                       const QByteArray &sentNonce,
                       std::function<void(const Error &)> then);
    QByteArray dpopNonceNow() const;

    const ServerConfig &m_config;
    QObject *m_owner;
    Hooks m_hooks;
    QByteArray m_tokenUtf8;           // m_config.token, converted once, or the token OAuth got
    OAuth *m_oauth = nullptr;         // when signing in applies (no static token, settings set)
    QByteArray m_lastChallenge;       // WWW-Authenticate of the last 401/403, read in its onDone
    QByteArray m_lastDpopNonce;       // its DPoP-Nonce (RFC 9449 §9)
    QPointer<Net::HttpClient> m_http; // may go first (an owner deleting its children)
    Era m_era = Era::Unknown;
    QString m_version;
    bool m_detecting = false;
    bool m_legacyReady = false; // initialize + notifications/initialized done
    std::vector<std::function<void(const Error &)>> m_waiting;
    std::optional<DiscoverInfo> m_discovery;
    QByteArray m_sessionId;                                           // legacy only
    mutable QList<std::pair<QByteArray, QByteArray>> m_modernHeaders; // built on first use
    QByteArray m_modernMeta; // the members of every modern request's _meta, built on first use
    qint64 m_nextId = 1;
    // Every exchange in flight, so the destructor can end them before their callbacks (which
    // capture the Client) could run.
    std::vector<std::weak_ptr<Exchange>> m_exchanges;
    size_t m_exchangeSweepAt = 64;
};

} // namespace Eddy::Mcp
