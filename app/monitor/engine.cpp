#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/handleexchange.h"
#include "app/monitor/sharing.h"
#include "app/monitor/review.h"
#include "app/monitor/streamedtasks.h"
#include "app/monitor/sweepsubmitter.h"

#include <algorithm>

Q_LOGGING_CATEGORY(lcMonitor, "eddy.monitor")

namespace Eddy::Monitor {

Engine::Engine(QObject *parent)
    : QObject(parent)
    , m_scheduler(std::make_unique<PollScheduler>())
    , m_servers(std::make_unique<ServerLinks>(*this))
    , m_review(std::make_unique<Review>(*this))
    , m_submitter(std::make_unique<SweepSubmitter>(*this))
    , m_handles(std::make_unique<HandleExchange>(*this))
{
    qRegisterMetaType<Eddy::Monitor::ChangeSet>();
    qRegisterMetaType<Eddy::Store::TaskRecord>();
    qRegisterMetaType<Eddy::Store::InputRequestRecord>();
    qRegisterMetaType<Eddy::Store::ServerRecord>();
    qRegisterMetaType<Eddy::Store::TaskQuery>();
    qRegisterMetaType<Eddy::Monitor::Engine::CaseQuestion>();
    m_pollTimer.setSingleShot(true);
    // The scheduler hands out polls on a 20 ms grid; a coarse timer may fire up to 5 % early,
    // find nothing due and wake the thread a second time.
    m_pollTimer.setTimerType(Qt::PreciseTimer);
    m_ttlTimer.setInterval(5000);
    connect(&m_pollTimer, &QTimer::timeout, this, &Engine::pumpPolls);
    connect(&m_ttlTimer, &QTimer::timeout, this, &Engine::checkTtl);
}

Engine::~Engine()
{
    close();
}

void Engine::setMonitoring(bool enabled)
{
    m_monitoring = enabled;
    if (enabled && isOpen()) {
        pumpSubmissions();
        armPollTimer();
        m_ttlTimer.start();
    } else if (!enabled) {
        m_pollTimer.stop();
        m_ttlTimer.stop();
    }
}

bool Engine::isSubmitting() const
{
    return m_submitter->isSubmitting();
}

bool Engine::isIdle() const
{
    return m_live.isEmpty() && m_answersInFlight == 0 && !m_submitter->hasWork()
           && !(m_sharing && m_sharing->followedCount() > 0); // live tasks another process polls
}

void Engine::setCaseRetryPolicy(int attempts, qint64 baseDelayMs)
{
    m_submitter->setRetryPolicy(attempts, baseDelayMs);
}

// ---------------------------------------------------------------- submission (sweepsubmitter.h)

void Engine::submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId)
{
    m_submitter->submitSweep(serverId, specJson, sessionId);
}

void Engine::callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                      std::optional<qint64> sessionId, std::optional<qint64> parentCaseId)
{
    m_submitter->callOnce(serverId, tool, argumentsJson, sessionId, parentCaseId);
}

void Engine::answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson)
{
    m_submitter->answerCaseInput(caseId, key, elicitResultJson);
}

QList<Engine::CaseQuestion> Engine::pendingCaseQuestions() const
{
    return m_submitter->pendingCaseQuestions();
}

void Engine::pumpSubmissions()
{
    m_submitter->pump();
}

void Engine::serverAnswered(qint64 serverId, bool evenIfOnline)
{
    ServerLink *l = link(serverId);
    if (!l)
        return;
    const bool wasDown = l->state != ServerState::Online;
    if (wasDown) {
        l->state = ServerState::Online;
        emit serverStateChanged(serverId, ServerState::Online, {}, false);
    }
    if (wasDown || evenIfOnline)
        m_submitter->sendWaitingCases(serverId);
}


QString Engine::readOnlyMessage()
{
    return tr("The database is write-protected and open for review only: nothing can "
                          "be submitted, answered or cancelled. To work with it, copy it to a "
                          "writable folder and open the copy (eddy --db COPY).");
}

