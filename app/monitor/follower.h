#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

// What the hub (Engine) asks of every follow pattern, one implementation per Eddy::Pattern:
// TaskFollower, StreamedFollower, JobFollower. The hub picks the follower once, by the row's
// pattern (Engine::followerFor), and hands the task on through this interface only; what a
// single pattern needs besides (a listen stream, a stream's notifications, a job adapter) stays
// on its own class. A task ends once, in the hub: a follower reports an end through
// Engine::applyState or Engine::markGone, which end it with Engine::finishTask; a streamed row,
// which the registry never holds, ends in StreamedFollower::finished(). Lives on the engine's
// thread.
class Follower
{
    Q_DISABLE_COPY_MOVE(Follower)

public:
    virtual ~Follower() = default;

    // Starts or resumes following a live task of this pattern: a new task, each live one on
    // open, one taken over from another process, an imported handle. dueAtMs: its first poll
    // (none: at its interval).
    virtual void follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs) = 0;
    // The due polls of one server's live tasks of this pattern.
    virtual void poll(qint64 serverId, const QList<qint64> &taskIds) = 0;
    // One answer to the live task's question `key`, already recorded in the inbox; it ends with
    // Engine::inputAnswered(). attempt: how often it was sent before.
    virtual void answer(const Store::TaskRecord &task, const QString &key,
                        const nlohmann::json &answer, int attempt) = 0;
    // Cancel of the live task: the task shows cancelRequested until the server agrees; it ends
    // with Engine::cancelSent() (nothing more while a cancel of the same row is under way).
    virtual void cancel(const Store::TaskRecord &task) = 0;

protected:
    Follower() = default;
};

} // namespace Eddy::Monitor
