#include "app/mcp/jsonscanner.h"
#include "app/mcp/taskreplyparser.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;

// The single-pass reading of a tasks/get answer must give exactly what the full parser gives for
// the shapes it takes, and decline every other shape so the full parser (and its errors) runs;
// it is exactly as strict as nlohmann's JSON parser (each class of bad text has rows below). The
// elicitation forms it keeps as the exact bytes received (RawJson), read as a tree on demand.
class tst_TaskReplyParser : public QObject
{
    Q_OBJECT

private slots:
    void sameAsFullParser_data();
    void sameAsFullParser();
    void sameAsFullParserAsWritten_data();
    void sameAsFullParserAsWritten();
    void declines_data();
    void declines();
    void rejectsBadJson_data();
    void rejectsBadJson();
    void rejectsEveryTruncation();
    void depthLimit_data();
    void depthLimit();
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

// What the full parser makes of the result object of `body` (nlohmann's DOM, TaskState::parse).
TaskState fullParse(const QByteArray &body)
{
    const json doc = json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("result"))
        return {};
    return TaskState::parse(doc["result"], Era::Modern, TaskState::Source::GetResult);
}

void compareStates(const TaskState &state, const TaskState &full)
{
    QVERIFY(full.isValid());
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
    compareStates(state, full);
}

void tst_TaskReplyParser::sameAsFullParserAsWritten_data()
{
    // Bodies as a server might write them (no dump() in between): escapes, spacing, duplicates.
    QTest::addColumn<QByteArray>("body");
    const QByteArray head = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6",)";
    QTest::newRow("escaped keys and values")
        << QByteArray(R"({"json\u0072pc":"2.\u0030","id":7,"result":{"task\u0049d":"a1b2\u0063\u0033d4e5f6",)"
                      R"("status":"input\u005frequired","status\u004dessage":"Gr\u00fc\u00dfe \ud83c\udf00 \"q\" \\ \/ \b\f\n\r\t)"
                      "\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x8c\x80\x7f"
                      R"(","input\u0052equests":{"k\u0031":{"a":"\u0000"}},"created\u0041t":"2026-11-29T23:38:18.\u0031\u0032\u0033Z"}})");
    QTest::newRow("whitespace everywhere, BOM")
        << QByteArray("\xef\xbb\xbf \r\n\t{ \"jsonrpc\" :\"2.0\" ,\n\"id\"\t: 7 , \"result\" : { \"taskId\" : "
                      "\"a1b2c3d4e5f6\" , \"status\" : \"working\" , \"ttlMs\" : null } } \r\n\t ");
    QTest::newRow("numbers: -0, floats, exponents, 64-bit edges")
        << head + R"("status":"working","ttlMs":1.5e3,"pollIntervalMs":-0,"x":-9223372036854775808,)"
                  R"("y":9223372036854775807,"z":-9223372036854775809,"w":18446744073709551616,"v":1e-400,)"
                  R"("_meta":{"u":18446744073709551615,"f":-1.0E+308,"t":[true,false,null,{},[]]}}})";
    QTest::newRow("ttl as an exponent float") << head + R"("status":"working","ttlMs":2E+3,"pollIntervalMs":2.5}})";
    QTest::newRow("duplicate members: the last wins")
        << head + R"("status":"failed","statusMessage":"one","status":"working","statusMessage":null,)"
                  R"("ttlMs":5,"ttlMs":6,"createdAt":"2026-11-29T23:38:18Z","createdAt":7}})";
    QTest::newRow("duplicate inputRequests: the last one is kept")
        << head + R"("status":"input_required","inputRequests":{"a":{}},"inputRequests":{"b":{"n":1}}}})";
    QTest::newRow("duplicate id and jsonrpc: the last wins")
        << QByteArray(R"({"jsonrpc":"1.0","id":8,"result":{"taskId":"a1b2c3d4e5f6","status":"working"},"id":7,"jsonrpc":"2.0"})");
    QTest::newRow("long strings on every byte alignment")
        << head + R"("status":"working","statusMessage":"abcdefghijklmnopqrstuvwxyz0123456789\"abcdefghijklmnopqrstuvwxyz\\0123456789)"
                  "\xc3\xa9\xc3\xa9\xc3\xa9" R"(abcdefghijklmnopqrstuvwxyz","_meta":{"abcdefghijklmnopq\"rstuvwxyz":"0123456789abcdef\u00e9"}}})";
}

