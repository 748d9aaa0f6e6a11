#include "app/mcp/discoverinfo.h"
#include "app/mcp/error.h"
#include "app/mcp/taskstate.h"
#include "app/mcp/tracecontext.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;
using Source = TaskState::Source;

// Every task/result shape of the spec digest (§2, §3) and its quirks (§5, §6), parsed into the
// one normalised TaskState; the error value's mapping; trace context format.
class tst_Messages : public QObject
{
    Q_OBJECT

private slots:
    void modernCreateTaskResult();
    void modernCreateIgnoresContent();
    void modernGet_data();
    void modernGet();
    void completedResultWithOrWithoutResultType();
    void completedResultWithWrongResultType();
    void legacyNestedCreate();
    void legacyFlatGetAndNotification();
    void legacyToolErrorBecomesCompleted();
    void legacyJsonRpcErrorBecomesFailed();
    void invalidTasks_data();
    void invalidTasks();
    void badNumbersFieldByField();
    void statusStrings();
    void errorMapping();
    void staleCapabilityCode();
    void retryAfter();
    void traceContext();
    void discoverOffersTasks();
};

void tst_Messages::modernCreateTaskResult()
{
    const json r = json::parse(R"({"resultType":"task","taskId":"786512e2-9e0d-44bd-8f29-789f320fe840",
        "status":"working","statusMessage":"The operation is now in progress.",
        "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z",
        "ttlMs":60000,"pollIntervalMs":5000})");
    QString error;
    const TaskState t = TaskState::parse(r, Era::Modern, Source::CreateResult, &error);
    QVERIFY2(t.isValid(), qPrintable(error));
    QCOMPARE(t.taskId, std::string("786512e2-9e0d-44bd-8f29-789f320fe840"));
    QVERIFY(t.status == TaskStatus::Working);
    QCOMPARE(t.statusMessage.value_or(QString()), QStringLiteral("The operation is now in progress."));
    QCOMPARE(t.createdAt, QDateTime(QDate(2025, 11, 25), QTime(10, 30), Qt::UTC));
    QCOMPARE(t.lastUpdatedAt, QDateTime(QDate(2025, 11, 25), QTime(10, 40), Qt::UTC));
    QCOMPARE(t.ttlMs.value_or(-1), 60000);
    QCOMPARE(t.pollIntervalMs.value_or(-1), 5000);
    QVERIFY(t.inputRequests.is_null());
    QVERIFY(!t.isTerminal());
    QVERIFY(!t.hasPayload());
}

void tst_Messages::modernCreateIgnoresContent()
{
    // The v2 SDK may add content: [] to a CreateTaskResult; resultType decides, not content.
    const json r = json::parse(R"({"resultType":"task","content":[],"taskId":"abc","status":"working",
        "createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null})");
    const TaskState t = TaskState::parse(r, Era::Modern, Source::CreateResult);
    QVERIFY(t.isValid());
    QVERIFY(!t.ttlMs.has_value()); // null = unlimited
    QVERIFY(!t.pollIntervalMs.has_value());
    QVERIFY(t.result.is_null());
}

