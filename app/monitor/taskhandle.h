#pragma once

#include "app/mcp/era.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

// Task references that move between clients: the SerializedTaskReference of the official
// TypeScript requester (@modelcontextprotocol/ext-tasks 0.2.2),
//   {"endpointId": "...", "generation": "v1"|"v2", "taskId": "...", "originalOperation":
//   "tools/call"}
// endpointId is NAMESPACE ":v1:sha256:" + hex SHA-256 of the canonical JSON of a connection
// descriptor. Eddy's namespace is "eddy" and its descriptor is
//   {"transport": "streamable-http", "url": SERVER_URL}
// (the server URL exactly as Eddy stores it). generation "v1" is the 2025-11-25 Tasks protocol,
// "v2" the 2026-07-28 Tasks extension. See docs/interop.md.
namespace TaskHandle {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::TaskHandle)
};
inline QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return Text::tr(text, disambiguation, n);
}

inline constexpr char s_namespace[] = "eddy";

// The requester's canonical JSON: object keys sorted by their JSON-escaped text compared in
// UTF-16 code units, no whitespace, strings escaped like JSON.stringify, numbers like JavaScript.
QByteArray canonicalJson(const nlohmann::json &value);
// NAMESPACE:v1:sha256:HEX of the canonical JSON of `descriptor`.
QString endpointId(const QString &nameSpace, const nlohmann::json &descriptor);
nlohmann::json connectionDescriptor(const QString &serverUrl);
// Eddy's endpoint id of a server URL.
QString endpointIdForServer(const QString &serverUrl);
// "v1" for a 2025-11-25 server, "v2" otherwise.
QString generationForEra(Mcp::Era era);

struct Reference
{
    QString endpointId;
    QString generation;        // "v1" or "v2"
    QString taskId;            // a bearer secret
    QString originalOperation; // "tools/call"
    nlohmann::json toJson() const;
};

// One reference from a JSON value; on failure an explanation of what is wrong.
std::optional<Reference> parse(const nlohmann::json &value, QString *error);

struct FileEntry
{
    int line = 0; // 1-based line (JSON lines) or element number (JSON array)
    std::optional<Reference> reference;
    QString error;
};
// A handles file: JSON lines (one reference per line, blank lines skipped), a JSON array of
// references, or one reference object. `fileError` is set when nothing could be read at all.
QList<FileEntry> parseFile(const QByteArray &content, QString *fileError);

// The short form of a secret for messages: its first 4 characters and an ellipsis.
QString redacted(const QString &taskId);

} // namespace TaskHandle

// What one import did.
struct HandleImportReport
{
    struct Line
    {
        int line = 0;
        enum class Outcome { Imported, Known, Rejected } outcome = Outcome::Rejected;
        qint64 taskId = 0; // Eddy's task number (Imported, Known)
        QString message;   // why it was rejected
    };
    QList<Line> lines;
    QString fileError; // nothing could be read
    int count(Line::Outcome o) const
    {
        int n = 0;
        for (const Line &l : lines)
            n += l.outcome == o;
        return n;
    }
};

struct HandleExport
{
    QByteArray jsonLines; // one reference per line
    int count = 0;
    QStringList skipped; // tasks that cannot be handed off, with why
    QString error;       // nothing could be exported (e.g. no such session)
};

} // namespace Eddy::Monitor
