// The 2025-11-25 compatibility mode of eddy-cfd-server: initialize and sessions, the task
// param and nested CreateTaskResult, flat tasks/get, blocking tasks/result carrying the mesh
// elicitation as a server-to-client request on its SSE stream, tasks/list paging, tasks/cancel.

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QtTest>

#include <set>

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;
using Eddy::Test::SseReader;

namespace {

json quickArgs(int iterations = 3000)
{
    return {{"case_name", "legacy"}, {"reynolds", 100}, {"grid", 16},
            {"max_iterations", iterations}, {"tolerance", 1e-5}};
}

} // namespace

class tst_ServerLegacy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void initializeAndList();
    void taskParamAndPolling();
    void resultCarriesElicitation();
    void abortMakesTaskFailed();
    void callWithoutTaskBlocks();
    void listPages();
    void cancelReturnsTask();
    void unknownSession();
    void sessionGoneAfterRestart();
    void pollsLoggedAtDebug();

private:
    std::string createLegacyTask(const json &args, int ttl = 60000)
    {
        const HttpReply r = m_client->legacy(m_session, "tools/call",
            {{"name", "run_cfd_case"}, {"arguments", args}, {"task", {{"ttl", ttl}}}});
        return r.result()["task"].value("taskId", "");
    }
    json legacyGet(const std::string &id)
    {
        return m_client->legacy(m_session, "tasks/get", {{"taskId", id}}).result();
    }

    Eddy::Test::TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
    std::string m_session;
};

