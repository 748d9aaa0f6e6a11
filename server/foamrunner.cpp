#include "server/foamrunner.h"

#include "server/casefolder.h"
#include "server/foamcase.h"
#include "server/foamprocess.h"
#include "server/foamtool.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <unistd.h>

namespace Eddy::Server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto kTick = std::chrono::milliseconds(100);
// SIGTERM first (a solver may finish its write), SIGKILL after this.
constexpr auto kStopGrace = std::chrono::milliseconds(5000);
constexpr int kTailLines = 20;

void appendText(const fs::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::app);
    out << text;
}

double numberOr(const std::string &text, double fallback)
{
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end != text.c_str() && std::isfinite(v) ? v : fallback;
}

} // namespace

FoamRunner::FoamRunner(json arguments, std::string caseDir, std::string casesRoot, Hooks hooks)
    : m_arguments(std::move(arguments))
    , m_caseDir(std::move(caseDir))
    , m_casesRoot(std::move(casesRoot))
    , m_hooks(std::move(hooks))
{}

std::string FoamRunner::marker() const
{
    return "EDDY_FOAM_RUN=" + fs::path(m_caseDir).filename().string();
}

void FoamRunner::report(const std::string &message)
{
    if (message == m_lastReport)
        return;
    m_lastReport = message;
    if (m_hooks.report)
        m_hooks.report(message);
}

bool FoamRunner::saveState()
{
    std::string error;
    return CaseFolder::writeAtomically((fs::path(m_caseDir) / kStateFile).string(),
                                       m_state.dump(2), error);
}

FoamRunner::Step FoamRunner::runStep(const std::vector<std::string> &argv,
                                     const std::string &logName, bool solver)
{
    const std::string logPath = (fs::path(m_caseDir) / ("log." + logName)).string();
    FoamProcess process;
    std::string error;
    std::vector<std::string> env = FoamCase::environment(FoamCase::installation());
    env.push_back(marker());
    if (!process.start(argv, m_caseDir, env, logPath, false, error)) {
        m_exitText = error;
        return Step::Failed;
    }
    const int fd = solver ? ::open(logPath.c_str(), O_RDONLY | O_CLOEXEC) : -1;
    const auto drain = [&] {
        char buf[65536];
        for (ssize_t n; fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0;)
            m_log.feed(std::string_view(buf, std::size_t(n)));
    };
    bool stopped = false;
    while (!process.finished()) {
        if (m_hooks.stopRequested && m_hooks.stopRequested()) {
            process.stop(kStopGrace);
            FoamProcess::killMarked(marker()); // ranks mpirun did not take with it
            stopped = true;
            break;
        }
        std::this_thread::sleep_for(kTick);
        if (solver) {
            drain();
            report(m_solver + ": " + m_log.progress(m_steady, m_endTime, m_deltaT));
        }
    }
    drain();
    if (fd >= 0)
        ::close(fd);
    if (stopped)
        return Step::Stopped;
    m_exitText = process.describeExit();
    return process.succeeded() ? Step::Ok : Step::Failed;
}

