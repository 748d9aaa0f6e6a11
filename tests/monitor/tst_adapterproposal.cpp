// The job adapter format (validation, id extraction, state mapping) and the adapter proposal
// over a table of tool lists in several styles.
#include "app/monitor/adapterproposal.h"
#include "app/monitor/jobadapter.h"

#include <QTest>

using namespace Eddy;
using namespace Eddy::Monitor;
using nlohmann::json;

namespace {

json tool(const char *name, json props, json required = json::array(), json output = json(),
          const char *description = "")
{
    json t = {{"name", name},
              {"description", description},
              {"inputSchema", {{"type", "object"}, {"properties", props}, {"required", required}}}};
    if (!output.is_null())
        t["outputSchema"] = output;
    return t;
}

json str() { return {{"type", "string"}}; }

// The reference server's job tools (names and schemas as server/jobtools.cpp offers them).
json cfdTools()
{
    return json::array(
        {tool("run_cfd_case", {{"case_name", str()}}),
         tool("submit_cfd_case",
              {{"case_name", str()}, {"grid", {{"type", "integer"}}}, {"reynolds", {{"type", "number"}}}},
              {"reynolds", "grid"}, {{"type", "object"}, {"properties", {{"job_id", str()}}}},
              "Queues the simulation and answers at once with a job_id"),
         tool("get_cfd_case_status",
              {{"job_id", str()}, {"job_ids", {{"type", "array"}, {"items", str()}}}},
              json::array(),
              {{"type", "object"},
               {"properties",
                {{"job_id", str()},
                 {"state",
                  {{"type", "string"},
                   {"enum", {"queued", "running", "input_required", "completed", "failed",
                             "cancelled", "unknown"}}}},
                 {"progress", {{"type", "number"}}},
                 {"message", str()},
                 {"question", {{"type", "object"}}},
                 {"jobs", {{"type", "array"}}}}}}),
         tool("answer_cfd_case", {{"job_id", str()}, {"action", str()}}, {"job_id", "action"}),
         tool("cancel_cfd_case", {{"job_id", str()}}, {"job_id"}),
         tool("get_cfd_result", {{"job_id", str()}}, {"job_id"}),
         tool("list_cases", json::object())});
}

} // namespace

class TstAdapterProposal : public QObject
{
    Q_OBJECT

private slots:
    void referenceServer()
    {
        const AdapterProposal p = AdapterProposer::propose(cfdTools());
        QVERIFY2(p.adapter, qPrintable(p.reason));
        const JobAdapter &a = *p.adapter;
        QCOMPARE(a.submitTool, QStringLiteral("submit_cfd_case"));
        QCOMPARE(a.statusTool, QStringLiteral("get_cfd_case_status"));
        QCOMPARE(a.idArgument, QStringLiteral("job_id"));
        QCOMPARE(a.batchArgument, QStringLiteral("job_ids"));
        QCOMPARE(a.batchResultPointer, QStringLiteral("/jobs"));
        QCOMPARE(a.jobIdPointer, QStringLiteral("/job_id"));
        QCOMPARE(a.statePointer, QStringLiteral("/state"));
        QCOMPARE(a.cancelTool, QStringLiteral("cancel_cfd_case"));
        QCOMPARE(a.resultTool, QStringLiteral("get_cfd_result"));
        QCOMPARE(a.answerTool, QStringLiteral("answer_cfd_case"));
        QCOMPARE(a.questionPointer, QStringLiteral("/question"));
        QCOMPARE(a.states.at(QStringLiteral("input_required")), QStringLiteral("input_required"));
        QVERIFY(p.confidence >= 0.8);
        // The proposal is a valid adapter as stored.
        QString error;
        const auto back = JobAdapter::fromJson(a.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->toJson() == a.toJson());
    }

