// run_openfoam_case through the real MCP wire against the real eddy-cfd-server and real OpenFOAM
// (Debian: openfoam, openfoam-examples): a cavity with live residuals and results, `set` read
// back with foamDictionary, bad input refused before anything runs, the mesh question built from
// checkMesh's findings and each answer's visible effect, cancel leaving no OpenFOAM process, and
// kill -9 of the server mid-run resuming from the latest complete time folder.

#include "tests/common/testserver.h"
#include "tests/server/foamtestsupport.h"
#include "tests/server/mcptestclient.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <set>

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::foamPrefix;
using Eddy::Test::foamValue;
using Eddy::Test::readFile;
using Eddy::Test::McpTestClient;
using Eddy::Test::TestServer;

namespace {

// The cavity's vertex (1 1 0)/(1 1 0.1) moved to x = 9: checkMesh fails it (max skewness 8.2).
const char *const kBadVertices
    = "((0 0 0) (1 0 0) (9 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (9 1 0.1) (0 1 0.1))";
const char *const kGoodVertices
    = "((0 0 0) (1 0 0) (1 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (1 1 0.1) (0 1 0.1))";

// Processes whose working folder is under dir (OpenFOAM utilities run in the case folder).
QStringList processesUnder(const QString &dir)
{
    QStringList found;
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        pid.toLongLong(&number);
        if (!number)
            continue;
        const QString cwd = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
        if (!cwd.isEmpty() && cwd.startsWith(canonical + QLatin1Char('/')))
            found << pid + QLatin1Char(' ') + readFile(QStringLiteral("/proc/%1/comm").arg(pid)).trimmed();
    }
    return found;
}

// The first "Time = " of a solver log.
double firstTime(const QString &log)
{
    const auto m = QRegularExpression(QStringLiteral("^Time = (\\S+)$"), QRegularExpression::MultilineOption).match(log);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

std::string text(const json &result)
{
    return result.value("content", json::array()).empty() ? std::string()
                                                           : result["content"][0].value("text", "");
}

} // namespace

class tst_ServerOpenFoam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void toolListed();
    void cavityCompletesWithProgressAndResults();
    void ownCaseIsCopiedNotChanged();
    void steadyTemplate();
    void parallelRun();
    void functionObjectTemplate();
    void withoutOpenFoam();
    void badInputRefused_data();
    void badInputRefused();
    void meshQuestionFromCheckMesh();
    void answerAbortEnds();
    void answerCorrectionChangesSchemes();
    void answerChangeMeshRunsAgain();
    void cancelLeavesNoProcess_data();
    void cancelLeavesNoProcess();
    void killNineResumesFromLatestTime();
    void shutdownResumes_data();
    void shutdownResumes();
    void legacyTaskAndToolError();

private:
    std::string start(const json &arguments, McpTestClient &client);
    json waitTerminal(McpTestClient &client, const std::string &id, int timeoutMs = 60000);
    std::string waitForQuestion(McpTestClient &client, const std::string &id, json *task);
    json badMeshCase(const std::string &name) const;

    TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
    QTemporaryDir m_cases;
};

void tst_ServerOpenFoam::initTestCase()
{
    // Not a skip: without OpenFOAM the feature cannot be shown to work.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty()
                 && !QStandardPaths::findExecutable(QStringLiteral("foamDictionary")).isEmpty(),
             "OpenFOAM is not installed; these tests need it: apt-get install openfoam "
             "openfoam-examples");
    QVERIFY(m_cases.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("100"),
                             QStringLiteral("--openfoam-cases"), m_cases.path()}),
             qPrintable(m_server.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
}

std::string tst_ServerOpenFoam::start(const json &arguments, McpTestClient &client)
{
    const HttpReply r = client.request("tools/call", {{"name", "run_openfoam_case"}, {"arguments", arguments}});
    const json &res = r.result();
    if (res.value("resultType", "") != "task") {
        qWarning("not a task: %s", r.body.c_str());
        return {};
    }
    return res.value("taskId", "");
}

json tst_ServerOpenFoam::waitTerminal(McpTestClient &client, const std::string &id, int timeoutMs)
{
    return client.waitForTask(id, [](const json &t) { return McpTestClient::isTerminal(t); }, timeoutMs);
}

std::string tst_ServerOpenFoam::waitForQuestion(McpTestClient &client, const std::string &id, json *task)
{
    const json t = client.waitForTask(id, [](const json &t) {
        return t.value("status", "") == "input_required" || McpTestClient::isTerminal(t);
    });
    if (task)
        *task = t;
    if (t.value("status", "") != "input_required" || !t["inputRequests"].is_object() || t["inputRequests"].empty())
        return {};
    return t["inputRequests"].begin().key();
}

