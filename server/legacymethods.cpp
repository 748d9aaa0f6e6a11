#include "server/legacymethods.h"

#include "server/base64.h"
#include "server/cfdtool.h"
#include "server/foamtool.h"
#include "server/jobtools.h"
#include "server/legacysession.h"
#include "server/log.h"
#include "server/mcpwire.h"
#include "server/openstreams.h"
#include "server/pollstats.h"
#include "server/runtools.h"
#include "server/sse.h"
#include "server/streamedcalls.h"
#include "server/taskjson.h"
#include "server/taskmanager.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <set>

namespace Eddy::Server {

using nlohmann::json;

using namespace McpWire;

namespace {

constexpr int kListPageSize = 50;

bool isLogLevel(const std::string &level)
{
    static const char *const levels[]
        = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
    return std::any_of(
        std::begin(levels), std::end(levels), [&](const char *l) { return level == l; });
}

} // namespace

LegacyMethods::LegacyMethods(TaskManager &tasks, LegacySession &sessions,
                             const ServerOptions &options, OpenStreams &streams,
                             StreamedCalls &streamed)
    : m_tasks(tasks), m_sessions(sessions), m_options(options), m_streams(streams)
    , m_streamed(streamed)
{
}

void LegacyMethods::handle(const HttpRequest &req, HttpResponse &res, const McpCall &call,
                           const json &body)
{
    if (call.method == "initialize") {
        if (!call.sessionId.empty()) {
            sendError(res, 400, call.id, -32600,
                      "initialize must be sent without an Mcp-Session-Id header");
            return;
        }
        initialize(res, call);
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
        if (call.method == "notifications/cancelled")
            m_streamed.cancel(call.sessionId, call.tokenHash,
                               call.params.value("requestId", json()));
        res.status = 202; // notifications/initialized, notifications/cancelled, ...
        return;
    }
    const std::string &m = call.method;
    if (m == "ping") {
        sendResult(res, call.id, json::object());
    } else if (m == "tools/list") {
        json tools = JobTools::definitions();
        tools.insert(tools.begin(), RunTools::cfdDefinition(m_options, true));
        if (m_options.tasksExtension)
            tools.insert(tools.begin() + 1, FoamTool::definition(true));
        sendResult(res, call.id, {{"tools", std::move(tools)}});
    } else if (m == "logging/setLevel" && !m_options.tasksExtension) {
        const json level = call.params.value("level", json());
        if (!level.is_string() || !isLogLevel(level.get<std::string>())) {
            sendError(res, 200, call.id, -32602,
                      "Invalid params: 'level' must be debug, info, notice, warning, error, "
                      "critical, alert or emergency");
            return;
        }
        m_sessions.setLogLevel(call.sessionId, level.get<std::string>());
        sendResult(res, call.id, json::object());
    } else if (m == "tools/call") {
        toolsCall(res, call);
    } else if (m == "tasks/get") {
        std::string taskId;
        if (!taskIdParam(m_tasks, res, call, taskId))
            return;
        // One debug line per poll, as in the 2026 era (pollReply).
        if (Log::enabled(Log::Level::Debug))
            Log::debug("tasks/get " + Log::redact(taskId));
        TaskManager::Snapshot snap;
        if (!m_tasks.snapshot(taskId, call.tokenHash, snap)) {
            sendError(res, 200, call.id, -32602, "Failed to retrieve task: Task not found or expired");
            return;
        }
        PollStats::countPoll();
        sendResult(res, call.id, TaskJson::legacy(snap.record, snap.pollIntervalMs));
    } else if (m == "tasks/result") {
        tasksResult(res, call);
    } else if (m == "tasks/list") {
        tasksList(res, call);
    } else if (m == "tasks/cancel") {
        tasksCancel(res, call);
    } else {
        // 200, not 404: a 404 tells a 2025-11-25 client that its session is gone.
        sendError(res, 200, call.id, -32601, "Method not found: " + m);
    }
}

void LegacyMethods::initialize(HttpResponse &res, const McpCall &call)
{
    const std::string session = m_sessions.open(call.tokenHash);
    if (session.empty()) {
        sendError(res, 500, call.id, -32603, "The server could not create a session; retry");
        return;
    }
    res.set_header("Mcp-Session-Id", session);
    json capabilities = {{"tools", json::object()}};
    if (m_options.tasksExtension)
        capabilities["tasks"] = {{"list", json::object()}, {"cancel", json::object()},
                                 {"requests", {{"tools", {{"call", json::object()}}}}}};
    else
        capabilities["logging"] = json::object();
    const std::string jobs = " Without waiting on one call, submit_cfd_case returns a job_id for "
                             "get_cfd_case_status, answer_cfd_case, cancel_cfd_case and "
                             "get_cfd_result.";
    sendResult(res, call.id,
               {{"protocolVersion", kLegacyVersion},
                {"capabilities", std::move(capabilities)},
                {"serverInfo", {{"name", kServerName}, {"version", kServerVersion}}},
                {"instructions",
                 (m_options.tasksExtension
                      ? "Call run_cfd_case with a task parameter; it may ask about the mesh "
                        "through elicitation during tasks/result."
                      : "Call run_cfd_case: the response streams notifications/progress (send a "
                        "progressToken) and asks about the mesh through elicitation on the "
                        "stream; a lost stream cancels the run.")
                     + jobs}});
    Log::debug("legacy session " + Log::redact(session) + " opened");
}

void LegacyMethods::toolsCall(HttpResponse &res, const McpCall &call)
{
    const json name = call.params.value("name", json());
    const bool jobTool = name.is_string() && JobTools::isTool(name.get<std::string>());
    const bool foam = name.is_string() && name.get<std::string>() == FoamTool::name;
    if (!jobTool && !foam && (!name.is_string() || name.get<std::string>() != CfdTool::name)) {
        sendError(res, 200, call.id, -32602, RunTools::unknownToolMessage());
        return;
    }
    if ((jobTool || !m_options.tasksExtension) && call.params.contains("task")) {
        sendError(res, 200, call.id, -32602,
                  "Invalid params: " + name.get<std::string>()
                      + " does not run as a task here (no 'task' parameter); "
                      + (jobTool ? "it answers at once" : "call it without one to stream it"));
        return;
    }
    if (jobTool) {
        sendResult(res, call.id,
                   JobTools::call(m_tasks, m_options, name.get<std::string>(),
                                  call.params.value("arguments", json()), call.tokenHash));
        return;
    }
    if (!m_options.tasksExtension && !foam) {
        m_streamed.run(res, call, true);
        return;
    }
    json arguments;
    std::string error;
    if (!RunTools::validate(m_options, name, call.params.value("arguments", json()), arguments, error)) {
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
    m_streams.add(channel);
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
        if (m_streams.shuttingDown() || channel->isClosed()) {
            sendError(res, 503, call.id, -32603, "The server is shutting down; the case will "
                                                 "resume after a restart");
            break;
        }
        bool changed = false;
        channel->wait(std::chrono::milliseconds(1000), changed);
    }
    m_streams.remove(channel);
}

void LegacyMethods::tasksResult(HttpResponse &res, const McpCall &call)
{
    std::string taskId;
    if (!taskIdParam(m_tasks, res, call, taskId))
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
    if (m_streams.shuttingDown()) {
        sendError(res, 503, call.id, -32603, "The server is shutting down; retry after restart");
        return;
    }
    auto channel = std::make_shared<SseChannel>(std::set<std::string>{taskId}, call.tokenHash);
    m_streams.add(channel);
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
        [this, channel](bool) { m_streams.remove(channel); });
}

void LegacyMethods::tasksList(HttpResponse &res, const McpCall &call)
{
    std::size_t offset = 0;
    if (call.params.contains("cursor")) {
        const json &cursor = call.params["cursor"];
        std::string decoded;
        if (!cursor.is_string() || !decodeBase64Url(cursor.get<std::string>(), decoded)
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
        result["nextCursor"] = encodeBase64Url("offset:" + std::to_string(offset + kListPageSize));
    }
    sendResult(res, call.id, result);
}

void LegacyMethods::tasksCancel(HttpResponse &res, const McpCall &call)
{
    std::string taskId;
    if (!taskIdParam(m_tasks, res, call, taskId))
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
