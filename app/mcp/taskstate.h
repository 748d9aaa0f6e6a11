#pragma once

#include "app/mcp/era.h"
#include "app/mcp/rawjson.h"
#include "app/mcp/taskstatus.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace Eddy::Mcp {

// A task as Eddy sees it, whichever era the server speaks. In this model a tool error
// (isError: true) is always a *completed* task; `failed` means a JSON-RPC error only.
struct TaskState
{
    std::string taskId; // a bearer secret: log only redactSecret(taskId)
    TaskStatus status = TaskStatus::Working;
    std::optional<QString> statusMessage;
    QDateTime createdAt;
    QDateTime lastUpdatedAt;
    std::optional<qint64> ttlMs;          // nullopt = unlimited
    std::optional<qint64> pollIntervalMs; // nullopt = server gave no hint
    // Object keyed by request key, or null; kept as the text the server sent (~1 KB per form
    // instead of a ~4 KB tree): read it through the inbox, parsed() or tree().
    RawJson inputRequests;
    nlohmann::json result;                // CallToolResult when completed, else null
    nlohmann::json error;                 // JSON-RPC error object when failed, else null
    // Fields of the wrong type or range that were clamped or ignored (one sentence each).
    QStringList warnings;

    bool isValid() const { return !taskId.empty(); }
    bool isTerminal() const { return Mcp::isTerminal(status); }
    bool isToolError() const;             // completed with result.isError == true
    bool hasPayload() const;              // completed with result, or failed with error

    enum class Source {
        CreateResult, // tools/call answer (2026 flat resultType "task", 2025 nested {task})
        GetResult,    // tasks/get (2026 DetailedTask, 2025 flat Task)
        Notification, // notifications/tasks (2026) or notifications/tasks/status (2025)
    };
    // Parses one task object. On failure returns an invalid state and sets *error to a
    // sentence naming the bad field.
    static TaskState parse(const nlohmann::json &object, Era era, Source source,
                           QString *error = nullptr);
    // 2025: folds what tasks/result returned into a terminal state. A CallToolResult with
    // isError becomes completed (the legacy `failed` is normalised); a JSON-RPC error object
    // becomes failed.
    void applyLegacyPayload(const nlohmann::json &resultOrNull, const nlohmann::json &errorOrNull);
};

} // namespace Eddy::Mcp
