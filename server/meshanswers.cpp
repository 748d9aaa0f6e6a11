#include "server/meshanswers.h"

#include "server/cfdtool.h"
#include "server/foamcases.h"
#include "server/foamtool.h"
#include "server/log.h"

#include <cstdio>

namespace Eddy::Server {

using nlohmann::json;

MeshAnswers::MeshAnswers(const FoamCases &foamCases)
    : m_foamCases(foamCases)
{}

void MeshAnswers::ask(TaskRecord &r, json question, const std::string &message, std::int64_t now)
{
    const std::string key = "mesh_repair_" + std::to_string(++r.keyCounter);
    r.inputRequests = json::object();
    r.inputRequests[key] = std::move(question);
    r.status = TaskStatus::InputRequired;
    r.statusMessage = message;
    r.updatedMs = now;
}

MeshAnswers::Verdict
MeshAnswers::apply(TaskRecord &r, const json &inputResponses, std::int64_t now) const
{
    const std::string &id = r.id;
    if (r.status != TaskStatus::InputRequired || !inputResponses.is_object()
        || !r.inputRequests.is_object())
        return Verdict::Unchanged;
    for (const auto &[key, response] : inputResponses.items()) {
        if (!r.inputRequests.contains(key))
            continue; // unknown, answered or superseded: ignored as the spec asks
        // Client data: read fields only when they have the expected type.
        const auto text = [](const json &object, const char *key) {
            if (!object.is_object())
                return std::string();
            const auto it = object.find(key);
            return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        r.inputRequests = nullptr;
        r.updatedMs = now;
        std::string why;
        if (FoamTool::isFoamTask(r.arguments)) {
            json answer;
            if (FoamTool::parseAnswer(response, answer, why)) {
                // Kept with the arguments (stored, replicated); the runner applies each once.
                if (!r.arguments.contains("mesh_answers"))
                    r.arguments["mesh_answers"] = json::array();
                r.arguments["mesh_answers"].push_back(answer);
                r.repairs.push_back(0); // the attempt count
                r.status = TaskStatus::Working;
                Log::info("task " + Log::redact(id) + ": mesh answer " + answer.dump());
                return Verdict::Queue;
            }
            // The folder, so the engineer can read log.checkMesh and fix the mesh there.
            endAtMeshCheck(r,
                           "checkMesh failed the mesh and " + why
                               + ". Change the mesh and run the case again, or answer with "
                                 "correct or continue. checkMesh's findings are in "
                               + m_foamCases.engineerDir(id) + "/log.checkMesh.");
            return Verdict::Ended;
        }
        const std::string action = text(response, "action");
        const json content = response.is_object() && response.contains("content")
                                 ? response["content"]
                                 : json::object();
        const std::string choice = text(content, "action");
        if (action == "accept" && choice == "repair") {
            int passes = 5;
            if (content.contains("smoothing_passes") && content["smoothing_passes"].is_number()) {
                const double d = content["smoothing_passes"].get<double>();
                passes = d < 1 ? 1 : d > 50 ? 50 : int(d);
            }
            r.repairs.push_back(passes);
            r.status = TaskStatus::Working;
            Log::info("task " + Log::redact(id) + ": mesh repair with " + std::to_string(passes)
                      + " smoothing passes");
            return Verdict::Queue;
        }
        if (action == "accept" && choice == "abort")
            why = "the engineer chose to abort it";
        else if (action == "decline")
            why = "the engineer declined to answer the mesh question";
        else if (action == "cancel")
            why = "the engineer dismissed the mesh question";
        else
            why = "the answer to the mesh question was not understood (expected "
                  "action accept with content.action repair or abort)";
        // What would let it pass: advice that fits this case's arguments (a uniform mesh cannot
        // be made more uniform).
        const json grading = r.arguments.value("grading", json(1.0));
        const double g = grading.is_number() ? grading.get<double>() : 1.0;
        std::string advice = "Rerun it and choose repair.";
        if (r.arguments.value("force_mesh_defect", json(false)) == json(true)) {
            advice = "The defect was forced by 'force_mesh_defect': rerun without it, or "
                     "rerun and choose repair.";
        } else if (g > 1) {
            char shown[32];
            std::snprintf(shown, sizeof shown, "%g", g);
            advice = std::string("Lower 'grading' (now ") + shown + ") or rerun and choose repair.";
        }
        endAtMeshCheck(r, "its mesh failed the quality check and " + why + ". " + advice);
        return Verdict::Ended;
    }
    return Verdict::Unchanged;
}

void MeshAnswers::endAtMeshCheck(TaskRecord &r, const std::string &why)
{
    const std::string text
        = "Case '" + r.arguments.value("case_name", "cavity") + "' was not run: " + why;
    r.result = CfdTool::errorResult(text);
    if (r.legacy) {
        // 2025-11-25: a tool error makes the task failed.
        r.status = TaskStatus::Failed;
        r.error = {{"code", -32603}, {"message", text}};
    } else {
        r.status = TaskStatus::Completed;
    }
    r.statusMessage = "aborted at the mesh check";
    Log::info("task " + Log::redact(r.id) + ": aborted at the mesh check");
}

} // namespace Eddy::Server
