#include "app/mcp/headers.h"

#include <QSet>
#include <QStringDecoder>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

constexpr qint64 kMaxSafeInteger = 9007199254740991LL; // 2^53 - 1

bool looksLikeSentinel(const QByteArray &v)
{
    // A view, not left(): this runs on every Mcp-Name of every poll.
    return v.size() >= 11 && QByteArrayView(v).first(9).compare("=?base64?", Qt::CaseInsensitive) == 0
           && v.endsWith("?=");
}

// Keywords whose values are data, not subschemas: an "x-mcp-header" key inside them means nothing.
bool isDataKeyword(const std::string &key)
{
    return key == "enum" || key == "const" || key == "default" || key == "examples"
           || key == "x-mcp-header" || key == "required" || key == "description"
           || key == "title";
}

struct Walker
{
    std::vector<HeaderParam> *params;
    QSet<QString> seen; // lower-case header names
    QString error;

    bool walk(const json &node, const QStringList &path, bool reachable)
    {
        if (node.is_array()) {
            for (const json &child : node)
                if (!walk(child, path, false))
                    return false;
            return true;
        }
        if (!node.is_object())
            return true;
        const auto annotation = node.find("x-mcp-header");
        if (annotation != node.end()) {
            if (!reachable || path.isEmpty()) {
                error = QStringLiteral("x-mcp-header on a schema not reachable through "
                                       "\"properties\" alone (inside items, a combinator, a "
                                       "conditional or a $ref target)");
                return false;
            }
            if (!check(node, *annotation, path))
                return false;
        }
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (isDataKeyword(it.key()))
                continue;
            if (it.key() == "properties" && it.value().is_object()) {
                for (auto prop = it.value().begin(); prop != it.value().end(); ++prop) {
                    QStringList childPath = path;
                    childPath << QString::fromStdString(prop.key());
                    if (!walk(prop.value(), childPath, reachable))
                        return false;
                }
                continue;
            }
            if (!walk(it.value(), path, false))
                return false;
        }
        return true;
    }

    bool check(const json &node, const json &annotation, const QStringList &path)
    {
        const QString where = path.join(QLatin1Char('.'));
        if (!annotation.is_string()) {
            error = QStringLiteral("x-mcp-header of \"%1\" is not a string").arg(where);
            return false;
        }
        const QString name = QString::fromStdString(annotation.get<std::string>());
        if (!Headers::isToken(name)) {
            error = QStringLiteral("x-mcp-header \"%1\" of \"%2\" is not a valid header name "
                                   "token").arg(name, where);
            return false;
        }
        if (seen.contains(name.toLower())) {
            error = QStringLiteral("x-mcp-header \"%1\" is used twice (names are compared "
                                   "case-insensitively)").arg(name);
            return false;
        }
        const auto type = node.find("type");
        const std::string t = type != node.end() && type->is_string() ? type->get<std::string>()
                                                                      : std::string();
        if (t != "string" && t != "integer" && t != "boolean") {
            error = QStringLiteral("x-mcp-header \"%1\" is on \"%2\", which is not a string, "
                                   "integer or boolean property").arg(name, where);
            return false;
        }
        seen.insert(name.toLower());
        params->push_back(HeaderParam{name, path, t});
        return true;
    }
};

const json *valueAt(const json &arguments, const QStringList &path)
{
    const json *node = &arguments;
    for (const QString &key : path) {
        if (!node->is_object())
            return nullptr;
        const auto it = node->find(key.toStdString());
        if (it == node->end())
            return nullptr;
        node = &*it;
    }
    return node;
}

} // namespace

bool Headers::isPlainSafe(const QByteArray &v)
{
    if (v.isEmpty())
        return true;
    if (v.front() == ' ' || v.front() == '\t' || v.back() == ' ' || v.back() == '\t')
        return false;
    for (char c : v) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u > 0x7E)
            return false;
    }
    return !looksLikeSentinel(v);
}

QByteArray Headers::encodeUtf8(const QByteArray &utf8)
{
    if (isPlainSafe(utf8))
        return utf8;
    return "=?base64?" + utf8.toBase64() + "?=";
}

QByteArray Headers::encodeValue(const std::string &utf8)
{
    return encodeUtf8(QByteArray(utf8.data(), qsizetype(utf8.size())));
}

QByteArray Headers::encodeValue(const QString &value)
{
    return encodeValue(value.toStdString());
}

// QString::fromUtf8 drops a leading U+FEFF; a header value is data, so keep every character.
static QString utf8Exact(QByteArrayView bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom
                                                     | QStringDecoder::Flag::Stateless);
    return decoder(bytes);
}

QString Headers::decodeValue(const QByteArray &value, bool *ok)
{
    if (ok)
        *ok = true;
    if (!value.startsWith("=?base64?") || !value.endsWith("?=") || value.size() < 11)
        return utf8Exact(value);
    const QByteArray payload = value.mid(9, value.size() - 11);
    const auto decoded = QByteArray::fromBase64Encoding(payload, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded) {
        if (ok)
            *ok = false;
        return {};
    }
    return utf8Exact(*decoded);
}

bool Headers::isToken(const QString &name)
{
    if (name.isEmpty())
        return false;
    static const QByteArray specials("!#$%&'*+-.^_`|~");
    for (QChar ch : name) {
        const char16_t c = ch.unicode();
        const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                        || (c < 128 && specials.contains(char(c)));
        if (!ok)
            return false;
    }
    return true;
}

bool Headers::collectHeaderParams(const json &inputSchema, std::vector<HeaderParam> *params,
                                  QString *error)
{
    std::vector<HeaderParam> found;
    Walker walker{&found, {}, {}};
    if (!walker.walk(inputSchema, {}, true)) {
        if (error)
            *error = walker.error;
        return false;
    }
    if (params)
        *params = std::move(found);
    return true;
}

bool Headers::paramHeaders(const std::vector<HeaderParam> &params, const json &arguments,
                           QList<std::pair<QByteArray, QByteArray>> *out, QString *error)
{
    for (const HeaderParam &param : params) {
        const json *value = valueAt(arguments, param.path);
        if (!value || value->is_null())
            continue;
        QByteArray encoded;
        if (param.type == "string" && value->is_string()) {
            encoded = encodeValue(value->get<std::string>());
        } else if (param.type == "integer" && value->is_number_integer()) {
            const qint64 n = value->is_number_unsigned()
                                 ? qint64(qMin<quint64>(value->get<quint64>(), quint64(kMaxSafeInteger) + 1))
                                 : value->get<qint64>();
            if (n > kMaxSafeInteger || n < -kMaxSafeInteger) {
                if (error)
                    *error = QStringLiteral("argument \"%1\" is outside ±(2^53−1) and cannot be "
                                            "sent as header Mcp-Param-%2")
                                 .arg(param.path.join(QLatin1Char('.')), param.headerName);
                return false;
            }
            encoded = QByteArray::number(n);
        } else if (param.type == "boolean" && value->is_boolean()) {
            encoded = value->get<bool>() ? "true" : "false";
        } else {
            if (error)
                *error = QStringLiteral("argument \"%1\" must be a %2 (it is mirrored into header "
                                        "Mcp-Param-%3)")
                             .arg(param.path.join(QLatin1Char('.')),
                                  QString::fromStdString(param.type), param.headerName);
            return false;
        }
        if (out)
            out->append({"Mcp-Param-" + param.headerName.toLatin1(), encoded});
    }
    return true;
}

} // namespace Eddy::Mcp
