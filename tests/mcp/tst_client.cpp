#include "app/mcp/client.h"
#include "app/mcp/tracecontext.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"
#include "tests/common/jobwait.h"
#include "tests/common/testserver.h"

#include <QEventLoop>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>

using namespace Eddy;
using Mcp::TaskState;
using Mcp::TaskStatus;
using nlohmann::json;

namespace {

using Test::finish;

Mcp::ServerConfig config(const QString &url, const QString &token = {})
{
    Mcp::ServerConfig c;
    c.url = QUrl(url);
    c.token = token;
    return c;
}

QString describe(const Mcp::Error &e)
{
    return QStringLiteral("kind %1 code %2 http %3: %4")
        .arg(int(e.kind())).arg(e.code()).arg(e.httpStatus()).arg(e.message());
}

json caseArgs(int grid, int iterations, bool defect)
{
    return {{"case_name", "tst_client"}, {"reynolds", 100}, {"grid", grid},
            {"max_iterations", iterations}, {"tolerance", 1e-12}, {"force_mesh_defect", defect}};
}

} // namespace

// The client against the real eddy-cfd-server (started per test on 127.0.0.1:0): discovery,
// tools, a task through input_required -> tasks/update -> completed, cancel, listen, auth,
// the 2025-11-25 compatibility mode and unknown tasks.
class tst_Client : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(Net::initGlobal()); }
    void init() { Mcp::Client::clearEraCache(); }
    void discoverAndTools();
    void taskThroughInputRequired();
    void abortAtMeshCheckIsToolErrorNotFailure();
    void invalidArgumentsAreToolError();
    void cancel();
    void listen();
    void auth();
    void legacyMode();
    void legacySessionDeletedOnClose();
    void unknownTask();
    void jobsDeleteThemselvesAfterFinished();
    void abortedPollIsNeverAnswered();

private:
    // Polls tasks/get (honouring pollIntervalMs, clamped for test speed) until `done` holds.
    static TaskState pollUntil(Mcp::Client &client, const std::string &taskId,
                               const std::function<bool(const TaskState &)> &done,
                               Mcp::Error *lastError = nullptr, int timeoutMs = 120000)
    {
        QElapsedTimer timer;
        timer.start();
        TaskState state;
        const QByteArray trace = Mcp::TraceContext::create().newTraceparent();
        while (timer.elapsed() < timeoutMs) {
            auto job = finish(client.getTask(taskId, trace));
            if (job->hasError()) {
                if (lastError)
                    *lastError = job->error();
                if (!job->error().isTransient())
                    return {};
            } else {
                state = job->state();
                if (done(state))
                    return state;
            }
            // Pacing: polls at the interval the server asks for, as a client must.
            QTest::qWait(int(std::clamp<qint64>(state.pollIntervalMs.value_or(200), 20, 300)));
        }
        return {};
    }
};

void tst_Client::discoverAndTools()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    QSignalSpy eraSpy(&client, &Mcp::Client::eraDetected);
    QVERIFY(client.era() == Mcp::Era::Unknown);

    auto discover = finish(client.discover());
    QVERIFY2(!discover->hasError(), qPrintable(describe(discover->error())));
    QVERIFY(discover->era() == Mcp::Era::Modern);
    QVERIFY(client.era() == Mcp::Era::Modern);
    QCOMPARE(eraSpy.size(), 1);
    QVERIFY(discover->offersTasks());
    QVERIFY(discover->info().supportedVersions.contains(QStringLiteral("2026-07-28")));
    QVERIFY(!discover->info().serverName.isEmpty());

    // Cached for its ttlMs: no second request.
    const qint64 sent = client.requestsSent();
    auto again = finish(client.discover());
    QVERIFY(!again->hasError());
    QCOMPARE(client.requestsSent(), sent);
    QCOMPARE(again->info().serverName, discover->info().serverName);
    auto forced = finish(client.discover(true));
    QVERIFY(!forced->hasError());
    QCOMPARE(client.requestsSent(), sent + 1);

    auto tools = finish(client.listTools());
    QVERIFY2(!tools->hasError(), qPrintable(describe(tools->error())));
    QVERIFY(!tools->tools().empty());
    const auto it = std::find_if(tools->tools().begin(), tools->tools().end(),
                                 [](const Mcp::Tool &t) { return t.name == QLatin1String("run_cfd_case"); });
    QVERIFY(it != tools->tools().end());
    QVERIFY(it->inputSchema["properties"].contains("grid"));
    QVERIFY(it->outputSchema.is_object());
    QCOMPARE(client.tools().size(), tools->tools().size());
    QVERIFY(tools->rejected().isEmpty());
}

