// Jobs followed through a server's job adapter (jobadapter.h): the submit tool's job id becomes
// a task row of pattern "job"; its status tool is polled (batched where it takes several ids)
// and each answer is mapped onto a task state, so the hub (events, progress, inbox, results,
// restart) treats it as a task. The adapter's poll settings are read again when it is stored
// while its jobs are live: an interval or batch size changed for a long sweep takes effect at once.
#include "app/monitor/jobfollower.h"

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

JobFollower::JobFollower(Engine &hub)
    : m_hub(hub)
{
}

std::optional<JobAdapter> JobFollower::adapter(qint64 serverId, QString *error)
{
    if (auto it = m_adapters.constFind(serverId); it != m_adapters.constEnd())
        return *it;
    const std::optional<QString> text = m_hub.m_store.jobAdapter(serverId);
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
        *error = m_hub.m_store.lastError();
    }
    m_adapters.insert(serverId, adapter);
    return adapter;
}

bool JobFollower::setAdapter(qint64 serverId, const JobAdapter &adapter)
{
    if (!m_hub.m_store.setJobAdapter(serverId, QString::fromStdString(adapter.toJson().dump(2))))
        return false;
    retune(serverId); // its live jobs poll on the new settings from now on
    return true;
}

bool JobFollower::adopt(const Store::CaseRecord &c, const json &callResult, bool isToolError,
                      Store::TaskRecord &t)
{
    const std::optional<JobAdapter> a = adapter(c.serverId);
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
            if (setAdapter(c.serverId, *learned))
                qCInfo(lcMonitor, "server %lld: %s's answer has the job id in %s; the stored "
                                  "adapter reads it there from now on",
                       c.serverId, qPrintable(c.tool), qPrintable(where));
            else
                qCWarning(lcMonitor, "server %lld: cannot store where the job id is: %s",
                          c.serverId, qPrintable(m_hub.m_store.lastError()));
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

void JobFollower::follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs)
{
    m_hub.trackLive(task, dueAtMs, ticks(task));
}

void JobFollower::poll(qint64 serverId, const QList<qint64> &due)
{
    Engine::ServerLink *l = m_hub.link(serverId);
    const std::optional<JobAdapter> a = adapter(serverId);
    if (!l || !a) {
        for (qint64 id : due)
            m_hub.markGone(id, Engine::tr("The server's job adapter was removed; the job cannot be "
                                        "followed any more."));
        return;
    }
    // A job that ended since it was taken (by another process, or its result call) is not asked
    // about: an empty id would make a strict server refuse the whole batch.
    QList<qint64> taskIds;
    taskIds.reserve(due.size());
    for (qint64 id : due) {
        if (m_hub.m_live.contains(id))
            taskIds << id;
        else
            m_hub.m_scheduler->remove(id);
    }
    const int chunk = a->canBatch() ? std::max(1, a->maxBatch) : 1;
    for (qsizetype from = 0; from < taskIds.size(); from += chunk)
        sendStatus(serverId, *a, taskIds.mid(from, chunk));
}

