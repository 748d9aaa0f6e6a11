// run_openfoam_case on a TaskManager worker: the case runs in <data dir>/openfoam/<case key>/
// (a hash of the task id, never the id), its steps reported in statusMessage, checkMesh's
// findings asked as the mesh question, the outcome stored as the task's result. With a backend
// (Slurm) the same runner works in the batch job, which hands its question and result back here.

#include "server/taskmanager.h"

#include "server/casefolder.h"
#include "server/foamrunner.h"
#include "server/foamtool.h"
#include "server/log.h"

#include <filesystem>

namespace Eddy::Server {

using nlohmann::json;

void TaskManager::runFoamCase(const EntryPtr &e, const json &arguments)
{
    std::string id;
    int attempt = 0;
    {
        const std::shared_lock lock(m_mutex);
        id = e->record.id;
        attempt = int(e->record.repairs.size());
    }
    // Absolute: the result names it, and the utilities run in it.
    const std::string caseDir = std::filesystem::absolute(std::filesystem::path(m_options.dataDir)
                                                          / "openfoam" / CaseFolder::caseKey(id))
                                    .lexically_normal()
                                    .string();
    FoamRunner::Hooks hooks;
    hooks.stopRequested = [&] { return e->stop.load() || m_stopping.load(); };
    hooks.report = [&](const std::string &message) { progress(e, message); };
    FoamRunner runner(arguments, caseDir, m_options.openfoamCases, hooks);
    FoamRunner::Outcome outcome = FoamRunner::Outcome::Stopped;
    try {
        outcome = runner.run(arguments.value("mesh_answers", json::array()));
    } catch (const std::exception &ex) { // a file system or JSON error: no exception leaves a worker
        finish(e, TaskStatus::Failed, nullptr,
               {{"code", -32603}, {"message", std::string("The OpenFOAM case failed: ") + ex.what()}},
               std::string("failed: ") + ex.what(), attempt);
        return;
    }
    switch (outcome) {
    case FoamRunner::Outcome::Stopped: {
        if (m_stopping && !e->stop)
            Log::info("task " + Log::redact(id) + " stopped for shutdown; it resumes from its "
                      "latest written time");
        const std::unique_lock lock(m_mutex);
        e->running = false;
        return;
    }
    case FoamRunner::Outcome::Question:
        ask(e, runner.question(), FoamRunner::kQuestionMessage, runner.questionSummary(), attempt);
        return;
    case FoamRunner::Outcome::Finished:
        break;
    }
    json result = runner.result();
    json error = nullptr;
    TaskStatus status = TaskStatus::Completed;
    legacyToolError(e, result, status, error);
    finish(e, status, std::move(result), std::move(error), runner.message(), attempt);
}

void TaskManager::legacyToolError(const EntryPtr &e,
                                  const json &result,
                                  TaskStatus &status,
                                  json &error) const
{
    {
        const std::shared_lock lock(m_mutex);
        if (!e->record.legacy)
            return;
    }
    if (status != TaskStatus::Completed || !result.is_object() || !result.value("isError", false))
        return;
    status = TaskStatus::Failed;
    const json &content = result.value("content", json::array());
    error = {{"code", -32603},
             {"message", content.is_array() && !content.empty() && content[0].is_object()
                             ? content[0].value("text", "")
                             : std::string()}};
}

void TaskManager::askAboutFoamMesh(const std::string &id,
                                   int attempt,
                                   json question,
                                   const std::string &summary)
{
    catchUp(); // answered or cancelled on another replica: that state wins
    EntryPtr e;
    {
        const std::shared_lock lock(m_mutex);
        const auto it = m_tasks.find(id);
        if (it == m_tasks.end())
            return;
        e = it->second;
    }
    ask(e, std::move(question), FoamRunner::kQuestionMessage, summary, attempt);
}

} // namespace Eddy::Server
