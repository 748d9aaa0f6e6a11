// The 2026-07-28 wire contract of eddy-cfd-server: discovery, tool listing, and every error
// path (headers, versions, capabilities, framing, HTTP-level abuse), against the real server.
// The HTTP transport under it (raw bytes on sockets: heads, limits, keep-alive) is
// tst_serverhttp's.

#include "tests/server/protocolfixture.h"

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;
using Eddy::Test::httplibEngine;
using Eddy::Test::withExtraServerArgs;

class tst_ServerProtocol : public QObject, protected Eddy::Test::ProtocolFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void discover();
    void toolsList();
    void headerErrors_data();
    void headerErrors();
    void base64MpcName();
    void missingMeta();
    void unsupportedVersion();
    void legacyVersionWithoutSession();
    void capabilityRequired_data();
    void capabilityRequired();
    void unknownMethods_data();
    void unknownMethods();
    void unknownTask_data();
    void unknownTask();
    void unknownTool();
    void invalidArguments_data();
    void invalidArguments();
    void framingErrors_data();
    void framingErrors();
    void bodyTooLarge();
    void wrongHttpUse();
    void notificationAccepted();
    void originChecked();
    void pollShapes_data();
    void pollShapes();
    void sseKeepAliveComments();

};

void tst_ServerProtocol::initTestCase()
{
    QVERIFY2(startServer(), qPrintable(m_server.errorString()));
}

void tst_ServerProtocol::discover()
{
    const HttpReply r = m_client->request("server/discover");
    QCOMPARE(r.status, 200L);
    const json &res = r.result();
    QCOMPARE(res.value("resultType", ""), std::string("complete"));
    QVERIFY(res["capabilities"]["extensions"].contains("io.modelcontextprotocol/tasks"));
    QCOMPARE(res["supportedVersions"], json({"2026-07-28", "2025-11-25"}));
    QCOMPARE(res["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].get<std::string>(),
             std::string("eddy-cfd-server"));
    QVERIFY(res["ttlMs"].is_number_integer());
    QVERIFY(res["cacheScope"].is_string());
    // Discovery works without declaring the extension.
    QCOMPARE(m_client->request("server/discover", json::object(), false).status, 200L);
}

void tst_ServerProtocol::toolsList()
{
    const HttpReply r = m_client->request("tools/list");
    QCOMPARE(r.status, 200L);
    const json &res = r.result();
    QCOMPARE(res.value("resultType", ""), std::string("complete"));
    QVERIFY(res.contains("ttlMs"));
    QVERIFY(res.contains("cacheScope"));
    // run_cfd_case first, run_openfoam_case (tst_serveropenfoam), then the five job tools.
    QCOMPARE(res["tools"].size(), std::size_t(7));
    const json &tool = res["tools"][0];
    QCOMPARE(tool["name"].get<std::string>(), std::string("run_cfd_case"));
    QCOMPARE(tool["inputSchema"]["type"].get<std::string>(), std::string("object"));
    for (const char *arg : {"case_name", "reynolds", "grid", "max_iterations", "tolerance",
                            "lid_velocity", "grading", "force_mesh_defect", "idempotency_key"})
        QVERIFY2(tool["inputSchema"]["properties"].contains(arg), arg);
    QCOMPARE(tool["inputSchema"]["properties"]["grid"]["minimum"].get<int>(), 8);
    QCOMPARE(tool["inputSchema"]["properties"]["grid"]["maximum"].get<int>(), 1024);
    QVERIFY(tool["outputSchema"]["properties"].contains("u_centreline"));
    QVERIFY(!tool.contains("execution")); // 2026 has no taskSupport
}

void tst_ServerProtocol::headerErrors_data()
{
    QTest::addColumn<QString>("drop");     // header to leave out
    QTest::addColumn<QString>("replace");  // header line to add instead
    QTest::addColumn<QString>("method");
    QTest::newRow("no protocol version") << "MCP-Protocol-Version" << "" << "tools/list";
    QTest::newRow("version differs from _meta")
        << "MCP-Protocol-Version" << "MCP-Protocol-Version: 2025-11-25" << "tools/list";
    QTest::newRow("no Mcp-Method") << "Mcp-Method" << "" << "tools/list";
    QTest::newRow("Mcp-Method differs") << "Mcp-Method" << "Mcp-Method: server/discover" << "tools/list";
    QTest::newRow("no Mcp-Name on tools/call") << "Mcp-Name" << "" << "tools/call";
    QTest::newRow("Mcp-Name differs on tools/call") << "Mcp-Name" << "Mcp-Name: other_tool" << "tools/call";
    QTest::newRow("no Mcp-Name on tasks/get") << "Mcp-Name" << "" << "tasks/get";
    QTest::newRow("Mcp-Name differs on tasks/get") << "Mcp-Name" << "Mcp-Name: 0123" << "tasks/get";
    QTest::newRow("Mcp-Name differs on tasks/cancel") << "Mcp-Name" << "Mcp-Name: 0123" << "tasks/cancel";
    QTest::newRow("Mcp-Name differs on tasks/update") << "Mcp-Name" << "Mcp-Name: 0123" << "tasks/update";
    QTest::newRow("malformed base64 Mcp-Name") << "Mcp-Name" << "Mcp-Name: =?base64?@@@?=" << "tools/call";
}

void tst_ServerProtocol::headerErrors()
{
    QFETCH(QString, drop);
    QFETCH(QString, replace);
    QFETCH(QString, method);
    const std::string m = method.toStdString();
    json params = {{"_meta", McpTestClient::meta()}};
    if (m == "tools/call")
        params.update({{"name", "run_cfd_case"}, {"arguments", {{"reynolds", 100}, {"grid", 16}}}});
    if (m.rfind("tasks/", 0) == 0)
        params["taskId"] = "abcdef0123456789abcdef0123456789";
    if (m == "tasks/update")
        params["inputResponses"] = json::object();
    std::vector<std::string> headers;
    for (const std::string &h : m_client->headersFor(m, params))
        if (QString::fromStdString(h).section(':', 0, 0).compare(drop, Qt::CaseInsensitive) != 0)
            headers.push_back(h);
    if (!replace.isEmpty())
        headers.push_back(replace.toStdString());
    const HttpReply r = m_client->post(message(m, params), headers);
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), -32020);
    QCOMPARE(r.json["id"].get<int>(), 7);
    QVERIFY(!r.json["error"]["message"].get<std::string>().empty());
    // A task id in Mcp-Name is never echoed back.
    QVERIFY(r.body.find("abcdef0123456789") == std::string::npos);
}