void tst_Messages::modernGet_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("toolError");
    QTest::addColumn<bool>("payload");
    const QByteArray head = R"("taskId":"t1","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttlMs":3600000,"pollIntervalMs":5000)";
    QTest::newRow("working") << "{\"resultType\":\"complete\"," + head + ",\"status\":\"working\"}"
                             << int(TaskStatus::Working) << false << false;
    QTest::newRow("input_required")
        << "{\"resultType\":\"complete\"," + head + R"(,"status":"input_required","inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}})"
        << int(TaskStatus::InputRequired) << false << false;
    QTest::newRow("completed")
        << "{\"resultType\":\"complete\"," + head + R"(,"status":"completed","result":{"content":[{"type":"text","text":"Hello, Luca!"}],"isError":false}})"
        << int(TaskStatus::Completed) << false << true;
    QTest::newRow("completed isError (spec example with resultType task)")
        << "{\"resultType\":\"task\"," + head + R"(,"status":"completed","result":{"content":[{"type":"text","text":"boom"}],"isError":true}})"
        << int(TaskStatus::Completed) << true << true;
    QTest::newRow("failed")
        << "{\"resultType\":\"complete\"," + head + R"(,"status":"failed","statusMessage":"Tool execution failed: API rate limit exceeded","error":{"code":-32603,"message":"API rate limit exceeded"}})"
        << int(TaskStatus::Failed) << false << true;
    QTest::newRow("cancelled") << "{\"resultType\":\"complete\"," + head + ",\"status\":\"cancelled\"}"
                               << int(TaskStatus::Cancelled) << false << false;
    QTest::newRow("notification with subscription meta stripped by caller")
        << "{" + head + R"(,"status":"completed","result":{"content":[],"isError":false}})"
        << int(TaskStatus::Completed) << false << true;
}

void tst_Messages::modernGet()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(bool, toolError);
    QFETCH(bool, payload);
    QString error;
    const TaskState t = TaskState::parse(json::parse(body.toStdString()), Era::Modern, Source::GetResult, &error);
    QVERIFY2(t.isValid(), qPrintable(error));
    QCOMPARE(int(t.status), status);
    QCOMPARE(t.isToolError(), toolError);
    QCOMPARE(t.hasPayload(), payload);
    if (t.status == TaskStatus::InputRequired) {
        QVERIFY(t.inputRequests.is_object());
        QVERIFY(t.inputRequests["name"]["method"] == json("elicitation/create"));
    }
    if (t.status == TaskStatus::Failed) {
        QCOMPARE(t.error["code"].get<int>(), -32603);
        QVERIFY(!t.isToolError()); // failed is a JSON-RPC error, never a tool error
    }
}

void tst_Messages::completedResultWithOrWithoutResultType()
{
    for (const char *inner : {R"({"content":[],"isError":false})",
                              R"({"resultType":"complete","content":[],"isError":false})"}) {
        json r = json::parse(R"({"resultType":"complete","taskId":"x","status":"completed","ttlMs":1})");
        r["result"] = json::parse(inner);
        const TaskState t = TaskState::parse(r, Era::Modern, Source::GetResult);
        QVERIFY(t.isValid());
        QVERIFY(t.hasPayload());
    }
}

void tst_Messages::completedResultWithWrongResultType()
{
    json r = json::parse(R"({"taskId":"x","status":"completed","ttlMs":1,"result":{"resultType":"input_required"}})");
    QString error;
    QVERIFY(!TaskState::parse(r, Era::Modern, Source::GetResult, &error).isValid());
    QVERIFY(error.contains(QLatin1String("resultType")));
}

void tst_Messages::legacyNestedCreate()
{
    const json r = json::parse(R"({"task":{"taskId":"786512e2","status":"working",
        "statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z",
        "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000},
        "_meta":{"io.modelcontextprotocol/model-immediate-response":"started"}})");
    const TaskState t = TaskState::parse(r, Era::Legacy, Source::CreateResult);
    QVERIFY(t.isValid());
    QCOMPARE(t.taskId, std::string("786512e2"));
    QCOMPARE(t.ttlMs.value_or(-1), 60000);
    QCOMPARE(t.pollIntervalMs.value_or(-1), 5000);
    // The nesting is only valid as a tools/call answer.
    QVERIFY(!TaskState::parse(r, Era::Legacy, Source::GetResult).isValid());
}

