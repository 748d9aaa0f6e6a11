#pragma once

// Checks the task tools share when they validate their arguments (run_cfd_case,
// run_openfoam_case): unknown keys, name-like strings, and the wording of a refusal. Pure; any
// thread.

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace Eddy::Server::ToolArgs {

// False, with "Unknown argument 'x': TOOL accepts a, b and c.", when arguments has a key that is
// not in known.
bool onlyKnown(const nlohmann::json &arguments,
               std::initializer_list<const char *> known,
               const std::string &tool,
               std::string &error);
// "Invalid argument 'grid': must be an integer from 8 to 1024 (got 4)."
std::string invalid(const nlohmann::json &arguments, const char *arg, const std::string &what);
// An optional name-like argument (case_name, idempotency_key): when present a non-empty string
// of at most 200 characters, copied to normalized; false with error otherwise.
bool optionalName(const nlohmann::json &arguments, const char *arg, nlohmann::json &normalized,
                  std::string &error);
// The inputSchema property of such a name-like argument.
nlohmann::json nameSchema(const std::string &description);
// The value as compact JSON, cut after max characters ("...").
std::string shortJson(const nlohmann::json &v, std::size_t max = 40);

} // namespace Eddy::Server::ToolArgs
