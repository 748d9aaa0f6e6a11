#include "server/cfdtool.h"

#include "server/fieldpng.h"
#include "server/solver/ghiareference.h"
#include "server/toolargs.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace Eddy::Server {

using nlohmann::json;

namespace {

json inputSchema()
{
    return {
        {"type", "object"},
        {"properties",
         {{"case_name", ToolArgs::nameSchema("A name for this case, used in the summary.")},
          {"reynolds",
           {{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 1e6},
            {"description", "Reynolds number U L / nu."}}},
          {"grid",
           {{"type", "integer"}, {"minimum", 8}, {"maximum", 1024},
            {"description", "Cells per side of the square cavity."}}},
          {"max_iterations",
           {{"type", "integer"}, {"minimum", 1}, {"maximum", 10000000}, {"default", 20000},
            {"description", "Iteration limit; an unconverged run still completes."}}},
          {"tolerance",
           {{"type", "number"}, {"exclusiveMinimum", 0}, {"default", 1e-6},
            {"description", "Converged when the largest field residual drops below this."}}},
          {"lid_velocity",
           {{"type", "number"}, {"default", 1},
            {"description", "Velocity of the moving lid (non-zero)."}}},
          {"grading",
           {{"type", "number"}, {"minimum", 1}, {"maximum", 1000}, {"default", 1},
            {"description", "Geometric wall clustering: ratio of the largest to the smallest "
                            "cell. Too much makes cells the mesh check rejects."}}},
          {"force_mesh_defect",
           {{"type", "boolean"}, {"default", false},
            {"description", "Report a mesh defect even on a good mesh (demos and tests)."}}},
          {"idempotency_key",
           ToolArgs::nameSchema("Repeating a key returns the task created first with it.")}}},
        {"required", {"reynolds", "grid"}},
        {"additionalProperties", false}};
}

json outputSchema()
{
    const json numbers = {{"type", "array"}, {"items", {{"type", "number"}}}};
    // A residual may be null where the run blew up (JSON has no infinity).
    const json limitedNumbers = {{"type", "array"},
                                 {"items", {{"type", {"number", "null"}}}},
                                 {"maxItems", 2000}};
    return {{"type", "object"},
            {"properties",
             {{"case_name", {{"type", "string"}}},
              {"reynolds", {{"type", "number"}}},
              {"grid", {{"type", "integer"}}},
              {"u_centreline",
               {{"type", "object"},
                {"description", "u/U_lid along the vertical centreline x = 0.5."},
                {"properties", {{"y", numbers}, {"u", numbers}}},
                {"required", {"y", "u"}}}},
              {"v_centreline",
               {{"type", "object"},
                {"description", "v/U_lid along the horizontal centreline y = 0.5."},
                {"properties", {{"x", numbers}, {"v", numbers}}},
                {"required", {"x", "v"}}}},
              {"vortex_centre",
               {{"type", "object"},
                {"properties",
                 {{"x", {{"type", "number"}}},
                  {"y", {{"type", "number"}}},
                  {"psi", {{"type", "number"}}}}},
                {"required", {"x", "y", "psi"}}}},
              {"iterations", {{"type", "integer"}}},
              {"final_residual", {{"type", "number"}}},
              {"converged", {{"type", "boolean"}}},
              {"wall_seconds", {{"type", "number"}}},
              {"reference",
               {{"type", "object"},
                {"description",
                 "Published values to compare with, present when the case matches a tabulated "
                 "Reynolds number (100, 400, 1000): Ghia, Ghia & Shin (1982). Each member has "
                 "the name and shape of the result's curve it belongs to."},
                {"properties",
                 {{"source", {{"type", "string"}}},
                  {"u_centreline",
                   {{"type", "object"},
                    {"properties", {{"y", numbers}, {"u", numbers}}},
                    {"required", {"y", "u"}}}},
                  {"v_centreline",
                   {{"type", "object"},
                    {"properties", {{"x", numbers}, {"v", numbers}}},
                    {"required", {"x", "v"}}}}}},
                {"required", {"source"}}}},
              {"residual_history",
               {{"type", "object"},
                {"description",
                 "The residuals over the whole run, down-sampled to at most 2000 points per "
                 "field: 'iteration' holds the iteration of each point, every other array a "
                 "field's residual named as in the status message (u, v, and \u03c9 for the "
                 "vorticity). A client can chart a run it never watched from this."},
                {"properties",
                 {{"iteration",
                   {{"type", "array"}, {"items", {{"type", "integer"}}}, {"maxItems", 2000}}},
                  {"u", limitedNumbers},
                  {"v", limitedNumbers},
                  {"\u03c9", limitedNumbers}}},
                {"required", {"iteration"}},
                {"additionalProperties", limitedNumbers}}}}},
            {"required",
             {"u_centreline", "v_centreline", "vortex_centre", "iterations", "final_residual",
              "converged", "wall_seconds"}}};
}

bool isInteger(const json &v, std::int64_t &out)
{
    if (v.is_number_integer()) {
        out = v.get<std::int64_t>();
        return true;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9e15) {
            out = std::int64_t(d);
            return true;
        }
    }
    return false;
}

