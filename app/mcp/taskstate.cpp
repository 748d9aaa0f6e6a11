#include "app/mcp/taskstate.h"

#include <algorithm>
#include <cstdint>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

QDateTime parseTime(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return {};
    return QDateTime::fromString(QString::fromStdString(it->get<std::string>()), Qt::ISODateWithMs);
}

// ttlMs / pollIntervalMs: integer ms, or null. Both eras' spellings are accepted everywhere
// because servers built from drafts mix them. A value of the wrong type or range never makes the
// whole task unreadable: a negative number is read as 0, a huge or fractional one is clamped to
// whole milliseconds below 2^53, and anything else (a string, an object) is ignored as if absent;
// each with a warning naming the field.
void parseMillis(const json &object, const char *modern, const char *legacy,
                 std::optional<qint64> *out, QString *warning)
{
    auto it = object.find(modern);
    if (it == object.end())
        it = object.find(legacy);
    *out = std::nullopt;
    if (it == object.end() || it->is_null())
        return;
    constexpr double kMax = 9.0e15;
    const auto warn = [warning, modern](const QString &what) {
        if (warning)
            *warning = QStringLiteral("the task's \"%1\" %2").arg(QLatin1String(modern), what);
    };
    if (it->is_number_unsigned()) {
        const auto v = it->get<std::uint64_t>();
        *out = qint64(std::min<std::uint64_t>(v, std::uint64_t(kMax)));
        if (v > std::uint64_t(kMax))
            warn(QStringLiteral("is out of range; clamped"));
        return;
    }
    if (it->is_number_integer()) {
        const qint64 v = it->get<qint64>();
        *out = std::max<qint64>(v, 0);
        if (v < 0)
            warn(QStringLiteral("is negative; read as 0"));
        return;
    }
    if (it->is_number_float()) {
        const double v = it->get<double>();
        if (v != v) { // NaN cannot come from JSON text, but a tree built in code may hold one
            warn(QStringLiteral("is not a number; ignored"));
            return;
        }
        *out = qint64(std::clamp(v, 0.0, kMax));
        if (v < 0 || v >= kMax)
            warn(QStringLiteral("is out of range (%1); clamped").arg(v));
        return;
    }
    warn(QStringLiteral("is not a number (%1); ignored")
             .arg(QString::fromStdString(it->dump()).left(40)));
}
} // namespace

bool TaskState::isToolError() const
{
    if (status != TaskStatus::Completed || !result.is_object())
        return false;
    const auto it = result.find("isError");
    return it != result.end() && it->is_boolean() && it->get<bool>();
}

bool TaskState::hasPayload() const
{
    return (status == TaskStatus::Completed && result.is_object())
           || (status == TaskStatus::Failed && error.is_object());
}

TaskState TaskState::parse(const json &input, Era era, Source source, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return TaskState();
    };
    if (!input.is_object())
        return fail(QStringLiteral("the task is not a JSON object"));
    const json *object = &input;
    // 2025-11-25 nests the created task: {"task": {...}}. Accept the nesting for either era,
    // but only when the outer object is not itself a task.
    if (const auto nested = input.find("task");
        nested != input.end() && nested->is_object() && !input.contains("taskId")) {
        if (source != Source::CreateResult)
            return fail(QStringLiteral("a nested {\"task\": ...} object is only valid as the "
                                       "answer of tools/call"));
        object = &*nested;
    }
    Q_UNUSED(era);
    TaskState state;
    const auto id = object->find("taskId");
    if (id == object->end() || !id->is_string() || id->get<std::string>().empty())
        return fail(QStringLiteral("the task has no taskId string"));
    state.taskId = id->get<std::string>();
    const auto status = object->find("status");
    if (status == object->end() || !status->is_string())
        return fail(QStringLiteral("the task has no status"));
    const auto parsed = taskStatusFromString(status->get<std::string>());
    if (!parsed)
        return fail(QStringLiteral("the task has an unknown status \"%1\"")
                        .arg(QString::fromStdString(status->get<std::string>())));
    state.status = *parsed;
    if (const auto msg = object->find("statusMessage"); msg != object->end() && msg->is_string())
        state.statusMessage = QString::fromStdString(msg->get<std::string>());
    state.createdAt = parseTime(*object, "createdAt");
    state.lastUpdatedAt = parseTime(*object, "lastUpdatedAt");
    QString warning;
    parseMillis(*object, "ttlMs", "ttl", &state.ttlMs, &warning);
    if (!warning.isEmpty())
        state.warnings << warning;
    warning.clear();
    parseMillis(*object, "pollIntervalMs", "pollInterval", &state.pollIntervalMs, &warning);
    if (!warning.isEmpty())
        state.warnings << warning;

    if (state.status == TaskStatus::InputRequired) {
        const auto requests = object->find("inputRequests");
        if (requests != object->end()) {
            if (!requests->is_object())
                return fail(QStringLiteral("the task's inputRequests is not an object"));
            state.inputRequests = *requests;
        }
    }
    if (state.status == TaskStatus::Completed) {
        // The inline result may or may not carry its own resultType ("complete"); both are
        // accepted, anything else is not a CallToolResult.
        const auto result = object->find("result");
        if (result != object->end() && !result->is_null()) {
            if (!result->is_object())
                return fail(QStringLiteral("the completed task's result is not an object"));
            const auto rt = result->find("resultType");
            if (rt != result->end() && !(rt->is_string() && rt->get<std::string>() == "complete"))
                return fail(QStringLiteral("the completed task's result has resultType %1; "
                                           "expected \"complete\" or none")
                                .arg(QString::fromStdString(rt->dump())));
            state.result = *result;
        }
    }
    if (state.status == TaskStatus::Failed) {
        const auto err = object->find("error");
        if (err != object->end() && !err->is_null()) {
            if (!err->is_object())
                return fail(QStringLiteral("the failed task's error is not an object"));
            state.error = *err;
        }
    }
    return state;
}

void TaskState::applyLegacyPayload(const json &resultOrNull, const json &errorOrNull)
{
    if (errorOrNull.is_object()) {
        status = TaskStatus::Failed;
        error = errorOrNull;
        result = nullptr;
        return;
    }
    if (resultOrNull.is_object()) {
        // 2025 calls a tool error `failed`; in Eddy's model a tool result is always completed.
        status = TaskStatus::Completed;
        json copy = resultOrNull;
        if (const auto meta = copy.find("_meta"); meta != copy.end() && meta->is_object()) {
            meta->erase("io.modelcontextprotocol/related-task");
            if (meta->empty())
                copy.erase("_meta");
        }
        result = std::move(copy);
        error = nullptr;
    }
}

} // namespace Eddy::Mcp
