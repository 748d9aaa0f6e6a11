// run_cfd_case as a streamed tools/call (--no-tasks-extension): the case runs as an ordinary
// task in TaskManager, and this request's SSE response carries notifications/progress (when
// the request has a progressToken), notifications/message log lines at each change of state,
// keep-alive comments while quiet, and finally the CallToolResult. The run lives only as long
// as its stream: a client that disconnects (noticed at the next write) cancels it, as
// 2026-07-28 defines. The mesh question goes to a 2025-11-25 client as an elicitation/create
// request on the stream (answered by a POSTed response), and to a 2026-07-28 client that
// declares elicitation as an input_required result that it answers by calling again with
// inputResponses and requestState.

#include "server/streamedcalls.h"

#include "server/cfdtool.h"
#include "server/jobtools.h"
#include "server/legacysession.h"
#include "server/log.h"
#include "server/mcpwire.h"
#include "server/openstreams.h"
#include "server/sse.h"
#include "server/taskjson.h"
#include "server/taskmanager.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>

namespace Eddy::Server {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

using namespace McpWire;

// One streamed call's state, owned by its provider and releaser.
struct StreamedCalls::Run
{
    std::string taskId;
    std::string tokenHash;
    std::string sessionId; // 2025-11-25 only
    std::string callKey;   // key in StreamedCalls::m_calls, 2025-11-25 only
    std::string caseName;
    json id;
    json progressToken; // null: the client asked for no progress notifications
    bool legacy = false;
    bool logs = false; // send notifications/message lines
    bool elicitation = false;
    int maxIterations = 0;
    std::string lastState;
    int lastIteration = 0;
    Clock::time_point lastProgress{};
    Clock::time_point lastWrite = Clock::now();
    std::set<std::string> asked; // elicitation keys already sent (2025-11-25)
    bool finished = false;       // the response is complete: nothing to cancel on release
    // 2025-11-25 notifications/cancelled: the stream then ends without a response.
    std::atomic<bool> cancelledByClient{false};
};

namespace {

json notification(const std::string &method, json params)
{
    return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

// A 2025-11-25 session's logging/setLevel, or a 2026-07-28 call's logLevel, that asks for the
// info lines (notifications/message).
bool logLevelAllowsInfo(const std::string &level)
{
    return level == "debug" || level == "info";
}

// What the call finally answers for a case that ended.
json finalMessage(const json &id, bool legacy, const std::string &caseName, const TaskRecord &r)
{
    json result;
    if (r.result.is_object()
        && (r.status == TaskStatus::Completed || r.status == TaskStatus::Failed)) {
        result = r.result;
    } else if (r.status == TaskStatus::Cancelled) {
        result = CfdTool::errorResult("Case '" + caseName
                                      + "' was cancelled before it finished; it has no result.");
    } else {
        json error = r.error.is_object()
                         ? r.error
                         : json{{"code", -32603},
                                {"message", "The case ended without a result: " + r.statusMessage}};
        return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error}};
    }
    if (!legacy)
        result["resultType"] = "complete";
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
}

} // namespace

StreamedCalls::StreamedCalls(TaskManager &tasks, LegacySession &sessions,
                             const ServerOptions &options, OpenStreams &streams)
    : m_tasks(tasks), m_sessions(sessions), m_options(options), m_streams(streams)
{
}

StreamedCalls::~StreamedCalls() = default;

