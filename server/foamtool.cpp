#include "server/foamtool.h"

#include "server/cfdtool.h"
#include "server/checkmeshreport.h"
#include "server/foamcase.h"
#include "server/foamlog.h"
#include "server/toolargs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace Eddy::Server {

using nlohmann::json;

namespace {

constexpr int kMaxProcessors = 64;

json templateList()
{
    json names = json::array();
    for (const FoamCase::Template &t : FoamCase::templates())
        names.push_back(t.name);
    return names;
}

json inputSchema()
{
    return {
        {"type", "object"},
        {"properties",
         {{"template",
           {{"type", "string"},
            {"enum", templateList()},
            {"description", "One of the server's case templates: " + FoamCase::templateNames()
                                + ". Give either template or case."}}},
          {"case",
           {{"type", "string"}, {"minLength", 1}, {"maxLength", 1000},
            {"description", "An OpenFOAM case folder of your own, relative to the folder the "
                            "server was started with (--openfoam-cases). It is copied; the "
                            "original is never changed."}}},
          {"case_name", ToolArgs::nameSchema("A name for this case, used in the summary.")},
          {"set",
           {{"type", "object"},
            {"description",
             "Dictionary entries to change with foamDictionary before meshing, keyed "
             "\"FILE:ENTRY\": {\"constant/transportProperties:nu\": 0.001, "
             "\"system/blockMeshDict:blocks\": \"(hex (0 1 2 3 4 5 6 7) (40 40 1) "
             "simpleGrading (1 1 1))\"}. Numbers keep the entry's dimensions."},
            {"additionalProperties", {{"type", {"string", "number", "boolean"}}}}}},
          {"end_time",
           {{"type", "number"}, {"exclusiveMinimum", 0},
            {"description", "controlDict endTime: the simulated end time, or the iteration "
                            "limit of a steady solver."}}},
          {"write_interval",
           {{"type", "number"}, {"exclusiveMinimum", 0},
            {"description", "controlDict writeInterval: how often results are written (and "
                            "how far back a restart may have to go)."}}},
          {"processors",
           {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxProcessors}, {"default", 1},
            {"description", "Run on this many processes (decomposePar, mpirun, "
                            "reconstructPar)."}}},
          {"idempotency_key",
           ToolArgs::nameSchema("Repeating a key returns the task created first with it.")}}},
        {"additionalProperties", false}};
}

json outputSchema()
{
    const json number = {{"type", {"number", "null"}}};
    return {{"type", "object"},
            {"properties",
             {{"case_name", {{"type", "string"}}},
              {"solver", {{"type", "string"}}},
              {"steady", {{"type", "boolean"}}},
              {"outcome",
               {{"type", "string"},
                {"enum", {"converged", "end time reached", "iteration limit", "died",
                          "diverged"}}}},
              {"converged", {{"type", "boolean"}}},
              {"time_steps", {{"type", "integer"}}},
              {"start_time", number},
              {"last_time", number},
              {"execution_seconds", number},
              {"final_residuals", {{"type", "object"}, {"additionalProperties", number}}},
              {"function_objects",
               {{"type", "object"},
                {"description", "The last value each function object wrote, as "
                                "\"name/column\": value."},
                {"additionalProperties", {{"type", "number"}}}}},
              {"mesh", {{"type", "object"}, {"description", "What checkMesh found."}}},
              {"case_folder", {{"type", "string"}}}}},
            {"required", {"case_name", "solver", "outcome", "converged", "case_folder"}}};
}