bool Engine::open(const QString &dbPath)
{
    close();
    // Damage found by the store's background integrity check (its own thread) reaches the user
    // like any other failure.
    m_store.database().setDamageHandler([this](const QString &message) {
        QMetaObject::invokeMethod(this, [this, message] { emit operationFailed(message); }, Qt::QueuedConnection);
    });
    if (!m_store.open(dbPath)) {
        emit opened(false, m_store.lastError());
        return false;
    }
    m_servers->open();
    m_inbox = std::make_unique<InputInbox>(m_store);
    m_sharing = std::make_unique<Sharing>(*this);
    const QStringList bad = m_parser.setTemplates(m_store.progressTemplates());
    for (const QString &b : bad)
        qCWarning(lcMonitor) << "progress template skipped:" << b;
    if (m_store.isReadOnly()) {
        // Reviewed as stored: no task is polled or leased, no case sent, no answer resumed.
        qCInfo(lcMonitor, "opened read-only for review");
        emit opened(true, {});
        return true;
    }

    // Reattach: every live task resumes polling (now, or when its stored next poll is due),
    // every journalled case that never got an answer is sent again with its key.
    const qint64 now = nowMs();
    const QList<Store::TaskRecord> live = m_store.liveTasks();
    m_streamed.reconcile(live); // each write its own commit: before the leases' transaction
    {
        // One transaction for every live task's lease: 10,000 single-statement commits took
        // about 0.4 s of the open (bench_store startup). Without it (another writer holds the
        // lock past the busy timeout) each lease commits on its own, as before.
        Store::Transaction leases(m_store.database());
        for (const Store::TaskRecord &t : live)
            follow(t, std::max(now, std::min(t.nextPollAtMs, now + 1000)));
        leases.commit();
    }
    for (const Store::CaseRecord &c : m_store.unsubmittedCases())
        m_submitter->enqueue(c);
    for (const Store::SweepRecord &s : m_store.sweeps())
        m_submitter->setConcurrency(s.id, s.concurrency);
    m_review->load();
    qCInfo(lcMonitor, "opened with %d live task(s)", int(m_live.size()));
    emit opened(true, {});

    if (m_monitoring) {
        m_answers.resume();
        for (const Store::InputRequestRecord &r : m_inbox->pending()) {
            m_feed.pending().inputs << r; // the GUI learns of questions from the change set only
            m_feed.armFlush();
            emit inputRequested(r);
            m_answers.autoAnswer(r);
        }
        pumpSubmissions();
        armPollTimer();
        m_ttlTimer.start();
        m_sharing->start();
    }
    m_wasIdle = false;
    QTimer::singleShot(0, this, &Engine::checkIdle);
    return true;
}

void Engine::close()
{
    m_pollTimer.stop();
    m_ttlTimer.stop();
    if (m_store.isOpen())
        m_streamed.closeAll();
    m_feed.close();
    m_servers->close();
    m_byServerTaskId.clear();
    m_inbox.reset();
    m_live.clear();
    m_submitter->clear();
    m_wrongTask.clear();
    m_fieldWarned.clear();
    m_ttlWarned.clear();
    m_review->clear();
    m_scheduler = std::make_unique<PollScheduler>();
    m_sharing.reset(); // gives the leases back: another process takes over at once
    m_store.close();
}

// ---------------------------------------------------------------- servers (serverlinks.h)

void Engine::setRequestTimeoutMs(int ms)
{
    m_servers->setRequestTimeoutMs(ms);
}

void Engine::setSlowTransferFloor(int bytesPerSec, int windowMs)
{
    m_servers->setSlowTransferFloor(bytesPerSec, windowMs);
}

qint64 Engine::requestsSent() const
{
    return m_servers->requestsSent();
}

ServerLink *Engine::link(qint64 serverId)
{
    return m_servers->link(serverId);
}

void Engine::forgetOnClient(const Store::TaskRecord &task)
{
    m_servers->forgetTask(task);
}

void Engine::relinkServer(qint64 serverId)
{
    m_servers->relink(serverId);
}

void Engine::refreshServer(qint64 serverId)
{
    m_servers->refresh(serverId);
}

void Engine::withTools(qint64 serverId, std::function<void(const json &, const QString &)> then)
{
    m_servers->withTools(serverId, std::move(then));
}

