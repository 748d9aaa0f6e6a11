// What the official MCP conformance suite requires of eddy-cfd-server, pinned down against the
// real server: DNS-rebinding protection on a loopback bind (and its allow-lists), OWS around
// header values, strict Base64 header values, initialize in 2026-07-28 mode, the empty but
// cacheable prompt/resource lists, and the --conformance-fixtures tools the suite calls.
// tests/conformance runs the suite itself; these cases say precisely which rule broke.

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QtTest>

using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;
using Eddy::Test::TestServer;
using nlohmann::json;

namespace {

// The *_httplib registration sets EDDY_SERVER_EXTRA_ARGS="--http-engine httplib".
QStringList withExtraServerArgs(QStringList args)
{
    return args + qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").split(' ', Qt::SkipEmptyParts);
}

json message(int id, const std::string &method, json params)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json params2026(json params = json::object(), bool withTasks = false)
{
    params["_meta"] = McpTestClient::meta(withTasks);
    return params;
}

// Replaces (or adds) the header "Name: ..." in a curl header list.
std::vector<std::string> withHeader(std::vector<std::string> headers, const std::string &line)
{
    const std::string name = line.substr(0, line.find(':') + 1);
    std::erase_if(headers, [&](const std::string &h) {
        return h.size() >= name.size()
               && QByteArray::fromStdString(h.substr(0, name.size())).toLower()
                      == QByteArray::fromStdString(name).toLower();
    });
    headers.push_back(line);
    return headers;
}

} // namespace

class tst_ServerConformance : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rebindingRefused_data();
    void rebindingRefused();
    void loopbackNamesServed_data();
    void loopbackNamesServed();
    void allowListsForReverseProxies();
    void badAllowListFlags_data();
    void badAllowListFlags();
    void whitespaceAroundHeaderValues();
    void strictBase64HeaderValues();
    void initializeIn2026Mode();
    void emptyCacheableLists();
    void resourceReadNotFound();
    void fixturesOnlyWithFlag();
    void missingClientCapability();
    void customHeaderFixture_data();
    void customHeaderFixture();
    void fixtureTasks();

private:
    HttpReply discoverWith(const std::vector<std::string> &extraHeaders);

    TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
    int m_id = 1;
};