void tst_ServerLegacy::initTestCase()
{
    QVERIFY2(m_server.start({"--workers", "1"}), qPrintable(m_server.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
}

void tst_ServerLegacy::initializeAndList()
{
    const json message = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                      {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
    const HttpReply init = m_client->post(message.dump(), m_client->legacyHeaders({}));
    QCOMPARE(init.status, 200L);
    QCOMPARE(init.result().value("protocolVersion", ""), std::string("2025-11-25"));
    QVERIFY(init.result()["capabilities"]["tasks"]["requests"]["tools"].contains("call"));
    QVERIFY(init.result()["capabilities"]["tasks"].contains("list"));
    QVERIFY(init.result()["capabilities"]["tasks"].contains("cancel"));
    QVERIFY(!init.result().contains("resultType"));
    QVERIFY(init.headers.count("mcp-session-id"));
    m_session = init.headers.at("mcp-session-id");
    QVERIFY(m_session.size() >= 32);

    const HttpReply note = m_client->legacyRaw(m_session, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    QCOMPARE(note.status, 202L);

    const HttpReply tools = m_client->legacy(m_session, "tools/list");
    QCOMPARE(tools.status, 200L);
    QCOMPARE(tools.result()["tools"][0]["execution"]["taskSupport"].get<std::string>(), std::string("optional"));
}

void tst_ServerLegacy::taskParamAndPolling()
{
    const HttpReply r = m_client->legacy(m_session, "tools/call",
        {{"name", "run_cfd_case"}, {"arguments", quickArgs()}, {"task", {{"ttl", 60000}}}});
    QCOMPARE(r.status, 200L);
    const json &task = r.result()["task"];
    QVERIFY2(task.is_object(), r.body.c_str());
    QVERIFY(!r.result().contains("resultType"));
    QCOMPARE(task.value("status", ""), std::string("working"));
    QCOMPARE(task["ttl"].get<int>(), 60000);
    QVERIFY(task["pollInterval"].is_number_integer());
    const std::string id = task["taskId"].get<std::string>();

    json polled;
    QTRY_VERIFY_WITH_TIMEOUT(McpTestClient::isTerminal(polled = legacyGet(id)), 60000);
    QCOMPARE(polled.value("status", ""), std::string("completed"));
    QCOMPARE(polled.value("taskId", ""), id);
    QVERIFY(!polled.contains("result")); // 2025: the payload comes from tasks/result
    QVERIFY(!polled.contains("ttlMs"));

    // tasks/result on a finished task answers at once with the CallToolResult.
    const HttpReply result = m_client->legacy(m_session, "tasks/result", {{"taskId", id}});
    QCOMPARE(result.status, 200L);
    QCOMPARE(result.result().value("isError", true), false);
    QVERIFY(result.result().contains("structuredContent"));
    QCOMPARE(result.result()["_meta"]["io.modelcontextprotocol/related-task"]["taskId"].get<std::string>(), id);

    // Invalid arguments: a tool error, no task.
    const HttpReply bad = m_client->legacy(m_session, "tools/call",
        {{"name", "run_cfd_case"}, {"arguments", {{"reynolds", -1}, {"grid", 16}}}, {"task", json::object()}});
    QCOMPARE(bad.result().value("isError", false), true);
    QVERIFY(!bad.result().contains("task"));
}

void tst_ServerLegacy::resultCarriesElicitation()
{
    json args = quickArgs();
    args["force_mesh_defect"] = true;
    const std::string id = createLegacyTask(args);
    QVERIFY(!id.empty());

    const json message = {{"jsonrpc", "2.0"}, {"id", "result-1"}, {"method", "tasks/result"}, {"params", {{"taskId", id}}}};
    SseReader reader;
    reader.start(m_client->url(), message.dump(), m_client->legacyHeaders(m_session));
    const json ask = reader.waitForEvent([](const json &e) { return e.value("method", "") == "elicitation/create"; });
    QVERIFY2(!ask.is_null(), reader.rawText().c_str());
    QVERIFY(ask.contains("id"));
    QCOMPARE(ask["params"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"].get<std::string>(), id);
    QVERIFY(ask["params"]["requestedSchema"]["properties"].contains("action"));
    QCOMPARE(legacyGet(id).value("status", ""), std::string("input_required"));

    const json answer = {{"jsonrpc", "2.0"}, {"id", ask["id"]},
                         {"result", {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 2}}},
                                     {"_meta", {{"io.modelcontextprotocol/related-task", {{"taskId", id}}}}}}}};
    const HttpReply posted = m_client->legacyRaw(m_session, answer);
    QCOMPARE(posted.status, 202L);

    const json final = reader.waitForEvent([](const json &e) { return e.value("id", json()) == "result-1"; });
    QVERIFY2(!final.is_null(), reader.rawText().c_str());
    QCOMPARE(final["result"].value("isError", true), false);
    QCOMPARE(final["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"].get<std::string>(), id);
    QCOMPARE(legacyGet(id).value("status", ""), std::string("completed"));
    reader.stop();
}

void tst_ServerLegacy::abortMakesTaskFailed()
{
    json args = quickArgs();
    args["force_mesh_defect"] = true;
    const std::string id = createLegacyTask(args);
    const json message = {{"jsonrpc", "2.0"}, {"id", 77}, {"method", "tasks/result"}, {"params", {{"taskId", id}}}};
    SseReader reader;
    reader.start(m_client->url(), message.dump(), m_client->legacyHeaders(m_session));
    const json ask = reader.waitForEvent([](const json &e) { return e.value("method", "") == "elicitation/create"; });
    QVERIFY(!ask.is_null());
    m_client->legacyRaw(m_session, {{"jsonrpc", "2.0"}, {"id", ask["id"]},
                                    {"result", {{"action", "accept"}, {"content", {{"action", "abort"}}}}}});
    const json final = reader.waitForEvent([](const json &e) { return e.value("id", json()) == 77; });
    QVERIFY2(!final.is_null(), reader.rawText().c_str());
    QCOMPARE(final["result"].value("isError", false), true);
    // Legacy semantics: a tool error makes the task failed.
    QCOMPARE(legacyGet(id).value("status", ""), std::string("failed"));
    reader.stop();
}

void tst_ServerLegacy::callWithoutTaskBlocks()
{
    const HttpReply r = m_client->legacy(m_session, "tools/call", {{"name", "run_cfd_case"}, {"arguments", quickArgs()}});
    QCOMPARE(r.status, 200L);
    QCOMPARE(r.result().value("isError", true), false);
    QCOMPARE(r.result()["structuredContent"]["converged"].get<bool>(), true);
}

void tst_ServerLegacy::listPages()
{
    // A fresh session sees the same token's legacy tasks; create enough for three pages of 50
    // (the cursors of the third page on are no whole number of base64 quads).
    std::set<std::string> created;
    for (int i = 0; i < 105; ++i)
        created.insert(createLegacyTask(quickArgs(1)));
    QCOMPARE(created.size(), std::size_t(105));
    std::set<std::string> seen;
    json params = json::object();
    int pages = 0;
    while (true) {
        const HttpReply r = m_client->legacy(m_session, "tasks/list", params);
        QCOMPARE(r.status, 200L);
        QVERIFY2(r.errorCode() == 0, r.body.c_str());
        for (const json &t : r.result()["tasks"]) {
            QVERIFY(t.contains("ttl"));
            QVERIFY(seen.insert(t["taskId"].get<std::string>()).second);
        }
        ++pages;
        if (!r.result().contains("nextCursor"))
            break;
        params = {{"cursor", r.result()["nextCursor"]}};
        QVERIFY(pages < 10);
    }
    QVERIFY(pages >= 3);
    for (const std::string &id : created)
        QVERIFY(seen.count(id));
    const HttpReply bad = m_client->legacy(m_session, "tasks/list", {{"cursor", "not-a-cursor!"}});
    QCOMPARE(bad.errorCode(), -32602);
}

void tst_ServerLegacy::cancelReturnsTask()
{
    const std::string id = createLegacyTask({{"reynolds", 100}, {"grid", 128}, {"max_iterations", 10000000}, {"tolerance", 1e-14}});
    QVERIFY(!id.empty());
    const HttpReply r = m_client->legacy(m_session, "tasks/cancel", {{"taskId", id}});
    QCOMPARE(r.result().value("status", ""), std::string("cancelled"));
    QCOMPARE(r.result().value("taskId", ""), id);
    QCOMPARE(legacyGet(id).value("status", ""), std::string("cancelled"));
    // Already terminal: -32602 under 2025-11-25.
    const HttpReply again = m_client->legacy(m_session, "tasks/cancel", {{"taskId", id}});
    QCOMPARE(again.errorCode(), -32602);
    const HttpReply unknown = m_client->legacy(m_session, "tasks/get", {{"taskId", "00000000000000000000000000000000"}});
    QCOMPARE(unknown.errorCode(), -32602);
}

void tst_ServerLegacy::unknownSession()
{
    HttpReply r = m_client->legacy("0123456789abcdef0123456789abcdef", "tools/list");
    QCOMPARE(r.status, 404L);
    // DELETE ends a session; it is unknown afterwards.
    const std::string session = m_client->initialize();
    QVERIFY(!session.empty());
    QCOMPARE(m_client->legacy(session, "ping").status, 200L);
    r = m_client->send({}, "DELETE", {"Mcp-Session-Id: " + session});
    QCOMPARE(r.status, 200L);
    r = m_client->legacy(session, "ping");
    QCOMPARE(r.status, 404L);
    QVERIFY(r.errorCode() != 0);
}

void tst_ServerLegacy::sessionGoneAfterRestart()
{
    // Sessions live in memory (docs/server-protocol.md): after a restart the old Mcp-Session-Id gets
    // 404, which tells a 2025-11-25 client to initialize again; its tasks are durable and
    // answer in the new session.
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "1"}), qPrintable(server.errorString()));
    McpTestClient before(server.url());
    const std::string session = before.initialize();
    QVERIFY(!session.empty());
    const HttpReply created = before.legacy(session, "tools/call",
        {{"name", "run_cfd_case"},
         {"arguments", {{"reynolds", 100}, {"grid", 16}, {"force_mesh_defect", true}}},
         {"task", {{"ttl", 600000}}}});
    const std::string id = created.result()["task"].value("taskId", "");
    QVERIFY2(!id.empty(), created.body.c_str());

    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    McpTestClient after(server.url());
    const HttpReply stale = after.legacy(session, "tasks/get", {{"taskId", id}});
    QCOMPARE(stale.status, 404L);
    QCOMPARE(stale.errorCode(), -32001);
    QVERIFY2(stale.body.find("initialize") != std::string::npos, stale.body.c_str());

    const std::string fresh = after.initialize();
    QVERIFY(!fresh.empty());
    QVERIFY(fresh != session);
    const HttpReply again = after.legacy(fresh, "tasks/get", {{"taskId", id}});
    QCOMPARE(again.status, 200L);
    QCOMPARE(again.result().value("taskId", ""), id);
    QVERIFY(again.result().value("status", "") != "");
}

