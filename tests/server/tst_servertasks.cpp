// Task behaviour of eddy-cfd-server under 2026-07-28: creation, polling, progress text, queue,
// cancellation, idempotency, the mesh question (repair / abort / decline / cancel, fresh keys)
// and subscriptions/listen notifications. One real server with one solver worker.

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QRegularExpression>
#include <QtTest>

#include <set>
#include <thread>

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;
using Eddy::Test::SseReader;

namespace {

// The *_httplib ctest registrations set EDDY_SERVER_EXTRA_ARGS="--http-engine httplib": the
// same suite then runs against the cpp-httplib front end, and every protocol assertion must
// hold there too.
QStringList withExtraServerArgs(QStringList args)
{
    return args + qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").split(' ', Qt::SkipEmptyParts);
}

} // namespace

namespace {

// A case that keeps a worker busy until cancelled.
json endlessCase(const std::string &name)
{
    return {{"case_name", name}, {"reynolds", 100}, {"grid", 128},
            {"max_iterations", 10000000}, {"tolerance", 1e-14}};
}

json quickCase()
{
    return {{"case_name", "quick"}, {"reynolds", 100}, {"grid", 16},
            {"max_iterations", 4000}, {"tolerance", 1e-5}};
}

bool hasStatus(const json &task, const char *status)
{
    return task.value("status", "") == status;
}

} // namespace

class tst_ServerTasks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lifecycleToCompleted();
    void notConvergedStillCompletes();
    void progressMessageAndCancel();
    void queuePosition();
    void idempotency();
    void meshRepair();
    void meshAnswerEndsCase_data();
    void meshAnswerEndsCase();
    void meshStillDefectiveAsksWithNewKey();
    void listenNotifications();
    void concurrentIdempotency();
    void manyListenersDoNotStarvePolls();
    void pollIntervalNarrowsNearEnd();

private:
    void cancel(const std::string &id)
    {
        const HttpReply r = m_client->request("tasks/cancel", {{"taskId", id}});
        QCOMPARE(r.result().value("resultType", ""), std::string("complete"));
    }
    std::string waitForMeshQuestion(const std::string &id, json *task = nullptr)
    {
        const json t = m_client->waitForTask(id, [](const json &t) { return !hasStatus(t, "working"); });
        if (task)
            *task = t;
        if (!hasStatus(t, "input_required") || !t["inputRequests"].is_object() || t["inputRequests"].size() != 1)
            return {};
        return t["inputRequests"].begin().key();
    }

    Eddy::Test::TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
};

