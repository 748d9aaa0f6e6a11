// Hostile servers: a catalogue of misbehaving MCP servers, each a real HTTP server on loopback,
// run through the path users use (the Engine and its SQLite store). For every misbehaviour:
// no crash, no hang (bounded waits), a clear message the user can see (a specific phrase), and
// nothing stored lost: a task completed earlier against the real eddy-cfd-server keeps its
// result and events, and no task ever goes from an end state back to a live one.
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "tests/common/testserver.h"
#include "tests/hostile/hostileserver.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <vector>

using namespace Eddy;
using Eddy::Test::HostileServer;
using Eddy::Test::HttpPeer;
using nlohmann::json;
using Call = HostileServer::Call;

namespace {

enum Flag {
    AutoAnswer = 1,   // the engine answers questions itself (eddyctl --answers)
    Cancel = 2,       // the test cancels the task once it exists
    HttpsToPlain = 4, // the server URL says https:// but the port speaks plain HTTP
    SelfSigned = 8,   // the server URL points at a TLS server with a self-signed certificate
    German = 16,      // Eddy's German translation is installed, as `eddy --lang de` does
};

struct Scenario
{
    const char *name;
    const char *does;      // what the server does (for docs/reliability.md)
    QStringList expect;    // phrases that must all appear in what Eddy shows
    HostileServer::Fault fault;
    int flags = 0;
    // Extra assertions once the phrases are in (engine still running).
    std::function<void(Monitor::Engine &, HostileServer &, Store::TaskStore &)> check = {};
    // Engine settings before the call (e.g. short retry windows).
    std::function<void(Monitor::Engine &)> setup = {};
};

// --------------------------------------------------------------- fault building blocks

using Action = std::function<void(HostileServer &, const Call &)>;

// Misbehave on the nth request of `method` (0 = every one).
HostileServer::Fault at(const char *method, int nth, Action action)
{
    return [method = std::string(method), nth, action](HostileServer &s, const Call &c) {
        if (c.method != method || (nth != 0 && c.count != nth))
            return false;
        action(s, c);
        return true;
    };
}

// Several faults: the first that answers wins.
HostileServer::Fault all(std::vector<HostileServer::Fault> faults)
{
    return [faults](HostileServer &s, const Call &c) {
        for (const auto &f : faults)
            if (f(s, c))
                return true;
        return false;
    };
}

Action body(QByteArray text, int status = 200, QByteArray type = "application/json",
            QList<std::pair<QByteArray, QByteArray>> extra = {})
{
    return [=](HostileServer &, const Call &c) {
        c.socket->write(HostileServer::http(text, status, type, extra));
    };
}

// The normal answer, edited.
Action edited(std::function<void(json &message, const Call &)> edit, int status = 200,
              QByteArray type = "application/json", QList<std::pair<QByteArray, QByteArray>> extra = {})
{
    return [=](HostileServer &s, const Call &c) {
        json message = s.normalAnswer(c);
        edit(message, c);
        c.socket->write(HostileServer::http(QByteArray::fromStdString(message.dump()), status, type, extra));
    };
}

// The normal answer's text, edited as bytes (for what JSON cannot hold).
Action editedText(std::function<QByteArray(QByteArray)> edit)
{
    return [=](HostileServer &s, const Call &c) {
        c.socket->write(HostileServer::http(edit(QByteArray::fromStdString(s.normalAnswer(c).dump()))));
    };
}

Action reset()
{
    return [](HostileServer &, const Call &c) { c.socket->abort(); };
}

Action status(int code, QList<std::pair<QByteArray, QByteArray>> extra = {})
{
    return body("", code, "", extra);
}

json inputRequired(const HostileServer &s, const json &schema)
{
    json t = s.task("input_required");
    t["resultType"] = "complete";
    t["inputRequests"] = {{"mesh", {{"method", "elicitation/create"},
                                    {"params", {{"mode", "form"}, {"message", "Which mesh?"}, {"requestedSchema", schema}}}}}};
    return t;
}

const json kMeshSchema = {{"type", "object"},
                          {"properties", {{"cells", {{"type", "integer"}, {"default", 64}}}}}};

QString deepJson(int levels)
{
    return QString(levels, QLatin1Char('[')) + QString(levels, QLatin1Char(']'));
}

std::vector<Scenario> catalogue()
{
    std::vector<Scenario> s;
    const QString done = QStringLiteral("task completed");

    // --- before any task exists: multi round trip (input_required on tools/call)
    // The first tools/call is answered input_required with a requestState holding characters
    // a re-serialiser would change; the retry must carry it byte for byte, a new id and the
    // answer, and only the retry.
    s.push_back({"input_required on tools/call (MRTR) with requestState",
                 "answers the first tools/call `input_required` + `requestState`; expects the retry to echo it",
                 {QStringLiteral("before starting"), done},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tools/call")
                         return false;
                     static const std::string state = "st\u00e9-\\\"1\\\"/\u2028x";
                     const json params = c.body.value("params", json::object());
                     if (c.count == 1) {
                         if (params.contains("requestState") || params.contains("inputResponses"))
                             c.socket->write(HostileServer::http("fresh call carried round-trip fields", 400, "text/plain"));
                         else
                             c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, {
                                 {"resultType", "input_required"},
                                 {"inputRequests", {{"mesh", {{"method", "elicitation/create"},
                                     {"params", {{"mode", "form"}, {"message", "Which mesh?"}, {"requestedSchema", kMeshSchema}}}}}}},
                                 {"requestState", state}})));
                         s.firstCallId = c.id;
                         return true;
                     }
                     const json answer = params.value("inputResponses", json()).value("mesh", json());
                     if (params.value("requestState", json()) != json(state) || c.id == s.firstCallId
                         || answer.value("action", std::string()) != "accept"
                         || answer.value("content", json()).value("cells", 0) != 32) {
                         c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32602, "bad retry: " + params.dump()), 200));
                         return true;
                     }
                     return false;
                 },
                 AutoAnswer, [](Monitor::Engine &e, HostileServer &s, Store::TaskStore &) {
                     QCOMPARE(s.count("tools/call"), 2);
                     for (const auto &c : e.catalogue().cases(std::nullopt))
                         QVERIFY2(c.pendingInput.isEmpty(), "the journalled question is cleared once answered");
                 }});
    s.push_back({"input_required on tools/call without requestState",
                 "asks before the task without `requestState`; the retry must not invent one",
                 {QStringLiteral("before starting"), done},
                 [](HostileServer &, const Call &c) {
                     if (c.method != "tools/call")
                         return false;
                     const json params = c.body.value("params", json::object());
                     if (c.count == 1) {
                         c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, {
                             {"resultType", "input_required"},
                             {"inputRequests", {{"mesh", {{"method", "elicitation/create"},
                                 {"params", {{"mode", "form"}, {"message", "Which mesh?"}, {"requestedSchema", kMeshSchema}}}}}}}})));
                         return true;
                     }
                     if (params.contains("requestState") || !params.contains("inputResponses")) {
                         c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32602, "bad retry"), 200));
                         return true;
                     }
                     return false;
                 },
                 AutoAnswer});

    // --- before any task exists: failures are retried with backoff, visibly, then end
    const auto shortRetries = [](Monitor::Engine &e) { e.setCaseRetryPolicy(3, 100); };
    const auto keptUnsent = [](Monitor::Engine &, HostileServer &s, Store::TaskStore &store) {
        // The first try and 3 retries (an attempt whose connection dropped may be re-sent once
        // at once, idempotently), then no more.
        QVERIFY2(s.count("tools/call") >= 4 && s.count("tools/call") <= 8,
                 qPrintable(QString::number(s.count("tools/call"))));
        const auto unsent = store.unsubmittedCases();
        QCOMPARE(unsent.size(), 1);      // journalled for a later watch
        QCOMPARE(unsent.first().tool, QStringLiteral("sim"));
    };
    s.push_back({"reset on every tools/call", "drops the connection on every tools/call",
                 {QStringLiteral("retry 1 of 3"), QStringLiteral("retry 3 of 3"), QStringLiteral("kept unsent")},
                 at("tools/call", 0, reset()), 0, keptUnsent, shortRetries});
    s.push_back({"503 for ever on tools/call", "HTTP 503 with `Retry-After: 0` on every tools/call",
                 {QStringLiteral("temporarily unavailable"), QStringLiteral("retry 2 of 3"), QStringLiteral("kept unsent")},
                 at("tools/call", 0, status(503, {{"Retry-After", "0"}})), 0, keptUnsent, shortRetries});
    s.push_back({"tools/call answer trickling 1 byte a second", "a valid CreateTaskResult, one byte a second",
                 {QStringLiteral("slower than the floor"), QStringLiteral("kept unsent")},
                 at("tools/call", 0, [](HostileServer &s, const Call &c) {
                     HostileServer::drip(c.socket, HostileServer::http(QByteArray::fromStdString(s.normalAnswer(c).dump())), 1000);
                 }),
                 0, {}, [](Monitor::Engine &e) {
                     e.setCaseRetryPolicy(1, 100);
                     e.setSlowTransferFloor(1024, 1000);
                     e.setRequestTimeoutMs(60000); // the floor, not the timeout, ends it
                 }});
    s.push_back({"429 with a non-JSON-RPC error body on tools/call", "HTTP 429, `{\"error\": \"slow down\"}`, Retry-After: 1, then normal",
                 {QStringLiteral("rate-limiting"), done},
                 at("tools/call", 1, body(R"({"error": "slow down"})", 429, "application/json", {{"Retry-After", "1"}}))});
    s.push_back({"503 with an HTML body on tools/call", "HTTP 503 with an HTML page, then normal",
                 {QStringLiteral("temporarily unavailable"), done},
                 at("tools/call", 1, body("<html><body>Service Unavailable</body></html>", 503, "text/html"))});
    s.push_back({"429 with a JSON error object on tasks/get", "HTTP 429, `{\"error\": {\"message\": \"quota\"}}` on the first poll, then normal",
                 {QStringLiteral("rate-limiting"), done},
                 at("tasks/get", 1, body(R"({"error": {"message": "quota"}})", 429))});

    // --- malformed and truncated JSON
    s.push_back({"malformed JSON on tools/call", "answers `{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{'x'}}`",
                 {QStringLiteral("not valid JSON")},
                 at("tools/call", 0, body(R"({"jsonrpc":"2.0","id":1,"result":{'x'}})"))});
    s.push_back({"truncated JSON in a complete HTTP answer to tasks/get", "sends the first half of a valid answer, with a matching Content-Length",
                 {QStringLiteral("not valid JSON")},
                 at("tasks/get", 0, editedText([](QByteArray t) { return t.left(t.size() / 2); }))});
    s.push_back({"body cut short, connection closed (tasks/get)", "promises 4000 bytes, sends 20, closes",
                 {QStringLiteral("tasks/get")},
                 at("tasks/get", 0, [](HostileServer &, const Call &c) {
                     c.socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\"");
                     c.socket->flush();
                     c.socket->disconnectFromHost();
                 })});
    s.push_back({"empty 200 on tools/call", "200 with an empty body", {QStringLiteral("not a JSON-RPC response")},
                 at("tools/call", 0, body(""))});
    s.push_back({"JSON-RPC 1.0 answer to tools/call", "`\"jsonrpc\":\"1.0\"`", {QStringLiteral("not JSON-RPC 2.0")},
                 at("tools/call", 0, edited([](json &m, const Call &) { m["jsonrpc"] = "1.0"; }))});
    s.push_back({"result is an array (tasks/get)", "`\"result\": [1,2]`", {QStringLiteral("not a JSON object")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"] = json::array({1, 2}); }))});
    s.push_back({"invalid UTF-8 in statusMessage (tasks/get)", "a statusMessage with the bytes C3 28",
                 {QStringLiteral("not UTF-8")},
                 at("tasks/get", 0, editedText([](QByteArray t) { return t.replace("iteration 10", "iteration \xC3\x28"); }))});
    s.push_back({"deep nesting: 100,000 levels in a tools/call result", "a complete result whose `content` is 100k nested arrays",
                 {QStringLiteral("nested")},
                 at("tools/call", 0, [](HostileServer &, const Call &c) {
                     const QByteArray text = R"({"jsonrpc":"2.0","id":)" + QByteArray::fromStdString(c.id.dump())
                                             + R"(,"result":{"resultType":"complete","content":)" + deepJson(100000).toLatin1() + "}}";
                     c.socket->write(HostileServer::http(text));
                 })});

    // --- ids
    s.push_back({"wrong id on tools/call", "answers with the request id + 1000", {QStringLiteral("wrong request id")},
                 at("tools/call", 0, edited([](json &m, const Call &c) { m["id"] = c.id.get<qint64>() + 1000; }))});
    s.push_back({"missing id on tasks/get", "drops `id` from the answer", {QStringLiteral("wrong request id")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m.erase("id"); }))});
    s.push_back({"id 2^70 on tools/call", "answers with id 1180591620717411303424", {QStringLiteral("wrong request id")},
                 at("tools/call", 0, editedText([](QByteArray t) {
                     const qsizetype i = t.indexOf("\"id\":");
                     const qsizetype end = t.indexOf(',', i);
                     return t.left(i) + "\"id\":1180591620717411303424" + t.mid(end);
                 }))});
    s.push_back({"error for another id on tools/call", "a JSON-RPC error carrying someone else's id",
                 {QStringLiteral("another request id")},
                 at("tools/call", 0, [](HostileServer &, const Call &c) {
                     c.socket->write(HostileServer::http(HostileServer::rpcError(c.id.get<qint64>() + 7, -32603, "boom")));
                 })});

    // --- resultType
    s.push_back({"missing resultType on tools/call", "a task handle without `resultType` (absent means complete)",
                 {done},
                 at("tools/call", 0, edited([](json &m, const Call &) { m["result"].erase("resultType"); })),
                 0, [](Monitor::Engine &e, HostileServer &, Store::TaskStore &) {
                     // Read as a complete CallToolResult: stored as the result, never polled.
                     const auto tasks = e.catalogue().tasks();
                     QVERIFY(std::any_of(tasks.begin(), tasks.end(), [](const Store::TaskRecord &t) {
                         return t.serverTaskId.isEmpty() && t.status == Store::TaskStatus::Completed;
                     }));
                 }});
    s.push_back({"unknown resultType on tools/call", "`\"resultType\": \"bogus\"`", {QStringLiteral("unknown resultType")},
                 at("tools/call", 0, edited([](json &m, const Call &) { m["result"]["resultType"] = "bogus"; }))});
    s.push_back({"resultType input_required on tasks/get", "a poll answered as if it were a tools/call",
                 {QStringLiteral("tasks/get with resultType")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["resultType"] = "input_required"; }))});
    s.push_back({"CreateTaskResult on tasks/update", "acknowledges an answer with `resultType: task`",
                 {QStringLiteral("tasks/update with a task")},
                 all({at("tasks/get", 0, [](HostileServer &s, const Call &c) {
                          c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, inputRequired(s, kMeshSchema))));
                      }),
                      at("tasks/update", 0, edited([](json &m, const Call &) { m["result"]["resultType"] = "task"; }))}),
                 AutoAnswer});
    s.push_back({"CreateTaskResult on tasks/cancel", "acknowledges a cancel with `resultType: task`",
                 {QStringLiteral("tasks/cancel with a task")},
                 all({at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["status"] = "working"; m["result"].erase("result"); })),
                      at("tasks/cancel", 0, edited([](json &m, const Call &) { m["result"]["resultType"] = "task"; }))}),
                 Cancel});

    // --- tasks that change after an end state
    s.push_back({"completed, then working", "creates the task as `completed` without a result, then polls say `working`",
                 {done},
                 all({at("tools/call", 0, edited([](json &m, const Call &) { m["result"]["status"] = "completed"; })),
                      at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["status"] = "working"; m["result"].erase("result"); }))})});
    s.push_back({"completed, then completed with another result", "first poll completes with result A, later ones with result B",
                 {done},
                 at("tasks/get", 0, edited([](json &m, const Call &c) {
                     m["result"]["status"] = "completed";
                     m["result"]["result"] = {{"content", {{{"type", "text"}, {"text", c.count == 1 ? "result A" : "result B"}}}}};
                 })),
                 0, [](Monitor::Engine &e, HostileServer &, Store::TaskStore &) {
                     for (const auto &t : e.catalogue().tasks())
                         if (t.tool == QLatin1String("sim"))
                             QVERIFY2(t.result.contains(QLatin1String("result A")), qPrintable(t.result));
                 }});
    s.push_back({"answered input key asked again", "keeps listing the answered question `mesh` for five more polls",
                 {QStringLiteral("answer mesh: ok"), done},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tasks/get" || c.count >= 7)
                         return false;
                     c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, inputRequired(s, kMeshSchema))));
                     return true;
                 },
                 AutoAnswer,
                 [](Monitor::Engine &e, HostileServer &, Store::TaskStore &) {
                     for (const auto &t : e.catalogue().tasks())
                         for (const auto &r : e.catalogue().inputRequests(t.id))
                             QCOMPARE(int(r.state), int(Store::InputState::Answered));
                 }});

    // --- huge, endless and slow bodies
    s.push_back({"huge statusMessage (2 MB) on tasks/get", "a legal but 2 MB statusMessage", {done},
                 at("tasks/get", 1, edited([](json &m, const Call &) { m["result"]["statusMessage"] = std::string(2 << 20, 'x'); }))});
    s.push_back({"endless JSON body on tools/call", "a chunked `application/json` body that never ends",
                 {QStringLiteral("limit")},
                 at("tools/call", 0, [](HostileServer &, const Call &c) {
                     HostileServer::endless(c.socket, HttpPeer::chunkedHead(200, "application/json") + HttpPeer::chunk("["),
                                            [] { return HttpPeer::chunk(QByteArray(65536, ' ')); });
                 })});
    s.push_back({"endless SSE stream of comments on tasks/get", "an event stream that sends `: ping` every 50 ms and never an answer",
                 {QStringLiteral("tasks/get")},
                 at("tasks/get", 0, [](HostileServer &, const Call &c) {
                     HostileServer::every(c.socket, HttpPeer::chunkedHead(200, "text/event-stream"), 50,
                                          [] { return HttpPeer::chunk(": ping\n\n"); });
                 })});
    s.push_back({"SSE with no data on tools/call", "an event stream with an empty event, then the end",
                 {QStringLiteral("event stream")},
                 at("tools/call", 1, body("event: message\n\n: nothing\n\n", 200, "text/event-stream"))});
    s.push_back({"slow drip: 1 byte per 100 ms on tasks/get", "a valid answer, one byte every 100 ms",
                 {QStringLiteral("tasks/get")},
                 at("tasks/get", 0, [](HostileServer &s, const Call &c) {
                     HostileServer::drip(c.socket, HostileServer::http(QByteArray::fromStdString(s.normalAnswer(c).dump())), 100);
                 })});

    // --- resets
    s.push_back({"reset on server/discover", "drops the connection", {QStringLiteral("Cannot list the tools")},
                 at("server/discover", 0, reset())});
    s.push_back({"reset on tools/list", "drops the connection", {QStringLiteral("Cannot list the tools")},
                 at("tools/list", 0, reset())});
    s.push_back({"reset on the first tools/call", "drops the kept-alive connection once; the retry is answered",
                 {done}, at("tools/call", 1, reset()),
                 0, [](Monitor::Engine &e, HostileServer &s, Store::TaskStore &) {
                     QCOMPARE(s.count("tools/call"), 2);
                     int handles = 0;
                     for (const auto &t : e.catalogue().tasks())
                         handles += t.tool == QLatin1String("sim") ? 1 : 0;
                     QCOMPARE(handles, 1); // one case, one task: the retry did not duplicate it
                 }});
    s.push_back({"reset after the response headers (tasks/get)", "sends the status line and headers, then resets",
                 {QStringLiteral("tasks/get")},
                 at("tasks/get", 0, [](HostileServer &, const Call &c) {
                     c.socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n");
                     c.socket->flush();
                     c.socket->abort();
                 })});
    s.push_back({"reset mid-body (tasks/get)", "sends half the answer, then resets", {QStringLiteral("tasks/get")},
                 at("tasks/get", 0, [](HostileServer &s, const Call &c) {
                     const QByteArray all = HostileServer::http(QByteArray::fromStdString(s.normalAnswer(c).dump()));
                     c.socket->write(all.left(all.size() - 40));
                     c.socket->flush();
                     c.socket->abort();
                 })});

    // --- 429 / 503
    s.push_back({"429 without Retry-After on the first poll", "HTTP 429, empty body, then normal",
                 {QStringLiteral("rate-limiting"), done}, at("tasks/get", 1, status(429))});
    s.push_back({"429 with Retry-After: 1 on the first tools/call", "HTTP 429 + Retry-After: 1, then normal",
                 {QStringLiteral("rate-limiting"), QStringLiteral("re-sent"), done},
                 at("tools/call", 1, status(429, {{"Retry-After", "1"}}))});
    s.push_back({"503 with an absurd Retry-After on tasks/get", "HTTP 503 + Retry-After: 99999999999 on every poll",
                 {QStringLiteral("temporarily unavailable")},
                 at("tasks/get", 0, status(503, {{"Retry-After", "99999999999"}})),
                 0, [](Monitor::Engine &e, HostileServer &, Store::TaskStore &store) {
                     // Honoured but capped: the next poll is at most a day away, and the task is
                     // still live (not lost, not failed).
                     for (const auto &t : store.liveTasks()) {
                         const auto due = e.scheduler().dueAtMs(t.id);
                         QVERIFY(due);
                         QVERIFY(*due <= QDateTime::currentMSecsSinceEpoch() + 24LL * 3600 * 1000 + 120000);
                     }
                     QCOMPARE(store.liveTasks().size(), 1);
                 }});
    s.push_back({"503 with a garbage Retry-After on the first poll", "HTTP 503 + Retry-After: soon, then normal",
                 {QStringLiteral("temporarily unavailable"), done}, at("tasks/get", 1, status(503, {{"Retry-After", "soon"}}))});
    s.push_back({"503 with a JSON-RPC error body on the first poll", "HTTP 503, a -32603 body and Retry-After: 1, then normal",
                 {QStringLiteral("overloaded"), done},
                 at("tasks/get", 1, [](HostileServer &, const Call &c) {
                     c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32603, "overloaded"), 503,
                                                         "application/json", {{"Retry-After", "1"}}));
                 })});
    s.push_back({"HTTP 500 with an HTML page on tools/call", "`<html>Internal error</html>`", {QStringLiteral("HTTP 500")},
                 at("tools/call", 0, body("<html>Internal error</html>", 500, "text/html"))});
    s.push_back({"HTTP 401 on tools/list", "HTTP 401, empty body", {QStringLiteral("access token")},
                 at("tools/list", 0, status(401))});

    // --- redirects and TLS
    s.push_back({"redirect to another port on tools/call", "307 to http://127.0.0.1:9/mcp", {QStringLiteral("HTTP 307")},
                 at("tools/call", 0, status(307, {{"Location", "http://127.0.0.1:9/mcp"}}))});
    s.push_back({"redirect loop on tasks/get", "302 to itself, every time", {QStringLiteral("HTTP 302")},
                 at("tasks/get", 0, [](HostileServer &s, const Call &c) {
                     c.socket->write(HostileServer::http("", 302, "", {{"Location", s.url().toString().toLatin1()}}));
                 })});
    s.push_back({"redirect to file:// on server/discover", "301 to file:///etc/passwd", {QStringLiteral("HTTP 301")},
                 at("server/discover", 0, status(301, {{"Location", "file:///etc/passwd"}}))});
    s.push_back({"https:// URL on a plain-HTTP port", "the URL says https, the port speaks HTTP",
                 {QStringLiteral("Cannot list the tools")}, {}, HttpsToPlain});
    s.push_back({"self-signed TLS certificate", "a TLS server whose certificate nobody signed",
                 {QStringLiteral("certificate")}, {}, SelfSigned});

    // --- headers
    s.push_back({"Mcp-Name mismatch on every tools/call", "HTTP 400 + -32020 Header mismatch, always",
                 {QStringLiteral("stripped")},
                 at("tools/call", 0, [](HostileServer &, const Call &c) {
                     c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32020, "Header mismatch: Mcp-Name"), 400));
                 }),
                 0, [](Monitor::Engine &, HostileServer &s, Store::TaskStore &) {
                     QCOMPARE(s.count("tools/call"), 2); // one re-list and one retry, not a loop
                     QCOMPARE(s.count("tools/list"), 2);
                 }});
    s.push_back({"wrong content-type: text/html around a JSON-RPC answer", "every tasks/get answer labelled text/html",
                 {done}, at("tasks/get", 0, edited([](json &, const Call &) {}, 200, "text/html"))});
    s.push_back({"JSON body labelled text/event-stream (tools/call)", "a plain JSON answer with Content-Type: text/event-stream",
                 {QStringLiteral("event stream")},
                 at("tools/call", 0, edited([](json &, const Call &) {}, 200, "text/event-stream"))});

    // --- numbers out of range
    s.push_back({"pollIntervalMs 1e999", "`\"pollIntervalMs\": 1e999` on every poll", {QStringLiteral("not valid JSON")},
                 at("tasks/get", 0, editedText([](QByteArray t) { return t.replace("\"pollIntervalMs\":250", "\"pollIntervalMs\":1e999"); }))});
    s.push_back({"pollIntervalMs 1e308", "`\"pollIntervalMs\": 1e308` everywhere", {QStringLiteral("clamped"), QStringLiteral("changed: working")},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tools/call" && c.method != "tasks/get")
                         return false;
                     json m = s.normalAnswer(c);
                     m["result"]["pollIntervalMs"] = 1e308;
                     c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
                     return true;
                 },
                 0, [](Monitor::Engine &e, HostileServer &, Store::TaskStore &store) {
                     for (const auto &t : store.liveTasks()) {
                         const auto due = e.scheduler().dueAtMs(t.id);
                         QVERIFY(due);
                         QVERIFY2(*due <= QDateTime::currentMSecsSinceEpoch() + 64000, "clamped to the 60 s ceiling");
                     }
                 }});
    s.push_back({"ttlMs as a string", "`\"ttlMs\": \"600000\"` everywhere", {QStringLiteral("ignored"), done},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tools/call" && c.method != "tasks/get")
                         return false;
                     json m = s.normalAnswer(c);
                     m["result"]["ttlMs"] = "600000";
                     c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
                     return true;
                 }});
    s.push_back({"negative pollIntervalMs", "`\"pollIntervalMs\": -5` everywhere", {done},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tools/call" && c.method != "tasks/get")
                         return false;
                     json m = s.normalAnswer(c);
                     m["result"]["pollIntervalMs"] = -5;
                     c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
                     return true;
                 }});
    s.push_back({"pollIntervalMs 0", "`\"pollIntervalMs\": 0` everywhere", {done},
                 [](HostileServer &s, const Call &c) {
                     if (c.method != "tools/call" && c.method != "tasks/get")
                         return false;
                     json m = s.normalAnswer(c);
                     m["result"]["pollIntervalMs"] = 0;
                     c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
                     return true;
                 },
                 0, [](Monitor::Engine &, HostileServer &s, Store::TaskStore &) {
                     QVERIFY2(s.count("tasks/get") <= 4, "polled no faster than the 250 ms floor");
                 }});
    s.push_back({"pollIntervalMs 10^12", "`\"pollIntervalMs\": 1000000000000` on the first poll (working)",
                 {QStringLiteral("changed: working")},
                 at("tasks/get", 1, edited([](json &m, const Call &) { m["result"]["pollIntervalMs"] = 1000000000000LL; })),
                 0, [](Monitor::Engine &e, HostileServer &s, Store::TaskStore &store) {
                     QTRY_VERIFY_WITH_TIMEOUT(s.count("tasks/get") >= 1, 30000);
                     for (const auto &t : store.liveTasks()) {
                         const auto due = e.scheduler().dueAtMs(t.id);
                         QVERIFY(due);
                         QVERIFY2(*due <= QDateTime::currentMSecsSinceEpoch() + 64000, "clamped to the 60 s ceiling (+ at most one 1 s phase slot)");
                     }
                 }});
    s.push_back({"ttlMs 0: expired at once, then forgotten", "a handle with `ttlMs: 0`, then -32602 Unknown task on every poll",
                 {QStringLiteral("forgot the task after its TTL")},
                 all({at("tools/call", 0, edited([](json &m, const Call &) { m["result"]["ttlMs"] = 0; })),
                      at("tasks/get", 0, [](HostileServer &, const Call &c) {
                          c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32602, "Unknown task")));
                      })}),
                 0, [](Monitor::Engine &, HostileServer &, Store::TaskStore &store) {
                     QVERIFY(store.liveTasks().isEmpty());
                 }});

    // --- task ids and statuses
    s.push_back({"unknown task status", "`\"status\": \"paused\"` on every poll", {QStringLiteral("unknown status")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["status"] = "paused"; }))});
    s.push_back({"missing taskId on tools/call", "a CreateTaskResult without `taskId`", {QStringLiteral("no taskId")},
                 at("tools/call", 0, edited([](json &m, const Call &) { m["result"].erase("taskId"); }))});
    s.push_back({"taskId with control characters", "`taskId` = \"t\\u0001\\r\\nX-Evil: 1\"", {done},
                 [](HostileServer &s, const Call &c) {
                     s.taskId = "t\x01\r\nX-Evil: 1";
                     if (c.method == "tasks/get" && !c.request.header("X-Evil").isEmpty()) {
                         c.socket->write(HostileServer::http("header injected", 500, "text/plain"));
                         return true;
                     }
                     return false;
                 }});
    s.push_back({"taskId 10 KB long", "a 10,240-character `taskId`", {done},
                 [](HostileServer &s, const Call &) {
                     s.taskId = "t" + std::string(10239, 'k');
                     return false;
                 }});
    s.push_back({"tasks/get about another task", "answers polls with another `taskId`", {QStringLiteral("about another task")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["taskId"] = "someone-else"; }))});
    s.push_back({"tasks/get about another task, for ever", "every poll answers about another `taskId`",
                 {QStringLiteral("unreliable")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["taskId"] = "someone-else"; })),
                 0, [](Monitor::Engine &, HostileServer &s, Store::TaskStore &store) {
                     QVERIFY(store.liveTasks().isEmpty());
                     QCOMPARE(s.count("tasks/get"), 3); // given up after the limit, no busy loop
                 },
                 [](Monitor::Engine &e) { e.setWrongTaskLimit(3); }});
    // The same with the messages in German: the engine tells the fault by its kind, not its text.
    s.push_back({"tasks/get about another task, for ever, in German", "the same, in a German window",
                 {QStringLiteral("unreliable")},
                 at("tasks/get", 0, edited([](json &m, const Call &) { m["result"]["taskId"] = "someone-else"; })),
                 German, [](Monitor::Engine &, HostileServer &s, Store::TaskStore &store) {
                     QVERIFY(store.liveTasks().isEmpty());
                     QCOMPARE(s.count("tasks/get"), 3);
                 },
                 [](Monitor::Engine &e) { e.setWrongTaskLimit(3); }});
    s.push_back({"failed task whose error is not an object", "`\"status\":\"failed\",\"error\":\"nope\"`",
                 {QStringLiteral("error is not an object")},
                 at("tasks/get", 0, edited([](json &m, const Call &) {
                     m["result"]["status"] = "failed";
                     m["result"].erase("result");
                     m["result"]["error"] = "nope";
                 }))});

    // --- tools/list
    s.push_back({"tools/list cursor loop", "every page is empty and says `nextCursor: \"again\"`",
                 {QStringLiteral("cursor")},
                 at("tools/list", 0, edited([](json &m, const Call &) {
                     m["result"]["tools"] = json::array();
                     m["result"]["nextCursor"] = "again";
                 })),
                 0, [](Monitor::Engine &, HostileServer &s, Store::TaskStore &) {
                     QVERIFY2(s.count("tools/list") <= 3, qPrintable(QString::number(s.count("tools/list"))));
                 }});
    s.push_back({"duplicate tool names", "lists `sim` twice with different schemas",
                 {QStringLiteral("more than once"), done},
                 [](HostileServer &s, const Call &) {
                     if (s.tools.size() == 1) {
                         json twin = s.tools[0];
                         twin["inputSchema"]["properties"]["n"]["type"] = "string";
                         s.tools.push_back(twin);
                     }
                     return false;
                 }});

    // --- elicitation
    s.push_back({"elicitation schema with every unsupported construct",
                 "asks with `$ref`, `oneOf`, an array of objects, a 10,000-value enum and a `pattern`",
                 {QStringLiteral("input asked: mesh")},
                 at("tasks/get", 0, [](HostileServer &s, const Call &c) {
                     json bigEnum = json::array();
                     for (int i = 0; i < 10000; ++i)
                         bigEnum.push_back("v" + std::to_string(i));
                     json schema = json::parse(R"({"type": "object",
                         "$defs": {"cell": {"type": "integer"}},
                         "properties": {
                             "cells": {"$ref": "#/$defs/cell"},
                             "shape": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                             "patches": {"type": "array", "items": {"type": "object", "properties":
                                 {"a": {"type": "array", "items": {"type": "object"}}}}},
                             "scheme": {"type": "string"},
                             "tag": {"type": "string", "pattern": "^(a+)+$"}},
                         "required": ["cells", "shape", "patches", "scheme", "tag"]})");
                     schema["properties"]["scheme"]["enum"] = bigEnum;
                     c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, inputRequired(s, schema))));
                 }),
                 AutoAnswer});
    return s;
}

