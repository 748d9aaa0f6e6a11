// The two long-running patterns eddy-cfd-server offers besides MCP Tasks, against the real
// binary: the job-id tools (submit_cfd_case, get_cfd_case_status, answer_cfd_case,
// cancel_cfd_case, get_cfd_result) in both eras, and --no-tasks-extension, where run_cfd_case
// answers as a streamed tools/call (progress notifications, log lines, the mesh question,
// cancellation when the client disconnects).

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QElapsedTimer>
#include <QtTest>

#include <thread>

using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;
using Eddy::Test::SseReader;
using nlohmann::json;

namespace {

// The *_httplib registration sets EDDY_SERVER_EXTRA_ARGS="--http-engine httplib".
QStringList withExtraServerArgs(QStringList args)
{
    return args + qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").split(' ', Qt::SkipEmptyParts);
}

json quickCase(const std::string &name)
{
    return {{"case_name", name},
            {"reynolds", 100},
            {"grid", 16},
            {"max_iterations", 4000},
            {"tolerance", 1e-5}};
}

// Runs for a second or more (about 40 million cell updates) and stops at its iteration limit
// (the tolerance is out of reach).
json slowCase(const std::string &name)
{
    return {{"case_name", name},
            {"reynolds", 100},
            {"grid", 64},
            {"max_iterations", 10000},
            {"tolerance", 1e-14}};
}

json endlessCase(const std::string &name)
{
    return {{"case_name", name},
            {"reynolds", 100},
            {"grid", 128},
            {"max_iterations", 10000000},
            {"tolerance", 1e-14}};
}

bool isMethod(const json &event, const char *method)
{
    return event.is_object() && event.value("method", "") == method;
}

bool isResponse(const json &event)
{
    return event.is_object() && !event.contains("method")
           && (event.contains("result") || event.contains("error"));
}

} // namespace

class tst_ServerPatterns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void jobToolsListed();
    void jobLifecycleWithMeshQuestion();
    void batchedStatus();
    void cancelJob();
    void badJobArguments();
    void legacySessionUsesJobTools();
    void streamedServerHidesTasks();
    void streamedRunReportsProgress();
    void streamedRunCancelledOnDisconnect();
    void streamedRunKeepsAliveWhileQueued();
    void streamedRunCancelledByLegacyNotification();
    void streamedMeshQuestionLegacy();
    void streamedMeshQuestionRetry();
    void streamedMeshQuestionWithoutElicitation();

private:
    // A job tool through a 2026 client that does not declare the Tasks extension.
    json job(McpTestClient &client, const std::string &tool, const json &arguments)
    {
        const HttpReply r
            = client.request("tools/call", {{"name", tool}, {"arguments", arguments}}, false);
        return r.result();
    }
    json waitForState(McpTestClient &client,
                      const std::string &id,
                      const std::function<bool(const std::string &)> &pred)
    {
        return waitForStatus(client, id, [&](const json &s) { return pred(s.value("state", "")); });
    }
    json waitForStatus(McpTestClient &client,
                       const std::string &id,
                       const std::function<bool(const json &)> &pred)
    {
        QElapsedTimer timer;
        timer.start();
        json status;
        while (timer.elapsed() < 120000) {
            status = job(client, "get_cfd_case_status", {{"job_id", id}})["structuredContent"];
            if (pred(status))
                return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return status;
    }
    std::string streamBody(const json &arguments, const json &meta, const std::string &id)
    {
        return json{
            {"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", "run_cfd_case"}, {"arguments", arguments}, {"_meta", meta}}}}
            .dump();
    }

    Eddy::Test::TestServer m_server;   // default: the Tasks extension
    Eddy::Test::TestServer m_streamed; // --no-tasks-extension
    std::unique_ptr<McpTestClient> m_client;
    std::unique_ptr<McpTestClient> m_streamClient;
};

