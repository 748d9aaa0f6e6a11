#include "app/mcp/client.h"
#include "app/mcp/tracecontext.h"
#include "app/net/httpclient.h"
#include "tests/common/jobwait.h"
#include "tests/net/httppeer.h"

#include <QSignalSpy>
#include <QTest>

#include <functional>
#include <memory>
#include <set>

using namespace Eddy;
using Eddy::Test::HttpPeer;
using nlohmann::json;

namespace {

using Test::finish;

QByteArray rpcResult(const json &id, const json &result)
{
    return QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump());
}

QByteArray rpcError(const json &id, int code, const std::string &message, const json &data = nullptr)
{
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null())
        error["data"] = data;
    return QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", error}}.dump());
}

json bodyOf(const HttpPeer::Request &r)
{
    return json::parse(r.body.toStdString(), nullptr, false);
}

const json kTask = {{"taskId", "task-0123456789abcdef"}, {"status", "working"},
                    {"createdAt", "2026-08-01T10:00:00Z"}, {"lastUpdatedAt", "2026-08-01T10:00:00Z"},
                    {"ttlMs", 60000}, {"pollIntervalMs", 1000}};

} // namespace

// The client against a deliberately misbehaving loopback HTTP server: every fault ends in a
// clear error on the job (never a crash or a hang), and the protocol's client rules are checked
// on the wire (headers, _meta, ids, MRTR echo, era fallback, -32020 retry).
class tst_Faults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(Net::initGlobal()); }
    void init();
    void cleanup();

    void connectionReset();
    void timeout();
    void rateLimited();
    void longRetryAfterIsCapped();
    void unavailableWithJsonRpcBody();
    void truncatedBody();
    void oversizedBody();
    void invalidJson_data();
    void invalidJson();
    void wrongResultType_data();
    void wrongResultType();
    void createTaskResultOnUpdate();
    void missingId();
    void sseEndsWithoutAnswer();
    void sseDroppedIdempotentCallSentAgainOnce();
    void sseNotificationsThenResult();
    void listenDropsStalePushes();
    void headersAndMeta();
    void mrtrEchoesRequestState();
    void headerMismatchRelistsOnce();
    void fallbackToLegacyOnEmpty400();
    void fallbackToLegacyOnUnsupportedVersion();
    void unsupportedVersionListingOursRetriesOnce();
    void unsupportedVersionListingOursRetriesOnce_data();
    void emptyParamHeaderSentNullOmitted();
    void modernErrorMeansNoFallback();
    void legacySessionGoneReinitializes();
    void idsNeverReused();
    void clientDeletedWhileBusy();

private:
    Mcp::Client *makeClient(Mcp::Era era = Mcp::Era::Modern, int timeoutMs = 20000,
                            qint64 maxBytes = 1 << 20)
    {
        Mcp::ServerConfig config;
        config.url = m_peer->url();
        config.timeoutMs = timeoutMs;
        config.maxResponseBytes = maxBytes;
        m_client = std::make_unique<Mcp::Client>(config, m_http.get());
        if (era != Mcp::Era::Unknown)
            m_client->setEra(era);
        return m_client.get();
    }
    // Answers JSON-RPC requests with handler(body) -> raw HTTP bytes; empty = no answer.
    void script(std::function<QByteArray(const json &, const HttpPeer::Request &)> handler)
    {
        m_peer->setHandler([handler](const HttpPeer::Request &r, QTcpSocket *s) {
            const QByteArray out = handler(bodyOf(r), r);
            if (out == "RESET")
                s->abort();
            else if (!out.isEmpty())
                s->write(out);
        });
    }
    static void expectError(const Mcp::Job &job, Mcp::Error::Kind kind)
    {
        QVERIFY(job.isFinished());
        QVERIFY(job.hasError());
        QCOMPARE(int(job.error().kind()), int(kind));
        QVERIFY(!job.error().message().isEmpty());
    }
    std::vector<json> bodies(const QByteArray &method = {}) const
    {
        std::vector<json> out;
        for (const auto &r : m_peer->requests()) {
            const json b = bodyOf(r);
            if (method.isEmpty() || b.value("method", "") == method.toStdString())
                out.push_back(b);
        }
        return out;
    }

    std::unique_ptr<HttpPeer> m_peer;
    std::unique_ptr<Net::HttpClient> m_http;
    std::unique_ptr<Mcp::Client> m_client;
};

void tst_Faults::init()
{
    Mcp::Client::clearEraCache();
    m_peer = std::make_unique<HttpPeer>();
    QVERIFY(m_peer->listen());
    m_http = std::make_unique<Net::HttpClient>();
}