void tst_Messages::legacyFlatGetAndNotification()
{
    const json r = json::parse(R"({"taskId":"abc","status":"input_required","createdAt":"2025-11-25T10:30:00Z",
        "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":null,"pollInterval":250})");
    const TaskState t = TaskState::parse(r, Era::Legacy, Source::GetResult);
    QVERIFY(t.isValid());
    QVERIFY(t.status == TaskStatus::InputRequired);
    QVERIFY(t.inputRequests.is_null()); // 2025 carries the question on tasks/result instead
    QVERIFY(!t.ttlMs.has_value());
    QCOMPARE(t.pollIntervalMs.value_or(-1), 250);
    const TaskState n = TaskState::parse(json::parse(R"({"taskId":"abc","status":"completed","ttl":5})"),
                                         Era::Legacy, Source::Notification);
    QVERIFY(n.isValid());
    QVERIFY(!n.hasPayload()); // legacy notifications never carry the result
}

void tst_Messages::legacyToolErrorBecomesCompleted()
{
    TaskState t = TaskState::parse(json::parse(R"({"taskId":"abc","status":"failed","ttl":5})"),
                                   Era::Legacy, Source::GetResult);
    QVERIFY(t.isValid());
    t.applyLegacyPayload(json::parse(R"({"content":[{"type":"text","text":"bad grid"}],"isError":true,
        "_meta":{"io.modelcontextprotocol/related-task":{"taskId":"abc"}}})"), json());
    QVERIFY(t.status == TaskStatus::Completed);
    QVERIFY(t.isToolError());
    QVERIFY(t.error.is_null());
    QVERIFY(!t.result.contains("_meta")); // the related-task tag is transport, not result
}

void tst_Messages::legacyJsonRpcErrorBecomesFailed()
{
    TaskState t = TaskState::parse(json::parse(R"({"taskId":"abc","status":"failed","ttl":5})"),
                                   Era::Legacy, Source::GetResult);
    t.applyLegacyPayload(json(), json::parse(R"({"code":-32603,"message":"solver crashed"})"));
    QVERIFY(t.status == TaskStatus::Failed);
    QVERIFY(t.error["message"] == json("solver crashed"));
    QVERIFY(t.hasPayload());
}

void tst_Messages::invalidTasks_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("not an object") << QByteArray("[1]");
    QTest::newRow("no taskId") << QByteArray(R"({"status":"working"})");
    QTest::newRow("empty taskId") << QByteArray(R"({"taskId":"","status":"working"})");
    QTest::newRow("numeric taskId") << QByteArray(R"({"taskId":5,"status":"working"})");
    QTest::newRow("unknown status") << QByteArray(R"({"taskId":"a","status":"paused"})");
    QTest::newRow("inputRequests array") << QByteArray(R"({"taskId":"a","status":"input_required","inputRequests":[]})");
    QTest::newRow("result string") << QByteArray(R"({"taskId":"a","status":"completed","result":"done"})");
    QTest::newRow("error string") << QByteArray(R"({"taskId":"a","status":"failed","error":"bad"})");
}

void tst_Messages::invalidTasks()
{
    QFETCH(QByteArray, body);
    QString error;
    const TaskState t = TaskState::parse(json::parse(body.toStdString()), Era::Modern, Source::GetResult, &error);
    QVERIFY(!t.isValid());
    QVERIFY(!error.isEmpty());
}

void tst_Messages::badNumbersFieldByField()
{
    // A numeric field of the wrong type or range is clamped or ignored with a warning; the rest
    // of the task stays readable.
    const auto parse = [](const char *body) {
        return TaskState::parse(json::parse(body), Era::Modern, Source::GetResult);
    };
    TaskState t = parse(R"({"taskId":"a","status":"working","ttlMs":"soon","pollIntervalMs":500,"statusMessage":"m"})");
    QVERIFY(t.isValid());
    QVERIFY(!t.ttlMs);
    QCOMPARE(t.pollIntervalMs.value_or(0), 500);
    QCOMPARE(t.statusMessage.value_or(QString()), QStringLiteral("m"));
    QCOMPARE(t.warnings.size(), 1);
    QVERIFY(t.warnings[0].contains(QStringLiteral("ttlMs")));
    t = parse(R"({"taskId":"a","status":"working","ttlMs":60000,"pollIntervalMs":-5})");
    QVERIFY(t.isValid());
    QCOMPARE(t.ttlMs.value_or(0), 60000);
    QCOMPARE(t.pollIntervalMs.value_or(-1), 0);
    QCOMPARE(t.warnings.size(), 1);
    t = parse(R"({"taskId":"a","status":"working","pollIntervalMs":1e308,"ttlMs":{"x":1}})");
    QVERIFY(t.isValid());
    QVERIFY(t.pollIntervalMs.value_or(0) >= qint64(9e15));
    QVERIFY(!t.ttlMs);
    QCOMPARE(t.warnings.size(), 2);
    t = parse(R"({"taskId":"a","status":"working","pollIntervalMs":250,"ttlMs":null})");
    QVERIFY(t.warnings.isEmpty());
}