void tst_ServerConformance::initTestCase()
{
    QVERIFY2(m_server.start(withExtraServerArgs({"--workers", "1", "--conformance-fixtures"})),
             qPrintable(m_server.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
}

HttpReply tst_ServerConformance::discoverWith(const std::vector<std::string> &extraHeaders)
{
    const json params = params2026();
    std::vector<std::string> headers = m_client->headersFor("server/discover", params);
    for (const std::string &h : extraHeaders)
        headers = withHeader(headers, h);
    return m_client->post(message(m_id++, "server/discover", params).dump(), headers);
}

void tst_ServerConformance::rebindingRefused_data()
{
    QTest::addColumn<QStringList>("headers");
    const QString port = QString::number(m_server.port());
    // What the suite's dns-rebinding-protection scenario sends: both set to the attacker.
    QTest::newRow("attacker Host and Origin")
        << QStringList{"Host: evil.example.com:" + port, "Origin: http://evil.example.com:" + port};
    QTest::newRow("attacker Host alone") << QStringList{"Host: evil.example.com:" + port};
    QTest::newRow("attacker Host without port") << QStringList{"Host: evil.example.com"};
    QTest::newRow("attacker Origin, loopback Host")
        << QStringList{"Host: 127.0.0.1:" + port, "Origin: https://evil.example"};
    QTest::newRow("opaque Origin null") << QStringList{"Origin: null"};
    QTest::newRow("loopback-looking name") << QStringList{"Host: localhost.evil.example:" + port};
}

void tst_ServerConformance::rebindingRefused()
{
    QFETCH(QStringList, headers);
    std::vector<std::string> extra;
    for (const QString &h : headers)
        extra.push_back(h.toStdString());
    const HttpReply r = discoverWith(extra);
    QCOMPARE(r.status, 403L);
    QCOMPARE(r.errorCode(), -32600);
    QVERIFY2(r.json["error"]["message"].get<std::string>().find("--allowed-") != std::string::npos,
             r.body.c_str());

    // The tasks/get fast path is guarded as well.
    const json get = params2026({{"taskId", "no-such-task"}}, true);
    std::vector<std::string> getHeaders = m_client->headersFor("tasks/get", get);
    for (const std::string &h : extra)
        getHeaders = withHeader(getHeaders, h);
    const HttpReply poll = m_client->post(message(m_id++, "tasks/get", get).dump(), getHeaders);
    QCOMPARE(poll.status, 403L);
}

void tst_ServerConformance::loopbackNamesServed_data()
{
    QTest::addColumn<QStringList>("headers");
    const QString port = QString::number(m_server.port());
    QTest::newRow("curl default") << QStringList{};
    QTest::newRow("localhost with port") << QStringList{"Host: localhost:" + port};
    QTest::newRow("LOCALHOST") << QStringList{"Host: LOCALHOST:" + port};
    QTest::newRow("127.0.0.1 without port") << QStringList{"Host: 127.0.0.1"};
    QTest::newRow("[::1] with port") << QStringList{"Host: [::1]:" + port};
    QTest::newRow("loopback Origin")
        << QStringList{"Host: localhost:" + port, "Origin: http://localhost:" + port};
    QTest::newRow("local dev page") << QStringList{"Origin: http://127.0.0.1:5173"};
}

void tst_ServerConformance::loopbackNamesServed()
{
    QFETCH(QStringList, headers);
    std::vector<std::string> extra;
    for (const QString &h : headers)
        extra.push_back(h.toStdString());
    const HttpReply r = discoverWith(extra);
    QCOMPARE(r.status, 200L);
    QVERIFY2(r.result().contains("supportedVersions"), r.body.c_str());
}

void tst_ServerConformance::allowListsForReverseProxies()
{
    TestServer proxied;
    QVERIFY2(proxied.start(withExtraServerArgs({"--workers",
                                                "1",
                                                "--allowed-host",
                                                "MCP.example.org",
                                                "--allowed-origin",
                                                "https://ui.example.org/"})),
             qPrintable(proxied.errorString()));
    McpTestClient client(proxied.url());
    const json params = params2026();
    const auto post = [&](const std::vector<std::string> &extra) {
        std::vector<std::string> headers = client.headersFor("server/discover", params);
        for (const std::string &h : extra)
            headers = withHeader(headers, h);
        return client.post(message(m_id++, "server/discover", params).dump(), headers);
    };
    QCOMPARE(post({"Host: mcp.example.org"}).status, 200L);
    QCOMPARE(post({"Host: mcp.example.org:443"}).status, 200L);
    QCOMPARE(post({"Host: mcp.example.org", "Origin: https://ui.example.org"}).status, 200L);
    // A page served by the proxy's own name is same-origin.
    QCOMPARE(post({"Host: mcp.example.org", "Origin: https://mcp.example.org"}).status, 200L);
    QCOMPARE(post({}).status, 200L); // loopback stays allowed
    QCOMPARE(post({"Host: other.example.org"}).status, 403L);
    QCOMPARE(post({"Host: mcp.example.org", "Origin: https://other.example.org"}).status, 403L);
}

void tst_ServerConformance::badAllowListFlags_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("host with port")
        << QStringList{"--allowed-host", "a.example:80"} << "--allowed-host";
    QTest::newRow("host with scheme")
        << QStringList{"--allowed-host", "http://a.example"} << "--allowed-host";
    QTest::newRow("origin without scheme")
        << QStringList{"--allowed-origin", "a.example"} << "--allowed-origin";
    QTest::newRow("origin with path")
        << QStringList{"--allowed-origin", "https://a.example/x"} << "--allowed-origin";
}

void tst_ServerConformance::badAllowListFlags()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QProcess process;
    process.start(TestServer::binaryPath(), args + QStringList{"--port", "0"});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY(process.exitCode() != 0);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains(expected) && err.contains("e.g."), qPrintable(err));
}