void tst_ServerTasks::initTestCase()
{
    QVERIFY2(m_server.start(withExtraServerArgs({"--workers", "1", "--poll-interval-ms", "500"})),
             qPrintable(m_server.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
}

void tst_ServerTasks::lifecycleToCompleted()
{
    const json created = m_client->callTool(quickCase());
    QCOMPARE(created.value("resultType", ""), std::string("task"));
    const std::string id = created.value("taskId", "");
    QVERIFY(QRegularExpression("^[0-9a-f]{32}$").match(QString::fromStdString(id)).hasMatch());
    QVERIFY(created.contains("createdAt"));
    QVERIFY(created.contains("lastUpdatedAt"));
    QVERIFY(created["ttlMs"].is_number_integer());
    QVERIFY(created["pollIntervalMs"].is_number_integer());
    QVERIFY(!created.contains("result"));
    QVERIFY(!created.contains("task")); // flat, not the 2025 nesting

    // Durable before the reply: the very next poll resolves.
    const HttpReply first = m_client->getTask(id);
    QCOMPARE(first.status, 200L);
    QCOMPARE(first.result().value("resultType", ""), std::string("complete"));
    QCOMPARE(first.result().value("taskId", ""), id);

    const json done = m_client->waitForTask(id, McpTestClient::isTerminal);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    const json &result = done["result"];
    QCOMPARE(result.value("resultType", ""), std::string("complete"));
    QCOMPARE(result.value("isError", true), false);
    QVERIFY(!result["content"][0]["text"].get<std::string>().empty());
    const json &s = result["structuredContent"];
    QCOMPARE(s["converged"].get<bool>(), true);
    QVERIFY(s["iterations"].get<int>() > 0);
    QVERIFY(s["final_residual"].get<double>() < 1e-5);
    QVERIFY(s["u_centreline"]["u"].size() > 10);
    QCOMPARE(s["u_centreline"]["u"].size(), s["u_centreline"]["y"].size());
    QCOMPARE(s["v_centreline"]["v"].size(), s["v_centreline"]["x"].size());
    QVERIFY(s["vortex_centre"]["x"].get<double>() > 0.3 && s["vortex_centre"]["x"].get<double>() < 0.9);
    QVERIFY(s["wall_seconds"].get<double>() >= 0);

    // Terminal states never change: cancel is a harmless ack.
    cancel(id);
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("completed"));
}

void tst_ServerTasks::notConvergedStillCompletes()
{
    json args = quickCase();
    args["max_iterations"] = 10;
    const std::string id = m_client->createTask(args);
    QVERIFY(!id.empty());
    const json done = m_client->waitForTask(id, McpTestClient::isTerminal);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QCOMPARE(done["result"]["structuredContent"]["converged"].get<bool>(), false);
    QCOMPARE(done["result"]["structuredContent"]["iterations"].get<int>(), 10);
    QVERIFY(done["result"]["content"][0]["text"].get<std::string>().find("did not converge") != std::string::npos);
}

void tst_ServerTasks::progressMessageAndCancel()
{
    const std::string id = m_client->createTask(endlessCase("endless"));
    QVERIFY(!id.empty());
    static const QRegularExpression progress(
        "^iteration (\\d+) of 10000000, residual \\d\\.\\de-?\\d+ \\(u \\d\\.\\de-?\\d+, "
        "v \\d\\.\\de-?\\d+, ω \\d\\.\\de-?\\d+\\)$");
    const json running = m_client->waitForTask(id, [](const json &t) {
        return progress.match(QString::fromStdString(t.value("statusMessage", ""))).hasMatch();
    });
    QVERIFY2(progress.match(QString::fromStdString(running.value("statusMessage", ""))).hasMatch(),
             running.dump().c_str());
    QCOMPARE(running.value("status", ""), std::string("working"));
    QCOMPARE(running["pollIntervalMs"].get<int>(), 500);

    cancel(id);
    const json after = m_client->waitForTask(id, McpTestClient::isTerminal);
    QCOMPARE(after.value("status", ""), std::string("cancelled"));
    QVERIFY(!after.contains("result"));
    // And it stays cancelled.
    QTest::qWait(300); // negative check: it does not turn into anything else
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("cancelled"));
}

void tst_ServerTasks::queuePosition()
{
    const std::string busy = m_client->createTask(endlessCase("busy"));
    QVERIFY(!busy.empty());
    m_client->waitForTask(busy, [](const json &t) {
        return t.value("statusMessage", "").rfind("iteration", 0) == 0;
    });
    const std::string waiting = m_client->createTask(endlessCase("waiting"));
    const std::string third = m_client->createTask(endlessCase("third"));
    QVERIFY(!waiting.empty() && !third.empty());
    json w = m_client->getTask(waiting).result();
    QCOMPARE(w.value("status", ""), std::string("working"));
    QCOMPARE(w.value("statusMessage", ""), std::string("queued, position 1"));
    QCOMPARE(m_client->getTask(third).result().value("statusMessage", ""), std::string("queued, position 2"));
    // Waiting cases are polled less often than running ones.
    QVERIFY(w["pollIntervalMs"].get<int>() > 500);

    // Cancelling a queued case moves the ones behind it up.
    std::vector<std::string> more;
    for (int i = 0; i < 4; ++i)
        more.push_back(m_client->createTask(endlessCase("more")));
    for (int i = 0; i < 4; ++i)
        QCOMPARE(m_client->getTask(more[i]).result().value("statusMessage", ""),
                 "queued, position " + std::to_string(i + 3));
    cancel(waiting);
    QCOMPARE(m_client->getTask(waiting).result().value("status", ""), std::string("cancelled"));
    QCOMPARE(m_client->getTask(third).result().value("statusMessage", ""), std::string("queued, position 1"));
    cancel(more[1]);
    QCOMPARE(m_client->getTask(more[0]).result().value("statusMessage", ""), std::string("queued, position 2"));
    QCOMPARE(m_client->getTask(more[2]).result().value("statusMessage", ""), std::string("queued, position 3"));
    QCOMPARE(m_client->getTask(more[3]).result().value("statusMessage", ""), std::string("queued, position 4"));
    for (const std::string &id : more)
        cancel(id);
    cancel(busy);
    const json started = m_client->waitForTask(third, [](const json &t) {
        return t.value("statusMessage", "").rfind("iteration", 0) == 0;
    });
    QVERIFY2(started.value("statusMessage", "").rfind("iteration", 0) == 0, started.dump().c_str());
    cancel(third);
    QCOMPARE(m_client->waitForTask(third, McpTestClient::isTerminal).value("status", ""), std::string("cancelled"));
}

