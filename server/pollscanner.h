#pragma once

// Reads a 2026-07-28 tasks/get body without building a JSON tree: one pass, no allocation,
// string_views into the body. It accepts only the plain shape every client sends (no escapes,
// ASCII strings, no duplicate fields it reads, short numbers) and says "not plain" for anything
// else, so that the full nlohmann parser and McpHandler's validation decide every unusual
// request. Used on HttpServer's event threads; stateless.

#include <string_view>

namespace Eddy::Server {

class PollScanner final
{
public:
    struct Fields
    {
        std::string_view jsonrpc;
        std::string_view id; // raw JSON text: "\"abc\"" or "42"
        std::string_view method;
        std::string_view taskId;
        std::string_view protocolVersion;
        bool hasParams = false;
        bool hasMeta = false;
        bool hasCapabilities = false;
        bool declaresTasks = false; // capabilities.extensions has the Tasks extension object
    };

    // True when body is one well-formed, plain JSON object; out holds what was found.
    static bool scan(std::string_view body, Fields &out);
};

} // namespace Eddy::Server