void tst_Messages::statusStrings()
{
    for (TaskStatus s : {TaskStatus::Working, TaskStatus::InputRequired, TaskStatus::Completed,
                         TaskStatus::Failed, TaskStatus::Cancelled})
        QVERIFY(taskStatusFromString(toString(s).toStdString()).value() == s);
    QVERIFY(!taskStatusFromString("Working").has_value()); // values are case-sensitive
    QVERIFY(isTerminal(TaskStatus::Cancelled));
    QVERIFY(!isTerminal(TaskStatus::InputRequired));
}

void tst_Messages::errorMapping()
{
    const Error gone = Error::fromJsonRpcObject(json::parse(R"({"code":-32602,"message":"Failed to retrieve task: Task has expired"})"),
                                                QStringLiteral("tasks/get"), 200);
    QVERIFY(gone.isTaskGone());
    QVERIFY(!gone.isTransient());
    QVERIFY(gone.message().contains(QLatin1String("expired")));
    QCOMPARE(gone.httpStatus(), 200);
    const Error badArgs = Error::fromJsonRpcObject(json::parse(R"({"code":-32602,"message":"Unknown tool"})"),
                                                   QStringLiteral("tools/call"));
    QVERIFY(!badArgs.isTaskGone());
    const Error tasks = Error::fromJsonRpcObject(json::parse(R"({"code":-32021,"message":"Missing",
        "data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}})"),
                                                 QStringLiteral("tools/call"), 400);
    QVERIFY(tasks.message().contains(QLatin1String("Tasks extension")));
    const Error header = Error::fromJsonRpcObject(json::parse(R"({"code":-32020,"message":"Header mismatch"})"),
                                                  QStringLiteral("tasks/get"), 400);
    QVERIFY(header.message().contains(QLatin1String("stripped")));
    QVERIFY(header.message().contains(QLatin1String("Mcp-Name")));
    const Error version = Error::fromJsonRpcObject(json::parse(R"({"code":-32022,"message":"x","data":{"supported":["2031-01-01"]}})"),
                                                   QStringLiteral("tools/list"), 400);
    QVERIFY(version.message().contains(QLatin1String("2031-01-01")));
    QVERIFY(!Error::fromJsonRpcObject(json::parse(R"({"message":"no code"})"), QStringLiteral("x")).isOk());
    QVERIFY(Error::fromJsonRpcObject(json::parse(R"({"message":"no code"})"), QStringLiteral("x")).kind()
            == Error::Kind::Protocol);
    // A code wider than 32 bits is not cut to another: 4294934694 would read as -32602, "gone".
    for (const char *wide : {R"({"code":4294934694,"message":"x"})", R"({"code":-55555555555555,"data":{"taskId":"b7f3"}})",
                             R"({"code":18446744073709551615})"}) {
        const Error e = Error::fromJsonRpcObject(json::parse(wide), QStringLiteral("tasks/get"), 200);
        QVERIFY2(e.kind() == Error::Kind::Protocol, wide);
        QVERIFY2(!e.isTaskGone(), wide);
        QVERIFY2(e.message().contains(QLatin1String("not a 32-bit integer")), qPrintable(e.message()));
    }
    QCOMPARE(Error::fromJsonRpcObject(json::parse(R"({"code":-2147483648})"), QStringLiteral("x")).code(), -2147483647 - 1);

    QVERIFY(Error::transport(QStringLiteral("reset")).isTransient());
    QVERIFY(Error::timeout(QStringLiteral("slow")).isTransient());
    QVERIFY(Error::http(429, QString()).isTransient());
    QVERIFY(Error::http(503, QString()).isTransient());
    QVERIFY(!Error::http(401, QString()).isTransient());
    QVERIFY(!Error::protocol(QStringLiteral("bad")).isTransient());
    QVERIFY(Error().isOk());
}

