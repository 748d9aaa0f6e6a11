#pragma once

#include <QString>
#include <QUrl>

namespace Eddy::Mcp {

// How to reach one MCP server. The token is a secret: never log it (Eddy::redactSecret).
struct ServerConfig
{
    QUrl url;
    QString token;
    bool verifyTls = true; // turning this off is an explicit per-server choice, warned about
    int timeoutMs = 30000; // per request (listen streams have none)
    // Slow-transfer floor for every request but listen streams: fewer than this many bytes a
    // second for the window abandons the transfer as a transient failure (0 = no floor).
    int lowSpeedBytesPerSec = 1024;
    int lowSpeedWindowMs = 30000;
    qint64 maxResponseBytes = 64 * 1024 * 1024; // larger answers are refused, not parsed
};

} // namespace Eddy::Mcp
