#pragma once

#include <QList>
#include <QtGlobal>

#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace Eddy::Monitor {

// Decides when each live task is polled. Each task keeps a cadence of pollIntervalMs (clamped to
// [minIntervalMs, maxIntervalMs], never faster than the server asked) counted from when its
// previous poll was due, so late sends on a loaded machine do not stretch it. Polls go out only on
// the slots of a phase lattice per interval I: slot n at offset + floor(n * I / K), K slots per
// interval (slotsPerInterval()). The lattice repeats every I, so a task on a slot stays on it: its
// polls are exactly I apart and all tasks with the same interval share K timer expiries per
// interval (every sleep and wake-up of the process costs tens of microseconds). Only the first
// poll after add, an interval change, a backoff or a pollSoon waits up to one slot to join; the
// cadence continues from that due time, so the rate stays 1/I. The offset is drawn once per
// scheduler, so two clients polling one server do not land on the same instants; there is no
// per-poll jitter (it would move a task off its slot every poll). At most maxInFlightPerServer
// requests per server, exponential backoff per server on errors (Retry-After honoured). Pure logic
// with an injected clock and random source, so tests run it on a fake clock; lives on the engine
// thread.
//
// Tasks added with Ticks (jobs, whose status calls take many ids) are due only on the ticks of
// Ticks::tickMs: one lattice with a single slot per tick, shared by every task of that tickMs,
// so whatever of them is due goes out on the same instant and the caller asks about all of it in
// one request. Each keeps its own interval, tickMs while its answers change and growing by
// Ticks::backoff while they do not (backOff()); an interval that is not a whole number of ticks
// waits for the next tick, so it is never shorter than asked.
class PollScheduler final
{
public:
    struct Config
    {
        qint64 minIntervalMs = 250;
        qint64 maxIntervalMs = 60000;
        qint64 defaultIntervalMs = 2000; // when the server gives no pollIntervalMs
        // Slots per interval: the most wake-ups per interval that the tasks of one interval cause,
        // and the most a joining poll waits (I / phasesPerInterval).
        int phasesPerInterval = 4;
        // More slots when a slot would be wider than this (a 60 s interval gets 60), so a joining
        // poll never waits longer...
        qint64 maxSlotMs = 1000;
        // ...and fewer when one would be narrower than this (wake-ups closer together than this
        // are not worth telling apart).
        qint64 batchWindowMs = 20;
        int maxInFlightPerServer = 16;
        qint64 backoffBaseMs = 1000;
        qint64 backoffMaxMs = 60000;
    };
    // Shared ticks and backoff for tasks polled in batches (see above). perRequest of them in
    // flight count as one request against maxInFlightPerServer.
    struct Ticks
    {
        qint64 tickMs = 0;        // clamped like an interval
        double backoff = 1.0;     // factor while answers do not change (1: none)
        qint64 maxIntervalMs = 0; // the cap of the backoff (clamped; at least tickMs)
        int perRequest = 1;       // ids one request can carry
        bool operator==(const Ticks &) const = default;
    };
    using Clock = std::function<qint64()>;  // epoch ms (or any monotonic ms)
    using Random = std::function<double()>; // uniform in [0, 1); asked once, for the offset

    PollScheduler();
    explicit PollScheduler(Config config, Clock clock = {}, Random random = {});

    const Config &config() const { return m_config; }
    qint64 now() const { return m_clock(); }

    // Tracks a task; its first poll is due at dueAtMs on its lattice's next slot (default: now,
    // off the lattice: a new task is polled at once). With ticks, its lattice is the ticks';
    // pollIntervalMs is then its interval so far (e.g. backed off before a restart).
    void add(qint64 taskId,
             qint64 serverId,
             std::optional<qint64> pollIntervalMs,
             std::optional<qint64> dueAtMs = std::nullopt,
             const std::optional<Ticks> &ticks = std::nullopt);
    void remove(qint64 taskId);
    bool contains(qint64 taskId) const { return m_tasks.count(taskId) != 0; }
    int size() const { return int(m_tasks.size()); }

