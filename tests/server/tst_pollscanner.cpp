// PollScanner against nlohmann: whenever the scanner calls a body plain, the full parser must
// accept it and read the same fields, or the fast tasks/get path would answer differently from
// the full one. And against the recursive scanner it replaced (pollscannerreference.h): the
// same verdict and the same fields for every body, so the contract did not move. Mutates real
// poll bodies and the fuzz corpus many thousand times with a fixed seed.

#include "server/pollscanner.h"
#include "tests/server/pollscannerreference.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

using Eddy::Server::PollScanner;
using nlohmann::json;

namespace {

const char *const kMeta
    = R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},)"
      R"("extensions":{"io.modelcontextprotocol/tasks":{}}},)"
      R"("io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}})";

// What every Eddy client sends with a kept-alive tasks/get (nlohmann's key order).
const char *const kPoll
    = R"({"id":385,"jsonrpc":"2.0","method":"tasks/get","params":{"_meta":{)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},)"
      R"("extensions":{"io.modelcontextprotocol/tasks")"
      R"(:{}}},"io.modelcontextprotocol/clientInfo":{"name":"eddy-bench-server","version":"0.1"},)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28"},"taskId":)"
      R"("708ff219d7ad5b2b0f8186c23292bf2a"}})";

// Skipped members whose strings hold every structural character, and the names of read
// fields where they must not be read (inside skipped objects and arrays).
const char *const kDecoys
    = R"({"x":{"a":"}]{[:,","b":["{",":",",","]","}"],"taskId":"no","id":9,"params":{}},)"
      R"("jsonrpc":"2.0","id":"s-1","method":"tasks/get","params":{"list":[{"taskId":"no"},)"
      R"({"_meta":{}}],"taskId":"yes","_meta":{"io.modelcontextprotocol/protocolVersion":)"
      R"("2026-07-28","io.modelcontextprotocol/clientCapabilities":{"io.modelcontextprotocol/)"
      R"(tasks":{},"extensions":{"x":{"io.modelcontextprotocol/tasks":1},)"
      R"("io.modelcontextprotocol/tasks":{"io.modelcontextprotocol/tasks":[]}}},"o":{"}":"{"}}}})";

std::vector<std::string> seeds()
{
    const std::string meta = kMeta;
    return {
        kPoll,
        kDecoys,
        R"({"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"0123abcd","_meta":)"
            + meta + "}}",
        R"({"params":{"_meta":)" + meta
            + R"(,"taskId":"x"},"method":"tasks/get","id":"p-1","jsonrpc":"2.0"})",
        R"( { "jsonrpc" : "2.0" , "id" : -12 , "method" : "tasks/get" , )"
        R"("params" : { "taskId" : "t" , "_meta" : )"
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

std::string show(std::string_view v, const std::string &body)
{
    if (v.data() == nullptr)
        return "(none)";
    return std::to_string(v.data() - body.data()) + "+" + std::to_string(v.size());
}

// Where the two scanners' fields differ (the views must be the very same bytes of the body);
// empty when they agree.
std::string
fieldsDiffer(const std::string &body, const PollScanner::Fields &a, const PollScanner::Fields &b)
{
    const auto same = [](std::string_view x, std::string_view y) {
        return x.data() == y.data() && x.size() == y.size();
    };
    std::string why;
    const auto view = [&](const char *name, std::string_view x, std::string_view y) {
        if (!same(x, y))
            why += std::string(name) + " " + show(x, body) + " vs " + show(y, body) + "; ";
    };
    view("jsonrpc", a.jsonrpc, b.jsonrpc);
    view("id", a.id, b.id);
    view("method", a.method, b.method);
    view("taskId", a.taskId, b.taskId);
    view("protocolVersion", a.protocolVersion, b.protocolVersion);
    if (a.hasParams != b.hasParams || a.hasMeta != b.hasMeta
        || a.hasCapabilities != b.hasCapabilities || a.declaresTasks != b.declaresTasks)
        why += "flags; ";
    return why;
}

// The scanner and the reference agree on the verdict and, for a plain body, on every field;
// nlohmann agrees with every plain body. Empty when all hold.
std::string check(const std::string &body, bool *plainOut = nullptr)
{
    PollScanner::Fields f, r;
    const bool plain = PollScanner::scan(body, f);
    const bool reference = Eddy::Test::PollScannerReference::scan(body, r);
    if (plainOut)
        *plainOut = plain;
    if (plain != reference)
        return std::string(plain ? "plain" : "not plain") + ", the reference says the opposite";
    if (!plain)
        return {};
    if (std::string why = fieldsDiffer(body, f, r); !why.empty())
        return "fields differ from the reference: " + why;
    if (std::string why = disagreement(body, f); !why.empty())
        return "nlohmann: " + why;
    return {};
}

// The fuzz corpus's JSON documents (replies, not polls: they exercise skipping).
std::vector<std::string> corpus()
{
    std::vector<std::string> bodies;
    for (const char *area : {"jsonrpc", "taskreply"}) {
        const QDir dir(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../fuzz/corpus/")
                       + QLatin1String(area));
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile file(dir.filePath(name));
            if (file.open(QIODevice::ReadOnly))
                bodies.push_back(file.readAll().toStdString());
        }
    }
    return bodies;
}

// Every top-level member of kPoll in the given order, with `gap` between all tokens.
std::string pollWith(const std::vector<int> &order, const std::string &gap)
{
    const std::string members[] = {
        R"("id":385)",
        R"("jsonrpc":"2.0")",
        R"("method":"tasks/get")",
        R"("params":{"taskId":"t-1","_meta":{)"
        R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
        R"("io.modelcontextprotocol/clientCapabilities":{"extensions":{)"
        R"("io.modelcontextprotocol/tasks":)"
        R"({}},"elicitation":{"form":{}}}}})",
    };
    std::string compact = "{";
    for (std::size_t i = 0; i < order.size(); ++i)
        compact += (i ? "," : "") + members[order[i]];
    compact += "}";
    // Put the gap around every structural character outside strings.
    std::string spaced = gap;
    bool inString = false;
    for (const char c : compact) {
        if (c == '"')
            inString = !inString;
        const bool structural
            = !inString && std::string_view("{}[]:,").find(c) != std::string_view::npos;
        if (structural)
            spaced += gap;
        spaced += c;
        if (structural)
            spaced += gap;
    }
    return spaced + gap;
}

std::string
nested(int levels, const std::string &open, const std::string &inner, const std::string &close)
{
    std::string s = R"({"x":)";
    for (int i = 0; i < levels; ++i)
        s += open;
    s += inner;
    for (int i = 0; i < levels; ++i)
        s += close;
    return s + "}";
}

} // namespace