void tst_ServerTasks::idempotency()
{
    json args = quickCase();
    args["idempotency_key"] = "sweep-7-case-3";
    const std::string a = m_client->createTask(args);
    const std::string b = m_client->createTask(args);
    QVERIFY(!a.empty());
    QCOMPARE(b, a);
    args["idempotency_key"] = "sweep-7-case-4";
    const std::string c = m_client->createTask(args);
    QVERIFY(!c.empty());
    QVERIFY(c != a);
    // Still the same task after it finished.
    m_client->waitForTask(a, McpTestClient::isTerminal);
    args["idempotency_key"] = "sweep-7-case-3";
    QCOMPARE(m_client->createTask(args), a);
}

void tst_ServerTasks::meshRepair()
{
    json args = quickCase();
    args["force_mesh_defect"] = true;
    const std::string id = m_client->createTask(args);
    QVERIFY(!id.empty());
    json task;
    const std::string key = waitForMeshQuestion(id, &task);
    QCOMPARE(key, std::string("mesh_repair_1"));
    const json &request = task["inputRequests"][key];
    QCOMPARE(request.value("method", ""), std::string("elicitation/create"));
    const json &params = request["params"];
    QCOMPARE(params.value("mode", ""), std::string("form"));
    QVERIFY(params["message"].get<std::string>().size() > 20);
    const json &schema = params["requestedSchema"];
    QCOMPARE(schema["required"], json({"action"}));
    const json &action = schema["properties"]["action"];
    QCOMPARE(action["type"].get<std::string>(), std::string("string"));
    QCOMPARE(action["oneOf"].size(), std::size_t(2));
    QCOMPARE(action["oneOf"][0]["const"].get<std::string>(), std::string("repair"));
    QCOMPARE(action["oneOf"][1]["const"].get<std::string>(), std::string("abort"));
    QVERIFY(!action["oneOf"][0]["title"].get<std::string>().empty());
    const json &passes = schema["properties"]["smoothing_passes"];
    QCOMPARE(passes["type"].get<std::string>(), std::string("integer"));
    QCOMPARE(passes["default"].get<int>(), 5);

    // An unknown key is ignored: still waiting.
    HttpReply r = m_client->request("tasks/update", {{"taskId", id},
        {"inputResponses", {{"no_such_key", {{"action", "accept"}, {"content", {{"action", "abort"}}}}}}}});
    QCOMPARE(r.result().value("resultType", ""), std::string("complete"));
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("input_required"));

    r = m_client->request("tasks/update", {{"taskId", id},
        {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 3}}}}}}}});
    QCOMPARE(r.status, 200L);
    const json done = m_client->waitForTask(id, McpTestClient::isTerminal);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QCOMPARE(done["result"].value("isError", true), false);
    // Answering the old key again changes nothing.
    m_client->request("tasks/update", {{"taskId", id},
        {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"action", "abort"}}}}}}}});
    QCOMPARE(m_client->getTask(id).result()["result"].value("isError", true), false);
}

void tst_ServerTasks::meshAnswerEndsCase_data()
{
    QTest::addColumn<QString>("response");
    QTest::newRow("abort") << R"({"action":"accept","content":{"action":"abort"}})";
    QTest::newRow("decline") << R"({"action":"decline"})";
    QTest::newRow("cancel") << R"({"action":"cancel"})";
    QTest::newRow("malformed answer") << R"({"action":5,"content":"repair"})";
}