void tst_Faults::cleanup()
{
    m_client.reset();
    m_http.reset();
    m_peer.reset();
}

void tst_Faults::connectionReset()
{
    script([](const json &, const HttpPeer::Request &) { return QByteArray("RESET"); });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Transport);
    QVERIFY(job->error().isTransient());
}

void tst_Faults::timeout()
{
    script([](const json &, const HttpPeer::Request &) { return QByteArray(); });
    auto job = finish(makeClient(Mcp::Era::Modern, 500)->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Timeout);
    QVERIFY(job->error().isTransient());
}

void tst_Faults::rateLimited()
{
    script([](const json &, const HttpPeer::Request &) {
        return HttpPeer::response(429, "", "", {{"Retry-After", "7"}});
    });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Http);
    QCOMPARE(job->error().httpStatus(), 429);
    QCOMPARE(job->error().retryAfterMs(), 7000);
    QVERIFY(job->error().isTransient());
}

// A server asking for two hours would leave its tasks unpolled long after it came back: the wait
// is capped at 10 minutes, and the message says both.
void tst_Faults::longRetryAfterIsCapped()
{
    script([](const json &, const HttpPeer::Request &) {
        return HttpPeer::response(503, "", "", {{"Retry-After", "7200"}});
    });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Http);
    QCOMPARE(job->error().retryAfterMs(), 10 * 60 * 1000);
    QVERIFY2(job->error().message().contains(
                 QLatin1String("the server asked to wait 2 h; Eddy retries in 10 min")),
             qPrintable(job->error().message()));
}

void tst_Faults::unavailableWithJsonRpcBody()
{
    script([](const json &b, const HttpPeer::Request &) {
        return HttpPeer::response(503, rpcError(b["id"], -32603, "overloaded"), "application/json",
                                  {{"Retry-After", "2"}});
    });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::JsonRpc);
    QCOMPARE(job->error().httpStatus(), 503);
    QCOMPARE(job->error().retryAfterMs(), 2000);
    QVERIFY(job->error().isTransient());
    QVERIFY(!job->error().isTaskGone());
}

void tst_Faults::truncatedBody()
{
    m_peer->setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"jsonrpc\":\"2.0\",");
        s->flush();
        s->disconnectFromHost();
    });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Transport);
}

void tst_Faults::oversizedBody()
{
    script([](const json &b, const HttpPeer::Request &) {
        json result = kTask;
        result["resultType"] = "complete";
        result["statusMessage"] = std::string(100000, 'x');
        return HttpPeer::response(200, rpcResult(b["id"], result));
    });
    auto job = finish(makeClient(Mcp::Era::Modern, 20000, 10000)->getTask("task-0123456789abcdef"));
    expectError(*job, Mcp::Error::Kind::Protocol);
    QVERIFY(job->error().message().contains(QLatin1String("limit")));
}

void tst_Faults::invalidJson_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("contentType");
    QTest::newRow("not json") << QByteArray("{not json") << QByteArray("application/json");
    QTest::newRow("html error page") << QByteArray("<html>502</html>") << QByteArray("text/html");
    QTest::newRow("invalid utf-8") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":\"\xC3\x28\"}}")
                                   << QByteArray("application/json");
    QTest::newRow("array") << QByteArray("[1,2]") << QByteArray("application/json");
    QTest::newRow("jsonrpc 1.0") << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{}}")
                                 << QByteArray("application/json");
    QTest::newRow("sse garbage") << QByteArray("data: {oops\n\n") << QByteArray("text/event-stream");
    QTest::newRow("result not object") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":5}")
                                       << QByteArray("application/json");
}

void tst_Faults::invalidJson()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, contentType);
    script([body, contentType](const json &, const HttpPeer::Request &) {
        return HttpPeer::response(200, body, contentType);
    });
    auto job = finish(makeClient()->getTask("abc"));
    expectError(*job, Mcp::Error::Kind::Protocol);
}

void tst_Faults::wrongResultType_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("resultType");
    QTest::newRow("tasks/get input_required") << QByteArray("tasks/get") << QByteArray("input_required");
    QTest::newRow("tasks/get bogus") << QByteArray("tasks/get") << QByteArray("bogus");
    QTest::newRow("tools/call bogus") << QByteArray("tools/call") << QByteArray("bogus");
    QTest::newRow("tasks/cancel task") << QByteArray("tasks/cancel") << QByteArray("task");
}