void StreamedCalls::run(HttpResponse &res, const McpCall &call, bool legacy)
{
    const auto toolError = [&](const std::string &text) {
        json result = CfdTool::errorResult(text);
        if (!legacy)
            result["resultType"] = "complete";
        sendResult(res, call.id, result);
    };
    json arguments;
    std::string error;
    if (!CfdTool::validate(call.params.value("arguments", json()), arguments, error)) {
        toolError(error);
        return;
    }
    if (m_streams.shuttingDown()) {
        sendError(res,
                  503,
                  call.id,
                  -32603,
                  "The server is shutting down; call run_cfd_case again after it restarts");
        return;
    }
    auto run = std::make_shared<Run>();
    run->id = call.id;
    run->tokenHash = call.tokenHash;
    run->legacy = legacy;
    run->caseName = arguments.value("case_name", "cavity");
    run->maxIterations = arguments.value("max_iterations", 20000);
    const json meta = call.params.value("_meta", json::object());
    if (meta.is_object()) {
        const json token = meta.value("progressToken", json());
        if (token.is_string() || token.is_number_integer())
            run->progressToken = token;
    }
    if (legacy) {
        run->sessionId = call.sessionId;
        run->logs = logLevelAllowsInfo(m_sessions.logLevel(call.sessionId));
        run->elicitation = true;
    } else if (meta.is_object()) {
        const json level = meta.value("io.modelcontextprotocol/logLevel", json());
        run->logs = level.is_string() && logLevelAllowsInfo(level.get<std::string>());
        const json caps = meta.value("io.modelcontextprotocol/clientCapabilities", json());
        run->elicitation = caps.is_object() && caps.contains("elicitation");
    }

    const json requestState = call.params.value("requestState", json());
    if (!legacy && requestState.is_string()) {
        // The retry of a call that ended input_required: the same case, now answered.
        run->taskId = requestState.get<std::string>();
        TaskManager::Snapshot snap;
        if (!m_tasks.snapshot(run->taskId, call.tokenHash, snap)
            || snap.record.status != TaskStatus::InputRequired) {
            toolError("This answer belongs to a run that no longer waits for one (it ended or "
                      "expired); call run_cfd_case again without requestState.");
            return;
        }
        // The case's own arguments name it, whatever the retry sent.
        run->caseName = snap.record.arguments.value("case_name", "cavity");
        run->maxIterations = snap.record.arguments.value("max_iterations", 20000);
        const json responses = call.params.value("inputResponses", json::object());
        m_tasks.update(
            run->taskId, call.tokenHash, responses.is_object() ? responses : json::object());
    } else {
        TaskManager::Snapshot snap;
        bool existing = false;
        if (!m_tasks.create(
                arguments, call.tokenHash, false, m_options.ttlMs, snap, existing, error)) {
            sendError(res, 500, call.id, -32603, "Internal error: " + error);
            return;
        }
        run->taskId = snap.record.id;
    }
    Log::info("case " + Log::redact(run->taskId) + " streamed on its tools/call");
    if (legacy) {
        run->callKey = call.sessionId + "\n" + McpWire::idText(call.id);
        const std::lock_guard lock(m_mutex);
        m_calls[run->callKey] = run;
    }

    auto channel = std::make_shared<SseChannel>(std::set<std::string>{run->taskId}, call.tokenHash);
    m_streams.add(channel);
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, run, channel](std::size_t, StreamSink &sink) {
            return step(*run, *channel, sink);
        },
        [this, run, channel](bool) {
            m_streams.remove(channel);
            if (!run->callKey.empty()) {
                const std::lock_guard lock(m_mutex);
                m_calls.erase(run->callKey);
            }
            if (run->finished)
                return;
            TaskManager::Snapshot after;
            if (m_tasks.cancel(run->taskId, run->tokenHash, after)
                == TaskManager::CancelOutcome::Cancelled)
                Log::info("case " + Log::redact(run->taskId)
                          + " cancelled: the client of its streamed tools/call disconnected");
        });
}

