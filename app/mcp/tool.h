#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

namespace Eddy::Mcp {

// One argument mirrored into an Mcp-Param-{headerName} header (x-mcp-header).
struct HeaderParam
{
    QString headerName; // as annotated, e.g. "Region"
    QStringList path;   // property names from the arguments object down to the value
    std::string type;   // "string", "integer" or "boolean"
};

// A tool from tools/list. fromJson() validates it: a tool whose x-mcp-header annotations break
// the spec's rules is rejected (the client drops it from its view and warns).
struct Tool
{
    QString name;
    QString title;
    QString description;
    nlohmann::json inputSchema;
    nlohmann::json outputSchema;  // null when absent
    nlohmann::json annotations;   // null when absent
    nlohmann::json execution;     // 2025-11-25 only: {taskSupport}
    std::vector<HeaderParam> headerParams;

    // 2025-11-25 execution.taskSupport: "forbidden" (default), "optional" or "required".
    QString taskSupport() const;

    static bool fromJson(const nlohmann::json &object, Tool *out, QString *error);
};

} // namespace Eddy::Mcp
