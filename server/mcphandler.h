#pragma once

// The MCP endpoint (POST /mcp): HTTP-level checks (Host, Origin, authorization), the fast
// tasks/get path, JSON-RPC framing, and the 2026-07-28 envelope (_meta, headers, version,
// capabilities). It then hands each method to the room that answers it: ModernMethods
// (2026-07-28), LegacyMethods (2025-11-25 sessions), StreamedCalls (--no-tasks-extension
// tools/call); OpenStreams holds their open SSE responses. Runs on HttpServer's event threads
// (polls) and request threads; SSE streams block their thread.

#include "server/httpmessage.h"
#include "server/mcpcall.h"
#include "server/mcpwire.h"
#include "server/serveroptions.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace Eddy::Server {

class LegacyMethods;
class LegacySession;
class ModernMethods;
class OAuthResourceServer;
class OpenStreams;
class StreamedCalls;
class TaskManager;

class McpHandler final
{
public:
    McpHandler(TaskManager &tasks, LegacySession &sessions, const ServerOptions &options);
    ~McpHandler();

    // Routes one HTTP request (any method, any path).
    void handle(const HttpRequest &req, HttpResponse &res);
    // True for requests answered from memory without blocking (polls): run them inline.
    static bool isFastPath(const HttpRequest &req);
    // Gives an error status without a body a JSON-RPC error body (413, 404, 431, ...).
    static void fillError(HttpResponse &res);
    // Ends every open SSE stream gracefully and refuses new ones (server shutdown).
    void beginShutdown();
    // --oauth-issuer: every request needs an access token that oauth accepts, each task is
    // bound to the token's principal (issuer and sub), and GET serves the protected resource
    // metadata. Set before serving; oauth outlives the handler. Polls then leave the fast path.
    void setOAuth(OAuthResourceServer *oauth) { m_oauth = oauth; }

    // Mcp-Name and Mcp-Param-* values: plain, or =?base64?...?= around UTF-8 bytes (strict
    // standard Base64 with padding); surrounding whitespace is not part of the value. False:
    // a malformed Base64 form.
    static bool decodeHeaderValue(std::string_view raw, std::string &out);

    static constexpr const char *kModernVersion = McpWire::kModernVersion;
    static constexpr const char *kLegacyVersion = McpWire::kLegacyVersion;
    static constexpr const char *kTasksExtension = McpWire::kTasksExtension;

private:
    // Serves a plain, valid 2026 tasks/get without building a JSON tree; false: anything
    // else, which handlePost then parses and validates in full (and words its errors).
    bool servePoll(const HttpRequest &req, HttpResponse &res);
    void handlePost(const HttpRequest &req, HttpResponse &res);
    void handleModern(const HttpRequest &req, HttpResponse &res, McpCall &call);

    static bool isLegacyInitialize(const HttpRequest &req, const McpCall &call);

    // DNS-rebinding protection (docs/server.md): false after answering 403.
    bool guardRebinding(const HttpRequest &req, HttpResponse &res) const;
    // Host present (or HTTP/1.0), once, well-formed and allowed; false after answering 400/403.
    bool checkHost(const HttpRequest &req, const std::string_view *host, HttpResponse &res) const;
    bool isAllowedHost(std::string_view hostHeader) const;
    bool isAllowedOrigin(std::string_view origin, const std::string_view *hostHeader) const;

    // --oauth-issuer: checks the access token; fills tokenHash with the principal's hash, or
    // answers 401/403/503 and returns false.
    bool authorizeOAuth(const HttpRequest &req, HttpResponse &res, std::string &tokenHash);
    // GET of the protected resource metadata; false when req is not one.
    bool serveResourceMetadata(const HttpRequest &req, HttpResponse &res) const;

    bool checkHeaders(const HttpRequest &req, HttpResponse &res, const McpCall &call,
                      const std::string &version);

    TaskManager &m_tasks;
    LegacySession &m_sessions;
    const ServerOptions m_options;
    std::string m_tokenHash; // SHA-256 of --token, computed once
    std::string m_bearer;    // "Bearer " + --token, the Authorization value to expect
    const bool m_checkHost; // loopback bind or --allowed-host given: Host must be allowed
    OAuthResourceServer *m_oauth = nullptr;

    // Every open SSE response, closed at shutdown.
    std::unique_ptr<OpenStreams> m_streams;
    // --no-tasks-extension: run_cfd_case's streamed tools/call, in either era.
    std::unique_ptr<StreamedCalls> m_streamed;
    // Every message of a 2025-11-25 session, and the initialize that opens one.
    std::unique_ptr<LegacyMethods> m_legacy;
    // Every 2026-07-28 method, once handleModern has checked the request's envelope.
    std::unique_ptr<ModernMethods> m_modern;
};

} // namespace Eddy::Server
