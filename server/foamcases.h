#pragma once

// run_openfoam_case's case folders and runs: a task's case runs in <data dir>/openfoam/<case key>/
// (a hash of the task id, never the id), its steps reported in statusMessage, checkMesh's
// findings returned as the mesh question, the outcome returned as the task's result. With a
// backend (Slurm) the same runner works in the batch job, which hands its question and result back
// to TaskManager. The folder goes when the task is forgotten (its TTL passed), and folders of tasks
// no longer known go at start. Knows nothing of task state: TaskManager decides what an outcome
// does to the task.

#include "server/foamrunner.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>

namespace Eddy::Server {

struct ServerOptions;

class FoamCases final
{
public:
    explicit FoamCases(const ServerOptions &options);

    // The task's OpenFOAM case folder: <data dir>/openfoam/<case key>, absolute.
    std::string dir(const std::string &id) const;
    // Where the task's case (and its log.checkMesh) is for the engineer: the Slurm case folder's
    // with --backend slurm, else dir(id).
    std::string engineerDir(const std::string &id) const;
    // Removes a forgotten task's case folder (never anything under --openfoam-cases).
    void remove(const std::string &id) const;
    // Removes case folders under <data dir>/openfoam/ that none of the ownerIds (held OpenFOAM
    // tasks) owns and that were last changed before startedMs (when this server started: a newer
    // one may be a task another replica just made).
    void removeStale(const std::set<std::string> &ownerIds, std::int64_t startedMs) const;

    // How a run of a task's case ended.
    struct Run
    {
        enum class End { Failed, Stopped, Question, Finished };
        End end = End::Stopped;
        nlohmann::json result; // Finished: the CallToolResult; Question: the elicitation request
        nlohmann::json error;  // Failed: the JSON-RPC error
        std::string message;   // Failed, Finished: the final statusMessage; Question: the summary
    };
    // Runs (or resumes) task id's case in dir(id); blocking, on a worker thread. Never throws
    // for a file system or JSON error in the run: that is End::Failed.
    Run run(const std::string &id, const nlohmann::json &arguments, FoamRunner::Hooks hooks) const;

private:
    const ServerOptions &m_options;
};

} // namespace Eddy::Server
