// The job adapter's readers on the status poll's path: JSON pointer lookups (RFC 6901, walked
// without building a json_pointer, answering a reference into the document) and the status
// payload of a CallToolResult, structured or as JSON text; and where a proposal that had to guess
// learns the job id from the first submit answer.
#include "app/monitor/jobadapter.h"

#include <QTest>

using namespace Eddy::Monitor;
using nlohmann::json;

class tst_JobAdapter : public QObject
{
    Q_OBJECT

private slots:
    void pointerLookups();
    void statusPayloadStructuredOrText();
    void batchAnswerMapped();
    void learnsWhereTheJobIdIs();
};

void tst_JobAdapter::pointerLookups()
{
    const json doc = json::parse(R"({"a": {"b": [10, {"c": "deep"}]}, "x/y": 1, "m~n": 2,
                                     "": 3, "grüße": "utf8", "0": "zero"})");
    QVERIFY(&jsonAt(doc, QString()) == &doc); // the whole document, not a copy
    QVERIFY(jsonAt(doc, QStringLiteral("/a/b/0")) == json(10));
    QVERIFY(jsonAt(doc, QStringLiteral("/a/b/1/c")) == json("deep"));
    QVERIFY(&jsonAt(doc, QStringLiteral("/a/b/1/c")) == &doc["a"]["b"][1]["c"]);
    QVERIFY(jsonAt(doc, QStringLiteral("/x~1y")) == json(1));
    QVERIFY(jsonAt(doc, QStringLiteral("/m~0n")) == json(2));
    QVERIFY(jsonAt(doc, QStringLiteral("/")) == json(3));
    QVERIFY(jsonAt(doc, QStringLiteral("/grüße")) == json("utf8"));
    QVERIFY(jsonAt(doc, QStringLiteral("/0")) == json("zero")); // an object key, not an index
    // Absent or malformed: null, never an exception.
    for (const char *bad :
         {"/a/b/2", "/a/b/01", "/a/b/-", "/a/b/x", "/nope", "/a/b/0/c", "a", "/m~2n", "/x~"})
        QVERIFY2(jsonAt(doc, QString::fromUtf8(bad)).is_null(), bad);
}

void tst_JobAdapter::statusPayloadStructuredOrText()
{
    JobAdapter a;
    json parsed;
    const json structured = {{"content", json::array({{{"type", "text"}, {"text", "x"}}})},
                             {"structuredContent", {{"state", "running"}}}};
    QVERIFY(&a.statusPayload(structured, parsed) == &structured["structuredContent"]);
    const json text = {{"content",
                        json::array({{{"type", "text"}, {"text", "not json"}},
                                     {{"type", "text"}, {"text", R"({"state": "done"})"}}})}};
    QVERIFY(a.statusPayload(text, parsed) == json({{"state", "done"}}));
    QVERIFY(&a.statusPayload(text, parsed) == &parsed);
    QVERIFY(a.statusPayload(json({{"content", json::array()}}), parsed).is_null());
    QVERIFY(a.statusPayload(json("nonsense"), parsed).is_null());
}

void tst_JobAdapter::batchAnswerMapped()
{
    QString error;
    const std::optional<JobAdapter> a = JobAdapter::fromJson(
        json::parse(R"({"submit": {"tool": "submit", "jobIdPointer": "/job_id"},
                        "status": {"tool": "status", "idArgument": "job_id",
                                   "batchArgument": "job_ids", "batchResultPointer": "/jobs",
                                   "progressPointer": "/progress", "messagePointer": "/message",
                                   "states": {"running": "working", "done": "completed"}}})"),
        &error);
    QVERIFY2(a, qPrintable(error));
    QVERIFY(a->statusArguments({QStringLiteral("j1"), QStringLiteral("j2")})
            == json({{"job_ids", {"j1", "j2"}}}));
    QVERIFY(a->statusArguments({QStringLiteral("j1")}) == json({{"job_id", "j1"}}));
    const json result = json::parse(R"({"structuredContent": {"jobs": [
        {"state": "RUNNING", "progress": 0.25, "message": "iteration 5"},
        {"state": "done", "message": "finished"}]}})");
    json parsed;
    const json &list = jsonAt(a->statusPayload(result, parsed), a->batchResultPointer);
    QVERIFY(list.is_array());
    const JobAdapter::Status first = a->mapStatus(list[0]);
    QVERIFY(first.status == Eddy::Mcp::TaskStatus::Working);
    QCOMPARE(first.message, QStringLiteral("25 % iteration 5"));
    QVERIFY(a->mapStatus(list[1]).status == Eddy::Mcp::TaskStatus::Completed);
    QCOMPARE(a->jobIdFrom(json({{"structuredContent", {{"job_id", "abc"}}}})),
             QStringLiteral("abc"));
    QVERIFY(a->jobIdFrom(json({{"content", json::array()}})).isEmpty());
}

