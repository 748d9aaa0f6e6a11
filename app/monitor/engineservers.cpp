// Removing a server (issue 14, item 10): refused while a call to it is being sent; otherwise its
// stored tasks are kept as history (the server is retired: never contacted again) or deleted
// with it, and the engine stops following everything of that server.
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/sharing.h"

namespace Eddy::Monitor {

bool Engine::removeServer(qint64 serverId, Store::ServerRemoval mode)
{
    const auto rec = m_store.server(serverId);
    const QString name = !rec ? QString() : rec->name.isEmpty() ? rec->url : rec->name;
    // A tools/call on the wire would store a task for a server that is gone.
    bool sending = false;
    for (qint64 caseId : std::as_const(m_sendingCases)) {
        const auto c = m_store.caseRecord(caseId);
        sending = sending || (c && c->serverId == serverId);
    }
    for (const CaseRound &round : std::as_const(m_caseRounds))
        sending = sending || round.c.serverId == serverId;
    if (rec && sending) {
        emit operationFailed(QStringLiteral("A call to %1 is still being sent; remove the server "
                                            "once it has been answered. Nothing was removed.")
                                 .arg(name));
        return false;
    }
    if (!m_store.removeServer(serverId, mode)) {
        emit operationFailed(m_store.lastError());
        return false;
    }
    if (m_sharing)
        m_sharing->noteServer(serverId, false); // its own change log entry is no news here
    const QList<qint64> live = dropServer(serverId);
    if (mode == Store::ServerRemoval::KeepTasks) {
        for (qint64 taskId : live) {
            if (const auto stored = m_store.task(taskId))
                queueChange(*stored); // shown as lost, with why
        }
    }
    qCInfo(lcMonitor,
           "server %lld removed (%s), %lld live task(s) no longer followed",
           serverId,
           mode == Store::ServerRemoval::DeleteTasks ? "tasks deleted" : "tasks kept",
           qint64(live.size()));
    armPollTimer();
    checkIdle();
    return true;
}

QList<qint64> Engine::dropServer(qint64 serverId)
{
    // Stop following what the store no longer lets run: its live tasks and unsent cases.
    QList<qint64> live;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it) {
        if (it->serverId == serverId)
            live << it.key();
    }
    for (qint64 taskId : std::as_const(live)) {
        const Store::TaskRecord t = m_live.take(taskId);
        m_byServerTaskId.remove(t.serverTaskId);
        forgetOnClient(t);
        m_scheduler->remove(taskId);
        m_noResultTries.remove(taskId);
        m_lastX.remove(taskId);
        m_wrongTask.remove(taskId);
        m_ttlWarned.remove(taskId);
        m_fieldWarned.remove(taskId);
        m_inbox->forget(taskId);
    }
    if (m_sharing)
        m_sharing->releaseTasks(live); // nobody is to poll them: no lease to run out

    for (auto it = m_caseQueue.begin(); it != m_caseQueue.end(); ++it) {
        it->removeIf([serverId](const Store::CaseRecord &c) { return c.serverId == serverId; });
    }
    // Cases waiting to be sent again (the store has rejected them): their rows say why.
    QList<qint64> waiting;
    for (auto it = m_caseWaits.cbegin(); it != m_caseWaits.cend(); ++it)
        if (it->c.serverId == serverId)
            waiting << it.key();
    for (qint64 caseId : std::as_const(waiting)) {
        m_caseWaits.remove(caseId);
        m_caseAttempts.remove(caseId);
        emit caseRejected(caseId, tr("Not sent: its server was removed from Eddy."));
    }
    if (auto it = m_links.find(serverId); it != m_links.end()) {
        ServerLink *l = *it;
        m_links.erase(it);
        if (l->listen) { // its stream carried only this server's tasks
            Mcp::Listen *listen = l->listen.data();
            listen->disconnect(this);
            listen->deleteLater(); // closes the stream
        }
        delete l->listenTimer;
        // Submissions waiting for its tools hear that it is gone.
        const auto waiting = std::move(l->waitingForTools);
        Mcp::Client *client = l->client;
        delete l;
        for (const auto &w : waiting)
            w({}, tr("The server was removed from Eddy."));
        endServerCalls(serverId, client); // engineclients.cpp
    }
    m_jobs.forgetServer(serverId);
    return live;
}

} // namespace Eddy::Monitor
