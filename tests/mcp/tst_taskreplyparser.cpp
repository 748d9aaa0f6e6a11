#include "app/mcp/taskreplyparser.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;

// The SAX reading of a tasks/get answer must give exactly what the full parser gives for the
// shapes it takes, and decline every other shape so the full parser (and its errors) runs. The
// elicitation forms it keeps as the exact bytes received (RawJson), read as a tree on demand.
class tst_TaskReplyParser : public QObject
{
    Q_OBJECT

private slots:
    void sameAsFullParser_data();
    void sameAsFullParser();
    void declines_data();
    void declines();
    void formKeptByteExact_data();
    void formKeptByteExact();
    void rawJsonValue();
    void isoTimes_data();
    void isoTimes();
};

namespace {

const std::string kId = "a1b2c3d4e5f6";

QByteArray envelope(const json &result, const json &id = 7)
{
    return QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump());
}

bool fast(const QByteArray &body, TaskState *state, qint64 id = 7, const std::string &taskId = kId)
{
    return TaskReplyParser::parseGetResponse(std::string_view(body.constData(), size_t(body.size())),
                                             id, taskId, state);
}

} // namespace

void tst_TaskReplyParser::sameAsFullParser_data()
{
    QTest::addColumn<QByteArray>("result");
    const json base = {{"taskId", kId}, {"status", "working"}, {"createdAt", "2026-11-29T23:38:18.123Z"},
                       {"lastUpdatedAt", "2026-11-29T23:40:01.007Z"}, {"ttlMs", 3600000},
                       {"pollIntervalMs", 500}, {"statusMessage", "iteration 10 of 300, residual 1.2e-3"}};
    auto row = [](const char *name, const json &j) { QTest::newRow(name) << QByteArray::fromStdString(j.dump()); };
    row("server working", base);
    json j = base;
    j["resultType"] = "complete";
    row("resultType complete", j);
    j["resultType"] = "task";
    row("resultType task (tolerated)", j);
    j = base;
    j["_meta"] = {{"io.modelcontextprotocol/related-task", {{"taskId", kId}}}, {"list", {1, 2, {{"x", 1}}}}};
    row("_meta skipped whole", j);
    j = base;
    j.erase("ttlMs");
    j["ttl"] = 1000;
    j.erase("pollIntervalMs");
    j["pollInterval"] = 250.0;
    row("2025 spellings, float interval", j);
    j = base;
    j["ttl"] = 5;
    j["ttlMs"] = nullptr;
    row("modern null wins over legacy", j);
    j = base;
    j["status"] = "cancelled";
    j.erase("pollIntervalMs");
    row("cancelled", j);
    j = base;
    j["statusMessage"] = "Gr\u00fc\u00dfe \u2192 \"quoted\"\n";
    j["createdAt"] = "2026-11-29T23:38:18+01:00";
    j["lastUpdatedAt"] = 17;
    j["extra"] = true;
    row("non-ASCII message, offset time, odd fields", j);
    j = base;
    j.erase("statusMessage");
    j.erase("createdAt");
    row("minimal", j);
    j = base;
    j["status"] = "input_required";
    j["inputRequests"] = {{"mesh-1", {{"method", "elicitation/create"},
                                      {"params", {{"mode", "form"}, {"message", "Repair?"},
                                                  {"requestedSchema", {{"type", "object"},
                                                                       {"properties", {{"action", {{"enum", {"repair", "abort"}}}}}},
                                                                       {"required", {"action"}}}}}}}},
                          {"k2", json::object()}};
    row("input_required with forms", j);
    j.erase("inputRequests");
    row("input_required without inputRequests", j);
    j = base;
    j["inputRequests"] = {{"stale", 1}};
    row("inputRequests ignored while working", j);
}

void tst_TaskReplyParser::sameAsFullParser()
{
    QFETCH(QByteArray, result);
    const json parsed = json::parse(result.toStdString());
    const TaskState full = TaskState::parse(parsed, Era::Modern, TaskState::Source::GetResult);
    QVERIFY(full.isValid());
    TaskState state;
    QVERIFY(fast(envelope(parsed), &state));
    QCOMPARE(state.taskId, full.taskId);
    QVERIFY(state.status == full.status);
    QCOMPARE(state.statusMessage, full.statusMessage);
    QCOMPARE(state.createdAt, full.createdAt);
    QCOMPARE(state.createdAt.isValid(), full.createdAt.isValid());
    QCOMPARE(state.lastUpdatedAt, full.lastUpdatedAt);
    QCOMPARE(state.ttlMs, full.ttlMs);
    QCOMPARE(state.pollIntervalMs, full.pollIntervalMs);
    QVERIFY(state.inputRequests == full.inputRequests);
    QVERIFY(state.result.is_null() && state.error.is_null());
}

