#include "app/monitor/engine.h"
#include "app/monitor/outcome.h"
#include "app/monitor/log.h"
#include "app/monitor/schemavalidator.h"
#include "app/monitor/sharing.h"
#include "app/monitor/sweepexpander.h"

#include "app/mcp/client.h"
#include "app/mcp/tracecontext.h"
#include "app/net/httpclient.h"
#include "app/secret.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QUuid>

#include <chrono>

Q_LOGGING_CATEGORY(lcMonitor, "eddy.monitor")

namespace Eddy::Monitor {

using json = nlohmann::json;

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The server does not know the task (any more): -32602 on tasks/* whose message says so, the
// same in both eras ("Failed to retrieve task: Task not found", "... Task has expired", "Unknown
// task"). Any other -32602 on tasks/* (a malformed request, a gateway that rewrote it) says
// nothing about the task, which must not be given up for it.
bool isUnknownTask(const Mcp::Error &e)
{
    if (!e.isTaskGone())
        return false;
    const QString said = e.serverMessage().toLower();
    static const char *const phrases[] = {"not found", "expired", "unknown task", "no such task",
                                          "does not exist"};
    return std::any_of(std::begin(phrases), std::end(phrases),
                       [&said](const char *p) { return said.contains(QLatin1String(p)); });
}

// The message for a -32602 on tasks/* that is not the unknown-task error.
QString invalidParamsMessage(const Mcp::Error &e)
{
    return QStringLiteral("The server rejected %1 with -32602 (\"%2\") without saying the task is "
                          "unknown; the task is kept and polled again with backoff. If this goes "
                          "on, check the server's logs or any gateway between Eddy and the server.")
        .arg(e.method(), e.serverMessage().left(200));
}

Store::TaskStatus fromMcp(Mcp::TaskStatus s)
{
    switch (s) {
    case Mcp::TaskStatus::Working: return Store::TaskStatus::Working;
    case Mcp::TaskStatus::InputRequired: return Store::TaskStatus::InputRequired;
    case Mcp::TaskStatus::Completed: return Store::TaskStatus::Completed;
    case Mcp::TaskStatus::Failed: return Store::TaskStatus::Failed;
    case Mcp::TaskStatus::Cancelled: return Store::TaskStatus::Cancelled;
    }
    return Store::TaskStatus::Working;
}

QString isoTime(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString errorJson(const Mcp::Error &e)
{
    json j{{"message", e.message().toStdString()}};
    if (e.code() != 0)
        j["code"] = e.code();
    if (!e.data().is_null())
        j["data"] = e.data();
    return QString::fromStdString(j.dump());
}

// The inputSchema of the named tool, or null; *offered collects every tool name for the message.
json toolSchema(const json &tools, const QString &name, QStringList *offered)
{
    json schema;
    for (const json &t : tools) {
        const std::string toolName = t.value("name", std::string());
        offered->append(QString::fromStdString(toolName));
        if (toolName == name.toStdString())
            schema = t.value("inputSchema", json::object());
    }
    return schema;
}

json toolsToJson(const std::vector<Mcp::Tool> &tools)
{
    json out = json::array();
    for (const Mcp::Tool &t : tools) {
        json j{{"name", t.name.toStdString()}, {"inputSchema", t.inputSchema}};
        if (!t.title.isEmpty())
            j["title"] = t.title.toStdString();
        if (!t.description.isEmpty())
            j["description"] = t.description.toStdString();
        if (!t.annotations.is_null())
            j["annotations"] = t.annotations;
        out.push_back(std::move(j));
    }
    return out;
}

json discoveryToJson(const Mcp::DiscoverInfo &d)
{
    json versions = json::array();
    for (const QString &v : d.supportedVersions)
        versions.push_back(v.toStdString());
    return json{{"era", Mcp::eraToString(d.era).toStdString()},
                {"serverName", d.serverName.toStdString()},
                {"serverVersion", d.serverVersion.toStdString()},
                {"protocolVersion", d.protocolVersion.toStdString()},
                {"supportedVersions", versions},
                {"capabilities", d.capabilities},
                {"instructions", d.instructions.toStdString()},
                {"offersTasks", d.offersTasks()}};
}

void fillFromState(Store::TaskRecord &t, const Mcp::TaskState &st)
{
    t.status = fromMcp(st.status);
    if (st.statusMessage)
        t.statusMessage = *st.statusMessage;
    if (st.createdAt.isValid())
        t.createdAt = isoTime(st.createdAt);
    if (st.lastUpdatedAt.isValid())
        t.lastUpdatedAt = isoTime(st.lastUpdatedAt);
    t.ttlMs = st.ttlMs;
    if (st.pollIntervalMs)
        t.pollIntervalMs = st.pollIntervalMs;
    if (!st.result.is_null()) {
        t.result = QString::fromStdString(st.result.dump());
        t.isToolError = st.isToolError();
    }
    if (!st.error.is_null())
        t.error = QString::fromStdString(st.error.dump());
}

constexpr int s_singleCallConcurrency = 16;
// A `completed` reply without its result is asked again this many times (with backoff)
// before the task is stored completed with an error instead.
constexpr int s_noResultTries = 5;
constexpr qint64 s_noResultFirstDelayMs = 250;
// A 2025-era answer waits this many seconds (one try a second) for a poll to show its question
// in the server's current session.
constexpr int s_legacyAnswerTries = 60;

} // namespace

struct Engine::ServerLink
{
    Store::ServerRecord record;
    Mcp::Client *client = nullptr;
    bool toolsFetched = false;
    bool fetchingTools = false;
    std::vector<std::function<void(const json &, const QString &)>> waitingForTools;
    ServerState state = ServerState::Unknown;
    // Pushes only accelerate polling: one listen stream per server over its live tasks, reopened
    // (debounced) when that set grows; given up when the server cannot listen.
    QPointer<Mcp::Listen> listen;
    QTimer *listenTimer = nullptr;
    bool listenUnsupported = false;
    int listenFailures = 0;
    int listenPostponed = 0; // reopens put off while a sweep is being sent
};

Engine::Engine(QObject *parent) : QObject(parent), m_scheduler(std::make_unique<PollScheduler>())
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
    for (const auto &q : m_caseQueue)
        if (!q.isEmpty())
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

    // Reattach: every live task resumes polling (now, or when its stored next poll is due),
    // every journalled case that never got an answer is sent again with its key.
    const qint64 now = nowMs();
    for (const Store::TaskRecord &t : m_store.liveTasks())
        trackLive(t, std::max(now, std::min(t.nextPollAtMs, now + 1000)));
    for (const Store::CaseRecord &c : m_store.unsubmittedCases())
        enqueueCase(c);
    for (const Store::SweepRecord &s : m_store.sweeps())
        m_sweepConcurrency[s.id] = std::max(1, s.concurrency);
    qCInfo(lcMonitor, "opened with %d live task(s)", int(m_live.size()));
    emit opened(true, {});

    if (m_monitoring) {
        resumeAnswers();
        for (const Store::InputRequestRecord &r : m_inbox->pending()) {
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
    m_snapshot = SnapshotDelivery();
    if (m_batchTimer.isActive()) {
        m_batchTimer.stop();
        flushChanges();
    }
    for (ServerLink *l : std::as_const(m_links)) {
        delete l->listen.data();
        delete l->listenTimer;
        // Before the HTTP client: a 2025-era client ends its session through it (best effort),
        // and a client left behind would hold a deleted HTTP client until the engine goes.
        delete l->client;
    }
    qDeleteAll(m_links);
    m_links.clear();
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
    m_wrongTask.clear();
    m_fieldWarned.clear();
    m_ttlWarned.clear();
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
    if (!rec || !m_http)
        return nullptr;
    auto *l = new ServerLink;
    l->record = *rec;
    Mcp::ServerConfig config;
    config.url = QUrl(rec->url);
    config.token = rec->token;
    config.timeoutMs = m_requestTimeoutMs;
    config.lowSpeedBytesPerSec = m_lowSpeedBytesPerSec;
    config.lowSpeedWindowMs = m_lowSpeedWindowMs;
    l->client = new Mcp::Client(config, m_http, this);
    const Mcp::Era era = Mcp::eraFromString(rec->era);
    if (era != Mcp::Era::Unknown)
        l->client->setEra(era);
    connect(l->client, &Mcp::Client::eraDetected, this, [this, serverId](Mcp::Era detected) {
        if (auto r = m_store.server(serverId))
            m_store.setServerDiscovery(serverId, Mcp::eraToString(detected), r->discovery);
    });
    connect(l->client, &Mcp::Client::warning, this, [](const QString &message) {
        qCWarning(lcMonitor) << message;
    });
    m_links.insert(serverId, l);
    return l;
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
        if (!token.isEmpty() && token != existing->token) {
            existing->token = token;
            m_store.updateServer(*existing);
            if (auto it = m_links.find(existing->id); it != m_links.end()) {
                // The client holds the old token: rebuild it on next use.
                (*it)->client->deleteLater();
                delete *it;
                m_links.erase(it);
            }
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
    return *id;
}

bool Engine::updateServer(const Store::ServerRecord &server)
{
    if (!m_store.updateServer(server)) {
        emit operationFailed(m_store.lastError());
        return false;
    }
    if (auto it = m_links.find(server.id); it != m_links.end()) {
        (*it)->client->deleteLater();
        delete *it;
        m_links.erase(it);
    }
    return true;
}

bool Engine::removeServer(qint64 serverId)
{
    if (!m_store.removeServer(serverId)) {
        emit operationFailed(m_store.lastError());
        return false;
    }
    if (auto it = m_links.find(serverId); it != m_links.end()) {
        (*it)->client->deleteLater();
        delete *it;
        m_links.erase(it);
    }
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
            emit serverStateChanged(serverId, ServerState::Unreachable, job->error().message());
            return;
        }
        const json d = discoveryToJson(job->info());
        m_store.setServerDiscovery(serverId, Mcp::eraToString(job->info().era), QString::fromStdString(d.dump()));
        if (l)
            l->state = ServerState::Online;
        emit serverStateChanged(serverId, ServerState::Online,
                                QStringLiteral("%1 %2").arg(job->info().serverName, job->info().serverVersion));
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
            emit serverStateChanged(serverId, ServerState::Unreachable, job->error().message());
        } else {
            l->toolsFetched = true;
            tools = toolsToJson(job->tools());
            l->record.tools = QString::fromStdString(tools.dump());
            m_store.setServerTools(serverId, l->record.tools);
            emit toolsChanged(serverId);
        }
        auto waiting = std::move(l->waitingForTools);
        l->waitingForTools.clear();
        for (auto &w : waiting)
            w(tools, error);
    });
}

// ---------------------------------------------------------------- submission

void Engine::submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId)
{
    QString error;
    const auto spec = SweepSpec::fromText(specJson, &error);
    if (!spec) {
        emit submissionRejected(error);
        return;
    }
    ++m_submissionsPending;
    withTools(serverId, [this, serverId, spec = *spec, sessionId](const json &tools, const QString &error) {
        --m_submissionsPending;
        if (!error.isEmpty()) {
            emit submissionRejected(error);
            checkIdle();
            return;
        }
        QStringList names;
        const json schema = toolSchema(tools, spec.tool, &names);
        if (schema.is_null()) {
            emit submissionRejected(QStringLiteral("The server has no tool \"%1\" (it offers: %2).")
                                        .arg(spec.tool, names.join(QStringLiteral(", "))));
            checkIdle();
            return;
        }
        QStringList problems;
        auto cases = SweepExpander::expand(spec, schema, &problems);
        if (!cases) {
            emit submissionRejected(QStringLiteral("The sweep was not submitted: %1")
                                        .arg(problems.join(QStringLiteral("; "))));
            checkIdle();
            return;
        }
        startSubmission(serverId, spec.tool, std::move(*cases), schema, spec.raw, spec.concurrency,
                        sessionId, false);
    });
}

void Engine::callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                      std::optional<qint64> sessionId, std::optional<qint64> parentCaseId)
{
    const json args = json::parse(argumentsJson.constBegin(), argumentsJson.constEnd(), nullptr, false);
    if (args.is_discarded() || !args.is_object()) {
        emit submissionRejected(QStringLiteral("The arguments must be a JSON object, e.g. {\"reynolds\": 100}."));
        return;
    }
    ++m_submissionsPending;
    withTools(serverId, [this, serverId, tool, args, sessionId, parentCaseId](const json &tools, const QString &error) {
        --m_submissionsPending;
        if (!error.isEmpty()) {
            emit submissionRejected(error);
            checkIdle();
            return;
        }
        QStringList names;
        const json schema = toolSchema(tools, tool, &names);
        if (schema.is_null()) {
            emit submissionRejected(QStringLiteral("The server has no tool \"%1\" (it offers: %2).")
                                        .arg(tool, names.join(QStringLiteral(", "))));
            checkIdle();
            return;
        }
        json probe = args;
        const bool takesKey = schema.value("properties", json::object()).contains("idempotency_key");
        if (takesKey && !probe.contains("idempotency_key"))
            probe["idempotency_key"] = "eddy-key-check";
        // MCP reads a null argument as one not given (its x-mcp-header is omitted): the server
        // decides what it means, so only a required one is refused here. It is sent as typed.
        const json required = schema.value("required", json::array());
        if (args.is_object() && required.is_array())
            for (const auto &[name, value] : args.items())
                if (value.is_null()
                    && std::find(required.begin(), required.end(), json(name)) == required.end())
                    probe.erase(name);
        const QStringList problems = SchemaValidator::validate(probe, schema);
        if (!problems.isEmpty()) {
            emit submissionRejected(QStringLiteral("The call was not sent: %1").arg(problems.join(QStringLiteral("; "))));
            checkIdle();
            return;
        }
        startSubmission(serverId, tool, {args}, schema, json(), s_singleCallConcurrency, sessionId, true,
                        parentCaseId);
    });
}

void Engine::startSubmission(qint64 serverId, const QString &tool, std::vector<json> caseArgs,
                             const json &inputSchema, const json &specRaw, int concurrency,
                             std::optional<qint64> sessionId, bool single,
                             std::optional<qint64> parentCaseId)
{
    const bool takesKey = inputSchema.value("properties", json::object()).contains("idempotency_key");
    QList<Store::CaseRecord> cases;
    cases.reserve(qsizetype(caseArgs.size()));
    int index = 0;
    for (json &args : caseArgs) {
        Store::CaseRecord c;
        c.serverId = serverId;
        c.index = index++;
        c.tool = tool;
        // Journalled before anything is sent: the same key goes out on every retry, so the
        // server can hand back the task it already made.
        c.idempotencyKey = args.contains("idempotency_key") && args["idempotency_key"].is_string()
                               ? QString::fromStdString(args["idempotency_key"].get<std::string>())
                               : QStringLiteral("eddy-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
        if (takesKey)
            args["idempotency_key"] = c.idempotencyKey.toStdString();
        c.arguments = QString::fromStdString(args.dump());
        c.traceparent = QString::fromLatin1(Mcp::TraceContext::create().newTraceparent());
        cases << c;
    }
    if (single) {
        Store::CaseRecord &c = cases.first();
        c.parentCaseId = parentCaseId;
        // A re-run (the parent's arguments unchanged) is a new attempt of the same design point:
        // it joins the parent's sweep at the parent's case index. Edited arguments are a new
        // point of their own and stay a single call.
        if (parentCaseId) {
            if (const auto parent = m_store.caseRecord(*parentCaseId); parent && parent->sweepId) {
                json mine = json::parse(c.arguments.toStdString(), nullptr, false);
                json theirs = json::parse(parent->arguments.toStdString(), nullptr, false);
                if (mine.is_object() && theirs.is_object()) {
                    mine.erase("idempotency_key");
                    theirs.erase("idempotency_key");
                    if (mine == theirs) {
                        c.sweepId = parent->sweepId;
                        c.index = parent->index;
                    }
                }
            }
        }
        if (!m_store.journalCase(c)) {
            emit submissionRejected(m_store.lastError());
            checkIdle();
            return;
        }
        if (sessionId)
            m_pendingSessionForCase.insert(c.id, *sessionId);
        enqueueCase(c);
        emit callJournalled(c.id);
    } else {
        Store::SweepRecord sweep;
        sweep.serverId = serverId;
        sweep.sessionId = sessionId;
        sweep.tool = tool;
        sweep.spec = QString::fromStdString(specRaw.dump());
        sweep.concurrency = concurrency;
        if (!m_store.journalSweep(sweep, cases)) {
            emit submissionRejected(m_store.lastError());
            checkIdle();
            return;
        }
        m_sweepConcurrency[sweep.id] = std::max(1, concurrency);
        for (const Store::CaseRecord &c : std::as_const(cases))
            enqueueCase(c);
        emit sweepSubmitted(sweep.id, int(cases.size()));
    }
    pumpSubmissions();
}

void Engine::enqueueCase(const Store::CaseRecord &c)
{
    m_caseQueue[c.sweepId.value_or(0)].append(c);
}

void Engine::pumpSubmissions()
{
    if (!m_monitoring || !isOpen())
        return;
    for (auto it = m_caseQueue.begin(); it != m_caseQueue.end(); ++it) {
        const qint64 sweepKey = it.key();
        const int limit = sweepKey == 0 ? s_singleCallConcurrency : m_sweepConcurrency.value(sweepKey, 4);
        QList<Store::CaseRecord> &queue = it.value();
        while (!queue.isEmpty() && m_sweepSending.value(sweepKey) < limit) {
            const Store::CaseRecord c = queue.takeFirst();
            sendCase(c);
        }
    }
}

void Engine::sendCase(const Store::CaseRecord &c)
{
    const qint64 sweepKey = c.sweepId.value_or(0);
    ServerLink *l = link(c.serverId);
    if (!l) {
        m_store.markCaseRejected(c.id, QStringLiteral("{\"message\":\"unknown server\"}"));
        emit caseRejected(c.id, QStringLiteral("The case's server is no longer configured."));
        return;
    }
    m_store.markCaseSent(c.id);
    m_sendingCases.insert(c.id);
    ++m_sweepSending[sweepKey];
    // A round trip journalled before a restart: resumed with the server's requestState once
    // every question of the round has an answer (asked again first when some has none).
    const json journal = c.pendingInput.isEmpty()
                             ? json()
                             : json::parse(c.pendingInput.toStdString(), nullptr, false);
    if (journal.is_object() && journal.value("inputRequests", json()).is_object()
        && !journal["inputRequests"].empty()) {
        CaseRound &round = m_caseRounds[c.id];
        round.c = c;
        round.inputRequests = journal["inputRequests"];
        round.requestState = journal.value("requestState", json());
        round.answers = journal.value("answers", json::object());
        if (!round.answers.is_object())
            round.answers = json::object();
        bool complete = true;
        for (auto it = round.inputRequests.begin(); it != round.inputRequests.end(); ++it)
            complete = complete && round.answers.contains(it.key());
        if (complete) {
            startCall(c, true);
            return;
        }
        qCInfo(lcMonitor, "case %lld: the server's question before starting is still open; "
                          "asking it again", c.id);
        round.reply = [this, id = c.id](json) {
            const auto it = m_caseRounds.constFind(id);
            if (it != m_caseRounds.constEnd() && isOpen())
                startCall(it->c, true);
        };
        askCase(c.id);
        return;
    }
    startCall(c, false);
}

void Engine::startCall(const Store::CaseRecord &c, bool resumed)
{
    ServerLink *l = link(c.serverId);
    if (!l) {
        m_sendingCases.remove(c.id);
        --m_sweepSending[c.sweepId.value_or(0)];
        m_store.markCaseRejected(c.id, QStringLiteral("{\"message\":\"unknown server\"}"));
        emit caseRejected(c.id, QStringLiteral("The case's server is no longer configured."));
        return;
    }
    const json args = json::parse(c.arguments.toStdString(), nullptr, false);
    Mcp::CallOptions options;
    const auto trace = Mcp::TraceContext::fromTraceparent(c.traceparent.toLatin1());
    options.traceparent = trace.isValid() ? trace.newTraceparent() : QByteArray();
    if (resumed) {
        const CaseRound &round = m_caseRounds[c.id];
        options.resumeRequestState = round.requestState;
        json responses = json::object();
        for (auto it = round.inputRequests.begin(); it != round.inputRequests.end(); ++it)
            if (round.answers.contains(it.key()))
                responses[it.key()] = round.answers[it.key()];
        options.resumeInputResponses = std::move(responses);
    }
    const qint64 caseId = c.id;
    // Multi round trip before any task exists: each round is journalled with the case, then its
    // questions go to whoever answers them (the inbox, eddyctl, the agent, --answers).
    options.onInputRequired = [this, c](const json &requestState, const json &inputRequests) {
        CaseRound &round = m_caseRounds[c.id];
        round.c = c;
        round.requestState = requestState;
        round.inputRequests = inputRequests.is_object() ? inputRequests : json::object();
        round.answers = json::object();
        round.reply = nullptr;
        journalCaseQuestion(c.id);
    };
    options.inputHandler = [this, caseId](const json &, Mcp::CallOptions::Reply reply) {
        auto it = m_caseRounds.find(caseId);
        if (it == m_caseRounds.end())
            return;
        it->reply = std::move(reply);
        askCase(caseId);
    };
    Mcp::CallJob *job = l->client->callTool(c.tool, args.is_discarded() ? json::object() : args, options);
    connect(job, &Mcp::Job::finished, this, [this, job, c, resumed] { callFinished(c, job, resumed); });
}

void Engine::callFinished(const Store::CaseRecord &c, Mcp::CallJob *job, bool resumed)
{
    const qint64 sweepKey = c.sweepId.value_or(0);
    m_sendingCases.remove(c.id);
    --m_sweepSending[sweepKey];
    const qint64 now = nowMs();
    if (job->hasError() || job->kind() == Mcp::CallJob::Kind::Error) {
        const Mcp::Error e = job->error();
        if (e.isTransient() || e.kind() == Mcp::Error::Kind::Aborted) {
            retryCase(c, e);
        } else if (resumed && m_caseRounds.contains(c.id)) {
            // The server would not take a round trip resumed from the journal (its requestState
            // may have expired): start the call afresh, once, with the same idempotency key.
            qCWarning(lcMonitor, "case %lld: the resumed round trip was refused (%s); sending the "
                                 "call afresh", c.id, qPrintable(e.message()));
            m_caseRounds.remove(c.id);
            m_store.setCasePendingInput(c.id, {});
            Store::CaseRecord fresh = c;
            fresh.pendingInput.clear();
            enqueueCase(fresh);
        } else {
            m_caseRounds.remove(c.id);
            m_caseAttempts.remove(c.id);
            m_store.setCasePendingInput(c.id, {});
            m_store.markCaseRejected(c.id, errorJson(e));
            emit caseRejected(c.id, e.message());
        }
        pumpSubmissions();
        checkIdle();
        return;
    }
    m_caseAttempts.remove(c.id);
    if (m_caseRounds.remove(c.id) > 0 || !c.pendingInput.isEmpty())
        m_store.setCasePendingInput(c.id, {});
    Store::TaskRecord t;
    t.serverId = c.serverId;
    t.sweepId = c.sweepId;
    t.tool = c.tool;
    t.arguments = c.arguments;
    t.traceparent = c.traceparent;
    t.firstSeenAtMs = now;
    if (job->kind() == Mcp::CallJob::Kind::Task) {
        const Mcp::TaskState &st = job->task();
        t.serverTaskId = QString::fromStdString(st.taskId);
        fillFromState(t, st);
        for (const QString &w : st.warnings)
            qCWarning(lcMonitor, "case %lld: %s", c.id, qPrintable(w));
        t.nextPollAtMs = now + m_scheduler->clampedInterval(t.pollIntervalMs);
    } else {
        t.status = Store::TaskStatus::Completed;
        t.result = QString::fromStdString(job->callResult().dump());
        t.isToolError = job->isToolError();
        t.finishedAtMs = now;
    }
    const auto id = m_store.recordTaskForCase(c.id, t);
    if (!id) {
        qCWarning(lcMonitor) << "cannot store a task handle:" << m_store.lastError();
        emit operationFailed(m_store.lastError());
        pumpSubmissions();
        checkIdle();
        return;
    }
    if (auto sess = m_pendingSessionForCase.take(c.id))
        m_store.attachTask(sess, *id);
    if (auto stored = m_store.task(*id))
        t = *stored;
    emit caseSubmitted(c.id, t.id);
    queueChange(t);
    if (t.isLive()) {
        trackLive(t, t.nextPollAtMs);
    } else if (!t.serverTaskId.isEmpty() && t.result.isEmpty() && t.error.isEmpty()) {
        // A terminal seed carries no payload: fetch it once.
        trackLive(t, now);
    } else {
        emit taskFinished(t);
    }
    pumpSubmissions();
    armPollTimer();
    checkIdle();
}

void Engine::retryCase(const Store::CaseRecord &c, const Mcp::Error &e)
{
    // Not answered: try again later with the same key (the server dedups), with backoff and a
    // message per attempt; after the last one the case stays journalled for a later run.
    const int attempt = ++m_caseAttempts[c.id];
    if (attempt > m_caseRetryLimit) {
        m_caseAttempts.remove(c.id);
        const QString message =
            QStringLiteral("The call of %1 (case %2) got no answer after %3 attempts; the last "
                           "error: %4 It is kept unsent: run eddyctl watch (or reopen Eddy) to "
                           "send it again with the same idempotency key.")
                .arg(c.tool).arg(c.id).arg(attempt).arg(e.message());
        qCWarning(lcMonitor).noquote() << message;
        emit caseDeferred(c.id, message);
        return;
    }
    QString why = e.message();
    while (why.endsWith(QLatin1Char('.')))
        why.chop(1);
    const qint64 backoff = m_caseRetryBaseMs << std::min(attempt - 1, 16);
    const qint64 delay = std::min<qint64>(std::max<qint64>(e.retryAfterMs(), backoff), 60000);
    const QString message = QStringLiteral("%1; retry %2 of %3 in %4 s (re-sent with the same "
                                           "idempotency key)")
                                .arg(why)
                                .arg(attempt)
                                .arg(m_caseRetryLimit)
                                .arg(double(delay) / 1000.0, 0, 'g', 3);
    qCWarning(lcMonitor, "case %lld: %s", c.id, qPrintable(message));
    emit caseRetrying(c.id, attempt, m_caseRetryLimit, delay, message);
    QTimer::singleShot(int(delay), this, [this, c] {
        if (!isOpen())
            return;
        Store::CaseRecord again = c;
        if (auto stored = m_store.caseRecord(c.id))
            again.pendingInput = stored->pendingInput;
        enqueueCase(again);
        pumpSubmissions();
    });
}

void Engine::journalCaseQuestion(qint64 caseId)
{
    const auto it = m_caseRounds.constFind(caseId);
    if (it == m_caseRounds.constEnd())
        return;
    const json journal{{"requestState", it->requestState},
                       {"inputRequests", it->inputRequests},
                       {"answers", it->answers}};
    if (!m_store.setCasePendingInput(caseId, QString::fromStdString(journal.dump())))
        qCWarning(lcMonitor) << "cannot journal the question of case" << caseId << ":" << m_store.lastError();
}

QList<Engine::CaseQuestion> Engine::pendingCaseQuestions() const
{
    QList<CaseQuestion> out;
    for (auto it = m_caseRounds.cbegin(); it != m_caseRounds.cend(); ++it) {
        if (!it->reply)
            continue;
        for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q) {
            if (it->answers.contains(q.key()))
                continue;
            out << CaseQuestion{it.key(), it->c.tool, it->c.arguments, QString::fromStdString(q.key()),
                                QString::fromStdString(q.value().dump())};
        }
    }
    return out;
}

void Engine::askCase(qint64 caseId)
{
    const auto it = m_caseRounds.constFind(caseId);
    if (it == m_caseRounds.constEnd())
        return;
    const CaseRound round = *it; // signals may answer (and change the round) at once
    for (auto q = round.inputRequests.begin(); q != round.inputRequests.end(); ++q) {
        if (round.answers.contains(q.key()))
            continue;
        const CaseQuestion question{caseId, round.c.tool, round.c.arguments,
                                    QString::fromStdString(q.key()),
                                    QString::fromStdString(q.value().dump())};
        qCInfo(lcMonitor, "case %lld (%s) asks \"%s\" before starting", caseId,
               qPrintable(round.c.tool), qPrintable(question.key));
        emit caseInputRequested(question);
        autoAnswerCase(question);
    }
}

void Engine::autoAnswerCase(const CaseQuestion &question)
{
    if (!m_autoAnswers)
        return;
    const json req = json::parse(question.request.toStdString(), nullptr, false);
    QString error;
    const json answer = InputInbox::answerFromValues(req, *m_autoAnswers, &error);
    if (answer.is_null()) {
        emit operationFailed(QStringLiteral("The call of %1 (case %2), question \"%3\": %4")
                                 .arg(question.tool).arg(question.caseId).arg(question.key, error));
        return;
    }
    answerCaseInput(question.caseId, question.key, QByteArray::fromStdString(answer.dump()));
}

void Engine::answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson)
{
    const json answer = json::parse(elicitResultJson.constBegin(), elicitResultJson.constEnd(), nullptr, false);
    if (answer.is_discarded() || !answer.is_object()) {
        emit caseInputAnswered(caseId, key, false,
                               QStringLiteral("The answer is not a JSON object; give one like "
                                              "{\"action\": \"accept\", \"content\": {...}}."));
        return;
    }
    auto it = m_caseRounds.find(caseId);
    const std::string k = key.toStdString();
    if (it == m_caseRounds.end() || !it->reply || !it->inputRequests.contains(k)) {
        emit caseInputAnswered(caseId, key, false,
                               QStringLiteral("Case %1 has no open question \"%2\".").arg(caseId).arg(key));
        return;
    }
    if (it->answers.contains(k)) {
        emit caseInputAnswered(caseId, key, false,
                               QStringLiteral("The question \"%1\" of case %2 is answered already.")
                                   .arg(key).arg(caseId));
        return;
    }
    it->answers[k] = answer;
    journalCaseQuestion(caseId); // before anything is sent: a crash resumes from here
    emit caseInputAnswered(caseId, key, true, {});
    it = m_caseRounds.find(caseId);
    if (it == m_caseRounds.end() || !it->reply)
        return;
    for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q)
        if (!it->answers.contains(q.key()))
            return;
    json responses = json::object();
    for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q)
        responses[q.key()] = it->answers[q.key()];
    const auto reply = std::move(it->reply);
    it->reply = nullptr;
    reply(std::move(responses));
}

// ---------------------------------------------------------------- polling

void Engine::trackLive(const Store::TaskRecord &task, std::optional<qint64> dueAtMs)
{
    if (task.serverTaskId.isEmpty())
        return;
    if (m_monitoring && m_sharing && !m_sharing->claimTask(task))
        return; // another process polls it; its changes come through the database
    m_live.insert(task.id, task);
    m_byServerTaskId.insert(task.serverTaskId, task.id);
    m_scheduler->add(task.id, task.serverId, task.pollIntervalMs, dueAtMs);
    scheduleListen(task.serverId);
}

void Engine::scheduleListen(qint64 serverId)
{
    if (!m_monitoring)
        return;
    ServerLink *l = link(serverId);
    if (!l || l->listenUnsupported)
        return;
    if (!l->listenTimer) {
        l->listenTimer = new QTimer(this);
        l->listenTimer->setSingleShot(true);
        connect(l->listenTimer, &QTimer::timeout, this, [this, serverId] { startListen(serverId); });
    }
    // The first stream opens on the next turn (a task that ends within a second is pushed too);
    // while one is open, a burst of new tasks is gathered into one reopened stream.
    if (!l->listenTimer->isActive())
        l->listenTimer->start(l->listen ? 1000 : 0);
}

void Engine::startListen(qint64 serverId)
{
    ServerLink *l = link(serverId);
    if (!l || !m_monitoring || !isOpen())
        return;
    // A reopened stream makes the server repeat the state of every task it carries, and every
    // queued task's position has moved since: each second of a 1,000-case submission would
    // store the whole set again. While cases are still being sent, new tasks are polled and the
    // stream is reopened once the burst is over (or after 10 s).
    if (l->listen && l->listenPostponed < 10 && isSubmitting()) {
        ++l->listenPostponed;
        l->listenTimer->start(1000);
        return;
    }
    l->listenPostponed = 0;
    std::vector<std::string> ids;
    for (const Store::TaskRecord &t : std::as_const(m_live))
        if (t.serverId == serverId)
            ids.push_back(t.serverTaskId.toStdString());
    if (l->listen) {
        Mcp::Listen *old = l->listen.data();
        l->listen.clear();
        old->disconnect(this);
        old->deleteLater(); // closes the stream
    }
    if (ids.empty())
        return;
    Mcp::Listen *listen = l->client->listen(std::move(ids));
    listen->setParent(this);
    l->listen = listen;
    connect(listen, &Mcp::Listen::taskNotification, this, [this](const Mcp::TaskState &state) {
        const auto it = m_byServerTaskId.constFind(QString::fromStdString(state.taskId));
        if (it == m_byServerTaskId.constEnd())
            return;
        ++m_pushes;
        applyState(*it, state, true);
        armPollTimer();
        checkIdle();
    });
    connect(listen, &Mcp::Listen::acknowledged, this, [l](const std::vector<std::string> &) {
        l->listenFailures = 0;
    });
    connect(listen, &Mcp::Listen::closed, this, [this, serverId, listen](const Mcp::Error &error) {
        ServerLink *l = link(serverId);
        if (!l || l->listen != listen)
            return;
        l->listen.clear();
        listen->deleteLater();
        if (error.kind() == Mcp::Error::Kind::Aborted)
            return;
        // A server without listen (legacy era, method not found) is polled only; a dropped
        // stream is reopened after a pause, since the server keeps no subscription state.
        if (error.kind() == Mcp::Error::Kind::Protocol || error.code() == Mcp::ErrorCode::MethodNotFound
            || ++l->listenFailures > 5) {
            l->listenUnsupported = true;
            qCInfo(lcMonitor) << "no task pushes from this server; polling only:" << error.message();
            return;
        }
        QTimer::singleShot(2000 * l->listenFailures, this, [this, serverId] { scheduleListen(serverId); });
    });
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
    for (qint64 id : due)
        poll(id);
    armPollTimer();
}

void Engine::poll(qint64 taskId)
{
    const auto it = m_live.constFind(taskId);
    if (it == m_live.constEnd()) {
        m_scheduler->remove(taskId);
        return;
    }
    ServerLink *l = link(it->serverId);
    if (!l) {
        m_scheduler->remove(taskId);
        return;
    }
    const auto trace = Mcp::TraceContext::fromTraceparent(it->traceparent.toLatin1());
    Mcp::TaskJob *job = l->client->getTask(it->serverTaskId.toStdString(),
                                           trace.isValid() ? trace.newTraceparent() : QByteArray());
    const qint64 serverId = it->serverId;
    connect(job, &Mcp::Job::finished, this, [this, job, taskId, serverId] {
        if (!m_live.contains(taskId)) {
            m_scheduler->remove(taskId);
            armPollTimer();
            return;
        }
        if (job->hasError()) {
            const Mcp::Error e = job->error();
            if (isUnknownTask(e)) {
                markGone(taskId, e.message());
            } else if (e.kind() == Mcp::Error::Kind::Protocol
                       && e.message().contains(QLatin1String("about another task"))) {
                wrongTaskAnswer(taskId, e);
            } else {
                const bool badParams = e.isTaskGone();
                const QString message = badParams ? invalidParamsMessage(e) : e.message();
                if (badParams)
                    qCWarning(lcMonitor, "task %lld: %s", taskId, qPrintable(message));
                m_scheduler->failed(taskId, e.retryAfterMs());
                ServerLink *l = link(serverId);
                if (l && l->state != ServerState::BackingOff) {
                    l->state = ServerState::BackingOff;
                    emit serverStateChanged(serverId, ServerState::BackingOff, message);
                }
            }
        } else {
            ServerLink *l = link(serverId);
            if (l && l->state != ServerState::Online) {
                l->state = ServerState::Online;
                emit serverStateChanged(serverId, ServerState::Online, {});
            }
            m_wrongTask.remove(taskId);
            applyState(taskId, job->state());
        }
        armPollTimer();
        checkIdle();
    });
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
        fresh = isLegacyServer(t.serverId)
                    ? m_inbox->observe(taskId, legacyQuestionKeys(taskId, state.inputRequests))
                    : m_inbox->observe(taskId, state.inputRequests);
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
        queueChange(t);
        m_pending.samples << samples;
    }
    for (const Store::InputRequestRecord &r : std::as_const(fresh)) {
        m_pending.inputs << r;
        armFlush();
        emit inputRequested(r);
        autoAnswer(r);
    }
    if (terminal) {
        qCDebug(lcMonitor, "task %lld ended by %s", taskId, fromPush ? "push" : "poll");
        const Store::TaskRecord done = t;
        m_byServerTaskId.remove(done.serverTaskId);
        m_live.erase(it);
        m_scheduler->remove(taskId);
        m_ttlWarned.remove(taskId);
        m_noResultTries.remove(taskId);
        m_wrongTask.remove(taskId);
        m_fieldWarned.remove(taskId);
        m_legacyKeys.remove(taskId);
        m_lastX.remove(taskId);
        qCInfo(lcMonitor, "task %lld finished: %s", taskId, qPrintable(Store::toText(done.status)));
        emit taskFinished(done);
    }
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

void Engine::wrongTaskAnswer(qint64 taskId, const Mcp::Error &e)
{
    // Never this task's state: a protocol error for this poll, counted, polled again with
    // backoff; after a bounded number in a row the task is given up with a message.
    const int count = ++m_wrongTask[taskId];
    const auto it = m_live.constFind(taskId);
    const QString redacted = it == m_live.constEnd() ? QString() : redactSecret(it->serverTaskId);
    qCWarning(lcMonitor, "task %lld (%s): tasks/get answered about another task (%d of %d): %s",
              taskId, qPrintable(redacted), count, m_wrongTaskLimit, qPrintable(e.message()));
    if (count < m_wrongTaskLimit) {
        m_scheduler->failed(taskId, e.retryAfterMs());
        return;
    }
    m_wrongTask.remove(taskId);
    markGone(taskId, QStringLiteral("the server is unreliable: %1 answers in a row to tasks/get "
                                    "were about another task; Eddy stopped polling it. Check the "
                                    "server or any gateway in front of it").arg(count),
             true);
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
    m_byServerTaskId.remove(t.serverTaskId);
    m_legacyKeys.remove(taskId);
    m_live.erase(it);
    m_scheduler->remove(taskId);
    queueChange(t);
    qCWarning(lcMonitor, "task %lld is %s", taskId, qPrintable(Store::toText(t.status)));
    emit taskFinished(t);
}

// ---------------------------------------------------------------- cancel and answers

void Engine::cancelTasks(const QList<qint64> &taskIds)
{
    for (qint64 id : taskIds) {
        auto t = m_store.task(id);
        if (!t) {
            emit operationFailed(QStringLiteral("There is no task %1; list tasks with eddyctl tasks.").arg(id));
            continue;
        }
        if (!t->isLive() || t->serverTaskId.isEmpty()) {
            const QString msg = QStringLiteral("Task %1 has already ended (%2); nothing to cancel.")
                                    .arg(id).arg(Store::toText(t->status));
            emit operationFailed(msg);
            emit cancelSent(id, false, msg);
            continue;
        }
        m_store.setCancelRequested(id);
        t->cancelRequested = true;
        if (auto live = m_live.find(id); live != m_live.end())
            live->cancelRequested = true;
        queueChange(*t);
        ServerLink *l = link(t->serverId);
        if (!l) {
            emit cancelSent(id, false, QStringLiteral("The task's server is not configured."));
            continue;
        }
        ++m_answersInFlight;
        Mcp::AckJob *job = l->client->cancelTask(t->serverTaskId.toStdString());
        connect(job, &Mcp::Job::finished, this, [this, job, id] {
            --m_answersInFlight;
            const bool ok = !job->hasError();
            const QString msg = ok ? QString()
                                   : QStringLiteral("Cancelling task %1 failed: %2").arg(id).arg(job->error().message());
            if (!ok)
                emit operationFailed(msg);
            emit cancelSent(id, ok, msg);
            m_scheduler->pollSoon(id);
            armPollTimer();
            checkIdle();
        });
    }
}

void Engine::answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                         const QString &answeredBy)
{
    const json answer = json::parse(elicitResultJson.constBegin(), elicitResultJson.constEnd(), nullptr, false);
    QString error;
    if (answer.is_discarded()) {
        emit inputAnswered(taskId, key, false, QStringLiteral("The answer is not valid JSON; give an object like "
                                                              "{\"action\": \"accept\", \"content\": {...}}."));
        return;
    }
    const auto t = m_store.task(taskId);
    if (!t || !t->isLive()) {
        emit inputAnswered(taskId, key, false, t ? QStringLiteral("Task %1 has already ended.").arg(taskId)
                                                 : QStringLiteral("There is no task %1.").arg(taskId));
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
    // Sent again shortly, still "answering": after a transient failure, or (2025 era) until a
    // poll has seen the question in the server's current session.
    const auto retry = [this, taskId, key, answer, attempt](qint64 delayMs) {
        QTimer::singleShot(int(std::clamp<qint64>(delayMs, 1000, 30000)), this, [this, taskId, key, answer, attempt] {
            if (isOpen())
                sendAnswer(taskId, key, answer, attempt + 1);
        });
    };
    std::string sendKey = key.toStdString();
    const bool legacy = isLegacyServer(t->serverId);
    if (legacy) {
        // The 2025 era asks through request ids of the server's session: a restarted server asks
        // the same question again under a new id, which only a poll of the task brings.
        const QString current = m_legacyKeys.value(taskId).value(key);
        if (current.isEmpty()) {
            if (attempt >= s_legacyAnswerTries) {
                m_inbox->answerSent(taskId, key, false);
                emit inputAnswered(taskId, key, false,
                                   QStringLiteral("The server no longer asks this question of task %1; "
                                                  "answer the question it asks now.").arg(taskId));
                return;
            }
            m_scheduler->pollSoon(taskId);
            armPollTimer();
            retry(1000);
            return;
        }
        sendKey = current.toStdString();
    }
    ++m_answersInFlight;
    const auto trace = Mcp::TraceContext::fromTraceparent(t->traceparent.toLatin1());
    Mcp::AckJob *job = l->client->updateTask(t->serverTaskId.toStdString(), json{{sendKey, answer}},
                                             trace.isValid() ? trace.newTraceparent() : QByteArray());
    connect(job, &Mcp::Job::finished, this, [this, job, taskId, key, legacy, attempt, retry] {
        --m_answersInFlight;
        if (job->hasError()) {
            const Mcp::Error e = job->error();
            if (e.isTransient()) {
                retry(e.retryAfterMs()); // the same answer again shortly
            } else if (legacy && e.kind() == Mcp::Error::Kind::Protocol && attempt < s_legacyAnswerTries) {
                // The session ended between the poll and the answer: wait for the question's
                // new id.
                m_legacyKeys.remove(taskId);
                m_scheduler->pollSoon(taskId);
                armPollTimer();
                retry(1000);
            } else {
                m_inbox->answerSent(taskId, key, false);
                emit inputAnswered(taskId, key, false, e.message());
            }
        } else {
            m_inbox->answerSent(taskId, key, true);
            emit inputAnswered(taskId, key, true, {});
            m_scheduler->pollSoon(taskId);
            armPollTimer();
        }
        checkIdle();
    });
}

bool Engine::isLegacyServer(qint64 serverId)
{
    ServerLink *l = link(serverId);
    return l && l->client->era() == Mcp::Era::Legacy;
}

json Engine::legacyQuestionKeys(qint64 taskId, const json &inputRequests)
{
    // A 2025-era client keys a question by the server's request id, which a restarted server
    // hands out again from 1: the inbox keys it instead by what is asked (method and params) and
    // how many times the task was already asked exactly that, so the question the user sees keeps
    // its key across restarts and a new question never takes an answered one's.
    json out = json::object();
    QHash<QString, QString> &current = m_legacyKeys[taskId];
    current.clear();
    if (!inputRequests.is_object())
        return out;
    const QList<Store::InputRequestRecord> known = m_store.inputRequests(taskId);
    QSet<QString> taken;
    for (auto it = inputRequests.begin(); it != inputRequests.end(); ++it) {
        const QByteArray what = QByteArray::fromStdString(it.value().dump());
        const QString prefix = QStringLiteral("q-%1-").arg(QString::fromLatin1(
            QCryptographicHash::hash(what, QCryptographicHash::Sha1).toHex().left(16)));
        QString key;
        QSet<QString> askedBefore;
        for (const Store::InputRequestRecord &r : known) {
            if (!r.key.startsWith(prefix))
                continue;
            askedBefore.insert(r.key);
            if (key.isEmpty() && r.state != Store::InputState::Answered && !taken.contains(r.key))
                key = r.key;
        }
        for (int n = int(askedBefore.size()); key.isEmpty(); ++n) {
            const QString candidate = prefix + QString::number(n);
            if (!taken.contains(candidate) && !askedBefore.contains(candidate))
                key = candidate;
        }
        taken.insert(key);
        current.insert(key, QString::fromStdString(it.key()));
        out[key.toStdString()] = it.value();
    }
    return out;
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

} // namespace Eddy::Monitor
