#pragma once

// Owns every task: the in-memory state cache (read under a shared lock by tasks/get), the
// queue, the solver worker pool, cooperative cancellation, checkpoints, TTL purge, and the
// fan-out of changes to SSE channels. Thread-safe; HTTP threads call in, workers call back.

#include "server/serveroptions.h"
#include "server/taskfanout.h"
#include "server/taskrecord.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <bit>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
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
    // intervals ask for (live tasks only; pollstats.cpp).
    struct Demand
    {
        std::int64_t tasks = 0, working = 0, queued = 0, inputRequired = 0;
        std::int64_t completed = 0, failed = 0, cancelled = 0;
        std::int64_t resultsInMemory = 0; // finished tasks whose result is held, not cold
        double pollsPerSecond = 0;
    };
    Demand demand() const;

    // Open SSE streams: changes of their tasks, and a listen stream's catch-up.
    TaskFanout &fanout() { return m_fanout; }

    static std::int64_t nowMs();

    // For a Backend that runs cases elsewhere (server/backend.h); unused by --backend local.
    void setBackend(Backend *backend) { m_backend = backend; } // before start()

    // Replicas sharing a store and a key (server/sharedtasks.cpp, docs/server-replicas.md): new ids carry
    // a MAC, and a task another replica created is loaded from the shared store on first touch.
    void setReplicaIds(const ReplicaIds *ids) { m_replicaIds = ids; } // before start()
    // True when the task is (now) held here; never touches the store for an id whose MAC fails.
    // Catches up first (below).
    bool adopt(const std::string &id);
    // Replicas: takes every change another replica stored (an answer, a cancel, an outcome) into
    // the held tasks, so the next answer from here shows it. One SQLite pragma when nothing
    // changed; does nothing without replicas. Called before each call that names a task.
    void catchUp();
    bool nextQueued(std::string &id); // blocks; false once shutting down
    // Marks a queued working task as running and copies it; false when gone or not working.
    bool claim(const std::string &id, TaskRecord &out);
    // A new statusMessage for a working task; false when the task is gone or not working.
    bool report(const std::string &id, const std::string &message);
    // What a backend saw of attempt (the number of mesh repairs the job ran with); ignored when
    // the task has moved on to another attempt meanwhile (answered on another replica).
    void askAboutMesh(const std::string &id,
                      int attempt,
                      const Solver::MeshQuality &quality,
                      bool retry);
    // run_openfoam_case's mesh question from a backend's job: the elicitation request
    // (FoamTool::meshQuestion) and checkMesh's findings in one line (taskmanagerfoam.cpp).
    void askAboutFoamMesh(const std::string &id,
                          int attempt,
                          nlohmann::json question,
                          const std::string &summary);
    // A CallToolResult with isError true ends a 2025-11-25 task failed (taskmanagerfoam.cpp).
    void finish(const std::string &id,
                int attempt,
                TaskStatus status,
                nlohmann::json result,
                nlohmann::json error,
                const std::string &message);