json tst_ServerOpenFoam::badMeshCase(const std::string &name) const
{
    return {{"template", "cavity"}, {"case_name", name}, {"end_time", 0.05},
            {"set", {{"system/blockMeshDict:vertices", kBadVertices}}}};
}

void tst_ServerOpenFoam::toolListed()
{
    const HttpReply r = m_client->request("tools/list");
    bool found = false;
    for (const json &tool : r.result()["tools"]) {
        if (tool.value("name", "") != "run_openfoam_case")
            continue;
        found = true;
        for (const char *arg : {"template", "case", "set", "end_time", "write_interval", "processors",
                                "idempotency_key"})
            QVERIFY2(tool["inputSchema"]["properties"].contains(arg), arg);
        QVERIFY(tool["description"].get<std::string>().find("Unavailable") == std::string::npos);
    }
    QVERIFY(found);
}

void tst_ServerOpenFoam::cavityCompletesWithProgressAndResults()
{
    // 2,000 steps of 0.005 s: long enough (about a second) to be seen running.
    const std::string id = start({{"template", "cavity"}, {"case_name", "re50"}, {"end_time", 10},
                                  {"write_interval", 1000},
                                  {"set", {{"constant/transportProperties:nu", 0.002}}}},
                                 *m_client);
    QVERIFY(!id.empty());
    std::vector<std::string> messages;
    const json done = m_client->waitForTask(id, [&](const json &t) {
        const std::string m = t.value("statusMessage", "");
        if (messages.empty() || messages.back() != m)
            messages.push_back(m);
        return McpTestClient::isTerminal(t);
    });
    QCOMPARE(done.value("status", ""), std::string("completed"));
    // Progress from the solver log, in the documented form (docs/openfoam.md).
    const QRegularExpression form(QStringLiteral(
        "^icoFoam: time = [0-9.e-]+ of 10 \\(\\d+%\\), residual \\S+ \\(Ux \\S+, Uy \\S+, p \\S+\\), "
        "Courant max \\S+, continuity \\S+, execution \\S+ s$"));
    int solverMessages = 0;
    std::string all;
    for (const std::string &m : messages) {
        all += m + "\n";
        solverMessages += form.match(QString::fromStdString(m)).hasMatch();
    }
    QVERIFY2(solverMessages >= 1, all.c_str());
    QVERIFY2(all.find("checkMesh: checking the mesh") != std::string::npos
                 || all.find("blockMesh: meshing") != std::string::npos || solverMessages >= 2,
             all.c_str());
    QVERIFY2(done.value("statusMessage", "").rfind("reached the end time: time = 10 of 10 (100%)", 0) == 0,
             done.value("statusMessage", "").c_str());

    const json result = done["result"];
    QCOMPARE(result.value("isError", true), false);
    const json &s = result["structuredContent"];
    QCOMPARE(s.value("outcome", ""), std::string("end time reached"));
    QCOMPARE(s.value("converged", false), true);
    QCOMPARE(s.value("solver", ""), std::string("icoFoam"));
    QCOMPARE(s.value("time_steps", 0), 2000);
    QCOMPARE(s.value("last_time", 0.0), 10.0);
    for (const char *field : {"Ux", "Uy", "p"})
        QVERIFY2(s["final_residuals"].contains(field), field);
    QVERIFY(s["mesh"].value("ok", false));
    QCOMPARE(s["mesh"].value("cells", 0), 400);
    const QString caseDir = QString::fromStdString(s.value("case_folder", ""));
    QVERIFY(caseDir.startsWith(m_server.dataDir()));
    QVERIFY2(!caseDir.contains(QString::fromStdString(id)), "the task id names the case folder");
    QVERIFY2(text(result).find("reached its end time") != std::string::npos, text(result).c_str());
    // Each step logged to its own file; `set` visible to foamDictionary.
    for (const char *log : {"log.copy", "log.set", "log.blockMesh", "log.checkMesh", "log.icoFoam"})
        QVERIFY2(QFile::exists(caseDir + QLatin1Char('/') + QLatin1String(log)), log);
    QCOMPARE(foamValue(caseDir, QStringLiteral("constant/transportProperties"), QStringLiteral("nu")),
             QStringLiteral("0.002"));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/controlDict"), QStringLiteral("endTime")),
             QStringLiteral("10"));
    QVERIFY(QFileInfo(caseDir + QStringLiteral("/10/U")).isFile());
}