void tst_Faults::wrongResultType()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, resultType);
    script([resultType](const json &b, const HttpPeer::Request &) {
        json result = kTask;
        result["resultType"] = resultType.toStdString();
        return HttpPeer::response(200, rpcResult(b["id"], result));
    });
    Mcp::Client *client = makeClient();
    std::unique_ptr<Mcp::Job> job;
    if (method == "tasks/get")
        job = finish<Mcp::Job>(client->getTask("task-0123456789abcdef"));
    else if (method == "tasks/cancel")
        job = finish<Mcp::Job>(client->cancelTask("task-0123456789abcdef"));
    else
        job = finish<Mcp::Job>(client->callTool(QStringLiteral("t"), json::object()));
    expectError(*job, Mcp::Error::Kind::Protocol);
}

void tst_Faults::createTaskResultOnUpdate()
{
    script([](const json &b, const HttpPeer::Request &) {
        json result = kTask;
        result["resultType"] = "task";
        return HttpPeer::response(200, rpcResult(b["id"], result));
    });
    auto job = finish(makeClient()->updateTask("task-0123456789abcdef", {{"k", {{"action", "decline"}}}}));
    expectError(*job, Mcp::Error::Kind::Protocol);
    QVERIFY(job->error().message().contains(QLatin1String("only tools/call")));
}

void tst_Faults::missingId()
{
    script([](const json &, const HttpPeer::Request &) {
        return HttpPeer::response(200, R"({"jsonrpc":"2.0","result":{"resultType":"complete"}})");
    });
    auto job = finish(makeClient()->cancelTask("abc"));
    expectError(*job, Mcp::Error::Kind::Protocol);
    QVERIFY(job->error().message().contains(QLatin1String("id")));
}

void tst_Faults::sseEndsWithoutAnswer()
{
    script([](const json &, const HttpPeer::Request &) {
        return HttpPeer::response(200, ": keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n",
                                  "text/event-stream");
    });
    auto job = finish(makeClient()->callTool(QStringLiteral("t"), json::object()));
    expectError(*job, Mcp::Error::Kind::Transport);
    QVERIFY(job->error().isTransient());
    QVERIFY(job->error().isStreamDropped());
    // Without an idempotency key a re-send could start a second task: the caller decides.
    QCOMPARE(m_peer->requests().size(), 1);
}

void tst_Faults::sseDroppedIdempotentCallSentAgainOnce()
{
    // The first attempt's stream ends before the answer (the server may have created the task);
    // the second gets the answer. A third attempt never happens.
    int calls = 0;
    int drops = 1;
    script([&calls, &drops](const json &b, const HttpPeer::Request &) {
        if (++calls <= drops)
            return HttpPeer::response(200, ": keep-alive\n\n", "text/event-stream");
        json result = kTask;
        result["resultType"] = "task";
        return HttpPeer::response(200, rpcResult(b["id"], result));
    });
    const json args = {{"case_name", "c"}, {"idempotency_key", "sweep-7-case-3"}};
    auto job = finish(makeClient()->callTool(QStringLiteral("t"), args));
    QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    QVERIFY(job->kind() == Mcp::CallJob::Kind::Task);
    const auto reqs = m_peer->requests();
    QCOMPARE(reqs.size(), 2);
    const json first = bodyOf(reqs[0]), second = bodyOf(reqs[1]);
    QVERIFY(second["params"]["arguments"] == args);
    QVERIFY(first["params"]["arguments"] == args);
    QVERIFY(first["id"] != second["id"]); // a re-issue is a new request

    // Both attempts dropped: one re-send only, then the error reaches the caller.
    calls = 0;
    drops = 2;
    auto again = finish(m_client->callTool(QStringLiteral("t"), args));
    expectError(*again, Mcp::Error::Kind::Transport);
    QVERIFY(again->error().isStreamDropped());
    QCOMPARE(m_peer->requests().size(), 4);
}

void tst_Faults::sseNotificationsThenResult()
{
    m_peer->setHandler([](const HttpPeer::Request &r, QTcpSocket *s) {
        const json b = bodyOf(r);
        s->write(HttpPeer::chunkedHead(200, "text/event-stream"));
        s->write(HttpPeer::chunk("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":50}}\r\n\r\n: ping\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","));
        s->flush();
        const QByteArray rest = "\"params\":{\"level\":\"info\",\"data\":\"half\"}}\r\n\r\ndata: "
                                + rpcResult(b["id"], {{"resultType", "complete"}, {"content", json::array()}})
                                + "\r\n\r\n";
        QTimer::singleShot(100, s, [s, rest] { s->write(HttpPeer::chunk(rest)); });
        // The stream stays open after the answer: the client must not wait for its end.
    });
    std::vector<json> notes;
    Mcp::CallOptions options;
    options.onNotification = [&notes](const json &n) { notes.push_back(n); };
    auto job = finish(makeClient()->callTool(QStringLiteral("t"), json::object(), options));
    QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    QVERIFY(job->kind() == Mcp::CallJob::Kind::Complete);
    QCOMPARE(notes.size(), size_t(2));
    QVERIFY(notes[0]["method"] == "notifications/progress");
    QVERIFY(notes[1]["method"] == "notifications/message");
}

