// The job adapter's readers on the status poll's path: JSON pointer lookups (RFC 6901, walked
// without building a json_pointer, answering a reference into the document) and the status
// payload of a CallToolResult, structured or as JSON text.
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

QTEST_GUILESS_MAIN(tst_JobAdapter)
#include "tst_jobadapter.moc"