void tst_ServerProtocol::base64MpcName()
{
    // The sentinel form carries the same value; the server must decode it, not compare raw.
    json params = {{"_meta", McpTestClient::meta()},
                   {"name", "run_cfd_case"},
                   {"arguments", {{"reynolds", 100}, {"grid", 16}, {"max_iterations", 5}}}};
    std::vector<std::string> headers;
    for (const std::string &h : m_client->headersFor("tools/call", params))
        if (h.rfind("Mcp-Name", 0) != 0)
            headers.push_back(h);
    headers.push_back("Mcp-Name: =?base64?cnVuX2NmZF9jYXNl?=");
    const HttpReply r = m_client->post(message("tools/call", params), headers);
    QCOMPARE(r.status, 200L);
    QCOMPARE(r.result().value("resultType", ""), std::string("task"));
}

void tst_ServerProtocol::missingMeta()
{
    for (const json &params : {json::object(),
                               json{{"_meta", {{"io.modelcontextprotocol/clientCapabilities", json::object()}}}},
                               json{{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}) {
        const HttpReply r = m_client->post(message("tools/list", params), m_client->headersFor("tools/list", params));
        QCOMPARE(r.status, 400L);
        QCOMPARE(r.errorCode(), -32602);
    }
    // No params at all.
    const HttpReply r = m_client->post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
                                       m_client->headersFor("tools/list", json::object()));
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), -32602);
}

void tst_ServerProtocol::unsupportedVersion()
{
    const json params = {{"_meta", McpTestClient::meta(true, "1900-01-01")}};
    const HttpReply r = m_client->post(message("tools/list", params),
                                       m_client->headersFor("tools/list", params, "1900-01-01"));
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), -32022);
    QCOMPARE(r.json["error"]["data"]["requested"].get<std::string>(), std::string("1900-01-01"));
    QVERIFY(r.json["error"]["data"]["supported"].is_array());
    QCOMPARE(r.json["error"]["data"]["supported"][0].get<std::string>(), std::string("2026-07-28"));
}