void tst_Client::taskThroughInputRequired()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--poll-interval-ms", "100"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);

    const Mcp::TraceContext trace = Mcp::TraceContext::create();
    Mcp::CallOptions options;
    options.traceparent = trace.newTraceparent();
    // No discover first: era detection happens on the first call.
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(16, 300, true), options));
    QVERIFY2(!call->hasError(), qPrintable(describe(call->error())));
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Task);
    const std::string id = call->task().taskId;
    QVERIFY(id.size() >= 16);
    QVERIFY(client.era() == Mcp::Era::Modern);

    Mcp::Error error;
    TaskState waiting = pollUntil(client, id, [](const TaskState &s) {
        return s.status == TaskStatus::InputRequired || s.isTerminal();
    }, &error);
    QVERIFY2(waiting.isValid(), qPrintable(describe(error)));
    QVERIFY(waiting.status == TaskStatus::InputRequired);
    QVERIFY(waiting.inputRequests.is_object());
    QCOMPARE(waiting.inputRequests.size(), size_t(1));
    const std::string key = waiting.inputRequests.begin().key();
    const json &request = waiting.inputRequests.begin().value();
    QVERIFY(request["method"] == "elicitation/create");
    QVERIFY(request["params"]["requestedSchema"]["properties"].contains("action"));

    const json answer = {{key, {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 3}}}}}};
    auto ack = finish(client.updateTask(id, answer, trace.newTraceparent()));
    QVERIFY2(!ack->hasError(), qPrintable(describe(ack->error())));

    TaskState done = pollUntil(client, id, [](const TaskState &s) { return s.isTerminal(); }, &error);
    QVERIFY2(done.isValid(), qPrintable(describe(error)));
    QVERIFY2(done.status == TaskStatus::Completed, qPrintable(Mcp::toString(done.status)));
    QVERIFY(!done.isToolError());
    QVERIFY(done.hasPayload());
    QVERIFY(done.result["content"].is_array() && !done.result["content"].empty());
    QVERIFY(done.result["structuredContent"].is_object());
}

void tst_Client::abortAtMeshCheckIsToolErrorNotFailure()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--poll-interval-ms", "100"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(16, 300, true)));
    QVERIFY2(call->kind() == Mcp::CallJob::Kind::Task, qPrintable(describe(call->error())));
    const std::string id = call->task().taskId;
    TaskState waiting = pollUntil(client, id, [](const TaskState &s) {
        return s.status == TaskStatus::InputRequired || s.isTerminal();
    });
    QVERIFY(waiting.status == TaskStatus::InputRequired);
    const std::string key = waiting.inputRequests.begin().key();
    auto ack = finish(client.updateTask(id, {{key, {{"action", "accept"}, {"content", {{"action", "abort"}}}}}}));
    QVERIFY2(!ack->hasError(), qPrintable(describe(ack->error())));
    TaskState done = pollUntil(client, id, [](const TaskState &s) { return s.isTerminal(); });
    QVERIFY(done.status == TaskStatus::Completed);
    QVERIFY(done.isToolError());
    QVERIFY(done.error.is_null());
}

void tst_Client::invalidArgumentsAreToolError()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), {{"reynolds", 100}, {"grid", 3}}));
    QVERIFY2(!call->hasError(), qPrintable(describe(call->error())));
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Complete);
    QVERIFY(call->isToolError());

    auto unknown = finish(client.callTool(QStringLiteral("no_such_tool"), json::object()));
    QVERIFY(unknown->hasError());
    QVERIFY(unknown->kind() == Mcp::CallJob::Kind::Error);
    QVERIFY(unknown->error().kind() == Mcp::Error::Kind::JsonRpc);
}

