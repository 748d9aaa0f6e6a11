#include "app/monitor/pollscheduler.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <algorithm>
#include <limits>

namespace Eddy::Monitor {

namespace {

// Rounded towards minus infinity, also for a negative a (clocks before the epoch in tests).
qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

} // namespace

PollScheduler::PollScheduler() : PollScheduler(Config()) {}

PollScheduler::PollScheduler(Config config, Clock clock, Random random)
    : m_config(config), m_clock(std::move(clock)), m_random(std::move(random))
{
    if (!m_clock)
        m_clock = [] { return QDateTime::currentMSecsSinceEpoch(); };
    if (!m_random)
        m_random = [] { return QRandomGenerator::global()->generateDouble(); };
    m_phase = std::clamp(m_random(), 0.0, 1.0);
}

qint64 PollScheduler::clampedInterval(std::optional<qint64> pollIntervalMs) const
{
    const qint64 asked = pollIntervalMs && *pollIntervalMs > 0 ? *pollIntervalMs : m_config.defaultIntervalMs;
    return std::clamp(asked, m_config.minIntervalMs, m_config.maxIntervalMs);
}

qint64 PollScheduler::slotsPerInterval(qint64 intervalMs) const
{
    qint64 k = std::max(1, m_config.phasesPerInterval);
    if (m_config.maxSlotMs > 0)
        k = std::max(k, (intervalMs + m_config.maxSlotMs - 1) / m_config.maxSlotMs);
    if (m_config.batchWindowMs > 1)
        k = std::min(k, std::max<qint64>(1, intervalMs / m_config.batchWindowMs));
    return k;
}

qint64 PollScheduler::slotAtOrAfter(qint64 intervalMs, qint64 ms) const
{
    if (intervalMs <= 1)
        return ms;
    return latticeAtOrAfter(intervalMs, slotsPerInterval(intervalMs), ms);
}

qint64 PollScheduler::tickAtOrAfter(qint64 tickMs, qint64 ms) const
{
    if (tickMs <= 1)
        return ms;
    return latticeAtOrAfter(tickMs, 1, ms);
}

qint64 PollScheduler::latticeAtOrAfter(qint64 intervalMs, qint64 k, qint64 ms) const
{
    // Slot n is at offset + floor(n * I / K): the lattice repeats every I exactly, also when I is
    // not a multiple of K (slot widths then differ by 1 ms). Worked on the rest within one period
    // so that n * I cannot overflow on an epoch clock.
    const qint64 offset = qint64(m_phase * double(intervalMs / k));
    const qint64 period = floorDiv(ms - offset, intervalMs);
    const qint64 rest = ms - offset - period * intervalMs; // [0, I)
    // The first slot of the period with floor(n * I / K) >= rest; n = K is the next period's first.
    const qint64 n = (rest * k + intervalMs - 1) / intervalMs;
    return offset + period * intervalMs + n * intervalMs / k;
}

qint64 PollScheduler::nextSlot(const Entry &e, qint64 ms) const
{
    return e.ticks >= 0 ? tickAtOrAfter(m_ticks[size_t(e.ticks)].tickMs, ms)
                        : slotAtOrAfter(e.interval, ms);
}

bool PollScheduler::hasRoom(const Entry &e, const ServerState &s) const
{
    if (e.ticks < 0)
        return s.requests() < m_config.maxInFlightPerServer;
    // One more id in the request being filled, or the first of a new request.
    const int per = std::max(1, m_ticks[size_t(e.ticks)].perRequest);
    return s.inFlight + (s.batched + per) / per <= m_config.maxInFlightPerServer;
}

void PollScheduler::enqueue(qint64 taskId, Entry &e)
{
    if (e.spare.empty()) {
        m_queue.insert({e.dueAt, taskId});
        return;
    }
    e.spare.value() = {e.dueAt, taskId};
    m_queue.insert(std::move(e.spare)); // leaves e.spare empty
}

void PollScheduler::dequeue(qint64 taskId, Entry &e)
{
    Queue::node_type node = m_queue.extract({e.dueAt, taskId});
    if (!node.empty())
        e.spare = std::move(node);
}

void PollScheduler::setDue(qint64 taskId, Entry &e, qint64 dueAt)
{
    if (!e.inFlight)
        dequeue(taskId, e);
    e.dueAt = dueAt;
    if (!e.inFlight)
        enqueue(taskId, e);
}

PollScheduler::ServerState &PollScheduler::settle(qint64 taskId, Entry &e)
{
    ServerState &s = m_servers[e.serverId];
    if (e.inFlight) {
        e.inFlight = false;
        --(e.ticks >= 0 ? s.batched : s.inFlight);
    } else {
        dequeue(taskId, e); // not in flight: its queued entry gets replaced
    }
    return s;
}

void PollScheduler::add(qint64 taskId,
                        qint64 serverId,
                        std::optional<qint64> pollIntervalMs,
                        std::optional<qint64> dueAtMs,
                        const std::optional<Ticks> &ticks)
{
    if (contains(taskId))
        remove(taskId);
    Entry e;
    e.serverId = serverId;
    e.interval = clampedInterval(pollIntervalMs);
    if (ticks) {
        e.ticks = ticksIndex(*ticks);
        const Ticks &t = m_ticks[size_t(e.ticks)];
        e.interval = pollIntervalMs ? std::clamp(e.interval, t.tickMs, t.maxIntervalMs) : t.tickMs;
    }
    // A new task is polled at once; a given first poll (spread start, restored schedule) joins
    // its lattice.
    e.dueAt = dueAtMs ? nextSlot(e, *dueAtMs) : m_clock();
    Entry &added = m_tasks.emplace(taskId, std::move(e)).first->second;
    enqueue(taskId, added);
}

int PollScheduler::ticksIndex(const Ticks &ticks)
{
    Ticks t = ticks;
    t.tickMs = clampedInterval(t.tickMs);
    t.maxIntervalMs = std::max(t.tickMs, clampedInterval(t.maxIntervalMs));
    t.backoff = std::max(1.0, t.backoff);
    t.perRequest = std::max(1, t.perRequest);
    const int index = int(std::find(m_ticks.begin(), m_ticks.end(), t) - m_ticks.begin());
    if (index == int(m_ticks.size()))
        m_ticks.push_back(t);
    return index;
}

void PollScheduler::setTicks(qint64 taskId, const Ticks &ticks)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end() || it->second.ticks < 0)
        return;
    Entry &e = it->second;
    const int index = ticksIndex(ticks);
    if (index == e.ticks)
        return;
    e.ticks = index;
    e.interval = m_ticks[size_t(index)].tickMs;
    if (e.inFlight)
        return; // its answer puts it on the new ticks (completed())
    const qint64 now = m_clock();
    const qint64 earliest = e.sentDueAt >= 0 ? e.sentDueAt + e.interval : now;
    setDue(taskId, e, nextSlot(e, std::max(earliest, now)));
}