// Everything the user sees of a run, one line per event.
QStringList *g_transcript = nullptr;
QtMessageHandler g_previous = nullptr;

void captureLog(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_transcript && type != QtDebugMsg)
        g_transcript->append(QStringLiteral("log: ") + message);
    if (g_previous)
        g_previous(type, context, message);
}

} // namespace

class tst_Hostile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void misbehaviour_data();
    void misbehaviour();

private:
    void checkNothingLost(Store::TaskStore &store);

    Eddy::Test::TestServer m_real;
    QTemporaryDir m_dir;
    QString m_seedDb;
    Store::TaskRecord m_seed;
    QList<Store::TaskEventRecord> m_seedEvents;
};

void tst_Hostile::initTestCase()
{
    QVERIFY(Net::initGlobal());
    QVERIFY(m_dir.isValid());
    // The seed: one task completed against the real server, in the database every row starts from.
    QVERIFY2(m_real.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_real.errorString()));
    m_seedDb = m_dir.filePath(QStringLiteral("seed.sqlite"));
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QSignalSpy rejected(&engine, &Monitor::Engine::submissionRejected);
    QVERIFY(engine.open(m_seedDb));
    const qint64 sid = engine.addServer(m_real.url());
    QVERIFY(sid > 0);
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":16,"max_iterations":200})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size() + rejected.size(), 1, 120000);
    QCOMPARE(rejected.size(), 0);
    m_seed = finished.first().at(0).value<Store::TaskRecord>();
    QCOMPARE(m_seed.status, Store::TaskStatus::Completed);
    QVERIFY(!m_seed.result.isEmpty());
    m_seed = *engine.catalogue().task(m_seed.id);
    m_seedEvents = engine.catalogue().taskEvents(m_seed.id);
    QVERIFY(!m_seedEvents.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(engine.isIdle(), 30000);
    engine.close();
}