void JobFollower::sendStatus(qint64 serverId, const JobAdapter &adapter, const QList<qint64> &ids)
{
    Engine::ServerLink *l = m_hub.link(serverId);
    if (!l)
        return;
    QStringList jobIds;
    jobIds.reserve(ids.size());
    for (qint64 id : ids)
        jobIds << m_hub.m_live.value(id).serverTaskId;
    const bool batch = ids.size() > 1;
    qCDebug(lcMonitor, "job status poll of %d job(s) on server %lld", int(ids.size()), serverId);
    Mcp::CallJob *job = l->client->callTool(adapter.statusTool, adapter.statusArguments(jobIds));
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, ids, batch, serverId, adapter] {
        if (job->hasError() || job->kind() != Mcp::CallJob::Kind::Complete) {
            const Mcp::Error e = job->error();
            for (qint64 id : ids)
                m_hub.m_scheduler->failed(id, e.retryAfterMs());
            Engine::ServerLink *l = m_hub.link(serverId);
            if (l && l->state != Engine::ServerState::BackingOff) {
                l->state = Engine::ServerState::BackingOff;
                emit m_hub.serverStateChanged(serverId, Engine::ServerState::BackingOff, e.message(), false);
            }
            m_hub.armPollTimer();
            m_hub.checkIdle();
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
                if (m_hub.m_live.contains(id))
                    sendStatus(serverId, adapter, {id});
            return;
        }
        json parsed; // the text content's JSON, for a tool without structuredContent
        const json &payload = adapter.statusPayload(job->callResult(), parsed);
        if (job->isToolError()) {
            // The status tool refused this id (e.g. the job expired on the server).
            const QString text = firstText(job->callResult());
            m_hub.markGone(ids.first(),
                     text.isEmpty() ? Engine::tr("The server no longer knows the job.") : text);
        } else if (batch) {
            const json &list = jsonAt(payload, adapter.batchResultPointer);
            static const json none;
            for (qsizetype i = 0; i < ids.size(); ++i)
                finishPoll(ids[i],
                              adapter,
                              list.is_array() && i < qsizetype(list.size()) ? list[size_t(i)]
                                                                            : none);
        } else {
            finishPoll(ids.first(), adapter, payload);
        }
        m_hub.serverAnswered(serverId, false);
        m_hub.armPollTimer();
        m_hub.checkIdle();
    });
}

void JobFollower::finishPoll(qint64 taskId, const JobAdapter &a, const json &statusObject)
{
    const auto it = m_hub.m_live.constFind(taskId);
    if (it == m_hub.m_live.constEnd())
        return;
    if (!statusObject.is_object()) {
        // This job alone: the others of its batch were answered. Asked again at its interval;
        // given up after a few answers in a row without it.
        const int count = ++m_hub.m_wrongTask[taskId];
        qCWarning(lcMonitor,
                  "task %lld: the status answer has no status object for this job "
                  "where the adapter looks for one (%d of %d)",
                  taskId,
                  count,
                  m_hub.m_wrongTaskLimit);
        if (count >= m_hub.m_wrongTaskLimit)
            return m_hub.markGone(taskId,
                            QStringLiteral("the status tool answered %1 times in a row without "
                                           "this job's status; check the adapter's "
                                           "batchResultPointer and statePointer")
                                .arg(count),
                            true);
        m_hub.m_scheduler->completed(taskId, std::nullopt);
        return;
    }
    m_hub.m_wrongTask.remove(taskId);
    const JobAdapter::Status s = a.mapStatus(statusObject);
    if (isGoneState(s.rawState))
        return m_hub.markGone(taskId, s.message);
    // Backoff: while nothing changes the interval grows; any change starts it afresh. The
    // scheduler keeps it, and keeps every job of the server on the same ticks.
    const bool same = s.message == it->statusMessage && fromMcp(s.status) == it->status;
    const qint64 interval = m_hub.m_scheduler->backOff(taskId, same);

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
        return m_hub.applyState(taskId, st);
    if (a.resultTool.isEmpty()) {
        st.result = json{{"content", json::array({{{"type", "text"}, {"text", statusObject.dump()}}})},
                         {"structuredContent", statusObject}};
        return m_hub.applyState(taskId, st);
    }
    Engine::ServerLink *l = m_hub.link(it->serverId);
    if (!l)
        return;
    Mcp::CallJob *job = l->client->callTool(a.resultTool, a.idArguments(it->serverTaskId));
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, taskId, st]() mutable {
        if (job->hasError() || job->kind() != Mcp::CallJob::Kind::Complete) {
            m_hub.m_scheduler->failed(taskId, job->error().retryAfterMs()); // asked again next poll
            m_hub.armPollTimer();
            return;
        }
        st.result = job->callResult();
        m_hub.applyState(taskId, st);
        m_hub.armPollTimer();
        m_hub.checkIdle();
    });
}