void tst_ServerProtocol::legacyVersionWithoutSession()
{
    const json params = {{"_meta", McpTestClient::meta(true, "2025-11-25")}};
    const HttpReply r = m_client->post(message("tools/list", params),
                                       m_client->headersFor("tools/list", params, "2025-11-25"));
    QCOMPARE(r.status, 400L);
    QVERIFY(r.errorCode() != 0);
    QVERIFY(r.json["error"]["message"].get<std::string>().find("initialize") != std::string::npos);
}

void tst_ServerProtocol::capabilityRequired_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("tools/call") << "tools/call";
    QTest::newRow("tasks/get") << "tasks/get";
    QTest::newRow("tasks/update") << "tasks/update";
    QTest::newRow("tasks/cancel") << "tasks/cancel";
    QTest::newRow("listen with taskIds") << "subscriptions/listen";
}

void tst_ServerProtocol::capabilityRequired()
{
    QFETCH(QString, method);
    const std::string m = method.toStdString();
    json params = {{"_meta", McpTestClient::meta(false)}};
    if (m == "tools/call")
        params.update({{"name", "run_cfd_case"}, {"arguments", {{"reynolds", 100}, {"grid", 16}}}});
    else if (m == "subscriptions/listen")
        params["notifications"] = {{"taskIds", {"abcdef"}}};
    else
        params["taskId"] = "abcdef";
    if (m == "tasks/update")
        params["inputResponses"] = json::object();
    const HttpReply r = m_client->post(message(m, params), m_client->headersFor(m, params));
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), -32021);
    QVERIFY(r.json["error"]["data"]["requiredCapabilities"]["extensions"].contains(
        "io.modelcontextprotocol/tasks"));
}

void tst_ServerProtocol::unknownMethods_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("tasks/result") << "tasks/result";
    QTest::newRow("tasks/list") << "tasks/list";
    QTest::newRow("made up") << "foo/bar";
    // Removed in 2026-07-28; prompts/list and resources/list are answered (empty, see
    // tst_serverconformance).
    QTest::newRow("initialize with the 2026 envelope") << "initialize";
    QTest::newRow("ping") << "ping";
    QTest::newRow("logging/setLevel") << "logging/setLevel";
}

void tst_ServerProtocol::unknownMethods()
{
    QFETCH(QString, method);
    const HttpReply r = m_client->request(method.toStdString(), {{"taskId", "abc"}});
    QCOMPARE(r.status, 404L);
    QCOMPARE(r.errorCode(), -32601);
}

void tst_ServerProtocol::unknownTask_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("tasks/get") << "tasks/get";
    QTest::newRow("tasks/update") << "tasks/update";
    QTest::newRow("tasks/cancel") << "tasks/cancel";
}

void tst_ServerProtocol::unknownTask()
{
    QFETCH(QString, method);
    json params = {{"taskId", "00000000000000000000000000000000"}};
    if (method == "tasks/update")
        params["inputResponses"] = json::object();
    const HttpReply r = m_client->request(method.toStdString(), params);
    QCOMPARE(r.status, 200L);
    QCOMPARE(r.errorCode(), -32602);
}

void tst_ServerProtocol::unknownTool()
{
    const HttpReply r = m_client->request("tools/call", {{"name", "rm_rf"}, {"arguments", json::object()}});
    QCOMPARE(r.errorCode(), -32602);
}

