#pragma once

#include "app/mcp/tool.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

#include <utility>

namespace Eddy::Mcp {

// The Streamable HTTP request-metadata headers of 2026-07-28: value encoding with the base64
// sentinel and the x-mcp-header rules. Pure functions, usable from any thread.
class Headers final
{
public:
    // A value safe as a plain header value is sent as is; anything else (non-ASCII, control
    // characters, leading/trailing whitespace, or text that looks like the sentinel) becomes
    // "=?base64?<base64 of UTF-8>?=".
    static QByteArray encodeValue(const QString &value);
    static QByteArray encodeValue(const std::string &utf8);
    // The same for UTF-8 bytes; a plain value comes back shared, without a copy.
    static QByteArray encodeUtf8(const QByteArray &utf8);
    static bool isPlainSafe(const QByteArray &utf8);
    // Reverses encodeValue (for tests and fake servers); *ok = false on a malformed sentinel.
    static QString decodeValue(const QByteArray &value, bool *ok = nullptr);
    // RFC 9110 tchar token: what an x-mcp-header name must be.
    static bool isToken(const QString &name);

    // Validates the x-mcp-header annotations of a tool's inputSchema. On success fills *params.
    static bool collectHeaderParams(const nlohmann::json &inputSchema,
                                    std::vector<HeaderParam> *params, QString *error);
    // The Mcp-Param-* headers for one call (absent or null arguments produce no header).
    // Fails if an annotated argument has the wrong type or an out-of-range integer.
    static bool paramHeaders(const std::vector<HeaderParam> &params, const nlohmann::json &arguments,
                             QList<std::pair<QByteArray, QByteArray>> *out, QString *error);
};

} // namespace Eddy::Mcp