qint64 Engine::addServer(const QString &url, const QString &name, const QString &token)
{
    const QUrl parsed(url);
    if (!parsed.isValid() || (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https"))) {
        emit operationFailed(QStringLiteral("\"%1\" is not an http(s) URL; give the server's MCP endpoint, "
                                            "e.g. http://127.0.0.1:8080/mcp.").arg(url));
        return -1;
    }
    if (auto existing = m_store.serverByUrl(url)) {
        // A removed server whose tasks were kept comes back with them.
        if (existing->retired && !m_store.setServerRetired(existing->id, false)) {
            emit operationFailed(m_store.lastError());
            return -1;
        }
        if (m_sharing)
            m_sharing->noteServer(existing->id, true); // its own change log entry is no news
        if (!token.isEmpty() && token != existing->token) {
            existing->token = token;
            m_store.updateServer(*existing);
            relinkServer(existing->id); // the client holds the old token
        }
        return existing->id;
    }
    Store::ServerRecord rec;
    rec.url = url;
    rec.name = name.isEmpty() ? parsed.host() : name;
    rec.token = token;
    const auto id = m_store.addServer(rec);
    if (!id) {
        emit operationFailed(m_store.lastError());
        return -1;
    }
    if (m_sharing)
        m_sharing->noteServer(*id, true);
    return *id;
}

bool Engine::updateServer(const Store::ServerRecord &server)
{
    if (!m_store.updateServer(server)) {
        emit operationFailed(m_store.lastError());
        return false;
    }
    relinkServer(server.id);
    return true;
}

HandleImportReport Engine::importHandles(const QByteArray &fileContent, const QString &sessionName,
                                         const QString &serverUrl)
{
    return m_handles->importHandles(fileContent, sessionName, serverUrl);
}

HandleExport Engine::exportHandles(const Store::TaskQuery &query, const QList<qint64> &taskIds,
                                   const QString &sessionName)
{
    return m_handles->exportHandles(query, taskIds, sessionName);
}

// Removing a server: refused while a call to it is being sent; otherwise its stored tasks are
// kept as history (the server is retired: never contacted again) or deleted with it, and the
// engine stops following everything of that server.

bool Engine::removeServer(qint64 serverId, Store::ServerRemoval mode)
{
    const auto rec = m_store.server(serverId);
    const QString name = !rec ? QString() : rec->name.isEmpty() ? rec->url : rec->name;
    // A tools/call on the wire would store a task for a server that is gone.
    if (rec && m_submitter->isSendingTo(serverId)) {
        emit operationFailed(tr("A call to %1 is still being sent; remove the server "
                                            "once it has been answered. Nothing was removed.")
                                 .arg(name));
        return false;
    }
    if (!m_store.removeServer(serverId, mode)) {
        emit operationFailed(m_store.lastError());
        return false;
    }
    if (m_sharing)
        m_sharing->noteServer(serverId, false); // its own change log entry is no news here
    const QList<qint64> live = dropServer(serverId);
    if (mode == Store::ServerRemoval::KeepTasks) {
        for (qint64 taskId : live) {
            if (const auto stored = m_store.task(taskId))
                m_feed.queueChange(*stored); // shown as lost, with why
        }
    }
    qCInfo(lcMonitor,
           "server %lld removed (%s), %lld live task(s) no longer followed",
           serverId,
           mode == Store::ServerRemoval::DeleteTasks ? "tasks deleted" : "tasks kept",
           qint64(live.size()));
    armPollTimer();
    checkIdle();
    return true;
}

QList<qint64> Engine::dropServer(qint64 serverId)
{
    // Stop following what the store no longer lets run: its live tasks and unsent cases.
    QList<qint64> live;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it) {
        if (it->serverId == serverId)
            live << it.key();
    }
    for (qint64 taskId : std::as_const(live)) {
        const Store::TaskRecord t = m_live.take(taskId);
        m_byServerTaskId.remove(t.serverTaskId);
        forgetOnClient(t);
        m_scheduler->remove(taskId);
        m_noResultTries.remove(taskId);
        m_lastX.remove(taskId);
        m_wrongTask.remove(taskId);
        m_ttlWarned.remove(taskId);
        m_fieldWarned.remove(taskId);
        m_inbox->forget(taskId);
    }
    if (m_sharing)
        m_sharing->releaseTasks(live); // nobody is to poll them: no lease to run out

    m_submitter->dropServer(serverId);
    m_servers->drop(serverId);
    m_jobs.forgetServer(serverId);
    return live;
}

