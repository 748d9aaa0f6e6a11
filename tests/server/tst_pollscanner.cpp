// PollScanner against nlohmann: whenever the scanner calls a body plain, the full parser must
// accept it and read the same fields, or the fast tasks/get path would answer differently from
// the full one. Mutates real poll bodies many thousand times with a fixed seed.

#include "server/pollscanner.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <random>
#include <string>
#include <vector>

using nlohmann::json;
using Eddy::Server::PollScanner;

namespace {

const char *const kMeta = R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                          R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},)"
                          R"("extensions":{"io.modelcontextprotocol/tasks":{}}},)"
                          R"("io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}})";

std::vector<std::string> seeds()
{
    const std::string meta = kMeta;
    return {
        R"({"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"0123abcd","_meta":)" + meta + "}}",
        R"({"params":{"_meta":)" + meta + R"(,"taskId":"x"},"method":"tasks/get","id":"p-1","jsonrpc":"2.0"})",
        R"( { "jsonrpc" : "2.0" , "id" : -12 , "method" : "tasks/get" , "params" : { "taskId" : "t" , "_meta" : )"
            + meta + R"( , "extra" : [ 1 , 2.5 , true , false , null , { "a" : [ ] } ] } } )",
    };
}

// Compares what the scanner found with what nlohmann reads; empty string when they agree.
std::string disagreement(const std::string &body, const PollScanner::Fields &f)
{
    const json j = json::parse(body, nullptr, false);
    if (j.is_discarded())
        return "nlohmann rejects it";
    if (!j.is_object())
        return "not an object for nlohmann";
    const auto stringField = [](const json &o, const char *key, std::string_view seen) -> bool {
        if (!o.is_object() || !o.contains(key))
            return seen.empty();
        return o[key].is_string() && o[key].get<std::string>() == seen;
    };
    if (!stringField(j, "jsonrpc", f.jsonrpc))
        return "jsonrpc";
    if (!stringField(j, "method", f.method))
        return "method";
    if (j.contains("id")) {
        const json &id = j["id"];
        if ((!id.is_string() && !id.is_number_integer()) || id.dump() != f.id)
            return "id";
    } else if (!f.id.empty()) {
        return "id present";
    }
    const bool hasParams = j.contains("params") && j["params"].is_object();
    if (hasParams != f.hasParams)
        return "params";
    if (!hasParams)
        return {};
    const json &params = j["params"];
    if (!stringField(params, "taskId", f.taskId))
        return "taskId";
    const bool hasMeta = params.contains("_meta") && params["_meta"].is_object();
    if (hasMeta != f.hasMeta)
        return "_meta";
    if (!hasMeta)
        return {};
    const json &meta = params["_meta"];
    if (!stringField(meta, "io.modelcontextprotocol/protocolVersion", f.protocolVersion))
        return "protocolVersion";
    const auto capsIt = meta.find("io.modelcontextprotocol/clientCapabilities");
    const bool hasCaps = capsIt != meta.end() && capsIt->is_object();
    if (hasCaps != f.hasCapabilities)
        return "clientCapabilities";
    bool declares = false;
    if (hasCaps) {
        const auto ext = capsIt->find("extensions");
        if (ext != capsIt->end() && ext->is_object()) {
            const auto tasks = ext->find("io.modelcontextprotocol/tasks");
            declares = tasks != ext->end() && tasks->is_object();
        }
    }
    if (declares != f.declaresTasks)
        return "declaresTasks";
    return {};
}

} // namespace

class tst_PollScanner : public QObject
{
    Q_OBJECT

private slots:
    void seedsArePlain();
    void agreesWithNlohmannUnderMutation();
    void fallsBackOnUnusualShapes_data();
    void fallsBackOnUnusualShapes();
    void readsLongStringsAtEveryOffset();
};

void tst_PollScanner::seedsArePlain()
{
    for (const std::string &body : seeds()) {
        PollScanner::Fields f;
        QVERIFY2(PollScanner::scan(body, f), body.c_str());
        QCOMPARE(disagreement(body, f), std::string());
        QVERIFY(f.declaresTasks);
        QCOMPARE(std::string(f.protocolVersion), std::string("2026-07-28"));
        QCOMPARE(std::string(f.method), std::string("tasks/get"));
    }
}