    void styles_data()
    {
        QTest::addColumn<QByteArray>("tools");
        QTest::addColumn<QString>("submit");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("idArg");
        QTest::addColumn<QString>("cancel");
        QTest::addColumn<QString>("result");
        QTest::addColumn<QString>("statePointer");

        QTest::newRow("camelCase")
            << QByteArray::fromStdString(json::array({tool("startSimulation", {{"mesh", str()}}),
                                       tool("getSimulationStatus", {{"jobId", str()}}, {"jobId"}),
                                       tool("killSimulation", {{"jobId", str()}}, {"jobId"}),
                                       tool("fetchSimulationOutput", {{"jobId", str()}},
                                            {"jobId"})})
                              .dump())
            << "startSimulation" << "getSimulationStatus" << "jobId" << "killSimulation"
            << "fetchSimulationOutput" << "/status";
        QTest::newRow("slurm")
            << QByteArray::fromStdString(json::array({tool("sbatch", {{"script", str()}}, {"script"}),
                                       tool("squeue", {{"job_id", str()}}),
                                       tool("scancel", {{"job_id", str()}}, {"job_id"}),
                                       tool("sinfo", json::object())})
                              .dump())
            << "sbatch" << "squeue" << "job_id" << "scancel" << "" << "/status";
        QTest::newRow("argo")
            << QByteArray::fromStdString(
                   json::array(
                       {tool("submit_workflow", {{"manifest", str()}, {"namespace", str()}},
                             {"manifest"}),
                        tool("get_workflow_status", {{"workflow_name", str()}, {"namespace", str()}},
                             {"workflow_name"}, json(), "Returns the workflow phase"),
                        tool("stop_workflow", {{"workflow_name", str()}}, {"workflow_name"}),
                        tool("get_workflow_logs", {{"workflow_name", str()}}, {"workflow_name"}),
                        tool("list_workflows", {{"namespace", str()}})})
                       .dump())
            << "submit_workflow" << "get_workflow_status" << "workflow_name" << "stop_workflow"
            << "get_workflow_logs" << "/phase";
        QTest::newRow("kebab-run-id")
            << QByteArray::fromStdString(json::array({tool("launch-run", {{"config", str()}}),
                                       tool("check-run", {{"run_id", str()}}, {"run_id"}),
                                       tool("run-results", {{"run_id", str()}}, {"run_id"})})
                              .dump())
            << "launch-run" << "check-run" << "run_id" << "" << "run-results" << "/status";
    }

    void styles()
    {
        QFETCH(QByteArray, tools);
        QFETCH(QString, submit);
        QFETCH(QString, status);
        QFETCH(QString, idArg);
        QFETCH(QString, cancel);
        QFETCH(QString, result);
        QFETCH(QString, statePointer);
        const AdapterProposal p = AdapterProposer::propose(json::parse(tools.toStdString()));
        QVERIFY2(p.adapter, qPrintable(p.reason));
        QCOMPARE(p.adapter->submitTool, submit);
        QCOMPARE(p.adapter->statusTool, status);
        QCOMPARE(p.adapter->idArgument, idArg);
        QCOMPARE(p.adapter->cancelTool, cancel);
        QCOMPARE(p.adapter->resultTool, result);
        QCOMPARE(p.adapter->statePointer, statePointer);
        QVERIFY(!p.why.isEmpty());
        QString error;
        QVERIFY2(JobAdapter::fromJson(p.adapter->toJson(), &error), qPrintable(error));
    }

    void noStatusTool()
    {
        const json tools = json::array({tool("run_simulation", {{"mesh", str()}}),
                                        tool("cancel_simulation", {{"job_id", str()}})});
        const AdapterProposal p = AdapterProposer::propose(tools);
        QVERIFY(!p.adapter);
        QVERIFY2(p.reason.contains(QLatin1String("run_simulation"))
                     && p.reason.contains(QLatin1String("no status tool")),
                 qPrintable(p.reason));
    }

    void noSubmitTool()
    {
        const AdapterProposal p = AdapterProposer::propose(
            json::array({tool("read_file", {{"path", str()}}), tool("echo", {{"text", str()}})}));
        QVERIFY(!p.adapter);
        QVERIFY(p.reason.contains(QLatin1String("eddyctl adapter set")));
    }