void tst_ServerLegacy::pollsLoggedAtDebug()
{
    // At debug level each tasks/get is one line with the id cut short, as in the 2026 era: a
    // maintainer (and bench_compare discipline) counts who polls how often from the log alone.
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "1", "--log-level", "debug"}), qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const std::string session = client.initialize();
    QVERIFY(!session.empty());
    const HttpReply created = client.legacy(session, "tools/call",
        {{"name", "run_cfd_case"},
         {"arguments", {{"reynolds", 100}, {"grid", 16}, {"force_mesh_defect", true}}},
         {"task", {{"ttl", 600000}}}});
    const std::string id = created.result()["task"].value("taskId", "");
    QVERIFY2(id.size() > 6, created.body.c_str());
    for (int i = 0; i < 3; ++i)
        QCOMPARE(client.legacy(session, "tasks/get", {{"taskId", id}}).status, 200L);
    const QByteArray log = server.standardError();
    QCOMPARE(log.count(QByteArray("tasks/get ") + QByteArray::fromStdString(id.substr(0, 6)) + "…"), 3);
    QVERIFY2(!log.contains(QByteArray::fromStdString(id)), "the whole task id is in the log");
}

QTEST_GUILESS_MAIN(tst_ServerLegacy)
#include "tst_serverlegacy.moc"
