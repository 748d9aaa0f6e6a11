#include "app/monitor/taskhandle.h"

#include <QCryptographicHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace Eddy::Monitor {

using json = nlohmann::json;

namespace {

// A string escaped as JSON.stringify does: ", \ and the C0 controls (short forms where JSON has
// them, else \u00xx in lower case); everything else as is (UTF-8).
void appendString(QByteArray &out, const std::string &s)
{
    out += '"';
    for (const unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

// A double as ECMAScript Number::toString writes it (shortest round-trip digits).
QByteArray jsNumber(double v)
{
    if (!std::isfinite(v))
        return "null"; // JSON.stringify writes NaN and Infinity as null
    if (v == 0)
        return "0";
    // Shortest round-trip digits from nlohmann's dump (Grisu2), e.g. "1.5", "1e-07", "12345.0".
    const std::string text = json(std::abs(v)).dump();
    std::string mantissa = text;
    int exp10 = 0;
    if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
        mantissa = text.substr(0, e);
        exp10 = std::stoi(text.substr(e + 1));
    }
    std::string digits;
    int pointAt = int(mantissa.size());
    for (std::size_t i = 0; i < mantissa.size(); ++i) {
        if (mantissa[i] == '.')
            pointAt = int(i);
        else
            digits += mantissa[i];
    }
    // value = 0.DIGITS x 10^n
    int n = pointAt + exp10;
    const auto firstNonZero = digits.find_first_not_of('0');
    n -= int(firstNonZero);
    digits.erase(0, firstNonZero);
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    const int k = int(digits.size());
    std::string out = v < 0 ? "-" : "";
    if (k <= n && n <= 21) {
        out += digits + std::string(std::size_t(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, std::size_t(n)) + "." + digits.substr(std::size_t(n));
    } else if (-6 < n && n <= 0) {
        out += "0." + std::string(std::size_t(-n), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (k > 1)
            out += "." + digits.substr(1);
        out += "e" + std::string(n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
    }
    return QByteArray::fromStdString(out);
}

void appendCanonical(QByteArray &out, const json &v)
{
    switch (v.type()) {
    case json::value_t::object: {
        // Sorted by the escaped key text, compared in UTF-16 code units like JavaScript's <.
        struct Entry
        {
            QByteArray escaped;
            QString utf16;
            const json *value;
        };
        std::vector<Entry> entries;
        entries.reserve(v.size());
        for (auto it = v.begin(); it != v.end(); ++it) {
            Entry e;
            appendString(e.escaped, it.key());
            e.utf16 = QString::fromUtf8(e.escaped);
            e.value = &it.value();
            entries.push_back(std::move(e));
        }
        std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
            return a.utf16 < b.utf16;
        });
        out += '{';
        bool first = true;
        for (const Entry &e : entries) {
            if (!first)
                out += ',';
            first = false;
            out += e.escaped;
            out += ':';
            appendCanonical(out, *e.value);
        }
        out += '}';
        return;
    }
    case json::value_t::array: {
        out += '[';
        bool first = true;
        for (const json &e : v) {
            if (!first)
                out += ',';
            first = false;
            appendCanonical(out, e);
        }
        out += ']';
        return;
    }
    case json::value_t::string:
        appendString(out, v.get_ref<const std::string &>());
        return;
    case json::value_t::number_float:
        out += jsNumber(v.get<double>());
        return;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        // JavaScript holds every number as a double.
        out += jsNumber(v.get<double>());
        return;
    case json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        return;
    default:
        out += "null";
        return;
    }
}

QString text(const json &obj, const char *key)
{
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                              : QString();
}

} // namespace

namespace TaskHandle {

QByteArray canonicalJson(const json &value)
{
    QByteArray out;
    appendCanonical(out, value);
    return out;
}

QString endpointId(const QString &nameSpace, const json &descriptor)
{
    const QByteArray digest
        = QCryptographicHash::hash(canonicalJson(descriptor), QCryptographicHash::Sha256);
    return nameSpace + QStringLiteral(":v1:sha256:") + QString::fromLatin1(digest.toHex());
}

json connectionDescriptor(const QString &serverUrl)
{
    return json{{"transport", "streamable-http"}, {"url", serverUrl.toStdString()}};
}

QString endpointIdForServer(const QString &serverUrl)
{
    return endpointId(QString::fromLatin1(s_namespace), connectionDescriptor(serverUrl));
}

QString generationForEra(Mcp::Era era)
{
    return era == Mcp::Era::Legacy ? QStringLiteral("v1") : QStringLiteral("v2");
}

json Reference::toJson() const
{
    return json{{"endpointId", endpointId.toStdString()},
                {"generation", generation.toStdString()},
                {"taskId", taskId.toStdString()},
                {"originalOperation", originalOperation.toStdString()}};
}

QString redacted(const QString &taskId)
{
    return taskId.left(4) + QStringLiteral("…");
}

std::optional<Reference> parse(const json &value, QString *error)
{
    auto failed = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!value.is_object())
        return failed(tr("a task reference must be a JSON object with endpointId, generation, "
                         "taskId and originalOperation"));
    QStringList missing;
    for (const char *key : {"endpointId", "generation", "taskId", "originalOperation"}) {
        const auto it = value.find(key);
        if (it == value.end() || !it->is_string() || it->get_ref<const std::string &>().empty())
            missing << QString::fromLatin1(key);
    }
    if (!missing.isEmpty())
        return failed(
            tr("%1 missing or not a non-empty string").arg(missing.join(QStringLiteral(", "))));
    Reference r;
    r.endpointId = text(value, "endpointId");
    r.generation = text(value, "generation");
    r.taskId = text(value, "taskId");
    r.originalOperation = text(value, "originalOperation");
    if (r.generation != QLatin1String("v1") && r.generation != QLatin1String("v2"))
        return failed(tr("generation is \"%1\"; it must be \"v1\" (2025-11-25 Tasks) or \"v2\" "
                         "(2026-07-28 Tasks extension)")
                          .arg(r.generation.left(20)));
    if (r.originalOperation != QLatin1String("tools/call"))
        return failed(tr("originalOperation is \"%1\"; only \"tools/call\" tasks can be resumed")
                          .arg(r.originalOperation.left(40)));
    const QStringList parts = r.endpointId.split(QLatin1Char(':'));
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (parts.size() < 4 || parts[parts.size() - 3] != QLatin1String("v1")
        || parts[parts.size() - 2] != QLatin1String("sha256")
        || !hex.match(parts.last()).hasMatch())
        return failed(tr("endpointId \"%1\" is not NAMESPACE:v1:sha256:HEX (64 lower-case hex "
                         "digits), as createTaskSessionEndpointId makes it")
                          .arg(r.endpointId.left(100)));
    return r;
}

QList<FileEntry> parseFile(const QByteArray &content, QString *fileError)
{
    QList<FileEntry> entries;
    const QByteArray trimmed = content.trimmed();
    if (trimmed.isEmpty()) {
        if (fileError)
            *fileError = tr("the file is empty; it should hold task references, one JSON object "
                            "per line");
        return entries;
    }
    if (trimmed.startsWith('[')) {
        const json arr = json::parse(trimmed.constBegin(), trimmed.constEnd(), nullptr, false);
        if (arr.is_discarded() || !arr.is_array()) {
            if (fileError)
                *fileError = tr("the file starts with [ but is not a valid JSON array");
            return entries;
        }
        int n = 0;
        for (const json &v : arr) {
            FileEntry e;
            e.line = ++n;
            e.reference = parse(v, &e.error);
            entries << e;
        }
        return entries;
    }
    const QList<QByteArray> lines = content.split('\n');
    // One pretty-printed object spread over several lines is one reference too.
    const json whole = json::parse(trimmed.constBegin(), trimmed.constEnd(), nullptr, false);
    if (!whole.is_discarded() && whole.is_object()) {
        FileEntry e;
        e.line = 1;
        e.reference = parse(whole, &e.error);
        entries << e;
        return entries;
    }
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        FileEntry e;
        e.line = i + 1;
        const json v = json::parse(line.constBegin(), line.constEnd(), nullptr, false);
        if (v.is_discarded())
            e.error = tr("not valid JSON (each line must be one task reference object)");
        else
            e.reference = parse(v, &e.error);
        entries << e;
    }
    return entries;
}

} // namespace TaskHandle

} // namespace Eddy::Monitor
