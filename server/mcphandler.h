#pragma once

// The MCP endpoint (POST /mcp): HTTP-level checks, JSON-RPC framing, header/version/capability
// validation, and dispatch of every 2026-07-28 and 2025-11-25 method to TaskManager. Runs on
// cpp-httplib's pool threads; SSE streams (listen, legacy tasks/result) block one thread each.

#include "server/serveroptions.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace Eddy::Server {

class LegacySession;
class SseChannel;
class TaskManager;

class McpHandler final
{
public:
    McpHandler(TaskManager &tasks, LegacySession &sessions, const ServerOptions &options);

    void install(httplib::Server &server);
    // Ends every open SSE stream gracefully and refuses new ones (server shutdown).
    void beginShutdown();

    static constexpr const char *kModernVersion = "2026-07-28";
    static constexpr const char *kLegacyVersion = "2025-11-25";
    static constexpr const char *kTasksExtension = "io.modelcontextprotocol/tasks";

private:
    struct Call
    {
        nlohmann::json id;   // string or integer; null for notifications
        bool hasId = false;
        std::string method;
        nlohmann::json params = nlohmann::json::object();
        std::string tokenHash;
        std::string sessionId;
        bool declaresTasks = false;
    };

    void handlePost(const httplib::Request &req, httplib::Response &res);
    void handleModern(const httplib::Request &req, httplib::Response &res, Call &call);
    void handleLegacy(const httplib::Request &req, httplib::Response &res, Call &call,
                      const nlohmann::json &body);

    // 2026 methods
    void discover(httplib::Response &res, const Call &call);
    void toolsList(httplib::Response &res, const Call &call);
    void toolsCall(httplib::Response &res, const Call &call);
    void tasksGet(httplib::Response &res, const Call &call);
    void tasksUpdate(httplib::Response &res, const Call &call);
    void tasksCancel(httplib::Response &res, const Call &call);
    void listen(httplib::Response &res, const Call &call);

    // 2025-11-25 methods
    void legacyInitialize(httplib::Response &res, const Call &call);
    void legacyToolsCall(httplib::Response &res, const Call &call);
    void legacyTasksResult(httplib::Response &res, const Call &call);
    void legacyTasksList(httplib::Response &res, const Call &call);
    void legacyTasksCancel(httplib::Response &res, const Call &call);

    bool checkHeaders(const httplib::Request &req, httplib::Response &res, const Call &call,
                      const std::string &version);
    bool requireTasks(httplib::Response &res, const Call &call);
    bool taskIdParam(httplib::Response &res, const Call &call, std::string &taskId);

    void registerChannel(const std::shared_ptr<SseChannel> &channel);
    void unregisterChannel(const std::shared_ptr<SseChannel> &channel);

    static void sendResult(httplib::Response &res, const nlohmann::json &id,
                           const nlohmann::json &result);
    static void sendError(httplib::Response &res, int httpStatus, const nlohmann::json &id,
                          int code, const std::string &message,
                          const nlohmann::json &data = nullptr);
    static nlohmann::json errorObject(const nlohmann::json &id, int code,
                                      const std::string &message,
                                      const nlohmann::json &data = nullptr);

    TaskManager &m_tasks;
    LegacySession &m_sessions;
    const ServerOptions m_options;
    std::string m_tokenHash; // SHA-256 of --token, computed once

    std::atomic<bool> m_shuttingDown{false};
    std::mutex m_channelMutex;
    std::set<std::shared_ptr<SseChannel>> m_channels;
};

} // namespace Eddy::Server
