#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace Eddy::Monitor {

// Checks tool arguments against the subset of JSON Schema that tool inputSchemas use (type,
// properties, required, additionalProperties, minimum/maximum, exclusiveMinimum/Maximum, enum,
// const, oneOf of consts, items of primitive arrays, minLength/maxLength). Pure; any thread.
class SchemaValidator final
{
public:
    // One sentence per problem, each naming the argument ("reynolds: 0 is below the minimum 1").
    // Empty = valid. Unknown properties are reported when the schema lists properties and does
    // not allow additional ones explicitly.
    static QStringList validate(const nlohmann::json &value, const nlohmann::json &schema,
                                const QString &path = {});
    // The JSON type name of a schema property ("integer", "number", ...), or empty.
    static QString typeOf(const nlohmann::json &propertySchema);
    // Fills missing properties that have a "default" (top level only).
    static nlohmann::json withDefaults(const nlohmann::json &object, const nlohmann::json &schema);
};

} // namespace Eddy::Monitor