void tst_TaskReplyParser::sameAsFullParserAsWritten()
{
    QFETCH(QByteArray, body);
    QVERIFY(json::accept(body.constBegin(), body.constEnd()));
    TaskState state;
    QVERIFY2(fast(body, &state), body.constData());
    compareStates(state, fullParse(body));
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
    // The full parser clamps these with a warning; the one-pass reader leaves them to it.
    QTest::newRow("negative integer interval") << with("pollIntervalMs", -5);
    QTest::newRow("ttl beyond 9e15") << with("ttlMs", 9000000000000001LL);
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
    QTest::newRow("completed, result without resultType")
        << QByteArray(R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"completed","result":{"content":[]}}})");
    QTest::newRow("completed, result with resultType")
        << QByteArray(R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"completed","result":{"content":[],"resultType":"complete"}}})");
    QTest::newRow("stale -32003 error") << QByteArray(R"({"jsonrpc":"2.0","id":7,"error":{"code":-32003,"message":"missing capability"}})");
    // Kept from the SAX reader: nlohmann reads this as unsigned, a type the full parser judges.
    QTest::newRow("integer above INT64_MAX in an ignored member") << with("x", json(9223372036854775808ULL));
    QTest::newRow("array member") << with("x", json::array());
    QTest::newRow("object member") << with("x", json::object());
    QTest::newRow("_meta array") << with("_meta", json::array({1}));
    QTest::newRow("status not a string") << with("status", 1);
    QTest::newRow("taskId not a string") << with("taskId", 1);
    QTest::newRow("top-level array") << QByteArray("[") + envelope(task) + "]";
    QTest::newRow("top-level string") << QByteArray(R"("result")");
    // nlohmann stops reading at a NUL byte; this reader calls what follows trailing garbage.
    QTest::newRow("NUL, then bytes after the answer") << envelope(task) + QByteArray("\0x", 2);
    QTest::newRow("partial BOM") << QByteArray("\xef\xbb") + envelope(task);
    QTest::newRow("two results") << QByteArray(R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"working"},"result":{"taskId":"a1b2c3d4e5f6","status":"working"}})");
}

void tst_TaskReplyParser::declines()
{
    QFETCH(QByteArray, body);
    TaskState state;
    QVERIFY(!fast(body, &state));
}

