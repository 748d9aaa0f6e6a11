#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

// The one set of helpers that read a field of a JSON object without throwing: a missing key,
// a non-object or a value of another type reads as empty. Used by every layer above net.
namespace Eddy::Json {

// A stored JSON text parsed without throwing: empty or malformed text reads as null. J is
// nlohmann::json, or nlohmann::ordered_json where the text's key order matters (exports).
template <typename J = nlohmann::json>
J parseText(const QString &text)
{
    if (text.isEmpty())
        return J();
    const QByteArray utf8 = text.toUtf8();
    J j = J::parse(utf8.constBegin(), utf8.constEnd(), nullptr, false);
    return j.is_discarded() ? J() : j;
}

// The string at `key`, or an empty QString.
inline QString string(const nlohmann::json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

// The number at `key` (integer or floating point), or nullopt.
inline std::optional<double> number(const nlohmann::json &object, const char *key)
{
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

} // namespace Eddy::Json