void tst_ServerOpenFoam::ownCaseIsCopiedNotChanged()
{
    // The engineer's case: the tutorial cavity in the server's --openfoam-cases folder.
    const QString own = m_cases.filePath(QStringLiteral("studies/mycavity"));
    QProcess cp;
    QVERIFY(QDir().mkpath(m_cases.filePath(QStringLiteral("studies"))));
    const QString tutorial = foamPrefix()
                             + QStringLiteral("/share/doc/openfoam-examples/examples/incompressible/icoFoam/cavity/cavity");
    QVERIFY2(QFileInfo(tutorial).isDir(), "openfoam-examples is not installed");
    cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), tutorial, own});
    QVERIFY(cp.waitForFinished(30000) && cp.exitCode() == 0);
    const QString before = readFile(own + QStringLiteral("/constant/transportProperties"));
    // Links out of the cases folder are not followed.
    QTemporaryDir elsewhere;
    QVERIFY(QFile::link(elsewhere.path(), own + QStringLiteral("/outside")));
    QVERIFY(QFile::link(elsewhere.path(), own + QStringLiteral("/constant/outside")));
    // Tutorials may come gzipped (0/U.gz): the copy unpacks them.
    QProcess gz;
    gz.start(QStringLiteral("gzip"), {own + QStringLiteral("/0/U")});
    QVERIFY(gz.waitForFinished(30000) && gz.exitCode() == 0);

    const std::string id = start({{"case", "studies/mycavity"}, {"end_time", 0.05},
                                  {"set", {{"constant/transportProperties:nu", 0.005},
                                           {"0/U:boundaryField/movingWall/value", "uniform (2 0 0)"}}}},
                                 *m_client);
    QVERIFY(!id.empty());
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    const QString caseDir = QString::fromStdString(done["result"]["structuredContent"].value("case_folder", ""));
    QCOMPARE(foamValue(caseDir, QStringLiteral("constant/transportProperties"), QStringLiteral("nu")),
             QStringLiteral("0.005"));
    QCOMPARE(readFile(own + QStringLiteral("/constant/transportProperties")), before);
    QVERIFY2(!QFileInfo(own + QStringLiteral("/constant/polyMesh")).exists(), "the original was meshed");
    QVERIFY(QFileInfo(own + QStringLiteral("/0/U.gz")).isFile());
    const QString copyLog = readFile(caseDir + QStringLiteral("/log.copy"));
    QVERIFY2(copyLog.contains(QStringLiteral("unpacked U.gz")), qPrintable(copyLog));
    QVERIFY2(copyLog.contains(QStringLiteral("skipped the symbolic link outside")), qPrintable(copyLog));
    QVERIFY(!QFileInfo::exists(caseDir + QStringLiteral("/outside")));
    QVERIFY(!QFileInfo::exists(caseDir + QStringLiteral("/constant/outside")));
    QCOMPARE(foamValue(caseDir, QStringLiteral("0/U"), QStringLiteral("boundaryField/movingWall/value")),
             QStringLiteral("uniform ( 2 0 0 )"));
}

void tst_ServerOpenFoam::steadyTemplate()
{
    // simpleFoam pitzDaily for 10 iterations: not converged, but no error either.
    const std::string id = start({{"template", "pitzDaily"}, {"end_time", 10}}, *m_client);
    QVERIFY(!id.empty());
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    const json &result = done["result"];
    QVERIFY2(!result.value("isError", true), result.dump().c_str());
    const std::string message = done.value("statusMessage", "");
    QVERIFY2(QRegularExpression(QStringLiteral(
                 "^stopped at the iteration limit, not converged: iteration 10 of 10, residual \\S+ "
                 "\\(Ux \\S+, Uy \\S+, p \\S+, epsilon \\S+, k \\S+\\), continuity \\S+, execution \\S+ s$"))
                 .match(QString::fromStdString(message)).hasMatch(),
             message.c_str());
    const json &s = result["structuredContent"];
    QCOMPARE(s.value("outcome", ""), std::string("iteration limit"));
    QCOMPARE(s.value("converged", true), false);
    QCOMPARE(s.value("steady", false), true);
    QCOMPARE(s["mesh"].value("cells", 0), 12225);
    // One series per field, by iteration, for the chart (docs/sweeps.md).
    QCOMPARE(s["residual_history"]["iteration"].size(), std::size_t(10));
    QCOMPARE(s["residual_history"]["k"].size(), std::size_t(10));
}

void tst_ServerOpenFoam::parallelRun()
{
    // Two processes: decomposePar, mpirun, reconstructPar, each in its own log.
    const std::string id = start({{"template", "cavity"}, {"end_time", 0.1}, {"processors", 2}}, *m_client);
    QVERIFY(!id.empty());
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    const QString caseDir = QString::fromStdString(done["result"]["structuredContent"].value("case_folder", ""));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/decomposeParDict"), QStringLiteral("numberOfSubdomains")),
             QStringLiteral("2"));
    for (const char *path : {"log.decomposePar", "log.reconstructPar", "processor0/0/U", "processor1/0.1/U", "0.1/U"})
        QVERIFY2(QFileInfo::exists(caseDir + QLatin1Char('/') + QLatin1String(path)), path);
    QVERIFY(readFile(caseDir + QStringLiteral("/log.icoFoam")).contains(QStringLiteral("nProcs : 2")));
}