void tst_TaskReplyParser::declines_data()
{
    QTest::addColumn<QByteArray>("body");
    const json task = {{"taskId", kId}, {"status", "working"}, {"pollIntervalMs", 500}};
    auto with = [&](const char *key, const json &value) {
        json j = task;
        j[key] = value;
        return envelope(j);
    };
    json j = task;
    j["status"] = "input_required";
    j["inputRequests"] = nullptr;
    QTest::newRow("inputRequests null") << envelope(j);
    j["inputRequests"] = json::array({1});
    QTest::newRow("inputRequests array") << envelope(j);
    j = task;
    j["status"] = "completed";
    j["result"] = {{"content", json::array()}};
    QTest::newRow("completed with result") << envelope(j);
    QTest::newRow("failed") << with("status", "failed");
    QTest::newRow("unknown status") << with("status", "paused");
    QTest::newRow("wrong resultType") << with("resultType", "input_required");
    QTest::newRow("ttl not a number") << with("ttlMs", "soon");
    QTest::newRow("negative float interval") << with("pollIntervalMs", -1.5);
    QTest::newRow("other task") << envelope(json{{"taskId", "zzz"}, {"status", "working"}});
    QTest::newRow("empty taskId") << envelope(json{{"taskId", ""}, {"status", "working"}});
    QTest::newRow("no status") << envelope(json{{"taskId", kId}});
    QTest::newRow("nested task") << envelope(json{{"task", task}});
    QTest::newRow("wrong id") << envelope(task, 8);
    QTest::newRow("string id") << envelope(task, "7");
    QTest::newRow("error") << QByteArray(R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no"}})");
    QTest::newRow("no jsonrpc") << QByteArray::fromStdString(json{{"id", 7}, {"result", task}}.dump());
    QTest::newRow("jsonrpc 1.0") << QByteArray::fromStdString(json{{"jsonrpc", "1.0"}, {"id", 7}, {"result", task}}.dump());
    QTest::newRow("result not object") << QByteArray(R"({"jsonrpc":"2.0","id":7,"result":[1]})");
    QTest::newRow("truncated") << envelope(task).chopped(3);
    QTest::newRow("trailing garbage") << envelope(task) + "x";
    const QByteArray bad = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"working","statusMessage":"\xff\xfe"}})";
    QTest::newRow("invalid UTF-8") << bad;
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("two results") << QByteArray(R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"working"},"result":{"taskId":"a1b2c3d4e5f6","status":"working"}})");
}

void tst_TaskReplyParser::declines()
{
    QFETCH(QByteArray, body);
    TaskState state;
    QVERIFY(!fast(body, &state));
}

void tst_TaskReplyParser::formKeptByteExact_data()
{
    QTest::addColumn<QByteArray>("form"); // the inputRequests member exactly as a server sends it
    QTest::addColumn<QByteArray>("after"); // what follows it up to the end of the result object
    const QByteArray mesh = R"({"mesh_repair_1":{"method":"elicitation/create","params":{"mode":"form",)"
                            R"("message":"12 cells fail the aspect ratio check.","requestedSchema":{"type":"object",)"
                            R"("properties":{"action":{"type":"string","enum":["repair","abort"]},)"
                            R"("smoothing_passes":{"type":"integer","default":5,"minimum":1}},"required":["action"]}}}})";
    QTest::newRow("server's form, last member") << mesh << QByteArray("}");
    QTest::newRow("server's form, then more members") << mesh << QByteArray(R"(,"pollIntervalMs":500,"ttlMs":null})");
    QTest::newRow("spaces and newlines kept")
        << QByteArray("{ \"k\" :\n  { \"method\" : \"elicitation/create\" ,\r\n \"params\" : { } }\t}")
        << QByteArray("  \n}");
    QTest::newRow("number right before the closing braces") << QByteArray(R"({"k":{"n":1}})") << QByteArray("}");
    QTest::newRow("float and exponent as written")
        << QByteArray(R"({"k":{"tolerance":1.0E-14,"big":12345678901234567890,"neg":-0.50}})") << QByteArray(" }");
    QTest::newRow("requestState-like strings")
        << QByteArray(R"({"k":{"params":{"requestState":"eyJ0YXNrIjoiYWJjIn0+/=","quote":"a \"b\" \\ c\/d","ctl":"\t\n\u0001"}}})")
        << QByteArray("}");
    QTest::newRow("unicode escaped and raw")
        << QByteArray("{\"k\":{\"message\":\"Gr\\u00fc\\u00dfe \\ud83c\\udf00 \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x8c\x80\"}}")
        << QByteArray("}");
    QTest::newRow("deeply nested, arrays, braces in strings")
        << QByteArray(R"({"a":{"b":[{"c":[[],[{}],{"d":"}{][\"}"}]}],"e":{"f":{"g":{"h":true,"i":null,"j":false}}}},"z":{}})")
        << QByteArray(R"(,"_meta":{"x":[1,{"y":2}]}})");
    QTest::newRow("keys out of order, duplicate key") << QByteArray(R"({"z":{},"a":{"n":1},"a":{"n":2}})") << QByteArray("}");
    QTest::newRow("empty object") << QByteArray("{}") << QByteArray("}");
}

