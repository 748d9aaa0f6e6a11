#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/sharing.h"
#include "app/monitor/streamedtasks.h"

namespace Eddy::Monitor {

// ---------------------------------------------------------------- polling

void Engine::trackLive(const Store::TaskRecord &task, std::optional<qint64> dueAtMs)
{
    if (task.serverTaskId.isEmpty())
        return;
    if (m_monitoring && m_sharing && !m_sharing->claimTask(task))
        return; // another process polls it; its changes come through the database
    m_live.insert(task.id, task);
    m_byServerTaskId.insert(task.serverTaskId, task.id);
    m_scheduler->add(task.id, task.serverId, task.pollIntervalMs, dueAtMs, m_jobs.ticks(task));
    if (task.pattern == Pattern::Task)
        m_tasks.scheduleListen(task.serverId);
}

void Engine::armPollTimer()
{
    if (!m_monitoring || !isOpen())
        return;
    const auto next = m_scheduler->nextDueAtMs();
    if (!next) {
        m_pollTimer.stop();
        return;
    }
    const qint64 wait = std::clamp<qint64>(*next - nowMs(), 0, 60000);
    if (!m_pollTimer.isActive() || m_pollTimer.remainingTime() > wait)
        m_pollTimer.start(int(wait));
}

void Engine::pumpPolls()
{
    if (!m_monitoring || !isOpen())
        return;
    const QList<qint64> due = m_scheduler->takeDue();
    QMap<qint64, QList<qint64>> jobs; // server id -> due jobs: one batched status call each
    for (qint64 id : due) {
        if (m_jobs.isJob(id))
            jobs[m_live.value(id).serverId] << id;
        else
            m_tasks.poll(id);
    }
    for (auto it = jobs.cbegin(); it != jobs.cend(); ++it)
        m_jobs.poll(it.key(), it.value());
    armPollTimer();
}

void Engine::applyState(qint64 taskId, const Mcp::TaskState &state, bool fromPush)
{
    auto it = m_live.find(taskId);
    if (it == m_live.end())
        return;
    Store::TaskRecord &t = *it;
    const Store::TaskStatus oldStatus = t.status;
    const QString oldMessage = t.statusMessage;
    const QString oldUpdated = t.lastUpdatedAt;
    const auto oldInterval = t.pollIntervalMs;
    const Store::TaskRecord before = t;
    if (!state.warnings.isEmpty()) {
        // Clamped or ignored field by field; logged once per distinct warning, not every poll.
        const QString w = state.warnings.join(QStringLiteral("; "));
        if (m_fieldWarned.value(taskId) != w) {
            m_fieldWarned.insert(taskId, w);
            qCWarning(lcMonitor, "task %lld: %s", taskId, qPrintable(w));
        }
    }
    fillFromState(t, state);
    if (Store::isTerminal(oldStatus) && t.isLive()) {
        // An end state is final: a server that calls the task live again is wrong; keep the end.
        qCWarning(lcMonitor, "task %lld: the server said %s after %s; keeping %s", taskId,
                  qPrintable(Store::toText(t.status)), qPrintable(Store::toText(oldStatus)),
                  qPrintable(Store::toText(oldStatus)));
        t.status = oldStatus;
        t.statusMessage = oldMessage;
    }
    if (t.status == Store::TaskStatus::Completed && t.result.isEmpty() && t.error.isEmpty()) {
        // `completed` without its result is not an end (a server may publish the status before
        // it attaches the result): keep the task live and ask again, a few times, with backoff.
        if (fromPush) { // a push is not a poll: let the next poll bring the result
            t = before;
            m_scheduler->pollSoon(taskId);
            return;
        }
        const int tries = ++m_noResultTries[taskId];
        if (tries <= s_noResultTries) {
            qCWarning(lcMonitor, "task %lld: the server said completed but sent no result; "
                                 "asking again (%d of %d)", taskId, tries, s_noResultTries);
            t = before;
            m_scheduler->completed(taskId, s_noResultFirstDelayMs << (tries - 1));
            return;
        }
        t.error = QString::fromStdString(
            json{{"code", -32603},
                 {"message", "the server said completed but sent no result (asked "
                                 + std::to_string(s_noResultTries + 1)
                                 + " times); run the case again or ask the server's operator"}}
                .dump());
    }
    if (!Store::isTerminal(oldStatus) && t.status == Store::TaskStatus::Cancelled
        && t.statusMessage == oldMessage) {
        // Cancelled without a message of its own: the last live one (e.g. "queued, position 1")
        // no longer describes the task. It stays in the task's event history.
        t.statusMessage.clear();
    }
    const qint64 now = nowMs();
    const bool statusChanged = t.status != oldStatus;
    const bool messageChanged = t.statusMessage != oldMessage;
    QList<Store::ProgressSample> samples;
    if (messageChanged && !t.statusMessage.isEmpty()) {
        samples = m_parser.parse(t.statusMessage, t.tool, now, taskId);
        if (ProgressParser::hasOwnX(samples)) {
            m_lastX.insert(taskId, samples.first().x);
        } else if (!samples.isEmpty()) {
            // No counter in this message ("converged, residual 9e-7"): it belongs at the last
            // iteration seen, never at a clock time.
            const double x = lastX(taskId);
            for (Store::ProgressSample &sample : samples)
                sample.x = x;
        }
    }
    // A result's residual history (docs/sweeps.md) is the whole run, also what ran while Eddy
    // was closed or between two polls: it replaces the residuals polling saw.
    bool replaceResiduals = false;
    if (!t.isLive() && t.status == Store::TaskStatus::Completed && !t.result.isEmpty()) {
        const QList<Store::ProgressSample> history = ProgressParser::historySamples(t.result, taskId, now);
        if (!history.isEmpty()) {
            samples.removeIf([](const Store::ProgressSample &sample) {
                return sample.series == ProgressParser::Residual
                       || sample.series.startsWith(ProgressParser::Residual + QLatin1Char('.'));
            });
            samples << history;
            replaceResiduals = true;
        }
    }

    QList<Store::InputRequestRecord> fresh;
    if (t.status == Store::TaskStatus::InputRequired) {
        // The modern form goes in as the bytes received, so a repeated poll of an unchanged
        // question costs the inbox one hash and no parse.
        fresh = m_inbox->observe(taskId, state.inputRequests);
    } else if (oldStatus == Store::TaskStatus::InputRequired) {
        m_inbox->forget(taskId);
    }

    const bool terminal = !t.isLive();
    if (!terminal && !fromPush) // a push is not a poll: the poll cadence stays as it was
        m_scheduler->completed(taskId, t.pollIntervalMs);
    t.nextPollAtMs = m_scheduler->dueAtMs(taskId).value_or(0);
    if (terminal)
        t.finishedAtMs = now;
    const bool changed = statusChanged || messageChanged || terminal || t.lastUpdatedAt != oldUpdated
                         || t.pollIntervalMs != oldInterval;
    if (changed) {
        if (replaceResiduals && !m_store.deleteSamples(taskId, ProgressParser::Residual))
            qCWarning(lcMonitor) << "cannot replace the residuals of task" << taskId << ":" << m_store.lastError();
        if (!m_store.storeTaskUpdate(t, statusChanged || messageChanged, samples))
            qCWarning(lcMonitor) << "cannot store task" << taskId << ":" << m_store.lastError();
        queueChange(t);
        m_pending.samples << samples;
    }
    for (const Store::InputRequestRecord &r : std::as_const(fresh)) {
        m_pending.inputs << r;
        armFlush();
        emit inputRequested(r);
        autoAnswer(r);
    }
    if (terminal) {
        qCDebug(lcMonitor, "task %lld ended by %s", taskId, fromPush ? "push" : "poll");
        const Store::TaskRecord done = t;
        m_byServerTaskId.remove(done.serverTaskId);
        m_live.erase(it);
        m_scheduler->remove(taskId);
        m_ttlWarned.remove(taskId);
        m_noResultTries.remove(taskId);
        m_wrongTask.remove(taskId);
        m_fieldWarned.remove(taskId);
        forgetOnClient(done);
        m_lastX.remove(taskId);
        qCInfo(lcMonitor, "task %lld finished: %s", taskId, qPrintable(Store::toText(done.status)));
        queueFinished(done);
        emit taskFinished(done);
    }
}

double Engine::lastX(qint64 taskId)
{
    if (auto it = m_lastX.constFind(taskId); it != m_lastX.constEnd())
        return *it;
    // After a restart: the last x stored for the task (one read, then remembered).
    double x = 0;
    const QList<Store::ProgressSample> stored = m_store.progressSamples(taskId);
    for (const Store::ProgressSample &sample : stored) {
        if (sample.series == ProgressParser::Iteration || sample.series == ProgressParser::Step)
            x = sample.x;
    }
    m_lastX.insert(taskId, x);
    return x;
}

void Engine::markGone(qint64 taskId, const QString &why, bool unreliable)
{
    auto it = m_live.find(taskId);
    if (it == m_live.end())
        return;
    Store::TaskRecord t = *it;
    const auto expires = t.expiresAtMs();
    // Expired: the server's TTL ran out before we stored a result. Lost: the server never
    // knew (or no longer knows) the id for another reason, e.g. its database was reset.
    t.status = expires && *expires <= nowMs() + 1000 ? Store::TaskStatus::Expired : Store::TaskStatus::Lost;
    if (unreliable)
        t.status = Store::TaskStatus::Lost;
    t.statusMessage = unreliable ? why
                      : t.status == Store::TaskStatus::Expired
                          ? QStringLiteral("the server forgot the task after its TTL (%1)").arg(why)
                          : QStringLiteral("the server does not know this task (%1)").arg(why);
    t.finishedAtMs = nowMs();
    m_store.storeTaskUpdate(t, true, {});
    m_byServerTaskId.remove(t.serverTaskId);
    forgetOnClient(t);
    m_live.erase(it);
    m_scheduler->remove(taskId);
    queueChange(t);
    queueFinished(t);
    qCWarning(lcMonitor, "task %lld is %s", taskId, qPrintable(Store::toText(t.status)));
    emit taskFinished(t);
}

// ---------------------------------------------------------------- cancel and answers

void Engine::cancelTasks(const QList<qint64> &taskIds)
{
    if (isReadOnly()) {
        emit operationFailed(readOnlyMessage());
        return;
    }
    for (qint64 id : taskIds) {
        auto t = m_store.task(id);
        if (!t) {
            emit operationFailed(QStringLiteral("There is no task %1; list tasks with eddyctl tasks.").arg(id));
            continue;
        }
        if (t->isLive() && t->pattern == Pattern::Streamed) {
            m_streamed.cancel(*t);
            continue;
        }
        if (!t->isLive() || t->serverTaskId.isEmpty()) {
            const QString msg =
                t->isLive() ? QStringLiteral("Task %1 is a streamed call: the server gives no handle "
                                             "to cancel it with; it ends when its stream ends.").arg(id)
                            : QStringLiteral("Task %1 has already ended (%2); nothing to cancel.")
                                  .arg(id).arg(Store::toText(t->status));
            emit operationFailed(msg);
            emit cancelSent(id, false, msg);
            continue;
        }
        m_store.setCancelRequested(id);
        t->cancelRequested = true;
        if (auto live = m_live.find(id); live != m_live.end())
            live->cancelRequested = true;
        queueChange(*t);
        ServerLink *l = link(t->serverId);
        if (!l) {
            emit cancelSent(id, false, QStringLiteral("The task's server is not configured."));
            continue;
        }
        if (t->pattern == Pattern::Job) {
            m_jobs.cancel(*t);
            continue;
        }
        m_tasks.cancel(*t);
    }
}

void Engine::cancelAnswered(qint64 taskId, const QString &failure)
{
    --m_answersInFlight;
    if (!failure.isEmpty())
        emit operationFailed(failure);
    emit cancelSent(taskId, failure.isEmpty(), failure);
    m_scheduler->pollSoon(taskId); // the server's verdict comes with its next state
    armPollTimer();
    checkIdle();
}

} // namespace Eddy::Monitor