void tst_ServerOpenFoam::functionObjectTemplate()
{
    // pisoFoam porousBlockage, five steps: topoSet after blockMesh, and the pressure drop the
    // template's function object writes.
    const std::string id = start({{"template", "porousBlockage"}, {"end_time", 0.25}}, *m_client);
    QVERIFY(!id.empty());
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    const json &result = done["result"];
    QVERIFY2(!result.value("isError", true), result.dump().c_str());
    const json &fo = result["structuredContent"]["function_objects"];
    QVERIFY2(fo.contains("pressureDrop/p") && fo["pressureDrop/p"].get<double>() > 0, fo.dump().c_str());
    QVERIFY2(fo.contains("pressureDrop.region1/areaAverage(p)"), fo.dump().c_str());
    QVERIFY2(text(result).find("pressureDrop/p = ") != std::string::npos, text(result).c_str());
    const QString caseDir = QString::fromStdString(result["structuredContent"].value("case_folder", ""));
    QVERIFY(QFile::exists(caseDir + QStringLiteral("/log.topoSet")));
    QVERIFY(QFile::exists(caseDir + QStringLiteral("/log.pisoFoam")));
}

void tst_ServerOpenFoam::withoutOpenFoam()
{
    // A server that finds no OpenFOAM still lists the tool, saying what to install; a call is
    // refused with the same words.
    const QByteArray path = qgetenv("PATH");
    const QByteArray project = qgetenv("WM_PROJECT_DIR");
    qputenv("PATH", "/nonexistent");
    qunsetenv("WM_PROJECT_DIR");
    TestServer bare;
    const bool started = bare.start({QStringLiteral("--workers"), QStringLiteral("1")});
    qputenv("PATH", path);
    if (!project.isEmpty())
        qputenv("WM_PROJECT_DIR", project);
    QVERIFY2(started, qPrintable(bare.errorString()));
    McpTestClient client(bare.url());
    std::string description;
    const HttpReply list = client.request("tools/list");
    QVERIFY2(list.result().contains("tools"), list.body.c_str());
    for (const json &tool : list.result()["tools"])
        if (tool.value("name", "") == "run_openfoam_case")
            description = tool.value("description", "");
    QVERIFY2(description.rfind("Unavailable on this server: OpenFOAM is not installed", 0) == 0, description.c_str());
    QVERIFY2(description.find("apt-get install openfoam openfoam-examples") != std::string::npos, description.c_str());
    const HttpReply r = client.request("tools/call", {{"name", "run_openfoam_case"}, {"arguments", {{"template", "cavity"}}}});
    QVERIFY(r.result().value("isError", false));
    QVERIFY2(text(r.result()).find("run_openfoam_case is unavailable: OpenFOAM is not installed") != std::string::npos,
             r.body.c_str());
}

