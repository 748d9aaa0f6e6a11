// TaskManager's door for a Backend (server/backend.h): the calls a backend that runs cases
// elsewhere (Slurm) uses to claim queued tasks and report their progress and outcome.

#include "server/taskmanager.h"

#include "server/solver/cavitysolver.h"

namespace Eddy::Server {

using nlohmann::json;

bool TaskManager::claim(const std::string &id, TaskRecord &out)
{
    const std::unique_lock lock(m_mutex);
    const auto it = m_tasks.find(id);
    if (it == m_tasks.end() || it->second->record.status != TaskStatus::Working)
        return false;
    it->second->running = true;
    out = it->second->record;
    return true;
}

bool TaskManager::report(const std::string &id, const std::string &message)
{
    {
        const std::unique_lock lock(m_mutex);
        const auto it = m_tasks.find(id);
        if (it == m_tasks.end() || it->second->record.status != TaskStatus::Working)
            return false;
        Entry &e = *it->second;
        if (e.record.statusMessage == message || e.queued)
            return true;
        e.record.statusMessage = message;
        e.record.updatedMs = nowMs();
        render(e);
    }
    notify(id);
    return true;
}

void TaskManager::askAboutMesh(const std::string &id,
                               int attempt,
                               const Solver::MeshQuality &quality,
                               bool retry)
{
    catchUp(); // answered or cancelled on another replica: that state wins
    const EntryPtr e = held(id);
    if (!e)
        return;
    askAboutMesh(e, quality, retry, attempt);
}

void TaskManager::finish(const std::string &id,
                         int attempt,
                         TaskStatus status,
                         json result,
                         json error,
                         const std::string &message)
{
    catchUp(); // cancelled on another replica: a job ended by its scancel is no failure
    const EntryPtr e = held(id);
    if (!e)
        return;
    legacyToolError(e, result, status, error);
    finish(e, status, std::move(result), std::move(error), message, attempt);
}

} // namespace Eddy::Server
