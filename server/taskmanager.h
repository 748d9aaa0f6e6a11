#pragma once

// Owns every task: what each call and each solver run does to it, under the held tasks' lock
// (HeldTasks: the in-memory state cache read under a shared lock by tasks/get, the queue), the
// solver worker pool, cooperative cancellation, checkpoints, TTL purge, the door a Backend uses,
// and the fan-out of changes to SSE channels. Thread-safe; HTTP threads call in, workers call
// back. Its collaborators: ReplicaSync (other replicas' changes), FoamCases (OpenFOAM case
// folders and runs), MeshAnswers (the mesh question and its answers).

#include "server/foamcases.h"
#include "server/heldtasks.h"
#include "server/meshanswers.h"
#include "server/replicasync.h"
#include "server/serveroptions.h"
#include "server/taskfanout.h"
#include "server/taskrecord.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace Eddy::Solver {
struct MeshQuality;
}

namespace Eddy::Server {

class Backend;
class ReplicaIds;
class SseChannel;
class TaskStore;

class TaskManager final
{
public:
    TaskManager(TaskStore &store, const ServerOptions &options);
    ~TaskManager();
    TaskManager(const TaskManager &) = delete;
    TaskManager &operator=(const TaskManager &) = delete;

    // Loads stored tasks (purging expired ones, queueing unfinished ones) and starts threads.
    bool start(std::string &error);
    // Stops the workers; running cases save a checkpoint and stay "working" for the next start.
    void shutdown();

    struct Snapshot
    {
        TaskRecord record;
        int pollIntervalMs = 0;
        int iteration = 0;   // the solver's last reported iteration (in memory only)
        bool queued = false; // waiting for a solver thread
    };

    // Creates the task durably, or returns the live task created earlier with the same
    // idempotency key by the same token (existing = true).
    bool create(const nlohmann::json &arguments, const std::string &tokenHash, bool legacy,
                std::int64_t ttlMs, Snapshot &out, bool &existing, std::string &error);

    // Hot path of tasks/get: the DetailedTask fields as JSON without the outer braces.
    // Appends the task's rendered DetailedTask members to out; false (out unchanged) when the
    // token sees no such task. Looks the id up without copying it: tasks/get's hot path.
    bool appendDetail(std::string_view id, const std::string &tokenHash, std::string &out) const;
    // As appendDetail, but where the stored rendering is the answer as it is (the task is not
    // queued) it is handed out in shared instead of copied (out unchanged): it is replaced,
    // never changed, when the task changes, so it may be sent after the lock is released.
    bool shareDetail(std::string_view id,
                     const std::string &tokenHash,
                     std::string &out,
                     std::shared_ptr<const std::string> &shared) const;
    bool snapshot(const std::string &id, const std::string &tokenHash, Snapshot &out) const;
    // Whether the token sees task `id` (nothing is copied or read from the store).
    bool visible(std::string_view id, const std::string &tokenHash) const;
    // Applies inputResponses; unknown or already-answered keys are ignored. False: no such task.
    bool update(const std::string &id, const std::string &tokenHash,
                const nlohmann::json &inputResponses);
    enum class CancelOutcome { Unknown, Cancelled, AlreadyTerminal };
    CancelOutcome cancel(const std::string &id, const std::string &tokenHash, Snapshot &after);
    // Tasks the token may see, oldest first.
    std::vector<Snapshot> list(const std::string &tokenHash, bool legacyOnly) const;
    // Counts of every unexpired task by state, and the polls per second their advertised
    // intervals ask for (--stats-file, server/pollstats.h).
    using Demand = HeldTasks::Demand;
    Demand demand() const { return m_held.demand(); }

    // Open SSE streams: changes of their tasks, and a listen stream's catch-up.
    TaskFanout &fanout() { return m_fanout; }

    static std::int64_t nowMs() { return HeldTasks::nowMs(); }

    // For a Backend that runs cases elsewhere (server/backend.h); unused by --backend local.
    void setBackend(Backend *backend) { m_backend = backend; } // before start()

