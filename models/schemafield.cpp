#include "models/schemafield.h"
#include "app/vocab/jsonfield.h"

#include <QDate>
#include <QDateTime>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <utility>
#include <cmath>

namespace Eddy {

namespace {

using json = nlohmann::json;


std::optional<int> integer(const json &j, const char *key)
{
    auto n = Json::number(j, key);
    if (!n || *n < 0)
        return std::nullopt;
    return static_cast<int>(std::min(*n, 1e9));
}

// The declared type, ignoring "null" in a type array ("type": ["number", "null"]).
std::string declaredType(const json &schema)
{
    if (!schema.is_object())
        return {};
    auto it = schema.find("type");
    if (it == schema.end())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_array()) {
        for (const auto &t : *it) {
            if (t.is_string() && t.get<std::string>() != "null")
                return t.get<std::string>();
        }
    }
    return {};
}

// oneOf/anyOf of {const, title} or enum (+ legacy enumNames): both spellings appear in the wild,
// sometimes together (enum for old validators, oneOf for the titles); the titled form wins.
std::vector<SchemaField::Option> enumOptions(const json &schema)
{
    std::vector<SchemaField::Option> options;
    if (!schema.is_object())
        return options;
    for (const char *key : {"oneOf", "anyOf"}) {
        auto it = schema.find(key);
        if (it == schema.end() || !it->is_array() || it->empty())
            continue;
        std::vector<SchemaField::Option> consts;
        bool allConst = true;
        for (const auto &alt : *it) {
            if (!alt.is_object() || !alt.contains("const")) {
                allConst = false;
                break;
            }
            consts.push_back({alt["const"], Json::string(alt, "title")});
        }
        if (allConst)
            return consts;
    }
    if (auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
        const json names = schema.value("enumNames", json::array());
        for (size_t i = 0; i < it->size(); ++i) {
            const json &v = (*it)[i];
            QString title;
            if (names.is_array() && i < names.size() && names[i].is_string())
                title = QString::fromStdString(names[i].get<std::string>());
            options.push_back({v, title});
        }
    }
    return options;
}

QString jsonText(const json &value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_number_float())
        return QString::number(value.get<double>(), 'g', 12);
    return QString::fromStdString(value.dump());
}

SchemaField::Kind primitiveKind(const json &schema)
{
    if (!enumOptions(schema).empty())
        return SchemaField::Kind::Enum;
    const std::string type = declaredType(schema);
    if (type == "string")
        return SchemaField::Kind::String;
    if (type == "number")
        return SchemaField::Kind::Number;
    if (type == "integer")
        return SchemaField::Kind::Integer;
    if (type == "boolean")
        return SchemaField::Kind::Boolean;
    return SchemaField::Kind::Json;
}

bool isIntegral(const json &value)
{
    if (value.is_number_integer() || value.is_number_unsigned())
        return true;
    if (value.is_number_float()) {
        const double d = value.get<double>();
        return std::isfinite(d) && std::floor(d) == d;
    }
    return false;
}

} // namespace

bool SchemaField::isPrimitive() const
{
    return kind == Kind::String || kind == Kind::Number || kind == Kind::Integer
           || kind == Kind::Boolean || kind == Kind::Enum;
}

QString SchemaField::optionTitle(const nlohmann::json &value) const
{
    for (const auto &o : options) {
        if (o.value == value)
            return o.title.isEmpty() ? jsonText(value) : o.title;
    }
    return jsonText(value);
}