class tst_PollScanner : public QObject
{
    Q_OBJECT

private slots:
    void seedsArePlain();
    void readsThePoll();
    void skipsDecoys();
    void readsKeysInAnyOrderAndSpacing();
    void limitsDepth();
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
        QCOMPARE(check(body), std::string());
        QVERIFY(f.declaresTasks);
        QCOMPARE(std::string(f.protocolVersion), std::string("2026-07-28"));
        QCOMPARE(std::string(f.method), std::string("tasks/get"));
    }
}

void tst_PollScanner::readsThePoll()
{
    const std::string body = kPoll;
    QCOMPARE(body.size(), std::size_t(372));
    PollScanner::Fields f;
    QVERIFY(PollScanner::scan(body, f));
    QCOMPARE(std::string(f.jsonrpc), std::string("2.0"));
    QCOMPARE(std::string(f.id), std::string("385"));
    QCOMPARE(std::string(f.method), std::string("tasks/get"));
    QCOMPARE(std::string(f.taskId), std::string("708ff219d7ad5b2b0f8186c23292bf2a"));
    QCOMPARE(std::string(f.protocolVersion), std::string("2026-07-28"));
    QVERIFY(f.hasParams && f.hasMeta && f.hasCapabilities && f.declaresTasks);
    QCOMPARE(check(body), std::string());
}