void tst_ServerProtocol::invalidArguments_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("reynolds zero") << R"({"reynolds":0,"grid":16})" << "reynolds";
    QTest::newRow("reynolds text") << R"({"reynolds":"high","grid":16})" << "reynolds";
    QTest::newRow("reynolds missing") << R"({"grid":16})" << "reynolds";
    QTest::newRow("grid too small") << R"({"reynolds":100,"grid":4})" << "grid";
    QTest::newRow("grid too big") << R"({"reynolds":100,"grid":2048})" << "grid";
    QTest::newRow("grid fractional") << R"({"reynolds":100,"grid":16.5})" << "grid";
    QTest::newRow("max_iterations zero") << R"({"reynolds":100,"grid":16,"max_iterations":0})" << "max_iterations";
    QTest::newRow("tolerance negative") << R"({"reynolds":100,"grid":16,"tolerance":-1})" << "tolerance";
    QTest::newRow("grading below one") << R"({"reynolds":100,"grid":16,"grading":0.5})" << "grading";
    QTest::newRow("lid_velocity zero") << R"({"reynolds":100,"grid":16,"lid_velocity":0})" << "lid_velocity";
    QTest::newRow("force not bool") << R"({"reynolds":100,"grid":16,"force_mesh_defect":"yes"})" << "force_mesh_defect";
    QTest::newRow("case_name number") << R"({"reynolds":100,"grid":16,"case_name":5})" << "case_name";
    QTest::newRow("idempotency_key empty") << R"({"reynolds":100,"grid":16,"idempotency_key":""})" << "idempotency_key";
    QTest::newRow("unknown argument") << R"({"reynolds":100,"grid":16,"colour":"red"})" << "colour";
    QTest::newRow("arguments not object") << R"([1,2])" << "arguments";
}

void tst_ServerProtocol::invalidArguments()
{
    QFETCH(QString, arguments);
    QFETCH(QString, named);
    const json args = json::parse(arguments.toStdString());
    const HttpReply r = m_client->request("tools/call", {{"name", "run_cfd_case"}, {"arguments", args}});
    QCOMPARE(r.status, 200L);
    const json &res = r.result();
    // 2026: no task for invalid arguments, a plain CallToolResult with isError.
    QCOMPARE(res.value("resultType", ""), std::string("complete"));
    QCOMPARE(res.value("isError", false), true);
    QVERIFY(!res.contains("taskId"));
    const std::string text = res["content"][0]["text"].get<std::string>();
    QVERIFY2(text.find(named.toStdString()) != std::string::npos, text.c_str());
}

void tst_ServerProtocol::framingErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("code");
    QTest::newRow("not json") << QByteArray("{\"jsonrpc\":\"2.0\",") << -32700;
    QTest::newRow("empty body") << QByteArray("") << -32700;
    QTest::newRow("bad utf-8")
        << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\xfe\"}}")
        << -32700;
    QTest::newRow("batch") << QByteArray("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}]") << -32600;
    QTest::newRow("scalar") << QByteArray("42") << -32600;
    QTest::newRow("null id") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}") << -32600;
    QTest::newRow("wrong jsonrpc") << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}") << -32600;
    QTest::newRow("method not string") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}") << -32600;
    QTest::newRow("params not object") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[]}") << -32602;
    QTest::newRow("response outside session") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}") << -32600;
}

void tst_ServerProtocol::framingErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(int, code);
    const HttpReply r = m_client->post(body.toStdString(), m_client->headersFor("tools/list", json::object()));
    QCOMPARE(r.status, 400L);
    QCOMPARE(r.errorCode(), code);
    QVERIFY(r.curlError.empty());
    // And the server is still healthy afterwards.
    QCOMPARE(m_client->request("tools/list").status, 200L);
}

void tst_ServerProtocol::bodyTooLarge()
{
    const std::string big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"pad\":\""
                            + std::string(5 * 1024 * 1024, 'a') + "\"}}";
    const HttpReply r = m_client->post(big, m_client->headersFor("tools/list", json::object()));
    QCOMPARE(r.status, 413L);
    QVERIFY(r.errorCode() != 0);
    QCOMPARE(m_client->request("tools/list").status, 200L);
}

void tst_ServerProtocol::wrongHttpUse()
{
    HttpReply r = m_client->send({}, "GET");
    QCOMPARE(r.status, 405L);
    QVERIFY(r.errorCode() != 0);
    r = m_client->send({}, "DELETE");
    QCOMPARE(r.status, 405L);
    // Wrong Content-Type.
    const json params = {{"_meta", McpTestClient::meta()}};
    std::vector<std::string> headers;
    for (const std::string &h : m_client->headersFor("tools/list", params))
        if (h.rfind("Content-Type", 0) != 0)
            headers.push_back(h);
    headers.push_back("Content-Type: text/plain");
    r = m_client->post(message("tools/list", params), headers);
    QCOMPARE(r.status, 415L);
    QCOMPARE(r.errorCode(), -32600);
    // An Accept that allows neither JSON nor SSE.
    headers = {};
    for (const std::string &h : m_client->headersFor("tools/list", params))
        if (h.rfind("Accept", 0) != 0)
            headers.push_back(h);
    headers.push_back("Accept: image/png");
    r = m_client->post(message("tools/list", params), headers);
    QCOMPARE(r.status, 406L);
    // Another path.
    QString other = m_server.url();
    other.replace("/mcp", "/other");
    r = m_client->send(other.toStdString(), "GET");
    QCOMPARE(r.status, 404L);
}

