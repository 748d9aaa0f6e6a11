// run_openfoam_case on a TaskManager worker: the case runs in <data dir>/openfoam/<case key>/
// (a hash of the task id, never the id), its steps reported in statusMessage, checkMesh's
// findings asked as the mesh question, the outcome stored as the task's result.

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
        ask(e, runner.question(), "waiting for input: checkMesh failed the mesh",
            runner.questionSummary(), attempt);
        return;
    case FoamRunner::Outcome::Finished:
        break;
    }
    json result = runner.result();
    json error = nullptr;
    TaskStatus status = TaskStatus::Completed;
    bool legacy = false;
    {
        const std::shared_lock lock(m_mutex);
        legacy = e->record.legacy;
    }
    if (legacy && result.value("isError", false)) {
        // 2025-11-25: a tool error makes the task failed.
        status = TaskStatus::Failed;
        error = {{"code", -32603}, {"message", result["content"][0].value("text", "")}};
    }
    finish(e, status, std::move(result), std::move(error), runner.message(), attempt);
}

} // namespace Eddy::Server
