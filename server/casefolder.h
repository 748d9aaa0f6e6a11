#pragma once

// The case folder a Slurm job shares with the server (--case-dir/<case key>/): the contract
// between eddy-cfd-server's Slurm backend and the standalone solver eddy-cfd-solve. Files:
//   case.json        written by the server before each submission: arguments, repairs, attempt
//                    (run_openfoam_case: "openfoam" names its case folder and --openfoam-cases)
//   progress.log     one statusMessage line per report, appended by the solver
//   checkpoint.bin   the solver's latest checkpoint (replaced atomically)
//   question.json    the mesh check's finding, when the mesh failed it (exit code kMeshQuestion);
//                    run_openfoam_case: the elicitation request itself, with checkMesh's summary
//   result.json      the finished run: CallToolResult and final status message
//   error.json       the solver's own failure, with a message
//   slurm-<job>.out  the job's stdout and stderr
// Every JSON file carries the attempt it belongs to (repairs.size()), so a stale file from an
// earlier attempt is never taken for this one's.

#include "server/solver/cavitysolver.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace Eddy::Server::CaseFolder {

// Exit codes of eddy-cfd-solve.
constexpr int kExitDone = 0;
constexpr int kExitSolverError = 1;
constexpr int kExitBadCase = 2;
constexpr int kExitMeshQuestion = 3;
constexpr int kExitStopped = 4; // SIGTERM (scancel, requeue, time limit): checkpoint saved

inline constexpr const char *kCaseFile = "case.json";
inline constexpr const char *kProgressFile = "progress.log";
inline constexpr const char *kCheckpointFile = "checkpoint.bin";
inline constexpr const char *kQuestionFile = "question.json";
inline constexpr const char *kResultFile = "result.json";
inline constexpr const char *kErrorFile = "error.json";

// The folder name for a task: a hash of the task id, so neither the folder nor the Slurm job
// name nor its comment reveals the id (a bearer secret).
std::string caseKey(const std::string &taskId);

// Writes text to path through a temporary file and rename: readers see old or new, never half.
bool writeAtomically(const std::string &path, const std::string &text, std::string &error);
bool writeBlobAtomically(const std::string &path, const std::vector<std::uint8_t> &blob);
// The file's JSON object, or a discarded value when it is missing or unreadable.
nlohmann::json readJson(const std::string &path);
std::vector<std::uint8_t> readBlob(const std::string &path);
// The last complete line of a text file (the current progress), empty when there is none.
std::string lastLine(const std::string &path);

nlohmann::json qualityToJson(const Solver::MeshQuality &q);
Solver::MeshQuality qualityFromJson(const nlohmann::json &j);

} // namespace Eddy::Server::CaseFolder
