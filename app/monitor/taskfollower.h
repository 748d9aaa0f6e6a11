#pragma once

#include "app/monitor/follower.h"
#include "app/vocab/records.h"

#include <QSet>
#include <QString>

#include <nlohmann/json.hpp>

namespace Eddy::Mcp {
class Error;
}

namespace Eddy::Monitor {

class Engine;

// The task follower: a row of pattern "task" is an MCP task the server gave a handle for. This
// class asks after it (tasks/get, a listen stream per server for pushes), sends its answers
// (tasks/update) and its cancel (tasks/cancel); which protocol era is spoken stays inside
// Mcp::Client. Lives on the engine's thread; the engine (its hub) schedules the polls, applies
// each state and stores it.
class TaskFollower final : public Follower
{
    Q_DISABLE_COPY_MOVE(TaskFollower)

public:
    explicit TaskFollower(Engine &hub);

    // Follower: the task joins the hub's registry, and its server's listen stream carries it.
    void follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs) override;
    // One tasks/get per task; each answer goes to the hub (Engine::applyState).
    void poll(qint64 serverId, const QList<qint64> &taskIds) override;
    // One answer (tasks/update), sent again shortly after a transient failure or until a poll
    // has brought the question's key; attempt counts those tries.
    void answer(const Store::TaskRecord &t, const QString &key, const nlohmann::json &answer,
                int attempt) override;
    // tasks/cancel: the task shows cancelRequested until the server agrees.
    void cancel(const Store::TaskRecord &t) override;

    // The server's listen stream over its live tasks, (re)opened on the next turn or, while one
    // is open, once a burst of new tasks is over.
    void scheduleListen(qint64 serverId);
    // The server's client changed (ServerLinks::relink()): the stream is opened again through
    // the new one when the server has live tasks.
    void relinked(qint64 serverId);

private:
    void pollOne(qint64 taskId);
    void startListen(qint64 serverId);
    // Opens the server's first stream over ids or, addedOnly, its second (closing the one it
    // replaces).
    void openListen(qint64 serverId, const QSet<QString> &ids, bool addedOnly);
    void wrongTaskAnswer(qint64 taskId, const Mcp::Error &e);

    Engine &m_hub;
};

} // namespace Eddy::Monitor
