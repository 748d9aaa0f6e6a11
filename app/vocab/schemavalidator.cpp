#include "app/vocab/schemavalidator.h"

#include <cmath>

namespace Eddy::Monitor {

namespace {

using json = nlohmann::json;

QString show(const json &v)
{
    return QString::fromStdString(v.dump());
}

QString where(const QString &path)
{
    return path.isEmpty() ? QStringLiteral("arguments") : path;
}

bool matchesType(const json &v, const std::string &type)
{
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "boolean") return v.is_boolean();
    if (type == "null") return v.is_null();
    if (type == "number") return v.is_number();
    if (type == "integer") {
        if (v.is_number_integer()) return true;
        if (v.is_number_float()) {
            const double d = v.get<double>();
            return std::isfinite(d) && std::floor(d) == d;
        }
        return false;
    }
    return true; // unknown type keyword: do not reject what we do not understand
}

} // namespace

QString SchemaValidator::typeOf(const json &schema)
{
    if (!schema.is_object())
        return {};
    const auto it = schema.find("type");
    if (it == schema.end())
        return {};
    if (it->is_string())
        return QString::fromStdString(it->get<std::string>());
    if (it->is_array())
        for (const json &t : *it)
            if (t.is_string() && t.get<std::string>() != "null")
                return QString::fromStdString(t.get<std::string>());
    return {};
}