// eddy-cfd-server under load once wrote a "working" computed before "completed" after it (two
// threads notifying at once), and tst_client's listen case waited forever for a terminal last
// push. The listen stream delivers pushes in time order per task and nothing after a terminal one.
void tst_Faults::listenDropsStalePushes()
{
    const auto push = [](const char *status, const char *updated, const char *message) {
        json task = kTask;
        task["status"] = status;
        task["lastUpdatedAt"] = updated;
        task["statusMessage"] = message;
        if (std::string(status) == "completed")
            task["result"] = {{"content", json::array()}};
        return "event: message\ndata: "
               + QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"method", "notifications/tasks"},
                                                {"params", task}}.dump())
               + "\n\n";
    };
    m_peer->setHandler([push](const HttpPeer::Request &r, QTcpSocket *s) {
        const json b = bodyOf(r);
        const std::string taskId = kTask["taskId"];
        const json ack = {{"jsonrpc", "2.0"}, {"method", "notifications/subscriptions/acknowledged"},
                          {"params", {{"notifications", {{"taskIds", {taskId}}}}}}};
        s->write(HttpPeer::chunkedHead(200, "text/event-stream"));
        s->write(HttpPeer::chunk("event: message\ndata: " + QByteArray::fromStdString(ack.dump()) + "\n\n"
                                 + push("working", "2026-08-01T10:00:02Z", "iteration 100")
                                 + push("working", "2026-08-01T10:00:01Z", "starting (stale)")
                                 + push("completed", "2026-08-01T10:00:03Z", "done")
                                 + push("working", "2026-08-01T10:00:01Z", "starting (after terminal)")
                                 + push("working", "2026-08-01T10:00:04Z", "newer but after terminal")));
        // The stream stays open, as eddy-cfd-server's does.
    });
    std::unique_ptr<Mcp::Listen> listen(makeClient()->listen({kTask["taskId"].get<std::string>()}));
    QSignalSpy acked(listen.get(), &Mcp::Listen::acknowledged);
    QStringList delivered;
    connect(listen.get(), &Mcp::Listen::taskNotification, this, [&delivered](const Mcp::TaskState &s) {
        delivered << s.statusMessage.value_or(QString());
    });
    QTRY_COMPARE_WITH_TIMEOUT(acked.size(), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 2, 30000);
    QTest::qWait(100); // negative check: let any further (wrong) delivery show up
    QCOMPARE(delivered, (QStringList{QStringLiteral("iteration 100"), QStringLiteral("done")}));
    QVERIFY(listen->isOpen());
}

