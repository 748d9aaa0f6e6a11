// Replicas behind a proxy (--replica-key-file; docs/server-replicas.md): every
// replica opens the same store and case folder, so a task another replica created is loaded
// here the first time a call names it. The id's MAC is checked first: a forged or altered id is
// refused without a store read and without any Slurm call.
//
// The shared store is the source of truth for a task's state; each replica's memory is a cache
// of it plus the live progress line. Every write expects the row's change number it last saw
// (TaskStore::save), so no replica overwrites another's answer, cancel or outcome, and before
// each call that names a task a replica takes in what the others stored (catchUp).
//
// The store is also the memory of finished tasks: --results-in-memory-ms after a task ends and
// its final state is stored, its result and rendering leave memory (the task is cold), and a
// read takes them from the store. A server keeps finished tasks for their whole ttlMs (a day by
// default); held in memory, their results grew its RSS by about 10 MB an hour in bench/soak.

#include "server/backend.h"
#include "server/log.h"
#include "server/replicaids.h"
#include "server/taskmanager.h"
#include "server/taskstore.h"

#include <algorithm>

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
    e->stored = isTerminal(e->record.status);
}

void TaskManager::markStored(Entry &e, const TaskRecord &written)
{
    if (isTerminal(written.status) && e.record.status == written.status
        && e.record.updatedMs == written.updatedMs)
        e.stored = true;
}

void TaskManager::coolLocked(Entry &e)
{
    static const auto kCold = std::make_shared<const std::string>();
    e.record.result = nullptr;
    e.fragment = kCold;
    e.placeholderAt = std::string::npos;
    e.cold = true;
}

bool TaskManager::loadResult(TaskRecord &r) const
{
    TaskRecord stored;
    if (m_store.load(r.id, stored)) {
        r.result = std::move(stored.result);
        return true;
    }
    // Never a made-up result: the task ends failed, saying what happened.
    Log::error("task " + Log::redact(r.id)
               + ": its result is no longer in memory and the store cannot give it back");
    r.status = TaskStatus::Failed;
    r.result = nullptr;
    r.error = {{"code", -32603},
               {"message", "The server could not read this task's result back from its database. "
                           "Ask its operator to check the server's log and data folder."}};
    return false;
}

bool TaskManager::adopt(const std::string &id)
{
    if (!m_replicaIds)
        return false;
    bool held = false;
    {
        const std::shared_lock lock(m_mutex);
        held = m_tasks.find(id) != m_tasks.end();
    }
    if (!held && !m_replicaIds->verify(id))
        return false;
    catchUp();
    if (held)
        return true;
    TaskRecord r;
    if (!m_store.load(id, r) || r.createdMs + r.ttlMs <= nowMs())
        return false;
    const std::unique_lock lock(m_mutex);
    if (m_tasks.find(id) == m_tasks.end()) {
        insertLoaded(std::move(r));
        Log::info("task " + Log::redact(id) + " taken over from the shared store");
    }
    m_queueCv.notify_all();
    return true;
}

[[gnu::hot]] void TaskManager::catchUp()
{
    if (!m_replicaIds)
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

void TaskManager::applyStored(TaskRecord stored)
{
    const std::string id = stored.id;
    int released = -1; // the attempt whose job this replica no longer follows
    {
        const std::unique_lock lock(m_mutex);
        const auto it = m_tasks.find(id);
        if (it == m_tasks.end())
            return; // not held here: taken over when a call names it
        Entry &e = *it->second;
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
        if (e.queued) {
            unqueue(e);
            m_queue.erase(std::remove(m_queue.begin(), m_queue.end(), id), m_queue.end());
        }
        e.running = false;
        e.nearEnd = false;
        e.iteration = 0;
        held = std::move(stored);
        e.cold = false; // the stored state includes the result
        e.stored = isTerminal(held.status);
        if (held.status == TaskStatus::Working) {
            // Answered elsewhere: the backend follows the new attempt's job, whoever submits it.
            enqueue(it->second);
        } else {
            if (isTerminal(held.status))
                e.stop = true; // a local solver run stops between iterations
            render(e);
        }
        Log::info("task " + Log::redact(id) + " is " + statusName(held.status)
                  + " (changed by another replica)");
    }
    if (released >= 0 && m_backend)
        m_backend->released(id, released);
    notify(id);
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