void JobFollower::answer(const Store::TaskRecord &t, const QString &key, const json &answer, int)
{
    const std::optional<JobAdapter> a = adapter(t.serverId);
    Engine::ServerLink *l = m_hub.link(t.serverId);
    if (!a || a->answerTool.isEmpty() || !l) {
        m_hub.m_inbox->answerSent(t.id, key, false);
        emit m_hub.inputAnswered(t.id, key, false,
                           Engine::tr("The server's job adapter has no answer tool: answer the "
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
    ++m_hub.m_answersInFlight;
    Mcp::CallJob *job = l->client->callTool(a->answerTool, args);
    const qint64 taskId = t.id;
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, taskId, key] {
        --m_hub.m_answersInFlight;
        const bool ok = !job->hasError() && !job->isToolError();
        QString message;
        if (job->hasError())
            message = job->error().message();
        else if (job->isToolError())
            message = firstText(job->callResult());
        m_hub.m_inbox->answerSent(taskId, key, ok);
        emit m_hub.inputAnswered(taskId, key, ok, message);
        m_hub.m_scheduler->pollSoon(taskId);
        m_hub.armPollTimer();
        m_hub.checkIdle();
    });
}

void JobFollower::cancel(const Store::TaskRecord &t)
{
    if (!m_hub.requestCancel(t))
        return;
    const std::optional<JobAdapter> a = adapter(t.serverId);
    Engine::ServerLink *l = m_hub.link(t.serverId);
    const qint64 id = t.id;
    if (!a || a->cancelTool.isEmpty() || !l) {
        const QString msg = Engine::tr("Task %1 is a job whose server offers no cancel tool in "
                                           "its adapter; stop it on the server.").arg(id);
        emit m_hub.operationFailed(msg);
        emit m_hub.cancelSent(id, false, msg);
        return;
    }
    ++m_hub.m_answersInFlight;
    Mcp::CallJob *job = l->client->callTool(a->cancelTool, a->idArguments(t.serverTaskId));
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, id] {
        const bool ok = !job->hasError() && !job->isToolError();
        m_hub.cancelAnswered(id, ok ? QString()
                                    : Engine::tr("Cancelling task %1 failed: %2")
                                          .arg(id)
                                          .arg(job->hasError()
                                                   ? job->error().message()
                                                   : QStringLiteral("the cancel tool refused")));
    });
}

std::optional<PollScheduler::Ticks> JobFollower::ticks(const Store::TaskRecord &task)
{
    if (task.pattern != Pattern::Job)
        return std::nullopt;
    const std::optional<JobAdapter> a = adapter(task.serverId);
    if (!a)
        return std::nullopt;
    PollScheduler::Ticks t;
    t.tickMs = a->pollIntervalMs;
    t.backoff = a->backoff;
    t.maxIntervalMs = a->maxPollIntervalMs;
    t.perRequest = a->canBatch() ? std::max(1, a->maxBatch) : 1;
    return t;
}

bool JobFollower::isJob(qint64 taskId) const
{
    const auto it = m_hub.m_live.constFind(taskId);
    return it != m_hub.m_live.constEnd() && it->pattern == Pattern::Job;
}

void JobFollower::retune(qint64 serverId)
{
    m_adapters.remove(serverId); // read again from the store on the next use
    int moved = 0;
    for (const Store::TaskRecord &t : std::as_const(m_hub.m_live)) {
        if (t.serverId != serverId || !isJob(t.id))
            continue;
        // No adapter any more (or an invalid one): the next poll reports the job as no longer
        // followable (poll()), so its ticks stay as they were.
        if (const std::optional<PollScheduler::Ticks> newTicks = ticks(t)) {
            m_hub.m_scheduler->setTicks(t.id, *newTicks);
            ++moved;
        }
    }
    if (moved > 0) {
        qCInfo(lcMonitor,
               "server %lld: job adapter changed; %d live job(s) follow it now",
               serverId,
               moved);
        m_hub.armPollTimer();
    }
}

} // namespace Eddy::Monitor
