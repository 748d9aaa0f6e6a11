#include "server/conformancefixtures.h"

#include "server/mcphandler.h"
#include "server/secrets.h"
#include "server/taskjson.h"
#include "server/taskmanager.h"
#include "server/taskrecord.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace Eddy::Server::ConformanceFixtures {

using nlohmann::json;

namespace {

json objectSchema(json properties = json::object(), json required = json::array())
{
    json schema = {{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty())
        schema["required"] = std::move(required);
    return schema;
}

json tool(const char *name,
          const char *description,
          json inputSchema,
          const char *taskSupport = "forbidden")
{
    return {{"name", name},
            {"description", description},
            {"inputSchema", std::move(inputSchema)},
            {"execution", {{"taskSupport", taskSupport}}}};
}

json elicitation(const std::string &message, const char *field, const char *type)
{
    return {{"method", "elicitation/create"},
            {"params",
             {{"mode", "form"},
              {"message", message},
              {"requestedSchema",
               {{"type", "object"},
                {"properties", {{field, {{"type", type}}}}},
                {"required", {field}}}}}}};
}

// The suite's JSON Schema 2020-12 keyword-preservation fixture (json-schema-2020-12 scenario).
json jsonSchema202012()
{
    return json::parse(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                              "properties": {"street": {"type": "string"},
                                             "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"},
                       "address": {"$ref": "#/$defs/address"},
                       "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                       "phone": {"type": "string"},
                       "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })");
}

const json &definitions()
{
    static const json all = json::array({
        tool("greet",
             "Returns 'Hello, {name}!' at once (no task).",
             objectSchema({{"name", {{"type", "string"}}}})),
        tool("test_missing_capability",
             "Needs the client's sampling capability; without it the call is -32021.",
             objectSchema()),
        tool("test_streaming_elicitation",
             "Answers with a complete result; this server never sends a request on a response "
             "stream.",
             objectSchema()),
        tool("test_logging_tool",
             "Answers with a complete result and no notifications/message (no _meta logLevel).",
             objectSchema()),
        tool("json_schema_2020_12_tool",
             "Echoes its arguments; its inputSchema uses 2020-12.",
             jsonSchema202012()),
        tool("test_custom_header",
             "Echoes 'region', which the client mirrors into the Mcp-Param-Region header.",
             objectSchema({{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}},
                          json::array({"region"}))),
        tool("slow_compute",
             "Waits 'seconds' and answers; a task when the client declares the Tasks extension, "
             "otherwise at once in the reply.",
             objectSchema({{"seconds", {{"type", "integer"}, {"minimum", 0}, {"maximum", 600}}},
                           {"label", {{"type", "string"}}}}),
             "optional"),
        tool("failing_job",
             "A task that completes with a tool error (isError).",
             objectSchema(),
             "required"),
        tool("protocol_error_job",
             "A task that fails with a JSON-RPC error.",
             objectSchema(),
             "required"),
        tool("confirm_delete",
             "A task that asks once (elicitation) whether to delete 'filename'.",
             objectSchema({{"filename", {{"type", "string"}}}}),
             "required"),
        tool("multi_input", "A task that asks two questions at once.", objectSchema(), "required"),
        tool("test_tool_with_task",
             "Asks for a name through input_required on tools/call, then answers with a task "
             "whose result greets that name.",
             objectSchema(),
             "optional"),
    });
    return all;
}

const json *definition(const std::string &name)
{
    const json &all = definitions();
    const auto it
        = std::find_if(all.begin(), all.end(), [&](const json &t) { return t["name"] == name; });
    return it == all.end() ? nullptr : &*it;
}

json textResult(const std::string &text, bool isError = false)
{
    json result = {{"resultType", "complete"},
                   {"content", json::array({{{"type", "text"}, {"text", text}}})}};
    if (isError)
        result["isError"] = true;
    return result;
}

Outcome headerMismatch(const std::string &message)
{
    Outcome out;
    out.httpStatus = 400;
    out.error = {{"code", -32020}, {"message", "Header mismatch: " + message}};
    return out;
}

// SEP-2243 custom headers: each argument annotated x-mcp-header NAME travels in Mcp-Param-NAME
// too (strings as-is, integers in decimal, booleans as true/false), omitted when absent or null.
bool checkParamHeaders(const json &inputSchema,
                       const json &arguments,
                       const HttpRequest &req,
                       Outcome &failure)
{
    const json properties = inputSchema.value("properties", json::object());
    for (const auto &[param, schema] : properties.items()) {
        if (!schema.is_object() || !schema.contains("x-mcp-header"))
            continue;
        const std::string header = "Mcp-Param-" + schema["x-mcp-header"].get<std::string>();
        const json value = arguments.is_object() ? arguments.value(param, json()) : json();
        const std::string_view *raw = req.header(header);
        if (value.is_null()) {
            if (raw) {
                failure = headerMismatch(header + " is present but argument '" + param
                                         + "' is not; send the header only with the argument");
                return false;
            }
            continue;
        }
        if (!raw) {
            failure = headerMismatch("the " + header
                                     + " header is missing; it must carry the "
                                       "value of argument '"
                                     + param + "'");
            return false;
        }
        std::string decoded;
        if (!McpHandler::decodeHeaderValue(*raw, decoded)) {
            failure = headerMismatch("the " + header
                                     + " header has a malformed =?base64?...?= "
                                       "value (standard Base64 with padding)");
            return false;
        }
        const std::string expected = value.is_string() ? value.get<std::string>() : value.dump();
        if (decoded != expected) {
            failure = headerMismatch(header + " value '" + decoded + "' does not match argument '"
                                     + param + "'");
            return false;
        }
    }
    return true;
}

} // namespace

json tools()
{
    return definitions();
}

bool isTool(const std::string &name)
{
    return definition(name) != nullptr;
}

struct TaskTable::Job
{
    TaskRecord record;
    int pollIntervalMs = 1000;
    std::string kind;
    std::int64_t dueMs = 0; // slow_compute: when it completes
};

namespace {

json missingTasks(const std::string &tool)
{
    return {{"code", -32021},
            {"message",
             "Missing required client capability: " + tool
                 + " runs only as a task; declare the io.modelcontextprotocol/tasks "
                   "extension in _meta io.modelcontextprotocol/clientCapabilities"},
            {"data",
             {{"requiredCapabilities",
               {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}}}};
}

std::string accepted(const json &response, const char *field)
{
    if (!response.is_object() || response.value("action", "") != "accept")
        return {};
    const json content = response.value("content", json::object());
    const json value = content.is_object() ? content.value(field, json()) : json();
    return value.is_string() ? value.get<std::string>() : value.is_null() ? "" : value.dump();
}

} // namespace

Outcome TaskTable::call(const Request &req, const HttpRequest &http)
{
    const json *def = definition(req.name);
    Outcome out;
    if (!def) {
        out.error = {{"code", -32602}, {"message", "Unknown tool: " + req.name}};
        return out;
    }
    if (!checkParamHeaders((*def)["inputSchema"], req.arguments, http, out))
        return out;
    const std::string support = (*def)["execution"].value("taskSupport", "forbidden");
    if (support == "required" && !req.declaresTasks) {
        out.httpStatus = 400;
        out.error = missingTasks(req.name);
        return out;
    }
    const json &args = req.arguments;
    const std::string &name = req.name;
    if (name == "greet") {
        const json who = args.value("name", json());
        out.result = who.is_string() ? textResult("Hello, " + who.get<std::string>() + "!")
                                     : textResult("Hello, World!");
    } else if (name == "test_missing_capability") {
        if (!req.clientCapabilities.contains("sampling")) {
            out.httpStatus = 400;
            out.error = {{"code", -32021},
                         {"message",
                          "Missing required client capability: this tool needs "
                          "sampling; declare it in _meta "
                          "io.modelcontextprotocol/clientCapabilities"},
                         {"data", {{"requiredCapabilities", {{"sampling", json::object()}}}}}};
            return out;
        }
        out.result = textResult("sampling is declared");
    } else if (name == "test_streaming_elicitation") {
        out.result = textResult("no input needed");
    } else if (name == "test_logging_tool") {
        out.result = textResult("done without logging");
    } else if (name == "json_schema_2020_12_tool") {
        out.result = textResult(args.dump());
    } else if (name == "test_custom_header") {
        out.result = textResult("region " + args.value("region", json("")).dump());
    } else if (name == "slow_compute") {
        const json secondsArg = args.value("seconds", json(0));
        const std::int64_t seconds
            = secondsArg.is_number_integer()
                  ? std::clamp<std::int64_t>(secondsArg.get<std::int64_t>(), 0, 600)
                  : 0;
        const std::string label = args.value("label", json("")).is_string()
                                      ? args.value("label", std::string())
                                      : std::string();
        const json result
            = textResult("computed " + label + " in " + std::to_string(seconds) + " s");
        if (!req.declaresTasks) {
            // Without the extension the same work runs in the reply (bounded for a test fixture).
            std::this_thread::sleep_for(std::chrono::seconds(std::min<std::int64_t>(seconds, 10)));
            out.result = result;
            return out;
        }
        Job job;
        job.kind = name;
        job.dueMs = TaskManager::nowMs() + seconds * 1000;
        job.record.result = result;
        job.record.statusMessage = "computing";
        return createTask(req, std::move(job));
    } else if (name == "failing_job" || name == "protocol_error_job") {
        Job job;
        job.kind = name;
        if (name == "failing_job") {
            job.record.status = TaskStatus::Completed;
            job.record.result
                = textResult("the job failed: the input could not be processed", true);
        } else {
            job.record.status = TaskStatus::Failed;
            job.record.error = {{"code", -32603}, {"message", "Internal error: the job crashed"}};
            job.record.statusMessage = "the job crashed";
        }
        return createTask(req, std::move(job));
    } else if (name == "confirm_delete" || name == "multi_input") {
        Job job;
        job.kind = name;
        job.record.status = TaskStatus::InputRequired;
        if (name == "confirm_delete") {
            const std::string file = args.value("filename", json("")).is_string()
                                         ? args.value("filename", std::string())
                                         : std::string();
            job.record.inputRequests
                = {{"confirm", elicitation("Delete " + file + "?", "confirmed", "boolean")}};
        } else {
            job.record.inputRequests
                = {{"first", elicitation("First value?", "value", "string")},
                   {"second", elicitation("Second value?", "value", "string")}};
        }
        job.record.statusMessage = "waiting for input";
        return createTask(req, std::move(job));
    } else if (name == "test_tool_with_task") {
        // SEP-2322 round 1 asks in the reply; the retry carrying the answer starts the task.
        const json answer = req.inputResponses.is_object()
                                ? req.inputResponses.value("user_name", json())
                                : json();
        if (answer.is_null()) {
            out.result = {{"resultType", "input_required"},
                          {"inputRequests",
                           {{"user_name", elicitation("What is your name?", "name", "string")}}},
                          {"requestState", "c3RlcD0x"}};
            return out;
        }
        const std::string who = accepted(answer, "name");
        if (!req.declaresTasks) {
            out.result = textResult("Hello, " + who + "!");
            return out;
        }
        Job job;
        job.kind = name;
        job.record.status = TaskStatus::Completed;
        job.record.result = textResult("Hello, " + who + "!");
        return createTask(req, std::move(job));
    }
    return out;
}

Outcome TaskTable::createTask(const Request &req, Job job)
{
    const std::int64_t now = TaskManager::nowMs();
    job.record.id = Secrets::randomId();
    job.record.tokenHash = req.tokenHash;
    job.record.createdMs = now;
    job.record.updatedMs = now;
    job.record.ttlMs = req.ttlMs;
    job.pollIntervalMs = req.pollIntervalMs;
    json created = TaskJson::detailed(job.record, job.pollIntervalMs);
    // CreateTaskResult is Result & Task: never result, error or inputRequests.
    created.erase("result");
    created.erase("error");
    created.erase("inputRequests");
    created["resultType"] = "task";
    {
        const std::lock_guard lock(m_mutex);
        std::string id = job.record.id; // copied: the job is moved from below
        m_jobs.emplace(std::move(id), std::make_shared<Job>(std::move(job)));
    }
    Outcome out;
    out.result = std::move(created);
    return out;
}

void TaskTable::advance(Job &job, std::int64_t now)
{
    if (job.kind == "slow_compute" && job.record.status == TaskStatus::Working
        && now >= job.dueMs) {
        job.record.status = TaskStatus::Completed;
        job.record.statusMessage.clear();
        job.record.updatedMs = now;
    }
}

bool TaskTable::get(const std::string &taskId, const std::string &tokenHash, json &detail)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_jobs.find(taskId);
    if (it == m_jobs.end() || it->second->record.tokenHash != tokenHash)
        return false;
    Job &job = *it->second;
    advance(job, TaskManager::nowMs());
    detail = TaskJson::detailed(job.record, job.pollIntervalMs);
    detail["resultType"] = "complete";
    return true;
}

bool TaskTable::update(const std::string &taskId,
                       const std::string &tokenHash,
                       const json &inputResponses)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_jobs.find(taskId);
    if (it == m_jobs.end() || it->second->record.tokenHash != tokenHash)
        return false;
    Job &job = *it->second;
    TaskRecord &r = job.record;
    if (r.status != TaskStatus::InputRequired || !r.inputRequests.is_object())
        return true; // answered or finished already: nothing to apply
    std::vector<std::string> answers;
    for (const auto &[key, response] : inputResponses.items()) {
        if (!r.inputRequests.contains(key))
            continue; // unknown or already answered keys are ignored
        r.inputRequests.erase(key);
        answers.push_back(key + "=" + (response.is_object() ? response.value("action", "") : ""));
    }
    r.updatedMs = TaskManager::nowMs();
    if (r.inputRequests.empty()) {
        r.inputRequests = nullptr;
        r.status = TaskStatus::Completed;
        r.statusMessage.clear();
        std::string text = job.kind + " done:";
        for (const std::string &a : answers)
            text += " " + a;
        r.result = textResult(text);
    }
    return true;
}

bool TaskTable::cancel(const std::string &taskId, const std::string &tokenHash)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_jobs.find(taskId);
    if (it == m_jobs.end() || it->second->record.tokenHash != tokenHash)
        return false;
    Job &job = *it->second;
    advance(job, TaskManager::nowMs());
    if (!isTerminal(job.record.status)) {
        job.record.status = TaskStatus::Cancelled;
        job.record.inputRequests = nullptr;
        job.record.statusMessage = "cancelled by the client";
        job.record.updatedMs = TaskManager::nowMs();
    }
    return true;
}

} // namespace Eddy::Server::ConformanceFixtures
