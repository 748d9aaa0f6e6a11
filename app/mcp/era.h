#pragma once

#include <QString>

namespace Eddy::Mcp {

// Which generation of MCP a server speaks. Modern = 2026-07-28 (per-request _meta, Tasks
// extension); Legacy = 2025-11-25 (initialize, sessions, the `task` param, tasks/result).
enum class Era { Unknown, Modern, Legacy };

inline constexpr const char *kModernVersion = "2026-07-28";
inline constexpr const char *kLegacyVersion = "2025-11-25";
inline constexpr const char *kTasksExtension = "io.modelcontextprotocol/tasks";

inline QString eraToString(Era era)
{
    switch (era) {
    case Era::Modern: return QStringLiteral("modern");
    case Era::Legacy: return QStringLiteral("legacy");
    case Era::Unknown: break;
    }
    return QStringLiteral("unknown");
}

inline Era eraFromString(QStringView text)
{
    if (text == u"modern")
        return Era::Modern;
    if (text == u"legacy")
        return Era::Legacy;
    return Era::Unknown;
}

} // namespace Eddy::Mcp