void tst_PollScanner::skipsDecoys()
{
    // Field names inside skipped objects and arrays are neither read nor duplicates; strings
    // full of braces, brackets, colons and commas do not move the nesting.
    const std::string body = kDecoys;
    PollScanner::Fields f;
    QVERIFY(PollScanner::scan(body, f));
    QCOMPARE(std::string(f.id), std::string("\"s-1\""));
    QCOMPARE(std::string(f.taskId), std::string("yes"));
    QCOMPARE(std::string(f.protocolVersion), std::string("2026-07-28"));
    QVERIFY(f.hasCapabilities);
    QVERIFY(f.declaresTasks); // in extensions, not the one directly in clientCapabilities
    QCOMPARE(check(body), std::string());

    // The Tasks extension only counts inside clientCapabilities.extensions.
    const std::string misplaced
        = R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities")"
          R"(:{"io.modelcontextprotocol/tasks":{},"extensions":{"x":{)"
          R"("io.modelcontextprotocol/tasks":{}}}}}}})";
    QVERIFY(PollScanner::scan(misplaced, f));
    QVERIFY(f.hasCapabilities);
    QVERIFY(!f.declaresTasks);
    QCOMPARE(check(misplaced), std::string());

    // A read field's name in a skipped object after the known object closed.
    const std::string after
        = R"({"params":{"taskId":"a"},"x":{"params":{"taskId":"b"}},"y":[{"id":2}],"id":1})";
    QVERIFY(PollScanner::scan(after, f));
    QCOMPARE(std::string(f.taskId), std::string("a"));
    QCOMPARE(std::string(f.id), std::string("1"));
    QCOMPARE(check(after), std::string());
}

void tst_PollScanner::readsKeysInAnyOrderAndSpacing()
{
    for (const std::string gap : {"", " ", "\t", "\r\n", " \n\t\r "}) {
        std::vector<int> order = {0, 1, 2, 3};
        do {
            const std::string body = pollWith(order, gap);
            PollScanner::Fields f;
            QVERIFY2(PollScanner::scan(body, f), body.c_str());
            QCOMPARE(std::string(f.id), std::string("385"));
            QCOMPARE(std::string(f.jsonrpc), std::string("2.0"));
            QCOMPARE(std::string(f.method), std::string("tasks/get"));
            QCOMPARE(std::string(f.taskId), std::string("t-1"));
            QCOMPARE(std::string(f.protocolVersion), std::string("2026-07-28"));
            QVERIFY(f.hasParams && f.hasMeta && f.hasCapabilities && f.declaresTasks);
            QCOMPARE(check(body), std::string());
        } while (std::next_permutation(order.begin(), order.end()));
    }
    // White space the scanner must not take for white space (nlohmann does not either).
    for (const char c : {'\f', '\v', '\0', '\x1f'}) {
        const std::string body = std::string("{\"id\":1") + c + "}";
        PollScanner::Fields f;
        QVERIFY(!PollScanner::scan(body, f));
        QVERIFY(!PollScanner::scan(std::string(1, c) + "{}", f));
        QVERIFY(!PollScanner::scan(std::string("{}") + c, f));
    }
}

void tst_PollScanner::limitsDepth()
{
    // A value nested in at most 32 containers (the top object counts) is plain; deeper is not.
    PollScanner::Fields f;
    QVERIFY(PollScanner::scan(nested(31, "[", "1", "]"), f));
    QVERIFY(!PollScanner::scan(nested(32, "[", "1", "]"), f));
    QVERIFY(PollScanner::scan(nested(32, "[", "", "]"), f)); // the 33rd container is empty
    QVERIFY(!PollScanner::scan(nested(33, "[", "", "]"), f));
    QVERIFY(PollScanner::scan(nested(31, R"({"a":)", "null", "}"), f));
    QVERIFY(!PollScanner::scan(nested(32, R"({"a":)", "null", "}"), f));
    QVERIFY(PollScanner::scan(nested(31, R"({"a":)", "{}", "}"), f));
    QVERIFY(!PollScanner::scan(nested(32, R"({"a":)", "{}", "}"), f));
    for (int levels = 0; levels < 40; ++levels) {
        for (const auto &[open, inner, close] :
             std::initializer_list<std::array<const char *, 3>>{{"[", "", "]"},
                                                                {"[", "\"s\"", "]"},
                                                                {"[1,", "[]", "]"},
                                                                {R"({"k":)", "{}", "}"},
                                                                {R"({"k":[],"l":)", "0", "}"}}) {
            const std::string body = nested(levels, open, inner, close);
            QVERIFY2(check(body).empty(), body.c_str());
        }
    }
}