void tst_ServerProtocol::notificationAccepted()
{
    const json params = {{"_meta", McpTestClient::meta()}};
    const HttpReply r = m_client->post(
        json{{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}, {"params", params}}.dump(),
        m_client->headersFor("notifications/whatever", params));
    QCOMPARE(r.status, 202L);
    QVERIFY(r.body.empty());
}

void tst_ServerProtocol::originChecked()
{
    const json params = {{"_meta", McpTestClient::meta()}};
    std::vector<std::string> headers = m_client->headersFor("tools/list", params);
    headers.push_back("Origin: https://evil.example");
    HttpReply r = m_client->post(message("tools/list", params), headers);
    QCOMPARE(r.status, 403L);
    QVERIFY(r.errorCode() != 0);
    headers.back() = "Origin: http://localhost:3000";
    r = m_client->post(message("tools/list", params), headers);
    QCOMPARE(r.status, 200L);
}

void tst_ServerProtocol::pollShapes_data()
{
    // tasks/get bodies around the server's non-allocating poll scanner: the plain shape is
    // served by it, every other shape by the full parser, and both must answer as the
    // protocol says. %T is a real task id, %P the usual _meta member.
    QTest::addColumn<QString>("body");
    QTest::addColumn<bool>("base64Name"); // Mcp-Name as =?base64?...?=
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("code"); // 0: the task comes back
    QTest::addColumn<QString>("id"); // the reply's id as JSON text ("" to skip)

    QTest::newRow("plain") << R"({"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                           << false << 200 << 0 << "7";
    QTest::newRow("reordered with spaces")
        << " {\n \"params\" : { %P , \"taskId\" : \"%T\" } ,\t\"method\" : \"tasks/get\" , \"id\" : \"p-1\" , \"jsonrpc\" : \"2.0\" } \r\n"
        << false << 200 << 0 << R"("p-1")";
    QTest::newRow("base64 Mcp-Name") << R"({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                                     << true << 200 << 0 << "1";
    QTest::newRow("escaped key") << R"({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"task\u0049d":"%T",%P}})"
                                 << false << 200 << 0 << "2";
    QTest::newRow("escaped id") << R"({"jsonrpc":"2.0","id":"a\u0062","method":"tasks/get","params":{"taskId":"%T",%P}})"
                                << false << 200 << 0 << R"("ab")";
    QTest::newRow("id -0") << R"({"jsonrpc":"2.0","id":-0,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                           << false << 200 << 0 << "0";
    QTest::newRow("id 7.0") << R"({"jsonrpc":"2.0","id":7.0,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                            << false << 400 << -32600 << "";
    QTest::newRow("id null") << R"({"jsonrpc":"2.0","id":null,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                             << false << 400 << -32600 << "";
    QTest::newRow("duplicate taskId, last matches")
        << R"({"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"nope","taskId":"%T",%P}})"
        << false << 200 << 0 << "3";
    QTest::newRow("duplicate taskId, last differs")
        << R"({"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"%T","taskId":"nope",%P}})"
        << false << 400 << -32020 << "4";
    QTest::newRow("duplicate method")
        << R"({"jsonrpc":"2.0","id":5,"method":"tasks/get","method":"tasks/cancel","params":{"taskId":"%T",%P}})"
        << false << 400 << -32020 << "5";
    QTest::newRow("tasks extension not an object")
        << R"({"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"%T","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":true}}}}})"
        << false << 400 << -32021 << "6";
    QTest::newRow("version not a string")
        << R"({"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{"taskId":"%T","_meta":{"io.modelcontextprotocol/protocolVersion":2026,"io.modelcontextprotocol/clientCapabilities":{}}}})"
        << false << 400 << -32602 << "8";
    QTest::newRow("number overflow elsewhere")
        << R"({"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"%T",%P,"x":1e400}})"
        << false << 400 << -32700 << "";
    QTest::newRow("long number elsewhere")
        << R"({"jsonrpc":"2.0","id":10,"method":"tasks/get","params":{"taskId":"%T",%P,"x":-12345678901234567890.5}})"
        << false << 200 << 0 << "10";
    QTest::newRow("trailing garbage") << R"({"jsonrpc":"2.0","id":11,"method":"tasks/get","params":{"taskId":"%T",%P}}x)"
                                      << false << 400 << -32700 << "";
    QTest::newRow("non-ASCII elsewhere")
        << R"({"jsonrpc":"2.0","id":12,"method":"tasks/get","params":{"taskId":"%T",%P,"note":"Strömung"}})"
        << false << 200 << 0 << "12";
    QTest::newRow("deep nesting elsewhere")
        << R"({"jsonrpc":"2.0","id":13,"method":"tasks/get","params":{"taskId":"%T",%P,"x":)" + QString(40, '[')
               + QString(40, ']') + "}}"
        << false << 200 << 0 << "13";
    QTest::newRow("jsonrpc 1.0") << R"({"jsonrpc":"1.0","id":14,"method":"tasks/get","params":{"taskId":"%T",%P}})"
                                 << false << 400 << -32600 << "14";
    QTest::newRow("empty taskId") << R"({"jsonrpc":"2.0","id":15,"method":"tasks/get","params":{"taskId":"",%P}})"
                                  << false << 400 << -32020 << "15";
    QTest::newRow("taskId differs from Mcp-Name") << R"({"jsonrpc":"2.0","id":16,"method":"tasks/get","params":{"taskId":"%T0",%P}})"
                                  << false << 400 << -32020 << "16";
}