    // Replicas sharing a store and a key (server/replicasync.h, docs/server-replicas.md): new ids
    // carry a MAC, and a task another replica created is loaded from the shared store on first
    // touch.
    void setReplicaIds(const ReplicaIds *ids) { m_replicas.setIds(ids); } // before start()
    // True when the task is (now) held here; never touches the store for an id whose MAC fails.
    // Catches up first (below).
    bool adopt(const std::string &id) { return m_replicas.adopt(id); }
    // Replicas: takes every change another replica stored (an answer, a cancel, an outcome) into
    // the held tasks, so the next answer from here shows it. One SQLite pragma when nothing
    // changed; does nothing without replicas. Called before each call that names a task.
    void catchUp() { m_replicas.catchUp(); }
    // Blocks; false once shutting down.
    bool nextQueued(std::string &id) { return m_held.next(id, m_stopping); }
    // Marks a queued working task as running and copies it; false when gone or not working.
    bool claim(const std::string &id, TaskRecord &out) { return m_held.claim(id, out); }
    // A new statusMessage for a working task; false when the task is gone or not working.
    bool report(const std::string &id, const std::string &message);
    // What a backend saw of attempt (the number of mesh repairs the job ran with); ignored when
    // the task has moved on to another attempt meanwhile (answered on another replica).
    void askAboutMesh(const std::string &id,
                      int attempt,
                      const Solver::MeshQuality &quality,
                      bool retry);
    // run_openfoam_case's mesh question from a backend's job: the elicitation request
    // (FoamTool::meshQuestion) and checkMesh's findings in one line.
    void askAboutFoamMesh(const std::string &id,
                          int attempt,
                          nlohmann::json question,
                          const std::string &summary);
    // A CallToolResult with isError true ends a 2025-11-25 task failed.
    void finish(const std::string &id,
                int attempt,
                TaskStatus status,
                nlohmann::json result,
                nlohmann::json error,
                const std::string &message);

private:
    using Entry = HeldTasks::Entry;
    using EntryPtr = HeldTasks::EntryPtr;

    // Stores the task's state. False when another replica changed the stored row since this
    // one read it: nothing was written and the stored state replaced the held one.
    bool persist(const std::string &id);
    // update() and cancel() on the held state, without storing; see the .cpp.
    bool applyAnswer(const std::string &id,
                     const std::string &tokenHash,
                     const nlohmann::json &inputResponses,
                     bool &changed);
    CancelOutcome
    cancelHeld(const std::string &id, const std::string &tokenHash, Snapshot &after, int &attempt);
    void notify(const std::string &id);
    bool renderForFanout(const std::string &id, std::string &fragment, std::string &owner) const;
    void workerLoop();
    void janitorLoop();
    void runCase(const std::string &id);
    // run_openfoam_case's work for a claimed task (FoamCases::run), and what its outcome does.
    void runFoamCase(const EntryPtr &e, const nlohmann::json &arguments);
    // 2025-11-25: a tool error (result.isError) makes a finished task failed, with the text as
    // its error; status and error are changed only then.
    void legacyToolError(const EntryPtr &e,
                         const nlohmann::json &result,
                         TaskStatus &status,
                         nlohmann::json &error) const;
    // Removes OpenFOAM case folders no held task owns (FoamCases::removeStale).
    void removeStaleFoamCaseDirs() const;
    // A statusMessage from a running case: listeners hear of it at most once per poll interval.
    // False when the task has ended meanwhile (cancelled).
    bool progress(const EntryPtr &e, const std::string &message, int iteration = 0,
                  bool nearEnd = false);
    // attempt -1: whatever attempt the task is at (the local solver).
    void askAboutMesh(const EntryPtr &e,
                      const Solver::MeshQuality &quality,
                      bool retry,
                      int attempt = -1);
    // Puts the task in input_required with question under a fresh mesh_repair_N key.
    void ask(const EntryPtr &e,
             nlohmann::json question,
             const std::string &message,
             const std::string &finding,
             int attempt);
    void finish(const EntryPtr &e,
                TaskStatus status,
                nlohmann::json result,
                nlohmann::json error,
                const std::string &message,
                int attempt = -1);

    TaskStore &m_store;
    const ServerOptions m_options;
    Backend *m_backend = nullptr;

    HeldTasks m_held; // its mutex guards every task's state
    ReplicaSync m_replicas;
    FoamCases m_foamCases;
    MeshAnswers m_answers;

    std::mutex m_persistMutex; // orders snapshot-then-write so the newest state wins

    TaskFanout m_fanout;

    std::atomic<bool> m_stopping{false};
    std::int64_t m_startedMs = 0; // when start() began loading the store
    std::vector<std::thread> m_workers;
    std::thread m_janitor;
    std::mutex m_janitorMutex;
    std::condition_variable m_janitorCv;
};

} // namespace Eddy::Server
