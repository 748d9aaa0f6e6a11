#include "app/monitor/taskfollower.h"

#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"

namespace Eddy::Monitor {

TaskFollower::TaskFollower(Engine &hub)
    : m_hub(hub)
{
}

void TaskFollower::follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs)
{
    if (m_hub.trackLive(task, dueAtMs, std::nullopt))
        scheduleListen(task.serverId);
}

void TaskFollower::relinked(qint64 serverId)
{
    for (const Store::TaskRecord &t : std::as_const(m_hub.m_live)) {
        if (t.serverId == serverId && t.pattern == Pattern::Task) {
            scheduleListen(serverId);
            return;
        }
    }
}

void TaskFollower::scheduleListen(qint64 serverId)
{
    if (!m_hub.m_monitoring)
        return;
    Engine::ServerLink *l = m_hub.link(serverId);
    if (!l || l->listenUnsupported)
        return;
    if (!l->listenTimer) {
        l->listenTimer = new QTimer(&m_hub);
        l->listenTimer->setSingleShot(true);
        QObject::connect(l->listenTimer, &QTimer::timeout, &m_hub, [this, serverId] { startListen(serverId); });
    }
    // The first stream opens on the next turn (a task that ends within a second is pushed too);
    // while one is open, a burst of new tasks is gathered into one reopened stream.
    if (!l->listenTimer->isActive())
        l->listenTimer->start(l->listen ? 1000 : 0);
}

void TaskFollower::startListen(qint64 serverId)
{
    Engine::ServerLink *l = m_hub.link(serverId);
    if (!l || !m_hub.m_monitoring || !m_hub.isOpen())
        return;
    // A reopened stream makes the server repeat the state of every task it carries, and every
    // queued task's position has moved since: each second of a 1,000-case submission would
    // store the whole set again. While cases are still being sent, new tasks are polled and the
    // stream is reopened once the burst is over (or after 10 s).
    if (l->listen && l->listenPostponed < 10 && m_hub.isSubmitting()) {
        ++l->listenPostponed;
        l->listenTimer->start(1000);
        return;
    }
    l->listenPostponed = 0;
    // MCP tasks only: a job is followed by its adapter's status calls alone (a server that
    // offers job tools may still answer subscriptions/listen for the same ids, and a push would
    // end the job without its result tool).
    QSet<QString> live;
    for (const Store::TaskRecord &t : std::as_const(m_hub.m_live))
        if (t.serverId == serverId && t.pattern == Pattern::Task)
            live.insert(t.serverTaskId);
    QSet<QString> added = live - l->listenIds;
    const qsizetype carried = live.size() - added.size();
    if (l->listen && added.isEmpty())
        return; // every live task is carried (a stream for tasks that have all ended can stay)
    // A stream makes the server send the state of every task it names: tasks that arrived since
    // the first stream opened go on a second, small one, and both become one stream when the
    // second would carry more than an eighth of the first's live tasks.
    if (l->listen && added.size() <= carried / 8) {
        openListen(serverId, added, true);
        return;
    }
    l->endListens(&m_hub);
    l->listenIds = live;
    openListen(serverId, live, false);
}