void tst_ServerOpenFoam::badInputRefused_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown template") << R"({"template": "dambreak"})" << "no such template; this server has cavity, pitzDaily and porousBlockage";
    QTest::newRow("unknown argument") << R"({"template": "cavity", "reynolds": 100})" << "Unknown argument 'reynolds'";
    QTest::newRow("both template and case") << R"({"template": "cavity", "case": "x"})" << "give exactly one of 'template'";
    QTest::newRow("unknown entry") << R"({"template": "cavity", "set": {"constant/transportProperties:nux": 1}})"
                                   << "entry 'constant/transportProperties:nux': constant/transportProperties has no entry nux";
    QTest::newRow("unknown file") << R"({"template": "cavity", "set": {"constant/nothing:nu": 1}})"
                                  << "the case has no file constant/nothing";
    QTest::newRow("value refused") << R"({"template": "cavity", "set": {"constant/transportProperties:nu": "((("}})"
                                   << "foamDictionary refuses the value '((('";
    QTest::newRow("key without entry") << R"({"template": "cavity", "set": {"constant/transportProperties": 1}})"
                                       << "expected \"FILE:ENTRY\"";
    QTest::newRow("file leaves the case") << R"({"template": "cavity", "set": {"../../etc/passwd:root": 1}})"
                                          << "leaves the case folder";
    QTest::newRow("case leaves the root") << R"({"case": "../../etc"})" << "leaves the server's cases folder";
    QTest::newRow("case absolute") << R"({"case": "/etc"})" << "relative to the server's cases folder";
    QTest::newRow("case not OpenFOAM") << R"({"case": "."})" << "no system/controlDict";
    QTest::newRow("bad end time") << R"({"template": "cavity", "end_time": -1})" << "Invalid argument 'end_time': must be a number above 0";
    QTest::newRow("bad processors") << R"({"template": "cavity", "processors": 0})" << "Invalid argument 'processors'";
}

void tst_ServerOpenFoam::badInputRefused()
{
    QFETCH(QString, arguments);
    QFETCH(QString, expected);
    const QString before = QString::number(QDir(m_server.dataDir() + QStringLiteral("/openfoam")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
    const HttpReply r = m_client->request(
        "tools/call", {{"name", "run_openfoam_case"}, {"arguments", json::parse(arguments.toStdString())}});
    const json &res = r.result();
    QCOMPARE(res.value("resultType", ""), std::string("complete"));
    QCOMPARE(res.value("isError", false), true);
    QVERIFY2(text(res).find(expected.toStdString()) != std::string::npos, text(res).c_str());
    // Nothing ran: no task, no case folder.
    QCOMPARE(QString::number(QDir(m_server.dataDir() + QStringLiteral("/openfoam")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size()), before);
}

void tst_ServerOpenFoam::meshQuestionFromCheckMesh()
{
    const std::string id = start(badMeshCase("skewed"), *m_client);
    QVERIFY(!id.empty());
    json task;
    const std::string key = waitForQuestion(*m_client, id, &task);
    QVERIFY2(!key.empty(), task.dump().c_str());
    QCOMPARE(task.value("statusMessage", ""), std::string("waiting for input: checkMesh failed the mesh"));
    const json &q = task["inputRequests"][key];
    QCOMPARE(q.value("method", ""), std::string("elicitation/create"));
    const std::string message = q["params"].value("message", "");
    // checkMesh's own numbers (see docs/openfoam.md): 400 cells, 82.7 degrees, 507 faces, 8.23.
    for (const char *number : {"failed 1 check (Max skewness) on 400 cells", "max non-orthogonality 82.7",
                               "507 severely non-orthogonal faces", "max skewness 8.23", "11 highly skew faces"})
        QVERIFY2(message.find(number) != std::string::npos, message.c_str());
    const json &action = q["params"]["requestedSchema"]["properties"]["action"];
    QCOMPARE(action["enum"], json({"correct", "change_mesh", "continue", "abort"}));
    QCOMPARE(q["params"]["_meta"]["io.eddy/checkMesh"].value("severely_non_orthogonal_faces", 0), 507);
    const HttpReply r = m_client->request("tasks/cancel", {{"taskId", id}});
    QCOMPARE(r.result().value("resultType", ""), std::string("complete"));
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("cancelled"));
}

void tst_ServerOpenFoam::answerAbortEnds()
{
    const std::string id = start(badMeshCase("abort"), *m_client);
    const std::string key = waitForQuestion(*m_client, id, nullptr);
    QVERIFY(!key.empty());
    m_client->request("tasks/update", {{"taskId", id},
                                       {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"action", "abort"}}}}}}}});
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QCOMPARE(done.value("statusMessage", ""), std::string("aborted at the mesh check"));
    QVERIFY(done["result"].value("isError", false));
    QVERIFY2(text(done["result"]).find("chose to abort") != std::string::npos, done.dump().c_str());
    // It names where checkMesh's findings are, so the engineer can fix the mesh from them.
    const std::string said = text(done["result"]);
    const std::size_t at = said.find("findings are in ");
    QVERIFY2(at != std::string::npos, said.c_str());
    std::string log = said.substr(at + 16);
    log = log.substr(0, log.find("log.checkMesh") + 13);
    QVERIFY2(QFile::exists(QString::fromStdString(log)), log.c_str());
    QVERIFY2(log.find(id) == std::string::npos, "the task id is in the path");
}

void tst_ServerOpenFoam::answerCorrectionChangesSchemes()
{
    const std::string id = start(badMeshCase("corrected"), *m_client);
    const std::string key = waitForQuestion(*m_client, id, nullptr);
    QVERIFY(!key.empty());
    m_client->request("tasks/update",
                      {{"taskId", id},
                       {"inputResponses",
                        {{key, {{"action", "accept"},
                                {"content", {{"action", "correct"}, {"non_orthogonal_correctors", 3}, {"limiter", 0.5}}}}}}}});
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    const json &result = done["result"];
    const QString caseDir = QString::fromStdString(result["structuredContent"].value("case_folder", ""));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSolution"), QStringLiteral("PISO/nNonOrthogonalCorrectors")),
             QStringLiteral("3"));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSchemes"), QStringLiteral("laplacianSchemes/default")),
             QStringLiteral("Gauss linear limited corrected 0.5"));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSchemes"), QStringLiteral("snGradSchemes/default")),
             QStringLiteral("limited corrected 0.5"));
    QVERIFY(readFile(caseDir + QStringLiteral("/log.answer")).contains(QStringLiteral("answer 1: correct")));
    // This mesh is beyond correction: icoFoam dies of a floating point exception, and that is a
    // tool error with the step, the signal and the log's last lines, never a green success.
    QVERIFY2(result.value("isError", false), result.dump().c_str());
    QCOMPARE(result["structuredContent"].value("outcome", ""), std::string("died"));
    const std::string t = text(result);
    QVERIFY2(t.find("failed in the icoFoam step") != std::string::npos, t.c_str());
    QVERIFY2(t.find("Last lines of log.icoFoam") != std::string::npos, t.c_str());
    QVERIFY2(done.value("statusMessage", "").rfind("icoFoam failed", 0) == 0, done.value("statusMessage", "").c_str());
}