void tst_ServerProtocol::pollShapes()
{
    QFETCH(QString, body);
    QFETCH(bool, base64Name);
    QFETCH(int, status);
    QFETCH(int, code);
    QFETCH(QString, id);
    QVERIFY(!pollTask().empty());
    std::string text = body.toStdString();
    const auto replace = [&text](const std::string &from, const std::string &to) {
        for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    };
    replace("%P", "\"_meta\":" + McpTestClient::meta().dump());
    replace("%T", m_pollTask);
    std::vector<std::string> headers = std2026("tasks/get", {{"taskId", m_pollTask}});
    if (base64Name) {
        for (std::string &h : headers)
            if (h.rfind("Mcp-Name:", 0) == 0)
                h = "Mcp-Name: =?base64?"
                    + QByteArray::fromStdString(m_pollTask).toBase64().toStdString() + "?=";
    }
    const HttpReply r = m_client->post(text, headers);
    QCOMPARE(r.status, long(status));
    QCOMPARE(r.errorCode(), code);
    if (code == 0) {
        QCOMPARE(r.result().value("taskId", ""), m_pollTask);
        QCOMPARE(r.result().value("resultType", ""), std::string("complete"));
    }
    if (!id.isEmpty())
        QCOMPARE(r.json["id"], json::parse(id.toStdString()));
}

void tst_ServerProtocol::sseKeepAliveComments()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start(withExtraServerArgs({"--workers", "1", "--sse-keep-alive-ms", "200"})),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const json params = {{"_meta", McpTestClient::meta()}, {"notifications", json::object()}};
    Eddy::Test::SseReader reader;
    reader.start(client.url(), message("subscriptions/listen", params, "keep"),
                 client.headersFor("subscriptions/listen", params));
    const json ack = reader.waitForEvent([](const json &e) {
        return e.value("method", "") == "notifications/subscriptions/acknowledged";
    });
    QVERIFY2(!ack.is_null(), reader.rawText().c_str());
    // An idle stream carries SSE comment lines, which proxies and clients see as traffic.
    QTRY_VERIFY_WITH_TIMEOUT(reader.rawText().find("\n: keep-alive\n") != std::string::npos
                                 || reader.rawText().rfind(": keep-alive\n", 0) == 0,
                             60000);
    reader.stop();
}

QTEST_GUILESS_MAIN(tst_ServerProtocol)
#include "tst_serverprotocol.moc"
