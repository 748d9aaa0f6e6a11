#include "server/mcphandler.h"

#include "server/cfdtool.h"
#include "server/conformancefixtures.h"
#include "server/legacysession.h"
#include "server/log.h"
#include "server/pollscanner.h"
#include "server/secrets.h"
#include "server/sse.h"
#include "server/taskjson.h"
#include "server/taskmanager.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>

namespace Eddy::Server {

using nlohmann::json;

namespace {

constexpr const char *kServerName = "eddy-cfd-server";
constexpr const char *kServerVersion = "0.1.0";
constexpr int kListPageSize = 50;

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && equalsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

bool containsIgnoreCase(std::string_view s, std::string_view needle)
{
    for (std::size_t i = 0; i + needle.size() <= s.size(); ++i)
        if (equalsIgnoreCase(s.substr(i, needle.size()), needle))
            return true;
    return false;
}

bool isAcceptable(std::string_view accept)
{
    return containsIgnoreCase(accept, "application/json")
           || containsIgnoreCase(accept, "text/event-stream") || containsIgnoreCase(accept, "*/*")
           || containsIgnoreCase(accept, "application/*");
}

// The reply to tasks/get around the task's cached rendering, without a JSON tree, written
// straight into the response body; false when the token sees no such task.
bool pollReply(const TaskManager &tasks, std::string_view idText, std::string_view taskId,
               const std::string &tokenHash, HttpResponse &res)
{
    // At debug level every poll is one line (the id redacted): who polls how often, e.g. to
    // check that two clients sharing a database do not both poll one task.
    if (Log::enabled(Log::Level::Debug))
        Log::debug("tasks/get " + Log::redact(taskId));
    std::string &body = res.body;
    body.clear();
    body.reserve(1024);
    body += "{\"jsonrpc\":\"2.0\",\"id\":";
    body += idText;
    body += ",\"result\":{\"resultType\":\"complete\",";
    if (!tasks.appendDetail(taskId, tokenHash, body)) {
        body.clear();
        return false;
    }
    body += "}}";
    res.status = 200;
    res.contentType = "application/json";
    return true;
}

// Standard Base64 (RFC 4648 section 4) with its padding, as SEP-2243 requires: a length that is
// a multiple of 4, '=' only at the end, and nothing outside the alphabet.
bool decodeBase64(std::string_view in, std::string &out)
{
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    out.clear();
    if (in.size() % 4 != 0)
        return false;
    std::size_t padding = 0;
    while (padding < 2 && padding < in.size() && in[in.size() - 1 - padding] == '=')
        ++padding;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (std::size_t i = 0; i < in.size() - padding; ++i) {
        const int v = value(in[i]);
        if (v < 0)
            return false;
        buffer = (buffer << 6) | std::uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(char((buffer >> bits) & 0xff));
        }
    }
    return true;
}

// Optional whitespace around a field value is not part of it (RFC 9110 section 5.5).
std::string_view trimOws(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
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

bool isLoopbackName(std::string_view host)
{
    return equalsIgnoreCase(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

bool isLoopbackBind(const std::string &host)
{
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1" || host == "[::1]";
}

json tasksCapability()
{
    return {{"extensions", {{McpHandler::kTasksExtension, json::object()}}}};
}

std::string idText(const json &id)
{
    return TaskJson::dump(id);
}

json relatedTask(const std::string &taskId)
{
    return {{"io.modelcontextprotocol/related-task", {{"taskId", taskId}}}};
}

// The final message of a legacy tasks/result: what the tools/call would have returned.
json legacyFinalMessage(const json &id, const TaskRecord &r)
{
    if (r.status == TaskStatus::Completed || (r.status == TaskStatus::Failed && r.result.is_object())) {
        json result = r.result.is_object() ? r.result : json{{"content", json::array()}};
        result["_meta"] = relatedTask(r.id);
        return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
    }
    json error = r.status == TaskStatus::Failed && r.error.is_object()
                     ? r.error
                     : json{{"code", -32603}, {"message", "The task was cancelled before it finished."}};
    error["data"] = {{"_meta", relatedTask(r.id)}};
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error}};
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
{
    if (m_options.conformanceFixtures)
        m_fixtureTasks = std::make_unique<ConformanceFixtures::TaskTable>();
    if (!m_options.token.empty()) {
        m_tokenHash = Secrets::sha256Hex(m_options.token);
        m_bearer = "Bearer " + m_options.token;
    }
}

McpHandler::~McpHandler() = default;

bool McpHandler::isFastPath(const HttpRequest &req)
{
    if (req.method != "POST" || req.has_header("Mcp-Session-Id"))
        return false;
    const std::string method = req.get_header_value("Mcp-Method");
    // The header must match the body (checked later), so these never reach a slow handler.
    return method == "tasks/get" || method == "server/discover" || method == "tools/list";
}

bool McpHandler::isAllowedHost(std::string_view hostHeader) const
{
    const std::string_view host = hostOf(hostHeader);
    if (!m_checkHost || isLoopbackName(host))
        return true;
    return std::any_of(m_options.allowedHosts.begin(), m_options.allowedHosts.end(),
                       [host](const std::string &a) { return equalsIgnoreCase(a, host); });
}

bool McpHandler::isAllowedOrigin(std::string_view origin, const std::string *hostHeader) const
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

bool McpHandler::guardRebinding(const HttpRequest &req, HttpResponse &res) const
{
    const std::string *host = req.header("Host");
    if (host && !isAllowedHost(*host)) {
        sendError(res, 403, nullptr, -32600,
                  "Forbidden: Host '" + std::string(hostOf(*host))
                      + "' is not a name of this server; a server on a loopback address answers "
                        "only Host localhost, 127.0.0.1 or [::1] (DNS-rebinding protection). "
                        "Behind a reverse proxy, start it with --allowed-host NAME");
        return false;
    }
    const std::string *origin = req.header("Origin");
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

void McpHandler::handle(const HttpRequest &req, HttpResponse &res)
{
    if (!guardRebinding(req, res))
        return;
    if (req.path != "/mcp") {
        res.status = 404;
        return;
    }
    if (req.method == "POST") {
        if (!servePoll(req, res))
            handlePost(req, res);
        return;
    }
    if (req.method == "DELETE") {
        const std::string session = req.get_header_value("Mcp-Session-Id");
        if (!session.empty()) {
            const bool authorised = m_options.token.empty()
                                    || Secrets::constantTimeEquals(req.get_header_value("Authorization"),
                                                                   "Bearer " + m_options.token);
            if (authorised && m_sessions.isValid(session, m_tokenHash)) {
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
    m_shuttingDown = true;
    const std::lock_guard lock(m_channelMutex);
    for (const auto &channel : m_channels)
        channel->close();
}

void McpHandler::registerChannel(const std::shared_ptr<SseChannel> &channel)
{
    {
        const std::lock_guard lock(m_channelMutex);
        m_channels.insert(channel);
    }
    m_tasks.addChannel(channel);
}

void McpHandler::unregisterChannel(const std::shared_ptr<SseChannel> &channel)
{
    m_tasks.removeChannel(channel);
    const std::lock_guard lock(m_channelMutex);
    m_channels.erase(channel);
}

json McpHandler::errorObject(const json &id, int code, const std::string &message, const json &data)
{
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null())
        error["data"] = data;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error}};
}

void McpHandler::sendError(HttpResponse &res, int httpStatus, const json &id, int code,
                           const std::string &message, const json &data)
{
    res.status = httpStatus;
    res.set_content(TaskJson::dump(errorObject(id, code, message, data)), "application/json");
}

void McpHandler::sendResult(HttpResponse &res, const json &id, const json &result)
{
    res.status = 200;
    res.set_content(TaskJson::dump(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}),
                    "application/json");
}

bool McpHandler::servePoll(const HttpRequest &req, HttpResponse &res)
{
    // Every check of handlePost, handleModern, checkHeaders and tasksGet, in the passing
    // direction only: whatever fails here fails (or passes) there with the same words.
    if (req.header("Origin") || req.header("Mcp-Session-Id"))
        return false;
    if (!m_options.token.empty()) {
        const std::string *auth = req.header("Authorization");
        if (!auth || !Secrets::constantTimeEquals(*auth, m_bearer))
            return false;
    }
    const std::string *contentType = req.header("Content-Type");
    if (!contentType || !startsWithIgnoreCase(*contentType, "application/json"))
        return false;
    if (const std::string *accept = req.header("Accept"); accept && !isAcceptable(*accept))
        return false;
    PollScanner::Fields f;
    if (!PollScanner::scan(req.body, f) || f.jsonrpc != "2.0" || f.id.empty()
        || f.method != "tasks/get" || !f.hasParams || !f.hasMeta || !f.hasCapabilities
        || f.protocolVersion != kModernVersion || !f.declaresTasks || f.taskId.empty())
        return false;
    const std::string *version = req.header("MCP-Protocol-Version");
    const std::string *method = req.header("Mcp-Method");
    const std::string *name = req.header("Mcp-Name");
    // A =?base64?...?= Mcp-Name is legal but unusual: the full path decodes it.
    if (!version || *version != f.protocolVersion || !method || *method != f.method || !name
        || trimOws(*name) != f.taskId)
        return false;
    return pollReply(m_tasks, f.id, f.taskId, m_tokenHash, res);
}

void McpHandler::handlePost(const HttpRequest &req, HttpResponse &res)
{
    Call call;
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
    if (const std::string *accept = req.header("Accept"); accept && !isAcceptable(*accept)) {
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
        handleLegacy(req, res, call, body);
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
                              const Call &call, const std::string &version)
{
    const auto mismatch = [&](const std::string &message) {
        sendError(res, 400, call.id, -32020, "Header mismatch: " + message);
        return false;
    };
    const std::string *versionHeader = req.header("MCP-Protocol-Version");
    if (!versionHeader)
        return mismatch("the MCP-Protocol-Version header is missing; send it with the same value "
                        "as _meta io.modelcontextprotocol/protocolVersion");
    if (trimOws(*versionHeader) != version)
        return mismatch("MCP-Protocol-Version header value '" + std::string(trimOws(*versionHeader))
                        + "' does not match body value '" + version + "'");
    const std::string *methodHeader = req.header("Mcp-Method");
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

void McpHandler::handleModern(const HttpRequest &req, HttpResponse &res, Call &call)
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

    const std::string &m = call.method;
    if (m == "tasks/get")
        tasksGet(res, call);
    else if (m == "tools/call")
        toolsCall(res, call, req);
    else if (m == "tasks/update")
        tasksUpdate(res, call);
    else if (m == "tasks/cancel")
        tasksCancel(res, call);
    else if (m == "server/discover")
        discover(res, call);
    else if (m == "tools/list")
        toolsList(res, call);
    else if (m == "subscriptions/listen")
        listen(res, call);
    else if (m == "prompts/list" || m == "resources/list" || m == "resources/templates/list")
        emptyList(res, call);
    else if (m == "resources/read")
        sendError(res, 200, call.id, -32602, "Resource not found: this server has no resources",
                  {{"uri", call.params.value("uri", json())}});
    else if (m == "prompts/get")
        sendError(res, 200, call.id, -32602, "Unknown prompt: this server has no prompts");
    else if (m == "initialize")
        sendError(res, 404, call.id, -32601,
                  "Method not found: initialize does not exist in 2026-07-28; call server/discover "
                  "(a 2025-11-25 client sends initialize with params.protocolVersion)");
    else if (m == "tasks/result" || m == "tasks/list")
        sendError(res, 404, call.id, -32601,
                  "Method not found: " + m + " does not exist in 2026-07-28; tasks/get returns the "
                  "result inline");
    else
        sendError(res, 404, call.id, -32601, "Method not found: " + m);
}

void McpHandler::discover(HttpResponse &res, const Call &call)
{
    sendResult(res, call.id,
               {{"resultType", "complete"},
                {"supportedVersions", {kModernVersion, kLegacyVersion}},
                {"capabilities", {{"tools", json::object()},
                                  {"prompts", json::object()},
                                  {"resources", json::object()},
                                  {"extensions", {{kTasksExtension, json::object()}}}}},
                {"instructions",
                 "Call run_cfd_case to simulate a lid-driven cavity; it answers with a task. "
                 "Poll tasks/get (or listen) for progress in statusMessage; a mesh defect "
                 "asks via input_required whether to repair or abort."},
                {"_meta", {{"io.modelcontextprotocol/serverInfo",
                            {{"name", kServerName}, {"version", kServerVersion},
                             {"title", "Eddy reference CFD server"}}}}},
                {"ttlMs", 3600000},
                {"cacheScope", m_options.token.empty() ? "public" : "private"}});
}

void McpHandler::toolsList(HttpResponse &res, const Call &call)
{
    json tools = m_options.conformanceFixtures ? ConformanceFixtures::tools() : json::array();
    tools.push_back(CfdTool::definition(false));
    sendResult(res, call.id,
               {{"resultType", "complete"},
                {"tools", std::move(tools)},
                {"ttlMs", 300000},
                {"cacheScope", m_options.token.empty() ? "public" : "private"}});
}

void McpHandler::emptyList(HttpResponse &res, const Call &call)
{
    // No prompts, resources or templates: answered (cacheable, empty) rather than -32601, so a
    // client can list every kind of primitive the same way.
    const std::string key = call.method == "prompts/list"             ? "prompts"
                            : call.method == "resources/list"         ? "resources"
                                                                      : "resourceTemplates";
    sendResult(res, call.id,
               {{"resultType", "complete"},
                {key, json::array()},
                {"ttlMs", 300000},
                {"cacheScope", m_options.token.empty() ? "public" : "private"}});
}

bool McpHandler::isLegacyInitialize(const HttpRequest &req, const Call &call)
{
    // A 2025-11-25 (or older) client names its version in params.protocolVersion. An initialize
    // without it that carries the 2026-07-28 envelope (_meta or header) is a modern request for a
    // method that 2026-07-28 removed.
    if (call.params.value("protocolVersion", json()).is_string())
        return true;
    const auto metaIt = call.params.find("_meta");
    const bool modernMeta = metaIt != call.params.end() && metaIt->is_object()
                            && metaIt->contains("io.modelcontextprotocol/protocolVersion");
    const std::string *version = req.header("MCP-Protocol-Version");
    return !modernMeta && !(version && trimOws(*version) == kModernVersion);
}

bool McpHandler::requireTasks(HttpResponse &res, const Call &call)
{
    if (call.declaresTasks)
        return true;
    sendError(res, 400, call.id, -32021,
              "Missing required client capability: declare the io.modelcontextprotocol/tasks "
              "extension in _meta io.modelcontextprotocol/clientCapabilities.extensions",
              {{"requiredCapabilities", tasksCapability()}});
    return false;
}

bool McpHandler::taskIdParam(HttpResponse &res, const Call &call, std::string &taskId)
{
    const json id = call.params.value("taskId", json());
    if (!id.is_string() || id.get<std::string>().empty()) {
        sendError(res, 400, call.id, -32602, "Invalid params: 'taskId' must be a non-empty string");
        return false;
    }
    taskId = id.get<std::string>();
    return true;
}

void McpHandler::toolsCall(HttpResponse &res, const Call &call, const HttpRequest &req)
{
    const json name = call.params.value("name", json());
    if (m_options.conformanceFixtures && name.is_string()
        && ConformanceFixtures::isTool(name.get<std::string>())) {
        fixtureCall(res, call, req);
        return;
    }
    if (!name.is_string() || name.get<std::string>() != CfdTool::name) {
        sendError(res, 200, call.id, -32602,
                  "Unknown tool: this server has only run_cfd_case (see tools/list)");
        return;
    }
    if (!requireTasks(res, call))
        return;
    json arguments;
    std::string error;
    if (!CfdTool::validate(call.params.value("arguments", json()), arguments, error)) {
        json result = CfdTool::errorResult(error);
        result["resultType"] = "complete";
        sendResult(res, call.id, result);
        return;
    }
    TaskManager::Snapshot snap;
    bool existing = false;
    if (!m_tasks.create(arguments, call.tokenHash, false, m_options.ttlMs, snap, existing, error)) {
        sendError(res, 500, call.id, -32603, "Internal error: " + error);
        return;
    }
    json result = TaskJson::detailed(snap.record, snap.pollIntervalMs);
    // CreateTaskResult is Result & Task: never result, error or inputRequests.
    result.erase("result");
    result.erase("error");
    result.erase("inputRequests");
    result["resultType"] = "task";
    sendResult(res, call.id, result);
}

void McpHandler::fixtureCall(HttpResponse &res, const Call &call, const HttpRequest &req)
{
    ConformanceFixtures::Request fixture;
    fixture.name = call.params["name"].get<std::string>();
    const json arguments = call.params.value("arguments", json::object());
    fixture.arguments = arguments.is_object() ? arguments : json::object();
    const json meta = call.params.value("_meta", json::object());
    const json caps = meta.is_object()
                          ? meta.value("io.modelcontextprotocol/clientCapabilities", json::object())
                          : json::object();
    fixture.clientCapabilities = caps.is_object() ? caps : json::object();
    fixture.declaresTasks = call.declaresTasks;
    fixture.inputResponses = call.params.value("inputResponses", json());
    fixture.requestState = call.params.value("requestState", json());
    fixture.tokenHash = call.tokenHash;
    fixture.pollIntervalMs = m_options.pollIntervalMs;
    fixture.ttlMs = m_options.ttlMs;
    const ConformanceFixtures::Outcome out = m_fixtureTasks->call(fixture, req);
    if (!out.error.is_null()) {
        res.status = out.httpStatus;
        res.set_content(TaskJson::dump({{"jsonrpc", "2.0"}, {"id", call.id}, {"error", out.error}}),
                        "application/json");
        return;
    }
    sendResult(res, call.id, out.result);
}

void McpHandler::tasksGet(HttpResponse &res, const Call &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(res, call, taskId))
        return;
    if (json detail; m_fixtureTasks && m_fixtureTasks->get(taskId, call.tokenHash, detail)) {
        sendResult(res, call.id, detail);
        return;
    }
    if (!pollReply(m_tasks, idText(call.id), taskId, call.tokenHash, res))
        sendError(res, 200, call.id, -32602, "Failed to retrieve task: Task not found or expired");
}

void McpHandler::tasksUpdate(HttpResponse &res, const Call &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(res, call, taskId))
        return;
    const json responses = call.params.value("inputResponses", json());
    if (!responses.is_object()) {
        sendError(res, 400, call.id, -32602,
                  "Invalid params: 'inputResponses' must be an object keyed by the "
                  "inputRequests keys");
        return;
    }
    if (Log::enabled(Log::Level::Debug)) {
        std::string keys;
        for (auto it = responses.begin(); it != responses.end(); ++it)
            keys += (keys.empty() ? "" : ",") + it.key();
        Log::debug("tasks/update " + Log::redact(taskId) + " keys " + keys);
    }
    const bool fixture = m_fixtureTasks && m_fixtureTasks->update(taskId, call.tokenHash, responses);
    if (!fixture && !m_tasks.update(taskId, call.tokenHash, responses)) {
        sendError(res, 200, call.id, -32602, "Failed to update task: Task not found or expired");
        return;
    }
    sendResult(res, call.id, {{"resultType", "complete"}});
}

void McpHandler::tasksCancel(HttpResponse &res, const Call &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(res, call, taskId))
        return;
    TaskManager::Snapshot after;
    if (m_fixtureTasks && m_fixtureTasks->cancel(taskId, call.tokenHash)) {
        sendResult(res, call.id, {{"resultType", "complete"}});
        return;
    }
    if (m_tasks.cancel(taskId, call.tokenHash, after) == TaskManager::CancelOutcome::Unknown) {
        sendError(res, 200, call.id, -32602, "Failed to cancel task: Task not found or expired");
        return;
    }
    sendResult(res, call.id, {{"resultType", "complete"}});
}

void McpHandler::listen(HttpResponse &res, const Call &call)
{
    const json filter = call.params.value("notifications", json::object());
    if (!filter.is_object()) {
        sendError(res, 400, call.id, -32602, "Invalid params: 'notifications' must be an object");
        return;
    }
    std::set<std::string> accepted;
    const bool wantsTasks = filter.contains("taskIds");
    if (wantsTasks) {
        const json &ids = filter["taskIds"];
        if (!ids.is_array() || std::any_of(ids.begin(), ids.end(), [](const json &v) { return !v.is_string(); })) {
            sendError(res, 400, call.id, -32602, "Invalid params: 'taskIds' must be an array of strings");
            return;
        }
        if (!requireTasks(res, call))
            return;
        for (const json &v : ids) {
            TaskManager::Snapshot snap;
            if (m_tasks.snapshot(v.get<std::string>(), call.tokenHash, snap))
                accepted.insert(v.get<std::string>());
        }
    }
    if (m_shuttingDown) {
        sendError(res, 503, call.id, -32603, "The server is shutting down; listen again later");
        return;
    }
    const std::string subscriptionId = idText(call.id);
    auto channel = std::make_shared<SseChannel>(accepted, call.tokenHash, subscriptionId);
    registerChannel(channel);

    json ackFilter = json::object();
    if (wantsTasks)
        ackFilter["taskIds"] = json(std::vector<std::string>(accepted.begin(), accepted.end()));
    std::string opening = SseChannel::frame(TaskJson::dump(
        {{"jsonrpc", "2.0"},
         {"method", "notifications/subscriptions/acknowledged"},
         {"params", {{"_meta", {{"io.modelcontextprotocol/subscriptionId", call.id}}},
                     {"notifications", ackFilter}}}}));
    // The current state of each task follows the ack, so a listener needs no extra poll.
    for (const std::string &id : accepted) {
        std::string fragment;
        if (m_tasks.appendDetail(id, call.tokenHash, fragment))
            opening += SseChannel::frame(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks\",\"params\":{\"_meta\":{"
                "\"io.modelcontextprotocol/subscriptionId\":" + subscriptionId + "}," + fragment + "}}");
    }
    const json closing = {{"jsonrpc", "2.0"}, {"id", call.id},
                          {"result", {{"resultType", "complete"},
                                      {"_meta", {{"io.modelcontextprotocol/subscriptionId", call.id}}}}}};
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    auto opened = std::make_shared<bool>(false);
    res.set_chunked_content_provider(
        "text/event-stream",
        [channel, opening, closing, opened,
         keepAlive = std::chrono::milliseconds(m_options.sseKeepAliveMs)](std::size_t,
                                                                          StreamSink &sink) {
            if (!*opened) {
                *opened = true;
                return sink.write(opening.data(), opening.size());
            }
            bool changed = false;
            auto events = channel->wait(keepAlive, changed);
            for (const std::string &event : events) {
                const std::string frame = SseChannel::frame(event);
                if (!sink.write(frame.data(), frame.size()))
                    return false;
            }
            if (channel->isClosed()) {
                const std::string frame = SseChannel::frame(TaskJson::dump(closing));
                sink.write(frame.data(), frame.size());
                sink.done();
                return true;
            }
            if (!changed) {
                const std::string ping = SseChannel::keepAlive();
                return sink.write(ping.data(), ping.size());
            }
            return true;
        },
        [this, channel](bool) { unregisterChannel(channel); });
}

// ---- 2025-11-25 -------------------------------------------------------------------------

void McpHandler::handleLegacy(const HttpRequest &req, HttpResponse &res, Call &call,
                              const json &body)
{
    if (call.method == "initialize") {
        if (!call.sessionId.empty()) {
            sendError(res, 400, call.id, -32600,
                      "initialize must be sent without an Mcp-Session-Id header");
            return;
        }
        legacyInitialize(res, call);
        return;
    }
    if (!m_sessions.isValid(call.sessionId, call.tokenHash)) {
        sendError(res, 404, call.id, -32001,
                  "Session not found: it expired or the server restarted; send initialize again "
                  "without Mcp-Session-Id");
        return;
    }
    if (req.has_header("MCP-Protocol-Version")
        && req.get_header_value("MCP-Protocol-Version") != kLegacyVersion) {
        sendError(res, 400, call.id, -32600,
                  "This session speaks 2025-11-25; the MCP-Protocol-Version header says '"
                  + req.get_header_value("MCP-Protocol-Version") + "'");
        return;
    }
    if (call.method.empty()) {
        // A client's answer to our elicitation/create request.
        std::string taskId, key;
        const json responseId = body.value("id", json());
        const std::string requestId = responseId.is_string() ? responseId.get<std::string>()
                                                             : idText(responseId);
        if (m_sessions.resolveElicitation(call.sessionId, requestId, taskId, key)) {
            json answer = body.contains("result") && body["result"].is_object()
                              ? body["result"]
                              : json{{"action", "cancel"}};
            answer.erase("_meta");
            m_tasks.update(taskId, call.tokenHash, json{{key, answer}});
        } else {
            Log::debug("ignoring a response to an unknown request");
        }
        res.status = 202;
        return;
    }
    if (!call.hasId) {
        res.status = 202; // notifications/initialized, notifications/cancelled, ...
        return;
    }
    const std::string &m = call.method;
    if (m == "ping") {
        sendResult(res, call.id, json::object());
    } else if (m == "tools/list") {
        sendResult(res, call.id, {{"tools", {CfdTool::definition(true)}}});
    } else if (m == "tools/call") {
        legacyToolsCall(res, call);
    } else if (m == "tasks/get") {
        std::string taskId;
        if (!taskIdParam(res, call, taskId))
            return;
        TaskManager::Snapshot snap;
        if (!m_tasks.snapshot(taskId, call.tokenHash, snap)) {
            sendError(res, 200, call.id, -32602, "Failed to retrieve task: Task not found or expired");
            return;
        }
        sendResult(res, call.id, TaskJson::legacy(snap.record, snap.pollIntervalMs));
    } else if (m == "tasks/result") {
        legacyTasksResult(res, call);
    } else if (m == "tasks/list") {
        legacyTasksList(res, call);
    } else if (m == "tasks/cancel") {
        legacyTasksCancel(res, call);
    } else {
        // 200, not 404: a 404 tells a 2025-11-25 client that its session is gone.
        sendError(res, 200, call.id, -32601, "Method not found: " + m);
    }
}

void McpHandler::legacyInitialize(HttpResponse &res, const Call &call)
{
    const std::string session = m_sessions.open(call.tokenHash);
    if (session.empty()) {
        sendError(res, 500, call.id, -32603, "The server could not create a session; retry");
        return;
    }
    res.set_header("Mcp-Session-Id", session);
    sendResult(res, call.id,
               {{"protocolVersion", kLegacyVersion},
                {"capabilities",
                 {{"tools", json::object()},
                  {"tasks", {{"list", json::object()}, {"cancel", json::object()},
                             {"requests", {{"tools", {{"call", json::object()}}}}}}}}},
                {"serverInfo", {{"name", kServerName}, {"version", kServerVersion}}},
                {"instructions", "Call run_cfd_case with a task parameter; it may ask about "
                                 "the mesh through elicitation during tasks/result."}});
    Log::debug("legacy session " + Log::redact(session) + " opened");
}

void McpHandler::legacyToolsCall(HttpResponse &res, const Call &call)
{
    const json name = call.params.value("name", json());
    if (!name.is_string() || name.get<std::string>() != CfdTool::name) {
        sendError(res, 200, call.id, -32602, "Unknown tool: this server has only run_cfd_case");
        return;
    }
    json arguments;
    std::string error;
    if (!CfdTool::validate(call.params.value("arguments", json()), arguments, error)) {
        sendResult(res, call.id, CfdTool::errorResult(error));
        return;
    }
    const json task = call.params.value("task", json());
    std::int64_t ttl = m_options.ttlMs;
    if (task.is_object() && task.contains("ttl") && task["ttl"].is_number()) {
        const double requested = task["ttl"].get<double>();
        if (requested >= 1 && requested < double(ttl))
            ttl = std::int64_t(requested);
    }
    TaskManager::Snapshot snap;
    bool existing = false;
    if (!m_tasks.create(arguments, call.tokenHash, true, ttl, snap, existing, error)) {
        sendError(res, 500, call.id, -32603, "Internal error: " + error);
        return;
    }
    if (task.is_object()) {
        sendResult(res, call.id, {{"task", TaskJson::legacy(snap.record, snap.pollIntervalMs)}});
        return;
    }
    // No task augmentation: run to the end on this request, as a plain tools/call would.
    const std::string taskId = snap.record.id;
    auto channel = std::make_shared<SseChannel>(std::set<std::string>{taskId}, call.tokenHash);
    registerChannel(channel);
    while (true) {
        TaskManager::Snapshot now;
        if (!m_tasks.snapshot(taskId, call.tokenHash, now)) {
            sendError(res, 200, call.id, -32603, "The case expired before it finished");
            break;
        }
        if (now.record.status == TaskStatus::InputRequired) {
            m_tasks.cancel(taskId, call.tokenHash, now);
            sendResult(res, call.id,
                       CfdTool::errorResult("The mesh of this case failed its quality check and "
                                            "needs an answer; call run_cfd_case with a task "
                                            "parameter to be asked, or lower 'grading'."));
            break;
        }
        if (isTerminal(now.record.status)) {
            const json message = legacyFinalMessage(call.id, now.record);
            res.status = 200;
            res.set_content(TaskJson::dump(message), "application/json");
            break;
        }
        if (m_shuttingDown || channel->isClosed()) {
            sendError(res, 503, call.id, -32603, "The server is shutting down; the case will "
                                                 "resume after a restart");
            break;
        }
        bool changed = false;
        channel->wait(std::chrono::milliseconds(1000), changed);
    }
    unregisterChannel(channel);
}

void McpHandler::legacyTasksResult(HttpResponse &res, const Call &call)
{
    std::string taskId;
    if (!taskIdParam(res, call, taskId))
        return;
    TaskManager::Snapshot snap;
    if (!m_tasks.snapshot(taskId, call.tokenHash, snap)) {
        sendError(res, 200, call.id, -32602, "Failed to retrieve task: Task not found or expired");
        return;
    }
    if (isTerminal(snap.record.status)) {
        res.status = 200;
        res.set_content(TaskJson::dump(legacyFinalMessage(call.id, snap.record)), "application/json");
        return;
    }
    if (m_shuttingDown) {
        sendError(res, 503, call.id, -32603, "The server is shutting down; retry after restart");
        return;
    }
    auto channel = std::make_shared<SseChannel>(std::set<std::string>{taskId}, call.tokenHash);
    registerChannel(channel);
    auto sentKeys = std::make_shared<std::set<std::string>>();
    const json id = call.id;
    const std::string token = call.tokenHash;
    const std::string session = call.sessionId;
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, channel, sentKeys, id, token, session, taskId,
         keepAlive = std::chrono::milliseconds(m_options.sseKeepAliveMs)](std::size_t,
                                                                          StreamSink &sink) {
            TaskManager::Snapshot now;
            if (!m_tasks.snapshot(taskId, token, now)) {
                const std::string frame = SseChannel::frame(TaskJson::dump(
                    errorObject(id, -32602, "Failed to retrieve task: Task expired")));
                sink.write(frame.data(), frame.size());
                sink.done();
                return true;
            }
            if (isTerminal(now.record.status)) {
                const std::string frame = SseChannel::frame(TaskJson::dump(legacyFinalMessage(id, now.record)));
                sink.write(frame.data(), frame.size());
                sink.done();
                return true;
            }
            if (now.record.status == TaskStatus::InputRequired && now.record.inputRequests.is_object()) {
                for (const auto &[key, request] : now.record.inputRequests.items()) {
                    if (!sentKeys->insert(key).second)
                        continue;
                    json params = request.value("params", json::object());
                    params["_meta"] = relatedTask(taskId);
                    const json message = {{"jsonrpc", "2.0"},
                                          {"id", m_sessions.registerElicitation(session, taskId, key)},
                                          {"method", request.value("method", "elicitation/create")},
                                          {"params", params}};
                    const std::string frame = SseChannel::frame(TaskJson::dump(message));
                    if (!sink.write(frame.data(), frame.size()))
                        return false;
                }
            }
            if (channel->isClosed()) {
                const std::string frame = SseChannel::frame(TaskJson::dump(errorObject(
                    id, -32603, "The server is shutting down; call tasks/result again after it restarts")));
                sink.write(frame.data(), frame.size());
                sink.done();
                return true;
            }
            bool changed = false;
            channel->wait(keepAlive, changed);
            if (!changed && !channel->isClosed()) {
                const std::string ping = SseChannel::keepAlive();
                return sink.write(ping.data(), ping.size());
            }
            return true;
        },
        [this, channel](bool) { unregisterChannel(channel); });
}