void tst_ServerTasks::meshAnswerEndsCase()
{
    QFETCH(QString, response);
    json args = quickCase();
    args["force_mesh_defect"] = true;
    args["case_name"] = "doomed";
    const std::string id = m_client->createTask(args);
    const std::string key = waitForMeshQuestion(id);
    QVERIFY(!key.empty());
    m_client->request("tasks/update", {{"taskId", id},
        {"inputResponses", {{key, json::parse(response.toStdString())}}}});
    const json done = m_client->waitForTask(id, McpTestClient::isTerminal);
    // 2026: a tool error is a completed task whose result has isError, not a failed task.
    QCOMPARE(done.value("status", ""), std::string("completed"));
    QCOMPARE(done["result"].value("isError", false), true);
    const std::string text = done["result"]["content"][0]["text"].get<std::string>();
    QVERIFY2(text.find("doomed") != std::string::npos && text.find("mesh") != std::string::npos, text.c_str());
}

void tst_ServerTasks::meshStillDefectiveAsksWithNewKey()
{
    // Heavy grading makes a real defect that one smoothing pass does not cure.
    json args = quickCase();
    args["grading"] = 200;
    args["grid"] = 32;
    const std::string id = m_client->createTask(args);
    json task;
    const std::string first = waitForMeshQuestion(id, &task);
    QCOMPARE(first, std::string("mesh_repair_1"));
    QVERIFY(task["inputRequests"][first]["params"]["message"].get<std::string>().find("aspect ratio") != std::string::npos);
    m_client->request("tasks/update", {{"taskId", id},
        {"inputResponses", {{first, {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 1}}}}}}}});
    const json next = m_client->waitForTask(id, [&](const json &t) {
        return McpTestClient::isTerminal(t)
               || (hasStatus(t, "input_required") && !t["inputRequests"].contains(first));
    });
    QVERIFY2(hasStatus(next, "input_required"), next.dump().c_str());
    QCOMPARE(next["inputRequests"].size(), std::size_t(1));
    QCOMPARE(next["inputRequests"].begin().key(), std::string("mesh_repair_2"));
    cancel(id);
    QCOMPARE(m_client->waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("cancelled"));
}

void tst_ServerTasks::listenNotifications()
{
    const std::string id = m_client->createTask(endlessCase("watched"));
    QVERIFY(!id.empty());
    const json params = {{"_meta", McpTestClient::meta()},
                         {"notifications", {{"taskIds", {id, "ffffffffffffffffffffffffffffffff"}}}}};
    const json message = {{"jsonrpc", "2.0"}, {"id", "listen-1"}, {"method", "subscriptions/listen"}, {"params", params}};
    SseReader reader;
    reader.start(m_client->url(), message.dump(), m_client->headersFor("subscriptions/listen", params));
    const json ack = reader.waitForEvent([](const json &e) {
        return e.value("method", "") == "notifications/subscriptions/acknowledged";
    });
    QVERIFY2(!ack.is_null(), reader.rawText().c_str());
    QCOMPARE(reader.events().front().value("method", ""), std::string("notifications/subscriptions/acknowledged"));
    QCOMPARE(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].get<std::string>(), std::string("listen-1"));
    // Only the task the caller may see is acknowledged.
    QCOMPARE(ack["params"]["notifications"]["taskIds"], json({id}));

    cancel(id);
    const json note = reader.waitForEvent([&](const json &e) {
        return e.value("method", "") == "notifications/tasks" && e["params"].value("status", "") == "cancelled";
    });
    QVERIFY2(!note.is_null(), reader.rawText().c_str());
    QCOMPARE(note["params"].value("taskId", ""), id);
    QCOMPARE(note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].get<std::string>(), std::string("listen-1"));
    QVERIFY(note["params"].contains("createdAt"));
    reader.stop();
    QVERIFY2(reader.contentType().rfind("text/event-stream", 0) == 0, reader.contentType().c_str());
    QCOMPARE(reader.header("x-accel-buffering"), std::string("no"));

    // A second case seen through its whole life, including the final result.
    const std::string quick = m_client->createTask(quickCase());
    const json p2 = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {quick}}}}};
    SseReader second;
    second.start(m_client->url(), json{{"jsonrpc", "2.0"}, {"id", 99}, {"method", "subscriptions/listen"}, {"params", p2}}.dump(),
                 m_client->headersFor("subscriptions/listen", p2));
    const json completed = second.waitForEvent([](const json &e) {
        return e.value("method", "") == "notifications/tasks" && e["params"].value("status", "") == "completed";
    });
    QVERIFY2(!completed.is_null(), second.rawText().c_str());
    QCOMPARE(completed["params"]["result"].value("resultType", ""), std::string("complete"));
    QCOMPARE(completed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].get<int>(), 99);
    second.stop();
}

