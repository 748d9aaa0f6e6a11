// Removing a server (issue 14, item 10): refused while a call to it is being sent; otherwise its
// stored tasks are kept as history (the server is retired: never contacted again) or deleted
// with it, and the engine stops following everything of that server.
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"

namespace Eddy::Monitor {

bool Engine::removeServer(qint64 serverId, Store::TaskStore::Removal mode)
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
        if (mode == Store::TaskStore::Removal::KeepTasks) {
            if (const auto stored = m_store.task(taskId))
                queueChange(*stored); // shown as lost, with why
        }
    }
    for (auto it = m_caseQueue.begin(); it != m_caseQueue.end(); ++it) {
        it->removeIf([serverId](const Store::CaseRecord &c) { return c.serverId == serverId; });
    }
    if (auto it = m_links.find(serverId); it != m_links.end()) {
        (*it)->client->deleteLater();
        delete *it;
        m_links.erase(it);
    }
    m_jobAdapters.remove(serverId);
    qCInfo(lcMonitor,
           "server %lld removed (%s), %lld live task(s) no longer followed",
           serverId,
           mode == Store::TaskStore::Removal::DeleteTasks ? "tasks deleted" : "tasks kept",
           qint64(live.size()));
    armPollTimer();
    checkIdle();
    return true;
}

} // namespace Eddy::Monitor