void McpHandler::legacyTasksList(HttpResponse &res, const Call &call)
{
    std::size_t offset = 0;
    if (call.params.contains("cursor")) {
        const json &cursor = call.params["cursor"];
        std::string decoded;
        if (!cursor.is_string() || !decodeBase64(cursor.get<std::string>(), decoded)
            || decoded.rfind("offset:", 0) != 0) {
            sendError(res, 200, call.id, -32602, "Invalid params: unknown cursor; start without one");
            return;
        }
        try {
            offset = std::stoul(decoded.substr(7));
        } catch (...) {
            sendError(res, 200, call.id, -32602, "Invalid params: unknown cursor; start without one");
            return;
        }
    }
    const auto all = m_tasks.list(call.tokenHash, true);
    json tasks = json::array();
    for (std::size_t i = offset; i < all.size() && i < offset + kListPageSize; ++i)
        tasks.push_back(TaskJson::legacy(all[i].record, all[i].pollIntervalMs));
    json result = {{"tasks", tasks}};
    if (offset + kListPageSize < all.size()) {
        const std::string raw = "offset:" + std::to_string(offset + kListPageSize);
        static const char *const table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        std::string encoded;
        std::uint32_t buffer = 0;
        int bits = 0;
        for (unsigned char c : raw) {
            buffer = (buffer << 8) | c;
            bits += 8;
            while (bits >= 6) {
                bits -= 6;
                encoded.push_back(table[(buffer >> bits) & 63]);
            }
        }
        if (bits > 0)
            encoded.push_back(table[(buffer << (6 - bits)) & 63]);
        result["nextCursor"] = encoded;
    }
    sendResult(res, call.id, result);
}

void McpHandler::legacyTasksCancel(HttpResponse &res, const Call &call)
{
    std::string taskId;
    if (!taskIdParam(res, call, taskId))
        return;
    TaskManager::Snapshot after;
    switch (m_tasks.cancel(taskId, call.tokenHash, after)) {
    case TaskManager::CancelOutcome::Unknown:
        sendError(res, 200, call.id, -32602, "Failed to cancel task: Task not found or expired");
        return;
    case TaskManager::CancelOutcome::AlreadyTerminal:
        sendError(res, 200, call.id, -32602,
                  std::string("Cannot cancel task: already in terminal status '")
                      + statusName(after.record.status) + "'");
        return;
    case TaskManager::CancelOutcome::Cancelled:
        sendResult(res, call.id, TaskJson::legacy(after.record, after.pollIntervalMs));
        return;
    }
}

} // namespace Eddy::Server