private:
    struct Entry
    {
        TaskRecord record;
        // Rendered 2026 DetailedTask, replaced (never changed) on every change: never null.
        std::shared_ptr<const std::string> fragment = std::make_shared<const std::string>();
        int pollIntervalMs = 0;
        bool queued = false;
        std::uint64_t ticket = 0;   // queue order; its rank among queued tickets is the position
        std::size_t placeholderAt = std::string::npos; // where the position goes in fragment
        bool running = false;
        bool nearEnd = false;       // the solver is close to its tolerance or iteration limit
        std::atomic<bool> stop{false};
        std::int64_t lastNotifyMs = 0;
        int iteration = 0;
        // A finished task's record as held is its stored row (set once it is written or read).
        bool stored = false;
        // resultsInMemoryMs after it ended, a stored finished task's result and rendering leave
        // memory (coolLocked); a read then takes them from the store (sharedtasks.cpp).
        bool cold = false;
    };
    using EntryPtr = std::shared_ptr<Entry>;
    // Finds a std::string key by std::string_view, so that a lookup allocates nothing.
    // Deliberately not noexcept: libstdc++ then keeps each node's hash in the node, so a
    // lookup compares stored hashes along its bucket instead of rehashing the neighbours'
    // ids (which a poll every few milliseconds finds cold in cache).
    // Ids are minted at random (32 hex digits; a replica's have ".tag" after them): three of
    // their words, multiplied, spread them over the buckets as well as hashing every byte does,
    // at a fraction of the work. A client's key only picks the bucket its own lookup scans; it
    // cannot place entries. Shorter keys hash every byte.
    struct IdHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const
        {
            if (s.size() < 16)
                return std::hash<std::string_view>{}(s);
            std::uint64_t a = 0, b = 0, c = 0;
            std::memcpy(&a, s.data(), 8);
            std::memcpy(&b, s.data() + 8, 8);
            std::memcpy(&c, s.data() + s.size() - 8, 8);
            const std::uint64_t h
                = (a ^ std::rotl(b, 21) ^ std::rotl(c, 42) ^ s.size()) * 0x9e3779b97f4a7c15ULL;
            return std::size_t(h ^ (h >> 32));
        }
    };

    // Both under the lock; lookupVisible's pointer is valid while it is held.
    const EntryPtr *lookupVisible(std::string_view id, const std::string &tokenHash) const;
    EntryPtr findVisible(const std::string &id, const std::string &tokenHash) const; // locked
    // The held task `id` (taken under a shared lock), or nullptr when this server has none.
    EntryPtr held(const std::string &id) const;
    bool isExpired(const Entry &e, std::int64_t now) const;
    void render(Entry &e);                 // under unique lock
    void enqueue(const EntryPtr &e);       // under unique lock
    void unqueue(Entry &e);                // under unique lock; the caller edits m_queue
    std::size_t queuePosition(const Entry &e) const;             // under any lock
    void appendFragment(const Entry &e, std::string &out) const; // under any lock
    // The task's record; a cold task's result is read from the store unless withResult is false.
    TaskRecord recordOf(const Entry &e, bool withResult = true) const; // under any lock
    // Cold tasks (sharedtasks.cpp): drops a stored finished task's result and rendering; puts
    // the stored result into r (when it cannot be read, r ends failed with an error that says
    // so; false).
    void coolLocked(Entry &e);                  // under unique lock
    bool loadResult(TaskRecord &r) const;       // under any lock
    void markStored(Entry &e, const TaskRecord &written); // under unique lock
    void bitAdd(std::uint64_t ticket, int delta);
    void eraseLocked(const std::string &id);
    // Stores the task's state. False when another replica changed the stored row since this
    // one read it: nothing was written and the stored state replaced the held one.
    bool persist(const std::string &id);
    // update() and cancel() on the held state, without storing; see the .cpp.
    bool applyAnswer(const std::string &id,
                     const std::string &tokenHash,
                     const nlohmann::json &inputResponses,
                     bool &changed);
    // Ends a task that was asked about its mesh with a tool error saying why; under unique lock.
    void endAtMeshCheck(Entry &e, const std::string &why);
    CancelOutcome
    cancelHeld(const std::string &id, const std::string &tokenHash, Snapshot &after, int &attempt);
    void notify(const std::string &id);
    bool renderForFanout(const std::string &id, std::string &fragment, std::string &owner) const;
    void workerLoop();
    void janitorLoop();
    void runCase(const std::string &id);
    // run_openfoam_case's work for a claimed task (taskmanagerfoam.cpp).
    void runFoamCase(const EntryPtr &e, const nlohmann::json &arguments);
    // 2025-11-25: a tool error (result.isError) makes a finished task failed, with the text as
    // its error; status and error are changed only then.
    void legacyToolError(const EntryPtr &e,
                         const nlohmann::json &result,
                         TaskStatus &status,
                         nlohmann::json &error) const;
    // The task's OpenFOAM case folder: <data dir>/openfoam/<case key>, absolute.
    std::string foamCaseDir(const std::string &id) const;
    // Removes a forgotten task's case folder (never anything under --openfoam-cases).
    void removeFoamCaseDir(const std::string &id) const;
    // Removes case folders under <data dir>/openfoam/ that no held task owns and that were last
    // changed before this server started (a newer one may be a task another replica just made).
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
    // Under unique lock: whether a report for attempt (-1: any) still applies to the task, not
    // answered meanwhile and not ended; its solver has stopped either way (running = false).
    bool attemptStands(Entry &e, int attempt);
    void finish(const EntryPtr &e,
                TaskStatus status,
                nlohmann::json result,
                nlohmann::json error,
                const std::string &message,
                int attempt = -1);
    // Loads the live task with this idempotency key from the shared store (sharedtasks.cpp).
    void adoptByKey(const std::string &tokenHash, const std::string &key);
    void insertLoaded(TaskRecord record); // under unique lock; as start() does
    // Replaces a held task's state with a newer stored one (sharedtasks.cpp); no lock held.
    void applyStored(TaskRecord stored);

    TaskStore &m_store;
    const ServerOptions m_options;
    Backend *m_backend = nullptr;
    const ReplicaIds *m_replicaIds = nullptr;

    mutable std::shared_mutex m_mutex; // guards everything below up to m_queueCv
    std::unordered_map<std::string, EntryPtr, IdHash, std::equal_to<>> m_tasks;
    std::map<std::string, std::string> m_idempotency; // tokenHash + '\n' + key -> task id
    std::deque<std::string> m_queue;
    // Fenwick tree over queue tickets: "queued, position N" in O(log n) at read time, so a
    // queue change never re-renders every waiting task.
    std::vector<int> m_ticketTree;
    std::uint64_t m_nextTicket = 0;
    std::condition_variable_any m_queueCv;

    std::mutex m_persistMutex; // orders snapshot-then-write so the newest state wins

    std::mutex m_catchUpMutex;  // one catch-up at a time, held until its changes are applied
    std::int64_t m_seenSeq = 0; // the highest store change number taken in

    TaskFanout m_fanout;

    std::atomic<bool> m_stopping{false};
    std::int64_t m_startedMs = 0; // when start() began loading the store
    std::vector<std::thread> m_workers;
    std::thread m_janitor;
    std::mutex m_janitorMutex;
    std::condition_variable m_janitorCv;
};

} // namespace Eddy::Server
