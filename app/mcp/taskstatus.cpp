#include "app/mcp/taskstatus.h"

namespace Eddy::Mcp {

QString toString(TaskStatus status)
{
    switch (status) {
    case TaskStatus::Working: return QStringLiteral("working");
    case TaskStatus::InputRequired: return QStringLiteral("input_required");
    case TaskStatus::Completed: return QStringLiteral("completed");
    case TaskStatus::Failed: return QStringLiteral("failed");
    case TaskStatus::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("working");
}

std::optional<TaskStatus> taskStatusFromString(std::string_view text)
{
    if (text == "working")
        return TaskStatus::Working;
    if (text == "input_required")
        return TaskStatus::InputRequired;
    if (text == "completed")
        return TaskStatus::Completed;
    if (text == "failed")
        return TaskStatus::Failed;
    if (text == "cancelled")
        return TaskStatus::Cancelled;
    return std::nullopt;
}

} // namespace Eddy::Mcp