void tst_Faults::headersAndMeta()
{
    const json tools = json::parse(R"({"resultType":"complete","ttlMs":1000,"cacheScope":"public","tools":[
        {"name":"sim","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
        {"name":"bad","inputSchema":{"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}}}]})");
    script([tools](const json &b, const HttpPeer::Request &) {
        const std::string m = b.value("method", "");
        if (m == "tools/list")
            return HttpPeer::response(200, rpcResult(b["id"], tools));
        if (m == "tools/call") {
            json r = kTask;
            r["resultType"] = "task";
            r["content"] = json::array();
            return HttpPeer::response(200, rpcResult(b["id"], r));
        }
        json r = kTask;
        r["resultType"] = "complete";
        return HttpPeer::response(200, rpcResult(b["id"], r));
    });
    Mcp::Client *client = makeClient();
    QSignalSpy warnings(client, &Mcp::Client::warning);
    auto list = finish(client->listTools());
    QVERIFY(!list->hasError());
    QCOMPARE(list->tools().size(), size_t(1)); // "bad" dropped, with a warning
    QCOMPARE(list->rejected().size(), 1);
    QCOMPARE(warnings.size(), 1);

    const Mcp::TraceContext trace = Mcp::TraceContext::create();
    Mcp::CallOptions options;
    options.traceparent = trace.newTraceparent();
    auto call = finish(client->callTool(QString::fromUtf8("sim"), {{"region", "Zürich"}}, options));
    QVERIFY2(!call->hasError(), qPrintable(call->error().message()));
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Task); // content: [] does not make it complete
    const QByteArray tp = trace.newTraceparent();
    auto get = finish(client->getTask(call->task().taskId, tp));
    QVERIFY(!get->hasError());

    const auto &reqs = m_peer->requests();
    QCOMPARE(reqs.size(), 3);
    for (const auto &r : reqs) {
        QCOMPARE(r.header("MCP-Protocol-Version"), QByteArray("2026-07-28"));
        QVERIFY(r.header("Accept").contains("application/json"));
        QVERIFY(r.header("Accept").contains("text/event-stream"));
        const json b = bodyOf(r);
        QCOMPARE(r.header("Mcp-Method"), QByteArray::fromStdString(b["method"].get<std::string>()));
        const json meta = b["params"]["_meta"];
        QVERIFY(meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28");
        QVERIFY(meta["io.modelcontextprotocol/clientInfo"]["name"] == "eddy");
        const json caps = meta["io.modelcontextprotocol/clientCapabilities"];
        QVERIFY(caps["extensions"].contains("io.modelcontextprotocol/tasks"));
        QVERIFY(caps["elicitation"].contains("form") && caps["elicitation"].contains("url"));
    }
    QVERIFY(reqs[0].header("Mcp-Name").isEmpty()); // tools/list has none
    QCOMPARE(reqs[1].header("Mcp-Name"), QByteArray("sim"));
    QCOMPARE(reqs[1].header("Mcp-Param-Region"),
             QByteArray("=?base64?" + QByteArray("Z\xC3\xBCrich").toBase64() + "?="));
    QVERIFY(bodyOf(reqs[1])["params"]["_meta"]["traceparent"] == options.traceparent.toStdString());
    QVERIFY(!bodyOf(reqs[1])["params"].contains("task")); // no 2025 task param in 2026
    QCOMPARE(reqs[2].header("Mcp-Name"), QByteArray("task-0123456789abcdef"));
    QVERIFY(bodyOf(reqs[2])["params"]["taskId"] == "task-0123456789abcdef");
    QVERIFY(bodyOf(reqs[2])["params"]["_meta"]["traceparent"] == tp.toStdString());
    QCOMPARE(tp.mid(3, 32), options.traceparent.mid(3, 32)); // one trace for the task
}

void tst_Faults::mrtrEchoesRequestState()
{
    const std::string state = "opaque+/==\\u00e9\"state";
    script([state](const json &b, const HttpPeer::Request &) {
        if (!b["params"].contains("inputResponses"))
            return HttpPeer::response(200, rpcResult(b["id"], {{"resultType", "input_required"},
                {"inputRequests", {{"who", {{"method", "elicitation/create"},
                    {"params", {{"message", "name?"}, {"requestedSchema", {{"type", "object"}}}}}}}}},
                {"requestState", state}}));
        return HttpPeer::response(200, rpcResult(b["id"], {{"resultType", "complete"},
                                                           {"content", json::array()}}));
    });
    int asked = 0;
    Mcp::CallOptions options;
    options.inputHandler = [&asked](const json &requests, Mcp::CallOptions::Reply reply) {
        ++asked;
        QTimer::singleShot(10, [requests, reply] {
            reply({{requests.begin().key(), {{"action", "accept"}, {"content", {{"name", "Luca"}}}}}});
        });
    };
    auto job = finish(makeClient()->callTool(QStringLiteral("t"), {{"a", 1}}, options));
    QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    QVERIFY(job->kind() == Mcp::CallJob::Kind::Complete);
    QCOMPARE(asked, 1);
    const auto calls = bodies("tools/call");
    QCOMPARE(calls.size(), size_t(2));
    QVERIFY(calls[0]["id"] != calls[1]["id"]);
    QVERIFY(!calls[0]["params"].contains("requestState"));
    QVERIFY(calls[1]["params"]["requestState"] == state);
    QVERIFY(calls[1]["params"]["inputResponses"]["who"]["content"]["name"] == "Luca");
    QVERIFY(calls[1]["params"]["arguments"] == calls[0]["params"]["arguments"]);

    // Without an input handler the call ends with a clear error instead of hanging.
    auto noHandler = finish(m_client->callTool(QStringLiteral("t"), json::object()));
    expectError(*noHandler, Mcp::Error::Kind::Protocol);
}

void tst_Faults::headerMismatchRelistsOnce()
{
    int calls = 0;
    script([&calls](const json &b, const HttpPeer::Request &) {
        const std::string m = b.value("method", "");
        if (m == "tools/list")
            return HttpPeer::response(200, rpcResult(b["id"], {{"resultType", "complete"}, {"tools", json::array()}}));
        ++calls;
        if (calls == 1 || calls >= 3)
            return HttpPeer::response(400, rpcError(b["id"], -32020, "Header mismatch: Mcp-Param-Region missing"));
        return HttpPeer::response(200, rpcResult(b["id"], {{"resultType", "complete"}, {"content", json::array()}}));
    });
    Mcp::Client *client = makeClient();
    auto ok = finish(client->callTool(QStringLiteral("t"), json::object()));
    QVERIFY2(!ok->hasError(), qPrintable(ok->error().message()));
    QCOMPARE(bodies("tools/list").size(), size_t(1));
    QCOMPARE(calls, 2);
    // A server that keeps refusing: one re-list, one retry, then the error.
    auto bad = finish(client->callTool(QStringLiteral("t"), json::object()));
    expectError(*bad, Mcp::Error::Kind::JsonRpc);
    QCOMPARE(bad->error().code(), Mcp::ErrorCode::HeaderMismatch);
    QVERIFY(bad->error().message().contains(QLatin1String("stripped")));
    QCOMPARE(calls, 4);
}

static QByteArray legacyPeer(const json &b, const HttpPeer::Request &r, int *inits)
{
    const std::string m = b.value("method", "");
    if (m == "initialize") {
        ++*inits;
        return HttpPeer::response(200, rpcResult(b["id"], {{"protocolVersion", "2025-11-25"},
            {"capabilities", {{"tools", json::object()}, {"tasks", {{"requests", {{"tools", {{"call", json::object()}}}}}}}}},
            {"serverInfo", {{"name", "old"}, {"version", "1"}}}}), "application/json",
            {{"Mcp-Session-Id", "sess-" + QByteArray::number(*inits)}});
    }
    if (m == "notifications/initialized")
        return HttpPeer::response(202, "", "");
    if (r.header("Mcp-Session-Id").isEmpty())
        return HttpPeer::response(400, "");
    if (m == "tools/list")
        return HttpPeer::response(200, rpcResult(b["id"], {{"tools", {{{"name", "t"}, {"inputSchema", {{"type", "object"}}},
                                                                        {"execution", {{"taskSupport", "optional"}}}}}}}));
    if (m == "tools/call")
        return HttpPeer::response(200, rpcResult(b["id"], {{"task", {{"taskId", "legacy-1"}, {"status", "working"},
            {"createdAt", "2025-11-25T10:30:00Z"}, {"lastUpdatedAt", "2025-11-25T10:30:00Z"}, {"ttl", 60000}, {"pollInterval", 500}}}}));
    return HttpPeer::response(200, rpcError(b["id"], -32601, "nope"));
}

void tst_Faults::fallbackToLegacyOnEmpty400()
{
    int inits = 0;
    script([&inits](const json &b, const HttpPeer::Request &r) {
        if (b.value("method", "") == "server/discover")
            return HttpPeer::response(400, "", "");
        return legacyPeer(b, r, &inits);
    });
    Mcp::Client *client = makeClient(Mcp::Era::Unknown);
    QSignalSpy eras(client, &Mcp::Client::eraDetected);
    auto call = finish(client->callTool(QStringLiteral("t"), {{"x", 1}}));
    QVERIFY2(!call->hasError(), qPrintable(call->error().message()));
    QVERIFY(client->era() == Mcp::Era::Legacy);
    QCOMPARE(eras.size(), 1);
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Task);
    QCOMPARE(call->task().pollIntervalMs.value_or(-1), 500);
    const auto calls = bodies("tools/call");
    QCOMPARE(calls.size(), size_t(1));
    QVERIFY(calls[0]["params"]["task"].is_object()); // taskSupport optional + server capability
    const auto &last = m_peer->requests().last();
    QCOMPARE(last.header("Mcp-Session-Id"), QByteArray("sess-1"));
    QCOMPARE(last.header("MCP-Protocol-Version"), QByteArray("2025-11-25"));
    QCOMPARE(bodies("notifications/initialized").size(), size_t(1));
    // The era is cached per origin.
    Mcp::ServerConfig config;
    config.url = m_peer->url();
    Mcp::Client second(config, m_http.get());
    QVERIFY(second.era() == Mcp::Era::Legacy);
}

void tst_Faults::fallbackToLegacyOnUnsupportedVersion()
{
    int inits = 0;
    script([&inits](const json &b, const HttpPeer::Request &r) {
        if (b.contains("params") && b["params"].contains("_meta")
            && b["params"]["_meta"].contains("io.modelcontextprotocol/protocolVersion"))
            return HttpPeer::response(400, rpcError(b["id"], -32022, "Unsupported protocol version",
                                                    {{"supported", {"2025-11-25"}}, {"requested", "2026-07-28"}}));
        return legacyPeer(b, r, &inits);
    });
    Mcp::Client *client = makeClient(Mcp::Era::Unknown);
    auto discover = finish(client->discover());
    QVERIFY2(!discover->hasError(), qPrintable(discover->error().message()));
    QVERIFY(discover->era() == Mcp::Era::Legacy);
    QCOMPARE(discover->info().serverName, QStringLiteral("old"));
    QVERIFY(discover->offersTasks());
}

void tst_Faults::unsupportedVersionListingOursRetriesOnce_data()
{
    QTest::addColumn<int>("era");      // what the client knows before its first request
    QTest::addColumn<int>("refusals"); // how many requests the server refuses
    QTest::newRow("detect, refused once") << int(Mcp::Era::Unknown) << 1;
    QTest::newRow("detect, refused always") << int(Mcp::Era::Unknown) << 1000;
    QTest::newRow("modern, refused once") << int(Mcp::Era::Modern) << 1;
    QTest::newRow("modern, refused always") << int(Mcp::Era::Modern) << 1000;
}

void tst_Faults::unsupportedVersionListingOursRetriesOnce()
{
    // -32022 whose "supported" list holds the very version Eddy sent (a proxy, or a fleet in
    // the middle of an upgrade): the mutually supported version is ours, so the client asks
    // once more with a new id, and reports the error if it is refused again; never a loop.
    QFETCH(int, era);
    QFETCH(int, refusals);
    int refused = 0;
    script([&refused, refusals](const json &b, const HttpPeer::Request &) {
        if (refused < refusals) {
            ++refused;
            return HttpPeer::response(
                400,
                rpcError(b["id"],
                         -32022,
                         "Unsupported protocol version",
                         {{"supported", {"2026-07-28"}}, {"requested", "2026-07-28"}}));
        }
        if (b.value("method", "") == "server/discover")
            return HttpPeer::response(
                200,
                rpcResult(b["id"],
                          {{"resultType", "complete"},
                           {"supportedVersions", {"2026-07-28"}},
                           {"capabilities", {{"tools", json::object()}}},
                           {"serverInfo", {{"name", "srv"}, {"version", "1"}}},
                           {"ttlMs", 0},
                           {"cacheScope", "public"}}));
        return HttpPeer::response(
            200, rpcResult(b["id"], {{"resultType", "complete"}, {"tools", json::array()}}));
    });
    Mcp::Client *client = makeClient(Mcp::Era(era));
    auto tools = finish(client->listTools());
    const auto &requests = m_peer->requests();
    QCOMPARE(requests.size(), qsizetype(refusals == 1 ? 2 + (era == int(Mcp::Era::Unknown)) : 2));
    QCOMPARE(refused, std::min(refusals, 2));
    const json first = bodyOf(requests[0]);
    const json second = bodyOf(requests[1]);
    QCOMPARE(second.value("method", ""), first.value("method", ""));
    QVERIFY(second["id"] != first["id"]);
    QCOMPARE(requests[1].header("MCP-Protocol-Version"), QByteArray("2026-07-28"));
    QCOMPARE(bodies("initialize").size(), size_t(0));
    if (refusals == 1) {
        QVERIFY2(!tools->hasError(), qPrintable(tools->error().message()));
        QVERIFY(client->era() == Mcp::Era::Modern);
    } else {
        expectError(*tools, Mcp::Error::Kind::JsonRpc);
        QCOMPARE(tools->error().code(), Mcp::ErrorCode::UnsupportedProtocolVersion);
    }
}

void tst_Faults::emptyParamHeaderSentNullOmitted()
{
    // x-mcp-header: an empty string is a value and is mirrored (empty); null means "not given"
    // and its header is omitted. libcurl drops a "Name:" line, so both paths must write it.
    const json tools = json::parse(R"({"resultType":"complete","tools":[{"name":"sim","inputSchema":
        {"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},
         "verbose":{"type":"boolean","x-mcp-header":"Verbose"}}}}]})");
    script([tools](const json &b, const HttpPeer::Request &) {
        if (b.value("method", "") == "tools/list")
            return HttpPeer::response(200, rpcResult(b["id"], tools));
        return HttpPeer::response(
            200, rpcResult(b["id"], {{"resultType", "complete"}, {"content", json::array()}}));
    });
    Mcp::Client *client = makeClient();
    QVERIFY(!finish(client->listTools())->hasError());
    auto call
        = finish(client->callTool(QStringLiteral("sim"), {{"region", ""}, {"verbose", nullptr}}));
    QVERIFY2(!call->hasError(), qPrintable(call->error().message()));
    const auto &sent = m_peer->requests().last();
    const auto has = [&sent](const QByteArray &name) {
        return std::any_of(sent.headers.begin(), sent.headers.end(), [&name](const auto &h) {
            return h.first.compare(name, Qt::CaseInsensitive) == 0;
        });
    };
    QVERIFY(has("Mcp-Name"));
    QVERIFY(has("Mcp-Param-Region"));
    QCOMPARE(sent.header("Mcp-Param-Region"), QByteArray());
    QVERIFY(!has("Mcp-Param-Verbose"));
    QVERIFY(bodyOf(sent)["params"]["arguments"]["verbose"].is_null());
}