void tst_TaskReplyParser::rejectsBadJson_data()
{
    // Each row: a snippet nlohmann accepts and one it refuses, of one class of bad JSON text. The
    // test puts both into every place of an answer that the reader would otherwise take.
    QTest::addColumn<bool>("isString"); // string contents, else a whole value
    QTest::addColumn<QByteArray>("good");
    QTest::addColumn<QByteArray>("bad");
    auto str = [](const char *name, const QByteArray &good, const QByteArray &bad) {
        QTest::newRow(name) << true << good << bad;
    };
    auto value = [](const char *name, const QByteArray &good, const QByteArray &bad) {
        QTest::newRow(name) << false << good << bad;
    };
    str("escape: unknown letter", R"(a\nb)", R"(a\xb)");
    str("escape: single quote", R"(a\/b)", R"(a\'b)");
    str("escape: \\u with a non-hex digit", R"(\u00e9)", R"(\u00eg)");
    str("escape: \\u cut short", R"(\u00e9)", R"(\u00e)");
    str("escape: lone high surrogate", R"(\ud83c\udf00)", R"(\ud83cx)");
    str("escape: high surrogate, then not a low one", R"(\ud83c\udf00)", R"(\ud83c\u0041)");
    str("escape: high surrogate, then a high one", R"(\udbff\udfff)", R"(\udbff\udbff)");
    str("escape: lone low surrogate", R"(\ud800\udc00)", R"(\udc00)");
    str("UTF-8: overlong 2 bytes (C0 80)", "\xc2\x80", "\xc0\x80");
    str("UTF-8: overlong 2 bytes (C1 BF)", "\xdf\xbf", "\xc1\xbf");
    str("UTF-8: overlong 3 bytes (E0 80 80)", "\xe0\xa0\x80", "\xe0\x80\x80");
    str("UTF-8: overlong 4 bytes (F0 80 80 80)", "\xf0\x90\x80\x80", "\xf0\x80\x80\x80");
    str("UTF-8: surrogate (ED A0 80)", "\xed\x9f\xbf", "\xed\xa0\x80");
    str("UTF-8: above U+10FFFF (F4 90 80 80)", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80");
    str("UTF-8: lead byte F5", "\xf3\xbf\xbf\xbf", "\xf5\x80\x80\x80");
    str("UTF-8: lead byte FF", "\xc3\xa9", "\xff");
    str("UTF-8: stray continuation byte", "\xc3\xa9", "\x80");
    str("UTF-8: sequence cut short", "\xe2\x86\x92", "\xe2\x86");
    str("UTF-8: ASCII where a continuation belongs", "\xe2\x86\x92", "\xe2\x41\x92");
    str("control character: tab", R"(\t)", "\t");
    str("control character: newline", R"(\n)", "\n");
    str("control character: 0x01", R"(\u0001)", "\x01");
    str("control character: 0x1F", R"(\u001f)", "\x1f");
    str("control character: NUL", R"(\u0000)", QByteArray("\0", 1));
    value("number: leading zero", "10", "010");
    value("number: minus alone", "-1", "-");
    value("number: plus sign", "1", "+1");
    value("number: no digit after the point", "1.5", "1.");
    value("number: point first", "0.5", ".5");
    value("number: empty exponent", "1e5", "1e");
    value("number: exponent sign only", "1e+5", "1e+");
    value("number: hex", "16", "0x10");
    value("number: overflows a double", "1e308", "1e309");
    value("number: negative overflow", "-1.7e308", "-1e400");
    value("number: 400-digit integer", QByteArray(300, '9'), QByteArray(400, '9'));
    value("number: NaN", "0", "NaN");
    value("number: Infinity", "-1", "-Infinity");
    value("literal: misspelt", "true", "tru");
    value("literal: capitalised", "null", "Null");
    value("literal: cut short", "false", "fals");
    value("structure: missing colon", R"({"a":1})", R"({"a" 1})");
    value("structure: missing comma", R"({"a":1,"b":2})", R"({"a":1 "b":2})");
    value("structure: trailing comma in an object", R"({"a":1})", R"({"a":1,})");
    value("structure: trailing comma in an array", "[1]", "[1,]");
    value("structure: unquoted key", R"({"a":1})", "{a:1}");
    value("structure: unclosed array", "[[1]]", "[[1]");
    value("structure: mismatched brackets", "[{}]", "[{]}");
    value("structure: single-quoted string", R"("a")", "'a'");
}

void tst_TaskReplyParser::rejectsBadJson()
{
    QFETCH(bool, isString);
    QFETCH(QByteArray, good);
    QFETCH(QByteArray, bad);
    const QByteArray head = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"input_required",)";
    // Every place: the form, _meta, an ignored member, a key, and the message at each alignment
    // of the sixteen-byte string scan.
    QList<QByteArray> places;
    if (isString) {
        for (int pad = 0; pad < 17; ++pad)
            places << R"("statusMessage":")" + QByteArray(pad, 'p') + "@" + QByteArray(20, 's') + R"("}})";
        places << R"("inputRequests":{"k":{"params":{"message":"form @ text"}}}}})"
               << R"("inputRequests":{"k@":{}}}})" << R"("_meta":{"x":["@"]}}})" << R"("x@y":1}})"
               << R"("x":"@"}})";
    } else {
        places << R"("inputRequests":{"k":{"params":{"n":@}}}}})" << R"("_meta":{"x":[1,@]}}})"
               << R"("_meta":{"x":@,"y":2}}})";
        if (!good.startsWith('{') && !good.startsWith('['))
            places << R"("x":@}})" << R"("x":@,"y":0}})";
    }
    for (const QByteArray &place : std::as_const(places)) {
        QByteArray goodBody = head + place, badBody = head + place;
        goodBody.replace("@", good);
        badBody.replace("@", bad);
        TaskState state;
        QVERIFY2(json::accept(goodBody.constBegin(), goodBody.constEnd()), goodBody.constData());
        QVERIFY2(fast(goodBody, &state), goodBody.constData());
        QVERIFY2(!json::accept(badBody.constBegin(), badBody.constEnd()), badBody.constData());
        QVERIFY2(!fast(badBody, &state), badBody.constData());
    }
}