QStringList SchemaValidator::validate(const json &value, const json &schema, const QString &path)
{
    QStringList errors;
    if (!schema.is_object())
        return errors; // `true` or absent schema: anything goes
    const QString at = where(path);

    if (const auto it = schema.find("type"); it != schema.end()) {
        bool ok = false;
        QStringList names;
        if (it->is_string()) {
            ok = matchesType(value, it->get<std::string>());
            names << QString::fromStdString(it->get<std::string>());
        } else if (it->is_array()) {
            for (const json &t : *it) {
                if (!t.is_string())
                    continue;
                names << QString::fromStdString(t.get<std::string>());
                ok = ok || matchesType(value, t.get<std::string>());
            }
        } else {
            ok = true;
        }
        if (!ok) {
            errors << QStringLiteral("%1: %2 is not of type %3").arg(at, show(value), names.join(QStringLiteral(" or ")));
            return errors; // further checks would only repeat the same problem
        }
    }
    if (const auto it = schema.find("const"); it != schema.end() && value != *it)
        errors << QStringLiteral("%1: %2 must be %3").arg(at, show(value), show(*it));
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
        bool found = false;
        for (const json &e : *it)
            found = found || e == value
                    || (e.is_number() && value.is_number() && e.get<double>() == value.get<double>());
        if (!found)
            errors << QStringLiteral("%1: %2 is not one of %3").arg(at, show(value), show(*it));
    }
    if (const auto it = schema.find("oneOf"); it != schema.end() && it->is_array()) {
        int matches = 0;
        QStringList allowed;
        for (const json &alt : *it) {
            if (alt.is_object() && alt.contains("const"))
                allowed << show(alt["const"]);
            if (validate(value, alt, path).isEmpty())
                ++matches;
        }
        if (matches != 1)
            errors << (allowed.isEmpty()
                           ? QStringLiteral("%1: %2 does not match exactly one allowed form").arg(at, show(value))
                           : QStringLiteral("%1: %2 is not one of [%3]").arg(at, show(value), allowed.join(QStringLiteral(", "))));
    }
    if (const auto it = schema.find("anyOf"); it != schema.end() && it->is_array()) {
        bool any = false;
        for (const json &alt : *it)
            any = any || validate(value, alt, path).isEmpty();
        if (!any)
            errors << QStringLiteral("%1: %2 does not match any allowed form").arg(at, show(value));
    }
    if (value.is_number()) {
        const double d = value.get<double>();
        auto num = [&](const char *key) -> std::optional<double> {
            const auto k = schema.find(key);
            if (k != schema.end() && k->is_number())
                return k->get<double>();
            return std::nullopt;
        };
        if (auto m = num("minimum"); m && d < *m)
            errors << QStringLiteral("%1: %2 is below the minimum %3").arg(at, show(value)).arg(*m);
        if (auto m = num("maximum"); m && d > *m)
            errors << QStringLiteral("%1: %2 is above the maximum %3").arg(at, show(value)).arg(*m);
        if (auto m = num("exclusiveMinimum"); m && d <= *m)
            errors << QStringLiteral("%1: %2 must be greater than %3").arg(at, show(value)).arg(*m);
        if (auto m = num("exclusiveMaximum"); m && d >= *m)
            errors << QStringLiteral("%1: %2 must be less than %3").arg(at, show(value)).arg(*m);
        if (!std::isfinite(d))
            errors << QStringLiteral("%1: %2 is not a finite number").arg(at, show(value));
    }
    if (value.is_string()) {
        const auto len = QString::fromStdString(value.get<std::string>()).size();
        if (const auto k = schema.find("minLength"); k != schema.end() && k->is_number_integer() && len < k->get<qint64>())
            errors << QStringLiteral("%1: is shorter than %2 characters").arg(at).arg(k->get<qint64>());
        if (const auto k = schema.find("maxLength"); k != schema.end() && k->is_number_integer() && len > k->get<qint64>())
            errors << QStringLiteral("%1: is longer than %2 characters").arg(at).arg(k->get<qint64>());
    }
    if (value.is_array()) {
        if (const auto items = schema.find("items"); items != schema.end() && items->is_object()) {
            for (size_t i = 0; i < value.size(); ++i)
                errors << validate(value[i], *items, QStringLiteral("%1[%2]").arg(at).arg(i));
        }
        if (const auto k = schema.find("minItems"); k != schema.end() && k->is_number_integer() && qint64(value.size()) < k->get<qint64>())
            errors << QStringLiteral("%1: needs at least %2 items").arg(at).arg(k->get<qint64>());
        if (const auto k = schema.find("maxItems"); k != schema.end() && k->is_number_integer() && qint64(value.size()) > k->get<qint64>())
            errors << QStringLiteral("%1: allows at most %2 items").arg(at).arg(k->get<qint64>());
    }
    if (value.is_object()) {
        const json props = schema.value("properties", json::object());
        if (const auto req = schema.find("required"); req != schema.end() && req->is_array()) {
            for (const json &name : *req)
                if (name.is_string() && !value.contains(name.get<std::string>()))
                    errors << QStringLiteral("%1: the required argument \"%2\" is missing")
                                  .arg(at, QString::fromStdString(name.get<std::string>()));
        }
        const auto additional = schema.find("additionalProperties");
        const bool closed = props.is_object() && !props.empty()
                            && !(additional != schema.end() && (additional->is_object() || (additional->is_boolean() && additional->get<bool>())));
        for (auto it = value.begin(); it != value.end(); ++it) {
            const QString child = path.isEmpty() ? QString::fromStdString(it.key())
                                                 : QStringLiteral("%1.%2").arg(path, QString::fromStdString(it.key()));
            if (props.is_object() && props.contains(it.key())) {
                errors << validate(it.value(), props[it.key()], child);
            } else if (closed) {
                QStringList known;
                for (auto p = props.begin(); p != props.end(); ++p)
                    known << QString::fromStdString(p.key());
                errors << QStringLiteral("%1: unknown argument (the tool accepts: %2)").arg(child, known.join(QStringLiteral(", ")));
            } else if (additional != schema.end() && additional->is_object()) {
                errors << validate(it.value(), *additional, child);
            }
        }
    }
    return errors;
}

json SchemaValidator::withDefaults(const json &object, const json &schema)
{
    json out = object.is_object() ? object : json::object();
    const json props = schema.is_object() ? schema.value("properties", json::object()) : json::object();
    if (!props.is_object())
        return out;
    for (auto it = props.begin(); it != props.end(); ++it)
        if (!out.contains(it.key()) && it.value().is_object() && it.value().contains("default"))
            out[it.key()] = it.value()["default"];
    return out;
}

} // namespace Eddy::Monitor