void tst_Hostile::misbehaviour_data()
{
    QTest::addColumn<int>("index");
    const auto all = catalogue();
    QVERIFY2(all.size() >= 40, "the catalogue promises at least 40 misbehaviours");
    for (size_t i = 0; i < all.size(); ++i)
        QTest::newRow(all[i].name) << int(i);
}

void tst_Hostile::checkNothingLost(Store::TaskStore &store)
{
    const auto seed = store.task(m_seed.id);
    QVERIFY(seed);
    QCOMPARE(seed->status, Store::TaskStatus::Completed);
    QCOMPARE(seed->result, m_seed.result);
    QCOMPARE(seed->statusMessage, m_seed.statusMessage);
    QCOMPARE(seed->finishedAtMs, m_seed.finishedAtMs);
    const auto events = store.taskEvents(m_seed.id);
    QCOMPARE(events.size(), m_seedEvents.size());
    for (qsizetype i = 0; i < events.size(); ++i) {
        QCOMPARE(events[i].status, m_seedEvents[i].status);
        QCOMPARE(events[i].statusMessage, m_seedEvents[i].statusMessage);
    }
    for (const Store::TaskRecord &t : store.tasks()) {
        bool ended = false;
        for (const Store::TaskEventRecord &e : store.taskEvents(t.id)) {
            QVERIFY2(!(ended && !Store::isTerminal(e.status)),
                     qPrintable(QStringLiteral("task %1 went from an end state back to %2").arg(t.id).arg(Store::toText(e.status))));
            ended = ended || Store::isTerminal(e.status);
        }
        QVERIFY2(!(ended && t.isLive()), qPrintable(QStringLiteral("task %1 is live after an end state").arg(t.id)));
    }
    // One case per submission: no duplicated jobs.
    QVERIFY(store.tasks().size() <= 2);
}

