// A server's Mcp::Client over its life: built from the stored record (link()), rebuilt when the
// server's URL or token changes (here, in the Servers dialog, or in another process on the same
// database: Sharing::checkServers), and ended when the server is removed. A replaced or removed
// client is retired rather than deleted at once: a job deleted with its client would never
// finish, and whoever waits for it (a streamed call's row, a case being sent) would wait for
// ever.
#include "app/mcp/client.h"
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/streamedtasks.h"

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

Mcp::Client *Engine::newClient(qint64 serverId, const Store::ServerRecord &server)
{
    Mcp::ServerConfig config;
    config.url = QUrl(server.url);
    config.token = server.token;
    config.timeoutMs = m_requestTimeoutMs;
    config.lowSpeedBytesPerSec = m_lowSpeedBytesPerSec;
    config.lowSpeedWindowMs = m_lowSpeedWindowMs;
    auto *client = new Mcp::Client(config, m_http, this);
    const Mcp::Era era = Mcp::eraFromString(server.era);
    if (era != Mcp::Era::Unknown)
        client->setEra(era);
    connect(client, &Mcp::Client::eraDetected, this, [this, serverId](Mcp::Era detected) {
        if (auto r = m_store.server(serverId))
            m_store.setServerDiscovery(serverId, Mcp::eraToString(detected), r->discovery);
    });
    // The keys the task's questions have in the store, so the client keeps them stable.
    client->setQuestionRecord([this](const std::string &serverTaskId) {
        std::vector<std::pair<QString, bool>> record;
        const auto it = m_byServerTaskId.constFind(QString::fromStdString(serverTaskId));
        if (it == m_byServerTaskId.constEnd())
            return record;
        for (const Store::InputRequestRecord &r : m_store.inputRequests(*it))
            record.emplace_back(r.key, r.state == Store::InputState::Answered);
        return record;
    });
    connect(client, &Mcp::Client::warning, this, [](const QString &message) {
        qCWarning(lcMonitor) << message;
    });
    return client;
}

void Engine::relinkServer(qint64 serverId)
{
    const auto it = m_links.constFind(serverId);
    if (it == m_links.constEnd())
        return; // the next link() reads the stored record
    const auto rec = m_store.server(serverId);
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
    if (l->listen) {
        Mcp::Listen *listen = l->listen.data();
        l->listen.clear();
        listen->disconnect(this);
        listen->deleteLater(); // closes the stream
    }
    l->listenUnsupported = false;
    l->listenFailures = 0;
    l->toolsFetched = false; // listed again from the new address (the stored list is kept)
    l->state = ServerState::Unknown;
    Mcp::Client *old = std::exchange(l->client, newClient(serverId, *rec));
    old->disconnect(this);
    // Polls on the way to the old address: not awaited; their tasks, and every other task of
    // the server, are polled now through the new client, without the old address's backoff.
    // Calls (a streamed call, a case being sent) and answers finish where they were sent.
    for (Mcp::Job *job : jobsOf(old)) {
        if (auto *poll = qobject_cast<Mcp::TaskJob *>(job)) {
            poll->disconnect(this);
            poll->abort();
        }
    }
    m_scheduler->restartServer(serverId);
    for (const Store::TaskRecord &t : std::as_const(m_live)) {
        if (t.serverId == serverId && t.pattern == Pattern::Task) {
            m_tasks.scheduleListen(serverId);
            break;
        }
    }
    qCInfo(lcMonitor,
           "server %lld: its %s changed; requests go through a new client from now on",
           serverId,
           rec->url != old->config().url.toString() ? "URL"
           : rec->token != old->config().token     ? "token"
                                                   : "protocol era");
    retireClient(old);
    armPollTimer();
}

void Engine::endServerCalls(qint64 serverId, Mcp::Client *client)
{
    client->disconnect(this);
    // Streamed calls: ended on the server's terms (2025-11-25 is told first, for at most a few
    // seconds); their rows end lost, saying why (StreamedFollower::finished()).
    const QSet<Mcp::Job *> streamed = m_streamed.endForRemovedServer(serverId);
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
    retireClient(client);
}

void Engine::retireClient(Mcp::Client *client)
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
        connect(job, &QObject::destroyed, client, check);
}

} // namespace Eddy::Monitor