void tst_ServerTasks::concurrentIdempotency()
{
    // Eight clients submit the same keyed case at once: exactly one task comes of it.
    json args = quickCase();
    args["idempotency_key"] = "raced-key";
    std::vector<std::string> ids(8);
    std::vector<std::thread> threads;
    const QString url = m_server.url();
    for (std::size_t i = 0; i < ids.size(); ++i)
        threads.emplace_back([&, i] {
            McpTestClient client(url);
            ids[i] = client.createTask(args);
        });
    for (std::thread &t : threads)
        t.join();
    const std::set<std::string> distinct(ids.begin(), ids.end());
    QCOMPARE(distinct.size(), std::size_t(1));
    QVERIFY(!ids.front().empty());
    QCOMPARE(m_client->getTask(ids.front()).result().value("taskId", ""), ids.front());
}

void tst_ServerTasks::manyListenersDoNotStarvePolls()
{
    const std::string id = m_client->createTask(quickCase());
    const json p = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {id}}}}};
    std::vector<std::unique_ptr<SseReader>> readers;
    for (int i = 0; i < 64; ++i) {
        readers.push_back(std::make_unique<SseReader>());
        readers.back()->start(m_client->url(),
                              json{{"jsonrpc", "2.0"}, {"id", i}, {"method", "subscriptions/listen"}, {"params", p}}.dump(),
                              m_client->headersFor("subscriptions/listen", p));
    }
    for (const auto &r : readers)
        QVERIFY(!r->waitForEvent([](const json &e) {
                       return e.value("method", "") == "notifications/subscriptions/acknowledged";
                   }).is_null());
    // With 64 streams open, polls and other calls are still answered.
    for (int i = 0; i < 20; ++i)
        QCOMPARE(m_client->getTask(id).status, 200L);
    QCOMPARE(m_client->request("tools/list").status, 200L);
    const std::string another = m_client->createTask(quickCase());
    QVERIFY(!another.empty());
    // Every stream hears the first task complete.
    m_client->waitForTask(id, McpTestClient::isTerminal);
    for (const auto &r : readers)
        QVERIFY(!r->waitForEvent([](const json &e) {
                       return e.value("method", "") == "notifications/tasks"
                              && e["params"].value("status", "") == "completed";
                   }).is_null());
    for (auto &r : readers)
        r->requestStop();
    readers.clear();
}

void tst_ServerTasks::pollIntervalNarrowsNearEnd()
{
    // Never converges (tolerance 1e-14): the last 10% of its iterations are "near the end",
    // where pollIntervalMs drops from 500 to a quarter so clients see the result sooner.
    const std::string id = m_client->createTask({{"case_name", "ending"}, {"reynolds", 100},
                                                 {"grid", 128}, {"max_iterations", 30000},
                                                 {"tolerance", 1e-14}});
    QVERIFY(!id.empty());
    const QRegularExpression iteration(QStringLiteral("^iteration (\\d+) of 30000"));
    bool sawWide = false, sawNarrow = false;
    QDeadlineTimer deadline(180000);
    json task;
    while (!deadline.hasExpired()) {
        task = m_client->getTask(id).result();
        if (McpTestClient::isTerminal(task))
            break;
        if (!hasStatus(task, "working"))
            continue;
        const auto match = iteration.match(QString::fromStdString(task.value("statusMessage", "")));
        if (!match.hasMatch())
            continue;
        const int at = match.captured(1).toInt();
        const int interval = task.value("pollIntervalMs", 0);
        if (at < 27000 - 200) { // progress is reported every 100 iterations at this grid
            QCOMPARE(interval, 500);
            sawWide = true;
        } else if (at >= 27000) {
            QCOMPARE(interval, 125);
            sawNarrow = true;
        }
    }
    QVERIFY2(hasStatus(task, "completed"), task.dump().c_str());
    QVERIFY(sawWide);
    QVERIFY(sawNarrow);
}

QTEST_GUILESS_MAIN(tst_ServerTasks)
#include "tst_servertasks.moc"
