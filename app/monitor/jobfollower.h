#pragma once

#include "app/monitor/follower.h"
#include "app/monitor/jobadapter.h"
#include "app/monitor/pollscheduler.h"
#include "app/vocab/records.h"

#include <QHash>
#include <QList>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

class Engine;

// The job follower: jobs followed through a server's job adapter (jobadapter.h). The submit
// tool's job id becomes a task row of pattern "job"; its status tool is polled (batched where it
// takes several ids) and each answer is mapped onto a task state, so the hub (events, progress,
// inbox, results, restart) treats it as a task. Lives on the engine's thread; the engine (its
// hub) schedules the polls and stores what they bring.
class JobFollower final : public Follower
{
    Q_DISABLE_COPY_MOVE(JobFollower)

public:
    explicit JobFollower(Engine &hub);

    // The server's stored adapter (empty when none; *error says why when the stored one is
    // invalid), cached until the server's adapter changes.
    std::optional<JobAdapter> adapter(qint64 serverId, QString *error = nullptr);
    bool setAdapter(qint64 serverId, const JobAdapter &adapter);
    // The server's adapter was stored (here, or by another process): read it again and put its
    // live jobs on its new ticks.
    void retune(qint64 serverId);
    void forgetServer(qint64 serverId) { m_adapters.remove(serverId); }

    // A tools/call answer of the adapter's submit tool becomes job `t` (false: not a job).
    bool adopt(const Store::CaseRecord &c, const nlohmann::json &callResult, bool isToolError,
               Store::TaskRecord &t);
    bool isJob(qint64 taskId) const;
    // A job's shared ticks and backoff (its adapter's poll settings); none for a task.
    std::optional<PollScheduler::Ticks> ticks(const Store::TaskRecord &task);

    // Follower: the job joins the hub's registry on its adapter's shared ticks.
    void follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs) override;
    // The status calls for the server's due jobs.
    void poll(qint64 serverId, const QList<qint64> &taskIds) override;
    // Through the adapter's answer tool (refused, saying so, when it has none).
    void answer(const Store::TaskRecord &t, const QString &key, const nlohmann::json &answer,
                int attempt) override;
    // Through the adapter's cancel tool (refused, saying so, when it has none).
    void cancel(const Store::TaskRecord &t) override;

private:
    void sendStatus(qint64 serverId, const JobAdapter &adapter, const QList<qint64> &ids);
    void finishPoll(qint64 taskId, const JobAdapter &adapter, const nlohmann::json &statusObject);

    Engine &m_hub;
    QHash<qint64, std::optional<JobAdapter>> m_adapters; // server id -> its adapter (cache)
};

} // namespace Eddy::Monitor
