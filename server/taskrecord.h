#pragma once

// The durable part of one task: what SQLite holds and what the in-memory cache mirrors.
// Plain data, copied freely; the solver checkpoint blob lives only in the store.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace Eddy::Server {

enum class TaskStatus { Working, InputRequired, Completed, Failed, Cancelled };

inline const char *statusName(TaskStatus status)
{
    switch (status) {
    case TaskStatus::Working: return "working";
    case TaskStatus::InputRequired: return "input_required";
    case TaskStatus::Completed: return "completed";
    case TaskStatus::Failed: return "failed";
    case TaskStatus::Cancelled: return "cancelled";
    }
    return "failed";
}

inline bool statusFromName(const std::string &name, TaskStatus &out)
{
    for (TaskStatus s : {TaskStatus::Working, TaskStatus::InputRequired, TaskStatus::Completed,
                         TaskStatus::Failed, TaskStatus::Cancelled}) {
        if (name == statusName(s)) {
            out = s;
            return true;
        }
    }
    return false;
}

inline bool isTerminal(TaskStatus status)
{
    return status == TaskStatus::Completed || status == TaskStatus::Failed
           || status == TaskStatus::Cancelled;
}

struct TaskRecord
{
    std::string id;
    std::string tokenHash;        // SHA-256 of the creator's bearer token, empty without auth
    std::string idempotencyKey;   // empty when none was given
    bool legacy = false;          // created through a 2025-11-25 session
    TaskStatus status = TaskStatus::Working;
    std::string statusMessage;
    std::int64_t createdMs = 0;   // Unix epoch milliseconds
    std::int64_t updatedMs = 0;
    std::int64_t ttlMs = 0;
    nlohmann::json arguments = nlohmann::json::object(); // validated run_cfd_case arguments
    nlohmann::json inputRequests;  // object of outstanding requests, or null
    nlohmann::json result;         // CallToolResult without resultType, or null
    nlohmann::json error;          // JSON-RPC error object, or null
    int keyCounter = 0;            // last mesh_repair_N key handed out; keys are never reused
    std::vector<int> repairs;      // smoothing passes applied, in order, to rebuild the mesh
    // The store's change number of the row this record was read from or last written as (0: not
    // stored yet). A write expects it unchanged, so replicas sharing the store never overwrite
    // each other's changes (server/replicasync.h).
    std::int64_t seq = 0;
};

} // namespace Eddy::Server
