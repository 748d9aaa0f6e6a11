#pragma once

#include "app/vocab/records.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace Eddy::Monitor {
class Engine;
}

namespace Eddy::Agent {

// What one tool call gave back: the tool message for the model (JSON text, already scrubbed of
// server task ids) and a one-line card for people.
struct ToolOutcome
{
    QString content;
    QString card;
    QList<qint64> taskIds; // Eddy task numbers the call created or touched
    bool ok = true;
};

// The tools the agent offers the model: every MCP tool of the configured servers (their cached
// tools/list) and Eddy's own (submit_sweep, list_tasks, get_task, get_result, cancel_task,
// answer_input). Runs one call at a time through the Engine's public API; results are built from
// the database and never carry a server task id. Lives on the engine's thread.
class AgentTools final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentTools)

public:
    enum class Confirmation { NotNeeded, Needed, NeedsPerson };

    explicit AgentTools(Monitor::Engine *engine, QObject *parent = nullptr);
    ~AgentTools() override;

    // The "tools" array of a Chat Completions request; rebuilt from the store on each call.
    nlohmann::json definitions();
    // Servers whose tools were never listed (their tools are not offered until refreshed).
    QList<qint64> serversWithoutTools();
    // Whether the call needs the user's yes first (destructiveHint tools, cancel_task), or a
    // person at a GUI (answer_input). `why` says what would happen, for the confirmation prompt.
    Confirmation confirmation(const QString &name, const nlohmann::json &arguments, QString *why);
    // Starts one call; finished(seq, outcome) follows (possibly before run() returns). `callId`
    // is the model's tool_call_id: a failed call's result names it and what was asked for.
    void run(qint64 seq, const QString &name, const nlohmann::json &arguments,
             std::optional<qint64> sessionId, const QString &callId = {});
    void abort(); // ends the call in flight at once with an error outcome
    bool isRunning() const { return m_op != nullptr; }

    // Removes server task ids from any text for the model, the transcript or a log: task id keys
    // and _meta in JSON, and every server task id the database knows.
    QString scrub(const QString &text);
    // "#12 run_cfd_case {grid: 16, reynolds: 100}: completed, converged (812 iterations)"
    static QString taskLine(const Store::TaskRecord &task);
    // Status plus, for a finished task, the verdict ("converged", "not converged", "tool error").
    static QString verdict(const Store::TaskRecord &task);
    nlohmann::json taskSummary(const Store::TaskRecord &task, bool detailed);

signals:
    void finished(qint64 seq, const Eddy::Agent::ToolOutcome &outcome);

private:
    struct Operation;
    struct McpTool
    {
        qint64 serverId = 0;
        QString tool;
        bool destructive = false;
    };

    void complete(ToolOutcome outcome);
    ToolOutcome fail(const QString &message);
    std::optional<qint64> pickServer(const nlohmann::json &arguments, QString *error);
    void runSubmitSweep(const nlohmann::json &arguments, std::optional<qint64> sessionId);
    void runMcpTool(const McpTool &tool, const nlohmann::json &arguments,
                    std::optional<qint64> sessionId);
    void watchSubmission(qint64 serverId, bool sweep, std::function<bool(qint64)> isOurs,
                         std::function<void(qint64)> journalled,
                         std::function<void(const QString &)> refused);
    void submit(const std::function<void()> &call);
    void checkSweepDone();
    ToolOutcome listTasks(const nlohmann::json &arguments, std::optional<qint64> sessionId);
    ToolOutcome getTask(const nlohmann::json &arguments, bool result);
    ToolOutcome cancelTask(const nlohmann::json &arguments);
    void runAnswerInput(const nlohmann::json &arguments);

    QPointer<Monitor::Engine> m_engine;
    QHash<QString, McpTool> m_mcpTools; // offered name -> server and tool
    Operation *m_op = nullptr;
};

} // namespace Eddy::Agent

Q_DECLARE_METATYPE(Eddy::Agent::ToolOutcome)