void tst_Client::cancel()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--poll-interval-ms", "100"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(64, 10000000, false)));
    QVERIFY2(call->kind() == Mcp::CallJob::Kind::Task, qPrintable(describe(call->error())));
    const std::string id = call->task().taskId;
    auto ack = finish(client.cancelTask(id));
    QVERIFY2(!ack->hasError(), qPrintable(describe(ack->error())));
    TaskState done = pollUntil(client, id, [](const TaskState &s) { return s.isTerminal(); });
    QVERIFY2(done.status == TaskStatus::Cancelled, qPrintable(Mcp::toString(done.status)));
    // Cancelling again is harmless (an ack, or -32602 from a server that treats it as an error).
    auto twice = finish(client.cancelTask(id));
    QVERIFY(!twice->hasError() || twice->error().code() == Mcp::ErrorCode::InvalidParams);
}

void tst_Client::listen()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--poll-interval-ms", "100"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(16, 300, true)));
    QVERIFY2(call->kind() == Mcp::CallJob::Kind::Task, qPrintable(describe(call->error())));
    const std::string id = call->task().taskId;

    std::unique_ptr<Mcp::Listen> listen(client.listen({id}));
    QSignalSpy acked(listen.get(), &Mcp::Listen::acknowledged);
    QSignalSpy closed(listen.get(), &Mcp::Listen::closed);
    std::vector<TaskState> pushes;
    connect(listen.get(), &Mcp::Listen::taskNotification, this,
            [&pushes](const Mcp::TaskState &s) { pushes.push_back(s); });
    // What arrived, for the failure message of a wait that times out.
    const auto seen = [&pushes] {
        QStringList out;
        for (const TaskState &s : pushes)
            out << toString(s.status) + QLatin1Char(' ') + s.statusMessage.value_or(QString());
        return out.join(QStringLiteral(" | ")).toUtf8();
    };
    QTRY_COMPARE_WITH_TIMEOUT(acked.size(), 1, 60000);
    QCOMPARE(listen->acceptedIds(), std::vector<std::string>{id});

    // Wait for the mesh question by push, answer it, and see completion pushed.
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(pushes.begin(), pushes.end(), [](const TaskState &s) {
                                 return s.status == TaskStatus::InputRequired;
                             }), 60000);
    const auto asking = std::find_if(pushes.begin(), pushes.end(), [](const TaskState &s) {
        return s.status == TaskStatus::InputRequired;
    });
    QVERIFY(asking->inputRequests.is_object() && !asking->inputRequests.empty());
    const std::string key = asking->inputRequests.begin().key();
    auto ack = finish(client.updateTask(id, {{key, {{"action", "accept"}, {"content", {{"action", "repair"}}}}}}));
    QVERIFY2(!ack->hasError(), qPrintable(describe(ack->error())));
    QTRY_VERIFY2_WITH_TIMEOUT((!pushes.empty() && pushes.back().isTerminal()) || !closed.isEmpty(),
                              seen().constData(), 90000);
    if (!closed.isEmpty())
        QFAIL(qPrintable(closed.first().first().value<Mcp::Error>().message()));
    QVERIFY(pushes.back().status == TaskStatus::Completed);
    QVERIFY(pushes.back().hasPayload());
    QVERIFY(pushes.back().taskId == id);

    if (listen->isOpen()) {
        listen->close();
        QCOMPARE(closed.size(), 1);
    }
    QTest::qWait(50); // negative check: no second closed() comes late
    QCOMPARE(closed.size(), 1); // exactly once
}

void tst_Client::auth()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--token", "s3cret-token-value"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client anonymous(config(server.url()), &http);
    auto refused = finish(anonymous.listTools());
    QVERIFY(refused->hasError());
    QVERIFY2(refused->error().httpStatus() == 401 || refused->error().httpStatus() == 403,
             qPrintable(describe(refused->error())));
    QVERIFY(refused->error().message().contains(QLatin1String("token")));
    QVERIFY(!refused->error().isTransient());

    Mcp::Client::clearEraCache();
    Mcp::Client client(config(server.url(), QStringLiteral("s3cret-token-value")), &http);
    auto tools = finish(client.listTools());
    QVERIFY2(!tools->hasError(), qPrintable(describe(tools->error())));
    QVERIFY(!tools->tools().empty());

    Mcp::Client::clearEraCache();
    Mcp::Client other(config(server.url(), QStringLiteral("not-the-token")), &http);
    auto denied = finish(other.listTools());
    QVERIFY(denied->hasError());
}