bool isFiniteNumber(const json &v, double &out)
{
    if (!v.is_number())
        return false;
    out = v.get<double>();
    return std::isfinite(out);
}

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// A run's solver time to two significant digits ("0.047", "1.9", "12"), whole seconds from 100
// on: "%.1f" said "0.0 s" of every quick run, as if it had cost nothing.
std::string seconds(double s)
{
    if (!(s > 0) || !std::isfinite(s))
        return "0";
    if (s >= 100)
        return fixed(s, 0);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2g", s);
    return buf;
}

// Three significant digits: a chart needs no more, and the result stays small.
json chartValue(double v)
{
    if (!std::isfinite(v))
        return nullptr;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return std::strtod(buf, nullptr);
}

json history(const std::vector<Solver::HistoryPoint> &points)
{
    json iteration = json::array(), u = json::array(), v = json::array(), omega = json::array();
    for (const Solver::HistoryPoint &h : points) {
        iteration.push_back(h.iteration);
        u.push_back(chartValue(h.u));
        v.push_back(chartValue(h.v));
        omega.push_back(chartValue(h.omega));
    }
    return {{"iteration", iteration}, {"u", u}, {"v", v}, {CfdTool::OmegaName, omega}};
}

// The flow picture of a result: |u|/U_lid at one fixed colour scale, 0 to 1, for every case,
// with a cross at the primary vortex.
FieldImage pictureOf(const Solver::CaseResult &r)
{
    FieldImage field;
    field.size = r.fieldSize;
    field.values = r.speed;
    field.min = 0.0;
    field.max = 1.0;
    field.markX = r.vortexX;
    field.markY = r.vortexY;
    return field;
}

} // namespace

json CfdTool::definition(bool legacy)
{
    json tool = {
        {"name", name},
        {"title", "Lid-driven cavity CFD case"},
        {"description",
         "Runs a 2D incompressible Navier-Stokes simulation of the lid-driven cavity and "
         "returns the centreline velocity profiles at the Ghia, Ghia & Shin (1982) sample "
         "points, the primary vortex centre and convergence data. Long-running: answered "
         "with a task. If the mesh fails its quality check the task asks whether to repair "
         "it or abort."},
        {"inputSchema", inputSchema()},
        {"outputSchema", outputSchema()},
        {"annotations",
         {{"readOnlyHint", true}, {"destructiveHint", false}, {"idempotentHint", true},
          {"openWorldHint", false}}}};
    if (legacy)
        tool["execution"] = {{"taskSupport", "optional"}};
    return tool;
}

