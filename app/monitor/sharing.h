#pragma once

#include "app/vocab/records.h"
#include "app/store/sharing.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace Eddy::Monitor {

class Engine;

// The engine's share of a database file that other processes use too (eddyctl, a second Eddy):
// - every 250 ms `PRAGMA data_version` says whether another process committed; if so the change
//   log brings the rows it wrote, and they are shown (changesReady), asked (inputRequested) and
//   announced (Engine::sharedWork) as if this engine had made them;
// - a task is polled only by the process that holds its lease; a lease is renewed every third of
//   its lifetime and taken over once it runs out (its holder was killed), so two processes never
//   poll one task at once;
// - a server another process removes is dropped here too (its tasks' polls, listen stream and
//   leases), one it adds or brings back is announced (Engine::serversChanged);
// - an answer is claimed atomically (pending -> answering, with its lease) and sent by the
//   claimer only; one left "answering" by a process that went away is sent again by whoever
//   takes its lease.
// Lives on the engine's thread, created by Engine::open().
class Sharing final : public QObject
{
    Q_DISABLE_COPY_MOVE(Sharing)

public:
    // How long a lease lasts without renewal (default 10 s; EDDY_LEASE_MS overrides it).
    static constexpr qint64 DefaultLeaseMs = 10000;

    explicit Sharing(Engine &engine);
    ~Sharing() override;

    qint64 leaseMs() const { return m_leaseMs; }
    void setLeaseMs(qint64 ms);
    // Starts reading other processes' changes and renewing leases (a monitoring engine).
    void start();
    // Stops and gives every lease back (so another process takes over at once).
    void stop();

    // Takes the task's lease to poll it; false: another process polls it, and this engine
    // follows its changes instead.
    bool claimTask(const Store::TaskRecord &task);
    // In one transaction: the question goes from pending to answering with the answer, and the
    // answer's lease to this process. False (+ *error) when it is not pending any more.
    bool beginAnswer(qint64 taskId,
                     const QString &key,
                     const nlohmann::json &answer,
                     const QString &answeredBy,
                     QString *error);
    // An answer found "answering" after a restart: true when this process may send it (nobody
    // else holds its lease).
    bool takeAnswer(qint64 taskId, const QString &key);
    // Gives a sweep without a session to `sessionId` (its tasks so far and those to come).
    bool adoptSweep(qint64 sweepId, qint64 sessionId);
    // A single call's task joins `sessionId` once it appears.
    void adoptCase(qint64 caseId, qint64 sessionId) { m_adoptedCases.insert(caseId, sessionId); }
    // Reads other processes' changes now; force: even when data_version did not move.
    void check(bool force);
    // This process added or removed a server itself: its own change log entry is no news.
    void noteServer(qint64 serverId, bool active);
    // Gives the tasks' leases back, in one transaction (their server was removed: nobody is to
    // poll them).
    void releaseTasks(const QList<qint64> &taskIds);
    // Live tasks another process polls (this one follows them).
    int followedCount() const { return int(m_followed.size()); }
    bool follows(qint64 taskId) const { return m_followed.contains(taskId); }

private:
    void leaseTick();
    void takeUnheld();
    qint64 takenOverDueAt(const Store::TaskRecord &task, qint64 now) const;
    static bool needsPolling(const Store::TaskRecord &task);
    void follow(const Store::TaskRecord &task);
    // Servers another process added, changed or removed.
    void checkServers(const QList<qint64> &serverIds);

    Engine &m_engine;
    Store::Leases m_leases;
    Store::ChangeFeed m_feed;
    QTimer m_feedTimer;
    QTimer m_leaseTimer;
    qint64 m_leaseMs = DefaultLeaseMs;
    int m_ticks = 0;
    bool m_started = false;
    bool m_renewFailing = false; // said once until renewing works again, not every tick
    QHash<qint64, Store::TaskRecord> m_followed; // live tasks polled by another process
    QSet<qint64> m_asked;                        // input request ids announced as asked
    QSet<qint64> m_knownSweeps;                  // sweeps this process has seen
    QSet<qint64> m_knownCases;                   // single calls this process has seen
    QHash<qint64, qint64> m_adoptedCases;        // case id -> session for its task to come
    QSet<qint64> m_activeServers;                // servers listed (not retired) as last seen
};

} // namespace Eddy::Monitor