void tst_PollScanner::agreesWithNlohmannUnderMutation()
{
    // Characters that matter to JSON, plus bytes the scanner must refuse.
    static const std::string alphabet
        = "{}[]:,\"\\ \t\n0123456789-+.eEtrufalsn/ab\x7f\xc3\xa9\xff\x01";
    // Tokens that make a body deeper, shift strings, or repeat a read field.
    static const std::vector<std::string> tokens
        = {"{}",
           "[]",
           "{",
           "}",
           "[",
           "]",
           R"("k":)",
           R"("{")",
           R"("}")",
           R"("]")",
           R"(":")",
           R"("\"")",
           "\"",
           ",",
           " ",
           "\r\n",
           "-0",
           "1e5",
           "0.5",
           "17",
           "true",
           "null",
           R"("taskId":"t",)",
           R"("id":2,)",
           R"("_meta":{},)",
           R"("extensions":{},)",
           R"("io.modelcontextprotocol/tasks":{},)",
           R"("params":{},)",
           R"("io.modelcontextprotocol/protocolVersion":"v",)"};
    std::mt19937 rng(20261130);
    auto all = seeds();
    for (std::string &body : corpus())
        all.push_back(std::move(body));
    QVERIFY(all.size() > 15); // the corpus was found
    int plain = 0, checked = 0;
    for (int round = 0; round < 120000; ++round) {
        std::string body = all[rng() % all.size()];
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits && !body.empty(); ++e) {
            const std::size_t at = rng() % body.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 6) {
            case 0:
                body.insert(at, 1, c);
                break;
            case 1:
                body.erase(at, 1);
                break;
            case 2:
                body[at] = c;
                break;
            case 3:
                body.insert(at, tokens[rng() % tokens.size()]);
                break;
            case 4:
                body.resize(at);
                break; // a truncated body
            default: { // duplicate a slice, which makes repeated keys
                const std::size_t len = std::min<std::size_t>(1 + rng() % 40, body.size() - at);
                body.insert(at, body.substr(at, len));
            }
            }
        }
        ++checked;
        bool isPlain = false;
        const std::string why = check(body, &isPlain);
        QVERIFY2(why.empty(), (why + " for: " + body).c_str());
        plain += isPlain;
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
    QTest::newRow("white space only") << " \n";
    QTest::newRow("string body") << R"("x")";
    QTest::newRow("number body") << "1";
    QTest::newRow("two objects") << "{}{}";
    QTest::newRow("extra brace") << "{}}";
    QTest::newRow("extra bracket") << "{} ]";
    QTest::newRow("trailing comma after body") << "{},";
    QTest::newRow("bytes before") << "x{}";
    QTest::newRow("unterminated object") << R"({"id":1)";
    QTest::newRow("unterminated inner object") << R"({"x":{"a":1})";
    QTest::newRow("unterminated string") << R"({"x":"a})";
    QTest::newRow("unterminated array") << R"({"x":[1,2})";
    QTest::newRow("bracket closes object") << R"({"x":{"a":1]})";
    QTest::newRow("brace closes array") << R"({"x":[1}})";
    QTest::newRow("missing colon") << R"({"x" 1})";
    QTest::newRow("missing value") << R"({"x":})";
    QTest::newRow("missing comma") << R"({"x":1 "y":2})";
    QTest::newRow("leading comma") << R"({,"x":1})";
    QTest::newRow("trailing comma in array") << R"({"x":[1,]})";
    QTest::newRow("bare key") << R"({x:1})";
    QTest::newRow("single quotes") << R"({'x':1})";
    QTest::newRow("truncated true") << R"({"x":tru})";
    QTest::newRow("truncated null at the end") << R"({"x":nul)";
    QTest::newRow("long literal") << R"({"x":falsey})";
    QTest::newRow("capital literal") << R"({"x":True})";
    QTest::newRow("lone minus") << R"({"x":-})";
    QTest::newRow("plus sign") << R"({"x":+1})";
    QTest::newRow("bare fraction") << R"({"x":.5})";
    QTest::newRow("empty fraction") << R"({"x":1.})";
    QTest::newRow("capital exponent") << R"({"x":1.5E3})";
    QTest::newRow("18-character number") << R"({"x":-1234567890.123456})";
    QTest::newRow("16-digit id") << R"({"id":1234567890123456})";
    QTest::newRow("id leading zero") << R"({"id":012})";
    QTest::newRow("id minus") << R"({"id":-})";
    QTest::newRow("escape in a skipped string") << R"({"params":{"x":{"a":"b\"c"}}})";
    QTest::newRow("escape in a skipped key") << R"({"params":{"x":{"a\/":1}}})";
    QTest::newRow("escape in a skipped array") << R"({"x":[["\u0041"]]})";
    QTest::newRow("tab in a skipped string") << "{\"x\":[\"a\tb\"]}";
    QTest::newRow("non-ASCII in a skipped key") << "{\"x\":{\"\xc3\xa9\":1}}";
    QTest::newRow("duplicate jsonrpc") << R"({"jsonrpc":"2.0","jsonrpc":"2.0"})";
    QTest::newRow("duplicate method") << R"({"method":"a","method":"a"})";
    QTest::newRow("duplicate params") << R"({"params":{},"params":{}})";
    QTest::newRow("duplicate _meta") << R"({"params":{"_meta":{},"_meta":{}}})";
    QTest::newRow("duplicate protocolVersion")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"a",)"
           R"("io.modelcontextprotocol/protocolVersion":"a"}}})";
    QTest::newRow("duplicate clientCapabilities")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},)"
           R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
    QTest::newRow("duplicate extensions")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{},)"
           R"("extensions":{}}}}})";
    QTest::newRow("duplicate tasks")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{)"
           R"("io.modelcontextprotocol/tasks":{},"io.modelcontextprotocol/tasks":{}}}}}})";
    QTest::newRow("duplicate taskId after _meta")
        << R"({"params":{"taskId":"a","_meta":{"x":1},"taskId":"a"}})";
    QTest::newRow("params not an object") << R"({"params":"x"})";
    QTest::newRow("params an array") << R"({"params":[]})";
    QTest::newRow("_meta null") << R"({"params":{"_meta":null}})";
    QTest::newRow("clientCapabilities a number")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":1}}})";
    QTest::newRow("extensions true")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{)"
           R"("extensions":true}}}})";
    QTest::newRow("tasks an array")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{)"
           R"("io.modelcontextprotocol/tasks":[]}}}}})";
    QTest::newRow("taskId a number") << R"({"params":{"taskId":1}})";
    QTest::newRow("protocolVersion an object")
        << R"({"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":{}}}})";
    QTest::newRow("jsonrpc a number") << R"({"jsonrpc":2})";
    QTest::newRow("method null") << R"({"method":null})";
    QTest::newRow("id true") << R"({"id":true})";
    QTest::newRow("id an object") << R"({"id":{}})";
}

void tst_PollScanner::fallsBackOnUnusualShapes()
{
    QFETCH(QString, body);
    PollScanner::Fields f;
    const std::string bytes = body.toStdString();
    QVERIFY(!PollScanner::scan(bytes, f));
    QCOMPARE(check(bytes), std::string()); // the reference refuses it too
    // Also where the scanner may read 16 bytes at a time.
    const std::string padded = bytes + std::string(40, ' ');
    QVERIFY(!PollScanner::scan(padded, f));
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
