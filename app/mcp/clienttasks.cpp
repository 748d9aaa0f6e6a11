#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

#include <QCryptographicHash>

namespace Eddy::Mcp {

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
            Error e = Error::protocol(tr("The server's tasks/get answer is invalid: %1")
                                          .arg(state.isValid() ? tr("it is about another task") : why));
            e.setAboutAnotherTask(state.isValid());
            guard->finish(e);
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
        state.inputRequests = legacyQuestionKeys(state.taskId, requests);
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
            Error why = e;
            if (m_era == Era::Legacy && e.kind() == Error::Kind::Protocol) {
                // No session to answer in: the question comes back under a new request id.
                m_legacyKeys.erase(taskId);
                why.setPollFirst(true);
            }
            finishLater(guard, why);
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
    // A question is answered through the request id of the server's current session, which only
    // a poll of the task brings (a restarted server asks the same question again under a new id);
    // the session may also have ended between that poll and this answer.
    const auto pollFirst = [this, job, &taskId](const QString &message, bool stale) {
        if (stale)
            m_legacyKeys.erase(taskId);
        Error e = Error::protocol(message);
        e.setPollFirst(true);
        finishLater(job, e);
    };
    const auto keys = m_legacyKeys.find(taskId);
    auto it = m_legacyTasks.find(taskId);
    std::vector<std::pair<std::string, json>> toSend;
    for (auto r = inputResponses.begin(); r != inputResponses.end(); ++r) {
        const QString key = QString::fromStdString(r.key());
        const QString asked = keys == m_legacyKeys.end() ? QString() : keys->second.value(key);
        if (asked.isEmpty()) {
            pollFirst(tr("The server has not asked question %1 in its current session yet; poll "
                         "the task before answering.")
                          .arg(key),
                      false);
            return;
        }
        const std::string current = asked.toStdString();
        if (it == m_legacyTasks.end() || !it->second.pendingRequests.contains(current)) {
            pollFirst(tr("The task has no outstanding input request with key %1; poll it again "
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
                if (error.kind() == Error::Kind::Protocol) {
                    m_legacyKeys.erase(taskId);
                    firstError->setPollFirst(true);
                }
            }
            if (--*remaining == 0 && guard)
                guard->finish(*firstError);
        });
    }
}

json Client::legacyQuestionKeys(const std::string &taskId, const json &requests)
{
    // The key of a question is what it asks (method and params) and how many times the task was
    // already asked exactly that: a pending question keeps its key, an answered one's key is
    // never handed out again.
    json out = json::object();
    QHash<QString, QString> &current = m_legacyKeys[taskId];
    current.clear();
    if (!requests.is_object())
        return out;
    const std::vector<std::pair<QString, bool>> known
        = m_questionRecord ? m_questionRecord(taskId) : std::vector<std::pair<QString, bool>>();
    QSet<QString> taken;
    for (auto it = requests.begin(); it != requests.end(); ++it) {
        const QByteArray what = QByteArray::fromStdString(it.value().dump());
        const QString prefix = QStringLiteral("q-%1-").arg(QString::fromLatin1(
            QCryptographicHash::hash(what, QCryptographicHash::Sha1).toHex().left(16)));
        QString key;
        QSet<QString> askedBefore;
        for (const auto &[knownKey, answered] : known) {
            if (!knownKey.startsWith(prefix))
                continue;
            askedBefore.insert(knownKey);
            if (key.isEmpty() && !answered && !taken.contains(knownKey))
                key = knownKey;
        }
        for (int n = int(askedBefore.size()); key.isEmpty(); ++n) {
            const QString candidate = prefix + QString::number(n);
            if (!taken.contains(candidate) && !askedBefore.contains(candidate))
                key = candidate;
        }
        taken.insert(key);
        current.insert(key, QString::fromStdString(it.key()));
        out[key.toStdString()] = it.value();
    }
    return out;
}

void Client::forgetTask(const std::string &taskId)
{
    m_legacyKeys.erase(taskId);
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

} // namespace Eddy::Mcp
