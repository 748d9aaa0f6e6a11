#include "server/mcphandler.h"

#include "server/base64.h"
#include "server/legacymethods.h"
#include "server/legacysession.h"
#include "server/log.h"
#include "server/mcpwire.h"
#include "server/modernmethods.h"
#include "server/oauth.h"
#include "server/openstreams.h"
#include "server/pollscanner.h"
#include "server/secrets.h"
#include "server/spells.h"
#include "server/streamedcalls.h"
#include "server/taskmanager.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>

namespace Eddy::Server {

using nlohmann::json;

using namespace McpWire;

namespace {

template<std::size_t N>
[[gnu::always_inline]] inline bool same(std::string_view a, const char (&lit)[N])
{
    return a.size() == N - 1 && spells(a.data(), lit);
}

template<std::size_t N>
[[gnu::always_inline]] inline bool startsWith(std::string_view a, const char (&lit)[N])
{
    return a.size() >= N - 1 && spells(a.data(), lit);
}

[[gnu::always_inline]] inline bool same(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

// McpHandler::kModernVersion as an array, for same().
constexpr char kModern[] = "2026-07-28";
static_assert(std::string_view(kModern) == McpHandler::kModernVersion);

bool isAcceptable(std::string_view accept)
{
    // What clients send ("application/json, text/event-stream") passes on one compare.
    if (startsWith(accept, "application/json"))
        return true;
    return containsIgnoreCase(accept, "application/json")
           || containsIgnoreCase(accept, "text/event-stream") || containsIgnoreCase(accept, "*/*")
           || containsIgnoreCase(accept, "application/*");
}

// The host part of an Origin or Host value: "http://[::1]:80" -> "[::1]", "a.b:8" -> "a.b".
std::string_view hostOf(std::string_view value)
{
    value = trimOws(value);
    if (const auto scheme = value.find("://"); scheme != std::string_view::npos)
        value.remove_prefix(scheme + 3);
    if (const auto slash = value.find('/'); slash != std::string_view::npos)
        value = value.substr(0, slash);
    if (!value.empty() && value.front() == '[') {
        const auto end = value.find(']');
        return end == std::string_view::npos ? value : value.substr(0, end + 1);
    }
    if (const auto colon = value.find(':'); colon != std::string_view::npos)
        value = value.substr(0, colon);
    return value;
}

// A Host value a local client sends: 127.0.0.1, localhost or [::1] and a port of digits, which
// hostOf() would reduce to a loopback name. Anything else goes through hostOf().
bool isLoopbackHostPort(std::string_view value)
{
    std::size_t port = 0;
    if (startsWith(value, "127.0.0.1:") || startsWith(value, "localhost:"))
        port = 10;
    else if (startsWith(value, "[::1]:"))
        port = 6;
    else
        return false;
    for (std::size_t i = port; i < value.size(); ++i)
        if (value[i] < '0' || value[i] > '9')
            return false;
    return true;
}

bool isRegNameChar(char c)
{
    // unreserved and sub-delims (RFC 3986 2.3, 2.2); '%' is checked with its two hex digits.
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || (c != '\0' && std::strchr("-._~!$&'()*+,;=", c) != nullptr);
}

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// What is wrong with a character c found in a Host value, for the 400 message.
std::string badHostChar(char c, std::string_view port)
{
    if (c == '@')
        return "it contains '@', but user information (name@) is never part of a Host";
    if (c == '/' || c == '?' || c == '#')
        return "it contains a path or query, but a Host names only the host and the port";
    if (c == ' ' || c == '\t')
        return "it contains a blank";
    if (c == ':')
        return "it has more than one ':' (an IPv6 address goes in brackets, as in [::1]:8000)";
    if (!port.empty())
        return "the port '" + std::string(port) + "' is not a number";
    return "it contains a character that no host name has";
}

// Why value is not a Host value, uri-host [ ":" port ] (RFC 9110 7.2; RFC 3986 3.2.2, 3.2.3);
// empty when it is one. The host is a reg-name or IPv4 address, or an IPv6 address in
// brackets (IPvFuture is in the grammar, but nothing reaches this server by one); it may not be
// empty (RFC 9110 4.2.1: an http URI has a host). The port may be empty, as port = *DIGIT
// allows ("localhost:" means the default port).
std::string hostSyntaxError(std::string_view value)
{
    if (value.empty())
        return "it is empty";
    std::string_view host = value;
    std::string_view port;
    if (value.front() == '[') {
        const auto close = value.find(']');
        if (close == std::string_view::npos)
            return "the IPv6 address has no closing ']'";
        const std::string address(value.substr(1, close - 1));
        in6_addr parsed{};
        if (inet_pton(AF_INET6, address.c_str(), &parsed) != 1)
            return "'[" + address + "]' is not an IPv6 address";
        const std::string_view rest = value.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            return "only ':' and a port may follow the ']'";
        port = rest.substr(rest.empty() ? 0 : 1);
    } else {
        if (const auto colon = value.find(':'); colon != std::string_view::npos) {
            host = value.substr(0, colon);
            port = value.substr(colon + 1);
        }
        if (host.empty())
            return "the host before the ':' is empty";
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i] == '%' && i + 2 < host.size() && isHexDigit(host[i + 1])
                && isHexDigit(host[i + 2])) {
                i += 2;
                continue;
            }
            if (!isRegNameChar(host[i]))
                return badHostChar(host[i], {});
        }
    }
    for (const char c : port)
        if (c < '0' || c > '9')
            return badHostChar(c, port);
    return {};
}

