// Jobs followed through a server's job adapter (jobadapter.h): the submit tool's job id becomes
// a task row of pattern "job"; its status tool is polled (batched where it takes several ids)
// and each answer is mapped onto a task state, so the rest of the engine (events, progress,
// inbox, results, restart) treats it as a task.
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"

#include "app/secret.h"

namespace Eddy::Monitor {

using nlohmann::json;

namespace {
QString firstText(const json &callResult)
{
    const json content = callResult.is_object() ? callResult.value("content", json::array())
                                                : json::array();
    for (const json &c : content)
        if (c.is_object() && c.value("type", "") == "text")
            return QString::fromStdString(c.value("text", ""));
    return {};
}

bool isGoneState(const QString &raw)
{
    const QString s = raw.toLower();
    return s == QLatin1String("unknown") || s == QLatin1String("not_found")
           || s == QLatin1String("notfound") || s == QLatin1String("expired");
}
} // namespace

std::optional<JobAdapter> Engine::jobAdapter(qint64 serverId, QString *error)
{
    if (auto it = m_jobAdapters.constFind(serverId); it != m_jobAdapters.constEnd())
        return *it;
    const std::optional<QString> text = m_store.jobAdapter(serverId);
    std::optional<JobAdapter> adapter;
    if (text) {
        QString why;
        adapter = JobAdapter::fromText(*text, &why);
        if (!adapter) {
            qCWarning(lcMonitor, "server %lld: the stored job adapter is invalid: %s", serverId,
                      qPrintable(why));
            if (error)
                *error = why;
        }
    } else if (error) {
        *error = m_store.lastError();
    }
    m_jobAdapters.insert(serverId, adapter);
    return adapter;
}

bool Engine::setJobAdapter(qint64 serverId, const JobAdapter &adapter)
{
    if (!m_store.setJobAdapter(serverId, QString::fromStdString(adapter.toJson().dump(2))))
        return false;
    retuneJobs(serverId); // its live jobs poll on the new settings from now on
    return true;
}

void Engine::proposeJobAdapter(qint64 serverId,
                               std::function<void(const AdapterProposal &, const QString &)> then)
{
    withTools(serverId, [then](const json &tools, const QString &error) {
        if (!error.isEmpty())
            return then({}, error);
        then(AdapterProposer::propose(tools), {});
    });
}

bool Engine::adoptJob(const Store::CaseRecord &c, const json &callResult, bool isToolError,
                      Store::TaskRecord &t)
{
    const std::optional<JobAdapter> a = jobAdapter(c.serverId);
    if (!a || a->submitTool != c.tool || isToolError)
        return false;
    QString jobId = a->jobIdFrom(callResult);
    if (jobId.isEmpty()) {
        // A proposal that had to guess where the id is learns it from this first answer.
        if (const std::optional<JobAdapter> learned = a->learnedFrom(callResult)) {
            jobId = learned->jobIdFrom(callResult);
            const QString where = learned->jobIdPointer != a->jobIdPointer
                                      ? QStringLiteral("structuredContent ") + learned->jobIdPointer
                                      : QStringLiteral("the text, after \"job\"");
            if (setJobAdapter(c.serverId, *learned))
                qCInfo(lcMonitor, "server %lld: %s's answer has the job id in %s; the stored "
                                  "adapter reads it there from now on",
                       c.serverId, qPrintable(c.tool), qPrintable(where));
            else
                qCWarning(lcMonitor, "server %lld: cannot store where the job id is: %s",
                          c.serverId, qPrintable(m_store.lastError()));
        }
    }
    if (jobId.isEmpty()) {
        qCWarning(lcMonitor, "case %lld: %s answered without a job id where the adapter looks "
                             "for one; stored as a plain result", c.id, qPrintable(c.tool));
        return false;
    }
    t.pattern = Pattern::Job;
    t.serverTaskId = jobId;
    t.status = Store::TaskStatus::Working;
    t.statusMessage = QStringLiteral("submitted");
    t.pollIntervalMs = a->pollIntervalMs;
    t.nextPollAtMs = nowMs() + a->pollIntervalMs;
    qCInfo(lcMonitor, "case %lld: job %s submitted through %s", c.id,
           qPrintable(redactSecret(jobId)), qPrintable(c.tool));
    return true;
}

void Engine::pollJobs(qint64 serverId, const QList<qint64> &due)
{
    ServerLink *l = link(serverId);
    const std::optional<JobAdapter> a = jobAdapter(serverId);
    if (!l || !a) {
        for (qint64 id : due)
            markGone(id, QStringLiteral("The server's job adapter was removed; the job cannot be "
                                        "followed any more."));
        return;
    }
    // A job that ended since it was taken (by another process, or its result call) is not asked
    // about: an empty id would make a strict server refuse the whole batch.
    QList<qint64> taskIds;
    taskIds.reserve(due.size());
    for (qint64 id : due) {
        if (m_live.contains(id))
            taskIds << id;
        else
            m_scheduler->remove(id);
    }
    const int chunk = a->canBatch() ? std::max(1, a->maxBatch) : 1;
    for (qsizetype from = 0; from < taskIds.size(); from += chunk)
        sendJobStatus(serverId, *a, taskIds.mid(from, chunk));
}

void Engine::sendJobStatus(qint64 serverId, const JobAdapter &adapter, const QList<qint64> &ids)
{
    ServerLink *l = link(serverId);
    if (!l)
        return;
    QStringList jobIds;
    jobIds.reserve(ids.size());
    for (qint64 id : ids)
        jobIds << m_live.value(id).serverTaskId;
    const bool batch = ids.size() > 1;
    qCDebug(lcMonitor, "job status poll of %d job(s) on server %lld", int(ids.size()), serverId);
    Mcp::CallJob *job = l->client->callTool(adapter.statusTool, adapter.statusArguments(jobIds));
    connect(job, &Mcp::Job::finished, this, [this, job, ids, batch, serverId, adapter] {
        if (job->hasError() || job->kind() != Mcp::CallJob::Kind::Complete) {
            const Mcp::Error e = job->error();
            for (qint64 id : ids)
                m_scheduler->failed(id, e.retryAfterMs());
            ServerLink *l = link(serverId);
            if (l && l->state != ServerState::BackingOff) {
                l->state = ServerState::BackingOff;
                emit serverStateChanged(serverId, ServerState::BackingOff, e.message(), false);
            }
            armPollTimer();
            checkIdle();
            return;
        }
        if (job->isToolError() && batch) {
            // The status tool refused the batch as a whole (one id it cannot read spoils it on
            // some servers): each job is asked about alone, so one bad id fails only its job.
            qCWarning(lcMonitor,
                      "server %lld: the status tool refused a batch of %d jobs (%s); "
                      "asking about each alone",
                      serverId,
                      int(ids.size()),
                      qPrintable(firstText(job->callResult()).left(200)));
            for (qint64 id : ids)
                if (m_live.contains(id))
                    sendJobStatus(serverId, adapter, {id});
            return;
        }
        json parsed; // the text content's JSON, for a tool without structuredContent
        const json &payload = adapter.statusPayload(job->callResult(), parsed);
        if (job->isToolError()) {
            // The status tool refused this id (e.g. the job expired on the server).
            const QString text = firstText(job->callResult());
            markGone(ids.first(),
                     text.isEmpty() ? QStringLiteral("The server no longer knows the job.") : text);
        } else if (batch) {
            const json &list = jsonAt(payload, adapter.batchResultPointer);
            static const json none;
            for (qsizetype i = 0; i < ids.size(); ++i)
                finishJobPoll(ids[i],
                              adapter,
                              list.is_array() && i < qsizetype(list.size()) ? list[size_t(i)]
                                                                            : none);
        } else {
            finishJobPoll(ids.first(), adapter, payload);
        }
        serverAnswered(serverId, false);
        armPollTimer();
        checkIdle();
    });
}

void Engine::finishJobPoll(qint64 taskId, const JobAdapter &a, const json &statusObject)
{
    const auto it = m_live.constFind(taskId);
    if (it == m_live.constEnd())
        return;
    if (!statusObject.is_object()) {
        // This job alone: the others of its batch were answered. Asked again at its interval;
        // given up after a few answers in a row without it.
        const int count = ++m_wrongTask[taskId];
        qCWarning(lcMonitor,
                  "task %lld: the status answer has no status object for this job "
                  "where the adapter looks for one (%d of %d)",
                  taskId,
                  count,
                  m_wrongTaskLimit);
        if (count >= m_wrongTaskLimit)
            return markGone(taskId,
                            QStringLiteral("the status tool answered %1 times in a row without "
                                           "this job's status; check the adapter's "
                                           "batchResultPointer and statePointer")
                                .arg(count),
                            true);
        m_scheduler->completed(taskId, std::nullopt);
        return;
    }
    m_wrongTask.remove(taskId);
    const JobAdapter::Status s = a.mapStatus(statusObject);
    if (isGoneState(s.rawState))
        return markGone(taskId, s.message);
    // Backoff: while nothing changes the interval grows; any change starts it afresh. The
    // scheduler keeps it, and keeps every job of the server on the same ticks.
    const bool same = s.message == it->statusMessage && fromMcp(s.status) == it->status;
    const qint64 interval = m_scheduler->backOff(taskId, same);

    Mcp::TaskState st;
    st.taskId = it->serverTaskId.toStdString();
    st.status = s.status;
    st.statusMessage = s.message;
    st.ttlMs = it->ttlMs;
    st.pollIntervalMs = interval;
    if (!s.question.is_null()) {
        const std::string key = s.question.value("key", std::string("question"));
        st.inputRequests = json{
            {key,
             {{"method", "elicitation/create"},
              {"params",
               {{"mode", "form"},
                {"message", s.question.value("message", std::string())},
                {"requestedSchema", s.question.value("requestedSchema", json::object())}}}}}};
    }
    if (s.status == Mcp::TaskStatus::Failed)
        st.error = {{"code", -32603},
                    {"message", s.message.isEmpty() ? std::string("the job failed")
                                                    : s.message.toStdString()}};
    if (s.status != Mcp::TaskStatus::Completed)
        return applyState(taskId, st);
    if (a.resultTool.isEmpty()) {
        st.result = json{{"content", json::array({{{"type", "text"}, {"text", statusObject.dump()}}})},
                         {"structuredContent", statusObject}};
        return applyState(taskId, st);
    }
    ServerLink *l = link(it->serverId);
    if (!l)
        return;
    Mcp::CallJob *job = l->client->callTool(a.resultTool, a.idArguments(it->serverTaskId));
    connect(job, &Mcp::Job::finished, this, [this, job, taskId, st]() mutable {
        if (job->hasError() || job->kind() != Mcp::CallJob::Kind::Complete) {
            m_scheduler->failed(taskId, job->error().retryAfterMs()); // asked again next poll
            armPollTimer();
            return;
        }
        st.result = job->callResult();
        applyState(taskId, st);
        armPollTimer();
        checkIdle();
    });
}

void Engine::sendJobAnswer(const Store::TaskRecord &t, const QString &key, const json &answer)
{
    const std::optional<JobAdapter> a = jobAdapter(t.serverId);
    ServerLink *l = link(t.serverId);
    if (!a || a->answerTool.isEmpty() || !l) {
        m_inbox->answerSent(t.id, key, false);
        emit inputAnswered(t.id, key, false,
                           QStringLiteral("The server's job adapter has no answer tool: answer the "
                                          "job on the server itself, or add \"answerTool\" to "
                                          "the adapter (eddyctl adapter set)."));
        return;
    }
    json args = a->idArguments(t.serverTaskId);
    if (answer.is_object())
        for (auto it = answer.begin(); it != answer.end(); ++it)
            args[it.key()] = it.value();
    if (key != QLatin1String("question"))
        args["key"] = key.toStdString();
    ++m_answersInFlight;
    Mcp::CallJob *job = l->client->callTool(a->answerTool, args);
    const qint64 taskId = t.id;
    connect(job, &Mcp::Job::finished, this, [this, job, taskId, key] {
        --m_answersInFlight;
        const bool ok = !job->hasError() && !job->isToolError();
        QString message;
        if (job->hasError())
            message = job->error().message();
        else if (job->isToolError())
            message = firstText(job->callResult());
        m_inbox->answerSent(taskId, key, ok);
        emit inputAnswered(taskId, key, ok, message);
        m_scheduler->pollSoon(taskId);
        armPollTimer();
        checkIdle();
    });
}

void Engine::cancelJob(const Store::TaskRecord &t)
{
    const std::optional<JobAdapter> a = jobAdapter(t.serverId);
    ServerLink *l = link(t.serverId);
    const qint64 id = t.id;
    if (!a || a->cancelTool.isEmpty() || !l) {
        const QString msg = QStringLiteral("Task %1 is a job whose server offers no cancel tool in "
                                           "its adapter; stop it on the server.").arg(id);
        emit operationFailed(msg);
        emit cancelSent(id, false, msg);
        return;
    }
    ++m_answersInFlight;
    Mcp::CallJob *job = l->client->callTool(a->cancelTool, a->idArguments(t.serverTaskId));
    connect(job, &Mcp::Job::finished, this, [this, job, id] {
        --m_answersInFlight;
        const bool ok = !job->hasError() && !job->isToolError();
        const QString msg = ok ? QString()
                               : QStringLiteral("Cancelling task %1 failed: %2")
                                     .arg(id)
                                     .arg(job->hasError() ? job->error().message()
                                                          : QStringLiteral("the cancel tool refused"));
        if (!ok)
            emit operationFailed(msg);
        emit cancelSent(id, ok, msg);
        m_scheduler->pollSoon(id);
        armPollTimer();
        checkIdle();
    });
}

std::optional<PollScheduler::Ticks> Engine::jobTicks(const Store::TaskRecord &task)
{
    if (task.pattern != Pattern::Job)
        return std::nullopt;
    const std::optional<JobAdapter> a = jobAdapter(task.serverId);
    if (!a)
        return std::nullopt;
    PollScheduler::Ticks t;
    t.tickMs = a->pollIntervalMs;
    t.backoff = a->backoff;
    t.maxIntervalMs = a->maxPollIntervalMs;
    t.perRequest = a->canBatch() ? std::max(1, a->maxBatch) : 1;
    return t;
}

bool Engine::isJob(qint64 taskId) const
{
    const auto it = m_live.constFind(taskId);
    return it != m_live.constEnd() && it->pattern == Pattern::Job;
}

} // namespace Eddy::Monitor
