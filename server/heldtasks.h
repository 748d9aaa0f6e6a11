#pragma once

// The tasks a server holds in memory: each task's entry by id, the idempotency slots, the run
// queue with its positions, each entry's rendered DetailedTask, and cold results (a stored
// finished task's result leaves memory and is read back from the store). One shared mutex
// guards all of it; every member function says which lock its caller holds. TaskManager owns
// one and decides what changes; ReplicaSync takes other replicas' changes into it.

#include "server/taskrecord.h"

#include <atomic>
#include <bit>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Eddy::Server {

class TaskStore;

class HeldTasks final
{
public:
    struct Entry
    {
        TaskRecord record;
        // Rendered 2026 DetailedTask, replaced (never changed) on every change: never null.
        std::shared_ptr<const std::string> fragment = std::make_shared<const std::string>();
        int pollIntervalMs = 0;
        bool queued = false;
        std::uint64_t ticket = 0; // queue order; its rank among queued tickets is the position
        std::size_t placeholderAt = std::string::npos; // where the position goes in fragment
        bool running = false;
        bool nearEnd = false; // the solver is close to its tolerance or iteration limit
        std::atomic<bool> stop{false};
        std::int64_t lastNotifyMs = 0;
        int iteration = 0;
        // A finished task's record as held is its stored row (set once it is written or read).
        bool stored = false;
        // resultsInMemoryMs after it ended, a stored finished task's result and rendering leave
        // memory (cool); a read then takes them from the store.
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

    // pollIntervalMs: --poll-interval-ms, the interval a task's rendering advertises.
    HeldTasks(TaskStore &store, int pollIntervalMs);
    HeldTasks(const HeldTasks &) = delete;
    HeldTasks &operator=(const HeldTasks &) = delete;

    static std::int64_t nowMs();
    // The key of a token's idempotency key in `idempotency`.
    static std::string slotOf(const std::string &tokenHash, const std::string &key);
    static bool isExpired(const Entry &e, std::int64_t now)
    {
        return e.record.createdMs + e.record.ttlMs <= now;
    }

    // Guards every member below and every held Entry.
    mutable std::shared_mutex mutex;
    std::unordered_map<std::string, EntryPtr, IdHash, std::equal_to<>> tasks;
    std::map<std::string, std::string> idempotency; // slotOf(tokenHash, key) -> task id
    std::deque<std::string> queue;                  // ids waiting for a solver, oldest first
    std::condition_variable_any queueCv;            // a task was queued, or shutdown began

    // Both under the lock; lookupVisible's pointer is valid while it is held.
    const EntryPtr *lookupVisible(std::string_view id, const std::string &tokenHash) const;
    EntryPtr findVisible(const std::string &id, const std::string &tokenHash) const;
    // The held task `id` (takes a shared lock), or nullptr when this server has none.
    EntryPtr held(const std::string &id) const;

    void render(Entry &e);           // under unique lock
    void enqueue(const EntryPtr &e); // under unique lock
    // Under unique lock: takes the task off the queue's positions; the caller edits `queue`.
    void unqueue(Entry &e);
    // Under unique lock: unqueue() and the task's id out of `queue` (no-op when not queued).
    void dequeue(Entry &e);
    std::size_t queuePosition(const Entry &e) const;             // under any lock
    void appendFragment(const Entry &e, std::string &out) const; // under any lock
    // The task's record; a cold task's result is read from the store unless withResult is false.
    TaskRecord recordOf(const Entry &e, bool withResult = true) const; // under any lock
    // Drops a stored finished task's result and rendering (the task is cold); under unique lock.
    void cool(Entry &e);
    // Puts the stored result into r; when it cannot be read, r ends failed with an error that
    // says so (false). Under any lock.
    bool loadResult(TaskRecord &r) const;
    // The task's written record is its final state: it may go cold. Under unique lock.
    void markStored(Entry &e, const TaskRecord &written);
    // Holds a task read from the store, queued when working; under unique lock. cold: read
    // without its result (TaskStore::loadAll), which a read then takes from the store.
    void insertLoaded(TaskRecord record, bool cold = false);
    // Forgets a task (stopping its solver); under unique lock.
    void erase(const std::string &id);
    // Takes the oldest queued task's id off the queue; blocks until there is one or stopping
    // is set (false; notify queueCv after setting it, under the lock). Takes the unique lock.
    bool next(std::string &id, const std::atomic<bool> &stopping);
    // Marks a queued working task as running and copies it; false when gone or not working.
    // Takes the unique lock.
    bool claim(const std::string &id, TaskRecord &out);
    // Counts of every unexpired task by state, and the polls per second their advertised
    // intervals ask for (live tasks only). Takes a shared lock.
    struct Demand
    {
        std::int64_t tasks = 0, working = 0, queued = 0, inputRequired = 0;
        std::int64_t completed = 0, failed = 0, cancelled = 0;
        std::int64_t resultsInMemory = 0; // finished tasks whose result is held, not cold
        double pollsPerSecond = 0;
    };
    Demand demand() const;
    // Under unique lock: whether a report for attempt (-1: any) still applies to the task, not
    // answered meanwhile and not ended; its solver has stopped either way (running = false).
    static bool attemptStands(Entry &e, int attempt);

private:
    void bitAdd(std::uint64_t ticket, int delta);

    TaskStore &m_store;
    const int m_pollIntervalMs;
    // Fenwick tree over queue tickets: "queued, position N" in O(log n) at read time, so a
    // queue change never re-renders every waiting task.
    std::vector<int> m_ticketTree;
    std::uint64_t m_nextTicket = 0;
};

} // namespace Eddy::Server