bool StreamedCalls::step(Run &run, SseChannel &channel, StreamSink &sink)
{
    bool ok = true;
    const auto send = [&](const json &message) {
        if (!ok)
            return;
        const std::string frame = SseChannel::frame(TaskJson::dump(message));
        ok = sink.write(frame.data(), frame.size());
        run.lastWrite = Clock::now();
    };
    const auto finish = [&](const json &message) {
        send(message);
        run.finished = true;
        sink.done();
        return ok;
    };
    TaskManager::Snapshot snap;
    if (!m_tasks.snapshot(run.taskId, run.tokenHash, snap))
        return finish(errorObject(run.id, -32603, "The case expired before it finished"));
    const TaskRecord &r = snap.record;
    const std::string state = JobTools::state(snap);
    if (state != run.lastState) {
        run.lastState = state;
        if (run.logs)
            send(notification(
                "notifications/message",
                {{"level", "info"},
                 {"logger", "eddy-cfd-server"},
                 {"data", "case '" + run.caseName + "' " + state + ": " + r.statusMessage}}));
    }
    if (r.status == TaskStatus::Cancelled && run.cancelledByClient) {
        // The client cancelled this request: it expects no response (2025-11-25).
        run.finished = true;
        sink.done();
        return ok;
    }
    if (isTerminal(r.status))
        return finish(finalMessage(run.id, run.legacy, run.caseName, r));
    if (r.status == TaskStatus::InputRequired && r.inputRequests.is_object()) {
        if (run.legacy) {
            for (const auto &[key, request] : r.inputRequests.items()) {
                if (!run.asked.insert(key).second)
                    continue;
                send({{"jsonrpc", "2.0"},
                      {"id", m_sessions.registerElicitation(run.sessionId, run.taskId, key)},
                      {"method", request.value("method", "elicitation/create")},
                      {"params", request.value("params", json::object())}});
            }
        } else if (run.elicitation) {
            // The case waits (until its TTL) for the client to call again with the answer.
            return finish({{"jsonrpc", "2.0"},
                           {"id", run.id},
                           {"result",
                            {{"resultType", "input_required"},
                             {"inputRequests", r.inputRequests},
                             {"requestState", run.taskId}}}});
        } else {
            TaskManager::Snapshot after;
            m_tasks.cancel(run.taskId, run.tokenHash, after);
            json result = CfdTool::errorResult(
                "The mesh of case '" + run.caseName
                + "' failed its quality check and needs an answer, but this call declared no "
                  "elicitation capability, so it cannot be asked and the case was cancelled. "
                  "Declare elicitation, use submit_cfd_case and answer_cfd_case, or lower "
                  "'grading'.");
            result["resultType"] = "complete";
            return finish({{"jsonrpc", "2.0"}, {"id", run.id}, {"result", result}});
        }
    }
    const auto now = Clock::now();
    const auto every = std::chrono::milliseconds(m_options.streamProgressMs);
    const std::int64_t everyIterations = m_options.streamProgressIterations;
    if (!run.progressToken.is_null() && r.status == TaskStatus::Working && !snap.queued
        && snap.iteration > run.lastIteration
        && (everyIterations > 0 ? snap.iteration - run.lastIteration >= everyIterations
                                : now - run.lastProgress >= every)) {
        send(notification("notifications/progress",
                          {{"progressToken", run.progressToken},
                           {"progress", snap.iteration},
                           {"total", run.maxIterations},
                           {"message", r.statusMessage}}));
        run.lastIteration = snap.iteration;
        run.lastProgress = now;
    }
    if (!ok)
        return false;
    if (channel.isClosed()) {
        TaskManager::Snapshot after;
        m_tasks.cancel(run.taskId, run.tokenHash, after);
        return finish(errorObject(run.id,
                                  -32603,
                                  "The server is shutting down and cancelled the case; call "
                                  "run_cfd_case again after it restarts"));
    }
    // Sleep until the next progress notification is due, a change of the case, or the next
    // keep-alive, whichever comes first.
    const auto keepAlive = std::chrono::milliseconds(m_options.sseKeepAliveMs);
    // While it runs, the case is sampled at least every 50 ms (a notification is due, or the
    // iteration count is watched); otherwise only changes and keep-alives wake the stream.
    const auto sample = std::chrono::milliseconds(50);
    Clock::duration wait = keepAlive - (now - run.lastWrite);
    if (!run.progressToken.is_null() && r.status == TaskStatus::Working && !snap.queued)
        wait = std::min<Clock::duration>(
            wait,
            everyIterations > 0
                ? Clock::duration(sample)
                : std::max<Clock::duration>(run.lastProgress + every - now, sample));
    wait = std::max<Clock::duration>(wait, std::chrono::milliseconds(10));
    bool changed = false;
    channel.wait(std::chrono::duration_cast<std::chrono::milliseconds>(wait), changed);
    if (Clock::now() - run.lastWrite >= keepAlive) {
        const std::string ping = SseChannel::keepAlive();
        ok = sink.write(ping.data(), ping.size());
        run.lastWrite = Clock::now();
    }
    return ok;
}

bool StreamedCalls::cancel(const std::string &sessionId,
                           const std::string &tokenHash,
                           const json &requestId)
{
    std::shared_ptr<Run> run;
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(sessionId + "\n" + McpWire::idText(requestId));
        if (it != m_calls.end())
            run = it->second.lock();
    }
    if (!run || run->tokenHash != tokenHash)
        return false;
    run->cancelledByClient = true;
    TaskManager::Snapshot after;
    if (m_tasks.cancel(run->taskId, tokenHash, after) != TaskManager::CancelOutcome::Cancelled)
        return false;
    Log::info("case " + Log::redact(run->taskId) + " cancelled by notifications/cancelled");
    return true;
}

} // namespace Eddy::Server