// ---------------------------------------------------------------- sessions

qint64 Engine::createSession(const QString &name)
{
    const auto id = m_store.createSession(name);
    if (!id) {
        emit operationFailed(m_store.lastError());
        return -1;
    }
    return *id;
}

bool Engine::renameSession(qint64 sessionId, const QString &name)
{
    if (!m_store.renameSession(sessionId, name)) {
        emit operationFailed(m_store.lastError().isEmpty() ? tr("There is no session %1.").arg(sessionId)
                                                           : m_store.lastError());
        return false;
    }
    return true;
}

int Engine::attachTasks(qint64 sessionId, const Store::TaskQuery &query)
{
    const int n = m_store.attachTasks(sessionId, query);
    if (n < 0)
        emit operationFailed(m_store.lastError());
    return n;
}

// ---------------------------------------------------------------- answers (answersender.h)

void Engine::answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                         const QString &answeredBy)
{
    m_answers.answerInput(taskId, key, elicitResultJson, answeredBy);
}

// ---------------------------------------------------------------- changes (changefeed.h), TTL, idle

void Engine::requestSnapshot(qint64 snapshotId, const Store::TaskQuery &query)
{
    m_feed.requestSnapshot(snapshotId, query);
}

void Engine::checkTtl()
{
    const qint64 now = nowMs();
    for (const Store::TaskRecord &t : std::as_const(m_live)) {
        const auto expires = t.expiresAtMs();
        if (!expires || m_ttlWarned.contains(t.id))
            continue;
        const qint64 left = *expires - now;
        const qint64 margin = std::max<qint64>(60000, 3 * m_scheduler->clampedInterval(t.pollIntervalMs));
        if (left < margin) {
            m_ttlWarned.insert(t.id);
            qCWarning(lcMonitor, "task %lld: the server may forget it in %lld ms", t.id, left);
            emit ttlWarning(t.id, left);
        }
    }
}

void Engine::checkIdle()
{
    const bool nowIdle = isIdle();
    if (nowIdle && !m_wasIdle) {
        m_feed.flushIfArmed();
        m_wasIdle = true;
        emit idle();
    } else if (!nowIdle) {
        m_wasIdle = false;
    }
}

void Engine::proposeJobAdapter(qint64 serverId,
                               std::function<void(const AdapterProposal &, const QString &)> then)
{
    withTools(serverId, [then](const json &tools, const QString &error) {
        if (!error.isEmpty())
            return then({}, error);
        then(AdapterProposer::propose(tools), {});
    });
}

// The agent's writes: sessions and messages, which need no engine bookkeeping.

std::optional<qint64> Engine::createSessionOfKind(const QString &name, const QString &kind)
{
    return m_store.createSession(name, kind);
}

bool Engine::attachTask(qint64 sessionId, qint64 taskId)
{
    return m_store.attachTask(sessionId, taskId);
}

int Engine::attachTasksQuietly(qint64 sessionId, const Store::TaskQuery &query)
{
    return m_store.attachTasks(sessionId, query);
}

bool Engine::addAgentMessage(Store::AgentMessageRecord &message)
{
    return m_store.addAgentMessage(message);
}

bool Engine::compactAgentMessages(qint64 sessionId,
                                  Store::AgentMessageRecord &summary,
                                  QList<Store::AgentMessageRecord> &keep)
{
    return m_store.compactAgentMessages(sessionId, summary, keep);
}

// ---------------------------------------------------------------- polling

Follower &Engine::followerFor(Pattern pattern)
{
    switch (pattern) {
    case Pattern::Task: return m_tasks;
    case Pattern::Streamed: return m_streamed;
    case Pattern::Job: return m_jobs;
    }
    return m_tasks; // not reached: every pattern is named above
}