void tst_PollScanner::agreesWithNlohmannUnderMutation()
{
    // Characters that matter to JSON, plus bytes the scanner must refuse.
    static const std::string alphabet = "{}[]:,\"\\ \t\n0123456789-+.eEtrufalsn/ab\x7f\xc3\xa9\xff\x01";
    std::mt19937 rng(20261130);
    const auto all = seeds();
    int plain = 0, checked = 0;
    for (int round = 0; round < 60000; ++round) {
        std::string body = all[rng() % all.size()];
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits && !body.empty(); ++e) {
            const std::size_t at = rng() % body.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 4) {
            case 0: body.insert(at, 1, c); break;
            case 1: body.erase(at, 1); break;
            case 2: body[at] = c; break;
            default: { // duplicate a slice, which makes repeated keys
                const std::size_t len = std::min<std::size_t>(1 + rng() % 40, body.size() - at);
                body.insert(at, body.substr(at, len));
            }
            }
        }
        PollScanner::Fields f;
        ++checked;
        if (!PollScanner::scan(body, f))
            continue;
        ++plain;
        const std::string why = disagreement(body, f);
        QVERIFY2(why.empty(), (why + " differs for: " + body).c_str());
    }
    // The mutations must leave enough bodies plain for the comparison to mean something.
    QVERIFY2(plain > checked / 20, qPrintable(QString::number(plain)));
}

void tst_PollScanner::fallsBackOnUnusualShapes_data()
{
    QTest::addColumn<QString>("body");
    QTest::newRow("escape in a key") << R"({"task\u0049d":"x"})";
    QTest::newRow("escape in a value") << R"({"id":"a\nb"})";
    QTest::newRow("non-ASCII") << "{\"id\":\"\xc3\xa9\"}";
    QTest::newRow("duplicate id") << R"({"id":1,"id":2})";
    QTest::newRow("duplicate taskId") << R"({"params":{"taskId":"a","taskId":"b"}})";
    QTest::newRow("exponent") << R"({"x":1e5})";
    QTest::newRow("20-digit number") << R"({"x":12345678901234567890})";
    QTest::newRow("id -0") << R"({"id":-0})";
    QTest::newRow("id 1.5") << R"({"id":1.5})";
    QTest::newRow("leading zero") << R"({"x":01})";
    QTest::newRow("trailing comma") << R"({"id":1,})";
    QTest::newRow("trailing bytes") << R"({"id":1} x)";
    QTest::newRow("too deep") << "{\"x\":" + QString(40, '[') + QString(40, ']') + "}";
    QTest::newRow("array body") << "[]";
    QTest::newRow("empty") << "";
}

void tst_PollScanner::fallsBackOnUnusualShapes()
{
    QFETCH(QString, body);
    PollScanner::Fields f;
    QVERIFY(!PollScanner::scan(body.toStdString(), f));
}

void tst_PollScanner::readsLongStringsAtEveryOffset()
{
    // Strings are scanned several bytes at a time: a byte that ends or disqualifies a string
    // must be seen wherever it falls, and the bytes around the limits must still pass.
    const auto body = [](const std::string &taskId) {
        return R"({"params":{"taskId":")" + taskId + R"("}})";
    };
    for (std::size_t length = 1; length <= 40; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            for (const char bad : {'\x01', '\x1f', '\x80', '\xff', '\\', '\n'}) {
                std::string taskId(length, 'a');
                taskId[at] = bad;
                PollScanner::Fields f;
                QVERIFY2(!PollScanner::scan(body(taskId), f), qPrintable(QString::number(at)));
            }
            for (const char good : {' ', '\x7f', '~', '!', '#'}) {
                std::string taskId(length, 'Z');
                taskId[at] = good;
                PollScanner::Fields f;
                QVERIFY(PollScanner::scan(body(taskId), f));
                QCOMPARE(std::string(f.taskId), taskId);
                QCOMPARE(disagreement(body(taskId), f), std::string());
            }
            std::string early(length, 'b');
            early[at] = '"'; // ends the string there: the rest is not JSON
            PollScanner::Fields f;
            QVERIFY(!PollScanner::scan(body(early), f));
        }
    }
}

QTEST_GUILESS_MAIN(tst_PollScanner)
#include "tst_pollscanner.moc"
