// eddy-cfd-solve CASE_DIR: one run_cfd_case as a batch job (the Slurm backend, docs/server-slurm.md).
// Reads case.json from the case folder, runs the mesh check first (on a defect: question.json and
// exit code 3), appends today's statusMessage lines to progress.log, saves checkpoint.bin every
// checkpoint interval and on SIGTERM (scancel, requeue, time limit; exit code 4), and writes
// result.json when the run ends. A checkpoint left by an earlier run of the same attempt (Slurm
// requeued the job, a node failed) is resumed bit for bit.
// A run_openfoam_case runs through the same files with FoamRunner, the local backend's runner, in
// the OpenFOAM case folder case.json names (docs/openfoam.md): its question.json carries the
// elicitation request, and a stop or requeue resumes from its latest written time.

#include "server/casefolder.h"
#include "server/cfdtool.h"
#include "server/foamrunner.h"
#include "server/foamtool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>

using namespace Eddy::Server;
namespace Solver = Eddy::Solver;
namespace fs = std::filesystem;

namespace {

std::atomic<bool> g_stop{false};

void onSignal(int)
{
    g_stop = true;
}

int fail(int code, const std::string &message)
{
    std::fprintf(stderr, "eddy-cfd-solve: %s\n", message.c_str());
    return code;
}

// run_openfoam_case's steps in the OpenFOAM case folder; the exit code as for run_cfd_case.
int runFoamCase(const fs::path &dir,
                const nlohmann::json &spec,
                const std::function<void(const std::string &)> &say)
{
    const auto file = [&](const char *name) {
        return (dir / name).string();
    };
    const nlohmann::json &arguments = spec["arguments"];
    const int attempt = spec.value("attempt", 0);
    const nlohmann::json foam = spec.value("openfoam", nlohmann::json::object());
    const std::string caseDir = foam.value("case_folder", std::string());
    if (caseDir.empty())
        return fail(CaseFolder::kExitBadCase,
                    file(CaseFolder::kCaseFile) + " names no OpenFOAM case folder");
    FoamRunner::Hooks hooks;
    hooks.stopRequested = [] {
        return g_stop.load();
    };
    hooks.report = say;
    FoamRunner runner(arguments, caseDir, foam.value("cases_root", std::string()), hooks);
    const FoamRunner::Outcome outcome
        = runner.run(arguments.value("mesh_answers", nlohmann::json::array()));
    std::string error;
    switch (outcome) {
    case FoamRunner::Outcome::Stopped:
        say("stopped by a signal; the case resumes from its latest written time");
        return CaseFolder::kExitStopped;
    case FoamRunner::Outcome::Question: {
        const nlohmann::json q = {{"attempt", attempt},
                                  {"question", runner.question()},
                                  {"summary", runner.questionSummary()}};
        if (!CaseFolder::writeAtomically(file(CaseFolder::kQuestionFile), q.dump(), error))
            return fail(CaseFolder::kExitSolverError, error);
        say(FoamRunner::kQuestionMessage);
        return CaseFolder::kExitMeshQuestion;
    }
    case FoamRunner::Outcome::Finished:
        break;
    }
    const nlohmann::json out
        = {{"attempt", attempt}, {"message", runner.message()}, {"result", runner.result()}};
    if (!CaseFolder::writeAtomically(file(CaseFolder::kResultFile), out.dump(), error))
        return fail(CaseFolder::kExitSolverError, error);
    say(runner.message());
    return CaseFolder::kExitDone;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf("Usage: eddy-cfd-solve CASE_DIR\n"
                    "Runs one run_cfd_case or run_openfoam_case as a batch job: the Slurm backend\n"
                    "of eddy-cfd-server (--backend slurm) submits it with a case folder it wrote.\n"
                    "Reads case.json, checks the mesh first, appends progress lines to\n"
                    "progress.log, keeps checkpoint.bin (OpenFOAM: its time folders), and writes\n"
                    "result.json.\n\n"
                    "Exit codes: 0 done, 1 solver error (error.json), 2 unreadable case folder,\n"
                    "3 the mesh failed its check (question.json), 4 stopped by SIGTERM with a\n"
                    "checkpoint saved (scancel, requeue, time limit).\n");
        return 0;
    }
    if (argc != 2)
        return fail(CaseFolder::kExitBadCase,
                    "usage: eddy-cfd-solve CASE_DIR (a case folder written by eddy-cfd-server "
                    "--backend slurm); see --help");
    const fs::path dir = argv[1];
    const auto file = [&](const char *name) {
        return (dir / name).string();
    };
    const nlohmann::json spec = CaseFolder::readJson(file(CaseFolder::kCaseFile));
    if (spec.is_discarded() || !spec.contains("arguments") || !spec["arguments"].is_object())
        return fail(CaseFolder::kExitBadCase,
                    "cannot read " + file(CaseFolder::kCaseFile)
                        + ": is the case folder shared with this node?");
    const nlohmann::json &arguments = spec["arguments"];
    const int attempt = spec.value("attempt", 0);
    std::vector<int> repairs;
    if (spec.contains("repairs") && spec["repairs"].is_array())
        for (const auto &v : spec["repairs"])
            if (v.is_number_integer())
                repairs.push_back(v.get<int>());
    const auto checkpointEvery = std::chrono::milliseconds(
        std::max<std::int64_t>(50, spec.value("checkpoint_interval_ms", std::int64_t(3000))));

    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);

    std::FILE *progress = std::fopen(file(CaseFolder::kProgressFile).c_str(), "a");
    const auto say = [&](const std::string &line) {
        if (progress) {
            std::fprintf(progress, "%s\n", line.c_str());
            std::fflush(progress);
        }
    };
    std::string error;
    try {
        if (FoamTool::isFoamTask(arguments))
            return runFoamCase(dir, spec, say);
        Solver::CaseParams params = CfdTool::caseParams(arguments);
        if (const char *cpus = std::getenv("SLURM_CPUS_PER_TASK"))
            params.threads = std::max(1, std::atoi(cpus));
        Solver::CavitySolver solver(params);
        const auto blob = CaseFolder::readBlob(file(CaseFolder::kCheckpointFile));
        if (!blob.empty() && solver.restore(blob)) {
            say("resumed from its checkpoint at iteration " + std::to_string(solver.iteration()));
        } else {
            for (int passes : repairs)
                solver.repairMesh(passes);
            const bool force = arguments.value("force_mesh_defect", false) && repairs.empty();
            const Solver::MeshQuality quality = solver.checkMesh(force);
            if (!quality.ok) {
                nlohmann::json q
                    = {{"attempt", attempt}, {"quality", CaseFolder::qualityToJson(quality)}};
                if (!CaseFolder::writeAtomically(file(CaseFolder::kQuestionFile), q.dump(), error))
                    return fail(CaseFolder::kExitSolverError, error);
                say("waiting for input: the mesh failed its " + quality.metric + " check");
                return CaseFolder::kExitMeshQuestion;
            }
        }
        const int grid = arguments.value("grid", 64);
        const int reportEvery = std::clamp(2000000 / std::max(grid * grid, 1), 1, 100);
        auto lastCheckpoint = std::chrono::steady_clock::now();
        const auto outcome = solver.run(
            [&](const Solver::Progress &p) {
                if (g_stop)
                    return false;
                say(CfdTool::progressMessage(p));
                if (std::chrono::steady_clock::now() - lastCheckpoint >= checkpointEvery) {
                    CaseFolder::writeBlobAtomically(file(CaseFolder::kCheckpointFile),
                                                    solver.checkpoint());
                    lastCheckpoint = std::chrono::steady_clock::now();
                }
                return true;
            },
            reportEvery);
        if (outcome == Solver::CavitySolver::Outcome::Stopped) {
            CaseFolder::writeBlobAtomically(file(CaseFolder::kCheckpointFile), solver.checkpoint());
            say("stopped by a signal at iteration " + std::to_string(solver.iteration())
                + "; checkpoint saved");
            return CaseFolder::kExitStopped;
        }
        const Solver::CaseResult r = solver.result();
        const std::string message
            = CfdTool::finalMessage(r, arguments.value("max_iterations", 20000));
        const nlohmann::json out = {
            {"attempt", attempt}, {"message", message}, {"result", CfdTool::result(arguments, r)}};
        if (!CaseFolder::writeAtomically(file(CaseFolder::kResultFile), out.dump(), error))
            return fail(CaseFolder::kExitSolverError, error);
        say(message);
        return CaseFolder::kExitDone;
    } catch (const std::exception &ex) {
        const nlohmann::json out
            = {{"attempt", attempt}, {"message", std::string("The solver failed: ") + ex.what()}};
        CaseFolder::writeAtomically(file(CaseFolder::kErrorFile), out.dump(), error);
        return fail(CaseFolder::kExitSolverError, ex.what());
    }
}