void PollScheduler::remove(qint64 taskId)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return;
    if (it->second.inFlight) {
        ServerState &s = m_servers[it->second.serverId];
        --(it->second.ticks >= 0 ? s.batched : s.inFlight);
    } else {
        m_queue.erase({it->second.dueAt, taskId});
    }
    m_tasks.erase(it);
}

QList<qint64> PollScheduler::takeDue(int maxCount)
{
    QList<qint64> out;
    const qint64 now = m_clock();
    for (auto it = m_queue.begin(); it != m_queue.end() && it->first <= now;) {
        if (maxCount >= 0 && out.size() >= maxCount)
            break;
        const qint64 taskId = it->second;
        Entry &e = m_tasks[taskId];
        ServerState &s = m_servers[e.serverId];
        if (s.backoffUntil > now || !hasRoom(e, s)) {
            ++it;
            continue;
        }
        e.spare = m_queue.extract(it++); // reused when the answer puts the task back in the queue
        e.inFlight = true;
        e.sentDueAt = e.dueAt;
        if (e.ticks >= 0) {
            ++s.batched;
            s.perRequest = std::max(1, m_ticks[size_t(e.ticks)].perRequest);
        } else {
            ++s.inFlight;
        }
        out.append(taskId);
    }
    return out;
}

void PollScheduler::completed(qint64 taskId, std::optional<qint64> pollIntervalMs)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return;
    Entry &e = it->second;
    ServerState &s = settle(taskId, e);
    s.failures = 0;
    s.backoffUntil = 0;
    if (pollIntervalMs) {
        e.interval = clampedInterval(pollIntervalMs);
        if (e.ticks >= 0)
            e.interval = std::clamp(e.interval,
                                    m_ticks[size_t(e.ticks)].tickMs,
                                    m_ticks[size_t(e.ticks)].maxIntervalMs);
    }
    const qint64 now = m_clock();
    if (e.sentDueAt < 0) // an answer nobody asked for (never polled yet): start the cadence now
        e.sentDueAt = now;
    // From when the last poll was due, so neither a late send nor a slow answer stretches the
    // server's cadence; an answer slower than the interval restarts it now (no burst to catch up).
    // A poll on a slot lands on the same slot one interval later (the lattice repeats every I);
    // one that was off the lattice waits for the next slot, once.
    e.dueAt = nextSlot(e, std::max(e.sentDueAt + e.interval, now));
    enqueue(taskId, e);
}

