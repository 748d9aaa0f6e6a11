#pragma once

// The run_openfoam_case tool: its schemas, argument validation (nothing runs before the whole
// input is checked, foamDictionary included), the mesh question built from checkMesh's findings,
// the answers to it, and the final CallToolResult. Pure apart from the foamDictionary and file
// checks in validate(); any thread.

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server {

class FoamLog;
struct CheckMeshReport;

class FoamTool final
{
public:
    static constexpr const char *name = "run_openfoam_case";

    // The Tool object for tools/list; legacy adds execution.taskSupport = "optional". Without
    // OpenFOAM its description says what to install.
    static nlohmann::json definition(bool legacy);

    // True for a task's arguments that run_openfoam_case validated (they carry its name).
    static bool isFoamTask(const nlohmann::json &arguments);

    // Checks the arguments and fills in defaults; casesRoot is --openfoam-cases (empty: only
    // templates). On failure returns false and error names the argument or entry and why.
    static bool validate(const nlohmann::json &arguments,
                         const std::string &casesRoot,
                         nlohmann::json &normalized,
                         std::string &error);
    // The folder the case is copied from: a template's tutorial or the engineer's own case.
    static std::string sourceFolder(const nlohmann::json &normalized,
                                    const std::string &casesRoot);

    // The elicitation/create request asking what to do about a mesh checkMesh failed.
    // note (may be empty) opens the message, e.g. why an earlier answer was not applied.
    static nlohmann::json meshQuestion(const CheckMeshReport &report, const std::string &note);
    // An answer to meshQuestion(): true with the engineer's choice as
    // {"action": "correct" | "change_mesh" | "continue", ...} (defaults filled in), or false
    // with why the case ends (abort, decline, dismissal, or an answer not understood).
    static bool parseAnswer(const nlohmann::json &response, nlohmann::json &answer,
                            std::string &why);

    // What the run came to, for the result.
    struct Outcome
    {
        std::string solver;
        bool steady = false;
        double endTime = 0;
        std::string caseDir;
        std::string failedStep;   // empty when the solver ran to its end
        std::string exitText;     // "killed by signal 8 (Floating point exception)"
        std::string logTail;      // the failed step's last log lines
        nlohmann::json scalars;   // function objects' last values
        nlohmann::json mesh;      // CheckMeshReport::toJson() of the last check
    };
    // The CallToolResult (without resultType): isError when a step failed or the residuals blew
    // up.
    static nlohmann::json result(const nlohmann::json &arguments, const FoamLog &log,
                                 const Outcome &outcome);
    // The statusMessage of a finished run.
    static std::string finalMessage(const FoamLog &log, const Outcome &outcome);
};

} // namespace Eddy::Server
