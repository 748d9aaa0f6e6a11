#include "app/monitor/sharing.h"

#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/review.h"
#include "app/monitor/sweepsubmitter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>
#include <QUuid>

#include <cerrno>
#include <signal.h>
#include <utility>

namespace Eddy::Monitor {

namespace {

// A process's name in the lease table: its pid and host (for a person reading the table, and
// to tell a holder that is gone) and a random part (pids are reused).
QString ownerId()
{
    return QStringLiteral("%1@%2:%3")
        .arg(QCoreApplication::applicationPid())
        .arg(QSysInfo::machineHostName())
        .arg(QUuid::createUuid().toString(QUuid::WithoutBraces).left(8));
}

// True when `owner` names a process of this host that no longer exists (killed, crashed): its
// leases need not run out first. Unknown forms and other hosts are never called gone.
bool isGone(const QString &owner)
{
    const qsizetype at = owner.indexOf(QLatin1Char('@'));
    const qsizetype colon = owner.lastIndexOf(QLatin1Char(':'));
    if (at <= 0 || colon <= at)
        return false;
    if (owner.mid(at + 1, colon - at - 1) != QSysInfo::machineHostName())
        return false;
    bool ok = false;
    const qint64 pid = owner.left(at).toLongLong(&ok);
    if (!ok || pid <= 0 || pid == QCoreApplication::applicationPid())
        return false;
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

constexpr int s_feedIntervalMs = 250;
constexpr int s_logKeepSeconds = 600;

} // namespace

Sharing::Sharing(Engine &engine)
    : m_engine(engine)
    , m_leases(engine.m_store.database(), ownerId())
    , m_feed(engine.m_store.database())
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("EDDY_LEASE_MS", &ok);
    if (ok && ms > 0)
        setLeaseMs(ms);
    m_feedTimer.setInterval(s_feedIntervalMs);
    connect(&m_feedTimer, &QTimer::timeout, this, [this] { check(false); });
    connect(&m_leaseTimer, &QTimer::timeout, this, &Sharing::leaseTick);
    // What this process journals is announced by the engine itself.
    connect(&engine, &Engine::sweepSubmitted, this, [this](qint64 id, int) {
        m_knownSweeps.insert(id);
    });
    connect(&engine, &Engine::callJournalled, this, [this](qint64 id) { m_knownCases.insert(id); });
    m_feed.start();
    for (const Store::ServerRecord &s : engine.m_store.servers())
        m_activeServers.insert(s.id);
}

Sharing::~Sharing()
{
    stop();
}

void Sharing::setLeaseMs(qint64 ms)
{
    m_leaseMs = std::max<qint64>(300, ms);
    m_leaseTimer.setInterval(int(m_leaseMs / 3));
}

void Sharing::start()
{
    if (m_started)
        return;
    m_started = true;
    m_leaseTimer.setInterval(int(m_leaseMs / 3));
    m_feedTimer.start();
    m_leaseTimer.start();
    leaseTick();
}

void Sharing::stop()
{
    m_feedTimer.stop();
    m_leaseTimer.stop();
    if (m_engine.m_store.isOpen())
        m_leases.releaseAll();
    m_started = false;
}

bool Sharing::claimTask(const Store::TaskRecord &task)
{
    if (m_leases.acquire(Store::Leases::taskItem(task.id), nowMs(), m_leaseMs)) {
        m_followed.remove(task.id);
        return true;
    }
    qCInfo(lcMonitor, "task %lld is polled by another process; following its changes", task.id);
    follow(task);
    return false;
}

// Live, or completed without its result (still to be fetched): someone polls it.
bool Sharing::needsPolling(const Store::TaskRecord &task)
{
    if (task.serverTaskId.isEmpty())
        return false;
    return task.isLive()
           || (task.status == Store::TaskStatus::Completed && task.result.isEmpty()
               && task.error.isEmpty());
}

void Sharing::follow(const Store::TaskRecord &task)
{
    if (needsPolling(task))
        m_followed.insert(task.id, task);
}

bool Sharing::beginAnswer(qint64 taskId,
                          const QString &key,
                          const nlohmann::json &answer,
                          const QString &answeredBy,
                          QString *error)
{
    Store::Transaction tx(m_engine.m_store.database());
    if (!tx.isActive()) {
        *error = m_engine.m_store.lastError();
        return false;
    }
    if (!m_engine.m_inbox->beginAnswer(taskId, key, answer, error, answeredBy))
        return false;
    if (!m_leases.grant(Store::Leases::answerItem(taskId, key), nowMs(), m_leaseMs)
        || !tx.commit()) {
        *error = Engine::tr("Cannot store the answer: %1").arg(m_engine.m_store.lastError());
        return false;
    }
    return true;
}

bool Sharing::adoptSweep(qint64 sweepId, qint64 sessionId)
{
    return Store::adoptSweep(m_engine.m_store.database(), sweepId, sessionId);
}

bool Sharing::takeAnswer(qint64 taskId, const QString &key)
{
    return m_leases.takeOver(Store::Leases::answerItem(taskId, key), nowMs(), m_leaseMs);
}

void Sharing::leaseTick()
{
    if (!m_engine.isOpen())
        return;
    const qint64 now = nowMs();
    QList<QString> held;
    if (!m_leases.renewAll(now, m_leaseMs, &held)) {
        if (!m_renewFailing)
            qCWarning(lcMonitor).noquote() << "cannot renew the leases:" << m_engine.m_store.lastError();
        m_renewFailing = true;
        return;
    }
    if (std::exchange(m_renewFailing, false))
        qCInfo(lcMonitor, "the leases are renewed again");
    // A task this process polls whose lease another took (this one stalled past its expiry):
    // the other polls it now; this one follows it.
    const QSet<QString> heldSet(held.cbegin(), held.cend());
    const QList<qint64> polled = m_engine.m_live.keys();
    for (qint64 id : polled) {
        if (heldSet.contains(Store::Leases::taskItem(id)))
            continue;
        if (m_leases.acquire(Store::Leases::taskItem(id), now, m_leaseMs))
            continue; // lapsed (pruned or expired) but free: still ours
        const Store::TaskRecord t = m_engine.m_live.take(id);
        m_engine.m_byServerTaskId.remove(t.serverTaskId);
        m_engine.m_scheduler->remove(id);
        m_engine.forgetOnClient(t);
        qCInfo(lcMonitor, "task %lld: another process took over polling it", id);
        follow(t);
    }
    // A holder that is gone (kill -9, a crash) is taken over now rather than when its leases
    // run out.
    for (const QString &owner : m_leases.otherOwners(now)) {
        if (isGone(owner)) {
            qCInfo(lcMonitor,
                   "process %s holds leases but is gone; taking its work over",
                   qPrintable(owner.section(QLatin1Char('@'), 0, 0)));
            m_leases.dropOwner(owner);
        }
    }
    if (++m_ticks % 20 == 1) {
        m_leases.pruneFinished();
        m_feed.prune(s_logKeepSeconds);
    }
    takeUnheld();
}

// The first poll of a task taken over from another process: when that process meant to poll it
// (the next poll stored with its last change, e.g. at its creation by `eddyctl sweep submit`),
// else one interval from now. The other process may have polled it a moment ago and only the
// poll time of the last change is stored: polling every task taken over at once sent the server
// a whole round of early polls after each kill -9 (bench/soak, tests/reliability/tst_takeover).
qint64 Sharing::takenOverDueAt(const Store::TaskRecord &task, qint64 now) const
{
    const qint64 interval = m_engine.m_scheduler->clampedInterval(task.pollIntervalMs);
    return task.nextPollAtMs > now ? std::min(task.nextPollAtMs, now + interval) : now + interval;
}

void Sharing::takeUnheld()
{
    if (!m_engine.m_monitoring || !m_engine.isOpen())
        return;
    const qint64 now = nowMs();
    bool took = false;
    // Live tasks nobody polls: their process ended (eddyctl sweep submit exits once every case
    // has its task) or was killed and its lease ran out.
    for (qint64 id : m_leases.unheldLiveTasks(now)) {
        if (m_engine.m_live.contains(id))
            continue;
        const auto t = m_engine.m_store.task(id);
        if (!t || !m_leases.acquire(Store::Leases::taskItem(id), now, m_leaseMs))
            continue;
        qCInfo(lcMonitor, "task %lld: nobody polls it; polling it here", id);
        m_followed.remove(id);
        m_engine.follow(*t, takenOverDueAt(*t, now));
        took = true;
    }
    // Answers left "answering" by a process that went away: sent again (the server ignores a
    // key it already has).
    for (const auto &[taskId, key] : m_leases.unheldAnswers(now)) {
        if (!m_leases.takeOver(Store::Leases::answerItem(taskId, key), now, m_leaseMs))
            continue;
        const auto r = m_engine.m_store.inputRequest(taskId, key);
        if (!r || r->state != Store::InputState::Answering)
            continue;
        const nlohmann::json answer
            = nlohmann::json::parse(r->answer.toStdString(), nullptr, false);
        if (answer.is_discarded())
            continue;
        qCInfo(lcMonitor,
               "task %lld: the answer to \"%s\" was left unsent by another process; "
               "sending it",
               taskId,
               qPrintable(key));
        m_engine.m_answers.send(taskId, key, answer);
    }
    if (took) {
        m_engine.armPollTimer();
        m_engine.checkIdle();
    }
}

void Sharing::check(bool force)
{
    if (!m_engine.isOpen())
        return;
    if (!m_feed.dataChanged() && !force)
        return;
    const auto changes = m_feed.read();
    if (!changes) {
        qCWarning(lcMonitor) << "cannot read other processes' changes:"
                             << m_engine.m_store.lastError();
        return;
    }
    Store::TaskStore &store = m_engine.m_store;

    // Servers first: a removed server's tasks are no longer this engine's to poll, so their
    // rows (stored lost by the remover) are shown as stored below.
    if (!changes->servers.isEmpty() || changes->gap) {
        QList<qint64> servers = changes->servers;
        if (changes->gap) { // what was missed: every server this process knew or finds stored
            servers << m_activeServers.values();
            for (const Store::ServerRecord &s : store.servers())
                servers << s.id;
        }
        checkServers(servers);
    }

    // Sweeps and single calls journalled by another process.
    QList<Store::SweepRecord> sweeps;
    for (qint64 id : changes->sweeps) {
        if (id <= m_feed.startSweepId() || m_knownSweeps.contains(id))
            continue;
        m_knownSweeps.insert(id);
        if (const auto s = store.sweep(id)) {
            m_engine.m_submitter->setConcurrency(id, s->concurrency);
            sweeps << *s;
        }
    }
    QList<Store::CaseRecord> calls;
    for (qint64 id : changes->cases) {
        if (id <= m_feed.startCaseId() || m_knownCases.contains(id))
            continue;
        m_knownCases.insert(id);
        if (const auto c = store.caseRecord(id); c && !c->sweepId)
            calls << *c;
    }
    if (!sweeps.isEmpty() || !calls.isEmpty() || !changes->sessions.isEmpty() || changes->gap)
        emit m_engine.sharedWork(sweeps,
                                 calls,
                                 changes->sessions.isEmpty() ? QList<Store::SessionRecord>()
                                                             : store.sessions(),
                                 changes->gap);

    // Tasks: shown as they are stored; those polled here were written here.
    bool ended = false;
    for (qint64 id : changes->tasks) {
        if (m_engine.m_live.contains(id))
            continue;
        const auto t = store.task(id);
        if (!t)
            continue;
        if (t->caseId)
            if (const auto session = m_adoptedCases.take(*t->caseId))
                store.attachTask(session, id);
        m_engine.m_feed.queueChange(*t);
        if (needsPolling(*t)) {
            follow(*t);
        } else if (m_followed.remove(id) > 0) {
            ended = true;
            m_engine.m_inbox->forget(id);
            m_engine.m_feed.queueFinished(*t); // the window learns of finishes from the change set
            emit m_engine.taskFinished(*t);
        }
    }
    // A job adapter stored by another process (eddyctl adapter set): the jobs polled here follow
    // its poll settings at once.
    for (qint64 serverId : changes->jobAdapters)
        m_engine.m_jobs.retune(serverId);
    // Notes, tags, baselines and pauses another process stored (a resumed sweep is sent here).
    m_engine.m_review->followShared(changes->caseNotes, changes->sweeps, changes->gap);
    for (const Store::ProgressSample &s : changes->samples)
        if (!m_engine.m_live.contains(s.taskId))
            m_engine.m_feed.pending().samples << s;

    // Questions: a new one of a task polled elsewhere is asked here too (the inbox, eddyctl's
    // --answers); an answered one updates the inbox wherever it was answered.
    for (qint64 id : changes->inputs) {
        const auto r = m_feed.inputRequest(id);
        if (!r)
            continue;
        if (r->state != Store::InputState::Pending) {
            m_asked.remove(id);
            m_engine.m_feed.pending().inputs << *r;
            continue;
        }
        if (m_engine.m_live.contains(r->taskId) || m_asked.contains(id))
            continue; // asked by this process's own poll
        const auto t = store.task(r->taskId);
        if (!t || !t->isLive())
            continue;
        m_asked.insert(id);
        m_engine.m_feed.pending().inputs << *r;
        emit m_engine.inputRequested(*r);
        m_engine.m_answers.autoAnswer(*r);
    }
    if (!m_engine.m_feed.pending().isEmpty())
        m_engine.m_feed.armFlush();
    takeUnheld();
    if (ended)
        m_engine.checkIdle();
}

} // namespace Eddy::Monitor