void TaskFollower::openListen(qint64 serverId, const QSet<QString> &ids, bool addedOnly)
{
    Engine::ServerLink *l = m_hub.link(serverId);
    QPointer<Mcp::Listen> &slot = addedOnly ? l->listenNew : l->listen;
    if (Mcp::Listen *old = slot.data()) {
        slot.clear();
        old->disconnect(&m_hub);
        old->deleteLater(); // closes the stream
    }
    if (ids.isEmpty())
        return;
    std::vector<std::string> wire;
    wire.reserve(size_t(ids.size()));
    for (const QString &id : ids)
        wire.push_back(id.toStdString());
    Mcp::Listen *listen = l->client->listen(std::move(wire));
    listen->setParent(&m_hub);
    slot = listen;
    QObject::connect(listen, &Mcp::Listen::taskNotification, &m_hub, [this](const Mcp::TaskState &state) {
        const auto it = m_hub.m_byServerTaskId.constFind(QString::fromStdString(state.taskId));
        if (it == m_hub.m_byServerTaskId.constEnd())
            return;
        ++m_hub.m_pushes;
        m_hub.applyState(*it, state, true);
        m_hub.armPollTimer();
        m_hub.checkIdle();
    });
    QObject::connect(listen, &Mcp::Listen::acknowledged, &m_hub, [this, l, serverId](const std::vector<std::string> &) {
        l->listenFailures = 0;
        m_hub.serverAnswered(serverId, false);
    });
    QObject::connect(listen, &Mcp::Listen::closed, &m_hub, [this, serverId, listen](const Mcp::Error &error) {
        Engine::ServerLink *l = m_hub.link(serverId);
        if (!l || (l->listen != listen && l->listenNew != listen))
            return;
        if (l->listen == listen) {
            l->listen.clear();
            l->listenIds.clear(); // the next stream carries every live task again
        } else {
            l->listenNew.clear();
        }
        listen->deleteLater();
        if (error.kind() == Mcp::Error::Kind::Aborted)
            return;
        // A server without listen (an older protocol, method not found) is polled only; a dropped
        // stream is reopened after a pause, since the server keeps no subscription state.
        if (error.kind() == Mcp::Error::Kind::Protocol || error.code() == Mcp::ErrorCode::MethodNotFound
            || ++l->listenFailures > 5) {
            l->listenUnsupported = true;
            l->endListens(&m_hub);
            qCInfo(lcMonitor) << "no task pushes from this server; polling only:" << error.message();
            return;
        }
        QTimer::singleShot(2000 * l->listenFailures, &m_hub, [this, serverId] { scheduleListen(serverId); });
    });
}

void TaskFollower::poll(qint64, const QList<qint64> &taskIds)
{
    for (qint64 taskId : taskIds)
        pollOne(taskId);
}

void TaskFollower::pollOne(qint64 taskId)
{
    const auto it = m_hub.m_live.constFind(taskId);
    if (it == m_hub.m_live.constEnd()) {
        m_hub.m_scheduler->remove(taskId);
        return;
    }
    Engine::ServerLink *l = m_hub.link(it->serverId);
    if (!l) {
        m_hub.m_scheduler->remove(taskId);
        return;
    }
    const auto trace = Mcp::TraceContext::fromTraceparent(it->traceparent.toLatin1());
    Mcp::TaskJob *job = l->client->getTask(it->serverTaskId.toStdString(),
                                           trace.isValid() ? trace.newTraceparent() : QByteArray());
    const qint64 serverId = it->serverId;
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, taskId, serverId] {
        if (!m_hub.m_live.contains(taskId)) {
            m_hub.m_scheduler->remove(taskId);
            m_hub.armPollTimer();
            return;
        }
        if (job->hasError()) {
            const Mcp::Error e = job->error();
            if (isUnknownTask(e)) {
                m_hub.markGone(taskId, e.message());
            } else if (e.isAboutAnotherTask()) {
                wrongTaskAnswer(taskId, e);
            } else {
                const bool badParams = e.isTaskGone();
                const QString message = badParams ? invalidParamsMessage(e) : e.message();
                if (badParams)
                    qCWarning(lcMonitor, "task %lld: %s", taskId, qPrintable(message));
                m_hub.m_scheduler->failed(taskId, e.retryAfterMs());
                Engine::ServerLink *l = m_hub.link(serverId);
                if (l && l->state != Engine::ServerState::BackingOff) {
                    l->state = Engine::ServerState::BackingOff;
                    emit m_hub.serverStateChanged(serverId, Engine::ServerState::BackingOff, message, false);
                }
            }
        } else {
            m_hub.serverAnswered(serverId, false);
            m_hub.m_wrongTask.remove(taskId);
            m_hub.applyState(taskId, job->state());
        }
        m_hub.armPollTimer();
        m_hub.checkIdle();
    });
}