void tst_Hostile::misbehaviour()
{
    QFETCH(int, index);
    const Scenario sc = catalogue()[size_t(index)];
    const QString db = m_dir.filePath(QStringLiteral("row%1.sqlite").arg(index));
    QFile::remove(db);
    QVERIFY(QFile::copy(m_seedDb, db));

    HostileServer server;
    server.setFault(sc.fault);
    QVERIFY(server.listen());
    QString url = server.url().toString();
    Eddy::Test::SelfSignedTlsServer tls;
    if (sc.flags & HttpsToPlain)
        url.replace(QStringLiteral("http://"), QStringLiteral("https://"));
    if (sc.flags & SelfSigned) {
        QString error;
        QVERIFY2(tls.start(m_dir.path(), &error), qPrintable(error));
        url = QStringLiteral("https://127.0.0.1:%1/mcp").arg(tls.serverPort());
    }

    QTranslator german;
    if (sc.flags & German) {
        QVERIFY2(german.load(QStringLiteral(":/i18n/eddy_de.qm")), "the German translation is not built into the test");
        QCoreApplication::installTranslator(&german);
        QVERIFY2(QCoreApplication::translate("Eddy::Mcp::Client", "it is about another task")
                     != QLatin1String("it is about another task"),
                 "the German translation does not translate the wrong-task message");
    }
    auto removeGerman = qScopeGuard([&german] { QCoreApplication::removeTranslator(&german); });
    QStringList transcript;
    g_transcript = &transcript;
    g_previous = qInstallMessageHandler(captureLog);
    auto restore = qScopeGuard([] {
        qInstallMessageHandler(g_previous);
        g_transcript = nullptr;
    });
    const auto seen = [&transcript](const QString &phrase) {
        for (const QString &line : std::as_const(transcript))
            if (line.contains(phrase, Qt::CaseInsensitive))
                return true;
        return false;
    };
    {
        Monitor::Engine engine;
        engine.setRequestTimeoutMs(3000);
        engine.setBatchIntervalMs(5);
        QObject ctx;
        connect(&engine, &Monitor::Engine::submissionRejected, &ctx, [&](const QString &m) { transcript << "rejected: " + m; });
        connect(&engine, &Monitor::Engine::caseRejected, &ctx, [&](qint64, const QString &m) { transcript << "case rejected: " + m; });
        connect(&engine, &Monitor::Engine::operationFailed, &ctx, [&](const QString &m) { transcript << "failed: " + m; });
        connect(&engine, &Monitor::Engine::serverStateChanged, &ctx,
                [&](qint64, Monitor::Engine::ServerState st, const QString &m) {
                    transcript << QStringLiteral("server %1: %2").arg(QString::fromLatin1(QMetaEnum::fromType<Monitor::Engine::ServerState>().valueToKey(int(st))), m);
                });
        connect(&engine, &Monitor::Engine::taskFinished, &ctx, [&](const Store::TaskRecord &t) {
            transcript << QStringLiteral("task %1: %2").arg(Store::toText(t.status), t.statusMessage.left(200));
        });
        connect(&engine, &Monitor::Engine::changesReady, &ctx, [&](const Monitor::ChangeSet &c) {
            for (const auto &t : c.tasks)
                transcript << QStringLiteral("changed: %1").arg(Store::toText(t.status));
        });
        connect(&engine, &Monitor::Engine::inputRequested, &ctx,
                [&](const Store::InputRequestRecord &r) { transcript << "input asked: " + r.key; });
        connect(&engine, &Monitor::Engine::inputAnswered, &ctx, [&](qint64, const QString &key, bool ok, const QString &m) {
            transcript << QStringLiteral("answer %1: %2 %3").arg(key, ok ? QStringLiteral("ok") : QStringLiteral("refused"), m);
        });
        connect(&engine, &Monitor::Engine::caseInputRequested, &ctx, [&](const Monitor::Engine::CaseQuestion &q) {
            transcript << QStringLiteral("the call of %1 asks before starting: %2").arg(q.tool, q.key);
        });
        connect(&engine, &Monitor::Engine::caseRetrying, &ctx, [&](qint64, int, int, qint64, const QString &m) {
            transcript << "retrying: " + m;
        });
        connect(&engine, &Monitor::Engine::caseDeferred, &ctx, [&](qint64, const QString &m) { transcript << "deferred: " + m; });
        connect(&engine, &Monitor::Engine::caseSubmitted, &ctx, [&](qint64, qint64 taskId) {
            transcript << QStringLiteral("submitted");
            if (sc.flags & Cancel)
                QTimer::singleShot(0, &engine, [&engine, taskId] { engine.cancelTasks({taskId}); });
        });

        if (sc.setup)
            sc.setup(engine);
        QVERIFY(engine.open(db));
        if (sc.flags & AutoAnswer)
            engine.setAutoAnswers(json{{"cells", 32}});
        const qint64 sid = engine.addServer(url);
        QVERIFY2(sid > 0, qPrintable(transcript.join(QLatin1Char('\n'))));
        engine.callOnce(sid, QStringLiteral("sim"), R"({"n":1})", std::nullopt);

        for (const QString &phrase : sc.expect)
            QTRY_VERIFY2_WITH_TIMEOUT(seen(phrase),
                                      qPrintable(QStringLiteral("\"%1\" never shown; Eddy showed:\n%2")
                                                     .arg(phrase, transcript.join(QLatin1Char('\n')).left(4000))),
                                      30000);
        if (sc.check) {
            Store::TaskStore store; // the same file, through a connection of the test's own
            QVERIFY(store.open(db));
            sc.check(engine, server, store);
            if (QTest::currentTestFailed())
                qWarning().noquote() << "Eddy showed:\n" << transcript.join(QLatin1Char('\n')).left(4000);
        }
        if (QTest::currentTestFailed())
            return;
        // No key asked twice.
        QVERIFY(transcript.filter(QStringLiteral("input asked: ")).size() <= 1);
        {
            Store::TaskStore store;
            QVERIFY(store.open(db));
            checkNothingLost(store);
        }
        if (qEnvironmentVariableIsSet("EDDY_HOSTILE_TABLE")) {
            QStringList shown;
            for (const QString &line : std::as_const(transcript))
                if (!line.startsWith(QLatin1String("changed:")) && !line.startsWith(QLatin1String("log: opened"))
                    && !line.startsWith(QLatin1String("submitted")))
                    shown << line.left(300);
            qInfo().noquote() << "TABLE|" << sc.name << "|" << sc.does << "|" << shown.mid(0, 4).join(QStringLiteral(" / "));
        }
        // The engine goes away with whatever is still in flight (endless streams included).
    }
    Store::TaskStore reopened;
    QVERIFY(reopened.open(db));
    checkNothingLost(reopened);
}

QTEST_GUILESS_MAIN(tst_Hostile)
#include "tst_hostile.moc"