void tst_Client::legacyMode()
{
    Test::TestServer server;
    QVERIFY2(server.start({"--poll-interval-ms", "100"}), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    client.setEra(Mcp::Era::Legacy); // as the store would after a previous detection

    auto discover = finish(client.discover());
    QVERIFY2(!discover->hasError(), qPrintable(describe(discover->error())));
    QVERIFY(discover->era() == Mcp::Era::Legacy);
    QCOMPARE(discover->info().protocolVersion, QStringLiteral("2025-11-25"));
    QVERIFY(discover->offersTasks());

    auto tools = finish(client.listTools());
    QVERIFY2(!tools->hasError(), qPrintable(describe(tools->error())));
    QVERIFY(!tools->tools().empty());
    QVERIFY(tools->tools().front().taskSupport() != QLatin1String("forbidden"));

    auto toolError = finish(client.callTool(QStringLiteral("run_cfd_case"), {{"reynolds", 100}, {"grid", 3}}));
    QVERIFY2(!toolError->hasError(), qPrintable(describe(toolError->error())));
    QVERIFY(toolError->isToolError());

    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(16, 300, true)));
    QVERIFY2(!call->hasError(), qPrintable(describe(call->error())));
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Task);
    const std::string id = call->task().taskId;

    Mcp::Error error;
    TaskState waiting = pollUntil(client, id, [](const TaskState &s) {
        return (s.status == TaskStatus::InputRequired && s.inputRequests.is_object()
                && !s.inputRequests.empty())
               || s.isTerminal();
    }, &error);
    QVERIFY2(waiting.isValid(), qPrintable(describe(error)));
    QVERIFY(waiting.status == TaskStatus::InputRequired);
    const std::string key = waiting.inputRequests.begin().key();
    QVERIFY(waiting.inputRequests.begin().value()["method"] == "elicitation/create");
    // The same question on the next poll keeps its key (stable across polls).
    auto again = finish(client.getTask(id));
    QVERIFY(!again->hasError());
    QVERIFY(again->state().inputRequests.contains(key));

    auto ack = finish(client.updateTask(id, {{key, {{"action", "accept"}, {"content", {{"action", "repair"}}}}}}));
    QVERIFY2(!ack->hasError(), qPrintable(describe(ack->error())));
    auto unknownKey = finish(client.updateTask(id, {{"srv:nope", {{"action", "cancel"}}}}));
    QVERIFY(unknownKey->hasError());

    TaskState done = pollUntil(client, id, [](const TaskState &s) { return s.isTerminal() && s.hasPayload(); }, &error);
    QVERIFY2(done.isValid(), qPrintable(describe(error)));
    QVERIFY(done.status == TaskStatus::Completed);
    QVERIFY(!done.isToolError());
    QVERIFY(done.result["content"].is_array());

    // Legacy has no subscriptions/listen: a clear error instead of a hang.
    std::unique_ptr<Mcp::Listen> listen(client.listen({id}));
    QSignalSpy closed(listen.get(), &Mcp::Listen::closed);
    QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, 30000);
    QVERIFY(!closed.first().first().value<Mcp::Error>().isOk());
}

void tst_Client::legacySessionDeletedOnClose()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    // What the server says to a plain legacy request on a given session.
    const auto statusWithSession = [&](const QByteArray &session) {
        Net::HttpRequest request;
        request.url = QUrl(server.url());
        request.headers = {{"Accept", "application/json, text/event-stream"},
                           {"MCP-Protocol-Version", "2025-11-25"},
                           {"Mcp-Session-Id", session}};
        request.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})";
        std::unique_ptr<Net::HttpReply> reply(http.post(request));
        QSignalSpy done(reply.get(), &Net::HttpReply::finished);
        if (!reply->isFinished() && !done.wait(60000))
            return -1;
        return reply->statusCode();
    };

    QByteArray session;
    {
        Mcp::Client client(config(server.url()), &http);
        client.setEra(Mcp::Era::Legacy);
        auto discover = finish(client.discover());
        QVERIFY2(!discover->hasError(), qPrintable(describe(discover->error())));
        session = client.legacySessionId();
        QVERIFY(!session.isEmpty());
        QCOMPARE(statusWithSession(session), 200);
    }
    // The client's DELETE is on its way; the server forgets the session once it lands.
    QTRY_COMPARE_WITH_TIMEOUT(statusWithSession(session), 404, 60000);

    // An owner may delete the HTTP client first (QObject children go in creation order): the
    // legacy client then cannot say goodbye, and must not touch the dead HTTP client.
    auto ownHttp = std::make_unique<Net::HttpClient>();
    auto orphan = std::make_unique<Mcp::Client>(config(server.url()), ownHttp.get());
    orphan->setEra(Mcp::Era::Legacy);
    auto again = finish(orphan->discover());
    QVERIFY2(!again->hasError(), qPrintable(describe(again->error())));
    const QByteArray kept = orphan->legacySessionId();
    QVERIFY(!kept.isEmpty());
    again.reset();
    ownHttp.reset();
    orphan.reset();
    QCOMPARE(statusWithSession(kept), 200); // no DELETE was sent, and nothing crashed
}