bool CfdTool::validate(const json &arguments, json &normalized, std::string &error)
{
    if (arguments.is_null()) {
        error = "Missing arguments: run_cfd_case needs at least 'reynolds' and 'grid'.";
        return false;
    }
    if (!arguments.is_object()) {
        error = "Invalid arguments: expected an object with 'reynolds', 'grid' and optional "
                "settings.";
        return false;
    }
    if (!ToolArgs::onlyKnown(arguments,
                             {"case_name", "reynolds", "grid", "max_iterations", "tolerance",
                              "lid_velocity", "grading", "force_mesh_defect", "idempotency_key"},
                             name, error))
        return false;
    const auto bad = [&](const char *arg, const std::string &what) {
        error = ToolArgs::invalid(arguments, arg, what);
        return false;
    };
    normalized = {{"case_name", "cavity"}};
    if (!ToolArgs::optionalName(arguments, "case_name", normalized, error))
        return false;

    double d = 0;
    std::int64_t n = 0;
    if (!arguments.contains("reynolds"))
        return bad("reynolds", "is required: give the Reynolds number, a number above 0");
    if (!isFiniteNumber(arguments["reynolds"], d) || d <= 0 || d > 1e6)
        return bad("reynolds", "must be a number above 0 and at most 1e6");
    normalized["reynolds"] = d;

    if (!arguments.contains("grid"))
        return bad("grid", "is required: give the cells per side, an integer from 8 to 1024");
    if (!isInteger(arguments["grid"], n) || n < 8 || n > 1024)
        return bad("grid", "must be an integer from 8 to 1024 (cells per side)");
    normalized["grid"] = n;

    normalized["max_iterations"] = 20000;
    if (arguments.contains("max_iterations")) {
        if (!isInteger(arguments["max_iterations"], n) || n < 1 || n > 10000000)
            return bad("max_iterations", "must be an integer from 1 to 10000000");
        normalized["max_iterations"] = n;
    }
    normalized["tolerance"] = 1e-6;
    if (arguments.contains("tolerance")) {
        if (!isFiniteNumber(arguments["tolerance"], d) || d <= 0)
            return bad("tolerance", "must be a number above 0, e.g. 1e-6");
        normalized["tolerance"] = d;
    }
    normalized["lid_velocity"] = 1.0;
    if (arguments.contains("lid_velocity")) {
        if (!isFiniteNumber(arguments["lid_velocity"], d) || d == 0 || std::fabs(d) > 1e6)
            return bad("lid_velocity", "must be a non-zero number, e.g. 1");
        normalized["lid_velocity"] = d;
    }
    normalized["grading"] = 1.0;
    if (arguments.contains("grading")) {
        if (!isFiniteNumber(arguments["grading"], d) || d < 1 || d > 1000)
            return bad("grading", "must be a number from 1 (uniform) to 1000");
        normalized["grading"] = d;
    }
    normalized["force_mesh_defect"] = false;
    if (arguments.contains("force_mesh_defect")) {
        if (!arguments["force_mesh_defect"].is_boolean())
            return bad("force_mesh_defect", "must be true or false");
        normalized["force_mesh_defect"] = arguments["force_mesh_defect"];
    }
    return ToolArgs::optionalName(arguments, "idempotency_key", normalized, error);
}

Solver::CaseParams CfdTool::caseParams(const json &a)
{
    Solver::CaseParams p;
    p.reynolds = a.value("reynolds", 100.0);
    p.grid = a.value("grid", 64);
    p.maxIterations = a.value("max_iterations", 20000);
    p.tolerance = a.value("tolerance", 1e-6);
    p.lidVelocity = a.value("lid_velocity", 1.0);
    p.grading = a.value("grading", 1.0);
    return p;
}

std::string CfdTool::sci(double value, int decimals)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", decimals, value);
    // printf pads the exponent ("3.1e-04"); engineers and the contract write "3.1e-4".
    std::string s(buf);
    const auto e = s.find('e');
    if (e == std::string::npos)
        return s;
    std::string mantissa = s.substr(0, e);
    std::string exponent = s.substr(e + 1);
    std::string sign;
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
        if (exponent[0] == '-')
            sign = "-";
        exponent.erase(0, 1);
    }
    while (exponent.size() > 1 && exponent[0] == '0')
        exponent.erase(0, 1);
    return mantissa + "e" + sign + exponent;
}