json finite(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

// A time or a duration as an engineer writes it: "0.1", "12.5", "2e-05".
std::string plain(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string residualText(const FoamLog::Step &step)
{
    std::string out;
    for (const auto &[field, value] : step.residuals)
        out += (out.empty() ? "" : ", ") + field + " " + CfdTool::sci(value);
    return out;
}

} // namespace

json FoamTool::definition(bool legacy)
{
    const FoamCase::Installation &foam = FoamCase::installation();
    std::string description =
        "Runs an OpenFOAM case the way its Allrun would (copy, set entries with foamDictionary, "
        "mesh, checkMesh, solver, reconstructPar), each step logged in the task's case folder, "
        "with live residuals, Courant number and continuity errors in statusMessage. If "
        "checkMesh fails a check the task asks what to do (non-orthogonal correction, change "
        "the mesh, continue, abort). Long-running: answered with a task.";
    if (!foam.ok())
        description = "Unavailable on this server: " + foam.error + ". " + description;
    else if (foam.tutorials.empty())
        description = "Own cases only on this server: the case templates need the OpenFOAM "
                      "tutorials (Debian: apt-get install openfoam-examples). "
                      + description;
    json tool = {{"name", name},
                 {"title", "OpenFOAM case"},
                 {"description", description},
                 {"inputSchema", inputSchema()},
                 {"outputSchema", outputSchema()},
                 {"annotations",
                  {{"readOnlyHint", false}, {"destructiveHint", false},
                   {"idempotentHint", true}, {"openWorldHint", false}}}};
    if (legacy)
        tool["execution"] = {{"taskSupport", "optional"}};
    return tool;
}

bool FoamTool::isFoamTask(const json &arguments)
{
    return arguments.is_object() && arguments.value("tool", "") == name;
}

std::string FoamTool::sourceFolder(const json &a, const std::string &casesRoot)
{
    if (a.contains("template")) {
        const FoamCase::Template *t = FoamCase::findTemplate(a.value("template", ""));
        return t ? (std::filesystem::path(FoamCase::installation().tutorials) / t->tutorial).string()
                 : std::string();
    }
    std::string resolved, error;
    return FoamCase::resolveUnder(casesRoot, a.value("case", ""), resolved, error) ? resolved
                                                                                   : std::string();
}

bool FoamTool::validate(const json &arguments, const std::string &casesRoot, json &normalized,
                        std::string &error)
{
    if (!arguments.is_object()) {
        error = "Invalid arguments: run_openfoam_case takes an object with 'template' (one of "
                + FoamCase::templateNames() + ") or 'case', and optional settings.";
        return false;
    }
    if (!ToolArgs::onlyKnown(arguments,
                             {"template", "case", "case_name", "set", "end_time",
                              "write_interval", "processors", "idempotency_key"},
                             name, error))
        return false;
    const auto bad = [&](const char *arg, const std::string &what) {
        error = ToolArgs::invalid(arguments, arg, what);
        return false;
    };
    normalized = {{"tool", name}};
    const bool hasTemplate = arguments.contains("template");
    if (hasTemplate == arguments.contains("case"))
        return bad(hasTemplate ? "case" : "template",
                   "give exactly one of 'template' (" + FoamCase::templateNames()
                       + ") and 'case' (a folder under the server's --openfoam-cases)");
    if (hasTemplate) {
        const json &t = arguments["template"];
        if (!t.is_string() || !FoamCase::findTemplate(t.get<std::string>()))
            return bad("template", "no such template; this server has "
                                       + FoamCase::templateNames());
        normalized["template"] = t;
    } else {
        const json &c = arguments["case"];
        if (!c.is_string() || c.get<std::string>().empty())
            return bad("case", "must be a folder path relative to the server's cases folder");
        if (casesRoot.empty())
            return bad("case", "this server was started without --openfoam-cases, so it runs "
                               "only its templates (" + FoamCase::templateNames() + ")");
        std::string resolved, why;
        if (!FoamCase::resolveUnder(casesRoot, c.get<std::string>(), resolved, why))
            return bad("case", why);
        if (!std::filesystem::exists(std::filesystem::path(resolved) / "system" / "controlDict"))
            return bad("case", "the folder has no system/controlDict, so it is no OpenFOAM case");
        normalized["case"] = c;
    }
    normalized["case_name"] = hasTemplate ? arguments["template"] : arguments["case"];
    if (!ToolArgs::optionalName(arguments, "case_name", normalized, error)
        || !ToolArgs::optionalName(arguments, "idempotency_key", normalized, error))
        return false;
    for (const char *key : {"end_time", "write_interval"}) {
        if (!arguments.contains(key))
            continue;
        const json &v = arguments[key];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
            return bad(key, "must be a number above 0");
        normalized[key] = v;
    }
    normalized["processors"] = 1;
    if (arguments.contains("processors")) {
        const json &v = arguments["processors"];
        if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > kMaxProcessors)
            return bad("processors", "must be a whole number from 1 to "
                                         + std::to_string(kMaxProcessors));
        normalized["processors"] = v;
    }
    normalized["set"] = json::object();
    if (arguments.contains("set")) {
        const json &set = arguments["set"];
        if (!set.is_object())
            return bad("set", "must be an object of \"FILE:ENTRY\": value, e.g. "
                              "{\"constant/transportProperties:nu\": 0.001}");
        normalized["set"] = set;
    }
    // Only now the installation: the shape of the input is the caller's to fix first.
    const FoamCase::Installation &foam = FoamCase::installation();
    if (!foam.ok()) {
        error = "run_openfoam_case is unavailable: " + foam.error + ".";
        return false;
    }
    const std::string source = sourceFolder(normalized, casesRoot);
    if (hasTemplate && (foam.tutorials.empty() || !std::filesystem::is_directory(source))) {
        error = "The template '" + normalized["template"].get<std::string>()
                + "' needs the OpenFOAM tutorials, which are not installed on the server "
                  "(Debian: apt-get install openfoam-examples).";
        return false;
    }
    std::string why;
    if (!FoamCase::checkEntries(source, normalized["set"], why)) {
        error = "Invalid argument 'set': entry " + why + ".";
        return false;
    }
    return true;
}

