#include "server/modernmethods.h"

#include "server/cfdtool.h"
#include "server/conformancefixtures.h"
#include "server/foamtool.h"
#include "server/jobtools.h"
#include "server/log.h"
#include "server/mcpwire.h"
#include "server/openstreams.h"
#include "server/runtools.h"
#include "server/sse.h"
#include "server/streamedcalls.h"
#include "server/taskjson.h"
#include "server/taskmanager.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace Eddy::Server {

using nlohmann::json;

using namespace McpWire;

namespace {


json tasksCapability()
{
    return {{"extensions", {{kTasksExtension, json::object()}}}};
}

} // namespace

ModernMethods::ModernMethods(TaskManager &tasks, const ServerOptions &options,
                             OpenStreams &streams, StreamedCalls &streamed)
    : m_tasks(tasks), m_options(options), m_streams(streams), m_streamed(streamed)
{
    if (m_options.conformanceFixtures)
        m_fixtureTasks = std::make_unique<ConformanceFixtures::TaskTable>();
}

ModernMethods::~ModernMethods() = default;

void ModernMethods::handle(const HttpRequest &req, HttpResponse &res, const McpCall &call)
{
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

void ModernMethods::discover(HttpResponse &res, const McpCall &call)
{
    json capabilities = {{"tools", json::object()},
                         {"prompts", json::object()},
                         {"resources", json::object()}};
    if (m_options.tasksExtension)
        capabilities["extensions"] = {{kTasksExtension, json::object()}};
    else
        capabilities["logging"] = json::object(); // log lines on streamed calls
    const std::string jobs = " Without waiting on one call, submit_cfd_case returns a job_id for "
                             "get_cfd_case_status, answer_cfd_case, cancel_cfd_case and "
                             "get_cfd_result.";
    sendResult(res, call.id,
               {{"resultType", "complete"},
                {"supportedVersions", {kModernVersion, kLegacyVersion}},
                {"capabilities", std::move(capabilities)},
                {"instructions",
                 (m_options.tasksExtension
                      ? "Call run_cfd_case to simulate a lid-driven cavity; it answers with a task. "
                        "Poll tasks/get (or listen) for progress in statusMessage; a mesh defect "
                        "asks via input_required whether to repair or abort."
                      : "Call run_cfd_case to simulate a lid-driven cavity; the call streams "
                        "notifications/progress (send a progressToken) until the result, and "
                        "closing the stream cancels the run.")
                     + jobs},
                {"_meta", {{"io.modelcontextprotocol/serverInfo",
                            {{"name", kServerName}, {"version", kServerVersion},
                             {"title", "Eddy reference CFD server"}}}}},
                {"ttlMs", 3600000},
                {"cacheScope", m_options.token.empty() ? "public" : "private"}});
}

void ModernMethods::toolsList(HttpResponse &res, const McpCall &call)
{
    json tools = m_options.conformanceFixtures ? ConformanceFixtures::tools() : json::array();
    tools.push_back(RunTools::cfdDefinition(m_options, false));
    if (m_options.tasksExtension)
        tools.push_back(FoamTool::definition(false));
    for (json &tool : JobTools::definitions())
        tools.push_back(std::move(tool));
    sendResult(res, call.id,
               {{"resultType", "complete"},
                {"tools", std::move(tools)},
                {"ttlMs", 300000},
                {"cacheScope", m_options.token.empty() ? "public" : "private"}});
}

void ModernMethods::emptyList(HttpResponse &res, const McpCall &call)
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

bool ModernMethods::requireTasks(HttpResponse &res, const McpCall &call)
{
    if (call.declaresTasks)
        return true;
    sendError(res, 400, call.id, -32021,
              "Missing required client capability: declare the io.modelcontextprotocol/tasks "
              "extension in _meta io.modelcontextprotocol/clientCapabilities.extensions",
              {{"requiredCapabilities", tasksCapability()}});
    return false;
}

void ModernMethods::toolsCall(HttpResponse &res, const McpCall &call, const HttpRequest &req)
{
    const json name = call.params.value("name", json());
    if (m_options.conformanceFixtures && name.is_string()
        && ConformanceFixtures::isTool(name.get<std::string>())) {
        fixtureCall(res, call, req);
        return;
    }
    if (name.is_string() && JobTools::isTool(name.get<std::string>())) {
        json result = JobTools::call(m_tasks, m_options, name.get<std::string>(),
                                     call.params.value("arguments", json()), call.tokenHash);
        result["resultType"] = "complete";
        sendResult(res, call.id, result);
        return;
    }
    const bool foam = name.is_string() && name.get<std::string>() == FoamTool::name;
    if (!foam && (!name.is_string() || name.get<std::string>() != CfdTool::name)) {
        sendError(res, 200, call.id, -32602, RunTools::unknownToolMessage());
        return;
    }
    if (!m_options.tasksExtension && !foam) {
        m_streamed.run(res, call, false);
        return;
    }
    if (!requireTasks(res, call))
        return;
    json arguments;
    std::string error;
    if (!RunTools::validate(m_options, name, call.params.value("arguments", json()), arguments, error)) {
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

void ModernMethods::fixtureCall(HttpResponse &res, const McpCall &call, const HttpRequest &req)
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

void ModernMethods::tasksGet(HttpResponse &res, const McpCall &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(m_tasks, res, call, taskId))
        return;
    if (json detail; m_fixtureTasks && m_fixtureTasks->get(taskId, call.tokenHash, detail)) {
        sendResult(res, call.id, detail);
        return;
    }
    if (!pollReply(m_tasks, idText(call.id), taskId, call.tokenHash, res))
        sendError(res, 200, call.id, -32602, "Failed to retrieve task: Task not found or expired");
}

void ModernMethods::tasksUpdate(HttpResponse &res, const McpCall &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(m_tasks, res, call, taskId))
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

void ModernMethods::tasksCancel(HttpResponse &res, const McpCall &call)
{
    if (!requireTasks(res, call))
        return;
    std::string taskId;
    if (!taskIdParam(m_tasks, res, call, taskId))
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

void ModernMethods::listen(HttpResponse &res, const McpCall &call)
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
        for (const json &v : ids)
            if (m_tasks.visible(v.get_ref<const std::string &>(), call.tokenHash))
                accepted.insert(v.get<std::string>());
    }
    // How many ids a listener subscribes (never the ids): which ids a client follows by push.
    Log::debug("subscriptions/listen for " + std::to_string(accepted.size()) + " task(s)");
    if (m_streams.shuttingDown()) {
        sendError(res, 503, call.id, -32603, "The server is shutting down; listen again later");
        return;
    }
    json ackFilter = json::object();
    if (wantsTasks)
        ackFilter["taskIds"] = json(std::vector<std::string>(accepted.begin(), accepted.end()));
    const std::string subscriptionId = idText(call.id);
    auto channel = std::make_shared<SseChannel>(std::move(accepted), call.tokenHash, subscriptionId);
    m_streams.add(channel);
    std::string opening = SseChannel::frame(TaskJson::dump(
        {{"jsonrpc", "2.0"},
         {"method", "notifications/subscriptions/acknowledged"},
         {"params", {{"_meta", {{"io.modelcontextprotocol/subscriptionId", call.id}}},
                     {"notifications", ackFilter}}}}));
    const json closing = {{"jsonrpc", "2.0"}, {"id", call.id},
                          {"result", {{"resultType", "complete"},
                                      {"_meta", {{"io.modelcontextprotocol/subscriptionId", call.id}}}}}};
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    auto opened = std::make_shared<bool>(false);
    // The current state of each task follows the ack, so a listener needs no extra poll. It is
    // rendered a batch at a time as the stream is written: a stream of 10,000 tasks with their
    // questions would otherwise hold tens of MB for as long as it stays open.
    channel->beginCatchUp();
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, channel, opening = std::move(opening), closing, opened,
         keepAlive = std::chrono::milliseconds(m_options.sseKeepAliveMs)](std::size_t,
                                                                          StreamSink &sink) {
            if (!*opened) {
                *opened = true;
                return sink.write(opening.data(), opening.size());
            }
            if (channel->catchingUp() && !channel->isClosed()) {
                std::string batch;
                m_tasks.fanout().catchUp(*channel, 64, batch);
                return batch.empty() || sink.write(batch.data(), batch.size());
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
        [this, channel](bool) { m_streams.remove(channel); });
}

} // namespace Eddy::Server