    void ambiguous()
    {
        // Two submit tools and two status tools, no subject words to tell them apart.
        const json tools = json::array({tool("submit_job", {{"script", str()}}),
                                        tool("start_job", {{"image", str()}}),
                                        tool("job_status", {{"job_id", str()}}, {"job_id"}),
                                        tool("cancel_job", {{"job_id", str()}}, {"job_id"})});
        const AdapterProposal p = AdapterProposer::propose(tools);
        QVERIFY(p.adapter);
        QCOMPARE(p.adapter->statusTool, QStringLiteral("job_status"));
        QVERIFY(p.confidence < 0.6);
        QVERIFY2(p.why.join(QLatin1Char(' ')).contains(QLatin1String("Ambiguous")),
                 qPrintable(p.why.join(QLatin1Char('\n'))));
        // The unambiguous reference server is proposed with more confidence.
        QVERIFY(AdapterProposer::propose(cfdTools()).confidence > p.confidence);
    }

    void formatErrorsSayWhatToFix()
    {
        QString error;
        QVERIFY(!JobAdapter::fromText(QStringLiteral("{not json"), &error));
        QVERIFY(error.contains(QLatin1String("not valid JSON")));
        QVERIFY(!JobAdapter::fromJson(json::object(), &error));
        QVERIFY(error.contains(QLatin1String("submit.tool")));
        QVERIFY(error.contains(QLatin1String("status.tool")));
        json doc = AdapterProposer::propose(cfdTools()).adapter->toJson();
        doc["status"]["states"] = {{"running", "busy"}};
        doc["poll"]["intervalMs"] = 5;
        doc["status"]["progressPointer"] = "progress";
        QVERIFY(!JobAdapter::fromJson(doc, &error));
        QVERIFY2(error.contains(QLatin1String("\"busy\"")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("onto \"completed\"")));
        QVERIFY(error.contains(QLatin1String("poll.intervalMs")));
        QVERIFY(error.contains(QLatin1String("status.progressPointer")));
    }

    void jobIdAndStatus()
    {
        JobAdapter a = *AdapterProposer::propose(cfdTools()).adapter;
        QCOMPARE(a.jobIdFrom({{"structuredContent", {{"job_id", "j-42"}}}}), QStringLiteral("j-42"));
        // Text only: the regex finds it.
        QCOMPARE(a.jobIdFrom({{"content", {{{"type", "text"}, {"text", "Queued as job_id abc-7. Poll"}}}}}),
                 QStringLiteral("abc-7"));
        a.jobIdRegex = QStringLiteral("job (\\d+)");
        QCOMPARE(a.jobIdFrom({{"content", {{{"type", "text"}, {"text", "Submitted batch job 1234"}}}}}),
                 QStringLiteral("1234"));
        QCOMPARE(a.jobIdFrom({{"content", json::array()}}), QString());

        const auto s = a.mapStatus({{"state", "RUNNING"}, {"progress", 0.25}, {"message", "it 50"}});
        QVERIFY(s.status == Mcp::TaskStatus::Working);
        QCOMPARE(*s.progress, 0.25);
        QCOMPARE(s.message, QStringLiteral("25 % it 50"));
        const auto q = a.mapStatus({{"state", "input_required"},
                                    {"message", "mesh defect"},
                                    {"question", {{"key", "k"}, {"message", "Repair?"}}}});
        QVERIFY(q.status == Mcp::TaskStatus::InputRequired);
        QVERIFY(q.question.value("key", "") == "k");
        QVERIFY(a.mapStatus({{"state", "Completed"}}).status == Mcp::TaskStatus::Completed);
        QVERIFY(a.mapStatus({{"state", "weird"}}).status == Mcp::TaskStatus::Working);
        QVERIFY(a.statusArguments({"a", "b"}) == json({{"job_ids", {"a", "b"}}}));
        QVERIFY(a.statusArguments({"a"}) == json({{"job_id", "a"}}));
        QCOMPARE(a.nextIntervalMs(5000), 7500);
        QCOMPARE(a.nextIntervalMs(59000), 60000);
    }
};

QTEST_GUILESS_MAIN(TstAdapterProposal)
#include "tst_adapterproposal.moc"
