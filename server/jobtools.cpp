#include "server/jobtools.h"

#include "server/cfdtool.h"
#include "server/log.h"
#include "server/serveroptions.h"
#include "server/taskjson.h"

#include <algorithm>

namespace Eddy::Server {

using nlohmann::json;

namespace {

const json kStates = {"queued", "running", "input_required", "completed", "failed", "cancelled"};

json jobIdProperty()
{
    return {{"type", "string"},
            {"minLength", 1},
            {"maxLength", 200},
            {"description",
             "The job_id submit_cfd_case returned. A secret: whoever holds it "
             "(with the same bearer token) can read and cancel the job."}};
}

json statusSchema()
{
    return {{"type", "object"},
            {"properties",
             {{"job_id", {{"type", "string"}}},
              {"state",
               {{"type", "string"},
                {"enum", kStates},
                {"description",
                 "Batched answers use 'unknown' for an id the server does not "
                 "know (expired or never submitted with this token)."}}},
              {"progress",
               {{"type", "number"},
                {"minimum", 0},
                {"maximum", 1},
                {"description", "Iterations run over max_iterations; 1 when completed."}}},
              {"message",
               {{"type", "string"},
                {"description",
                 "The case's status text, e.g. 'iteration 4200 of 12000, "
                 "residual 3.1e-4 (u ..., v ..., \u03c9 ...)'."}}},
              {"question",
               {{"type", "object"},
                {"description",
                 "Only in state input_required: what answer_cfd_case should "
                 "answer. requestedSchema describes 'content'."},
                {"properties",
                 {{"key", {{"type", "string"}}},
                  {"message", {{"type", "string"}}},
                  {"requestedSchema", {{"type", "object"}}}}},
                {"required", {"key", "message", "requestedSchema"}}}},
              {"created_at", {{"type", "string"}, {"format", "date-time"}}},
              {"updated_at", {{"type", "string"}, {"format", "date-time"}}}}},
            {"required", {"job_id", "state", "message"}}};
}

json tool(const char *name,
          const char *title,
          const std::string &description,
          json input,
          json output,
          bool readOnly,
          bool idempotent)
{
    return {{"name", name},
            {"title", title},
            {"description", description},
            {"inputSchema", std::move(input)},
            {"outputSchema", std::move(output)},
            {"annotations",
             {{"readOnlyHint", readOnly},
              {"destructiveHint", false},
              {"idempotentHint", idempotent},
              {"openWorldHint", false}}}};
}

json textResult(const std::string &text, json structured)
{
    return {{"content", {{{"type", "text"}, {"text", text}}}},
            {"structuredContent", std::move(structured)},
            {"isError", false}};
}

const char *unknownJob()
{
    return "No job with this job_id: it expired (jobs are kept for a limited time after "
           "submission) or was not submitted with this server's current token. Submit the case "
           "again with submit_cfd_case.";
}

// The job_id argument, or an error text.
bool jobIdArgument(const json &arguments, std::string &id, std::string &error, const char *toolName)
{
    const json value = arguments.is_object() ? arguments.value("job_id", json()) : json();
    if (!value.is_string() || value.get<std::string>().empty()
        || value.get<std::string>().size() > 200) {
        error = std::string("Invalid arguments: ") + toolName
                + " needs 'job_id', the string submit_cfd_case returned.";
        return false;
    }
    id = value.get<std::string>();
    return true;
}

json statusObject(const std::string &id, const TaskManager::Snapshot &snap)
{
    const TaskRecord &r = snap.record;
    json status = {{"job_id", id},
                   {"state", JobTools::state(snap)},
                   {"progress", JobTools::progress(snap)},
                   {"message", r.statusMessage},
                   {"created_at", TaskJson::isoTime(r.createdMs)},
                   {"updated_at", TaskJson::isoTime(r.updatedMs)}};
    if (r.status == TaskStatus::InputRequired && r.inputRequests.is_object()
        && !r.inputRequests.empty()) {
        const auto first = r.inputRequests.begin();
        const json params = first.value().value("params", json::object());
        status["question"] = {{"key", first.key()},
                              {"message", params.value("message", "")},
                              {"requestedSchema", params.value("requestedSchema", json::object())}};
    }
    return status;
}

std::string statusLine(const json &status)
{
    std::string line = status.value("state", "") + ": " + status.value("message", "");
    if (status.contains("question"))
        line += ". Question: " + status["question"].value("message", "")
                + " Answer with answer_cfd_case (job_id, action 'accept', content {\"action\": "
                  "\"repair\" or \"abort\", \"smoothing_passes\": 1-50}).";
    return line;
}

json submit(TaskManager &tasks,
            const ServerOptions &options,
            const json &arguments,
            const std::string &tokenHash)
{
    json normalized;
    std::string error;
    if (!CfdTool::validate(arguments, normalized, error))
        return CfdTool::errorResult(error);
    TaskManager::Snapshot snap;
    bool existing = false;
    if (!tasks.create(normalized, tokenHash, false, options.ttlMs, snap, existing, error))
        return CfdTool::errorResult("The case was not submitted: " + error);
    const std::string &id = snap.record.id;
    Log::info("job " + Log::redact(id) + (existing ? " re-used" : " submitted") + " through "
              + JobTools::submitTool);
    std::string text
        = std::string(existing ? "This idempotency_key already has a job: " : "Submitted case '")
          + normalized.value("case_name", "cavity") + "' as job_id " + id
          + ". Poll get_cfd_case_status with this job_id; when its state is "
            "completed, get_cfd_result returns the result.";
    return textResult(text, {{"job_id", id}});
}

json status(const TaskManager &tasks, const json &arguments, const std::string &tokenHash)
{
    const bool one = arguments.is_object() && arguments.contains("job_id");
    const bool many = arguments.is_object() && arguments.contains("job_ids");
    // At debug level every status call is one line with how many ids it asks about (never the
    // ids): how often a client polls, and whether it batches.
    if (Log::enabled(Log::Level::Debug))
        Log::debug(std::string(JobTools::statusTool) + " call for "
                   + (many && arguments["job_ids"].is_array()
                          ? std::to_string(arguments["job_ids"].size())
                          : std::string(one ? "1" : "0"))
                   + " job(s)");
    if (one == many)
        return CfdTool::errorResult("Invalid arguments: get_cfd_case_status needs either "
                                    "'job_id' (a string) or 'job_ids' (an array of up to 100 "
                                    "strings), not both.");
    if (one) {
        std::string id, error;
        if (!jobIdArgument(arguments, id, error, JobTools::statusTool))
            return CfdTool::errorResult(error);
        TaskManager::Snapshot snap;
        if (!tasks.snapshot(id, tokenHash, snap))
            return CfdTool::errorResult(unknownJob());
        const json s = statusObject(id, snap);
        return textResult(statusLine(s), s);
    }
    const json &ids = arguments["job_ids"];
    if (!ids.is_array() || ids.empty() || ids.size() > std::size_t(JobTools::maxBatch)
        || std::any_of(ids.begin(), ids.end(), [](const json &v) {
               return !v.is_string() || v.get<std::string>().empty();
           }))
        return CfdTool::errorResult("Invalid arguments: 'job_ids' must be an array of 1 to 100 "
                                    "job_id strings; split longer lists into several calls.");
    json jobs = json::array();
    std::string text;
    for (const json &v : ids) {
        const std::string id = v.get<std::string>();
        TaskManager::Snapshot snap;
        json s = tasks.snapshot(id, tokenHash, snap)
                     ? statusObject(id, snap)
                     : json{{"job_id", id}, {"state", "unknown"}, {"message", unknownJob()}};
        text += std::to_string(jobs.size() + 1) + ". " + statusLine(s) + "\n";
        jobs.push_back(std::move(s));
    }
    return textResult(text, {{"jobs", std::move(jobs)}});
}

json answer(TaskManager &tasks, const json &arguments, const std::string &tokenHash)
{
    std::string id, error;
    if (!jobIdArgument(arguments, id, error, JobTools::answerTool))
        return CfdTool::errorResult(error);
    const json action = arguments.value("action", json());
    if (!action.is_string() || (action != "accept" && action != "decline" && action != "cancel"))
        return CfdTool::errorResult("Invalid arguments: 'action' must be accept (with 'content'), "
                                    "decline or cancel.");
    const json content = arguments.value("content", json::object());
    if (action == "accept" && (!content.is_object() || !content.contains("action")))
        return CfdTool::errorResult("Invalid arguments: with action accept, 'content' must be an "
                                    "object such as {\"action\": \"repair\", "
                                    "\"smoothing_passes\": 5} or {\"action\": \"abort\"}.");
    TaskManager::Snapshot snap;
    if (!tasks.snapshot(id, tokenHash, snap))
        return CfdTool::errorResult(unknownJob());
    if (snap.record.status != TaskStatus::InputRequired || !snap.record.inputRequests.is_object()
        || snap.record.inputRequests.empty())
        return CfdTool::errorResult(std::string("This job is not waiting for an answer: it is ")
                                    + JobTools::state(snap) + " (" + snap.record.statusMessage
                                    + ").");
    std::string key = arguments.value("key", json()).is_string()
                          ? arguments["key"].get<std::string>()
                          : snap.record.inputRequests.begin().key();
    if (!snap.record.inputRequests.contains(key))
        return CfdTool::errorResult("This job's question has the key '"
                                    + snap.record.inputRequests.begin().key()
                                    + "'; answer that one (or leave 'key' out).");
    json response = {{"action", action}};
    if (action == "accept")
        response["content"] = content;
    tasks.update(id, tokenHash, json{{key, response}});
    tasks.snapshot(id, tokenHash, snap);
    const json s = statusObject(id, snap);
    return textResult("Answer taken. " + statusLine(s), s);
}

json cancel(TaskManager &tasks, const json &arguments, const std::string &tokenHash)
{
    std::string id, error;
    if (!jobIdArgument(arguments, id, error, JobTools::cancelTool))
        return CfdTool::errorResult(error);
    TaskManager::Snapshot after;
    const auto outcome = tasks.cancel(id, tokenHash, after);
    if (outcome == TaskManager::CancelOutcome::Unknown)
        return CfdTool::errorResult(unknownJob());
    json s = statusObject(id, after);
    s["cancelled"] = outcome == TaskManager::CancelOutcome::Cancelled;
    const std::string text = outcome == TaskManager::CancelOutcome::Cancelled
                                 ? "Cancelled the job."
                                 : std::string("Not cancelled: the job had already ended (")
                                       + s.value("state", "") + ").";
    return textResult(text, s);
}

json result(const TaskManager &tasks, const json &arguments, const std::string &tokenHash)
{
    std::string id, error;
    if (!jobIdArgument(arguments, id, error, JobTools::resultTool))
        return CfdTool::errorResult(error);
    TaskManager::Snapshot snap;
    if (!tasks.snapshot(id, tokenHash, snap))
        return CfdTool::errorResult(unknownJob());
    const TaskRecord &r = snap.record;
    if (r.result.is_object()
        && (r.status == TaskStatus::Completed || r.status == TaskStatus::Failed))
        return r.result;
    switch (r.status) {
    case TaskStatus::Completed:
        return CfdTool::errorResult("The job completed without a result.");
    case TaskStatus::Failed:
        return CfdTool::errorResult(
            "The job failed: "
            + (r.error.is_object() ? r.error.value("message", r.statusMessage) : r.statusMessage));
    case TaskStatus::Cancelled:
        return CfdTool::errorResult("The job was cancelled before it finished; it has no result.");
    case TaskStatus::InputRequired:
    case TaskStatus::Working:
        break;
    }
    return CfdTool::errorResult(std::string("The job has not finished: it is ")
                                + JobTools::state(snap) + " (" + r.statusMessage
                                + "). Poll get_cfd_case_status until its state is completed.");
}

} // namespace

bool JobTools::isTool(const std::string &name)
{
    return name == submitTool || name == statusTool || name == answerTool || name == cancelTool
           || name == resultTool;
}

const char *JobTools::state(const TaskManager::Snapshot &snap)
{
    switch (snap.record.status) {
    case TaskStatus::Working:
        return snap.queued ? "queued" : "running";
    case TaskStatus::InputRequired:
        return "input_required";
    case TaskStatus::Completed:
        return "completed";
    case TaskStatus::Failed:
        return "failed";
    case TaskStatus::Cancelled:
        return "cancelled";
    }
    return "failed";
}

double JobTools::progress(const TaskManager::Snapshot &snap)
{
    if (snap.record.status == TaskStatus::Completed)
        return 1.0;
    const int limit = snap.record.arguments.value("max_iterations", 20000);
    return limit > 0 ? std::clamp(double(snap.iteration) / limit, 0.0, 1.0) : 0.0;
}

json JobTools::definitions()
{
    json submitInput = CfdTool::definition(false)["inputSchema"];
    const json jobOnly = {{"type", "object"},
                          {"properties", {{"job_id", jobIdProperty()}}},
                          {"required", {"job_id"}},
                          {"additionalProperties", false}};
    json batchStatus = statusSchema();
    batchStatus["properties"]["jobs"] = {{"type", "array"}, {"items", statusSchema()}};
    batchStatus.erase("required");
    json cancelOutput = statusSchema();
    cancelOutput["properties"]["cancelled"] = {{"type", "boolean"}};
    return json::array(
        {tool(submitTool,
              "Submit a lid-driven cavity CFD case",
              "Queues the same simulation as run_cfd_case and answers at once with a job_id "
              "(also named in the text). Follow it with get_cfd_case_status, then "
              "get_cfd_result; cancel_cfd_case stops it. A mesh defect puts the job in state "
              "input_required with a question for answer_cfd_case. Repeating an "
              "idempotency_key returns the job submitted first with it.",
              std::move(submitInput),
              {{"type", "object"},
               {"properties", {{"job_id", {{"type", "string"}}}}},
               {"required", {"job_id"}}},
              false,
              true),
         tool(statusTool,
              "Status of CFD jobs",
              "The state (queued, running, input_required, completed, failed, cancelled), "
              "progress (0 to 1) and status message of one job ('job_id') or of up to 100 "
              "('job_ids', answered as 'jobs' in the same order). In input_required, 'question' "
              "holds what answer_cfd_case must answer. Poll no more than once a second.",
              {{"type", "object"},
               {"properties",
                {{"job_id", jobIdProperty()},
                 {"job_ids",
                  {{"type", "array"},
                   {"items", jobIdProperty()},
                   {"minItems", 1},
                   {"maxItems", maxBatch},
                   {"description", "Several job ids at once; give this or job_id."}}}}},
               {"additionalProperties", false}},
              std::move(batchStatus),
              true,
              true),
         tool(answerTool,
              "Answer a CFD job's mesh question",
              "Answers the question of a job in state input_required: action 'accept' with "
              "content {\"action\": \"repair\", \"smoothing_passes\": 1-50} repairs the mesh "
              "and continues, content {\"action\": \"abort\"} ends the case; 'decline' or "
              "'cancel' end it too. Returns the job's new status.",
              {{"type", "object"},
               {"properties",
                {{"job_id", jobIdProperty()},
                 {"action", {{"type", "string"}, {"enum", {"accept", "decline", "cancel"}}}},
                 {"content",
                  {{"type", "object"},
                   {"description", "With accept: the form answer, per question.requestedSchema."},
                   {"properties",
                    {{"action", {{"type", "string"}, {"enum", {"repair", "abort"}}}},
                     {"smoothing_passes",
                      {{"type", "integer"}, {"minimum", 1}, {"maximum", 50}, {"default", 5}}}}}}},
                 {"key",
                  {{"type", "string"},
                   {"description", "question.key; by default the job's open question."}}}}},
               {"required", {"job_id", "action"}},
               {"additionalProperties", false}},
              statusSchema(),
              false,
              false),
         tool(cancelTool,
              "Cancel a CFD job",
              "Stops a queued, running or waiting job; it ends in state cancelled without a "
              "result. 'cancelled' is false when the job had already ended.",
              jobOnly,
              std::move(cancelOutput),
              false,
              true),
         tool(resultTool,
              "Result of a finished CFD job",
              "The result of a completed job: the same content and structuredContent "
              "run_cfd_case gives (centreline profiles, vortex centre, convergence, residual "
              "history). A tool error while the job has not finished, or when it failed or was "
              "cancelled.",
              jobOnly,
              CfdTool::definition(false)["outputSchema"],
              true,
              true)});
}

json JobTools::call(TaskManager &tasks,
                    const ServerOptions &options,
                    const std::string &name,
                    const json &arguments,
                    const std::string &tokenHash)
{
    if (!arguments.is_null() && !arguments.is_object())
        return CfdTool::errorResult("Invalid arguments: " + name + " takes an object.");
    const json args = arguments.is_object() ? arguments : json::object();
    // Replicas: a job another replica submitted is taken over, and its latest state taken in.
    if (const auto one = args.find("job_id"); one != args.end() && one->is_string())
        tasks.adopt(one->get<std::string>());
    if (const auto many = args.find("job_ids");
        many != args.end() && many->is_array() && many->size() <= std::size_t(maxBatch))
        for (const json &id : *many)
            if (id.is_string())
                tasks.adopt(id.get<std::string>());
    if (name == submitTool)
        return submit(tasks, options, arguments, tokenHash);
    if (name == statusTool)
        return status(tasks, args, tokenHash);
    if (name == answerTool)
        return answer(tasks, args, tokenHash);
    if (name == cancelTool)
        return cancel(tasks, args, tokenHash);
    return result(tasks, args, tokenHash);
}

} // namespace Eddy::Server
