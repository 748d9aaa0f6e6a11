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

class Connection;
struct Exchange;
class LegacyInput;
struct OAuthSettings;

// One MCP server as seen by Eddy: discovery and tool caches, tool calls, and the task operations
// of both eras behind one API. The JSON-RPC exchange itself (era detection, the legacy session,
// sign-in, _meta and routing headers) is its Connection's; a 2025-11-25 task's questions and
// payload, delivered on tasks/result streams, are its LegacyInput's. Lives on the thread of its
// HttpClient; every job it returns finishes asynchronously on that thread.
class Client final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Client)

public:
    Client(ServerConfig config, Net::HttpClient *http, QObject *parent = nullptr);
    ~Client() override;

    const ServerConfig &config() const { return m_config; }

    // Unknown until detected (or set from the store). Cached per origin for this process.
    Era era() const;
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
    void setQuestionRecord(QuestionRecord record);
    // The caller no longer follows the task (it ended, is gone, or another process took it):
    // drops what the client remembers of the task's questions.
    void forgetTask(const std::string &taskId);

    // Requests sent so far (ids are never reused): for tests and the benchmark.
    qint64 requestsSent() const;
    // The 2025-11-25 session (empty in the modern era); DELETEd when this client is destroyed.
    QByteArray legacySessionId() const;

signals:
    void eraDetected(Mcp::Era era);
    void warning(const QString &message); // e.g. a tool dropped for bad x-mcp-header annotations

private:
    // What the Connection and LegacyInput may do to this client's jobs (set once, as hooks).
    // A request went out for `context` (a job or Listen): aborting it stops `exchange`.
    static void attach(QObject *context, const std::shared_ptr<Exchange> &exchange, qint64 id);
    // A steady-state tasks/get answer read by TaskReplyParser.
    static void finishPoll(TaskJob *job, TaskState state);
    static void setTaskState(TaskJob *job, TaskState state);
    static void finishJob(Job *job, const Error &error);
    static void finishLater(Job *job, const Error &error = {});

    void runCall(CallJob *job,
                 QString name,
                 nlohmann::json arguments,
                 std::shared_ptr<CallOptions> options,
                 nlohmann::json inputResponses,
                 nlohmann::json requestState,
                 bool relisted,
                 int round,
                 bool resent = false);
    void legacyCall(CallJob *job,
                    QString name,
                    nlohmann::json arguments,
                    std::shared_ptr<CallOptions> options);
    const Tool *findTool(const QString &name) const;
    // False when a call of the tool cannot become a task (no Tasks support on the server or the
    // tool): such a call may be a streamed call.
    bool mayMakeTask(const QString &name) const;
    void addTools(const nlohmann::json &list, ToolsJob *job);

    ServerConfig m_config;
    // Declared before m_legacy, which uses it; destroyed after it (ending every exchange).
    std::unique_ptr<Connection> m_connection;
    std::vector<Tool> m_tools;
    std::unique_ptr<LegacyInput> m_legacy;
};

} // namespace Eddy::Mcp
