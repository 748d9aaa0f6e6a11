// ChatClient against a scripted Chat Completions peer on loopback: streaming deltas, tool calls
// assembled by index, the JSON fallback, and a clear error for every way an endpoint fails.
#include "app/agent/chatclient.h"
#include "app/net/httpclient.h"
#include "tests/agent/scriptedmodel.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

using namespace Eddy;
using nlohmann::json;
using Test::ScriptedModel;

class tst_ChatClient : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { Net::initGlobal(); }
    void streamsContentAndAssemblesToolCalls();
    void callsAtOneIndexStayApart();
    void takesJsonAnswerWhenAskedToStream();
    void nonStreamingSetting();
    void errors_data();
    void errors();
    void unreachable();
    void abortEndsOnce();

private:
    Agent::ChatReply run(ScriptedModel &model, bool stream, int *deltas = nullptr);
};

Agent::ChatReply tst_ChatClient::run(ScriptedModel &model, bool stream, int *deltas)
{
    Net::HttpClient http;
    Agent::ChatClient chat(&http);
    QSignalSpy done(&chat, &Agent::ChatClient::finished);
    QSignalSpy pieces(&chat, &Agent::ChatClient::contentDelta);
    Agent::AgentSettings s;
    s.baseUrl = model.baseUrl();
    s.model = QStringLiteral("test-model");
    s.apiKey = QStringLiteral("sk-test-key");
    s.stream = stream;
    chat.start(s, json::array({{{"role", "user"}, {"content", "hi"}}}),
               json::array({{{"type", "function"}, {"function", {{"name", "t"}, {"parameters", json::object()}}}}}));
    if (!done.wait(60000) && done.isEmpty())
        return {};
    if (deltas)
        *deltas = int(pieces.size());
    return done.first().first().value<Agent::ChatReply>();
}

void tst_ChatClient::streamsContentAndAssemblesToolCalls()
{
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([&model](const json &req) {
        if (!req.value("stream", false))
            model.fail(QStringLiteral("stream not requested"));
        if (req.value("model", std::string()) != "test-model")
            model.fail(QStringLiteral("model not sent"));
        if (ScriptedModel::toolNames(req) != QStringList{QStringLiteral("t")})
            model.fail(QStringLiteral("tools not offered"));
        ScriptedModel::Reply r;
        r.content = QStringLiteral("Starting two cases for you now.");
        r.toolCalls = json::array({ScriptedModel::call("run_cfd_case", {{"reynolds", 100}, {"grid", 16}}),
                                   ScriptedModel::call("list_tasks", {{"scope", "all"}})});
        return r;
    });
    int deltas = 0;
    const Agent::ChatReply reply = run(model, true, &deltas);
    QVERIFY2(reply.isOk(), qPrintable(reply.error));
    QVERIFY2(model.failures().isEmpty(), qPrintable(model.failures().join('\n')));
    QCOMPARE(reply.content, QStringLiteral("Starting two cases for you now."));
    QVERIFY(deltas > 2); // streamed in pieces, not at the end
    QCOMPARE(reply.finishReason, QStringLiteral("tool_calls"));
    QCOMPARE(int(reply.toolCalls.size()), 2);
    QVERIFY(reply.toolCalls[0]["function"]["name"] == "run_cfd_case");
    QVERIFY(json::parse(reply.toolCalls[0]["function"]["arguments"].get<std::string>())
            == json({{"reynolds", 100}, {"grid", 16}}));
    QVERIFY(json::parse(reply.toolCalls[1]["function"]["arguments"].get<std::string>())
            == json({{"scope", "all"}}));
    QVERIFY(reply.toolCalls[0]["id"] == "call_1");
    QVERIFY(reply.toolCalls[1]["id"] == "call_2");
}

void tst_ChatClient::callsAtOneIndexStayApart()
{
    // Some servers stream every parallel call whole at index 0; the ids tell them apart.
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([&model](const json &req) {
        if (req.value("parallel_tool_calls", false) != true)
            model.fail(QStringLiteral("parallel_tool_calls not asked for"));
        ScriptedModel::Reply r;
        r.sameIndex = true;
        r.toolCalls = json::array({ScriptedModel::call("get_task", {{"task", 1}}),
                                   ScriptedModel::call("get_task", {{"task", 2}}),
                                   ScriptedModel::call("list_tasks", json::object())});
        return r;
    });
    const Agent::ChatReply reply = run(model, true);
    QVERIFY2(reply.isOk(), qPrintable(reply.error));
    QVERIFY2(model.failures().isEmpty(), qPrintable(model.failures().join('\n')));
    QCOMPARE(int(reply.toolCalls.size()), 3);
    QVERIFY(reply.toolCalls[0]["id"] == "call_1");
    QVERIFY(json::parse(reply.toolCalls[0]["function"]["arguments"].get<std::string>()) == json({{"task", 1}}));
    QVERIFY(reply.toolCalls[1]["id"] == "call_2");
    QVERIFY(json::parse(reply.toolCalls[1]["function"]["arguments"].get<std::string>()) == json({{"task", 2}}));
    QVERIFY(reply.toolCalls[2]["function"]["name"] == "list_tasks");
}

