#include "app/monitor/serverlinks.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/streamedfollower.h"
#include "app/monitor/sweepsubmitter.h"
#include "app/monitor/taskfollower.h"

#include "app/mcp/client.h"
#include "app/net/httpclient.h"

#include <QTimer>

namespace Eddy::Monitor {

namespace {

// How long a 2025-11-25 server has to take notifications/cancelled for a streamed call of a
// removed server before Eddy closes the stream anyway.
constexpr int s_removedNotifyMs = 3000;

QList<Mcp::Job *> jobsOf(Mcp::Client *client)
{
    return client->findChildren<Mcp::Job *>(QString(), Qt::FindDirectChildrenOnly);
}

} // namespace

ServerLinks::ServerLinks(Engine &hub)
    : m_hub(hub)
{
}

ServerLinks::~ServerLinks() = default; // the engine closed it

void ServerLink::endListens(QObject *hub)
{
    for (QPointer<Mcp::Listen> *stream : {&listen, &listenNew}) {
        if (Mcp::Listen *old = stream->data()) {
            stream->clear();
            old->disconnect(hub);
            old->deleteLater(); // closes the stream
        }
    }
    listenIds.clear();
}

void ServerLinks::open()
{
    close();
    Net::initGlobal();
    m_http = new Net::HttpClient(&m_hub);
}

void ServerLinks::close()
{
    for (ServerLink *l : std::as_const(m_links)) {
        delete l->listen.data();
        delete l->listenNew.data();
        delete l->listenTimer;
        // Before the HTTP client: a client may end its session through it (best effort),
        // and a client left behind would hold a deleted HTTP client until the engine goes.
        delete l->client;
    }
    qDeleteAll(m_links);
    m_links.clear();
    // Retired clients still running a call: theirs end with them.
    qDeleteAll(m_hub.findChildren<Mcp::Client *>(QString(), Qt::FindDirectChildrenOnly));
    delete m_http;
    m_http = nullptr;
}

void ServerLinks::drop(qint64 serverId)
{
    const auto it = m_links.find(serverId);
    if (it == m_links.end())
        return;
    ServerLink *l = *it;
    m_links.erase(it);
    l->endListens(&m_hub); // its streams carried only this server's tasks
    delete l->listenTimer;
    // Submissions waiting for its tools hear that it is gone.
    const auto waiting = std::move(l->waitingForTools);
    Mcp::Client *client = l->client;
    delete l;
    for (const auto &w : waiting)
        w({}, Engine::tr("The server was removed from Eddy."));
    endCalls(serverId, client);
}

ServerLink *ServerLinks::link(qint64 serverId)
{
    if (auto it = m_links.find(serverId); it != m_links.end())
        return *it;
    const auto rec = m_hub.m_store.server(serverId);
    if (!rec || rec->retired || !m_http) // a removed server is never contacted again
        return nullptr;
    auto *l = new ServerLink;
    l->record = *rec;
    l->client = newClient(serverId, *rec);
    m_links.insert(serverId, l);
    return l;
}

qint64 ServerLinks::requestsSent() const
{
    qint64 n = 0;
    for (const ServerLink *l : m_links)
        n += l->client ? l->client->requestsSent() : 0;
    return n;
}

void ServerLinks::forgetTask(const Store::TaskRecord &task)
{
    if (const auto it = m_links.constFind(task.serverId); it != m_links.constEnd())
        (*it)->client->forgetTask(task.serverTaskId.toStdString());
}

Mcp::Client *ServerLinks::newClient(qint64 serverId, const Store::ServerRecord &server)
{
    Mcp::ServerConfig config;
    config.url = QUrl(server.url);
    config.token = server.token;
    config.timeoutMs = m_requestTimeoutMs;
    config.lowSpeedBytesPerSec = m_lowSpeedBytesPerSec;
    config.lowSpeedWindowMs = m_lowSpeedWindowMs;
    auto *client = new Mcp::Client(config, m_http, &m_hub);
    const Mcp::Era era = Mcp::eraFromString(server.era);
    if (era != Mcp::Era::Unknown)
        client->setEra(era);
    QObject::connect(client, &Mcp::Client::eraDetected, &m_hub, [this, serverId](Mcp::Era detected) {
        if (auto r = m_hub.m_store.server(serverId))
            m_hub.m_store.setServerDiscovery(serverId, Mcp::eraToString(detected), r->discovery);
    });
    // The keys the task's questions have in the store, so the client keeps them stable.
    client->setQuestionRecord([this](const std::string &serverTaskId) {
        std::vector<std::pair<QString, bool>> record;
        const auto it = m_hub.m_byServerTaskId.constFind(QString::fromStdString(serverTaskId));
        if (it == m_hub.m_byServerTaskId.constEnd())
            return record;
        for (const Store::InputRequestRecord &r : m_hub.m_store.inputRequests(*it))
            record.emplace_back(r.key, r.state == Store::InputState::Answered);
        return record;
    });
    QObject::connect(client, &Mcp::Client::warning, &m_hub, [](const QString &message) {
        qCWarning(lcMonitor) << message;
    });
    return client;
}

void ServerLinks::relink(qint64 serverId)
{
    const auto it = m_links.constFind(serverId);
    if (it == m_links.constEnd())
        return; // the next link() reads the stored record
    const auto rec = m_hub.m_store.server(serverId);
    if (!rec || rec->retired)
        return; // removed: dropServer()'s
    ServerLink *l = *it;
    // An era set by hand (2025-11-25 for a server that misdetects) needs a new client too.
    const Mcp::Era era = Mcp::eraFromString(rec->era);
    const bool moved = rec->url != l->record.url || rec->token != l->record.token
                       || (era != Mcp::Era::Unknown && era != l->client->era());
    l->record = *rec;
    if (!moved)
        return; // its name: nothing the client holds
    // The listen stream is the old client's: reopened through the new one.
    l->endListens(&m_hub);
    l->listenUnsupported = false;
    l->listenFailures = 0;
    l->toolsFetched = false; // listed again from the new address (the stored list is kept)
    l->state = Engine::ServerState::Unknown;
    Mcp::Client *old = std::exchange(l->client, newClient(serverId, *rec));
    old->disconnect(&m_hub);
    // Polls on the way to the old address: not awaited; their tasks, and every other task of
    // the server, are polled now through the new client, without the old address's backoff.
    // Calls (a streamed call, a case being sent) and answers finish where they were sent.
    for (Mcp::Job *job : jobsOf(old)) {
        if (auto *poll = qobject_cast<Mcp::TaskJob *>(job)) {
            poll->disconnect(&m_hub);
            poll->abort();
        }
    }
    m_hub.m_scheduler->restartServer(serverId);
    m_hub.m_tasks.relinked(serverId);
    qCInfo(lcMonitor,
           "server %lld: its %s changed; requests go through a new client from now on",
           serverId,
           rec->url != old->config().url.toString() ? "URL"
           : rec->token != old->config().token     ? "token"
                                                   : "protocol era");
    retire(old);
    m_hub.armPollTimer();
}

void ServerLinks::endCalls(qint64 serverId, Mcp::Client *client)
{
    client->disconnect(&m_hub);
    // Streamed calls: ended on the server's terms (2025-11-25 is told first, for at most a few
    // seconds); their rows end lost, saying why (StreamedFollower::finished()).
    const QSet<Mcp::Job *> streamed = m_hub.m_streamed.endForRemovedServer(serverId);
    QList<QPointer<Mcp::CallJob>> calls;
    for (Mcp::Job *job : std::as_const(streamed))
        calls << qobject_cast<Mcp::CallJob *>(job);
    for (const QPointer<Mcp::CallJob> &call : std::as_const(calls)) {
        if (!call)
            continue;
        client->cancelCall(
            call.data(), QStringLiteral("The server was removed from Eddy"), {}, s_removedNotifyMs);
    }
    // Everything else on the wire (polls, a case being sent, answers): aborted, so whoever
    // waits for it hears so now; their handlers find the server gone.
    QList<QPointer<Mcp::Job>> others;
    for (Mcp::Job *job : jobsOf(client)) {
        if (!streamed.contains(job))
            others << job;
    }
    for (const QPointer<Mcp::Job> &job : std::as_const(others)) {
        if (job) // a handler may have ended another already
            job->abort();
    }
    retire(client);
}

void ServerLinks::retire(Mcp::Client *client)
{
    if (jobsOf(client).isEmpty()) {
        client->deleteLater();
        return;
    }
    // Looked at again whenever one of its jobs goes (a finished job deletes itself).
    const auto check = [client] {
        QMetaObject::invokeMethod(
            client,
            [client] {
                if (jobsOf(client).isEmpty())
                    client->deleteLater();
            },
            Qt::QueuedConnection);
    };
    for (Mcp::Job *job : jobsOf(client))
        QObject::connect(job, &QObject::destroyed, client, check);
}

void ServerLinks::refresh(qint64 serverId)
{
    ServerLink *l = link(serverId);
    if (!l) {
        emit m_hub.operationFailed(Engine::tr("Unknown server %1.").arg(serverId));
        return;
    }
    Mcp::DiscoverJob *job = l->client->discover(true);
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, serverId] {
        ServerLink *l = link(serverId);
        if (job->hasError()) {
            if (l)
                l->state = Engine::ServerState::Unreachable;
            emit m_hub.serverStateChanged(serverId, Engine::ServerState::Unreachable, job->error().message(),
                                    job->error().isNotMcp());
            return;
        }
        const json d = discoveryToJson(job->info());
        m_hub.m_store.setServerDiscovery(serverId, Mcp::eraToString(job->info().era), QString::fromStdString(d.dump()));
        if (l)
            l->state = Engine::ServerState::Online;
        emit m_hub.serverStateChanged(serverId, Engine::ServerState::Online,
                                QStringLiteral("%1 %2").arg(job->info().serverName, job->info().serverVersion),
                                false);
        m_hub.m_submitter->sendWaitingCases(serverId); // asked to look: what waits for it need not wait any longer
        withTools(serverId, [](const json &, const QString &) {});
    });
}

void ServerLinks::withTools(qint64 serverId, std::function<void(const json &, const QString &)> then)
{
    ServerLink *l = link(serverId);
    if (!l) {
        then({}, Engine::tr("Unknown server %1.").arg(serverId));
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
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, serverId] {
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
                error = Engine::tr("Cannot list the tools of %1: %2").arg(l->record.url, job->error().message());
            l->state = Engine::ServerState::Unreachable;
            emit m_hub.serverStateChanged(serverId, Engine::ServerState::Unreachable, job->error().message(),
                                    job->error().isNotMcp());
        } else {
            l->toolsFetched = true;
            tools = toolsToJson(job->tools());
            l->record.tools = QString::fromStdString(tools.dump());
            m_hub.m_store.setServerTools(serverId, l->record.tools);
            emit m_hub.toolsChanged(serverId);
            m_hub.serverAnswered(serverId, true);
        }
        auto waiting = std::move(l->waitingForTools);
        l->waitingForTools.clear();
        for (auto &w : waiting)
            w(tools, error);
    });
}

} // namespace Eddy::Monitor
