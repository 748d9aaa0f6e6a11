#pragma once

// One JSON-RPC request or notification POSTed to /mcp, as McpHandler parsed it, handed to the
// methods of both eras (ModernMethods, LegacyMethods) and to StreamedCalls.

#include <nlohmann/json.hpp>

#include <string>

namespace Eddy::Server {

struct McpCall
{
    nlohmann::json id; // string or integer; null for notifications
    bool hasId = false;
    std::string method;
    nlohmann::json params = nlohmann::json::object();
    std::string tokenHash;
    std::string sessionId;
    bool declaresTasks = false;
};

} // namespace Eddy::Server
