#include "app/mcp/legacyinput.h"

#include "app/mcp/client.h"
#include "app/mcp/connection.h"
#include "app/mcp/jobs.h"

#include <QPointer>
#include <QTimer>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

std::string idKey(const json &id)
{
    return id.is_string() ? id.get<std::string>() : id.dump();
}

json errorObjectOf(const Error &e)
{
    json out = {{"code", e.code()}, {"message", e.serverMessage().toStdString()}};
    if (!e.data().is_null())
        out["data"] = e.data();
    return out;
}

} // namespace

LegacyInput::LegacyInput(Connection &connection, QObject *owner, Hooks hooks)
    : m_connection(connection)
    , m_owner(owner)
    , m_hooks(hooks)
{}

void LegacyInput::finishLater(Job *job, const Error &error)
{
    QPointer<Job> guard(job);
    QTimer::singleShot(0, job, [guard, error, finish = m_hooks.finish] {
        if (guard)
            finish(guard, error);
    });
}

void LegacyInput::fetchPayload(TaskJob *job, TaskState state)
{
    QPointer<TaskJob> guard(job);
    Task &task = m_tasks[state.taskId];
    if (task.payloadError && !task.payloadResult && !state.isTerminal()) {
        // An error from tasks/result while tasks/get calls the task live is about the request
        // ("the server is shutting down"), not the task's outcome: report it, poll again.
        const Error e
            = Error::fromJsonRpcObject(*task.payloadError, QStringLiteral("tasks/result"), 0);
        task = Task();
        m_hooks.setState(job, std::move(state));
        finishLater(job, e);
        return;
    }
    if (task.payloadResult || task.payloadError) {
        state.applyLegacyPayload(task.payloadResult.value_or(json()),
                                 task.payloadError.value_or(json()));
        if (!state.isTerminal())
            state.status = TaskStatus::Completed;
        // Delivered: the caller stores it; a later poll simply asks tasks/result again.
        m_tasks.erase(state.taskId);
        m_hooks.setState(job, std::move(state));
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
        state.inputRequests = m_keys.assign(state.taskId, requests, m_questionRecord);
        m_hooks.setState(job, std::move(state));
        finishLater(job);
        return;
    }
    if (task.streamEnded) {
        // The last tasks/result stream died without a payload: report and let the next poll retry.
        const Error e
            = task.streamError.isOk()
                  ? Error::transport(Client::tr("The server ended tasks/result without a result."))
                  : task.streamError;
        task = Task();
        m_hooks.setState(job, std::move(state));
        finishLater(job, e);
        return;
    }
    if (!task.resultStream)
        openResultStream(state.taskId);
    const std::string id = state.taskId;
    task.waiters.push_back([this, guard, state] {
        if (guard && !guard->isFinished())
            fetchPayload(guard, state);
    });
    // The server may take a while to put its question on the stream; never wait forever.
    QTimer::singleShot(m_connection.config().timeoutMs, job, [this, guard, state]() mutable {
        if (!guard || guard->isFinished())
            return;
        m_hooks.setState(guard, std::move(state));
        m_hooks.finish(
            guard,
            Error::timeout(Client::tr("The server did not send the pending input request of "
                                      "the task in time; poll again.")));
    });
}

void LegacyInput::openResultStream(const std::string &taskId)
{
    Connection::Request request;
    request.method = QStringLiteral("tasks/result");
    request.params = {{"taskId", taskId}};
    request.timeoutMs = -1; // blocks until the task is terminal
    auto runWaiters = [this, taskId] {
        auto it = m_tasks.find(taskId);
        if (it == m_tasks.end())
            return;
        auto waiters = std::move(it->second.waiters);
        it->second.waiters.clear();
        for (auto &w : waiters)
            w();
    };
    request.onServerRequest = [this, taskId, runWaiters](const json &message) {
        auto it = m_tasks.find(taskId);
        if (it == m_tasks.end() || !message.contains("method"))
            return;
        it->second.pendingRequests["srv:" + idKey(message["id"])] = message;
        runWaiters();
    };
    auto exchange = m_connection.sendNow(
        request,
        [this, taskId, runWaiters](Connection::RpcResult r) {
            auto it = m_tasks.find(taskId);
            if (it == m_tasks.end())
                return;
            Task &task = it->second;
            task.streamEnded = true;
            task.resultStream.reset();
            // The questions came on this stream; once it is gone (a restarted server has forgotten
            // their ids and would accept an answer with 202 and drop it), the next stream asks
            // again.
            task.pendingRequests = json::object();
            if (r.error.isOk())
                task.payloadResult = r.result;
            else if (r.error.kind() == Error::Kind::JsonRpc && !r.error.isTaskGone())
                task.payloadError = errorObjectOf(r.error);
            else
                task.streamError = r.error;
            runWaiters();
        },
        m_owner);
    m_tasks[taskId].resultStream = exchange;
}

void LegacyInput::respond(AckJob *job, const std::string &taskId, const json &inputResponses)
{
    QPointer<AckJob> guard(job);
    // A question is answered through the request id of the server's current session, which only
    // a poll of the task brings (a restarted server asks the same question again under a new id);
    // the session may also have ended between that poll and this answer.
    const auto pollFirst = [this, job, &taskId](const QString &message, bool stale) {
        if (stale)
            m_keys.forget(taskId);
        Error e = Error::protocol(message);
        e.setPollFirst(true);
        finishLater(job, e);
    };
    auto it = m_tasks.find(taskId);
    std::vector<std::pair<std::string, json>> toSend;
    for (auto r = inputResponses.begin(); r != inputResponses.end(); ++r) {
        const QString key = QString::fromStdString(r.key());
        const QString asked = m_keys.askedAs(taskId, key);
        if (asked.isEmpty()) {
            pollFirst(
                Client::tr("The server has not asked question %1 in its current session yet; poll "
                           "the task before answering.")
                    .arg(key),
                false);
            return;
        }
        const std::string current = asked.toStdString();
        if (it == m_tasks.end() || !it->second.pendingRequests.contains(current)) {
            pollFirst(
                Client::tr("The task has no outstanding input request with key %1; poll it again "
                           "before answering.")
                    .arg(key),
                true);
            return;
        }
        toSend.emplace_back(current, r.value());
    }
    auto remaining = std::make_shared<int>(int(toSend.size()));
    auto firstError = std::make_shared<Error>();
    for (auto &[key, response] : toSend) {
        const json request = it->second.pendingRequests[key];
        json result = response.is_object() ? response : json::object();
        result["_meta"]["io.modelcontextprotocol/related-task"] = {{"taskId", taskId}};
        const json message = {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", result}};
        Connection::Request r;
        r.method = QStringLiteral("(response to %1)")
                       .arg(QString::fromStdString(request.value("method", "")));
        m_connection.post(r,
                          message,
                          [this, guard, taskId, key, remaining, firstError](
                              const json &, const Error &error, int, qint64) {
                              if (error.isOk()) {
                                  if (auto t = m_tasks.find(taskId); t != m_tasks.end())
                                      t->second.pendingRequests.erase(key);
                              } else if (firstError->isOk()) {
                                  *firstError = error;
                                  if (error.kind() == Error::Kind::Protocol) {
                                      m_keys.forget(taskId);
                                      firstError->setPollFirst(true);
                                  }
                              }
                              if (--*remaining == 0 && guard)
                                  m_hooks.finish(guard, *firstError);
                          });
    }
}

} // namespace Eddy::Mcp