std::string CfdTool::progressMessage(const Solver::Progress &p)
{
    return "iteration " + std::to_string(p.iteration) + " of " + std::to_string(p.maxIterations)
           + ", residual " + sci(p.residual) + fieldResiduals(p.residualU, p.residualV, p.residualOmega);
}

std::string CfdTool::fieldResiduals(double u, double v, double omega)
{
    // The vorticity is what this stream function-vorticity solver marches: "ω", never "p"
    // (a CFD reader takes "p" for pressure).
    return " (u " + sci(u) + ", v " + sci(v) + ", " + OmegaName + " " + sci(omega) + ")";
}

std::string CfdTool::finalMessage(const Solver::CaseResult &r, int maxIterations)
{
    const std::string at = "iteration " + std::to_string(r.iterations) + " of "
                           + std::to_string(maxIterations) + ", residual " + sci(r.finalResidual)
                           + fieldResiduals(r.residualU, r.residualV, r.residualOmega);
    if (r.converged)
        return "converged at " + at;
    if (r.iterations < maxIterations) // the run blew up and stopped early
        return "diverged, not converged: " + at;
    return "stopped at the iteration limit, not converged: " + at;
}

json CfdTool::meshQuestion(const Solver::MeshQuality &q, bool retry)
{
    std::string message = q.description;
    if (message.empty()) {
        message = std::to_string(q.badCells) + " cells (" + q.location + ") fail the " + q.metric
                  + " check: worst " + fixed(q.worstValue, 2) + " against a limit of "
                  + fixed(q.limit, 2) + ".";
    }
    if (retry)
        message = "The mesh still fails its quality check after smoothing. " + message;
    if (message.find("epair") == std::string::npos)
        message += " Repair the mesh by smoothing its grading and continue, or abort this case?";
    return {{"method", "elicitation/create"},
            {"params",
             {{"mode", "form"},
              {"message", message},
              {"requestedSchema",
               {{"type", "object"},
                {"properties",
                 {{"action",
                   {{"type", "string"},
                    {"title", "Action"},
                    {"description", "What to do about the defective cells."},
                    {"enum", {"repair", "abort"}},
                    {"oneOf",
                     {{{"const", "repair"}, {"title", "Repair the mesh and continue"}},
                      {{"const", "abort"}, {"title", "Abort this case"}}}}}},
                  {"smoothing_passes",
                   {{"type", "integer"},
                    {"title", "Smoothing passes"},
                    {"description", "How many smoothing passes the repair applies."},
                    {"default", 5},
                    {"minimum", 1},
                    {"maximum", 50}}}}},
                {"required", {"action"}}}}}}};
}