void tst_ChatClient::takesJsonAnswerWhenAskedToStream()
{
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([](const json &) {
        ScriptedModel::Reply r;
        r.stream = false;
        r.content = QStringLiteral("plain answer");
        r.toolCalls = json::array({ScriptedModel::call("get_task", {{"task", 3}})});
        return r;
    });
    const Agent::ChatReply reply = run(model, true);
    QVERIFY2(reply.isOk(), qPrintable(reply.error));
    QCOMPARE(reply.content, QStringLiteral("plain answer"));
    QVERIFY(reply.toolCalls[0]["function"]["name"] == "get_task");
}

void tst_ChatClient::nonStreamingSetting()
{
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([&model](const json &req) {
        if (req.value("stream", true))
            model.fail(QStringLiteral("stream requested although off"));
        ScriptedModel::Reply r;
        r.content = QStringLiteral("ok");
        return r;
    });
    const Agent::ChatReply reply = run(model, false);
    QVERIFY2(reply.isOk(), qPrintable(reply.error));
    QCOMPARE(reply.content, QStringLiteral("ok"));
    QVERIFY2(model.failures().isEmpty(), qPrintable(model.failures().join('\n')));
}

void tst_ChatClient::errors_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QString>("expected");
    QTest::newRow("http 500 with message") << 500 << QByteArray(R"({"error":{"message":"model not loaded"}})")
                                           << QByteArray("application/json") << QStringLiteral("HTTP 500: model not loaded");
    QTest::newRow("http 401") << 401 << QByteArray(R"({"error":"bad key"})") << QByteArray("application/json")
                              << QStringLiteral("Check the agent's API key");
    QTest::newRow("http 404 html") << 404 << QByteArray("<html>Not Found</html>") << QByteArray("text/html")
                                   << QStringLiteral("Check the base URL");
    QTest::newRow("garbage") << 200 << QByteArray("hello, I am not an API") << QByteArray("text/plain")
                             << QStringLiteral("not JSON");
    QTest::newRow("json without choices") << 200 << QByteArray(R"({"object":"list"})") << QByteArray("application/json")
                                          << QStringLiteral("no choices[0].message");
    QTest::newRow("garbage stream") << 200 << QByteArray("data: {not json\n\n") << QByteArray("text/event-stream")
                                    << QStringLiteral("not a Chat Completions chunk");
    QTest::newRow("stream cut short") << 200 << QByteArray("data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n")
                                      << QByteArray("text/event-stream") << QStringLiteral("before [DONE]");
}

void tst_ChatClient::errors()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, type);
    QFETCH(QString, expected);
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([&](const json &) {
        ScriptedModel::Reply r;
        r.status = status;
        r.raw = body;
        r.rawType = type;
        return r;
    });
    const Agent::ChatReply reply = run(model, true);
    QVERIFY(!reply.isOk());
    QVERIFY2(reply.error.contains(expected), qPrintable(reply.error));
    QVERIFY2(!reply.error.contains(QStringLiteral("sk-test-key")), qPrintable(reply.error));
}

void tst_ChatClient::unreachable()
{
    quint16 port = 0;
    {
        QTcpServer probe; // a port that was free a moment ago and is closed now
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    Net::HttpClient http;
    Agent::ChatClient chat(&http);
    QSignalSpy done(&chat, &Agent::ChatClient::finished);
    Agent::AgentSettings s;
    s.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
    chat.start(s, json::array(), json::array());
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
    const auto reply = done.first().first().value<Agent::ChatReply>();
    QVERIFY2(reply.error.contains(QStringLiteral("Cannot reach the model endpoint")), qPrintable(reply.error));
    QVERIFY2(reply.error.contains(QStringLiteral("llama-server")), qPrintable(reply.error));
}

void tst_ChatClient::abortEndsOnce()
{
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([](const json &) {
        ScriptedModel::Reply r;
        r.hang = true;
        return r;
    });
    Net::HttpClient http;
    Agent::ChatClient chat(&http);
    QSignalSpy done(&chat, &Agent::ChatClient::finished);
    QSignalSpy pieces(&chat, &Agent::ChatClient::contentDelta);
    Agent::AgentSettings s;
    s.baseUrl = model.baseUrl();
    chat.start(s, json::array(), json::array());
    QTRY_COMPARE_WITH_TIMEOUT(pieces.size(), 1, 60000);
    chat.abort();
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 10000);
    QCOMPARE(done.first().first().value<Agent::ChatReply>().error, QStringLiteral("Stopped."));
    QVERIFY(!chat.isRunning());
    QTest::qWait(200); // negative check: no second done() comes late
    QCOMPARE(done.size(), 1);
}

QTEST_GUILESS_MAIN(tst_ChatClient)
#include "tst_chatclient.moc"
