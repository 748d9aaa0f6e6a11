#pragma once

// Small wire helpers shared by the MCP endpoint's classes (McpHandler, ModernMethods,
// LegacyMethods, StreamedCalls) and jobtools: the protocol's names, header-value parsing,
// Base64, JSON-RPC id text, results and errors written into a response, and the tasks/get
// reply written without a JSON tree. Any thread.

#include "server/httpmessage.h"
#include "server/mcpcall.h"
#include "server/taskrecord.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace Eddy::Server {

class TaskManager;

namespace McpWire {

inline constexpr const char *kModernVersion = "2026-07-28";
inline constexpr const char *kLegacyVersion = "2025-11-25";
inline constexpr const char *kTasksExtension = "io.modelcontextprotocol/tasks";
// serverInfo, in server/discover (2026-07-28) and initialize (2025-11-25).
inline constexpr const char *kServerName = "eddy-cfd-server";
inline constexpr const char *kServerVersion = "0.1.0";

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix);
bool containsIgnoreCase(std::string_view s, std::string_view needle);
// Optional whitespace around a field value is not part of it (RFC 9110 section 5.5).
std::string_view trimOws(std::string_view s);
// A JSON-RPC id as JSON text ("7", "\"a\"").
std::string idText(const nlohmann::json &id);
// _meta naming the task a 2025-11-25 message belongs to.
nlohmann::json relatedTask(const std::string &taskId);
// The final message of a legacy tasks/result: what the tools/call would have returned.
nlohmann::json legacyFinalMessage(const nlohmann::json &id, const TaskRecord &r);
// The reply to tasks/get around the task's cached rendering, without a JSON tree, written
// straight into the response body; false when the token sees no such task.
bool pollReply(const TaskManager &tasks, std::string_view idText, std::string_view taskId,
               const std::string &tokenHash, HttpResponse &res);

// A JSON-RPC error response.
nlohmann::json errorObject(const nlohmann::json &id, int code, const std::string &message,
                           const nlohmann::json &data = nullptr);
// Answers res with a JSON-RPC error response, or with a result (HTTP 200).
void sendError(HttpResponse &res, int httpStatus, const nlohmann::json &id, int code,
               const std::string &message, const nlohmann::json &data = nullptr);
void sendResult(HttpResponse &res, const nlohmann::json &id, const nlohmann::json &result);
// params.taskId, a non-empty string, which tasks then adopts (a replica's task, from the shared
// store); false after answering 400.
bool taskIdParam(TaskManager &tasks, HttpResponse &res, const McpCall &call, std::string &taskId);

} // namespace McpWire
} // namespace Eddy::Server