void tst_ServerOpenFoam::answerChangeMeshRunsAgain()
{
    const std::string id = start(badMeshCase("remeshed"), *m_client);
    std::string key = waitForQuestion(*m_client, id, nullptr);
    QVERIFY(!key.empty());
    // A mesh change foamDictionary cannot apply is asked again, saying why.
    m_client->request("tasks/update", {{"taskId", id},
                                       {"inputResponses", {{key, {{"action", "accept"},
                                                                  {"content", {{"action", "change_mesh"},
                                                                               {"mesh_set", R"({"system/blockMeshDict:nope": 1})"}}}}}}}});
    json task;
    key = waitForQuestion(*m_client, id, &task);
    QVERIFY2(!key.empty(), task.dump().c_str());
    const std::string again = task["inputRequests"][key]["params"].value("message", "");
    QVERIFY2(again.rfind("The mesh change was not applied: entry 'system/blockMeshDict:nope'", 0) == 0, again.c_str());
    m_client->request("tasks/update",
                      {{"taskId", id},
                       {"inputResponses", {{key, {{"action", "accept"},
                                                  {"content", {{"action", "change_mesh"},
                                                               {"mesh_set", json({{"system/blockMeshDict:vertices", kGoodVertices}}).dump()}}}}}}}});
    const json done = waitTerminal(*m_client, id);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    const json &s = done["result"]["structuredContent"];
    QVERIFY(s["mesh"].value("ok", false));
    const QString caseDir = QString::fromStdString(s.value("case_folder", ""));
    QVERIFY(readFile(caseDir + QStringLiteral("/log.checkMesh")).contains(QStringLiteral("Mesh OK.")));
    QVERIFY(foamValue(caseDir, QStringLiteral("system/blockMeshDict"), QStringLiteral("vertices")).contains(QStringLiteral("( 1 1 0 )")));
}

void tst_ServerOpenFoam::cancelLeavesNoProcess_data()
{
    QTest::addColumn<int>("processors");
    QTest::newRow("serial") << 1;
    QTest::newRow("mpirun") << 2; // the ranks are mpirun's children: the group must go whole
}

void tst_ServerOpenFoam::cancelLeavesNoProcess()
{
    QFETCH(int, processors);
    const std::string id = start({{"template", "cavity"}, {"end_time", 100000}, {"write_interval", 1000000},
                                  {"processors", processors}},
                                 *m_client);
    QVERIFY(!id.empty());
    const json running = m_client->waitForTask(id, [](const json &t) {
        return t.value("statusMessage", "").rfind("icoFoam: time", 0) == 0 || McpTestClient::isTerminal(t);
    });
    QVERIFY2(running.value("status", "") == "working", running.dump().c_str());
    const QString openfoam = m_server.dataDir() + QStringLiteral("/openfoam");
    QVERIFY2(processesUnder(openfoam).join(',').contains(QStringLiteral("icoFoam")), qPrintable(processesUnder(openfoam).join(',')));
    const HttpReply r = m_client->request("tasks/cancel", {{"taskId", id}});
    QCOMPARE(r.result().value("resultType", ""), std::string("complete"));
    QTRY_VERIFY2_WITH_TIMEOUT(processesUnder(openfoam).isEmpty(), qPrintable(processesUnder(openfoam).join(',')), 15000);
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("cancelled"));
}

