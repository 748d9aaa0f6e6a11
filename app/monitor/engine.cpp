#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/sharing.h"
#include "app/monitor/outcome.h"
#include "app/monitor/log.h"
#include "app/monitor/review.h"
#include "app/monitor/schemavalidator.h"
#include "app/monitor/streamedtasks.h"
#include "app/monitor/sweepexpander.h"

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
    , m_review(std::make_unique<Review>(*this))
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
    if (!m_sendingCases.isEmpty())
        return true;
    return std::any_of(m_caseQueue.cbegin(), m_caseQueue.cend(),
                       [](const QList<Store::CaseRecord> &q) { return !q.isEmpty(); });
}

bool Engine::isIdle() const
{
    if (!m_live.isEmpty() || !m_sendingCases.isEmpty() || m_answersInFlight > 0 || m_submissionsPending > 0
        || !m_caseAttempts.isEmpty() // a case waiting to be sent again after a failure
        || (m_sharing && m_sharing->followedCount() > 0)) // live tasks another process polls
        return false;
    // A paused sweep's unsent cases are nothing to do until it is resumed.
    for (auto it = m_caseQueue.cbegin(); it != m_caseQueue.cend(); ++it)
        if (!it->isEmpty() && !m_review->isPaused(it.key()))
            return false;
    return true;
}

qint64 Engine::requestsSent() const
{
    qint64 n = 0;
    for (const ServerLink *l : m_links)
        n += l->client ? l->client->requestsSent() : 0;
    return n;
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
    Net::initGlobal();
    m_http = new Net::HttpClient(this);
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
        enqueueCase(c);
    for (const Store::SweepRecord &s : m_store.sweeps())
        m_sweepConcurrency[s.id] = std::max(1, s.concurrency);
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
    for (ServerLink *l : std::as_const(m_links)) {
        delete l->listen.data();
        delete l->listenTimer;
        // Before the HTTP client: a client may end its session through it (best effort),
        // and a client left behind would hold a deleted HTTP client until the engine goes.
        delete l->client;
    }
    qDeleteAll(m_links);
    m_links.clear();
    // Retired clients (engineclients.cpp) still running a call: theirs end with them.
    qDeleteAll(findChildren<Mcp::Client *>(QString(), Qt::FindDirectChildrenOnly));
    m_byServerTaskId.clear();
    delete m_http;
    m_http = nullptr;
    m_inbox.reset();
    m_live.clear();
    m_sendingCases.clear();
    m_sweepSending.clear();
    m_caseQueue.clear();
    m_caseRounds.clear();
    m_caseAttempts.clear();
    m_caseWaits.clear(); // their retry timers find nothing
    m_wrongTask.clear();
    m_fieldWarned.clear();
    m_ttlWarned.clear();
    m_review->clear();
    m_scheduler = std::make_unique<PollScheduler>();
    m_sharing.reset(); // gives the leases back: another process takes over at once
    m_store.close();
}

// ---------------------------------------------------------------- servers

Engine::ServerLink *Engine::link(qint64 serverId)
{
    if (auto it = m_links.find(serverId); it != m_links.end())
        return *it;
    const auto rec = m_store.server(serverId);
    if (!rec || rec->retired || !m_http) // a removed server is never contacted again
        return nullptr;
    auto *l = new ServerLink;
    l->record = *rec;
    l->client = newClient(serverId, *rec);
    m_links.insert(serverId, l);
    return l;
}

void Engine::forgetOnClient(const Store::TaskRecord &task)
{
    if (const auto it = m_links.constFind(task.serverId); it != m_links.constEnd())
        (*it)->client->forgetTask(task.serverTaskId.toStdString());
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

void Engine::refreshServer(qint64 serverId)
{
    ServerLink *l = link(serverId);
    if (!l) {
        emit operationFailed(QStringLiteral("Unknown server %1.").arg(serverId));
        return;
    }
    Mcp::DiscoverJob *job = l->client->discover(true);
    connect(job, &Mcp::Job::finished, this, [this, job, serverId] {
        ServerLink *l = link(serverId);
        if (job->hasError()) {
            if (l)
                l->state = ServerState::Unreachable;
            emit serverStateChanged(serverId, ServerState::Unreachable, job->error().message(),
                                    job->error().isNotMcp());
            return;
        }
        const json d = discoveryToJson(job->info());
        m_store.setServerDiscovery(serverId, Mcp::eraToString(job->info().era), QString::fromStdString(d.dump()));
        if (l)
            l->state = ServerState::Online;
        emit serverStateChanged(serverId, ServerState::Online,
                                QStringLiteral("%1 %2").arg(job->info().serverName, job->info().serverVersion),
                                false);
        sendWaitingCases(serverId); // asked to look: what waits for it need not wait any longer
        withTools(serverId, [](const json &, const QString &) {});
    });
}

void Engine::withTools(qint64 serverId, std::function<void(const json &, const QString &)> then)
{
    ServerLink *l = link(serverId);
    if (!l) {
        then({}, QStringLiteral("Unknown server %1.").arg(serverId));
        return;
    }
    if (l->toolsFetched) {
        then(toolsToJson(l->client->tools()), {});
        return;
    }
    l->waitingForTools.push_back(std::move(then));
    if (l->fetchingTools)
        return;
    l->fetchingTools = true;
    Mcp::ToolsJob *job = l->client->listTools();
    connect(job, &Mcp::Job::finished, this, [this, job, serverId] {
        ServerLink *l = link(serverId);
        if (!l)
            return;
        l->fetchingTools = false;
        json tools;
        QString error;
        if (job->hasError()) {
            // Offline: fall back to the tools cached by an earlier run.
            const json cached = json::parse(l->record.tools.toStdString(), nullptr, false);
            if (!cached.is_discarded() && cached.is_array() && !cached.empty())
                tools = cached;
            else
                error = QStringLiteral("Cannot list the tools of %1: %2").arg(l->record.url, job->error().message());
            l->state = ServerState::Unreachable;
            emit serverStateChanged(serverId, ServerState::Unreachable, job->error().message(),
                                    job->error().isNotMcp());
        } else {
            l->toolsFetched = true;
            tools = toolsToJson(job->tools());
            l->record.tools = QString::fromStdString(tools.dump());
            m_store.setServerTools(serverId, l->record.tools);
            emit toolsChanged(serverId);
            serverAnswered(serverId, true);
        }
        auto waiting = std::move(l->waitingForTools);
        l->waitingForTools.clear();
        for (auto &w : waiting)
            w(tools, error);
    });
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
