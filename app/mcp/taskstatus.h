#pragma once

#include <QString>

#include <optional>
#include <string_view>

namespace Eddy::Mcp {

enum class TaskStatus { Working, InputRequired, Completed, Failed, Cancelled };

// Wire names: "working", "input_required", "completed", "failed", "cancelled".
QString toString(TaskStatus status);
std::optional<TaskStatus> taskStatusFromString(std::string_view text);
inline bool isTerminal(TaskStatus status)
{
    return status == TaskStatus::Completed || status == TaskStatus::Failed
           || status == TaskStatus::Cancelled;
}

} // namespace Eddy::Mcp