void tst_ServerConformance::whitespaceAroundHeaderValues()
{
    // RFC 9110 section 5.5: optional whitespace around a field value is not part of it.
    const json params = params2026({{"name", "greet"}, {"arguments", {{"name", "OWS"}}}});
    std::vector<std::string> headers = m_client->headersFor("tools/call", params);
    headers = withHeader(headers, "Mcp-Name: \t greet \t");
    headers = withHeader(headers, "Mcp-Method:  tools/call ");
    headers = withHeader(headers, "MCP-Protocol-Version:  2026-07-28\t");
    const HttpReply r = m_client->post(message(m_id++, "tools/call", params).dump(), headers);
    QCOMPARE(r.status, 200L);
    QCOMPARE(r.result()["content"][0]["text"].get<std::string>(), std::string("Hello, OWS!"));

    // A value that differs in more than whitespace is still a mismatch.
    headers = withHeader(headers, "Mcp-Name:  gre et ");
    const HttpReply bad = m_client->post(message(m_id++, "tools/call", params).dump(), headers);
    QCOMPARE(bad.status, 400L);
    QCOMPARE(bad.errorCode(), -32020);
}

void tst_ServerConformance::strictBase64HeaderValues()
{
    const json params = params2026({{"name", "greet"}, {"arguments", json::object()}});
    const auto callWithName = [&](const std::string &value) {
        const std::vector<std::string> headers
            = withHeader(m_client->headersFor("tools/call", params), "Mcp-Name: " + value);
        return m_client->post(message(m_id++, "tools/call", params).dump(), headers);
    };
    QCOMPARE(callWithName("=?base64?Z3JlZXQ=?=").status, 200L); // "greet", padded
    const HttpReply unpadded = callWithName("=?base64?Z3JlZXQ?=");
    QCOMPARE(unpadded.status, 400L);
    QCOMPARE(unpadded.errorCode(), -32020);
    QCOMPARE(callWithName("=?base64?Z3Jl_XQ=?=").status, 400L); // URL-safe alphabet
    QCOMPARE(callWithName("=?base64?Z3JlZXQ=").status, 400L);   // no closing marker: literal
}

void tst_ServerConformance::initializeIn2026Mode()
{
    // What the suite's server-stateless scenario sends: the 2026 envelope, no protocolVersion.
    const json modern = params2026();
    const HttpReply r = m_client->post(message(500, "initialize", modern).dump(),
                                       m_client->headersFor("initialize", modern));
    QCOMPARE(r.status, 404L);
    QCOMPARE(r.errorCode(), -32601);
    QCOMPARE(r.json["id"].get<int>(), 500);
    QVERIFY(!r.headers.count("mcp-session-id"));

    // A 2025-11-25 client's initialize still opens a session.
    QVERIFY(!m_client->initialize().empty());
}

void tst_ServerConformance::emptyCacheableLists()
{
    const HttpReply discover = m_client->request("server/discover", json::object(), false);
    QVERIFY(discover.result()["capabilities"].contains("prompts"));
    QVERIFY(discover.result()["capabilities"].contains("resources"));
    const std::pair<const char *, const char *> lists[] = {
        {"prompts/list", "prompts"},
        {"resources/list", "resources"},
        {"resources/templates/list", "resourceTemplates"},
        {"tools/list", "tools"},
    };
    for (const auto &[method, key] : lists) {
        const HttpReply r = m_client->request(method, json::object(), false);
        QVERIFY2(r.status == 200, method);
        const json &result = r.result();
        QVERIFY2(result[key].is_array(), r.body.c_str());
        if (std::string(key) != "tools")
            QVERIFY2(result[key].empty(), r.body.c_str());
        QVERIFY2(result["ttlMs"].is_number_integer() && result["ttlMs"].get<long long>() >= 0,
                 r.body.c_str());
        QCOMPARE(result["cacheScope"].get<std::string>(), std::string("public"));
        QCOMPARE(result["resultType"].get<std::string>(), std::string("complete"));
    }
}

