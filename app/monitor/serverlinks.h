#pragma once

#include "app/monitor/engine.h"
#include "app/vocab/records.h"

#include <QHash>
#include <QPointer>
#include <QSet>

#include <nlohmann/json.hpp>

#include <functional>
#include <vector>

class QTimer;

namespace Eddy::Net {
class HttpClient;
}
namespace Eddy::Mcp {
class Client;
class Listen;
}

namespace Eddy::Monitor {

// What the engine holds of one server: its client, its tools, its state, its listen stream.
struct ServerLink
{
    Store::ServerRecord record;
    Mcp::Client *client = nullptr;
    bool toolsFetched = false;
    bool fetchingTools = false;
    std::vector<std::function<void(const nlohmann::json &, const QString &)>> waitingForTools;
    Engine::ServerState state = Engine::ServerState::Unknown;
    // Pushes only accelerate polling: a listen stream per server over its live tasks, given up
    // when the server cannot listen. Each opened stream makes the server send the state of every
    // task it names, so tasks that arrive later join a second, small stream (reopened, debounced,
    // as that set grows) and both are folded into one when the second grows past an eighth of
    // the first's live tasks (TaskFollower::startListen).
    QPointer<Mcp::Listen> listen;
    QSet<QString> listenIds;         // the server task ids `listen` carries
    QPointer<Mcp::Listen> listenNew; // live tasks not in listenIds
    // Closes both streams without telling the hub (a new client, or the server removed).
    void endListens(QObject *hub);
    QTimer *listenTimer = nullptr;
    bool listenUnsupported = false;
    int listenFailures = 0;
    int listenPostponed = 0; // reopens put off while a sweep is being sent
};

// The server links: one Mcp::Client per server over its life, built from the stored record,
// rebuilt when the server's URL, token or era changes (here, in the Servers dialog, or in another
// process on the same database), and ended when the server is removed. A replaced or removed
// client is retired rather than deleted at once: a job deleted with its client would never
// finish, and whoever waits for it (a streamed call's row, a case being sent) would wait for
// ever. Also the tools each server offers (listed once, cached in the store) and its discovery.
// Lives on the engine's thread; the HTTP client and every Mcp::Client are the engine's children,
// so they move with it to its thread.
class ServerLinks final
{
    Q_DISABLE_COPY_MOVE(ServerLinks)

public:
    explicit ServerLinks(Engine &hub);
    ~ServerLinks();

    // Per-request timeout, slow-transfer floor: for clients made from now on.
    void setRequestTimeoutMs(int ms) { m_requestTimeoutMs = ms; }
    void setSlowTransferFloor(int bytesPerSec, int windowMs)
    {
        m_lowSpeedBytesPerSec = std::max(0, bytesPerSec);
        m_lowSpeedWindowMs = std::max(0, windowMs);
    }

    // The HTTP client for the database just opened; close() ends every link and client.
    void open();
    void close();

    // The server's link (made on first use); nullptr for an unknown or removed server, or
    // while closed.
    ServerLink *link(qint64 serverId);
    qint64 requestsSent() const;
    // The engine stops following the task: its server's client forgets it too.
    void forgetTask(const Store::TaskRecord &task);
    // Its URL, token or era changed: a new client for what is sent from now on, the old one
    // retired. Nothing when none of them changed.
    void relink(qint64 serverId);
    // The server was removed: its link goes, whoever waits for its tools hears so, its streamed
    // calls end (rows stored lost, saying why) and everything else in flight is aborted.
    void drop(qint64 serverId);
    // The server's tools (tools/list once, then cached; the stored list when it cannot answer).
    void withTools(qint64 serverId,
                   std::function<void(const nlohmann::json &tools, const QString &error)> then);
    // server/discover + tools/list, stored (Engine::refreshServer()).
    void refresh(qint64 serverId);

private:
    Mcp::Client *newClient(qint64 serverId, const Store::ServerRecord &server);
    void endCalls(qint64 serverId, Mcp::Client *client);
    // Deleted once no job of it is left (a streamed call may still be running on it).
    void retire(Mcp::Client *client);

    Engine &m_hub;
    Net::HttpClient *m_http = nullptr; // the engine's child
    QHash<qint64, ServerLink *> m_links;
    int m_requestTimeoutMs = 30000;
    int m_lowSpeedBytesPerSec = 1024;
    int m_lowSpeedWindowMs = 30000;
};

} // namespace Eddy::Monitor
