// Replicas behind a proxy (--replica-key-file; docs/server.md, "Replicas behind nginx"): every
// replica opens the same store and case folder, so a task another replica created is loaded
// here the first time a call names it. The id's MAC is checked first: a forged or altered id is
// refused without a store read and without any Slurm call.

#include "server/log.h"
#include "server/replicaids.h"
#include "server/taskmanager.h"
#include "server/taskstore.h"

namespace Eddy::Server {

namespace {

std::string slotOf(const std::string &tokenHash, const std::string &key)
{
    return tokenHash + '\n' + key; // as taskmanager.cpp's idempotencySlot
}

} // namespace

void TaskManager::insertLoaded(TaskRecord record)
{
    auto e = std::make_shared<Entry>();
    e->record = std::move(record);
    if (!e->record.idempotencyKey.empty())
        m_idempotency[slotOf(e->record.tokenHash, e->record.idempotencyKey)] = e->record.id;
    m_tasks[e->record.id] = e;
    if (e->record.status == TaskStatus::Working)
        enqueue(e);
    else
        render(*e);
}

bool TaskManager::adopt(const std::string &id)
{
    if (!m_replicaIds)
        return false;
    {
        const std::shared_lock lock(m_mutex);
        if (m_tasks.find(id) != m_tasks.end())
            return true;
    }
    if (!m_replicaIds->verify(id))
        return false;
    std::string warnings;
    for (TaskRecord &r : m_store.loadAll(warnings)) {
        if (r.id != id)
            continue;
        if (r.createdMs + r.ttlMs <= nowMs())
            return false;
        const std::unique_lock lock(m_mutex);
        if (m_tasks.find(id) == m_tasks.end()) {
            insertLoaded(std::move(r));
            Log::info("task " + Log::redact(id) + " taken over from the shared store");
        }
        m_queueCv.notify_all();
        return true;
    }
    return false;
}

void TaskManager::adoptByKey(const std::string &tokenHash, const std::string &key)
{
    {
        const std::shared_lock lock(m_mutex);
        if (m_idempotency.count(slotOf(tokenHash, key)))
            return;
    }
    std::string warnings;
    for (TaskRecord &r : m_store.loadAll(warnings)) {
        if (r.tokenHash != tokenHash || r.idempotencyKey != key || r.createdMs + r.ttlMs <= nowMs())
            continue;
        const std::unique_lock lock(m_mutex);
        if (m_tasks.find(r.id) == m_tasks.end()) {
            Log::info("task " + Log::redact(r.id) + " taken over by its idempotency key");
            insertLoaded(std::move(r));
            m_queueCv.notify_all();
        }
        return;
    }
}

} // namespace Eddy::Server
