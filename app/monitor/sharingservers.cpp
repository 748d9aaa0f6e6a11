// Servers added, edited or removed by another process on the same database (the change log's
// "servers" entries, which the store's server writes add). A removed server is dropped here at
// once: its live tasks are no longer polled, their leases are given back and its listen stream
// is closed, so it is not asked again by any process. One whose URL or token was changed gets a
// new client at once (Engine::relinkServer), its tasks and leases kept. The change is announced
// (Engine::serversChanged) for whoever lists the servers.
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/sharing.h"

namespace Eddy::Monitor {

void Sharing::noteServer(qint64 serverId, bool active)
{
    if (active)
        m_activeServers.insert(serverId);
    else
        m_activeServers.remove(serverId);
}

void Sharing::releaseTasks(const QList<qint64> &taskIds)
{
    if (taskIds.isEmpty())
        return;
    // One commit for the lot, as Engine::open takes them: a server with thousands of live tasks
    // would otherwise cost a commit (and a WAL frame) each. Without a transaction (another
    // writer holds the lock past the busy timeout) each is given back on its own.
    Store::Transaction tx(m_engine.m_store.database());
    for (qint64 taskId : taskIds) {
        if (!m_leases.release(Store::Leases::taskItem(taskId)))
            qCWarning(lcMonitor) << "cannot give back the lease of task" << taskId << ":"
                                 << m_engine.m_store.lastError();
    }
    if (tx.isActive() && !tx.commit())
        qCWarning(lcMonitor) << "cannot give back the leases of" << taskIds.size()
                             << "task(s):" << m_engine.m_store.lastError();
}

void Sharing::checkServers(const QList<qint64> &serverIds)
{
    QList<qint64> added;
    QList<qint64> removed;
    bool edited = false;
    for (qint64 id : serverIds) {
        const auto rec = m_engine.m_store.server(id);
        const bool active = rec && !rec->retired;
        if (active) {
            if (m_activeServers.contains(id)) {
                edited = true; // its name, URL or token: listed again
                m_engine.relinkServer(id); // a new URL or token: a new client (serverlinks.h)
            } else {
                added << id; // new, or a removed one brought back
            }
            m_activeServers.insert(id);
            continue;
        }
        if (!m_activeServers.remove(id))
            continue; // removed by this process, or added and removed while it was not looking
        removed << id;
        // Polled here: dropped with its lease. Polled by another process: followed no more (a
        // deleted row never comes by the log; a kept one comes as stored, lost).
        const QList<qint64> dropped = m_engine.dropServer(id);
        QList<qint64> followed;
        for (auto it = m_followed.cbegin(); it != m_followed.cend(); ++it) {
            if (it->serverId == id)
                followed << it.key();
        }
        for (qint64 taskId : std::as_const(followed)) {
            m_followed.remove(taskId);
            m_engine.m_inbox->forget(taskId);
        }
        qCInfo(lcMonitor,
               "server %lld was removed by another process (%s); %lld live task(s) no longer "
               "polled here",
               id,
               rec ? "tasks kept" : "tasks deleted",
               qint64(dropped.size()));
    }
    if (!removed.isEmpty()) {
        m_engine.armPollTimer();
        m_engine.checkIdle();
    }
    if (edited || !added.isEmpty() || !removed.isEmpty())
        emit m_engine.serversChanged(added, removed);
}

} // namespace Eddy::Monitor
