#include "server/runtools.h"

#include "server/cfdtool.h"
#include "server/foamtool.h"

namespace Eddy::Server::RunTools {

using nlohmann::json;

const char *unknownToolMessage()
{
    return "Unknown tool: this server has run_cfd_case, run_openfoam_case and the job tools "
           "submit_cfd_case, get_cfd_case_status, answer_cfd_case, cancel_cfd_case and "
           "get_cfd_result (see tools/list)";
}

json cfdDefinition(const ServerOptions &options, bool legacy)
{
    json tool = CfdTool::definition(legacy && options.tasksExtension);
    if (!options.tasksExtension)
        tool["description"] =
            "Runs a 2D incompressible Navier-Stokes simulation of the lid-driven cavity and "
            "returns the centreline velocity profiles at the Ghia, Ghia & Shin (1982) sample "
            "points, the primary vortex centre and convergence data. Long-running: the call "
            "streams notifications/progress (iteration of max_iterations) until the result; "
            "closing the stream cancels the run. If the mesh fails its quality check the call "
            "asks whether to repair it or abort (elicitation).";
    return tool;
}

bool validate(const ServerOptions &options, const json &name, const json &arguments,
              json &normalized, std::string &error)
{
    if (name.is_string() && name.get<std::string>() == CfdTool::name)
        return CfdTool::validate(arguments, normalized, error);
    if (!name.is_string() || name.get<std::string>() != FoamTool::name) {
        error = unknownToolMessage();
        return false;
    }
    if (!options.tasksExtension) {
        error = "run_openfoam_case runs as a task only: this server was started with "
                "--no-tasks-extension; use a server without it";
        return false;
    }
    return FoamTool::validate(arguments, options.openfoamCases, normalized, error);
}

} // namespace Eddy::Server::RunTools