void tst_ServerConformance::resourceReadNotFound()
{
    json params = params2026({{"uri", "file:///no/such/thing"}});
    std::vector<std::string> headers = m_client->headersFor("resources/read", params);
    headers.push_back("Mcp-Name: file:///no/such/thing");
    const HttpReply r = m_client->post(message(m_id++, "resources/read", params).dump(), headers);
    QCOMPARE(r.errorCode(), -32602);
    QCOMPARE(r.json["error"]["data"]["uri"].get<std::string>(),
             std::string("file:///no/such/thing"));
}

void tst_ServerConformance::fixturesOnlyWithFlag()
{
    const HttpReply withFlag = m_client->request("tools/list", json::object(), false);
    std::vector<std::string> names;
    for (const json &t : withFlag.result()["tools"])
        names.push_back(t["name"].get<std::string>());
    for (const char *fixture : {"greet",
                                "test_missing_capability",
                                "json_schema_2020_12_tool",
                                "test_custom_header",
                                "run_cfd_case"})
        QVERIFY2(std::find(names.begin(), names.end(), fixture) != names.end(), fixture);
    // The fixtures answer without a task and without the Tasks extension declared.
    const HttpReply greet = m_client->request(
        "tools/call", {{"name", "greet"}, {"arguments", {{"name", "World"}}}}, false);
    QCOMPARE(greet.status, 200L);
    QCOMPARE(greet.result()["resultType"].get<std::string>(), std::string("complete"));
    QCOMPARE(greet.result()["content"][0]["text"].get<std::string>(), std::string("Hello, World!"));

    TestServer plain;
    QVERIFY2(plain.start(withExtraServerArgs({"--workers", "1"})), qPrintable(plain.errorString()));
    McpTestClient client(plain.url());
    const HttpReply list = client.request("tools/list", json::object(), false);
    // Without the fixtures: run_cfd_case, run_openfoam_case and the five job tools.
    QCOMPARE(list.result()["tools"].size(), std::size_t(7));
    QCOMPARE(list.result()["tools"][0]["name"].get<std::string>(), std::string("run_cfd_case"));
    const HttpReply refused
        = client.request("tools/call", {{"name", "greet"}, {"arguments", json::object()}});
    QCOMPARE(refused.errorCode(), -32602);
}

void tst_ServerConformance::missingClientCapability()
{
    const HttpReply r = m_client->request(
        "tools/call", {{"name", "test_missing_capability"}, {"arguments", json::object()}}, false);
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), -32021);
    QCOMPARE(r.json["error"]["data"]["requiredCapabilities"], json({{"sampling", json::object()}}));

    json params = {{"name", "test_missing_capability"}, {"arguments", json::object()}};
    params["_meta"] = McpTestClient::meta(false);
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"]["sampling"] = json::object();
    const HttpReply ok = m_client->request("tools/call", params);
    QCOMPARE(ok.status, 200L);
    QVERIFY2(!ok.result().value("isError", false), ok.body.c_str());
}

void tst_ServerConformance::customHeaderFixture_data()
{
    QTest::addColumn<QString>("region"); // argument; empty: absent
    QTest::addColumn<QString>("header"); // Mcp-Param-Region; "-": absent
    QTest::addColumn<int>("expectedStatus");
    QTest::newRow("plain") << "us-west1"
                           << "us-west1" << 200;
    QTest::newRow("base64") << "Hello"
                            << "=?base64?SGVsbG8=?=" << 200;
    QTest::newRow("sentinel-like literal") << "=?base64?SGVsbG8="
                                           << "=?base64?SGVsbG8=" << 200;
    QTest::newRow("OWS") << "us-west1"
                         << "  us-west1 " << 200;
    QTest::newRow("missing header") << "us-west1"
                                    << "-" << 400;
    QTest::newRow("different value") << "us-west1"
                                     << "eu-north1" << 400;
    QTest::newRow("bad padding") << "Hello"
                                 << "=?base64?SGVsbG8?=" << 400;
    QTest::newRow("not base64") << "Hello"
                                << "=?base64?SGVs!!!bG8=?=" << 400;
    QTest::newRow("header without argument") << ""
                                             << "us-west1" << 400;
}

