#pragma once

#include "app/mcp/error.h"
#include "app/mcp/exchange.h"
#include "app/mcp/questionkeys.h"
#include "app/mcp/taskstate.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QObject;

namespace Eddy::Mcp {

class AckJob;
class Connection;
class Job;
class TaskJob;

// A 2025-11-25 task's questions and outcome, which that era delivers on tasks/result: per task,
// the result stream kept open while the server waits for answers, the server requests that came
// on it (keyed stably by QuestionKeys), and the payload once the task ended. The Client hands it
// a legacy tasks/get that saw the task ask or end, and a legacy tasks/update to answer.
class LegacyInput final
{
    Q_DISABLE_COPY_MOVE(LegacyInput)

public:
    // How a job learns its outcome: the Client's, set once.
    struct Hooks
    {
        void (*setState)(TaskJob *job, TaskState state);
        void (*finish)(Job *job, const Error &error); // at once
    };

    // `connection` and `owner` (the Client, the context of the result streams) outlive this.
    LegacyInput(Connection &connection, QObject *owner, Hooks hooks);

    void setQuestionRecord(QuestionKeys::Record record) { m_questionRecord = std::move(record); }
    // A legacy tasks/get saw the task ask for input or end (not cancelled): finishes `job` with
    // `state` and its pending questions (under stable keys) or its payload from tasks/result.
    void fetchPayload(TaskJob *job, TaskState state);
    // Answers questions under the keys fetchPayload() reported, each as the response to the
    // server's request in its current session; finishes `job`.
    void respond(AckJob *job, const std::string &taskId, const nlohmann::json &inputResponses);
    // Drops the keys of the task's questions: the next poll keys them again.
    void forgetTask(const std::string &taskId) { m_keys.forget(taskId); }

private:
    void openResultStream(const std::string &taskId);
    void finishLater(Job *job, const Error &error = {});

    // tasks/result streams kept open while the server waits for answers.
    struct Task
    {
        std::shared_ptr<Exchange> resultStream;
        nlohmann::json pendingRequests = nlohmann::json::object(); // key -> server request
        std::optional<nlohmann::json> payloadResult;
        std::optional<nlohmann::json> payloadError;
        bool streamEnded = false;
        Error streamError;
        std::vector<std::function<void()>> waiters; // run on a new server request or stream end
    };

    Connection &m_connection;
    QObject *m_owner;
    Hooks m_hooks;
    std::map<std::string, Task> m_tasks;
    QuestionKeys m_keys;
    QuestionKeys::Record m_questionRecord;
};

} // namespace Eddy::Mcp