SchemaField SchemaField::fromSchema(const nlohmann::json &schema, const std::string &name,
                                    bool required)
{
    SchemaField f;
    f.name = name;
    f.required = required;
    f.schema = schema;
    f.title = Json::string(schema, "title");
    if (f.title.isEmpty())
        f.title = QString::fromStdString(name);
    f.description = Json::string(schema, "description");
    if (schema.is_object()) {
        if (auto it = schema.find("default"); it != schema.end())
            f.defaultValue = *it;
    }

    const std::string type = declaredType(schema);
    f.options = enumOptions(schema);
    if (!f.options.empty()) {
        f.kind = Kind::Enum;
    } else if (type == "object" || (type.empty() && schema.is_object() && schema.contains("properties"))) {
        const json props = schema.value("properties", json());
        if (!props.is_object() || props.empty()) {
            f.kind = Kind::Json; // free-form object: only a JSON editor can express it
        } else {
            f.kind = Kind::Object;
            std::vector<std::string> req;
            if (auto r = schema.find("required"); r != schema.end() && r->is_array()) {
                for (const auto &k : *r) {
                    if (k.is_string())
                        req.push_back(k.get<std::string>());
                }
            }
            for (auto it = props.begin(); it != props.end(); ++it) {
                const bool isReq = std::find(req.begin(), req.end(), it.key()) != req.end();
                f.children.push_back(fromSchema(it.value(), it.key(), isReq));
            }
            // nlohmann::json sorts keys; an "x-order"/"propertyOrder" hint is honoured when
            // present, and otherwise the required fields come first: what must be filled in is
            // at the top of the form, not below the fold under the optional ones.
            std::stable_sort(f.children.begin(), f.children.end(), [](const auto &a, const auto &b) {
                auto order = [](const SchemaField &c) {
                    auto o = Json::number(c.schema, "x-order");
                    if (!o)
                        o = Json::number(c.schema, "propertyOrder");
                    return std::pair(o.value_or(1e9), c.required ? 0 : 1);
                };
                return order(a) < order(b);
            });
        }
    } else if (type == "string") {
        f.kind = Kind::String;
    } else if (type == "number") {
        f.kind = Kind::Number;
    } else if (type == "integer") {
        f.kind = Kind::Integer;
    } else if (type == "boolean") {
        f.kind = Kind::Boolean;
    } else if (type == "array") {
        const json items = schema.value("items", json());
        const Kind item = primitiveKind(items);
        if (item == Kind::Json) {
            f.kind = Kind::Json;
        } else {
            f.kind = Kind::Array;
            f.itemKind = item;
            if (item == Kind::Enum)
                f.options = enumOptions(items);
            f.minimum = Json::number(items, "minimum");
            f.maximum = Json::number(items, "maximum");
            f.pattern = Json::string(items, "pattern");
        }
        f.minItems = integer(schema, "minItems");
        f.maxItems = integer(schema, "maxItems");
    } else {
        f.kind = Kind::Json;
    }

    if (f.kind == Kind::Number || f.kind == Kind::Integer) {
        f.minimum = Json::number(schema, "minimum");
        f.maximum = Json::number(schema, "maximum");
        // 2020-12 spells exclusive bounds as numbers; draft-04 as booleans next to min/max.
        if (auto e = Json::number(schema, "exclusiveMinimum")) {
            f.minimum = e;
            f.exclusiveMinimum = true;
        } else if (schema.value("exclusiveMinimum", json()).is_boolean()) {
            f.exclusiveMinimum = schema["exclusiveMinimum"].get<bool>();
        }
        if (auto e = Json::number(schema, "exclusiveMaximum")) {
            f.maximum = e;
            f.exclusiveMaximum = true;
        } else if (schema.value("exclusiveMaximum", json()).is_boolean()) {
            f.exclusiveMaximum = schema["exclusiveMaximum"].get<bool>();
        }
    }
    if (f.kind == Kind::String) {
        f.minLength = integer(schema, "minLength");
        f.maxLength = integer(schema, "maxLength");
        f.pattern = Json::string(schema, "pattern");
        f.format = Json::string(schema, "format");
    }
    return f;
}

