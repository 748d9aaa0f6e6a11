#pragma once

// Replicas behind a proxy (--replica-key-file; docs/server-replicas.md): every replica opens the
// same store and case folder, so a task another replica created is loaded here the first time a
// call names it (adopt, adoptByKey). The id's MAC is checked first: a forged or altered id is
// refused without a store read and without any Slurm call.
//
// The shared store is the source of truth for a task's state; each replica's memory is a cache
// of it plus the live progress line. Every write expects the row's change number it last saw
// (TaskStore::save), so no replica overwrites another's answer, cancel or outcome, and before
// each call that names a task a replica takes in what the others stored (catchUp).
//
// ReplicaSync is that taking-in: it reads the shared store and puts what it finds into the held
// tasks. It does nothing without replica ids, except applyStored (a lost write's newer row).

#include "server/taskrecord.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace Eddy::Server {

class HeldTasks;
class ReplicaIds;
class TaskStore;

class ReplicaSync final
{
public:
    // A held task took a state another replica stored; `released` is the attempt whose job
    // this replica no longer follows (-1: none). Called with no lock held.
    using Changed = std::function<void(const std::string &id, int released)>;

    ReplicaSync(HeldTasks &held, TaskStore &store, Changed changed);
    ReplicaSync(const ReplicaSync &) = delete;
    ReplicaSync &operator=(const ReplicaSync &) = delete;

    void setIds(const ReplicaIds *ids) { m_ids = ids; } // before the server starts
    const ReplicaIds *ids() const { return m_ids; }     // null without replicas

    // While the stored tasks are loaded at start (under the held tasks' lock): a stored change
    // number already taken in.
    void saw(std::int64_t seq);
    // True when the task is (now) held here; never touches the store for an id whose MAC fails.
    // Catches up first.
    bool adopt(const std::string &id);
    // Takes every change another replica stored (an answer, a cancel, an outcome) into the held
    // tasks. One SQLite pragma when nothing changed.
    void catchUp();
    // Loads the live task with this idempotency key from the shared store, unless one is held.
    void adoptByKey(const std::string &tokenHash, const std::string &key);
    // Replaces a held task's state with a newer stored one; no lock held.
    void applyStored(TaskRecord stored);

private:
    HeldTasks &m_held;
    TaskStore &m_store;
    const Changed m_changed;
    const ReplicaIds *m_ids = nullptr;
    std::mutex m_catchUpMutex;  // one catch-up at a time, held until its changes are applied
    std::int64_t m_seenSeq = 0; // the highest store change number taken in
};

} // namespace Eddy::Server