void PollScheduler::failed(qint64 taskId, qint64 retryAfterMs)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return;
    Entry &e = it->second;
    ServerState &s = settle(taskId, e);
    const qint64 now = m_clock();
    // One outage raises the backoff once: the polls that were in flight when a server went away
    // all fail together, and counting each of them would put 14 tasks at the 60 s cap after one
    // restart. A failure counts only when it comes from a poll sent after the last backoff ended.
    if (now >= s.backoffUntil)
        ++s.failures;
    const int shift = std::min(s.failures - 1, 20);
    qint64 delay = std::min(m_config.backoffMaxMs, m_config.backoffBaseMs << shift);
    if (retryAfterMs > delay)
        delay = retryAfterMs;
    s.backoffUntil = std::max(s.backoffUntil, now + delay);
    e.dueAt = std::max(s.backoffUntil, now + e.interval);
    if (e.ticks >= 0) // back on the shared ticks, so the batch stays one request
        e.dueAt = nextSlot(e, e.dueAt);
    enqueue(taskId, e);
}

void PollScheduler::restartServer(qint64 serverId)
{
    ServerState &s = m_servers[serverId];
    s.failures = 0;
    s.backoffUntil = 0;
    const qint64 now = m_clock();
    for (auto &[taskId, e] : m_tasks) {
        if (e.serverId != serverId)
            continue;
        if (e.inFlight && e.ticks < 0) {
            e.inFlight = false;
            --s.inFlight;
            e.dueAt = now;
            enqueue(taskId, e);
        } else if (!e.inFlight) {
            setDue(taskId, e, std::min(e.dueAt, e.ticks >= 0 ? nextSlot(e, now) : now));
        }
    }
}

void PollScheduler::pollSoon(qint64 taskId)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end() || it->second.inFlight)
        return;
    Entry &e = it->second;
    if (e.ticks >= 0) {
        // The backoff starts afresh; the next tick the base interval allows.
        e.interval = m_ticks[size_t(e.ticks)].tickMs;
        const qint64 earliest = e.sentDueAt >= 0 ? e.sentDueAt + e.interval : m_clock();
        const qint64 due = nextSlot(e, std::max(earliest, m_clock()));
        if (due < e.dueAt)
            setDue(taskId, e, due);
        return;
    }
    // Off the lattice: news should arrive as soon as the server's interval allows.
    const qint64 earliest = e.sentDueAt >= 0 ? e.sentDueAt + e.interval : m_clock();
    const qint64 due = std::max(earliest, m_clock());
    if (due < e.dueAt)
        setDue(taskId, e, due);
}

qint64 PollScheduler::backOff(qint64 taskId, bool unchanged)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return 0;
    Entry &e = it->second;
    if (e.ticks < 0)
        return e.interval;
    const Ticks &t = m_ticks[size_t(e.ticks)];
    if (!unchanged)
        e.interval = t.tickMs;
    else
        e.interval = std::min<qint64>(t.maxIntervalMs,
                                      qint64(double(std::max(e.interval, t.tickMs)) * t.backoff));
    return e.interval;
}

std::optional<qint64> PollScheduler::intervalMs(qint64 taskId) const
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return std::nullopt;
    return it->second.interval;
}
std::optional<qint64> PollScheduler::nextDueAtMs() const
{
    if (m_queue.empty())
        return std::nullopt;
    // A backing-off or saturated server's tasks wait; report the earliest moment any could go.
    qint64 best = std::numeric_limits<qint64>::max();
    int scanned = 0;
    for (const auto &[due, taskId] : m_queue) {
        const Entry &e = m_tasks.at(taskId);
        const auto s = m_servers.find(e.serverId);
        qint64 t = due;
        if (s != m_servers.end()) {
            if (!hasRoom(e, s->second)) {
                // Frees up when an answer arrives; the caller re-arms then.
                if (++scanned > 64)
                    break;
                continue;
            }
            t = std::max(t, s->second.backoffUntil);
        }
        best = std::min(best, t);
        if (t == due)
            break; // sorted by due: nothing later can be sooner
        if (++scanned > 64)
            break;
    }
    if (best == std::numeric_limits<qint64>::max())
        return std::nullopt;
    return best;
}

std::optional<qint64> PollScheduler::dueAtMs(qint64 taskId) const
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end() || it->second.inFlight)
        return std::nullopt;
    return it->second.dueAt;
}

int PollScheduler::inFlight(qint64 serverId) const
{
    const auto it = m_servers.find(serverId);
    return it == m_servers.end() ? 0 : it->second.requests();
}

qint64 PollScheduler::backoffUntil(qint64 serverId) const
{
    const auto it = m_servers.find(serverId);
    return it == m_servers.end() ? 0 : it->second.backoffUntil;
}

int PollScheduler::failureCount(qint64 serverId) const
{
    const auto it = m_servers.find(serverId);
    return it == m_servers.end() ? 0 : it->second.failures;
}

} // namespace Eddy::Monitor
