#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/handleexchange.h"
#include "app/monitor/sharing.h"
#include "app/monitor/outcome.h"
#include "app/monitor/log.h"
#include "app/monitor/review.h"
#include "app/monitor/schemavalidator.h"
#include "app/monitor/streamedtasks.h"
#include "app/monitor/sweepexpander.h"
#include "app/monitor/sweepsubmitter.h"

#include "app/mcp/client.h"
#include "app/mcp/tracecontext.h"
#include "app/net/httpclient.h"
#include "app/secret.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QUuid>

#include <algorithm>
#include <chrono>

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
    m_batchTimer.setSingleShot(true);
    m_ttlTimer.setInterval(5000);
    connect(&m_pollTimer, &QTimer::timeout, this, &Engine::pumpPolls);
    connect(&m_batchTimer, &QTimer::timeout, this, &Engine::flushChanges);
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
    return QStringLiteral("The database is write-protected and open for review only: nothing can "
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
    for (const Store::TaskRecord &t : live)
        if (t.pattern == Pattern::Streamed)
            m_streamed.reconcile(t);
    {
        // One transaction for every live task's lease: 10,000 single-statement commits took
        // about 0.4 s of the open (bench_store startup). Without it (another writer holds the
        // lock past the busy timeout) each lease commits on its own, as before.
        Store::Transaction leases(m_store.database());
        for (const Store::TaskRecord &t : live)
            if (t.pattern != Pattern::Streamed)
                trackLive(t, std::max(now, std::min(t.nextPollAtMs, now + 1000)));
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
        resumeAnswers();
        for (const Store::InputRequestRecord &r : m_inbox->pending()) {
            m_pending.inputs << r; // the GUI learns of questions from the change set only
            armFlush();
            emit inputRequested(r);
            autoAnswer(r);
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
    m_snapshot = SnapshotDelivery();
    if (m_batchTimer.isActive()) {
        m_batchTimer.stop();
        flushChanges();
    }
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
        emit operationFailed(QStringLiteral("A call to %1 is still being sent; remove the server "
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
                queueChange(*stored); // shown as lost, with why
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
        emit operationFailed(m_store.lastError().isEmpty() ? QStringLiteral("There is no session %1.").arg(sessionId)
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

// ---------------------------------------------------------------- answers

void Engine::answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                         const QString &answeredBy)
{
    const json answer = json::parse(elicitResultJson.constBegin(), elicitResultJson.constEnd(), nullptr, false);
    QString error;
    if (isReadOnly()) {
        emit inputAnswered(taskId, key, false, readOnlyMessage());
        return;
    }
    if (answer.is_discarded()) {
        emit inputAnswered(taskId, key, false, QStringLiteral("The answer is not valid JSON; give an object like "
                                                              "{\"action\": \"accept\", \"content\": {...}}."));
        return;
    }
    const auto t = m_store.task(taskId);
    if (!t || !t->isLive()) {
        // Said of "its task": the window puts the case's own label in front ("Sweep 1 · case 7"),
        // eddyctl the task it was given; a bare number here would name it a second, other way.
        emit inputAnswered(taskId, key, false, t ? QStringLiteral("Its task has already ended.")
                                                 : QStringLiteral("There is no such task."));
        return;
    }
    if (m_sharing ? !m_sharing->beginAnswer(taskId, key, answer, answeredBy, &error)
                  : !m_inbox->beginAnswer(taskId, key, answer, &error, answeredBy)) {
        emit inputAnswered(taskId, key, false, error);
        return;
    }
    sendAnswer(taskId, key, answer);
}

void Engine::sendAnswer(qint64 taskId, const QString &key, const json &answer, int attempt)
{
    const auto t = m_store.task(taskId);
    if (t && !t->isLive()) {
        // The task ended while its answer was on the way: after a crash between the server
        // taking the answer and its ack being stored (a poll may well have stored the end
        // first), or during a retry. Either way the question closed with the task and can never
        // be asked again, so it is not reopened; the engineer's answer stays on record.
        m_inbox->answerSent(taskId, key, true);
        emit inputAnswered(taskId, key, true, {});
        return;
    }
    ServerLink *l = t ? link(t->serverId) : nullptr;
    if (!l) {
        m_inbox->answerSent(taskId, key, false);
        emit inputAnswered(taskId, key, false, QStringLiteral("The task's server is not configured."));
        return;
    }
    if (t->pattern == Pattern::Job)
        return m_jobs.answer(*t, key, answer);
    m_tasks.answer(*t, key, answer, attempt);
}

void Engine::resumeAnswers()
{
    // Answers stored but maybe never acknowledged before a crash: the server ignores a key it
    // already has, so sending again is safe.
    for (const Store::InputRequestRecord &r : m_store.answeringInputRequests()) {
        if (m_sharing && !m_sharing->takeAnswer(r.taskId, r.key))
            continue; // another process is sending it
        const json answer = json::parse(r.answer.toStdString(), nullptr, false);
        if (!answer.is_discarded())
            sendAnswer(r.taskId, r.key, answer);
    }
}

void Engine::autoAnswer(const Store::InputRequestRecord &request)
{
    if (!m_autoAnswers)
        return;
    if (const auto now = m_store.inputRequest(request.taskId, request.key);
        now && now->state != Store::InputState::Pending)
        return; // answered meanwhile (by another process on the database)
    const json req = json::parse(request.request.toStdString(), nullptr, false);
    QString error;
    const json answer = InputInbox::answerFromValues(req, *m_autoAnswers, &error);
    if (answer.is_null()) {
        emit operationFailed(QStringLiteral("Task %1, question \"%2\": %3").arg(request.taskId).arg(request.key, error));
        return;
    }
    answerInput(request.taskId, request.key, QByteArray::fromStdString(answer.dump()), QStringLiteral("eddyctl"));
}

// ---------------------------------------------------------------- batching, TTL, idle

void Engine::queueFinished(const Store::TaskRecord &task)
{
    queueChange(task);
    if (!m_pending.finished.contains(task.id))
        m_pending.finished << task.id;
    // With the end, how each of its questions ended as stored: closed by the end, or answered
    // (perhaps by another process this one has not heard from yet).
    for (const Store::InputRequestRecord &r : m_store.inputRequests(task.id)) {
        const auto same = [&r](const Store::InputRequestRecord &q) { return q.id == r.id; };
        if (r.state != Store::InputState::Pending
            && std::none_of(m_pending.inputs.cbegin(), m_pending.inputs.cend(), same))
            m_pending.inputs << r;
    }
}

void Engine::queueChange(const Store::TaskRecord &task)
{
    if (auto it = m_pendingTaskIndex.constFind(task.id); it != m_pendingTaskIndex.constEnd())
        m_pending.tasks[*it] = task;
    else {
        m_pendingTaskIndex.insert(task.id, int(m_pending.tasks.size()));
        m_pending.tasks << task;
    }
    armFlush();
}

void Engine::armFlush()
{
    // Leading edge: the first change after a quiet interval goes out on the next event-loop turn
    // (which still gathers what this turn stores with it: samples, input requests); a burst is
    // batched, at most one emission per interval. Held while a snapshot is being delivered.
    if (m_batchTimer.isActive() || m_snapshot.id != 0)
        return;
    const qint64 sinceLast = steadyMs() - m_lastFlushMs;
    m_batchTimer.start(int(std::clamp<qint64>(m_batchIntervalMs - sinceLast, 0, m_batchIntervalMs)));
}

void Engine::flushChanges()
{
    if (m_pending.isEmpty())
        return;
    ChangeSet out;
    std::swap(out, m_pending);
    m_pendingTaskIndex.clear();
    m_lastFlushMs = steadyMs();
    emit changesReady(out);
}

void Engine::requestSnapshot(qint64 snapshotId, const Store::TaskQuery &query)
{
    if (snapshotId == 0) {
        emit operationFailed(QStringLiteral("A snapshot needs a non-zero id to tag its chunks."));
        return;
    }
    // Changes made so far go out first: every chunk is at least as new as they are.
    m_batchTimer.stop();
    flushChanges();
    m_snapshot = SnapshotDelivery();
    m_snapshot.id = snapshotId;
    if (isOpen()) {
        m_snapshot.rows = m_store.tasks(query);
        for (Store::TaskRecord &t : m_snapshot.rows) {
            t.converged = convergedOf(t.result); // the table's outcome needs it
            t.result.clear(); // fetched on demand: a snapshot of 100,000 tasks must stay small
        }
    }
    sendSnapshotChunk();
}

void Engine::sendSnapshotChunk()
{
    if (m_snapshot.id == 0)
        return;
    ChangeSet chunk;
    chunk.snapshotId = m_snapshot.id;
    if (!m_snapshot.sentFirst && isOpen())
        chunk.inputs = m_store.pendingInputRequests();
    m_snapshot.sentFirst = true;
    const qsizetype n = std::min<qsizetype>(m_snapshotChunkRows, m_snapshot.rows.size() - m_snapshot.next);
    chunk.tasks = m_snapshot.rows.mid(m_snapshot.next, n);
    m_snapshot.next += n;
    chunk.snapshotComplete = m_snapshot.next >= m_snapshot.rows.size();
    const qint64 id = m_snapshot.id;
    if (chunk.snapshotComplete)
        m_snapshot = SnapshotDelivery();
    emit snapshotChunk(chunk);
    if (!chunk.snapshotComplete) {
        // The next chunk on the next turn: queued work (pushes, poll replies) runs in between.
        QMetaObject::invokeMethod(this, [this, id] {
            if (m_snapshot.id == id)
                sendSnapshotChunk();
        }, Qt::QueuedConnection);
    } else if (!m_pending.isEmpty()) {
        armFlush(); // changes held during the delivery follow the complete chunk
    }
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
        if (m_batchTimer.isActive()) {
            m_batchTimer.stop();
            flushChanges();
        }
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

} // namespace Eddy::Monitor