void tst_ServerOpenFoam::killNineResumesFromLatestTime()
{
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("100")}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    // 4,000 steps, a time folder every 0.5 s of simulated time (100 steps).
    const std::string id = start({{"template", "cavity"}, {"end_time", 20}, {"write_interval", 100}}, client);
    QVERIFY(!id.empty());
    const json running = client.waitForTask(id, [](const json &t) {
        const QString m = QString::fromStdString(t.value("statusMessage", ""));
        const auto at = QRegularExpression(QStringLiteral("^icoFoam: time = ([0-9.]+) ")).match(m);
        return (at.hasMatch() && at.captured(1).toDouble() >= 1) || McpTestClient::isTerminal(t);
    });
    QVERIFY2(running.value("status", "") == "working", running.dump().c_str());
    server.kill();
    const QString openfoam = server.dataDir() + QStringLiteral("/openfoam");
    QTRY_VERIFY2_WITH_TIMEOUT(processesUnder(openfoam).isEmpty(), qPrintable(processesUnder(openfoam).join(',')), 15000);
    const QStringList cases = QDir(openfoam).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(cases.size(), 1);
    const QString caseDir = openfoam + QLatin1Char('/') + cases[0];
    QVERIFY(QFileInfo(caseDir + QStringLiteral("/0.5/U")).isFile());
    // A later time folder cut off mid-write, as a kill can leave one.
    const QString cut = caseDir + QStringLiteral("/19.5");
    QVERIFY(QDir().mkpath(cut + QStringLiteral("/uniform")));
    QVERIFY(QFile::copy(caseDir + QStringLiteral("/0.5/uniform/time"), cut + QStringLiteral("/uniform/time")));
    QFile half(cut + QStringLiteral("/U"));
    QVERIFY(half.open(QIODevice::WriteOnly));
    half.write(readFile(caseDir + QStringLiteral("/0.5/U")).left(500).toUtf8());
    half.close();
    // And one whose files are whole but too few: p and phi were never written.
    const QString few = caseDir + QStringLiteral("/19.25");
    QVERIFY(QDir().mkpath(few + QStringLiteral("/uniform")));
    QVERIFY(QFile::copy(caseDir + QStringLiteral("/0.5/uniform/time"), few + QStringLiteral("/uniform/time")));
    QVERIFY(QFile::copy(caseDir + QStringLiteral("/0.5/U"), few + QStringLiteral("/U")));

    // A straggler of the killed run (as mpirun's ranks are for a few seconds): a process that
    // carries the case's marker. The restarted server must end it before resuming.
    QProcess straggler;
    QProcessEnvironment marked = QProcessEnvironment::systemEnvironment();
    marked.insert(QStringLiteral("EDDY_FOAM_RUN"), cases[0]);
    straggler.setProcessEnvironment(marked);
    straggler.start(QStringLiteral("sleep"), {QStringLiteral("600")});
    QVERIFY(straggler.waitForStarted(10000));

    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    McpTestClient again(server.url());
    const json done = waitTerminal(again, id, 90000);
    QVERIFY(straggler.waitForFinished(10000));
    QCOMPARE(straggler.exitStatus(), QProcess::CrashExit); // SIGKILL
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    const QString restart = readFile(caseDir + QStringLiteral("/log.restart"));
    QVERIFY2(restart.contains(QStringLiteral("removed the incomplete time folder 19.5")), qPrintable(restart));
    QVERIFY2(restart.contains(QStringLiteral("removed the incomplete time folder 19.25")), qPrintable(restart));
    QVERIFY2(restart.contains(QStringLiteral("killed 1 process(es) left from an earlier run")), qPrintable(restart));
    // Written again, whole, by the resumed run.
    QVERIFY(readFile(cut + QStringLiteral("/U")).trimmed().endsWith(QStringLiteral("//")));
    const auto from = QRegularExpression(QStringLiteral("restarting from time (\\S+)")).match(restart);
    QVERIFY2(from.hasMatch(), qPrintable(restart));
    const double latest = from.captured(1).toDouble();
    QVERIFY2(latest >= 0.5, qPrintable(restart));
    // The time loop started right after the latest complete time, not at 0.005; the first run's
    // log is kept beside it, and there was no third run.
    const double resumedAt = firstTime(readFile(caseDir + QStringLiteral("/log.icoFoam")));
    QVERIFY2(resumedAt > latest && resumedAt < latest + 0.01, qPrintable(QString::number(resumedAt)));
    QCOMPARE(firstTime(readFile(caseDir + QStringLiteral("/log.icoFoam.1"))), 0.005);
    QVERIFY(!QFileInfo::exists(caseDir + QStringLiteral("/log.icoFoam.2")));
    QCOMPARE(done["result"]["structuredContent"].value("last_time", 0.0), 20.0);
    QVERIFY(processesUnder(openfoam).isEmpty());
}

void tst_ServerOpenFoam::shutdownResumes_data()
{
    QTest::addColumn<int>("processors");
    QTest::newRow("serial") << 1;
    QTest::newRow("mpirun") << 2; // resumed from the processor folders' latest time
}