json FoamTool::meshQuestion(const CheckMeshReport &report, const std::string &note)
{
    std::string message = report.summary()
                          + " Continue with non-orthogonal correction (more "
                            "nNonOrthogonalCorrectors, limited laplacian and snGrad schemes), "
                            "change the mesh, continue as it is, or abort?";
    if (!note.empty())
        message = note + " " + message;
    return {{"method", "elicitation/create"},
            {"params",
             {{"mode", "form"},
              {"message", message},
              {"_meta", {{"io.eddy/checkMesh", report.toJson()}}},
              {"requestedSchema",
               {{"type", "object"},
                {"properties",
                 {{"action",
                   {{"type", "string"},
                    {"title", "Action"},
                    {"description", "What to do about the mesh checkMesh rejected."},
                    {"enum", {"correct", "change_mesh", "continue", "abort"}},
                    {"oneOf",
                     {{{"const", "correct"}, {"title", "Continue with non-orthogonal correction"}},
                      {{"const", "change_mesh"}, {"title", "Change the mesh and check it again"}},
                      {{"const", "continue"}, {"title", "Continue as it is"}},
                      {{"const", "abort"}, {"title", "Abort this case"}}}}}},
                  {"non_orthogonal_correctors",
                   {{"type", "integer"},
                    {"title", "Non-orthogonal correctors"},
                    {"description", "nNonOrthogonalCorrectors for the correction."},
                    {"default", 2},
                    {"minimum", 1},
                    {"maximum", 20}}},
                  {"limiter",
                   {{"type", "number"},
                    {"title", "Limiter"},
                    {"description", "The limited laplacian and snGrad schemes' coefficient "
                                    "(0 uncorrected, 1 fully corrected)."},
                    {"default", 0.33},
                    {"minimum", 0},
                    {"maximum", 1}}},
                  {"mesh_set",
                   {{"type", "string"},
                    {"title", "Mesh change"},
                    {"description",
                     "For change_mesh: the entries to change, as JSON "
                     "{\"system/blockMeshDict:blocks\": \"(hex (0 1 2 3 4 5 6 7) (20 20 1) "
                     "simpleGrading (1 1 1))\"}."}}}}},
                {"required", {"action"}}}}}}};
}

