#include "app/mcp/tool.h"

#include "app/mcp/headers.h"
#include "app/vocab/jsonfield.h"

namespace Eddy::Mcp {

using nlohmann::json;

QString Tool::taskSupport() const
{
    if (execution.is_object()) {
        const QString value = Json::string(execution, "taskSupport");
        if (value == QLatin1String("optional") || value == QLatin1String("required"))
            return value;
    }
    return QStringLiteral("forbidden");
}

bool Tool::fromJson(const json &object, Tool *out, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!object.is_object())
        return fail(QStringLiteral("a tool entry is not a JSON object"));
    Tool tool;
    tool.name = Json::string(object, "name");
    if (tool.name.isEmpty())
        return fail(QStringLiteral("a tool has no name"));
    const auto schema = object.find("inputSchema");
    if (schema == object.end() || !schema->is_object())
        return fail(QStringLiteral("tool \"%1\" has no inputSchema object").arg(tool.name));
    tool.inputSchema = *schema;
    tool.title = Json::string(object, "title");
    tool.description = Json::string(object, "description");
    if (const auto it = object.find("outputSchema"); it != object.end() && it->is_object())
        tool.outputSchema = *it;
    if (const auto it = object.find("annotations"); it != object.end() && it->is_object()) {
        tool.annotations = *it;
        if (tool.title.isEmpty())
            tool.title = Json::string(*it, "title");
    }
    if (const auto it = object.find("execution"); it != object.end() && it->is_object())
        tool.execution = *it;
    QString why;
    if (!Headers::collectHeaderParams(tool.inputSchema, &tool.headerParams, &why))
        return fail(QStringLiteral("tool \"%1\" was dropped: %2").arg(tool.name, why));
    if (out)
        *out = std::move(tool);
    return true;
}

} // namespace Eddy::Mcp