void tst_Faults::modernErrorMeansNoFallback()
{
    script([](const json &b, const HttpPeer::Request &) {
        return HttpPeer::response(400, rpcError(b["id"], -32020, "Header mismatch"));
    });
    Mcp::Client *client = makeClient(Mcp::Era::Unknown);
    auto discover = finish(client->discover());
    expectError(*discover, Mcp::Error::Kind::JsonRpc);
    QVERIFY(client->era() == Mcp::Era::Modern);
    QCOMPARE(bodies("initialize").size(), size_t(0));
}

void tst_Faults::legacySessionGoneReinitializes()
{
    int inits = 0;
    bool expired = false;
    script([&inits, &expired](const json &b, const HttpPeer::Request &r) {
        if (b.value("method", "") == "tools/list" && !expired) {
            expired = true;
            return HttpPeer::response(404, "", "");
        }
        return legacyPeer(b, r, &inits);
    });
    Mcp::Client *client = makeClient(Mcp::Era::Legacy);
    auto tools = finish(client->listTools());
    QVERIFY2(!tools->hasError(), qPrintable(tools->error().message()));
    QCOMPARE(inits, 2);
    QCOMPARE(m_peer->requests().last().header("Mcp-Session-Id"), QByteArray("sess-2"));
    QCOMPARE(tools->tools().size(), size_t(1));
}

