#pragma once

#include <QList>
#include <QtGlobal>

#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

namespace Eddy::Monitor {

// Decides when each live task is polled. Each task keeps a cadence of pollIntervalMs (clamped to
// [minIntervalMs, maxIntervalMs], jittered +0..jitter, never faster than the server asked) counted
// from when its previous poll was due, so late sends on a loaded machine do not stretch it. The
// moment a poll goes out is that cadence rounded up to a grid of batchWindowMs, so the polls of
// many tasks fall on shared ticks and one timer expiry sends them all (never early, at most one
// window late; the grid never shifts the cadence). At most maxInFlightPerServer requests per
// server, exponential backoff per server on errors (Retry-After honoured). Pure logic with an
// injected clock and random source, so tests run it on a fake clock; lives on the engine thread.
class PollScheduler final
{
public:
    struct Config
    {
        qint64 minIntervalMs = 250;
        qint64 maxIntervalMs = 60000;
        qint64 defaultIntervalMs = 2000; // when the server gives no pollIntervalMs
        // Fraction added on top, uniform in [0, jitter): 0-2 % (mean 1 % of the polls asked) keeps
        // tasks created together from staying in lockstep forever.
        double jitter = 0.02;
        // Polls due within one window share a timer expiry; 1 = no grid.
        qint64 batchWindowMs = 20;
        int maxInFlightPerServer = 16;
        qint64 backoffBaseMs = 1000;
        qint64 backoffMaxMs = 60000;
    };
    using Clock = std::function<qint64()>;  // epoch ms (or any monotonic ms)
    using Random = std::function<double()>; // uniform in [0, 1)

    PollScheduler();
    explicit PollScheduler(Config config, Clock clock = {}, Random random = {});

    const Config &config() const { return m_config; }
    qint64 now() const { return m_clock(); }

    // Tracks a task; its first poll is due at dueAtMs rounded up to the grid (default: now).
    void add(qint64 taskId, qint64 serverId, std::optional<qint64> pollIntervalMs,
             std::optional<qint64> dueAtMs = std::nullopt);
    void remove(qint64 taskId);
    bool contains(qint64 taskId) const { return m_tasks.count(taskId) != 0; }
    int size() const { return int(m_tasks.size()); }

    // Tasks due now whose server has room and is not backing off; each becomes in flight.
    QList<qint64> takeDue(int maxCount = -1);
    // The poll answered: the next one is due pollInterval after this one was due (not sent), on
    // the grid, never sooner than pollInterval after it, never in the past.
    void completed(qint64 taskId, std::optional<qint64> pollIntervalMs);
    // The poll failed transiently: the server backs off (retryAfterMs wins when larger).
    void failed(qint64 taskId, qint64 retryAfterMs = -1);
    // A push or an answer suggests news: poll as soon as the server's interval allows.
    void pollSoon(qint64 taskId);

    // When takeDue() may next return something (nullopt: nothing scheduled).
    std::optional<qint64> nextDueAtMs() const;
    std::optional<qint64> dueAtMs(qint64 taskId) const;
    int inFlight(qint64 serverId) const;
    qint64 backoffUntil(qint64 serverId) const;
    int failureCount(qint64 serverId) const;
    // The clamped interval (without jitter) for a server hint.
    qint64 clampedInterval(std::optional<qint64> pollIntervalMs) const;

private:
    struct Entry
    {
        qint64 serverId = 0;
        qint64 dueAt = 0;      // when the queued poll goes out (on the grid)
        qint64 cadenceAt = 0;  // when it is due by the cadence (dueAt before rounding)
        qint64 interval = 0;
        qint64 sentDueAt = -1;     // dueAt and cadenceAt of the last poll sent
        qint64 sentCadenceAt = -1;
        bool inFlight = false;
    };
    struct ServerState
    {
        int inFlight = 0;
        int failures = 0;
        qint64 backoffUntil = 0;
    };
    qint64 jittered(qint64 interval) const;
    qint64 onGrid(qint64 ms) const; // rounded up to a multiple of batchWindowMs
    void setDue(qint64 taskId, Entry &e, qint64 dueAt);
    // An answer or failure arrived (or came unasked): out of flight and out of the queue.
    ServerState &settle(qint64 taskId, Entry &e);

    Config m_config;
    Clock m_clock;
    Random m_random;
    std::unordered_map<qint64, Entry> m_tasks;
    std::unordered_map<qint64, ServerState> m_servers;
    std::set<std::pair<qint64, qint64>> m_queue; // (dueAt, taskId), not in flight
};

} // namespace Eddy::Monitor
