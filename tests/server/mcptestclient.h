#pragma once

// A small synchronous MCP client for the server tests: raw HTTP through libcurl (so tests can
// send broken headers and bodies on purpose), 2026 request builders, and an SSE reader that
// runs one streaming POST on its own thread. Used from the test thread only.

#include <nlohmann/json.hpp>

#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace Eddy::Test {

struct HttpReply
{
    long status = 0;
    std::string body;
    std::map<std::string, std::string> headers; // names in lower case
    nlohmann::json json;                        // parsed body, discarded if not JSON
    std::string curlError;                      // empty when the exchange completed

    const nlohmann::json &result() const;
    int errorCode() const; // 0 when there is no JSON-RPC error
};

class McpTestClient final
{
public:
    explicit McpTestClient(const QString &url);

    void setToken(const std::string &token) { m_token = token; }
    std::string url() const { return m_url; }

    // A raw POST with exactly these headers ("Name: value") and body.
    HttpReply post(const std::string &body, const std::vector<std::string> &headers) const;
    // A body-less request (GET, DELETE, ...) to path, or to the endpoint when path is empty.
    HttpReply send(const std::string &path, const std::string &httpMethod = "GET",
                   const std::vector<std::string> &headers = {}) const;

    // _meta for 2026 requests; withTasks declares the Tasks extension.
    static nlohmann::json meta(bool withTasks = true, const std::string &version = "2026-07-28");
    // Standard 2026 headers for method (Mcp-Name from params.name / params.taskId).
    std::vector<std::string> headersFor(const std::string &method, const nlohmann::json &params,
                                        const std::string &version = "2026-07-28") const;
    // A well-formed 2026 request; params gets _meta unless it has one.
    HttpReply request(const std::string &method, nlohmann::json params = nlohmann::json::object(),
                      bool withTasks = true);

    // tools/call run_cfd_case; returns the JSON-RPC result (CreateTaskResult or CallToolResult).
    nlohmann::json callTool(const nlohmann::json &arguments);
    std::string createTask(const nlohmann::json &arguments); // empty on failure
    HttpReply getTask(const std::string &taskId);
    // Polls tasks/get until pred(result) holds or timeoutMs passes; returns the last result.
    nlohmann::json waitForTask(const std::string &taskId,
                               const std::function<bool(const nlohmann::json &)> &pred,
                               int timeoutMs = 60000);
    static bool isTerminal(const nlohmann::json &task);

    // 2025-11-25
    std::string initialize(); // returns the session id
    HttpReply legacy(const std::string &sessionId, const std::string &method,
                     nlohmann::json params = nlohmann::json::object());
    HttpReply legacyRaw(const std::string &sessionId, const nlohmann::json &message);
    std::vector<std::string> legacyHeaders(const std::string &sessionId) const;

private:
    std::string m_url;
    std::string m_token;
    int m_nextId = 1;
};

// One streaming POST (subscriptions/listen or legacy tasks/result) read on a thread.
class SseReader final
{
public:
    SseReader() = default;
    ~SseReader();
    SseReader(const SseReader &) = delete;
    SseReader &operator=(const SseReader &) = delete;

    void start(const std::string &url, const std::string &body,
               const std::vector<std::string> &headers);
    void stop();
    void requestStop() { m_stop = true; } // lets many readers wind down in parallel
    // Parsed JSON of every "data:" event so far.
    std::vector<nlohmann::json> events() const;
    // Waits until pred holds for some event; returns it (null on timeout).
    nlohmann::json waitForEvent(const std::function<bool(const nlohmann::json &)> &pred,
                                int timeoutMs = 60000) const;
    bool finished() const { return m_finished; }
    std::string contentType() const;
    // A response header (name in lower case), once the stream has ended.
    std::string header(const std::string &name) const;
    std::string rawText() const;

    // Called by the curl thread.
    void deliver(const char *data, std::size_t size);
    bool shouldStop() const { return m_stop; }

private:

    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_finished{false};
    mutable std::mutex m_mutex;
    std::string m_buffer;
    std::string m_raw;
    std::string m_contentType;
    std::map<std::string, std::string> m_headers;
    std::vector<nlohmann::json> m_events;
};

} // namespace Eddy::Test
