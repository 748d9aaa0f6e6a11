#pragma once

// The fixture tools that the official MCP conformance suite (@modelcontextprotocol/conformance)
// calls by name on a server under test. Served only with --conformance-fixtures, so the product
// surface (run_cfd_case) stays as it is; tests/conformance runs the suite against them.
// Every fixture answers synchronously: none needs the Tasks extension.

#include "server/httpmessage.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server::ConformanceFixtures {

// Tool definitions (2026-07-28 Tool objects), listed before run_cfd_case.
nlohmann::json tools();
bool isTool(const std::string &name);

struct Outcome
{
    int httpStatus = 200;
    nlohmann::json result; // CallToolResult with resultType, when error is null
    nlohmann::json error;  // JSON-RPC error object {code, message, data?}, or null
};

// Runs fixture `name` for a request whose client declared `clientCapabilities`. Checks the
// Mcp-Param-* headers of x-mcp-header arguments first (SEP-2243): a missing, extra, malformed
// or different header is -32020 with HTTP 400.
Outcome call(const std::string &name, const nlohmann::json &arguments,
             const nlohmann::json &clientCapabilities, const HttpRequest &req);

} // namespace Eddy::Server::ConformanceFixtures