void tst_JobAdapter::learnsWhereTheJobIdIs()
{
    JobAdapter a;
    a.submitTool = QStringLiteral("startSimulation");
    a.statusTool = QStringLiteral("simulationStatus");
    a.idArgument = QStringLiteral("jobId");
    a.jobIdPointer = QStringLiteral("/jobId");
    a.jobIdRegex = QStringLiteral("(?:jobId|\\bid)\\W+(\\w+)");
    a.states[QStringLiteral("done")] = QStringLiteral("completed");
    const json nested = json::parse(R"({"content": [{"type": "text", "text": "queued"}],
        "structuredContent": {"queue": {"name": "q1"}, "job": {"id": "sim-42", "position": 3}}})");
    QVERIFY(a.jobIdFrom(nested).isEmpty());
    QVERIFY2(!a.learnedFrom(nested), "an adapter the engineer wrote does not guess");

    a.learnJobId = true;
    std::optional<JobAdapter> l = a.learnedFrom(nested);
    QVERIFY(l);
    QCOMPARE(l->jobIdPointer, QStringLiteral("/job/id"));
    QVERIFY(!l->learnJobId);
    QCOMPARE(l->jobIdFrom(nested), QStringLiteral("sim-42"));

    // The status tool's own argument name wins over a plain "id" deeper down.
    const json both = json::parse(R"({"structuredContent": {"run": {"id": "r-1"}, "jobId": 77}})");
    QVERIFY(a.jobIdFrom(both) == QStringLiteral("77")); // the pointer reads it: nothing to learn
    QCOMPARE(a.learnedFrom(both)->jobIdPointer, QStringLiteral("/jobId"));

    // Only in the text.
    const json text = json::parse(
        R"({"content": [{"type": "text", "text": "Simulation \"a b\" queued as job sim-7f3a (position 2)."}]})");
    l = a.learnedFrom(text);
    QVERIFY(l);
    QCOMPARE(l->jobIdFrom(text), QStringLiteral("sim-7f3a"));
    const json jobIdWords = json::parse(R"({"content": [{"type": "text", "text": "Job ID: 4711"}]})");
    QCOMPARE(a.learnedFrom(jobIdWords)->jobIdFrom(jobIdWords), QStringLiteral("4711"));

    // Nothing that reads as an id: nothing learned (the call is stored as a plain result).
    for (const char *none : {R"({"content": [{"type": "text", "text": "job accepted"}]})",
                             R"({"structuredContent": {"job": {"state": "queued"}}})",
                             R"({"structuredContent": {"id": "two words"}})"})
        QVERIFY2(!a.learnedFrom(json::parse(none)), none);

    // Stored and read back: the flag round-trips, and a non-boolean is refused.
    QString error;
    const std::optional<JobAdapter> back = JobAdapter::fromJson(a.toJson(), &error);
    QVERIFY2(back && back->learnJobId, qPrintable(error));
    json bad = a.toJson();
    bad["submit"]["learnJobId"] = "yes";
    QVERIFY(!JobAdapter::fromJson(bad, &error));
    QVERIFY2(error.contains(QLatin1String("learnJobId")), qPrintable(error));
}

QTEST_GUILESS_MAIN(tst_JobAdapter)
#include "tst_jobadapter.moc"