namespace {

QStringList validatePrimitive(const SchemaField &f, SchemaField::Kind kind, const json &v,
                              const QString &label)
{
    QStringList errors;
    switch (kind) {
    case SchemaField::Kind::String: {
        if (!v.is_string()) {
            errors << SchemaField::tr("%1 must be text.").arg(label);
            break;
        }
        const QString s = QString::fromStdString(v.get<std::string>());
        if (f.minLength && s.size() < *f.minLength)
            errors << SchemaField::tr("%1 needs at least %n character(s).", nullptr, *f.minLength).arg(label);
        if (f.maxLength && s.size() > *f.maxLength)
            errors << SchemaField::tr("%1 allows at most %n character(s).", nullptr, *f.maxLength).arg(label);
        if (!f.pattern.isEmpty()) {
            const QRegularExpression re(f.pattern);
            if (!re.isValid())
                break; // a broken pattern is the server's bug; do not block the user on it
            if (!re.match(s).hasMatch())
                errors << SchemaField::tr("%1 must match the pattern %2.").arg(label, f.pattern);
        }
        if (f.format == QLatin1String("email")) {
            static const QRegularExpression email(QStringLiteral("^[^@\\s]+@[^@\\s]+$"));
            if (!email.match(s).hasMatch())
                errors << SchemaField::tr("%1 must be an e-mail address like name@example.com.").arg(label);
        } else if (f.format == QLatin1String("uri")) {
            const QUrl url(s, QUrl::StrictMode);
            if (!url.isValid() || url.scheme().isEmpty())
                errors << SchemaField::tr("%1 must be a full URL such as https://example.com/.").arg(label);
        } else if (f.format == QLatin1String("date")) {
            if (!QDate::fromString(s, Qt::ISODate).isValid())
                errors << SchemaField::tr("%1 must be a date as YYYY-MM-DD.").arg(label);
        } else if (f.format == QLatin1String("date-time")) {
            if (!QDateTime::fromString(s, Qt::ISODate).isValid())
                errors << SchemaField::tr("%1 must be a date and time as YYYY-MM-DDThh:mm:ssZ.").arg(label);
        }
        break;
    }
    case SchemaField::Kind::Number:
    case SchemaField::Kind::Integer: {
        if (!v.is_number()) {
            errors << SchemaField::tr("%1 must be a number.").arg(label);
            break;
        }
        if (kind == SchemaField::Kind::Integer && !isIntegral(v)) {
            errors << SchemaField::tr("%1 must be a whole number.").arg(label);
            break;
        }
        const double d = v.get<double>();
        if (!std::isfinite(d)) {
            errors << SchemaField::tr("%1 must be a finite number.").arg(label);
            break;
        }
        const auto num = [](double x) { return QString::number(x, 'g', 12); };
        if (f.minimum && (f.exclusiveMinimum ? d <= *f.minimum : d < *f.minimum)) {
            errors << (f.exclusiveMinimum
                           ? SchemaField::tr("%1 must be greater than %2.").arg(label, num(*f.minimum))
                           : SchemaField::tr("%1 must be at least %2.").arg(label, num(*f.minimum)));
        }
        if (f.maximum && (f.exclusiveMaximum ? d >= *f.maximum : d > *f.maximum)) {
            errors << (f.exclusiveMaximum
                           ? SchemaField::tr("%1 must be less than %2.").arg(label, num(*f.maximum))
                           : SchemaField::tr("%1 must be at most %2.").arg(label, num(*f.maximum)));
        }
        break;
    }
    case SchemaField::Kind::Boolean:
        if (!v.is_boolean())
            errors << SchemaField::tr("%1 must be true or false.").arg(label);
        break;
    case SchemaField::Kind::Enum: {
        const bool known = std::any_of(f.options.begin(), f.options.end(),
                                       [&](const auto &o) { return o.value == v; });
        if (!known) {
            QStringList names;
            for (const auto &o : f.options)
                names << f.optionTitle(o.value);
            errors << SchemaField::tr("%1 must be one of: %2.").arg(label, names.join(QStringLiteral(", ")));
        }
        break;
    }
    default:
        break;
    }
    return errors;
}

} // namespace

QStringList SchemaField::validate(const nlohmann::json &value) const
{
    const QString label = title.isEmpty() ? tr("The value") : title;
    if (value.is_null() || value.is_discarded()) {
        if (required)
            return {tr("%1 is required.").arg(label)};
        return {};
    }
    switch (kind) {
    case Kind::String:
    case Kind::Number:
    case Kind::Integer:
    case Kind::Boolean:
    case Kind::Enum:
        return validatePrimitive(*this, kind, value, label);
    case Kind::Array: {
        if (!value.is_array())
            return {tr("%1 must be a list.").arg(label)};
        QStringList errors;
        if (minItems && static_cast<int>(value.size()) < *minItems)
            errors << tr("%1 needs at least %n item(s).", nullptr, *minItems).arg(label);
        if (maxItems && static_cast<int>(value.size()) > *maxItems)
            errors << tr("%1 allows at most %n item(s).", nullptr, *maxItems).arg(label);
        for (size_t i = 0; i < value.size(); ++i) {
            const QString itemLabel = tr("%1, item %2").arg(label).arg(i + 1);
            errors << validatePrimitive(*this, itemKind, value[i], itemLabel);
        }
        return errors;
    }
    case Kind::Object: {
        if (!value.is_object())
            return {tr("%1 must be an object.").arg(label)};
        QStringList errors;
        for (const auto &c : children) {
            auto it = value.find(c.name);
            errors << c.validate(it == value.end() ? json() : *it);
        }
        return errors;
    }
    case Kind::Json: {
        const std::string type = declaredType(schema);
        const bool ok = type.empty() || (type == "object" && value.is_object())
                        || (type == "array" && value.is_array()) || (type == "string" && value.is_string())
                        || (type == "number" && value.is_number()) || (type == "integer" && isIntegral(value))
                        || (type == "boolean" && value.is_boolean());
        if (!ok)
            return {tr("%1 must be JSON of type %2.").arg(label, QString::fromStdString(type))};
        return {};
    }
    }
    return {};
}

QString SchemaField::kindName(Kind kind)
{
    switch (kind) {
    case Kind::String: return tr("text");
    case Kind::Number: return tr("number");
    case Kind::Integer: return tr("whole number");
    case Kind::Boolean: return tr("yes/no");
    case Kind::Enum: return tr("choice");
    case Kind::Array: return tr("list");
    case Kind::Object: return tr("group");
    case Kind::Json: return tr("JSON");
    }
    return {};
}

} // namespace Eddy
