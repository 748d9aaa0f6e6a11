#pragma once

// The fixture tools that the official MCP conformance suite (@modelcontextprotocol/conformance)
// calls by name on a server under test. Served only with --conformance-fixtures, so the product
// surface (run_cfd_case) stays as it is; tests/conformance runs the suite against them.
// Every fixture answers synchronously: none needs the Tasks extension.

#include "server/httpmessage.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
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

struct Request
{
    std::string name;
    nlohmann::json arguments = nlohmann::json::object();
    nlohmann::json clientCapabilities = nlohmann::json::object();
    bool declaresTasks = false;
    nlohmann::json inputResponses; // tools/call retry (SEP-2322), or null
    nlohmann::json requestState;   // echoed opaque string, or null
    std::string tokenHash;
    int pollIntervalMs = 1000;
    std::int64_t ttlMs = 0;
};

// The task-producing fixtures of the tasks-* scenarios (slow_compute, failing_job,
// protocol_error_job, confirm_delete, multi_input, test_tool_with_task). Their tasks live in
// memory only, apart from run_cfd_case's durable store: they exist for the suite's wire checks.
class TaskTable final
{
public:
    // Runs fixture req.name. Checks the Mcp-Param-* headers of x-mcp-header arguments first
    // (SEP-2243): a missing, extra, malformed or different header is -32020 with HTTP 400.
    Outcome call(const Request &req, const HttpRequest &http);
    // tasks/get, tasks/update, tasks/cancel of a fixture task; false: no such fixture task
    // (run_cfd_case's TaskManager is asked next).
    bool get(const std::string &taskId, const std::string &tokenHash, nlohmann::json &detail);
    bool update(const std::string &taskId,
                const std::string &tokenHash,
                const nlohmann::json &inputResponses);
    bool cancel(const std::string &taskId, const std::string &tokenHash);

private:
    struct Job;
    Outcome createTask(const Request &req, Job job);
    void advance(Job &job, std::int64_t now);

    std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<Job>> m_jobs;
};

} // namespace Eddy::Server::ConformanceFixtures