void tst_TaskReplyParser::formKeptByteExact()
{
    QFETCH(QByteArray, form);
    QFETCH(QByteArray, after);
    const QByteArray body = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"input_required",)"
                            R"("statusMessage":"waiting","inputRequests":)"
                            + form + after + "}";
    TaskState state;
    QVERIFY2(fast(body, &state), body.constData());
    QVERIFY(state.inputRequests.is_object());
    const std::string_view text = state.inputRequests.text();
    QCOMPARE(QByteArray(text.data(), qsizetype(text.size())), form); // byte for byte
    const json expected = json::parse(form.toStdString());
    QVERIFY(state.inputRequests.parsed() == expected);
    QVERIFY(state.inputRequests == expected);
    QCOMPARE(state.inputRequests.size(), expected.size());
    // The full parser gets the same value (its text is the tree's dump, compared as JSON).
    const json doc = json::parse(body.toStdString());
    const TaskState full = TaskState::parse(doc["result"], Era::Modern, TaskState::Source::GetResult);
    QVERIFY(full.isValid());
    QVERIFY(state.inputRequests == full.inputRequests);
    QCOMPARE(std::string(full.inputRequests.text()), expected.dump());
    QCOMPARE(state.statusMessage, std::optional<QString>(QStringLiteral("waiting")));
}

void tst_TaskReplyParser::rawJsonValue()
{
    const RawJson none;
    QVERIFY(none.is_null() && !none.is_object() && none.text().empty());
    QVERIFY(none.parsed().is_null() && none.tree().is_null());
    QVERIFY(RawJson::fromText(" null ").is_null());
    QVERIFY(RawJson::fromText(" \r\n\t").is_null());
    QVERIFY(RawJson::fromText("").is_null());
    QVERIFY(none == RawJson(nullptr));

    const RawJson a = RawJson::fromText(" {\"b\": [1, 2], \"a\": \"\\u00e9\"}\n");
    QCOMPARE(std::string(a.text()), std::string(R"({"b": [1, 2], "a": "\u00e9"})")); // trimmed only
    QVERIFY(a.is_object());
    QVERIFY(a.contains("a") && a.contains("b") && !a.contains("c"));
    QCOMPARE(a["a"].get<std::string>(), std::string("\xc3\xa9"));
    QCOMPARE(a.size(), size_t(2));
    // Same value, other spelling: equal; another value: not.
    const RawJson b = RawJson::fromText(R"({"a":"\u00e9","b":[1,2]})");
    QVERIFY(a == b && b == a);
    QVERIFY(!(a == RawJson::fromText(R"({"a":"e","b":[1,2]})")));
    QVERIFY(!(a == none) && !(none == a));
    // The tree is built once and shared by copies; parsed() is a fresh tree every time.
    const RawJson copy = a;
    QCOMPARE(&copy.tree(), &a.tree());
    QCOMPARE(copy.text().data(), a.text().data());
    QVERIFY(a.parsed() == a.tree());
    // Assigned from a tree (what the full parser and the 2025 adapter do): its compact dump.
    RawJson fromTree;
    fromTree = json{{"k", {{"x", 1}}}};
    QCOMPARE(std::string(fromTree.text()), std::string(R"({"k":{"x":1}})"));
    const json &asTree = fromTree; // still readable where a json is expected
    QVERIFY(asTree["k"]["x"] == 1);
    fromTree = nullptr;
    QVERIFY(fromTree.is_null());
    fromTree = json();
    QVERIFY(fromTree.is_null());
}

void tst_TaskReplyParser::isoTimes_data()
{
    QTest::addColumn<QByteArray>("text");
    for (const char *t : {"2026-11-29T23:38:18.123Z", "2026-11-29T23:38:18Z", "2026-02-30T00:00:00Z",
                          "2026-11-29T23:38:18.1Z", "2026-11-29T23:38:18+02:00", "2026-11-29 23:38:18Z",
                          "not a time", "", "2026-11-29T24:00:00.000Z"})
        QTest::newRow(t) << QByteArray(t);
}

void tst_TaskReplyParser::isoTimes()
{
    QFETCH(QByteArray, text);
    const QDateTime expected = QDateTime::fromString(QString::fromUtf8(text), Qt::ISODateWithMs);
    const QDateTime got = TaskReplyParser::parseIsoTime(std::string_view(text.constData(), size_t(text.size())));
    QCOMPARE(got.isValid(), expected.isValid());
    QCOMPARE(got, expected);
    if (expected.isValid())
        QCOMPARE(got.toMSecsSinceEpoch(), expected.toMSecsSinceEpoch());
}

QTEST_GUILESS_MAIN(tst_TaskReplyParser)
#include "tst_taskreplyparser.moc"