bool FoamTool::parseAnswer(const json &response, json &answer, std::string &why)
{
    const auto text = [](const json &object, const char *key) {
        if (!object.is_object())
            return std::string();
        const auto it = object.find(key);
        return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string action = text(response, "action");
    const json content = response.is_object() && response.contains("content")
                             ? response["content"]
                             : json::object();
    const std::string choice = text(content, "action");
    if (action == "decline") {
        why = "the engineer declined to answer the mesh question";
        return false;
    }
    if (action == "cancel") {
        why = "the engineer dismissed the mesh question";
        return false;
    }
    if (action == "accept" && choice == "abort") {
        why = "the engineer chose to abort it";
        return false;
    }
    if (action != "accept" || (choice != "correct" && choice != "change_mesh" && choice != "continue")) {
        why = "the answer to the mesh question was not understood (expected action accept "
              "with content.action correct, change_mesh, continue or abort)";
        return false;
    }
    answer = {{"action", choice}};
    if (choice == "correct") {
        const json n = content.value("non_orthogonal_correctors", json(2));
        const json l = content.value("limiter", json(0.33));
        answer["non_orthogonal_correctors"] = n.is_number() ? std::clamp(int(n.get<double>()), 1, 20) : 2;
        answer["limiter"] = l.is_number() ? std::clamp(l.get<double>(), 0.0, 1.0) : 0.33;
    } else if (choice == "change_mesh") {
        // Kept as given; the runner checks it with foamDictionary and asks again if it fails.
        answer["mesh_set"] = content.value("mesh_set", json(""));
    }
    return true;
}

std::string FoamTool::finalMessage(const FoamLog &log, const Outcome &o)
{
    const std::string progress = log.progress(o.steady, o.endTime, 0);
    if (!o.failedStep.empty())
        return o.failedStep + " failed (" + o.exitText + ")" + (log.steps() ? ": " + progress : "");
    const double largest = log.latest().largestResidual();
    if (!std::isnan(largest) && !std::isfinite(largest))
        return "diverged: " + progress;
    if (o.steady && log.converged())
        return "converged in " + std::to_string(log.convergedIterations())
               + " iterations: " + progress;
    if (o.steady)
        return "stopped at the iteration limit, not converged: " + progress;
    return "reached the end time: " + progress;
}

json FoamTool::result(const json &arguments, const FoamLog &log, const Outcome &o)
{
    const FoamLog::Step &last = log.latest();
    const double largest = last.largestResidual();
    const bool diverged = !std::isnan(largest) && !std::isfinite(largest);
    const bool died = !o.failedStep.empty();
    std::string outcome = died ? "died"
                          : diverged ? "diverged"
                          : o.steady ? (log.converged() ? "converged" : "iteration limit")
                                     : "end time reached";
    const bool converged = outcome == "converged" || outcome == "end time reached";
    json residuals = json::object();
    for (const auto &[field, value] : last.residuals)
        residuals[field] = finite(value);
    const std::string caseName = arguments.value("case_name", "case");
    json structured = {{"case_name", caseName},
                       {"solver", o.solver},
                       {"steady", o.steady},
                       {"outcome", outcome},
                       {"converged", converged},
                       {"time_steps", log.steps()},
                       {"start_time", finite(log.firstTime())},
                       {"last_time", finite(last.time)},
                       {"execution_seconds", finite(last.executionSeconds)},
                       {"final_residuals", residuals},
                       {"function_objects", o.scalars.is_object() ? o.scalars : json::object()},
                       {"mesh", o.mesh.is_object() ? o.mesh : json::object()},
                       {"case_folder", o.caseDir}};
    if (o.steady && !log.history().empty()) {
        // Eddy's charts read this (docs/sweeps.md): one series per field, by iteration.
        json history = {{"iteration", json::array()}};
        for (const FoamLog::Step &s : log.history()) {
            history["iteration"].push_back(s.time);
            for (const auto &[field, value] : s.residuals)
                if (!history.contains(field))
                    history[field] = json::array();
        }
        for (auto &[field, values] : history.items()) {
            if (field == "iteration")
                continue;
            for (const FoamLog::Step &s : log.history()) {
                json v = nullptr;
                for (const auto &[f, value] : s.residuals)
                    if (f == field)
                        v = finite(value);
                values.push_back(v);
            }
        }
        structured["residual_history"] = history;
    }
    std::string text = "OpenFOAM case '" + caseName + "' (" + o.solver + ") ";
    if (died) {
        text += "failed in the " + o.failedStep + " step (" + o.exitText + ")";
        if (!std::isnan(last.time))
            text += " at time " + plain(last.time);
        if (!log.fatal().empty())
            text += ": " + log.fatal();
        text += ". Last lines of log." + o.failedStep + ":\n" + o.logTail + "\n";
    } else if (diverged) {
        text += "diverged: its residuals are no longer finite at time "
                + plain(last.time) + " (" + residualText(last) + ")";
    } else if (outcome == "converged") {
        text += "converged (residual controls met) in " + std::to_string(log.convergedIterations())
                + " iterations";
    } else if (outcome == "iteration limit") {
        text += "stopped at its iteration limit without meeting the residual controls";
    } else {
        text += "reached its end time " + plain(last.time) + " after "
                + std::to_string(log.steps()) + " time steps";
    }
    if (!died && std::isfinite(last.executionSeconds))
        text += " in " + plain(last.executionSeconds) + " s of execution time";
    if (!died && !last.residuals.empty())
        text += "; final initial residuals " + residualText(last);
    if (o.scalars.is_object() && !o.scalars.empty()) {
        std::string values;
        for (const auto &[key, value] : o.scalars.items())
            values += (values.empty() ? "" : ", ") + key + " = " + plain(value.get<double>());
        text += "; function objects: " + values;
    }
    text += (died ? "Case folder: " : ". Case folder: ") + o.caseDir + ".";
    return {{"content", {{{"type", "text"}, {"text", text}}}},
            {"structuredContent", structured},
            {"isError", died || diverged}};
}

} // namespace Eddy::Server