void tst_ServerPatterns::initTestCase()
{
    QVERIFY2(m_server.start(withExtraServerArgs({"--workers", "2"})),
             qPrintable(m_server.errorString()));
    QVERIFY2(m_streamed.start(withExtraServerArgs({"--workers",
                                                   "2",
                                                   "--no-tasks-extension",
                                                   "--stream-progress-ms",
                                                   "100",
                                                   "--sse-keep-alive-ms",
                                                   "300"})),
             qPrintable(m_streamed.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
    m_streamClient = std::make_unique<McpTestClient>(m_streamed.url());
}

void tst_ServerPatterns::jobToolsListed()
{
    const json tools = m_client->request("tools/list", json::object(), false).result()["tools"];
    std::map<std::string, json> byName;
    for (const json &t : tools)
        byName[t.value("name", "")] = t;
    for (const char *name : {"run_cfd_case",
                             "submit_cfd_case",
                             "get_cfd_case_status",
                             "answer_cfd_case",
                             "cancel_cfd_case",
                             "get_cfd_result"}) {
        QVERIFY2(byName.count(name), name);
        QVERIFY(byName[name]["inputSchema"].is_object());
        QVERIFY(byName[name]["outputSchema"].is_object());
        QVERIFY(byName[name].value("description", "").size() > 40);
    }
    QCOMPARE(byName["submit_cfd_case"]["inputSchema"], byName["run_cfd_case"]["inputSchema"]);
    QVERIFY(byName["get_cfd_case_status"]["inputSchema"]["properties"].contains("job_ids"));
    QCOMPARE(byName["get_cfd_result"]["outputSchema"], byName["run_cfd_case"]["outputSchema"]);
}

void tst_ServerPatterns::jobLifecycleWithMeshQuestion()
{
    json args = quickCase("trio");
    args["force_mesh_defect"] = true;
    const json submitted = job(*m_client, "submit_cfd_case", args);
    QCOMPARE(submitted.value("resultType", ""), std::string("complete"));
    QCOMPARE(submitted.value("isError", true), false);
    const std::string id = submitted["structuredContent"].value("job_id", "");
    QVERIFY(id.size() >= 32);
    QVERIFY(submitted["content"][0].value("text", "").find(id) != std::string::npos);

    const json asking = waitForState(*m_client, id, [](const std::string &s) {
        return s == "input_required" || s == "completed" || s == "failed" || s == "cancelled";
    });
    QCOMPARE(asking.value("state", ""), std::string("input_required"));
    QCOMPARE(asking["question"].value("key", ""), std::string("mesh_repair_1"));
    QVERIFY(asking["question"].value("message", "").find("epair") != std::string::npos);
    QVERIFY(asking["question"]["requestedSchema"]["properties"].contains("smoothing_passes"));
    QCOMPARE(asking.value("message", ""),
             m_client->getTask(id).result().value("statusMessage", ""));

    // Not finished: the result tool says so as a tool error.
    const json early = job(*m_client, "get_cfd_result", {{"job_id", id}});
    QCOMPARE(early.value("isError", false), true);
    QVERIFY(early["content"][0].value("text", "").find("not finished") != std::string::npos);

    const json answered = job(*m_client,
                              "answer_cfd_case",
                              {{"job_id", id},
                               {"action", "accept"},
                               {"content", {{"action", "repair"}, {"smoothing_passes", 3}}}});
    QCOMPARE(answered.value("isError", true), false);
    const std::string after = answered["structuredContent"].value("state", "");
    QVERIFY2(after == "queued" || after == "running" || after == "completed", after.c_str());
    // A second answer finds no question.
    QCOMPARE(job(*m_client, "answer_cfd_case", {{"job_id", id}, {"action", "decline"}})
                 .value("isError", false),
             true);

    const json done = waitForState(*m_client, id, [](const std::string &s) {
        return s == "completed" || s == "failed" || s == "cancelled";
    });
    QCOMPARE(done.value("state", ""), std::string("completed"));
    QCOMPARE(done.value("progress", 0.0), 1.0);
    const json result = job(*m_client, "get_cfd_result", {{"job_id", id}});
    QCOMPARE(result.value("isError", true), false);
    QCOMPARE(result["structuredContent"].value("case_name", ""), std::string("trio"));
    QVERIFY(result["structuredContent"]["u_centreline"]["u"].size() > 5);
    // The same result the task gives.
    const json task = m_client->getTask(id).result();
    QCOMPARE(result["structuredContent"], task["result"]["structuredContent"]);
}

void tst_ServerPatterns::batchedStatus()
{
    const std::string a
        = job(*m_client, "submit_cfd_case", quickCase("batch-a"))["structuredContent"].value(
            "job_id", "");
    const std::string b
        = job(*m_client, "submit_cfd_case", endlessCase("batch-b"))["structuredContent"].value(
            "job_id", "");
    QVERIFY(!a.empty() && !b.empty());
    waitForState(*m_client, a, [](const std::string &s) { return s == "completed"; });
    // Running, past its first progress report.
    waitForStatus(*m_client, b, [](const json &s) {
        return s.value("message", "").rfind("iteration", 0) == 0;
    });
    const std::string missing(32, 'f');
    const json reply = job(*m_client, "get_cfd_case_status", {{"job_ids", {a, missing, b}}});
    QCOMPARE(reply.value("isError", true), false);
    const json jobs = reply["structuredContent"]["jobs"];
    QCOMPARE(jobs.size(), std::size_t(3));
    QCOMPARE(jobs[0].value("job_id", ""), a);
    QCOMPARE(jobs[0].value("state", ""), std::string("completed"));
    QCOMPARE(jobs[1].value("state", ""), std::string("unknown"));
    QCOMPARE(jobs[2].value("job_id", ""), b);
    QCOMPARE(jobs[2].value("state", ""), std::string("running"));
    QVERIFY(jobs[2].value("progress", -1.0) >= 0.0 && jobs[2].value("progress", 2.0) < 1.0);
    QVERIFY(jobs[2].value("message", "").rfind("iteration", 0) == 0);
    job(*m_client, "cancel_cfd_case", {{"job_id", b}});
}

void tst_ServerPatterns::cancelJob()
{
    const std::string id
        = job(*m_client, "submit_cfd_case", endlessCase("doomed"))["structuredContent"].value(
            "job_id", "");
    waitForState(*m_client, id, [](const std::string &s) { return s == "running"; });
    const json cancelled = job(*m_client, "cancel_cfd_case", {{"job_id", id}});
    QCOMPARE(cancelled.value("isError", true), false);
    QCOMPARE(cancelled["structuredContent"].value("cancelled", false), true);
    QCOMPARE(cancelled["structuredContent"].value("state", ""), std::string("cancelled"));
    const json again = job(*m_client, "cancel_cfd_case", {{"job_id", id}});
    QCOMPARE(again["structuredContent"].value("cancelled", true), false);
    QCOMPARE(job(*m_client, "get_cfd_case_status", {{"job_id", id}})["structuredContent"].value(
                 "state", ""),
             std::string("cancelled"));
    const json result = job(*m_client, "get_cfd_result", {{"job_id", id}});
    QCOMPARE(result.value("isError", false), true);
    QVERIFY(result["content"][0].value("text", "").find("cancelled") != std::string::npos);
    // The task view agrees: it is the same case.
    QCOMPARE(m_client->getTask(id).result().value("status", ""), std::string("cancelled"));
}

void tst_ServerPatterns::badJobArguments()
{
    const json none = job(*m_client, "get_cfd_case_status", json::object());
    QCOMPARE(none.value("isError", false), true);
    QVERIFY(none["content"][0].value("text", "").find("job_ids") != std::string::npos);
    const json unknown = job(*m_client, "get_cfd_result", {{"job_id", std::string(32, 'a')}});
    QCOMPARE(unknown.value("isError", false), true);
    QVERIFY(unknown["content"][0].value("text", "").find("No job") != std::string::npos);
    const json tooMany = job(
        *m_client, "get_cfd_case_status", {{"job_ids", json(std::vector<std::string>(101, "x"))}});
    QCOMPARE(tooMany.value("isError", false), true);
    const json badCase = job(*m_client, "submit_cfd_case", {{"reynolds", 100}});
    QCOMPARE(badCase.value("isError", false), true);
    QVERIFY(badCase["content"][0].value("text", "").find("grid") != std::string::npos);
    // The server log never holds a whole job id.
    const std::string id
        = job(*m_client, "submit_cfd_case", quickCase("secret"))["structuredContent"].value(
            "job_id", "");
    QVERIFY(!id.empty());
    QTRY_VERIFY(m_server.standardError().contains("submitted"));
    QVERIFY(!m_server.standardError().contains(QByteArray::fromStdString(id)));
}

void tst_ServerPatterns::legacySessionUsesJobTools()
{
    const std::string session = m_client->initialize();
    QVERIFY(!session.empty());
    const json tools = m_client->legacy(session, "tools/list").result()["tools"];
    QCOMPARE(tools.size(), std::size_t(7));
    const HttpReply submitted
        = m_client->legacy(session,
                           "tools/call",
                           {{"name", "submit_cfd_case"}, {"arguments", quickCase("legacy-job")}});
    QVERIFY(!submitted.result().contains("resultType"));
    const std::string id = submitted.result()["structuredContent"].value("job_id", "");
    QVERIFY(!id.empty());
    QElapsedTimer timer;
    timer.start();
    json status;
    while (timer.elapsed() < 120000) {
        status = m_client
                     ->legacy(session,
                              "tools/call",
                              {{"name", "get_cfd_case_status"}, {"arguments", {{"job_id", id}}}})
                     .result()["structuredContent"];
        if (status.value("state", "") == "completed")
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    QCOMPARE(status.value("state", ""), std::string("completed"));
    const json result = m_client
                            ->legacy(session,
                                     "tools/call",
                                     {{"name", "get_cfd_result"}, {"arguments", {{"job_id", id}}}})
                            .result();
    QCOMPARE(result["structuredContent"].value("case_name", ""), std::string("legacy-job"));
    // The job tools never run as tasks.
    const HttpReply asTask = m_client->legacy(
        session,
        "tools/call",
        {{"name", "submit_cfd_case"}, {"arguments", quickCase("x")}, {"task", json::object()}});
    QCOMPARE(asTask.errorCode(), -32602);
}

void tst_ServerPatterns::streamedServerHidesTasks()
{
    const json discover
        = m_streamClient->request("server/discover", json::object(), false).result();
    QVERIFY(!discover["capabilities"].contains("extensions"));
    const std::string session = m_streamClient->initialize();
    const HttpReply init
        = m_streamClient->post(json{{"jsonrpc", "2.0"},
                                    {"id", 1},
                                    {"method", "initialize"},
                                    {"params",
                                     {{"protocolVersion", "2025-11-25"},
                                      {"capabilities", json::object()},
                                      {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}}
                                   .dump(),
                               m_streamClient->legacyHeaders({}));
    QVERIFY(!init.result()["capabilities"].contains("tasks"));
    const json tools = m_streamClient->legacy(session, "tools/list").result()["tools"];
    QCOMPARE(tools[0].value("name", ""), std::string("run_cfd_case"));
    QVERIFY(!tools[0].contains("execution"));
    // The job tools stay available without the extension.
    QCOMPARE(tools.size(), std::size_t(6));
}

void tst_ServerPatterns::streamedRunReportsProgress()
{
    json meta = McpTestClient::meta(false);
    meta["progressToken"] = "run-1";
    meta["io.modelcontextprotocol/logLevel"] = "info";
    const json params
        = {{"name", "run_cfd_case"}, {"arguments", slowCase("streamed")}, {"_meta", meta}};
    SseReader reader;
    reader.start(m_streamClient->url(),
                 streamBody(slowCase("streamed"), meta, "s-1"),
                 m_streamClient->headersFor("tools/call", params));
    const json final = reader.waitForEvent(isResponse, 180000);
    QVERIFY2(!final.is_null(), reader.rawText().c_str());
    reader.stop();
    QCOMPARE(reader.contentType().substr(0, 17), std::string("text/event-stream"));
    QCOMPARE(final.value("id", ""), std::string("s-1"));
    QCOMPARE(final["result"].value("resultType", ""), std::string("complete"));
    QCOMPARE(final["result"].value("isError", true), false);
    QCOMPARE(final["result"]["structuredContent"].value("iterations", 0), 10000);

    std::vector<json> progress;
    int logs = 0;
    for (const json &e : reader.events()) {
        if (isMethod(e, "notifications/progress"))
            progress.push_back(e["params"]);
        if (isMethod(e, "notifications/message"))
            ++logs;
    }
    qInfo("%zu progress notifications", progress.size());
    QVERIFY2(progress.size() >= 2, reader.rawText().c_str());
    for (std::size_t i = 0; i < progress.size(); ++i) {
        QCOMPARE(progress[i].value("progressToken", ""), std::string("run-1"));
        QCOMPARE(progress[i].value("total", 0), 10000);
        QVERIFY(progress[i]
                    .value("message", "")
                    .rfind("iteration " + std::to_string(progress[i].value("progress", -1))
                               + " of 10000",
                           0)
                == 0);
        if (i > 0)
            QVERIFY(progress[i].value("progress", 0) > progress[i - 1].value("progress", 0));
    }
    QVERIFY(logs >= 2); // running, completed
    // The final response is the last event.
    QVERIFY(isResponse(reader.events().back()));
}

void tst_ServerPatterns::streamedRunCancelledOnDisconnect()
{
    json args = endlessCase("dropped");
    args["idempotency_key"] = "stream-drop-1";
    json meta = McpTestClient::meta(false);
    meta["progressToken"] = 7;
    const json params = {{"name", "run_cfd_case"}, {"arguments", args}, {"_meta", meta}};
    {
        SseReader reader;
        reader.start(m_streamClient->url(),
                     streamBody(args, meta, "drop"),
                     m_streamClient->headersFor("tools/call", params));
        QVERIFY(
            !reader
                 .waitForEvent([](const json &e) { return isMethod(e, "notifications/progress"); },
                               120000)
                 .is_null());
        reader.stop(); // the client goes away mid-run
    }
    // The same idempotency key finds the case through the job tools: it was cancelled.
    const std::string id
        = job(*m_streamClient, "submit_cfd_case", args)["structuredContent"].value("job_id", "");
    QVERIFY(!id.empty());
    const json status = waitForState(*m_streamClient, id, [](const std::string &s) {
        return s == "cancelled" || s == "completed" || s == "failed";
    });
    QCOMPARE(status.value("state", ""), std::string("cancelled"));
    QTRY_VERIFY(
        m_streamed.standardError().contains("client of its streamed tools/call disconnected"));
}

void tst_ServerPatterns::streamedRunKeepsAliveWhileQueued()
{
    // Both solver threads busy: the streamed case waits in the queue, and its stream stays
    // alive with comments (--sse-keep-alive-ms 300) until a thread frees up.
    std::vector<std::string> blockers;
    for (const char *name : {"blocker-1", "blocker-2"})
        blockers.push_back(
            job(*m_streamClient, "submit_cfd_case", endlessCase(name))["structuredContent"].value(
                "job_id", ""));
    for (const std::string &id : blockers)
        QCOMPARE(
            waitForState(*m_streamClient, id, [](const std::string &s) { return s == "running"; })
                .value("state", ""),
            std::string("running"));
    json meta = McpTestClient::meta(false);
    meta["progressToken"] = "q";
    meta["io.modelcontextprotocol/logLevel"] = "debug";
    const json params
        = {{"name", "run_cfd_case"}, {"arguments", quickCase("waiting")}, {"_meta", meta}};
    SseReader reader;
    reader.start(m_streamClient->url(),
                 streamBody(quickCase("waiting"), meta, "q-1"),
                 m_streamClient->headersFor("tools/call", params));
    QTRY_VERIFY_WITH_TIMEOUT(reader.rawText().find(": keep-alive") != std::string::npos, 30000);
    const json queuedLine = reader.waitForEvent(
        [](const json &e) { return isMethod(e, "notifications/message"); }, 30000);
    QVERIFY(queuedLine["params"].value("data", "").find("queued") != std::string::npos);
    QVERIFY(reader.waitForEvent(isResponse, 500).is_null());
    for (const std::string &id : blockers)
        job(*m_streamClient, "cancel_cfd_case", {{"job_id", id}});
    const json final = reader.waitForEvent(isResponse, 120000);
    reader.stop();
    QCOMPARE(final["result"].value("isError", true), false);
}

void tst_ServerPatterns::streamedRunCancelledByLegacyNotification()
{
    const std::string session = m_streamClient->initialize();
    json args = endlessCase("legacy-cancel");
    args["idempotency_key"] = "legacy-cancel-1";
    const json message
        = {{"jsonrpc", "2.0"},
           {"id", 77},
           {"method", "tools/call"},
           {"params",
            {{"name", "run_cfd_case"}, {"arguments", args}, {"_meta", {{"progressToken", 1}}}}}};
    SseReader reader;
    reader.start(m_streamClient->url(), message.dump(), m_streamClient->legacyHeaders(session));
    QVERIFY(!reader
                 .waitForEvent([](const json &e) { return isMethod(e, "notifications/progress"); },
                               120000)
                 .is_null());
    const HttpReply posted = m_streamClient->legacyRaw(
        session,
        {{"jsonrpc", "2.0"},
         {"method", "notifications/cancelled"},
         {"params", {{"requestId", 77}, {"reason", "user pressed stop"}}}});
    QCOMPARE(posted.status, 202L);
    QTRY_VERIFY_WITH_TIMEOUT(reader.finished(), 30000);
    // No response follows a cancelled request.
    QVERIFY(reader.waitForEvent(isResponse, 10).is_null());
    const std::string id
        = job(*m_streamClient, "submit_cfd_case", args)["structuredContent"].value("job_id", "");
    QCOMPARE(
        job(*m_streamClient, "get_cfd_case_status", {{"job_id", id}})["structuredContent"].value(
            "state", ""),
        std::string("cancelled"));
}

void tst_ServerPatterns::streamedMeshQuestionLegacy()
{
    const std::string session = m_streamClient->initialize();
    QVERIFY(!session.empty());
    json args = quickCase("legacy-stream");
    args["force_mesh_defect"] = true;
    const json message
        = {{"jsonrpc", "2.0"},
           {"id", 41},
           {"method", "tools/call"},
           {"params",
            {{"name", "run_cfd_case"}, {"arguments", args}, {"_meta", {{"progressToken", "p"}}}}}};
    SseReader reader;
    reader.start(m_streamClient->url(), message.dump(), m_streamClient->legacyHeaders(session));
    const json question = reader.waitForEvent(
        [](const json &e) { return isMethod(e, "elicitation/create"); }, 120000);
    QVERIFY2(!question.is_null(), reader.rawText().c_str());
    QVERIFY(question.contains("id"));
    QCOMPARE(question["params"].value("mode", ""), std::string("form"));
    const HttpReply posted = m_streamClient->legacyRaw(
        session,
        {{"jsonrpc", "2.0"},
         {"id", question["id"]},
         {"result",
          {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 3}}}}}});
    QCOMPARE(posted.status, 202L);
    const json final = reader.waitForEvent(isResponse, 120000);
    reader.stop();
    QCOMPARE(final.value("id", 0), 41);
    QVERIFY(!final["result"].contains("resultType"));
    QCOMPARE(final["result"].value("isError", true), false);
    QCOMPARE(final["result"]["structuredContent"].value("case_name", ""),
             std::string("legacy-stream"));
}

void tst_ServerPatterns::streamedMeshQuestionRetry()
{
    json args = quickCase("retry-stream");
    args["force_mesh_defect"] = true;
    json meta = McpTestClient::meta(false); // declares elicitation (form)
    json params = {{"name", "run_cfd_case"}, {"arguments", args}, {"_meta", meta}};
    const HttpReply first = m_streamClient->post(
        json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", params}}.dump(),
        m_streamClient->headersFor("tools/call", params));
    // The SSE body ends with the input_required result.
    const std::string marker = "\"resultType\":\"input_required\"";
    QVERIFY2(first.body.find(marker) != std::string::npos, first.body.c_str());
    const std::string tail = first.body.substr(first.body.rfind("data: ") + 6);
    const json asked = json::parse(tail.substr(0, tail.find('\n')));
    const json result = asked["result"];
    QVERIFY(result["inputRequests"].contains("mesh_repair_1"));
    QVERIFY(result["requestState"].is_string());

    params["inputResponses"]
        = {{"mesh_repair_1", {{"action", "accept"}, {"content", {{"action", "repair"}}}}}};
    params["requestState"] = result["requestState"];
    const HttpReply second = m_streamClient->post(
        json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", params}}.dump(),
        m_streamClient->headersFor("tools/call", params));
    const std::string last = second.body.substr(second.body.rfind("data: ") + 6);
    const json done = json::parse(last.substr(0, last.find('\n')));
    QCOMPARE(done["result"].value("resultType", ""), std::string("complete"));
    QCOMPARE(done["result"].value("isError", true), false);
    QCOMPARE(done["result"]["structuredContent"].value("case_name", ""),
             std::string("retry-stream"));
}

void tst_ServerPatterns::streamedMeshQuestionWithoutElicitation()
{
    json args = quickCase("mute");
    args["force_mesh_defect"] = true;
    json meta = McpTestClient::meta(false);
    meta["io.modelcontextprotocol/clientCapabilities"] = json::object();
    const json params = {{"name", "run_cfd_case"}, {"arguments", args}, {"_meta", meta}};
    const HttpReply r = m_streamClient->post(
        json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", params}}.dump(),
        m_streamClient->headersFor("tools/call", params));
    const std::string last = r.body.substr(r.body.rfind("data: ") + 6);
    const json done = json::parse(last.substr(0, last.find('\n')));
    QCOMPARE(done["result"].value("isError", false), true);
    QVERIFY(done["result"]["content"][0].value("text", "").find("elicitation")
            != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_ServerPatterns)
#include "tst_serverpatterns.moc"