FoamRunner::Outcome FoamRunner::fail(const std::string &step, const std::string &why)
{
    // Slurm signals every process of a job at once (scancel, a requeue, the time limit): a step
    // that died of it may be seen failing a moment before this process's own stop arrives. A
    // failure within a second of a stop is the stop, and the case resumes from its latest time.
    for (int i = 0; i < 20; ++i) {
        if (m_hooks.stopRequested && m_hooks.stopRequested())
            return Outcome::Stopped;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FoamTool::Outcome o;
    o.solver = m_solver.empty() ? step : m_solver;
    o.steady = m_steady;
    o.endTime = m_endTime;
    o.caseDir = m_caseDir;
    o.failedStep = step;
    o.exitText = why;
    o.logTail = FoamCase::tail((fs::path(m_caseDir) / ("log." + step)).string(), kTailLines);
    o.mesh = m_state.value("mesh", json::object());
    m_result = FoamTool::result(m_arguments, m_log, o);
    m_message = FoamTool::finalMessage(m_log, o);
    return Outcome::Finished;
}

bool FoamRunner::prepare(std::string &failedStep, std::string &why)
{
    std::error_code ec;
    // A copy cut short (server killed while copying) is started again from nothing.
    fs::remove_all(m_caseDir, ec);
    fs::create_directories(m_caseDir, ec);
    if (ec) {
        failedStep = "copy";
        why = "cannot create the case folder: " + ec.message();
        return false;
    }
    report("copy: copying the case");
    std::string log;
    const std::string source = FoamTool::sourceFolder(m_arguments, m_casesRoot);
    failedStep = "copy";
    if (source.empty()) {
        why = "the case folder is gone or now outside the cases folder";
        return false;
    }
    const bool copied = FoamCase::copyCase(source, m_caseDir, log, why);
    appendText(fs::path(m_caseDir) / "log.copy", "from " + source + "\n" + log);
    if (!copied)
        return false;

    report("set: changing dictionary entries");
    failedStep = "set";
    log.clear();
    std::vector<std::pair<std::string, json>> entries;
    if (const FoamCase::Template *t = FoamCase::findTemplate(m_arguments.value("template", "")))
        for (const auto &[key, value] : t->adjustments)
            entries.emplace_back(key, value);
    const json set = m_arguments.value("set", json::object());
    for (const auto &[key, value] : set.items())
        entries.emplace_back(key, value);
    for (const char *key : {"end_time", "write_interval"})
        if (m_arguments.contains(key))
            entries.emplace_back(std::string("system/controlDict:")
                                     + (key == std::string("end_time") ? "endTime" : "writeInterval"),
                                 m_arguments[key]);
    bool ok = true;
    for (const auto &[key, value] : entries) {
        std::string file, entry, current, text;
        if (!FoamCase::splitKey(key, file, entry, why))
            return false;
        FoamCase::readEntry(m_caseDir, file, entry, current, why); // a new entry has none
        if (!FoamCase::valueText(value, current, text)
            || !FoamCase::setEntry(m_caseDir, file, entry, text, log, why)) {
            why = "'" + key + "': " + why;
            ok = false;
            break;
        }
    }
    const int processors = m_arguments.value("processors", 1);
    if (ok && processors > 1) {
        const std::string n = std::to_string(processors);
        // Debian's scotch is a stub: the simple method splits along x.
        const std::string dict = "FoamFile { version 2.0; format ascii; class dictionary; "
                                 "object decomposeParDict; }\nnumberOfSubdomains " + n
                                 + ";\nmethod simple;\ncoeffs { n (" + n + " 1 1); }\n";
        ok = CaseFolder::writeAtomically((fs::path(m_caseDir) / "system" / "decomposeParDict").string(),
                                         dict, why);
        log += "wrote system/decomposeParDict: " + n + " subdomains, method simple\n";
    }
    appendText(fs::path(m_caseDir) / "log.set", log);
    return ok;
}

bool FoamRunner::applyCorrection(const json &answer, std::string &log, std::string &why)
{
    const std::string correctors = std::to_string(answer.value("non_orthogonal_correctors", 2));
    char limiter[32];
    std::snprintf(limiter, sizeof limiter, "%g", answer.value("limiter", 0.33));
    std::string algorithm, ignored;
    for (const char *dict : {"PISO", "PIMPLE", "SIMPLE"})
        if (algorithm.empty() && FoamCase::readEntry(m_caseDir, "system/fvSolution", dict, ignored, why))
            algorithm = dict;
    if (algorithm.empty()) {
        why = "system/fvSolution has no PISO, PIMPLE or SIMPLE dictionary";
        return false;
    }
    return FoamCase::setEntry(m_caseDir, "system/fvSolution", algorithm + "/nNonOrthogonalCorrectors",
                              correctors, log, why)
           && FoamCase::setEntry(m_caseDir, "system/fvSchemes", "laplacianSchemes/default",
                                 std::string("Gauss linear limited corrected ") + limiter, log, why)
           && FoamCase::setEntry(m_caseDir, "system/fvSchemes", "snGradSchemes/default",
                                 std::string("limited corrected ") + limiter, log, why);
}

bool FoamRunner::applyAnswers(const json &answers)
{
    const std::size_t applied = m_state.value("answers_applied", std::size_t(0));
    for (std::size_t i = applied; answers.is_array() && i < answers.size(); ++i) {
        const json &answer = answers[i];
        const std::string action = answer.value("action", "");
        std::string log = "answer " + std::to_string(i + 1) + ": " + action + "\n", why;
        m_note.clear();
        if (action == "correct") {
            if (!applyCorrection(answer, log, why))
                m_note = "The correction was not applied: " + why + ".";
            else
                m_state["mesh_accepted"] = true;
        } else if (action == "continue") {
            m_state["mesh_accepted"] = true;
        } else if (action == "change_mesh") {
            const json given = answer.value("mesh_set", json());
            const json set = given.is_string() ? json::parse(given.get<std::string>(), nullptr, false)
                                               : given;
            if (!set.is_object() || set.empty()) {
                m_note = "The mesh change was not applied: give mesh_set as JSON entries, e.g. "
                         "{\"system/blockMeshDict:blocks\": \"...\"}.";
            } else if (!FoamCase::checkEntries(m_caseDir, set, why)) {
                m_note = "The mesh change was not applied: entry " + why + ".";
            } else {
                for (const auto &[key, value] : set.items()) {
                    std::string file, entry, current, text;
                    FoamCase::splitKey(key, file, entry, why);
                    FoamCase::readEntry(m_caseDir, file, entry, current, why);
                    FoamCase::valueText(value, current, text);
                    FoamCase::setEntry(m_caseDir, file, entry, text, log, why);
                }
                m_state["meshed"] = false; // mesh and check again
                m_state["mesh_checked"] = false;
            }
        }
        if (!m_note.empty())
            log += "  " + m_note + "\n";
        appendText(fs::path(m_caseDir) / "log.answer", log);
        m_state["answers_applied"] = i + 1;
        saveState();
    }
    return m_note.empty();
}

std::vector<std::string> FoamRunner::meshUtilities() const
{
    if (const FoamCase::Template *t = FoamCase::findTemplate(m_arguments.value("template", "")))
        return t->meshUtilities;
    // An own case: its mesh if it brings one, else blockMesh.
    if (fs::exists(fs::path(m_caseDir) / "constant" / "polyMesh" / "faces")
        || fs::exists(fs::path(m_caseDir) / "constant" / "polyMesh" / "faces.gz"))
        return {};
    return {"blockMesh"};
}

bool FoamRunner::prepareRestart(std::string &why)
{
    std::vector<std::string> dirs;
    const int processors = m_arguments.value("processors", 1);
    for (int p = 0; p < processors && processors > 1; ++p)
        dirs.push_back((fs::path(m_caseDir) / ("processor" + std::to_string(p))).string());
    if (dirs.empty())
        dirs.push_back(m_caseDir);
    std::string log;
    const auto removeTime = [&](const std::string &dir, const std::string &time, const char *because) {
        std::error_code ec;
        fs::remove_all(fs::path(dir) / time, ec);
        log += std::string("removed the ") + because + " time folder "
               + fs::relative(fs::path(dir) / time, m_caseDir).string() + "\n";
    };
    // Each rank writes its own folder, so a stop can leave one rank a write ahead of another.
    // latestTime must name a time every rank has whole: the newest one they share.
    std::vector<std::set<std::string>> whole;
    for (const std::string &dir : dirs) {
        const auto times = FoamCase::timeFolders(dir);
        whole.emplace_back();
        for (std::size_t i = 0; i < times.size(); ++i) {
            if (i == 0 || FoamCase::isCompleteTime(dir, times[i].first))
                whole.back().insert(times[i].first);
            else
                removeTime(dir, times[i].first, "incomplete");
        }
    }
    std::string common = "0";
    for (const auto &t : FoamCase::timeFolders(dirs.front()))
        if (std::all_of(whole.begin(), whole.end(), [&](const auto &w) { return w.count(t.first) > 0; }))
            common = t.first;
    const double commonValue = std::strtod(common.c_str(), nullptr);
    for (const std::string &dir : dirs) {
        const auto times = FoamCase::timeFolders(dir);
        for (std::size_t i = 1; i < times.size(); ++i)
            if (times[i].second > commonValue)
                removeTime(dir, times[i].first, "unshared");
    }
    log += "restarting from time " + common + "\n";
    const bool ok = FoamCase::setEntry(m_caseDir, "system/controlDict", "startFrom", "latestTime",
                                       log, why);
    appendText(fs::path(m_caseDir) / "log.restart", log);
    // The earlier solver log is kept beside the new one.
    const fs::path solverLog = fs::path(m_caseDir) / ("log." + m_solver);
    for (int n = 1; fs::exists(solverLog); ++n) {
        const fs::path kept = solverLog.string() + "." + std::to_string(n);
        std::error_code ec;
        if (!fs::exists(kept))
            fs::rename(solverLog, kept, ec);
    }
    return ok;
}

FoamRunner::Outcome FoamRunner::solve()
{
    const int processors = m_arguments.value("processors", 1);
    const bool resuming = m_state.value("solver_started", false);
    std::string why;
    if (resuming && !prepareRestart(why))
        return fail("restart", why);
    if (processors > 1 && !resuming) {
        report("decomposePar: splitting the case into " + std::to_string(processors) + " parts");
        if (const Step s = runStep({"decomposePar", "-force"}, "decomposePar", false); s != Step::Ok)
            return s == Step::Stopped ? Outcome::Stopped : fail("decomposePar", m_exitText);
    }
    m_state["solver_started"] = true;
    saveState();
    report(m_solver + (resuming ? ": resuming from its latest time" : ": starting"));
    std::vector<std::string> argv{m_solver};
    if (processors > 1)
        argv = {"mpirun", "-np", std::to_string(processors), m_solver, "-parallel"};
    const Step s = runStep(argv, m_solver, true);
    if (s == Step::Stopped)
        return Outcome::Stopped;
    if (s == Step::Failed || !m_log.ended())
        return fail(m_solver, s == Step::Failed ? m_exitText : "it ended without printing End");
    if (processors > 1) {
        report("reconstructPar: joining the parts");
        if (const Step r = runStep({"reconstructPar", "-latestTime"}, "reconstructPar", false);
            r != Step::Ok)
            return r == Step::Stopped ? Outcome::Stopped : fail("reconstructPar", m_exitText);
    }
    FoamTool::Outcome o;
    o.solver = m_solver;
    o.steady = m_steady;
    o.endTime = m_endTime;
    o.caseDir = m_caseDir;
    o.scalars = FoamCase::functionObjectScalars(m_caseDir);
    o.mesh = m_state.value("mesh", json::object());
    m_result = FoamTool::result(m_arguments, m_log, o);
    m_message = FoamTool::finalMessage(m_log, o);
    return Outcome::Finished;
}

FoamRunner::Outcome FoamRunner::run(const json &answers)
{
    m_state = CaseFolder::readJson((fs::path(m_caseDir) / kStateFile).string());
    if (!m_state.is_object())
        m_state = json::object();
    // An earlier server that died (kill -9) took its steps' direct children with it; what they
    // started may still be running in this folder.
    if (const int left = FoamProcess::killMarked(marker()))
        appendText(fs::path(m_caseDir) / "log.restart",
                   "killed " + std::to_string(left) + " process(es) left from an earlier run\n");
    if (!m_state.value("prepared", false)) {
        std::string step, why;
        if (!prepare(step, why))
            return fail(step, why);
        m_state = {{"prepared", true}};
        saveState();
    }
    const bool answered = applyAnswers(answers);
    if (!m_state.value("meshed", false)) {
        for (const std::string &utility : meshUtilities()) {
            report(utility + ": meshing");
            if (const Step s = runStep({utility}, utility, false); s != Step::Ok)
                return s == Step::Stopped ? Outcome::Stopped : fail(utility, m_exitText);
        }
        m_state["meshed"] = true;
        m_state["mesh_checked"] = false;
        saveState();
    }
    if (!m_state.value("mesh_checked", false)) {
        report("checkMesh: checking the mesh");
        if (const Step s = runStep({"checkMesh"}, "checkMesh", false); s != Step::Ok)
            return s == Step::Stopped ? Outcome::Stopped : fail("checkMesh", m_exitText);
        std::ifstream in(fs::path(m_caseDir) / "log.checkMesh");
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const CheckMeshReport report = CheckMeshReport::parse(text);
        if (!report.complete)
            return fail("checkMesh", "its log has no verdict (neither Mesh OK nor Failed)");
        m_state["mesh"] = report.toJson();
        m_state["mesh_checked"] = true;
        m_state["mesh_accepted"] = report.ok;
        saveState();
    }
    m_mesh = CheckMeshReport::fromJson(m_state.value("mesh", json::object()));
    if (!answered || !m_state.value("mesh_accepted", false)) {
        m_question = FoamTool::meshQuestion(m_mesh, m_note);
        return Outcome::Question;
    }
    std::string value, why;
    if (!FoamCase::readEntry(m_caseDir, "system/controlDict", "application", m_solver, why))
        return fail("solver", "system/controlDict names no application: " + why);
    m_steady = FoamCase::readEntry(m_caseDir, "system/fvSchemes", "ddtSchemes/default", value, why)
               && value == "steadyState";
    if (FoamCase::readEntry(m_caseDir, "system/controlDict", "endTime", value, why))
        m_endTime = numberOr(value, 0);
    if (FoamCase::readEntry(m_caseDir, "system/controlDict", "deltaT", value, why))
        m_deltaT = numberOr(value, 1);
    return solve();
}

} // namespace Eddy::Server