bool isLoopbackName(std::string_view host)
{
    return equalsIgnoreCase(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

bool isLoopbackBind(const std::string &host)
{
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1" || host == "[::1]";
}

} // namespace

bool McpHandler::decodeHeaderValue(std::string_view raw, std::string &out)
{
    raw = trimOws(raw);
    static constexpr std::string_view prefix = "=?base64?";
    static constexpr std::string_view suffix = "?=";
    if (raw.size() >= prefix.size() + suffix.size() && raw.substr(0, prefix.size()) == prefix
        && raw.substr(raw.size() - suffix.size()) == suffix)
        return decodeBase64(raw.substr(prefix.size(), raw.size() - prefix.size() - suffix.size()),
                            out);
    out = std::string(raw);
    return true;
}

McpHandler::McpHandler(TaskManager &tasks, LegacySession &sessions, const ServerOptions &options)
    : m_tasks(tasks), m_sessions(sessions), m_options(options)
    , m_checkHost(isLoopbackBind(options.host) || !options.allowedHosts.empty())
    , m_streams(std::make_unique<OpenStreams>(tasks))
    , m_streamed(std::make_unique<StreamedCalls>(tasks, sessions, m_options, *m_streams))
    , m_legacy(std::make_unique<LegacyMethods>(tasks, sessions, m_options, *m_streams,
                                               *m_streamed))
    , m_modern(std::make_unique<ModernMethods>(tasks, m_options, *m_streams, *m_streamed))
{
    if (!m_options.token.empty()) {
        m_tokenHash = Secrets::sha256Hex(m_options.token);
        m_bearer = "Bearer " + m_options.token;
    }
}

McpHandler::~McpHandler() = default;

[[gnu::hot]] bool McpHandler::isFastPath(const HttpRequest &req)
{
    if (std::string_view(req.method) != "POST" || req.header(HttpRequest::Known::McpSessionId))
        return false;
    const std::string_view *header = req.header(HttpRequest::Known::McpMethod);
    if (!header)
        return false;
    const std::string_view method = *header;
    // The header must match the body (checked later), so these never reach a slow handler.
    return method == "tasks/get" || method == "server/discover" || method == "tools/list";
}

[[gnu::hot]] bool McpHandler::isAllowedHost(std::string_view hostHeader) const
{
    const std::string_view host = hostOf(hostHeader);
    if (!m_checkHost || isLoopbackName(host))
        return true;
    return std::any_of(m_options.allowedHosts.begin(), m_options.allowedHosts.end(),
                       [host](const std::string &a) { return equalsIgnoreCase(a, host); });
}

bool McpHandler::isAllowedOrigin(std::string_view origin, const std::string_view *hostHeader) const
{
    origin = trimOws(origin);
    while (!origin.empty() && origin.back() == '/')
        origin.remove_suffix(1);
    if (std::any_of(m_options.allowedOrigins.begin(), m_options.allowedOrigins.end(),
                    [origin](const std::string &a) { return equalsIgnoreCase(a, origin); }))
        return true;
    if (origin.find("://") == std::string_view::npos)
        return false; // "null" (a sandboxed page or a file) and anything malformed
    const std::string_view host = hostOf(origin);
    if (isLoopbackName(host))
        return true;
    // A page served by this server's own (allowed) name, e.g. through a reverse proxy.
    return hostHeader && !host.empty() && equalsIgnoreCase(host, hostOf(*hostHeader))
           && isAllowedHost(*hostHeader);
}

bool McpHandler::checkHost(const HttpRequest &req, const std::string_view *host,
                           HttpResponse &res) const
{
    // RFC 9112 3.2: a missing (in HTTP/1.1), repeated or invalid Host is answered 400.
    static constexpr std::string_view send
        = "; send one Host header with the host and port of the server's URL, e.g. "
          "'Host: 127.0.0.1:8000' for http://127.0.0.1:8000/mcp";
    const auto bad = [&](const std::string &what) {
        sendError(res, 400, nullptr, -32600, "Bad request: " + what + std::string(send));
        return false;
    };
    if (!host)
        return req.http10 || bad("the Host header is missing (HTTP/1.1 requires one)");
    if (req.repeatedHost())
        return bad("the request has more than one Host header");
    if (host->empty())
        return bad("the Host header is empty");
    if (const std::string why = hostSyntaxError(*host); !why.empty()) {
        constexpr std::size_t kShown = 100;
        const std::string shown = host->size() > kShown
                                      ? std::string(host->substr(0, kShown)) + "..."
                                      : std::string(*host);
        return bad("the Host header '" + shown + "' is not of the form host[:port]: " + why);
    }
    if (isAllowedHost(*host))
        return true;
    sendError(res, 403, nullptr, -32600,
              "Forbidden: Host '" + std::string(hostOf(*host))
                  + "' is not a name of this server; a server on a loopback address answers "
                    "only Host localhost, 127.0.0.1 or [::1] (DNS-rebinding protection). "
                    "Behind a reverse proxy, start it with --allowed-host NAME");
    return false;
}

[[gnu::hot]] bool McpHandler::guardRebinding(const HttpRequest &req, HttpResponse &res) const
{
    const std::string_view *host = req.header(HttpRequest::Known::Host);
    // The usual Host, one 127.0.0.1:PORT, passes on one comparison; any other is checked in full.
    if ((!host || !isLoopbackHostPort(*host) || req.repeatedHost()) && !checkHost(req, host, res))
        return false;
    const std::string_view *origin = req.header(HttpRequest::Known::Origin);
    if (origin && !isAllowedOrigin(*origin, host)) {
        // A web page must not drive a local solver server (DNS rebinding): spec says 403.
        sendError(res, 403, nullptr, -32600,
                  "Forbidden: requests from the web origin '" + std::string(trimOws(*origin))
                      + "' are not accepted; use a local client, or start the server with "
                        "--allowed-origin ORIGIN to trust that page");
        return false;
    }
    return true;
}

[[gnu::hot]] void McpHandler::handle(const HttpRequest &req, HttpResponse &res)
{
    if (!guardRebinding(req, res))
        return;
    if (m_oauth && serveResourceMetadata(req, res))
        return;
    if (std::string_view(req.path) != "/mcp") {
        res.status = 404;
        return;
    }
    if (std::string_view(req.method) == "POST") {
        if (!servePoll(req, res))
            handlePost(req, res);
        return;
    }
    if (req.method == "DELETE") {
        const std::string session = req.get_header_value("Mcp-Session-Id");
        if (!session.empty()) {
            std::string owner = m_tokenHash;
            if (m_oauth && !authorizeOAuth(req, res, owner))
                return;
            const bool authorised = m_oauth || m_options.token.empty()
                                    || Secrets::constantTimeEquals(req.get_header_value("Authorization"),
                                                                   "Bearer " + m_options.token);
            if (authorised && m_sessions.isValid(session, owner)) {
                m_sessions.close(session);
                res.status = 200;
                return;
            }
            sendError(res, 404, nullptr, -32001, "Session not found");
            return;
        }
        res.set_header("Allow", "POST");
        sendError(res, 405, nullptr, -32600, "DELETE needs an Mcp-Session-Id (2025-11-25 only)");
        return;
    }
    res.set_header("Allow", "POST");
    sendError(res, 405, nullptr, -32600,
              req.method + " is not supported: this server speaks 2026-07-28 Streamable HTTP; "
              "POST JSON-RPC messages to /mcp (use subscriptions/listen for notifications)");
}

bool McpHandler::serveResourceMetadata(const HttpRequest &req, HttpResponse &res) const
{
    const std::string_view path = req.path;
    if (path != "/.well-known/oauth-protected-resource" && path != m_oauth->metadataPath())
        return false;
    if (req.method != "GET" && req.method != "HEAD") {
        res.set_header("Allow", "GET");
        sendError(res, 405, nullptr, -32600,
                  "the protected resource metadata is read with GET (RFC 9728)");
        return true;
    }
    res.status = 200;
    res.set_header("Cache-Control", "max-age=300");
    res.set_content(m_oauth->metadataJson(), "application/json");
    return true;
}

bool McpHandler::authorizeOAuth(const HttpRequest &req, HttpResponse &res, std::string &tokenHash)
{
    const std::string_view *header = req.header(HttpRequest::Known::Authorization);
    const auto verdict = m_oauth->check(header ? *header : std::string_view());
    using Kind = OAuthResourceServer::Verdict::Kind;
    switch (verdict.kind) {
    case Kind::Ok:
        // Tasks remember a hash of the principal, as they do of a static token.
        tokenHash = Secrets::sha256Hex("oauth\n" + verdict.principal);
        return true;
    case Kind::Missing:
        res.set_header("WWW-Authenticate", m_oauth->challenge(verdict));
        sendError(res, 401, nullptr, -32001,
                  "Unauthorized: " + verdict.reason + "; this server's protected resource "
                  "metadata is at " + m_oauth->metadataUrl());
        return false;
    case Kind::Invalid:
        Log::info("OAuth: refused an access token: " + verdict.reason);
        res.set_header("WWW-Authenticate", m_oauth->challenge(verdict));
        sendError(res, 401, nullptr, -32001,
                  "Unauthorized (invalid_token): " + verdict.reason + "; get a new token from "
                  "the authorization server named at " + m_oauth->metadataUrl());
        return false;
    case Kind::InsufficientScope:
        Log::info("OAuth: refused an access token: " + verdict.reason);
        res.set_header("WWW-Authenticate", m_oauth->challenge(verdict));
        sendError(res, 403, nullptr, -32001, "Forbidden (insufficient_scope): " + verdict.reason);
        return false;
    case Kind::Unavailable:
        res.set_header("Retry-After", std::to_string(OAuthResourceServer::kKeyRefreshS));
        sendError(res, 503, nullptr, -32603,
                  "Service unavailable: " + verdict.reason + " (the access token names a key "
                  "this server has not seen)");
        return false;
    }
    return false;
}

void McpHandler::fillError(HttpResponse &res)
{
    struct Text
    {
        int code;
        const char *message;
    };
    static const std::map<int, Text> texts = {
        {404, {-32601, "Not found: the MCP endpoint is POST /mcp"}},
        {408, {-32600, "Request timeout: the request was left unfinished too long; send each "
                       "request whole (headers and the Content-Length bytes of body)"}},
        {411, {-32600, "Send the JSON-RPC message with a Content-Length header, not chunked"}},
        {413, {-32600, "Request body too large: the limit is 4 MiB per JSON-RPC message"}},
        {431, {-32600, "Request headers too large (limit 64 KiB)"}},
        {500, {-32603, "Internal error: the server could not handle this request; it has been "
                       "logged"}},
        {503, {-32603, "The server is busy; retry shortly"}},
    };
    const auto it = texts.find(res.status);
    const Text text = it != texts.end()
                          ? it->second
                          : Text{-32600, "The HTTP request could not be served (malformed request "
                                         "line or headers)"};
    sendError(res, res.status, nullptr, text.code, text.message);
}

void McpHandler::beginShutdown()
{
    m_streams->beginShutdown();
}

[[gnu::hot]] bool McpHandler::servePoll(const HttpRequest &req, HttpResponse &res)
{
    // Every check of handlePost, handleModern, checkHeaders and tasksGet, in the passing
    // direction only: whatever fails here fails (or passes) there with the same words.
    using K = HttpRequest::Known;
    if (req.header(K::Origin) || req.header(K::McpSessionId) || m_oauth)
        return false;
    if (!m_options.token.empty()) {
        const std::string_view *auth = req.header(K::Authorization);
        if (!auth || !Secrets::constantTimeEquals(*auth, m_bearer))
            return false;
    }
    const std::string_view *contentType = req.header(K::ContentType);
    if (!contentType
        || (!startsWith(*contentType, "application/json")
            && !startsWithIgnoreCase(*contentType, "application/json")))
        return false;
    if (const std::string_view *accept = req.header(K::Accept); accept && !isAcceptable(*accept))
        return false;
    PollScanner::Fields f;
    if (!PollScanner::scan(req.body, f) || !same(f.jsonrpc, "2.0") || f.id.empty()
        || !same(f.method, "tasks/get") || !f.hasParams || !f.hasMeta || !f.hasCapabilities
        || !same(f.protocolVersion, kModern) || !f.declaresTasks || f.taskId.empty())
        return false;
    const std::string_view *version = req.header(K::McpProtocolVersion);
    const std::string_view *method = req.header(K::McpMethod);
    const std::string_view *name = req.header(K::McpName);
    // The headers equal the body's values, which are known here. A =?base64?...?= Mcp-Name is
    // legal but unusual: the full path decodes it.
    if (!version || !same(*version, kModern) || !method || !same(*method, "tasks/get") || !name
        || !same(trimOws(*name), f.taskId))
        return false;
    m_tasks.catchUp(); // replicas: another replica's answer or cancel shows on this poll
    return pollReply(m_tasks, f.id, f.taskId, m_tokenHash, res);
}

void McpHandler::handlePost(const HttpRequest &req, HttpResponse &res)
{
    McpCall call;
    if (m_oauth && !authorizeOAuth(req, res, call.tokenHash))
        return;
    if (!m_options.token.empty()) {
        const std::string auth = req.get_header_value("Authorization");
        if (!Secrets::constantTimeEquals(auth, "Bearer " + m_options.token)) {
            res.set_header("WWW-Authenticate", "Bearer");
            sendError(res, 401, nullptr, -32001,
                      auth.empty() ? "Unauthorized: this server needs an 'Authorization: Bearer "
                                     "<token>' header; configure the server's token in the client"
                                   : "Unauthorized: the bearer token is wrong; check the token "
                                     "configured for this server");
            return;
        }
        call.tokenHash = m_tokenHash;
    }
    if (!startsWithIgnoreCase(req.get_header_value("Content-Type"), "application/json")) {
        sendError(res, 415, nullptr, -32600,
                  "Unsupported Content-Type '" + req.get_header_value("Content-Type")
                      + "': send the JSON-RPC message as application/json");
        return;
    }
    if (const std::string_view *accept = req.header(HttpRequest::Known::Accept);
        accept && !isAcceptable(*accept)) {
        sendError(res, 406, nullptr, -32600,
                  "Not acceptable: send 'Accept: application/json, text/event-stream'");
        return;
    }
    json body = json::parse(req.body, nullptr, false);
    if (body.is_discarded()) {
        sendError(res, 400, nullptr, -32700,
                  "Parse error: the body is not valid JSON in UTF-8; send one JSON-RPC object");
        return;
    }
    if (!body.is_object()) {
        sendError(res, 400, nullptr, -32600,
                  body.is_array() ? "Invalid request: batches are not supported; send one "
                                    "JSON-RPC message per POST"
                                  : "Invalid request: the body must be a JSON-RPC object");
        return;
    }
    if (body.contains("id")) {
        const json &id = body["id"];
        if (!id.is_string() && !id.is_number_integer()) {
            sendError(res, 400, nullptr, -32600,
                      "Invalid request: 'id' must be a string or an integer");
            return;
        }
        call.id = id;
        call.hasId = true;
    }
    if (body.value("jsonrpc", json()) != "2.0") {
        sendError(res, 400, call.id, -32600, "Invalid request: 'jsonrpc' must be \"2.0\"");
        return;
    }
    const bool isResponse = !body.contains("method") && (body.contains("result") || body.contains("error"));
    if (!isResponse) {
        if (!body.contains("method") || !body["method"].is_string()) {
            sendError(res, 400, call.id, -32600, "Invalid request: 'method' must be a string");
            return;
        }
        call.method = body["method"].get<std::string>();
        if (body.contains("params")) {
            if (!body["params"].is_object()) {
                sendError(res, 400, call.id, -32602, "Invalid params: 'params' must be an object");
                return;
            }
            call.params = std::move(body["params"]);
        }
    }
    call.sessionId = req.get_header_value("Mcp-Session-Id");
    if (!call.sessionId.empty() || (call.method == "initialize" && isLegacyInitialize(req, call))) {
        m_legacy->handle(req, res, call, body);
        return;
    }
    if (isResponse) {
        sendError(res, 400, call.id, -32600,
                  "Invalid request: JSON-RPC responses are accepted only inside a 2025-11-25 "
                  "session (Mcp-Session-Id)");
        return;
    }
    handleModern(req, res, call);
}

bool McpHandler::checkHeaders(const HttpRequest &req, HttpResponse &res,
                              const McpCall &call, const std::string &version)
{
    const auto mismatch = [&](const std::string &message) {
        sendError(res, 400, call.id, -32020, "Header mismatch: " + message);
        return false;
    };
    const std::string_view *versionHeader = req.header(HttpRequest::Known::McpProtocolVersion);
    if (!versionHeader)
        return mismatch("the MCP-Protocol-Version header is missing; send it with the same value "
                        "as _meta io.modelcontextprotocol/protocolVersion");
    if (trimOws(*versionHeader) != version)
        return mismatch("MCP-Protocol-Version header value '" + std::string(trimOws(*versionHeader))
                        + "' does not match body value '" + version + "'");
    const std::string_view *methodHeader = req.header(HttpRequest::Known::McpMethod);
    if (!methodHeader)
        return mismatch("the Mcp-Method header is missing; send the JSON-RPC method in it");
    if (trimOws(*methodHeader) != call.method)
        return mismatch("Mcp-Method header value '" + std::string(trimOws(*methodHeader))
                        + "' does not match body value '" + call.method + "'");
    std::string expected;
    bool needsName = false;
    if (call.method == "tools/call" || call.method == "prompts/get") {
        needsName = true;
        expected = call.params.value("name", json()).is_string() ? call.params["name"].get<std::string>() : "";
    } else if (call.method == "resources/read") {
        needsName = true;
        expected = call.params.value("uri", json()).is_string() ? call.params["uri"].get<std::string>() : "";
    } else if (call.method == "tasks/get" || call.method == "tasks/update"
               || call.method == "tasks/cancel") {
        needsName = true;
        expected = call.params.value("taskId", json()).is_string() ? call.params["taskId"].get<std::string>() : "";
    }
    if (!needsName)
        return true;
    if (!req.has_header("Mcp-Name"))
        return mismatch("the Mcp-Name header is missing; for " + call.method + " it carries "
                        + (call.method.rfind("tasks/", 0) == 0 ? "params.taskId" : "params.name"));
    std::string name;
    if (!decodeHeaderValue(req.get_header_value("Mcp-Name"), name))
        return mismatch("the Mcp-Name header has a malformed =?base64?...?= value");
    if (name != expected) {
        // Task ids are secrets: never echo them.
        if (call.method.rfind("tasks/", 0) == 0)
            return mismatch("Mcp-Name header value does not match params.taskId");
        return mismatch("Mcp-Name header value '" + name + "' does not match body value '"
                        + expected + "'");
    }
    return true;
}

void McpHandler::handleModern(const HttpRequest &req, HttpResponse &res, McpCall &call)
{
    if (!call.hasId) {
        res.status = 202; // no 2026 client notification needs an action here
        return;
    }
    // References, not value(): this runs on every poll and must not copy the request's JSON.
    static const json absent;
    const auto metaIt = call.params.find("_meta");
    const json &meta = metaIt != call.params.end() ? *metaIt : absent;
    if (!meta.is_object()) {
        sendError(res, 400, call.id, -32602,
                  "Invalid params: params._meta is required with "
                  "io.modelcontextprotocol/protocolVersion and "
                  "io.modelcontextprotocol/clientCapabilities (or use initialize for 2025-11-25)");
        return;
    }
    const auto versionIt = meta.find("io.modelcontextprotocol/protocolVersion");
    const auto capsIt = meta.find("io.modelcontextprotocol/clientCapabilities");
    const json &version = versionIt != meta.end() ? *versionIt : absent;
    const json &caps = capsIt != meta.end() ? *capsIt : absent;
    if (!version.is_string() || !caps.is_object()) {
        sendError(res, 400, call.id, -32602,
                  std::string("Invalid params: _meta is missing ")
                      + (!version.is_string() ? "io.modelcontextprotocol/protocolVersion (a string)"
                                              : "io.modelcontextprotocol/clientCapabilities (an object, {} for none)"));
        return;
    }
    const std::string v = version.get<std::string>();
    if (!checkHeaders(req, res, call, v))
        return;
    if (v == kLegacyVersion) {
        sendError(res, 400, call.id, -32600,
                  "Protocol 2025-11-25 needs a session: send initialize first and then the "
                  "Mcp-Session-Id header on every request");
        return;
    }
    if (v != kModernVersion) {
        sendError(res, 400, call.id, -32022, "Unsupported protocol version",
                  {{"supported", {kModernVersion, kLegacyVersion}}, {"requested", v}});
        return;
    }
    const auto extIt = caps.find("extensions");
    if (extIt != caps.end() && extIt->is_object()) {
        const auto tasksIt = extIt->find(kTasksExtension);
        call.declaresTasks = tasksIt != extIt->end() && tasksIt->is_object();
    }

    m_modern->handle(req, res, call);
}

bool McpHandler::isLegacyInitialize(const HttpRequest &req, const McpCall &call)
{
    // A 2025-11-25 (or older) client names its version in params.protocolVersion. An initialize
    // without it that carries the 2026-07-28 envelope (_meta or header) is a modern request for a
    // method that 2026-07-28 removed.
    if (call.params.value("protocolVersion", json()).is_string())
        return true;
    const auto metaIt = call.params.find("_meta");
    const bool modernMeta = metaIt != call.params.end() && metaIt->is_object()
                            && metaIt->contains("io.modelcontextprotocol/protocolVersion");
    const std::string_view *version = req.header(HttpRequest::Known::McpProtocolVersion);
    return !modernMeta && !(version && trimOws(*version) == kModernVersion);
}

} // namespace Eddy::Server
