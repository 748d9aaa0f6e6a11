#pragma once

#include "app/mcp/era.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace Eddy::Mcp {

// What a server said about itself: server/discover (modern) or initialize (legacy).
struct DiscoverInfo
{
    Era era = Era::Unknown;
    QString serverName;
    QString serverVersion;
    QString protocolVersion; // the version this client will speak to it
    QStringList supportedVersions;
    nlohmann::json capabilities = nlohmann::json::object();
    QString instructions;
    qint64 ttlMs = 0;        // cache freshness of this answer
    QDateTime fetchedAt;

    // Modern: capabilities.extensions["io.modelcontextprotocol/tasks"]; legacy:
    // capabilities.tasks.requests.tools.call.
    bool offersTasks() const;

    // A server/discover result (2026-07-28) and an initialize result (2025-11-25) in which the
    // server chose `version`; fetchedAt is now.
    static DiscoverInfo fromDiscoverResult(const nlohmann::json &result);
    static DiscoverInfo fromInitializeResult(const nlohmann::json &result, const QString &version);
};

} // namespace Eddy::Mcp
