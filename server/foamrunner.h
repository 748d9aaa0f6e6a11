#pragma once

// One run_openfoam_case task's work in its case folder, the steps an Allrun takes, each logged
// to its own file there: copy, set, mesh (blockMesh or the case's own), checkMesh, (decomposePar,)
// solver, (reconstructPar). What is done is recorded in eddy-state.json, so the same call
// resumes after a mesh answer, a server restart or a kill -9: the solver from its latest complete
// time folder (startFrom latestTime). Blocking; runs on a TaskManager worker thread.

#include "server/checkmeshreport.h"
#include "server/foamlog.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace Eddy::Server {

class FoamRunner final
{
public:
    struct Hooks
    {
        std::function<bool()> stopRequested;           // a cancel or the server's shutdown
        std::function<void(const std::string &)> report; // a new statusMessage
    };
    enum class Outcome { Finished, Question, Stopped };

    static constexpr const char *kStateFile = "eddy-state.json";
    // The statusMessage while the mesh question waits for an answer.
    static constexpr const char *kQuestionMessage = "waiting for input: checkMesh failed the mesh";

    FoamRunner(nlohmann::json arguments, std::string caseDir, std::string casesRoot, Hooks hooks);

    // Runs the case, or resumes it where it stopped; answers are the mesh answers given so far
    // (FoamTool::parseAnswer), oldest first.
    Outcome run(const nlohmann::json &answers);

    // Finished: the CallToolResult and the final statusMessage.
    const nlohmann::json &result() const { return m_result; }
    const std::string &message() const { return m_message; }
    // Question: the elicitation/create request, and the summary for the statusMessage.
    const nlohmann::json &question() const { return m_question; }
    std::string questionSummary() const { return m_mesh.summary(); }

private:
    enum class Step { Ok, Failed, Stopped };
    // Runs one utility to its end, its output in log.<logName>; while the solver runs, its log
    // feeds m_log and the statusMessage.
    Step runStep(const std::vector<std::string> &argv, const std::string &logName, bool solver);
    bool saveState();
    Outcome fail(const std::string &step, const std::string &why);
    bool prepare(std::string &failedStep, std::string &why);
    // Applies answers not applied yet; false when a mesh change could not be applied (m_note).
    bool applyAnswers(const nlohmann::json &answers);
    bool applyCorrection(const nlohmann::json &answer, std::string &log, std::string &why);
    std::vector<std::string> meshUtilities() const;
    // Removes time folders cut off mid-write and sets startFrom latestTime.
    bool prepareRestart(std::string &why);
    Outcome solve();
    void report(const std::string &message);
    // The environment entry every step of this case carries (its folder's name, a hash).
    std::string marker() const;

    nlohmann::json m_arguments;
    std::string m_caseDir;
    std::string m_casesRoot;
    Hooks m_hooks;
    nlohmann::json m_state = nlohmann::json::object();
    CheckMeshReport m_mesh;
    std::string m_note; // opens the next question (a mesh change that was not applied)
    FoamLog m_log;
    std::string m_solver;
    bool m_steady = false;
    double m_endTime = 0;
    double m_deltaT = 1;
    std::string m_lastReport;
    std::string m_exitText;
    nlohmann::json m_result;
    std::string m_message;
    nlohmann::json m_question;
};

} // namespace Eddy::Server