void tst_ServerConformance::customHeaderFixture()
{
    QFETCH(QString, region);
    QFETCH(QString, header);
    QFETCH(int, expectedStatus);
    json arguments = json::object();
    if (!region.isEmpty())
        arguments["region"] = region.toStdString();
    const json params = params2026({{"name", "test_custom_header"}, {"arguments", arguments}});
    std::vector<std::string> headers = m_client->headersFor("tools/call", params);
    if (header != "-")
        headers.push_back("Mcp-Param-Region: " + header.toStdString());
    const HttpReply r = m_client->post(message(m_id++, "tools/call", params).dump(), headers);
    QCOMPARE(r.status, long(expectedStatus));
    if (expectedStatus == 400)
        QCOMPARE(r.errorCode(), -32020);
    else
        QVERIFY2(r.errorCode() == 0 && !r.result().value("isError", false), r.body.c_str());
}

void tst_ServerConformance::fixtureTasks()
{
    // Task support "required" without the extension declared: -32021 naming the extension.
    const HttpReply refused = m_client->request(
        "tools/call", {{"name", "failing_job"}, {"arguments", json::object()}}, false);
    QCOMPARE(refused.status, 400L);
    QCOMPARE(refused.errorCode(), -32021);
    QVERIFY(refused.json["error"]["data"]["requiredCapabilities"]["extensions"].contains(
        "io.modelcontextprotocol/tasks"));

    // "optional" without the extension: the answer comes in the reply, no task.
    const HttpReply sync = m_client->request(
        "tools/call", {{"name", "slow_compute"}, {"arguments", {{"seconds", 0}}}}, false);
    QCOMPARE(sync.result()["resultType"].get<std::string>(), std::string("complete"));
    QVERIFY(!sync.result().contains("taskId"));

    // A task that asks, is answered through tasks/update and completes.
    const json created
        = m_client
              ->request("tools/call",
                        {{"name", "confirm_delete"}, {"arguments", {{"filename", "a.txt"}}}})
              .result();
    QCOMPARE(created["resultType"].get<std::string>(), std::string("task"));
    QVERIFY(!created.contains("inputRequests"));
    const std::string id = created["taskId"].get<std::string>();
    const json asking = m_client->getTask(id).result();
    QCOMPARE(asking["status"].get<std::string>(), std::string("input_required"));
    QCOMPARE(asking["inputRequests"]["confirm"]["method"].get<std::string>(),
             std::string("elicitation/create"));
    const HttpReply ack = m_client->request(
        "tasks/update",
        {{"taskId", id},
         {"inputResponses",
          {{"confirm", {{"action", "accept"}, {"content", {{"confirmed", true}}}}}}}});
    QCOMPARE(ack.result(), json({{"resultType", "complete"}}));
    const json done = m_client->getTask(id).result();
    QCOMPARE(done["status"].get<std::string>(), std::string("completed"));
    QCOMPARE(done["result"]["resultType"].get<std::string>(), std::string("complete"));

    // Cancel: acked, cancelled, and a terminal task stays as it is on a second cancel.
    const std::string slow
        = m_client
              ->request("tools/call", {{"name", "slow_compute"}, {"arguments", {{"seconds", 60}}}})
              .result()["taskId"]
              .get<std::string>();
    QCOMPARE(m_client->request("tasks/cancel", {{"taskId", slow}}).result(),
             json({{"resultType", "complete"}}));
    QCOMPARE(m_client->getTask(slow).result()["status"].get<std::string>(),
             std::string("cancelled"));
    QCOMPARE(m_client->request("tasks/cancel", {{"taskId", slow}}).result(),
             json({{"resultType", "complete"}}));
    QCOMPARE(
        m_client->getTask(done["taskId"].get<std::string>()).result()["status"].get<std::string>(),
        std::string("completed"));

    // Fixture tasks belong to their token like run_cfd_case's: unknown ids stay -32602.
    QCOMPARE(m_client->getTask("no-such-task").errorCode(), -32602);
}

QTEST_GUILESS_MAIN(tst_ServerConformance)
#include "tst_serverconformance.moc"