void tst_Client::unknownTask()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto get = finish(client.getTask("00000000000000000000000000000000deadbeef"));
    QVERIFY(get->hasError());
    QVERIFY2(get->error().isTaskGone(), qPrintable(describe(get->error())));
    QVERIFY(get->error().message().contains(QLatin1String("expired")));
    auto update = finish(client.updateTask("00000000000000000000000000000000deadbeef",
                                           {{"k", {{"action", "cancel"}}}}));
    QVERIFY(update->hasError());
}

// An auto-deleting job is gone as soon as its finished() slots returned, without waiting for the
// event loop to run a deleteLater; a slot may also delete it itself.
void tst_Client::jobsDeleteThemselvesAfterFinished()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto discover = finish(client.discover());
    QVERIFY2(!discover->hasError(), qPrintable(describe(discover->error())));
    const std::string unknown = "00000000000000000000000000000000deadbeef";

    QEventLoop loop;
    Mcp::TaskJob *job = client.getTask(unknown);
    QPointer<Mcp::TaskJob> alive(job);
    bool finishedInSlot = false;
    connect(job, &Mcp::Job::finished, &loop, [&] {
        finishedInSlot = alive && alive->isFinished() && alive->hasError();
        loop.quit();
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec(); // returns without running deferred deletes
    QVERIFY(finishedInSlot);
    QVERIFY(alive.isNull());

    Mcp::TaskJob *second = client.getTask(unknown);
    QPointer<Mcp::TaskJob> secondAlive(second);
    int finishedCount = 0;
    connect(second, &Mcp::Job::finished, &client, [&, second] {
        ++finishedCount;
        delete second;
    });
    QTRY_VERIFY_WITH_TIMEOUT(secondAlive.isNull(), 60000);
    QCOMPARE(finishedCount, 1);
}

// Job::abort() ends the poll's exchange (the job holds it weakly): finished() once with
// Aborted at once, and the server's answer, when it comes, never fills the aborted job's state;
// the client goes on polling the same task.
void tst_Client::abortedPollIsNeverAnswered()
{
    Test::TestServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Net::HttpClient http;
    Mcp::Client client(config(server.url()), &http);
    auto call = finish(client.callTool(QStringLiteral("run_cfd_case"), caseArgs(16, 300, true)));
    QVERIFY2(!call->hasError(), qPrintable(describe(call->error())));
    QVERIFY(call->kind() == Mcp::CallJob::Kind::Task);
    const std::string id = call->task().taskId;

    Mcp::TaskJob *aborted = client.getTask(id);
    aborted->setAutoDelete(false);
    std::unique_ptr<Mcp::TaskJob> owned(aborted);
    QSignalSpy abortedSpy(aborted, &Mcp::Job::finished);
    aborted->abort();
    QCOMPARE(abortedSpy.size(), 1);
    QVERIFY(aborted->error().kind() == Mcp::Error::Kind::Aborted);

    // Polls after it, each answered in full; the aborted one's answer would have come first on
    // its connection.
    for (int i = 0; i < 3; ++i) {
        auto next = finish(client.getTask(id));
        QVERIFY2(!next->hasError(), qPrintable(describe(next->error())));
        QCOMPARE(next->state().taskId, id);
    }
    QCOMPARE(abortedSpy.size(), 1);
    QVERIFY(aborted->error().kind() == Mcp::Error::Kind::Aborted);
    QVERIFY(!aborted->state().isValid());
}

QTEST_GUILESS_MAIN(tst_Client)
#include "tst_client.moc"