void TaskFollower::wrongTaskAnswer(qint64 taskId, const Mcp::Error &e)
{
    // Never this task's state: a protocol error for this poll, counted, polled again with
    // backoff; after a bounded number in a row the task is given up with a message.
    const int count = ++m_hub.m_wrongTask[taskId];
    const auto it = m_hub.m_live.constFind(taskId);
    const QString redacted = it == m_hub.m_live.constEnd() ? QString() : redactSecret(it->serverTaskId);
    qCWarning(lcMonitor, "task %lld (%s): tasks/get answered about another task (%d of %d): %s",
              taskId, qPrintable(redacted), count, m_hub.m_wrongTaskLimit, qPrintable(e.message()));
    if (count < m_hub.m_wrongTaskLimit) {
        m_hub.m_scheduler->failed(taskId, e.retryAfterMs());
        return;
    }
    m_hub.m_wrongTask.remove(taskId);
    m_hub.markGone(taskId, QStringLiteral("the server is unreliable: %1 answers in a row to tasks/get "
                                    "were about another task; Eddy stopped polling it. Check the "
                                    "server or any gateway in front of it").arg(count),
             true);
}

void TaskFollower::answer(const Store::TaskRecord &t, const QString &key, const json &answer,
                          int attempt)
{
    const qint64 taskId = t.id;
    Engine::ServerLink *l = m_hub.link(t.serverId);
    // Sent again shortly, still "answering": after a transient failure, or until a poll has
    // brought the question's key in the server's current session.
    const auto retry = [this, taskId, key, answer, attempt](qint64 delayMs) {
        QTimer::singleShot(int(std::clamp<qint64>(delayMs, 1000, 30000)), &m_hub, [this, taskId, key, answer, attempt] {
            if (m_hub.isOpen())
                m_hub.m_answers.send(taskId, key, answer, attempt + 1);
        });
    };
    ++m_hub.m_answersInFlight;
    const auto trace = Mcp::TraceContext::fromTraceparent(t.traceparent.toLatin1());
    Mcp::AckJob *job = l->client->updateTask(t.serverTaskId.toStdString(), json{{key.toStdString(), answer}},
                                             trace.isValid() ? trace.newTraceparent() : QByteArray());
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, taskId, key, attempt, retry] {
        --m_hub.m_answersInFlight;
        if (job->hasError()) {
            const Mcp::Error e = job->error();
            if (e.isTransient()) {
                retry(e.retryAfterMs()); // the same answer again shortly
            } else if (e.wantsPollFirst() && attempt < s_pollFirstAnswerTries) {
                m_hub.m_scheduler->pollSoon(taskId);
                m_hub.armPollTimer();
                retry(1000);
            } else if (e.wantsPollFirst()) {
                m_hub.m_inbox->answerSent(taskId, key, false);
                emit m_hub.inputAnswered(taskId, key, false,
                                   Engine::tr("The server no longer asks this question; answer "
                                                  "the question it asks now."));
            } else {
                m_hub.m_inbox->answerSent(taskId, key, false);
                emit m_hub.inputAnswered(taskId, key, false, e.message());
            }
        } else {
            m_hub.m_inbox->answerSent(taskId, key, true);
            emit m_hub.inputAnswered(taskId, key, true, {});
            m_hub.m_scheduler->pollSoon(taskId);
            m_hub.armPollTimer();
        }
        m_hub.checkIdle();
    });
}

void TaskFollower::cancel(const Store::TaskRecord &t)
{
    if (!m_hub.requestCancel(t))
        return;
    const qint64 id = t.id;
    Engine::ServerLink *l = m_hub.link(t.serverId);
    ++m_hub.m_answersInFlight;
    Mcp::AckJob *job = l->client->cancelTask(t.serverTaskId.toStdString());
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, id] {
        m_hub.cancelAnswered(id, job->hasError() ? Engine::tr("Cancelling task %1 failed: %2")
                                                       .arg(id)
                                                       .arg(job->error().message())
                                                 : QString());
    });
}

} // namespace Eddy::Monitor