    // Tasks due now whose server has room and is not backing off; each becomes in flight.
    QList<qint64> takeDue(int maxCount = -1);
    // The poll answered: the next one is due pollInterval after this one was due (not sent), on
    // the next slot of its lattice from then, never in the past.
    void completed(qint64 taskId, std::optional<qint64> pollIntervalMs);
    // The poll failed transiently: the server backs off (retryAfterMs wins when larger).
    void failed(qint64 taskId, qint64 retryAfterMs = -1);
    // A push or an answer suggests news: poll as soon as the server's interval allows (off the
    // lattice; the poll after it goes back on). A task on ticks starts its backoff afresh and
    // is polled on the next tick its interval allows.
    void pollSoon(qint64 taskId);
    // A task on ticks was answered: the answer changed nothing (its interval grows by the
    // backoff, up to the cap) or something (back to tickMs). Returns the interval to pass to
    // completed(); for a task without ticks, its interval unchanged.
    qint64 backOff(qint64 taskId, bool unchanged);
    // The server's address or token changed (Engine::relinkServer): its backoff is forgotten
    // and each of its tasks is due now (a task on ticks: on its next tick). A task without ticks
    // in flight is so no more (its answer from the old address is not awaited); a batch on ticks
    // in flight settles when its answer comes.
    void restartServer(qint64 serverId);
    // A task on ticks moves to other ticks (its adapter's poll settings changed): its backoff
    // starts afresh at the new tickMs, and its next poll is due on the new ticks one new tick
    // after its last (at once when that has passed). Nothing for a task without ticks.
    void setTicks(qint64 taskId, const Ticks &ticks);

    // When takeDue() may next return something (nullopt: nothing scheduled).
    std::optional<qint64> nextDueAtMs() const;
    std::optional<qint64> dueAtMs(qint64 taskId) const;
    int inFlight(qint64 serverId) const; // requests (a batch of tasks on ticks is one)
    qint64 backoffUntil(qint64 serverId) const;
    int failureCount(qint64 serverId) const;
    // The clamped interval for a server hint.
    qint64 clampedInterval(std::optional<qint64> pollIntervalMs) const;
    // K: the slots of the lattice of a (clamped) interval.
    qint64 slotsPerInterval(qint64 intervalMs) const;
    // The first slot of intervalMs's lattice at or after ms.
    qint64 slotAtOrAfter(qint64 intervalMs, qint64 ms) const;
    // The first tick of tickMs at or after ms (the lattice of tasks added with Ticks).
    qint64 tickAtOrAfter(qint64 tickMs, qint64 ms) const;
    std::optional<qint64> intervalMs(qint64 taskId) const;

private:
    using Queue = std::set<std::pair<qint64, qint64>>; // (dueAt, taskId), not in flight
    struct Entry
    {
        qint64 serverId = 0;
        qint64 dueAt = 0;
        qint64 interval = 0;
        qint64 sentDueAt = -1; // dueAt of the last poll sent
        int ticks = -1;        // index in m_ticks, or -1: on its own interval's lattice
        bool inFlight = false;
        // The task's queue node while it is out of the queue (in flight), put back on the next
        // enqueue: a poll costs the queue no allocation.
        Queue::node_type spare;
    };
    struct ServerState
    {
        int inFlight = 0; // tasks without ticks in flight: a request each
        int batched = 0;  // tasks on ticks in flight: perRequest of them a request
        int perRequest = 1;
        int failures = 0;
        qint64 backoffUntil = 0;
        int requests() const { return inFlight + (batched + perRequest - 1) / perRequest; }
    };
    void setDue(qint64 taskId, Entry &e, qint64 dueAt);
    int ticksIndex(const Ticks &ticks); // the clamped ticks' index in m_ticks (added when new)
    qint64 latticeAtOrAfter(qint64 periodMs, qint64 slots, qint64 ms) const;
    qint64 nextSlot(const Entry &e, qint64 ms) const; // its lattice's first slot at or after ms
    // Whether the server has room for one more of e's polls.
    bool hasRoom(const Entry &e, const ServerState &s) const;
    void enqueue(qint64 taskId, Entry &e); // at e.dueAt
    void dequeue(qint64 taskId, Entry &e); // keeps the node in e.spare
    // An answer or failure arrived (or came unasked): out of flight and out of the queue.
    ServerState &settle(qint64 taskId, Entry &e);

    Config m_config;
    Clock m_clock;
    Random m_random;
    double m_phase = 0; // offset of every lattice, as a fraction of its slot; drawn once
    std::unordered_map<qint64, Entry> m_tasks;
    std::unordered_map<qint64, ServerState> m_servers;
    Queue m_queue;
    std::vector<Ticks> m_ticks; // the distinct Ticks tasks were added with (a handful)
};

} // namespace Eddy::Monitor
