// Bearer-token authentication and per-task ownership, and TTL expiry with purge, on the real
// eddy-cfd-server (restarted on the same data folder with another token to prove that a task
// is bound to the token that created it).

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QtTest>

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;

namespace {

json quickArgs()
{
    return {{"reynolds", 100}, {"grid", 16}, {"max_iterations", 2000}, {"tolerance", 1e-5}};
}

} // namespace

class tst_ServerAuth : public QObject
{
    Q_OBJECT

private slots:
    void missingOrWrongToken();
    void taskBoundToToken();
    void ttlPurge();
};

void tst_ServerAuth::missingOrWrongToken()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--token", "s3cret-A", "--workers", "1"}), qPrintable(server.errorString()));
    McpTestClient client(server.url());

    HttpReply r = client.request("tools/list");
    QCOMPARE(r.status, 401L);
    QVERIFY(r.errorCode() != 0);
    QVERIFY(r.json["error"]["message"].get<std::string>().find("Authorization") != std::string::npos);
    QVERIFY(r.headers.count("www-authenticate"));

    client.setToken("wrong");
    r = client.request("tools/list");
    QCOMPARE(r.status, 401L);
    QVERIFY(r.body.find("s3cret") == std::string::npos);

    // Legacy initialize is guarded too.
    QVERIFY(client.initialize().empty());

    client.setToken("s3cret-A");
    r = client.request("tools/list");
    QCOMPARE(r.status, 200L);
    QVERIFY(!client.initialize().empty());
}

void tst_ServerAuth::taskBoundToToken()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--token", "token-A", "--workers", "1"}), qPrintable(server.errorString()));
    McpTestClient a(server.url());
    a.setToken("token-A");
    json args = quickArgs();
    args["idempotency_key"] = "shared-key";
    const std::string id = a.createTask(args);
    QVERIFY(!id.empty());
    QCOMPARE(a.waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("completed"));
    QVERIFY(server.terminate());

    // Same data, another token: the task does not exist for it, and its key is its own.
    QVERIFY(server.start({"--token", "token-B", "--workers", "1"}, server.dataDir()));
    McpTestClient b(server.url());
    b.setToken("token-B");
    HttpReply r = b.getTask(id);
    QCOMPARE(r.errorCode(), -32602);
    QCOMPARE(b.request("tasks/cancel", {{"taskId", id}}).errorCode(), -32602);
    QCOMPARE(b.request("tasks/update", {{"taskId", id}, {"inputResponses", json::object()}}).errorCode(), -32602);
    const std::string other = b.createTask(args);
    QVERIFY(!other.empty());
    QVERIFY(other != id);
    const json p = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {id}}}}};
    Eddy::Test::SseReader listen;
    listen.start(b.url(), json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "subscriptions/listen"}, {"params", p}}.dump(),
                 b.headersFor("subscriptions/listen", p));
    const json ack = listen.waitForEvent([](const json &e) { return e.value("method", "") == "notifications/subscriptions/acknowledged"; });
    QVERIFY(!ack.is_null());
    QCOMPARE(ack["params"]["notifications"]["taskIds"], json::array());
    listen.stop();
    QVERIFY(server.terminate());

    // Back to the creator's token: the task answers again, with its result.
    QVERIFY(server.start({"--token", "token-A", "--workers", "1"}, server.dataDir()));
    McpTestClient again(server.url());
    again.setToken("token-A");
    r = again.getTask(id);
    QCOMPARE(r.result().value("status", ""), std::string("completed"));
    QCOMPARE(again.createTask(args), id);
}

void tst_ServerAuth::ttlPurge()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--ttl-ms", "1500", "--workers", "1", "--log-level", "debug"}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const json created = client.callTool(quickArgs());
    QCOMPARE(created["ttlMs"].get<int>(), 1500);
    const std::string id = created.value("taskId", "");
    QVERIFY(!id.empty());
    // It answers while alive...
    QCOMPARE(client.getTask(id).result().value("taskId", ""), id);
    // ...and is gone once createdAt + ttlMs has passed.
    QTRY_COMPARE_WITH_TIMEOUT(client.getTask(id).errorCode(), -32602, 30000);
    QVERIFY(client.getTask(id).body.find("xpired") != std::string::npos);
    // The janitor removes it from disk as well, without any request.
    QTRY_VERIFY_WITH_TIMEOUT(server.standardError().contains("purged: its ttlMs has passed"), 30000);
    // So a restart does not bring it back.
    QVERIFY(server.terminate());
    QVERIFY(server.start({"--ttl-ms", "1500", "--workers", "1"}, server.dataDir()));
    McpTestClient after(server.url());
    QCOMPARE(after.getTask(id).errorCode(), -32602);
    // The janitor deleted the row before the restart: nothing was left to purge on load.
    const QByteArray log = server.standardError();
    const QByteArray lastLoad = log.mid(log.lastIndexOf("loaded "));
    QVERIFY2(lastLoad.startsWith("loaded 0 tasks (0 to resume, 0 expired"), lastLoad.constData());
}

QTEST_GUILESS_MAIN(tst_ServerAuth)
#include "tst_serverauth.moc"
