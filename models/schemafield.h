#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace Eddy {

// One field of a JSON Schema object, reduced to what a form needs: its kind, bounds, titles,
// default and required flag. Plain data, built on any thread; SchemaForm (widgets/) renders it
// and the validation here runs before anything is sent, so it is testable without widgets.
struct SchemaField
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::SchemaField)

public:
    enum class Kind { String, Number, Integer, Boolean, Enum, Array, Object, Json };

    struct Option
    {
        nlohmann::json value;
        QString title;
    };

    std::string name; // property key; empty for the root object
    QString title;    // "title" or the name
    QString description;
    Kind kind = Kind::Json;
    bool required = false;
    nlohmann::json defaultValue; // null when the schema has no default
    nlohmann::json schema;       // the raw property schema

    // numbers and integers
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool exclusiveMaximum = false;
    // strings
    std::optional<int> minLength;
    std::optional<int> maxLength;
    QString pattern;
    QString format;
    // enums (and enum items of arrays)
    std::vector<Option> options;
    // arrays of primitives: the kind of one item (String/Number/Integer/Boolean/Enum)
    Kind itemKind = Kind::String;
    std::optional<int> minItems;
    std::optional<int> maxItems;
    // nested objects
    std::vector<SchemaField> children;

    bool hasDefault() const { return !defaultValue.is_null(); }
    bool isPrimitive() const;
    // The option title for a value, or the value as text when there is none.
    QString optionTitle(const nlohmann::json &value) const;

    // Builds the description of an object schema (the root of a tool's inputSchema or an
    // elicitation's requestedSchema); anything it cannot render as a form becomes Kind::Json.
    static SchemaField fromSchema(const nlohmann::json &schema, const std::string &name = {},
                                  bool required = false);

    // Checks a value against this field. An absent value is passed as a discarded/null json.
    // Messages are user-facing, name the field by title, and say what to enter instead.
    QStringList validate(const nlohmann::json &value) const;

    static QString kindName(Kind kind);
};

} // namespace Eddy
