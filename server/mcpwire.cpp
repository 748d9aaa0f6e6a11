#include "server/mcpwire.h"
#include "server/log.h"
#include "server/pollstats.h"

#include "server/taskjson.h"
#include "server/taskmanager.h"

namespace Eddy::Server::McpWire {

using nlohmann::json;

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

[[gnu::hot]] bool pollReply(const TaskManager &tasks, std::string_view idText, std::string_view taskId,
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
    // The task's stored rendering is sent from where it is kept, not copied into body.
    if (!tasks.shareDetail(taskId, tokenHash, body, res.shared)) {
        body.clear();
        return false;
    }
    res.sharedAt = body.size();
    body += "}}";
    PollStats::countPoll();
    res.status = 200;
    // clear() and append(): the reused response keeps the capacity, and no _M_replace runs.
    res.contentType.clear();
    res.contentType.append("application/json");
    return true;
}

std::string_view trimOws(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
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

json errorObject(const json &id, int code, const std::string &message, const json &data)
{
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null())
        error["data"] = data;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error}};
}

void sendError(HttpResponse &res, int httpStatus, const json &id, int code,
               const std::string &message, const json &data)
{
    res.status = httpStatus;
    res.set_content(TaskJson::dump(errorObject(id, code, message, data)), "application/json");
}

void sendResult(HttpResponse &res, const json &id, const json &result)
{
    res.status = 200;
    res.set_content(TaskJson::dump(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}),
                    "application/json");
}

bool taskIdParam(TaskManager &tasks, HttpResponse &res, const McpCall &call, std::string &taskId)
{
    const json id = call.params.value("taskId", json());
    if (!id.is_string() || id.get<std::string>().empty()) {
        sendError(res, 400, call.id, -32602, "Invalid params: 'taskId' must be a non-empty string");
        return false;
    }
    taskId = id.get<std::string>();
    tasks.adopt(taskId); // a replica's task, from the shared store (server/replicasync.h)
    return true;
}

} // namespace Eddy::Server::McpWire