bool Engine::trackLive(const Store::TaskRecord &task, std::optional<qint64> dueAtMs,
                       std::optional<PollScheduler::Ticks> ticks)
{
    if (task.serverTaskId.isEmpty())
        return false;
    if (m_monitoring && m_sharing && !m_sharing->claimTask(task))
        return false; // another process polls it; its changes come through the database
    m_live.insert(task.id, task);
    m_byServerTaskId.insert(task.serverTaskId, task.id);
    m_scheduler->add(task.id, task.serverId, task.pollIntervalMs, dueAtMs, ticks);
    return true;
}

void Engine::armPollTimer()
{
    if (!m_monitoring || !isOpen())
        return;
    const auto next = m_scheduler->nextDueAtMs();
    if (!next) {
        m_pollTimer.stop();
        return;
    }
    const qint64 wait = std::clamp<qint64>(*next - nowMs(), 0, 60000);
    if (!m_pollTimer.isActive() || m_pollTimer.remainingTime() > wait)
        m_pollTimer.start(int(wait));
}

void Engine::pumpPolls()
{
    if (!m_monitoring || !isOpen())
        return;
    const QList<qint64> due = m_scheduler->takeDue();
    // (pattern, server id) -> its due tasks, in due order: one hand-over each (a job adapter
    // batches its status calls); tasks before jobs.
    QMap<std::pair<Pattern, qint64>, QList<qint64>> byFollower;
    for (qint64 id : due) {
        const auto it = m_live.constFind(id);
        if (it == m_live.constEnd())
            m_scheduler->remove(id); // ended since it was scheduled
        else
            byFollower[{it->pattern, it->serverId}] << id;
    }
    for (auto it = byFollower.cbegin(); it != byFollower.cend(); ++it)
        followerFor(it.key().first).poll(it.key().second, it.value());
    armPollTimer();
}

