#pragma once

// The run_cfd_case tool: its schemas, argument validation, and the texts and JSON it produces
// (status messages, the mesh question, the final CallToolResult). Pure functions, any thread.

#include "server/solver/cavitysolver.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server {

class CfdTool final
{
public:
    static constexpr const char *name = "run_cfd_case";

    // The Tool object for tools/list; legacy adds execution.taskSupport = "optional".
    static nlohmann::json definition(bool legacy);

    // Checks the arguments and fills in defaults. On failure returns false and error names the
    // argument and what to send instead.
    static bool validate(const nlohmann::json &arguments, nlohmann::json &normalized,
                         std::string &error);
    static Solver::CaseParams caseParams(const nlohmann::json &normalized);

    // The vorticity residual's name in messages and in the result's residual_history (UTF-8 ω).
    static constexpr const char *OmegaName = "\xcf\x89";

    // "iteration 4200 of 12000, residual 3.1e-4 (u 2.0e-4, v 3.1e-4, ω 8.7e-5)"
    static std::string progressMessage(const Solver::Progress &progress);
    // " (u 2.0e-4, v 3.1e-4, ω 8.7e-5)"
    static std::string fieldResiduals(double u, double v, double omega);
    // The status message of a finished run, with its last iteration and residuals:
    // "converged at iteration 812 of 20000, residual 9.8e-7 (u ..., v ..., ω ...)" or
    // "stopped at the iteration limit, not converged: iteration 200 of 200, residual ...".
    static std::string finalMessage(const Solver::CaseResult &result, int maxIterations);
    // Two significant digits in e-notation without exponent padding: 3.1e-4 (`decimals` 2:
    // three significant digits, 3.14e-4).
    static std::string sci(double value, int decimals = 1);

    // The elicitation/create request (method + params) asking whether to repair the mesh.
    static nlohmann::json meshQuestion(const Solver::MeshQuality &quality, bool retry);

    // The CallToolResult (without resultType) for a finished run.
    static nlohmann::json result(const nlohmann::json &arguments, const Solver::CaseResult &r);
    // A CallToolResult with isError: true and one text block.
    static nlohmann::json errorResult(const std::string &message);
};

} // namespace Eddy::Server
