#include "app/mcp/taskreplyparser.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;

// The SAX reading of a tasks/get answer must give exactly what the full parser gives for the
// shapes it takes, and decline every other shape so the full parser (and its errors) runs.
class tst_TaskReplyParser : public QObject
{
    Q_OBJECT

private slots:
    void sameAsFullParser_data();
    void sameAsFullParser();
    void declines_data();
    void declines();
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
