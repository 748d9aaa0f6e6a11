#pragma once

#include "app/mcp/calloptions.h"
#include "app/mcp/discoverinfo.h"
#include "app/mcp/era.h"
#include "app/mcp/error.h"
#include "app/mcp/jobs.h"
#include "app/mcp/listen.h"
#include "app/mcp/serverconfig.h"
#include "app/mcp/taskstate.h"
#include "app/mcp/tool.h"

#include <QHash>
#include <QLoggingCategory>
#include <QObject>
#include <QPointer>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcMcp)

namespace Eddy::Net {
class HttpClient;
class HttpReply;
struct HttpRequest;
}

namespace Eddy::Mcp {

class OAuth;
struct OAuthSettings;

// One MCP server as seen by Eddy: era detection (2026-07-28 first, 2025-11-25 fallback), the
// per-request _meta and routing headers, discovery and tool caches, and the task operations of
// both eras behind one API. Lives on the thread of its HttpClient; every job it returns finishes
// asynchronously on that thread.
class Client final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Client)

public:
    Client(ServerConfig config, Net::HttpClient *http, QObject *parent = nullptr);
    ~Client() override;

    const ServerConfig &config() const { return m_config; }

    // Unknown until detected (or set from the store). Cached per origin for this process.
    Era era() const { return m_era; }
    void setEra(Era era);
    static void clearEraCache();
    QString protocolVersion() const;

    // MCP authorization for every client of this process made without a static token: a 401 or
    // a 403 insufficient_scope starts a sign-in (OAuth) and the request goes again with the new
    // token, a bounded number of times. Unset: such answers are errors, as before.
    static void setOAuthSettings(std::shared_ptr<const OAuthSettings> settings);

    DiscoverJob *discover(bool forceRefresh = false); // cached for the answer's ttlMs
    ToolsJob *listTools();                            // all pages
    const std::vector<Tool> &tools() const { return m_tools; } // as of the last listTools()

    CallJob *callTool(const QString &name, const nlohmann::json &arguments,
                      CallOptions options = {});
    // Cancels a tools/call in flight that is not a task (a streamed call):
    // 2026-07-28 closes its stream, which is cancellation; 2025-11-25, where a disconnect is not,
    // first sends notifications/cancelled {requestId, reason} and closes the stream once the
    // server took it (or after notifyTimeoutMs). The job finishes with Error::Kind::Aborted
    // unless its answer came first; done() runs once the notification was sent (ok) or could
    // not be (its error), at once in the modern era.
    void cancelCall(CallJob *job, const QString &reason,
                    std::function<void(const Error &notifyError)> done = {},
                    int notifyTimeoutMs = 5000);
    TaskJob *getTask(const std::string &taskId, const QByteArray &traceparent = {});
    // Answers questions under the keys getTask() reported. An answer the server cannot take
    // yet (it keys questions per session and has not asked this one in its current session,
    // e.g. after a restart) fails with Error::wantsPollFirst(): poll the task, then retry.
    AckJob *updateTask(const std::string &taskId, const nlohmann::json &inputResponses,
                       const QByteArray &traceparent = {});
    AckJob *cancelTask(const std::string &taskId, const QByteArray &traceparent = {});
    // Modern era only (a legacy server gives an immediate closed() with a protocol error).
    Listen *listen(std::vector<std::string> taskIds);

    // The keys a task's questions were given before, in the order they were first asked, each
    // with whether it was answered: the caller's record, which outlives this client. Read when a
    // 2025-11-25 server asks: it numbers questions per session, so the client keys each one by
    // what it asks instead; a question keeps its key across server restarts and a new question
    // never takes an answered one's key (without a record, only while it is still pending).
    using QuestionRecord
        = std::function<std::vector<std::pair<QString, bool>>(const std::string &taskId)>;
    void setQuestionRecord(QuestionRecord record) { m_questionRecord = std::move(record); }
    // The caller no longer follows the task (it ended, is gone, or another process took it):
    // drops what the client remembers of the task's questions.
    void forgetTask(const std::string &taskId);

    // Requests sent so far (ids are never reused): for tests and the benchmark.
    qint64 requestsSent() const { return m_nextId - 1; }
    // The 2025-11-25 session (empty in the modern era); DELETEd when this client is destroyed.
    QByteArray legacySessionId() const { return m_sessionId; }

signals:
    void eraDetected(Mcp::Era era);
    void warning(const QString &message); // e.g. a tool dropped for bad x-mcp-header annotations