json CfdTool::result(const json &arguments, const Solver::CaseResult &r)
{
    json structured = {
        {"case_name", arguments.value("case_name", "cavity")},
        {"reynolds", arguments.value("reynolds", 0.0)},
        {"grid", arguments.value("grid", 0)},
        {"u_centreline", {{"y", r.yCentreline}, {"u", r.uCentreline}}},
        {"v_centreline", {{"x", r.xCentreline}, {"v", r.vCentreline}}},
        {"vortex_centre", {{"x", r.vortexX}, {"y", r.vortexY}, {"psi", r.vortexPsi}}},
        {"iterations", r.iterations},
        {"final_residual", std::isfinite(r.finalResidual) ? json(r.finalResidual) : json(nullptr)},
        {"converged", r.converged},
        {"wall_seconds", r.wallSeconds},
        {"residual_history", history(r.history)}};
    if (!std::isfinite(r.finalResidual))
        structured["final_residual"] = std::numeric_limits<double>::max();
    // Ghia et al.'s table for a tabulated Reynolds number: clients overlay it on the centrelines.
    const double reynolds = arguments.value("reynolds", 0.0);
    Solver::GhiaTable ghia;
    if (reynolds > 0 && reynolds < 1e6 && reynolds == std::round(reynolds) && Solver::ghiaReference(int(reynolds), ghia))
        structured["reference"] = {{"source", "Ghia, Ghia & Shin (1982)"},
                                   {"u_centreline", {{"y", ghia.y}, {"u", ghia.u}}},
                                   {"v_centreline", {{"x", ghia.x}, {"v", ghia.v}}}};

    const std::string caseName = arguments.value("case_name", "cavity");
    const int grid = arguments.value("grid", 0);
    std::string text = "Lid-driven cavity case '" + caseName + "' at Re = "
                       + ToolArgs::shortJson(arguments.value("reynolds", json(0))) + " on a "
                       + std::to_string(grid) + "x" + std::to_string(grid) + " grid (grading "
                       + fixed(arguments.value("grading", 1.0), 2) + ") ";
    // The residual to three digits: to two, one that met the tolerance just (9.97e-7 for 1e-6)
    // read as the tolerance itself ("1.0e-6 (tolerance 1.0e-6)").
    const std::string residual = sci(r.finalResidual, 2);
    const std::string tolerance = sci(arguments.value("tolerance", 1e-6));
    const std::string solverTime = seconds(r.wallSeconds) + " s of solver time";
    const int maxIterations = arguments.value("max_iterations", 20000);
    if (r.converged)
        text += "converged after " + std::to_string(r.iterations) + " iterations to a residual of "
                + residual + " (tolerance " + tolerance + ") in " + solverTime;
    else if (r.iterations < maxIterations) // blew up before its limit (finalMessage() says so too)
        text += "diverged after " + std::to_string(r.iterations) + " iterations (" + solverTime
                + ") with a residual of " + residual + ", so its profiles are no solution";
    else
        text += "did not converge: it stopped at the limit of " + std::to_string(r.iterations)
                + " iterations (" + solverTime + ") with a residual of " + residual
                + " against a tolerance of " + tolerance
                + ", so treat the profiles as provisional and rerun with more iterations";
    text += ". The primary vortex sits at (x, y) = (" + fixed(r.vortexX, 3) + ", " + fixed(r.vortexY, 3)
            + ") with a stream function of " + sci(r.vortexPsi);
    if (!r.uCentreline.empty()) {
        std::size_t k = 0;
        for (std::size_t i = 1; i < r.uCentreline.size(); ++i)
            if (r.uCentreline[i] < r.uCentreline[k])
                k = i;
        const double y = k < r.yCentreline.size() ? r.yCentreline[k] : 0.0;
        text += ", and the centreline u velocity reaches its minimum of " + fixed(r.uCentreline[k], 3)
                + " U_lid near y = " + fixed(y, 3);
    }
    text += ".";
    json content = json::array({{{"type", "text"}, {"text", text}}});
    const std::vector<std::uint8_t> png = r.fieldSize > 0 ? fieldPng(pictureOf(r)) : std::vector<std::uint8_t>{};
    if (!png.empty()) {
        // A picture of the flow at a fixed colour scale (|u|/U_lid from 0 to 1): the same for
        // every case, so that pictures of two cases compare colour for colour. The scale is stated
        // in the block's _meta for clients; the cross marks the primary vortex.
        content.push_back({{"type", "image"},
                           {"mimeType", "image/png"},
                           {"data", base64(png)},
                           {"_meta",
                            {{"eddy/colourScale", {{"quantity", "|u|/U_lid"}, {"min", 0.0}, {"max", 1.0}}},
                             {"eddy/caption",
                              "Velocity magnitude |u|/U_lid (dark blue 0, yellow 1; bar on the right, lid "
                              "at the top); the cross marks the primary vortex."}}}});
    }
    return {{"content", content}, {"structuredContent", structured}, {"isError", false}};
}

json CfdTool::errorResult(const std::string &message)
{
    return {{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
}

} // namespace Eddy::Server