void Engine::applyState(qint64 taskId, const Mcp::TaskState &state, bool fromPush)
{
    auto it = m_live.find(taskId);
    if (it == m_live.end())
        return;
    Store::TaskRecord &t = *it;
    const Store::TaskStatus oldStatus = t.status;
    const QString oldMessage = t.statusMessage;
    const QString oldUpdated = t.lastUpdatedAt;
    const auto oldInterval = t.pollIntervalMs;
    const Store::TaskRecord before = t;
    if (!state.warnings.isEmpty()) {
        // Clamped or ignored field by field; logged once per distinct warning, not every poll.
        const QString w = state.warnings.join(QStringLiteral("; "));
        if (m_fieldWarned.value(taskId) != w) {
            m_fieldWarned.insert(taskId, w);
            qCWarning(lcMonitor, "task %lld: %s", taskId, qPrintable(w));
        }
    }
    fillFromState(t, state);
    if (Store::isTerminal(oldStatus) && t.isLive()) {
        // An end state is final: a server that calls the task live again is wrong; keep the end.
        qCWarning(lcMonitor, "task %lld: the server said %s after %s; keeping %s", taskId,
                  qPrintable(Store::toText(t.status)), qPrintable(Store::toText(oldStatus)),
                  qPrintable(Store::toText(oldStatus)));
        t.status = oldStatus;
        t.statusMessage = oldMessage;
    }
    if (t.status == Store::TaskStatus::Completed && t.result.isEmpty() && t.error.isEmpty()) {
        // `completed` without its result is not an end (a server may publish the status before
        // it attaches the result): keep the task live and ask again, a few times, with backoff.
        if (fromPush) { // a push is not a poll: let the next poll bring the result
            t = before;
            m_scheduler->pollSoon(taskId);
            return;
        }
        const int tries = ++m_noResultTries[taskId];
        if (tries <= s_noResultTries) {
            qCWarning(lcMonitor, "task %lld: the server said completed but sent no result; "
                                 "asking again (%d of %d)", taskId, tries, s_noResultTries);
            t = before;
            m_scheduler->completed(taskId, s_noResultFirstDelayMs << (tries - 1));
            return;
        }
        t.error = QString::fromStdString(
            json{{"code", -32603},
                 {"message", "the server said completed but sent no result (asked "
                                 + std::to_string(s_noResultTries + 1)
                                 + " times); run the case again or ask the server's operator"}}
                .dump());
    }
    if (!Store::isTerminal(oldStatus) && t.status == Store::TaskStatus::Cancelled
        && t.statusMessage == oldMessage) {
        // Cancelled without a message of its own: the last live one (e.g. "queued, position 1")
        // no longer describes the task. It stays in the task's event history.
        t.statusMessage.clear();
    }
    const qint64 now = nowMs();
    const bool statusChanged = t.status != oldStatus;
    const bool messageChanged = t.statusMessage != oldMessage;
    QList<Store::ProgressSample> samples;
    if (messageChanged && !t.statusMessage.isEmpty()) {
        samples = m_parser.parse(t.statusMessage, t.tool, now, taskId);
        if (ProgressParser::hasOwnX(samples)) {
            m_lastX.insert(taskId, samples.first().x);
        } else if (!samples.isEmpty()) {
            // No counter in this message ("converged, residual 9e-7"): it belongs at the last
            // iteration seen, never at a clock time.
            const double x = lastX(taskId);
            for (Store::ProgressSample &sample : samples)
                sample.x = x;
        }
    }
    // A result's residual history (docs/sweeps.md) is the whole run, also what ran while Eddy
    // was closed or between two polls: it replaces the residuals polling saw.
    bool replaceResiduals = false;
    if (!t.isLive() && t.status == Store::TaskStatus::Completed && !t.result.isEmpty()) {
        const QList<Store::ProgressSample> history = ProgressParser::historySamples(t.result, taskId, now);
        if (!history.isEmpty()) {
            samples.removeIf([](const Store::ProgressSample &sample) {
                return sample.series == ProgressParser::Residual
                       || sample.series.startsWith(ProgressParser::Residual + QLatin1Char('.'));
            });
            samples << history;
            replaceResiduals = true;
        }
    }

    QList<Store::InputRequestRecord> fresh;
    if (t.status == Store::TaskStatus::InputRequired) {
        // The modern form goes in as the bytes received, so a repeated poll of an unchanged
        // question costs the inbox one hash and no parse.
        fresh = m_inbox->observe(taskId, state.inputRequests);
    } else if (oldStatus == Store::TaskStatus::InputRequired) {
        m_inbox->forget(taskId);
    }

    const bool terminal = !t.isLive();
    if (!terminal && !fromPush) // a push is not a poll: the poll cadence stays as it was
        m_scheduler->completed(taskId, t.pollIntervalMs);
    t.nextPollAtMs = m_scheduler->dueAtMs(taskId).value_or(0);
    if (terminal)
        t.finishedAtMs = now;
    const bool changed = statusChanged || messageChanged || terminal || t.lastUpdatedAt != oldUpdated
                         || t.pollIntervalMs != oldInterval;
    if (changed) {
        if (replaceResiduals && !m_store.deleteSamples(taskId, ProgressParser::Residual))
            qCWarning(lcMonitor) << "cannot replace the residuals of task" << taskId << ":" << m_store.lastError();
        if (!m_store.storeTaskUpdate(t, statusChanged || messageChanged, samples))
            qCWarning(lcMonitor) << "cannot store task" << taskId << ":" << m_store.lastError();
        m_feed.queueChange(t);
        m_feed.pending().samples << samples;
    }
    for (const Store::InputRequestRecord &r : std::as_const(fresh)) {
        m_feed.pending().inputs << r;
        m_feed.armFlush();
        emit inputRequested(r);
        m_answers.autoAnswer(r);
    }
    if (terminal) {
        qCDebug(lcMonitor, "task %lld ended by %s", taskId, fromPush ? "push" : "poll");
        qCInfo(lcMonitor, "task %lld finished: %s", taskId, qPrintable(Store::toText(t.status)));
        finishTask(Store::TaskRecord(t)); // a copy: `t` lives in the registry it leaves
    }
}

