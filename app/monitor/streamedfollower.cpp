#include "app/monitor/streamedfollower.h"
#include "app/monitor/sweepsubmitter.h"

#include "app/mcp/client.h"
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/streamedtasks.h"

namespace Eddy::Monitor {

StreamedFollower::StreamedFollower(Engine &hub)
    : m_hub(hub)
{
}

void StreamedFollower::opened(const Store::CaseRecord &c, Mcp::CallJob *job)
{
    if (m_rows.contains(c.id))
        return; // the same call sent again after a dropped stream: same row
    Store::TaskRecord t = taskOfCase(c);
    t.pattern = Pattern::Streamed;
    t.streamOwner = StreamedCalls::ownerId();
    t.status = Store::TaskStatus::Working;
    t.firstSeenAtMs = nowMs();
    const auto id = m_hub.m_store.recordTaskForCase(c.id, t);
    if (!id) {
        qCWarning(lcMonitor) << "cannot store a streamed call:" << m_hub.m_store.lastError();
        emit m_hub.operationFailed(m_hub.m_store.lastError());
        return;
    }
    if (auto stored = m_hub.m_store.task(*id))
        t = *stored;
    m_rows.insert(c.id, Row{t, std::nullopt, job, false, false});
    if (auto sess = m_hub.m_submitter->takeSessionForCase(c.id))
        m_hub.m_store.attachTask(sess, *id);
    qCInfo(lcMonitor, "case %lld: streamed call, task %lld", c.id, *id);
    emit m_hub.caseSubmitted(c.id, *id);
    m_hub.m_feed.queueChange(t);
}

void StreamedFollower::notification(qint64 caseId, const json &notification)
{
    const auto it = m_rows.find(caseId);
    if (it == m_rows.end())
        return;
    const StreamedCalls::Update u = StreamedCalls::fromNotification(notification);
    if (u.message.isEmpty())
        return;
    Store::TaskRecord &t = it->task;
    if (u.percent)
        it->percent = u.percent;
    const qint64 now = nowMs();
    const bool changed = u.message != t.statusMessage;
    t.statusMessage = u.message;
    t.updatedAtMs = now;
    QList<Store::ProgressSample> samples;
    if (changed) {
        const double fallback = u.x ? *u.x : m_hub.lastX(t.id);
        samples = m_hub.m_parser.parse(t.statusMessage, t.tool, now, t.id, fallback);
        if (!samples.isEmpty())
            m_hub.m_lastX.insert(t.id, samples.first().x);
    }
    if (!m_hub.m_store.storeTaskUpdate(t, changed, samples))
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_hub.m_store.lastError();
    m_hub.m_feed.queueChange(t);
    m_hub.m_feed.pending().samples << samples;
}

bool StreamedFollower::finished(const Store::CaseRecord &c, Mcp::CallJob *job)
{
    const auto it = m_rows.find(c.id);
    if (it == m_rows.end())
        return false;
    const Row row = *it;
    m_rows.erase(it);
    Store::TaskRecord t = row.task;
    m_hub.m_lastX.remove(t.id);
    if (!job->hasError() && job->kind() == Mcp::CallJob::Kind::Task) {
        // The server made a task after all: the row becomes that task and is polled like one.
        if (!m_hub.m_store.promoteStreamedToTask(t.id, QString::fromStdString(job->task().taskId)))
            qCWarning(lcMonitor) << "cannot store a task handle:" << m_hub.m_store.lastError();
        return false;
    }
    const qint64 now = nowMs();
    QList<Store::ProgressSample> samples;
    bool replaceResiduals = false;
    if (!job->hasError() && job->kind() == Mcp::CallJob::Kind::Complete) {
        t.status = Store::TaskStatus::Completed;
        t.result = QString::fromStdString(job->callResult().dump());
        t.isToolError = job->isToolError();
        samples = ProgressParser::historySamples(t.result, t.id, now);
        replaceResiduals = !samples.isEmpty();
    } else if (row.serverRemoved) {
        // Its server was removed in another process (endServerCalls()). With its tasks deleted
        // the row is gone: nothing to store or show.
        if (!m_hub.m_store.task(t.id)) {
            qCInfo(lcMonitor, "task %lld: streamed call ended, its server and row removed", t.id);
            return true;
        }
        t.status = Store::TaskStatus::Lost;
        t.statusMessage = StreamedCalls::serverRemovedMessage(row.percent);
        t.finishedAtMs = nowMs();
        if (!m_hub.m_store.storeRemovedServerTaskEnd(t))
            qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_hub.m_store.lastError();
        if (auto stored = m_hub.m_store.task(t.id))
            t = *stored;
        m_hub.m_feed.queueFinished(t);
        qCInfo(lcMonitor, "task %lld: streamed call ended, its server was removed", t.id);
        emit m_hub.taskFinished(t);
        return true;
    } else if (row.cancelling) {
        // Cancelled from Eddy: whatever ended the stream (our close, or the server ending it
        // after notifications/cancelled), the run was stopped on request.
        t.status = Store::TaskStatus::Cancelled;
        t.statusMessage = StreamedCalls::cancelledMessage(row.percent);
    } else {
        const Mcp::Error e = job->error();
        json error{{"message", e.message().toStdString()}};
        if (e.code() != 0)
            error["code"] = e.code();
        if (e.kind() == Mcp::Error::Kind::JsonRpc || e.kind() == Mcp::Error::Kind::Protocol) {
            t.status = Store::TaskStatus::Failed; // the server answered: an error, not a loss
        } else {
            // No answer will come on a lost stream, and the call has no handle to ask again.
            t.status = Store::TaskStatus::Lost;
            t.statusMessage = StreamedCalls::lostMessage(row.percent, e.message());
        }
        t.error = QString::fromStdString(error.dump());
    }
    t.finishedAtMs = now;
    t.updatedAtMs = now;
    if (replaceResiduals && !m_hub.m_store.deleteSamples(t.id, ProgressParser::Residual))
        qCWarning(lcMonitor) << "cannot replace the residuals of task" << t.id << ":"
                             << m_hub.m_store.lastError();
    if (!m_hub.m_store.storeTaskUpdate(t, true, samples))
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_hub.m_store.lastError();
    if (auto stored = m_hub.m_store.task(t.id))
        t = *stored;
    // Like a task's end: the window announces it from the change set (ChangeSet::finished).
    m_hub.m_feed.queueFinished(t);
    m_hub.m_feed.pending().samples << samples;
    qCInfo(lcMonitor, "task %lld finished: %s", t.id, qPrintable(Store::toText(t.status)));
    emit m_hub.taskFinished(t);
    return true;
}

void StreamedFollower::reconcile(const QList<Store::TaskRecord> &live)
{
    for (const Store::TaskRecord &t : live)
        if (t.pattern == Pattern::Streamed)
            reconcileOne(t);
}

void StreamedFollower::reconcileOne(Store::TaskRecord t)
{
    // A streamed row is live only while a process holds its stream: this one's streams all ended
    // with its last close(), and one whose process is gone will never get its answer.
    if (t.streamOwner != StreamedCalls::ownerId() && StreamedCalls::ownerAlive(t.streamOwner))
        return;
    std::optional<double> percent;
    const QList<Store::ProgressSample> samples = m_hub.m_store.progressSamples(t.id);
    for (auto s = samples.crbegin(); s != samples.crend(); ++s) {
        if (s->series == ProgressParser::Percent) {
            percent = s->y;
            break;
        }
    }
    t.status = Store::TaskStatus::Lost;
    t.statusMessage = StreamedCalls::orphanedMessage(percent);
    t.finishedAtMs = nowMs();
    if (!m_hub.m_store.storeTaskUpdate(t, true, {})) {
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_hub.m_store.lastError();
        return;
    }
    qCInfo(lcMonitor, "task %lld: streamed call left by an ended process, stored as lost", t.id);
    m_hub.m_feed.queueChange(t);
}

void StreamedFollower::closeAll()
{
    // Closing ends every stream this engine holds: their rows say so now instead of at the next
    // open.
    const auto rows = std::exchange(m_rows, {});
    for (const Row &row : rows) {
        Store::TaskRecord t = row.task;
        t.status = Store::TaskStatus::Lost;
        t.statusMessage = StreamedCalls::lostMessage(row.percent);
        t.finishedAtMs = nowMs();
        if (!m_hub.m_store.storeTaskUpdate(t, true, {}))
            qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_hub.m_store.lastError();
        m_hub.m_feed.queueChange(t);
    }
}

void StreamedFollower::cancel(const Store::TaskRecord &t)
{
    const qint64 id = t.id;
    qint64 caseId = 0;
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        if (it->task.id == id) {
            caseId = it.key();
            break;
        }
    }
    const auto it = m_rows.find(caseId);
    Engine::ServerLink *l = m_hub.link(t.serverId);
    if (it == m_rows.end() || !it->job || !l) {
        // Only the process holding the stream can end it (another Eddy window, eddyctl call).
        const QString msg = Engine::tr("Task %1 is a streamed call whose stream this Eddy does "
                                           "not hold; cancel it in the Eddy or eddyctl that "
                                           "started it (its row says so once that one ends).")
                                .arg(id);
        emit m_hub.operationFailed(msg);
        emit m_hub.cancelSent(id, false, msg);
        return;
    }
    if (it->cancelling)
        return;
    it->cancelling = true;
    it->task.cancelRequested = true;
    m_hub.m_store.setCancelRequested(id);
    m_hub.m_feed.queueChange(it->task);
    qCInfo(lcMonitor, "task %lld: cancelling its streamed call", id);
    ++m_hub.m_answersInFlight; // the engine is not idle until the call has ended
    // The client it was sent through: a retired one when the server's URL changed since.
    auto *client = qobject_cast<Mcp::Client *>(it->job->parent());
    (client ? client : l->client)
        ->cancelCall(it->job,
                     QStringLiteral("Cancelled by the user in Eddy"),
                     [this, id](const Mcp::Error &e) {
                         --m_hub.m_answersInFlight;
                         if (!e.isOk())
                             qCWarning(lcMonitor, "task %lld: %s", id, qPrintable(e.message()));
                         emit m_hub.cancelSent(id, true, {});
                         m_hub.checkIdle();
                     });
}

void StreamedFollower::answer(const Store::TaskRecord &t, const QString &key, const json &, int)
{
    m_hub.m_inbox->answerSent(t.id, key, false);
    emit m_hub.inputAnswered(t.id, key, false,
                             Engine::tr("Task %1 is a streamed call: the server gives no handle "
                                            "to send an answer to.").arg(t.id));
}

QSet<Mcp::Job *> StreamedFollower::endForRemovedServer(qint64 serverId)
{
    QSet<Mcp::Job *> jobs;
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        if (it->task.serverId != serverId || !it->job)
            continue;
        it->serverRemoved = true;
        jobs.insert(it->job.data());
    }
    return jobs;
}

} // namespace Eddy::Monitor