void tst_ServerOpenFoam::shutdownResumes()
{
    // SIGTERM stops the solver and leaves the task working; the next start resumes it. The run is
    // long enough (8,000 steps) that an idle machine does not finish it between the status that
    // says time 1 and the SIGTERM (3 s of simulated time took 0.23 s here).
    QFETCH(int, processors);
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("100")}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const std::string id = start({{"template", "cavity"}, {"end_time", 40}, {"write_interval", 100},
                                  {"processors", processors}},
                                 client);
    QVERIFY(!id.empty());
    const json running = client.waitForTask(id, [](const json &t) {
        const auto at = QRegularExpression(QStringLiteral("^icoFoam: time = ([0-9.]+) "))
                            .match(QString::fromStdString(t.value("statusMessage", "")));
        return (at.hasMatch() && at.captured(1).toDouble() >= 1) || McpTestClient::isTerminal(t);
    });
    QVERIFY2(running.value("status", "") == "working", running.dump().c_str());
    QVERIFY(server.terminate());
    const QString openfoam = server.dataDir() + QStringLiteral("/openfoam");
    QVERIFY2(processesUnder(openfoam).isEmpty(), qPrintable(processesUnder(openfoam).join(',')));
    // A stop can leave one rank a write ahead of the other: processor1 loses its newest time,
    // which processor0 still has whole. The run must go on from the newest time both share.
    QString ahead;
    if (processors > 1) {
        const QStringList cases = QDir(openfoam).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(cases.size(), 1);
        const QString rank1 = openfoam + QLatin1Char('/') + cases[0] + QStringLiteral("/processor1");
        QStringList times = QDir(rank1).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        std::sort(times.begin(), times.end(),
                  [](const QString &a, const QString &b) { return a.toDouble() < b.toDouble(); });
        QVERIFY2(times.size() >= 3, qPrintable(times.join(',')));
        ahead = times.last();
        QVERIFY(QDir(rank1 + QLatin1Char('/') + ahead).removeRecursively());
    }
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    McpTestClient again(server.url());
    // 8,000 steps under mpirun: over a minute when the 2 cores are shared with other work.
    const json done = waitTerminal(again, id, 240000);
    QVERIFY2(done.value("status", "") == "completed", done.dump().c_str());
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    const QString caseDir = QString::fromStdString(done["result"]["structuredContent"].value("case_folder", ""));
    QVERIFY2(firstTime(readFile(caseDir + QStringLiteral("/log.icoFoam"))) > 0.5,
             qPrintable(readFile(caseDir + QStringLiteral("/log.restart"))));
    QCOMPARE(done["result"]["structuredContent"].value("last_time", 0.0), 40.0);
    QVERIFY(QFileInfo::exists(caseDir + QStringLiteral("/40/U")));
    if (processors > 1) {
        const QString restart = readFile(caseDir + QStringLiteral("/log.restart"));
        // Removed as unshared, or as incomplete when the stop cut processor0's write short.
        QVERIFY2(restart.contains(QStringLiteral("removed the unshared time folder processor0/") + ahead)
                     || restart.contains(QStringLiteral("removed the incomplete time folder processor0/") + ahead),
                 qPrintable(restart));
        const auto from = QRegularExpression(QStringLiteral("restarting from time (\\S+)")).match(restart);
        QVERIFY2(from.hasMatch() && from.captured(1).toDouble() < ahead.toDouble(), qPrintable(restart));
    }
}

void tst_ServerOpenFoam::legacyTaskAndToolError()
{
    // 2025-11-25: a task-augmented call; a solver that dies makes the task failed.
    const std::string session = m_client->initialize();
    QVERIFY(!session.empty());
    const HttpReply created = m_client->legacy(session, "tools/call",
        {{"name", "run_openfoam_case"}, {"arguments", badMeshCase("legacy")}, {"task", {{"ttl", 600000}}}});
    const std::string id = created.result()["task"].value("taskId", "");
    QVERIFY2(!id.empty(), created.body.c_str());
    const auto get = [&] { return m_client->legacy(session, "tasks/get", {{"taskId", id}}).result(); };
    QTRY_COMPARE_WITH_TIMEOUT(get().value("status", ""), std::string("input_required"), 60000);
    // Both eras see the same task: answered through tasks/update, "continue" runs icoFoam on the
    // rejected mesh, where it dies.
    const json task = m_client->getTask(id).result();
    QVERIFY2(task["inputRequests"].is_object() && !task["inputRequests"].empty(), task.dump().c_str());
    const std::string key = task["inputRequests"].begin().key();
    m_client->request("tasks/update", {{"taskId", id},
                                       {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"action", "continue"}}}}}}}});
    QTRY_VERIFY_WITH_TIMEOUT(get().value("status", "") != "working", 60000);
    const json ended = get();
    QCOMPARE(ended.value("status", ""), std::string("failed"));
    QVERIFY2(ended.value("statusMessage", "").rfind("icoFoam failed", 0) == 0, ended.dump().c_str());
}

QTEST_GUILESS_MAIN(tst_ServerOpenFoam)
#include "tst_serveropenfoam.moc"