void tst_TaskReplyParser::rejectsEveryTruncation()
{
    // A real input_required answer: accepted whole, declined when cut at any byte (a keep-alive
    // body cut short must never read as a shorter valid answer).
    const QByteArray body = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"input_required",)"
                            R"("createdAt":"2026-07-28T10:00:00.000Z","lastUpdatedAt":"2026-07-28T10:00:02.125Z",)"
                            R"("ttlMs":86400000,"pollIntervalMs":500,"statusMessage":"mesh check failed \u2192 \ud83c\udf00 )"
                            "\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x8c\x80" R"(",)"
                            R"("inputRequests":{"mesh-1":{"method":"elicitation/create","params":{"mode":"form",)"
                            R"("message":"12 cells fail","requestedSchema":{"type":"object","properties":{"action":)"
                            R"({"type":"string","enum":["repair","abort"]},"tol":{"type":"number","default":-1.5E-14}},)"
                            R"("required":["action"]}}}},"_meta":{"k":[true,false,null]}}})";
    TaskState state;
    QVERIFY(fast(body, &state));
    QVERIFY(state.status == TaskStatus::InputRequired && state.inputRequests.is_object());
    for (qsizetype cut = 0; cut < body.size(); ++cut)
        QVERIFY2(!fast(body.left(cut), &state), body.left(cut).constData());
    QVERIFY(fast(body + " \r\n", &state)); // trailing whitespace is fine
    QVERIFY(!fast(body + "}", &state));
    QVERIFY(!fast(body + body, &state));
}

void tst_TaskReplyParser::depthLimit_data()
{
    // The envelope is depth 1, the result 2, a _meta or inputRequests object 3: n arrays inside
    // make the document 3 + n deep. The full parser refuses more than JsonScanner::kMaxDepth.
    QTest::addColumn<QByteArray>("member");
    QTest::addColumn<int>("depth");
    for (const int depth : {JsonScanner::kMaxDepth, JsonScanner::kMaxDepth + 1, 100000}) {
        const int arrays = depth - 3;
        const QByteArray nested = QByteArray(arrays, '[') + QByteArray(arrays, ']');
        QTest::addRow("_meta, depth %d", depth) << R"("_meta":{"a":)" + nested + "}" << depth;
        QTest::addRow("form, depth %d", depth) << R"("inputRequests":{"k":)" + nested + "}" << depth;
    }
}

void tst_TaskReplyParser::depthLimit()
{
    QFETCH(QByteArray, member);
    QFETCH(int, depth);
    const QByteArray body = R"({"jsonrpc":"2.0","id":7,"result":{"taskId":"a1b2c3d4e5f6","status":"input_required",)"
                            + member + "}}";
    TaskState state;
    QCOMPARE(fast(body, &state), depth <= JsonScanner::kMaxDepth);
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
