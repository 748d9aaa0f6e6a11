#pragma once

// The classic job-id tools over the same task store as run_cfd_case, for clients without the
// Tasks extension: submit_cfd_case (returns a job id), get_cfd_case_status (one id or many),
// answer_cfd_case (the mesh question), cancel_cfd_case and get_cfd_result. Plain synchronous
// tools/call in both protocol eras. A job id is the case's task id: a bearer secret, only ever
// logged redacted. Pure functions over TaskManager; any thread.

#include "server/taskmanager.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server {

class JobTools final
{
public:
    static constexpr const char *submitTool = "submit_cfd_case";
    static constexpr const char *statusTool = "get_cfd_case_status";
    static constexpr const char *answerTool = "answer_cfd_case";
    static constexpr const char *cancelTool = "cancel_cfd_case";
    static constexpr const char *resultTool = "get_cfd_result";
    // The most ids one get_cfd_case_status call takes.
    static constexpr int maxBatch = 100;

    static bool isTool(const std::string &name);
    // The five Tool objects for tools/list (the same in both eras).
    static nlohmann::json definitions();

    // queued, running, input_required, completed, failed or cancelled.
    static const char *state(const TaskManager::Snapshot &snap);
    // 0..1: iterations run over max_iterations; 1 once completed.
    static double progress(const TaskManager::Snapshot &snap);

    // Runs one job tool; returns its CallToolResult (without resultType). Bad arguments and
    // unknown ids give a result with isError and a text that says what to send instead.
    static nlohmann::json call(TaskManager &tasks,
                               const ServerOptions &options,
                               const std::string &name,
                               const nlohmann::json &arguments,
                               const std::string &tokenHash);
};

} // namespace Eddy::Server
