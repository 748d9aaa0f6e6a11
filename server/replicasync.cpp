#include "server/replicasync.h"

#include "server/heldtasks.h"
#include "server/log.h"
#include "server/replicaids.h"
#include "server/taskstore.h"

#include <algorithm>

namespace Eddy::Server {

ReplicaSync::ReplicaSync(HeldTasks &held, TaskStore &store, Changed changed)
    : m_held(held)
    , m_store(store)
    , m_changed(std::move(changed))
{}

void ReplicaSync::saw(std::int64_t seq)
{
    m_seenSeq = std::max(m_seenSeq, seq);
}

bool ReplicaSync::adopt(const std::string &id)
{
    if (!m_ids)
        return false;
    bool held = false;
    {
        const std::shared_lock lock(m_held.mutex);
        held = m_held.tasks.find(id) != m_held.tasks.end();
    }
    if (!held && !m_ids->verify(id))
        return false;
    catchUp();
    if (held)
        return true;
    TaskRecord r;
    if (!m_store.load(id, r) || r.createdMs + r.ttlMs <= HeldTasks::nowMs())
        return false;
    const std::unique_lock lock(m_held.mutex);
    if (m_held.tasks.find(id) == m_held.tasks.end()) {
        m_held.insertLoaded(std::move(r));
        Log::info("task " + Log::redact(id) + " taken over from the shared store");
    }
    m_held.queueCv.notify_all();
    return true;
}

[[gnu::hot]] void ReplicaSync::catchUp()
{
    if (!m_ids)
        return;
    // Held while the changes are applied: a caller that finds nothing new may rely on every
    // change committed before its call being in memory already.
    const std::lock_guard lock(m_catchUpMutex);
    std::vector<TaskRecord> changed;
    if (!m_store.changedSince(m_seenSeq, changed))
        return;
    for (TaskRecord &r : changed) {
        m_seenSeq = std::max(m_seenSeq, r.seq);
        applyStored(std::move(r));
    }
}

void ReplicaSync::applyStored(TaskRecord stored)
{
    const std::string id = stored.id;
    int released = -1; // the attempt whose job this replica no longer follows
    {
        const std::unique_lock lock(m_held.mutex);
        const auto it = m_held.tasks.find(id);
        if (it == m_held.tasks.end())
            return; // not held here: taken over when a call names it
        HeldTasks::Entry &e = *it->second;
        TaskRecord &held = e.record;
        if (stored.seq <= held.seq)
            return;
        if (stored.status == held.status && stored.repairs == held.repairs
            && stored.keyCounter == held.keyCounter) {
            held.seq = stored.seq; // the same state (often this replica's own write)
            return;
        }
        if (held.status == TaskStatus::Working)
            released = int(held.repairs.size());
        m_held.dequeue(e);
        e.running = false;
        e.nearEnd = false;
        e.iteration = 0;
        held = std::move(stored);
        e.cold = false; // the stored state includes the result
        e.stored = isTerminal(held.status);
        if (held.status == TaskStatus::Working) {
            // Answered elsewhere: the backend follows the new attempt's job, whoever submits it.
            m_held.enqueue(it->second);
        } else {
            if (isTerminal(held.status))
                e.stop = true; // a local solver run stops between iterations
            m_held.render(e);
        }
        Log::info("task " + Log::redact(id) + " is " + statusName(held.status)
                  + " (changed by another replica)");
    }
    m_changed(id, released);
}

void ReplicaSync::adoptByKey(const std::string &tokenHash, const std::string &key)
{
    {
        const std::shared_lock lock(m_held.mutex);
        if (m_held.idempotency.count(HeldTasks::slotOf(tokenHash, key)))
            return;
    }
    std::string warnings;
    for (TaskRecord &r : m_store.loadAll(warnings)) {
        if (r.tokenHash != tokenHash || r.idempotencyKey != key
            || r.createdMs + r.ttlMs <= HeldTasks::nowMs())
            continue;
        const std::unique_lock lock(m_held.mutex);
        if (m_held.tasks.find(r.id) == m_held.tasks.end()) {
            Log::info("task " + Log::redact(r.id) + " taken over by its idempotency key");
            m_held.insertLoaded(std::move(r));
            m_held.queueCv.notify_all();
        }
        return;
    }
}

} // namespace Eddy::Server
