#include "server/foamcases.h"

#include "server/casefolder.h"
#include "server/log.h"
#include "server/serveroptions.h"

#include <sys/stat.h>

#include <filesystem>
#include <vector>

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
    return name.size() == 24 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
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

FoamCases::FoamCases(const ServerOptions &options)
    : m_options(options)
{}

std::string FoamCases::dir(const std::string &id) const
{
    return fs::absolute(fs::path(m_options.dataDir) / "openfoam" / CaseFolder::caseKey(id))
        .lexically_normal()
        .string();
}

std::string FoamCases::engineerDir(const std::string &id) const
{
    return m_options.backend == "slurm"
               ? (fs::path(m_options.slurmCaseDir()) / "openfoam" / CaseFolder::caseKey(id))
                     .string()
               : dir(id);
}

void FoamCases::remove(const std::string &id) const
{
    removeCaseFolder(dir(id), m_options.openfoamCases, "forgotten task " + Log::redact(id));
}

void FoamCases::removeStale(const std::set<std::string> &ownerIds, std::int64_t startedMs) const
{
    const fs::path root = fs::path(m_options.dataDir) / "openfoam";
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        return;
    std::set<std::string> owned;
    for (const std::string &id : ownerIds)
        owned.insert(CaseFolder::caseKey(id));
    std::vector<fs::path> stale;
    for (const fs::directory_entry &entry : fs::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        struct stat st = {};
        if (!isCaseKey(name) || owned.count(name) || ::lstat(entry.path().c_str(), &st) != 0
            || !S_ISDIR(st.st_mode))
            continue;
        const std::int64_t changedMs
            = std::int64_t(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
        if (changedMs < startedMs)
            stale.push_back(entry.path());
    }
    for (const fs::path &dir : stale)
        removeCaseFolder(dir,
                         m_options.openfoamCases,
                         "a task no longer known (" + dir.filename().string() + ")");
}

FoamCases::Run
FoamCases::run(const std::string &id, const json &arguments, FoamRunner::Hooks hooks) const
{
    // Absolute: the result names it, and the utilities run in it.
    FoamRunner runner(arguments, dir(id), m_options.openfoamCases, std::move(hooks));
    Run run;
    FoamRunner::Outcome outcome = FoamRunner::Outcome::Stopped;
    try {
        outcome = runner.run(arguments.value("mesh_answers", json::array()));
    } catch (const std::exception &ex) {
        // A file system or JSON error: no exception leaves a worker.
        run.end = Run::End::Failed;
        run.error = {{"code", -32603},
                     {"message", std::string("The OpenFOAM case failed: ") + ex.what()}};
        run.message = std::string("failed: ") + ex.what();
        return run;
    }
    switch (outcome) {
    case FoamRunner::Outcome::Stopped:
        run.end = Run::End::Stopped;
        break;
    case FoamRunner::Outcome::Question:
        run.end = Run::End::Question;
        run.result = runner.question();
        run.message = runner.questionSummary();
        break;
    case FoamRunner::Outcome::Finished:
        run.end = Run::End::Finished;
        run.result = runner.result();
        run.message = runner.message();
        break;
    }
    return run;
}

} // namespace Eddy::Server