private:
    struct Exchange;
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
        QByteArray mcpName;                              // Mcp-Name value, unencoded UTF-8
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

    void send(Request request, RpcDone done, QObject *context);
    std::shared_ptr<Exchange> sendNow(Request request, RpcDone done, QPointer<QObject> context);
    std::shared_ptr<Exchange> sendNow(Request request, RpcDone done, QPointer<QObject> context,
                                      qint64 id, QByteArray body);
    QByteArray modernGetBody(qint64 id, std::string_view taskId, const QByteArray &traceparent);
    void whenReady(std::function<void(const Error &)> then);
    void detectEra(bool versionRetried = false);
    void legacyInitialize(std::function<void(const Error &)> then);
    void setEraInternal(Era era, bool announce);
    void endLegacySession();
    static void finishLater(Job *job, const Error &error = {});
    // A steady-state tasks/get answer read by TaskReplyParser.
    static void finishPoll(TaskJob *job, TaskState state);
    nlohmann::json makeMeta(const QByteArray &traceparent) const;
    QList<std::pair<QByteArray, QByteArray>> makeHeaders(const Request &request) const;
    // The response is the exchange's own: a callee may move parts out of it.
    using ExchangeDone = std::function<void(
        nlohmann::json &response, const Error &error, int httpStatus, qint64 retryAfterMs)>;
    std::shared_ptr<Exchange> post(const Request &request, const nlohmann::json &message,
                                   ExchangeDone done);
    std::shared_ptr<Exchange> post(const Request &request, QByteArray body,
                                   const nlohmann::json &requestId, ExchangeDone done);

    void runCall(CallJob *job, QString name, nlohmann::json arguments,
                 std::shared_ptr<CallOptions> options, nlohmann::json inputResponses,
                 nlohmann::json requestState, bool relisted, int round,
                 bool resent = false);
    void legacyCall(CallJob *job, QString name, nlohmann::json arguments,
                    std::shared_ptr<CallOptions> options);
    void legacyFetchPayload(TaskJob *job, TaskState state);
    void openLegacyResultStream(const std::string &taskId);
    void legacyRespond(AckJob *job, const std::string &taskId, const nlohmann::json &inputResponses);
    // Keys the server's per-session requests (srv:<id>) by what they ask; remembers the mapping.
    nlohmann::json legacyQuestionKeys(const std::string &taskId, const nlohmann::json &requests);
    const Tool *findTool(const QString &name) const;
    // False when a call of the tool cannot become a task (no Tasks support on the server or the
    // tool): such a call may be a streamed call.
    bool mayMakeTask(const QString &name) const;
    void streamable(Request &request, const CallOptions &options) const;
    // A streamed call's stream dropped (streamresume.cpp): true when a GET with Last-Event-ID
    // will resume it (the server sent event ids), after the server's retry: delay.
    bool resumeStream(Exchange &exchange, const Error &why);
    void resumeRefused(Exchange &exchange, int httpStatus);
    void addTools(const nlohmann::json &list, ToolsJob *job);

    ServerConfig m_config;
    QByteArray m_tokenUtf8; // m_config.token, converted once, or the token OAuth got
    OAuth *m_oauth = nullptr;   // when signing in applies (no static token, settings set)
    QByteArray m_lastChallenge; // WWW-Authenticate of the last 401/403, read in its onDone
    QByteArray m_lastDpopNonce; // its DPoP-Nonce (RFC 9449 §9)
    // The token on a request: bearer, or DPoP with a fresh proof (OAuth::sign).
    void signRequest(Net::HttpRequest &http) const;
    bool mayAuthorize(int httpStatus) const
    {
        return m_oauth && (httpStatus == 401 || (httpStatus == 403 && m_lastChallenge.contains("insufficient_scope")));
    }
    // Signs in for the challenge just answered, then calls `then` (ok: m_tokenUtf8 is new).
    // sentNonce: the DPoP nonce the refused request carried (dpopNonceNow() when it was signed).
    void authorizeThen(int httpStatus, const QByteArray &sentNonce,
                       std::function<void(const Error &)> then);
    QByteArray dpopNonceNow() const;
    QPointer<Net::HttpClient> m_http; // may go first (an owner deleting its children)
    Era m_era = Era::Unknown;
    QString m_version;
    bool m_detecting = false;
    bool m_legacyReady = false; // initialize + notifications/initialized done
    std::vector<std::function<void(const Error &)>> m_waiting;
    std::optional<DiscoverInfo> m_discovery;
    std::vector<Tool> m_tools;
    QByteArray m_sessionId; // legacy only
    mutable QList<std::pair<QByteArray, QByteArray>> m_modernHeaders; // built on first use
    QByteArray m_modernMeta; // the members of every modern request's _meta, built on first use
    qint64 m_nextId = 1;
    // Every exchange in flight, so the destructor can end them before their callbacks (which
    // capture this client) could run.
    std::vector<std::weak_ptr<Exchange>> m_exchanges;
    size_t m_exchangeSweepAt = 64;

    // Legacy input_required: tasks/result streams kept open while the server waits for answers.
    struct LegacyTask
    {
        std::shared_ptr<Exchange> resultStream;
        nlohmann::json pendingRequests = nlohmann::json::object(); // key -> server request
        std::optional<nlohmann::json> payloadResult;
        std::optional<nlohmann::json> payloadError;
        bool streamEnded = false;
        Error streamError;
        std::vector<std::function<void()>> waiters; // run on a new server request or stream end
    };
    std::map<std::string, LegacyTask> m_legacyTasks;
    // Legacy: per task, the key a question was reported under -> its request key in the
    // server's current session (as of the last poll that saw the task asking).
    std::map<std::string, QHash<QString, QString>> m_legacyKeys;
    QuestionRecord m_questionRecord;
};

} // namespace Eddy::Mcp
