// run_openfoam_case on a TaskManager worker: the case runs in <data dir>/openfoam/<case key>/
// (a hash of the task id, never the id), its steps reported in statusMessage, checkMesh's
// findings asked as the mesh question, the outcome stored as the task's result. With a backend
// (Slurm) the same runner works in the batch job, which hands its question and result back here.
// The folder goes when the task is forgotten (its TTL passed), and folders of tasks no longer
// known go at start.

#include "server/taskmanager.h"

#include "server/casefolder.h"
#include "server/foamrunner.h"
#include "server/foamtool.h"
#include "server/log.h"

#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <shared_mutex>

namespace Eddy::Server {

using nlohmann::json;

namespace {

namespace fs = std::filesystem;

// True when inner is root or lies under it, symbolic links resolved where the paths exist.
bool within(const fs::path &inner, const fs::path &root)
{
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(fs::absolute(inner), ec);
    if (ec)
        return true; // cannot tell: assume the worst
    const fs::path b = fs::weakly_canonical(fs::absolute(root), ec);
    if (ec)
        return true;
    auto i = a.begin();
    for (const fs::path &part : b) {
        if (part.empty())
            continue; // a trailing separator
        if (i == a.end() || *i != part)
            return false;
        ++i;
    }
    return true;
}

// A folder name CaseFolder::caseKey makes: 24 lower-case hex digits.
bool isCaseKey(const std::string &name)
{
    return name.size() == 24
           && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Removes one case folder (symbolic links in it are removed, never followed); keeps it when it
// is inside the engineer's cases root or holds it: the server never writes there.
void removeCaseFolder(const fs::path &dir, const std::string &casesRoot, const std::string &whose)
{
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir, ec)))
        return;
    if (!casesRoot.empty() && (within(dir, casesRoot) || within(casesRoot, dir))) {
        Log::warn("kept the case folder of " + whose + " (" + dir.string()
                  + "): it overlaps --openfoam-cases, which the server never writes");
        return;
    }
    const auto removed = fs::remove_all(dir, ec);
    if (ec)
        Log::warn("could not remove the case folder of " + whose + " (" + dir.string()
                  + "): " + ec.message());
    else
        Log::info("removed the case folder of " + whose + " (" + std::to_string(removed)
                  + " files and folders)");
}

} // namespace

std::string TaskManager::foamCaseDir(const std::string &id) const
{
    return fs::absolute(fs::path(m_options.dataDir) / "openfoam" / CaseFolder::caseKey(id))
        .lexically_normal()
        .string();
}

void TaskManager::removeFoamCaseDir(const std::string &id) const
{
    removeCaseFolder(foamCaseDir(id), m_options.openfoamCases,
                     "forgotten task " + Log::redact(id));
}

void TaskManager::removeStaleFoamCaseDirs() const
{
    const fs::path root = fs::path(m_options.dataDir) / "openfoam";
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        return;
    std::set<std::string> owned;
    {
        const std::shared_lock lock(m_mutex);
        for (const auto &[id, e] : m_tasks)
            if (FoamTool::isFoamTask(e->record.arguments))
                owned.insert(CaseFolder::caseKey(id));
    }
    std::vector<fs::path> stale;
    for (const fs::directory_entry &entry : fs::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        struct stat st = {};
        if (!isCaseKey(name) || owned.count(name) || ::lstat(entry.path().c_str(), &st) != 0
            || !S_ISDIR(st.st_mode))
            continue;
        const std::int64_t changedMs
            = std::int64_t(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
        if (changedMs < m_startedMs)
            stale.push_back(entry.path());
    }
    for (const fs::path &dir : stale)
        removeCaseFolder(dir, m_options.openfoamCases,
                         "a task no longer known (" + dir.filename().string() + ")");
}

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
    const std::string caseDir = foamCaseDir(id);
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
    const EntryPtr e = held(id);
    if (!e)
        return;
    ask(e, std::move(question), FoamRunner::kQuestionMessage, summary, attempt);
}

} // namespace Eddy::Server