namespace Eddy::Monitor {

void Engine::checkSharedChanges()
{
    if (m_sharing)
        m_sharing->check(true);
}

void Engine::adoptSharedWork(qint64 sessionId,
                             const QList<qint64> &sweepIds,
                             const QList<qint64> &caseIds)
{
    if (!isOpen())
        return;
    for (qint64 id : sweepIds)
        if (!m_sharing->adoptSweep(id, sessionId))
            emit operationFailed(m_store.lastError());
    for (qint64 id : caseIds) {
        const auto c = m_store.caseRecord(id);
        if (c && c->taskId)
            m_store.attachTask(sessionId, *c->taskId);
        else if (c)
            m_sharing->adoptCase(id, sessionId); // attached when its task appears
    }
}

// Servers added, edited or removed by another process on the same database (the change log's
// "servers" entries, which the store's server writes add). A removed server is dropped here at
// once: its live tasks are no longer polled, their leases are given back and its listen stream
// is closed, so it is not asked again by any process. One whose URL or token was changed gets a
// new client at once (Engine::relinkServer), its tasks and leases kept. The change is announced
// (Engine::serversChanged) for whoever lists the servers.

void Sharing::noteServer(qint64 serverId, bool active)
{
    if (active)
        m_activeServers.insert(serverId);
    else
        m_activeServers.remove(serverId);
}

void Sharing::releaseTasks(const QList<qint64> &taskIds)
{
    if (taskIds.isEmpty())
        return;
    // One commit for the lot, as Engine::open takes them: a server with thousands of live tasks
    // would otherwise cost a commit (and a WAL frame) each. Without a transaction (another
    // writer holds the lock past the busy timeout) each is given back on its own.
    Store::Transaction tx(m_engine.m_store.database());
    for (qint64 taskId : taskIds) {
        if (!m_leases.release(Store::Leases::taskItem(taskId)))
            qCWarning(lcMonitor) << "cannot give back the lease of task" << taskId << ":"
                                 << m_engine.m_store.lastError();
    }
    if (tx.isActive() && !tx.commit())
        qCWarning(lcMonitor) << "cannot give back the leases of" << taskIds.size()
                             << "task(s):" << m_engine.m_store.lastError();
}

void Sharing::checkServers(const QList<qint64> &serverIds)
{
    QList<qint64> added;
    QList<qint64> removed;
    bool edited = false;
    for (qint64 id : serverIds) {
        const auto rec = m_engine.m_store.server(id);
        const bool active = rec && !rec->retired;
        if (active) {
            if (m_activeServers.contains(id)) {
                edited = true; // its name, URL or token: listed again
                m_engine.relinkServer(id); // a new URL or token: a new client (serverlinks.h)
            } else {
                added << id; // new, or a removed one brought back
            }
            m_activeServers.insert(id);
            continue;
        }
        if (!m_activeServers.remove(id))
            continue; // removed by this process, or added and removed while it was not looking
        removed << id;
        // Polled here: dropped with its lease. Polled by another process: followed no more (a
        // deleted row never comes by the log; a kept one comes as stored, lost).
        const QList<qint64> dropped = m_engine.dropServer(id);
        QList<qint64> followed;
        for (auto it = m_followed.cbegin(); it != m_followed.cend(); ++it) {
            if (it->serverId == id)
                followed << it.key();
        }
        for (qint64 taskId : std::as_const(followed)) {
            m_followed.remove(taskId);
            m_engine.m_inbox->forget(taskId);
        }
        qCInfo(lcMonitor,
               "server %lld was removed by another process (%s); %lld live task(s) no longer "
               "polled here",
               id,
               rec ? "tasks kept" : "tasks deleted",
               qint64(dropped.size()));
    }
    if (!removed.isEmpty()) {
        m_engine.armPollTimer();
        m_engine.checkIdle();
    }
    if (edited || !added.isEmpty() || !removed.isEmpty())
        emit m_engine.serversChanged(added, removed);
}

} // namespace Eddy::Monitor