void Engine::finishTask(const Store::TaskRecord &done)
{
    const auto it = m_live.find(done.id);
    if (it == m_live.end())
        return; // ended already
    m_live.erase(it);
    m_byServerTaskId.remove(done.serverTaskId);
    m_scheduler->remove(done.id);
    m_ttlWarned.remove(done.id);
    m_noResultTries.remove(done.id);
    m_wrongTask.remove(done.id);
    m_fieldWarned.remove(done.id);
    m_lastX.remove(done.id);
    forgetOnClient(done);
    m_feed.queueFinished(done);
    emit taskFinished(done);
}

double Engine::lastX(qint64 taskId)
{
    if (auto it = m_lastX.constFind(taskId); it != m_lastX.constEnd())
        return *it;
    // After a restart: the last x stored for the task (one read, then remembered).
    double x = 0;
    const QList<Store::ProgressSample> stored = m_store.progressSamples(taskId);
    for (const Store::ProgressSample &sample : stored) {
        if (sample.series == ProgressParser::Iteration || sample.series == ProgressParser::Step)
            x = sample.x;
    }
    m_lastX.insert(taskId, x);
    return x;
}

void Engine::markGone(qint64 taskId, const QString &why, bool unreliable)
{
    auto it = m_live.find(taskId);
    if (it == m_live.end())
        return;
    Store::TaskRecord t = *it;
    const auto expires = t.expiresAtMs();
    // Expired: the server's TTL ran out before we stored a result. Lost: the server never
    // knew (or no longer knows) the id for another reason, e.g. its database was reset.
    t.status = expires && *expires <= nowMs() + 1000 ? Store::TaskStatus::Expired : Store::TaskStatus::Lost;
    if (unreliable)
        t.status = Store::TaskStatus::Lost;
    t.statusMessage = unreliable ? why
                      : t.status == Store::TaskStatus::Expired
                          ? QStringLiteral("the server forgot the task after its TTL (%1)").arg(why)
                          : QStringLiteral("the server does not know this task (%1)").arg(why);
    t.finishedAtMs = nowMs();
    m_store.storeTaskUpdate(t, true, {});
    m_feed.queueChange(t);
    qCWarning(lcMonitor, "task %lld is %s", taskId, qPrintable(Store::toText(t.status)));
    finishTask(t);
}

// ---------------------------------------------------------------- cancel and answers

void Engine::cancelTasks(const QList<qint64> &taskIds)
{
    if (isReadOnly()) {
        emit operationFailed(readOnlyMessage());
        return;
    }
    for (qint64 id : taskIds) {
        auto t = m_store.task(id);
        if (!t) {
            emit operationFailed(tr("There is no task %1; list tasks with eddyctl tasks.").arg(id));
            continue;
        }
        if (!t->isLive()) {
            const QString msg = tr("Task %1 has already ended (%2); nothing to cancel.")
                                    .arg(id).arg(Store::toText(t->status));
            emit operationFailed(msg);
            emit cancelSent(id, false, msg);
            continue;
        }
        followerFor(t->pattern).cancel(*t);
    }
}

bool Engine::requestCancel(const Store::TaskRecord &task)
{
    const qint64 id = task.id;
    if (task.serverTaskId.isEmpty()) {
        const QString msg = tr("Task %1 is a streamed call: the server gives no handle "
                                           "to cancel it with; it ends when its stream ends.").arg(id);
        emit operationFailed(msg);
        emit cancelSent(id, false, msg);
        return false;
    }
    m_store.setCancelRequested(id);
    Store::TaskRecord shown = task;
    shown.cancelRequested = true;
    if (auto live = m_live.find(id); live != m_live.end())
        live->cancelRequested = true;
    m_feed.queueChange(shown);
    if (!link(task.serverId)) {
        emit cancelSent(id, false, tr("The task's server is not configured."));
        return false;
    }
    return true;
}

void Engine::cancelAnswered(qint64 taskId, const QString &failure)
{
    --m_answersInFlight;
    if (!failure.isEmpty())
        emit operationFailed(failure);
    emit cancelSent(taskId, failure.isEmpty(), failure);
    m_scheduler->pollSoon(taskId); // the server's verdict comes with its next state
    armPollTimer();
    checkIdle();
}

} // namespace Eddy::Monitor