void tst_Faults::idsNeverReused()
{
    script([](const json &b, const HttpPeer::Request &) {
        if (b.value("method", "") == "server/discover")
            return HttpPeer::response(200, rpcResult(b["id"], {{"resultType", "complete"}, {"supportedVersions", {"2026-07-28"}},
                {"capabilities", {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}, {"ttlMs", 0}, {"cacheScope", "public"}}));
        json r = kTask;
        r["resultType"] = "complete";
        return HttpPeer::response(200, rpcResult(b["id"], r));
    });
    Mcp::Client *client = makeClient(Mcp::Era::Unknown);
    std::vector<std::unique_ptr<Mcp::TaskJob>> jobs;
    for (int i = 0; i < 30; ++i) {
        auto *job = client->getTask("task-0123456789abcdef");
        job->setAutoDelete(false);
        jobs.emplace_back(job);
    }
    for (auto &job : jobs)
        QTRY_VERIFY_WITH_TIMEOUT(job->isFinished(), 60000);
    for (auto &job : jobs)
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    std::set<std::string> ids;
    for (const json &b : bodies()) {
        QVERIFY(b.contains("id") && !b["id"].is_null());
        QVERIFY2(ids.insert(b["id"].dump()).second, "a request id was reused");
    }
    QCOMPARE(ids.size(), size_t(31)); // one discover (era detection) + 30 polls
}

void tst_Faults::clientDeletedWhileBusy()
{
    script([](const json &, const HttpPeer::Request &) { return QByteArray(); }); // never answers
    Mcp::Client *client = makeClient(Mcp::Era::Unknown);
    QPointer<Mcp::DiscoverJob> discover = client->discover();
    QPointer<Mcp::TaskJob> get = client->getTask("abc");
    QTRY_COMPARE_WITH_TIMEOUT(m_peer->requests().size(), 1, 30000);
    m_client.reset(); // jobs are its children; no callback may reach the dead client
    QVERIFY(!discover && !get);
    QTest::qWait(100); // negative check: no callback reaches the dead client, no transfer is left
    QCOMPARE(m_http->activeTransfers(), 0);
}

QTEST_GUILESS_MAIN(tst_Faults)
#include "tst_faults.moc"
