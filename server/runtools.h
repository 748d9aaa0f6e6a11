#pragma once

// The tools that run a case as a task (run_cfd_case, run_openfoam_case) as this server's
// options present them to either era: run_cfd_case's Tool object, and the check of a call's
// name and arguments. Pure functions, any thread.

#include "server/serveroptions.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server::RunTools {

// run_cfd_case's Tool object for this mode (Tasks extension or streamed).
nlohmann::json cfdDefinition(const ServerOptions &options, bool legacy);
// The answer to a tools/call of a tool this server does not have, in either era: it names the
// tools there are (-32602 with this message).
const char *unknownToolMessage();
// Validates a call of a task-running tool (run_cfd_case, run_openfoam_case) by name;
// false with a tool error's text.
bool validate(const ServerOptions &options, const nlohmann::json &name,
              const nlohmann::json &arguments, nlohmann::json &normalized, std::string &error);

} // namespace Eddy::Server::RunTools