void tst_Messages::staleCapabilityCode()
{
    const Error e = Error::fromJsonRpcObject(json::parse(R"({"code":-32003,"message":"Missing required client capability",
        "data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}})"),
                                             QStringLiteral("tools/call"));
    QCOMPARE(e.code(), ErrorCode::MissingRequiredClientCapability);
    // Without requiredCapabilities -32003 is just a legacy implementation-defined code.
    const Error other = Error::fromJsonRpcObject(json::parse(R"({"code":-32003,"message":"x"})"),
                                                 QStringLiteral("tools/call"));
    QCOMPARE(other.code(), -32003);
}

void tst_Messages::retryAfter()
{
    QCOMPARE(Error::parseRetryAfter("7"), 7000);
    QCOMPARE(Error::parseRetryAfter(" 0 "), 0);
    QCOMPARE(Error::parseRetryAfter(""), -1);
    QCOMPARE(Error::parseRetryAfter("-3"), -1);
    QCOMPARE(Error::parseRetryAfter("soon"), -1);
    QCOMPARE(Error::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), 0); // in the past
    const QByteArray future = QLocale::c().toString(QDateTime::currentDateTimeUtc().addSecs(120),
                                                    QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'")).toLatin1();
    const qint64 ms = Error::parseRetryAfter(future);
    QVERIFY2(ms > 100000 && ms <= 120000, qPrintable(QString::number(ms)));
}

void tst_Messages::traceContext()
{
    const TraceContext a = TraceContext::create();
    QVERIFY(a.isValid());
    const QByteArray p1 = a.newTraceparent();
    const QByteArray p2 = a.newTraceparent();
    QVERIFY(TraceContext::isValidTraceparent(p1));
    QVERIFY(TraceContext::isValidTraceparent(p2));
    QCOMPARE(p1.mid(3, 32), a.traceId()); // same trace for every request of a task
    QVERIFY(p1.mid(36, 16) != p2.mid(36, 16)); // new span per request
    QVERIFY(TraceContext::create().traceId() != a.traceId());
    QCOMPARE(TraceContext::fromTraceparent(p1).traceId(), a.traceId());
    QVERIFY(TraceContext::isValidTraceparent("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"));
    QVERIFY(!TraceContext::isValidTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"));
    QVERIFY(!TraceContext::isValidTraceparent("00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01"));
    QVERIFY(!TraceContext::isValidTraceparent("garbage"));
    QVERIFY(!TraceContext::fromTraceId("xyz").isValid());
}

void tst_Messages::discoverOffersTasks()
{
    DiscoverInfo modern;
    modern.era = Era::Modern;
    modern.capabilities = json::parse(R"({"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}})");
    QVERIFY(modern.offersTasks());
    modern.capabilities = json::parse(R"({"tools":{}})");
    QVERIFY(!modern.offersTasks());
    DiscoverInfo legacy;
    legacy.era = Era::Legacy;
    legacy.capabilities = json::parse(R"({"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}})");
    QVERIFY(legacy.offersTasks());
    legacy.capabilities = json::parse(R"({"tasks":{"list":{}}})");
    QVERIFY(!legacy.offersTasks());
}

QTEST_GUILESS_MAIN(tst_Messages)
#include "tst_messages.moc"
