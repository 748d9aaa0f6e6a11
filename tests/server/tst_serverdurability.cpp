// Durability of eddy-cfd-server: after SIGKILL and a restart on the same --data-dir every task
// still answers, a running case resumes from its checkpoint and finishes, queued and waiting
// cases keep their state; SIGTERM checkpoints and exits 0; a finished case keeps no checkpoint
// (found by bench/soak: 2 MB per finished grid-256 case, kept until the task expired); the WAL
// file gives its space back after a long reader lets go (found by bench/soak: 0.8 -> 7.0 MB, kept
// for the rest of the server's lifetime).

#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QtTest>

#include <sqlite3.h>

using nlohmann::json;
using Eddy::Test::McpTestClient;

namespace {

constexpr int kIterations = 300000;

json longCase(const std::string &name)
{
    return {{"case_name", name}, {"reynolds", 100}, {"grid", 48},
            {"max_iterations", kIterations}, {"tolerance", 1e-14}};
}

int iterationOf(const json &task)
{
    static const QRegularExpression re("^iteration (\\d+) of");
    const auto m = re.match(QString::fromStdString(task.value("statusMessage", "")));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// The last "resumes from its checkpoint at iteration N" in the log, or -1.
int resumedAt(const QByteArray &log)
{
    static const QRegularExpression re("resumes from its checkpoint at iteration (\\d+)");
    int last = -1;
    auto it = re.globalMatch(QString::fromUtf8(log));
    while (it.hasNext())
        last = it.next().captured(1).toInt();
    return last;
}

} // namespace

class tst_ServerDurability : public QObject
{
    Q_OBJECT

private slots:
    void killAndRestart();
    void terminateCheckpoints();
    void finishedCaseDropsItsCheckpoint();
    void walShrinksAfterALongReader();
};

void tst_ServerDurability::killAndRestart()
{
    Eddy::Test::TestServer server;
    const QStringList flags = {"--workers", "1", "--checkpoint-interval-ms", "200", "--log-level", "debug"};
    QVERIFY2(server.start(flags), qPrintable(server.errorString()));
    McpTestClient client(server.url());

    const std::string done = client.createTask({{"reynolds", 100}, {"grid", 16}, {"max_iterations", 50}});
    QCOMPARE(client.waitForTask(done, McpTestClient::isTerminal).value("status", ""), std::string("completed"));
    json meshArgs = {{"reynolds", 100}, {"grid", 16}, {"max_iterations", 50}, {"force_mesh_defect", true}};
    const std::string asking = client.createTask(meshArgs);
    QCOMPARE(client.waitForTask(asking, [](const json &t) { return t.value("status", "") == "input_required"; })
                 .value("status", ""), std::string("input_required"));

    const std::string running = client.createTask(longCase("survivor"));
    const std::string queued = client.createTask({{"case_name", "patient"}, {"reynolds", 100}, {"grid", 16}, {"max_iterations", 500}});
    QVERIFY(!running.empty() && !queued.empty());
    // Wait for real progress and at least one checkpoint after it.
    const json progressed = client.waitForTask(running, [](const json &t) { return iterationOf(t) >= 500; });
    QVERIFY2(iterationOf(progressed) >= 500, progressed.dump().c_str());
    QTRY_VERIFY_WITH_TIMEOUT(server.standardError().contains("checkpoint at iteration"), 60000);
    const json before = client.getTask(running).result();
    QVERIFY2(iterationOf(before) < kIterations, "the case finished before the kill; make it longer");
    QCOMPARE(client.getTask(queued).result().value("statusMessage", ""), std::string("queued, position 1"));

    server.kill();
    QVERIFY(!server.isRunning());
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    McpTestClient after(server.url());

    // Every task still answers.
    QCOMPARE(after.getTask(done).result().value("status", ""), std::string("completed"));
    QVERIFY(after.getTask(done).result()["result"].contains("structuredContent"));
    const json stillAsking = after.getTask(asking).result();
    QCOMPARE(stillAsking.value("status", ""), std::string("input_required"));
    QVERIFY(stillAsking["inputRequests"].contains("mesh_repair_1"));
    const std::string runningStatus = after.getTask(running).result().value("status", "");
    QCOMPARE(runningStatus, std::string("working"));

    // The running case resumed from a checkpoint (not from zero) and finishes all iterations.
    QTRY_VERIFY_WITH_TIMEOUT(resumedAt(server.standardError()) > 0, 30000);
    const json finished = after.waitForTask(running, McpTestClient::isTerminal, 100000);
    QCOMPARE(finished.value("status", ""), std::string("completed"));
    QCOMPARE(finished["result"]["structuredContent"]["iterations"].get<int>(), kIterations);
    // The queued case ran afterwards.
    QCOMPARE(after.waitForTask(queued, McpTestClient::isTerminal).value("status", ""), std::string("completed"));
    // The waiting case can still be answered after the crash.
    after.request("tasks/update", {{"taskId", asking}, {"inputResponses", {{"mesh_repair_1",
        {{"action", "accept"}, {"content", {{"action", "repair"}}}}}}}});
    const json repaired = after.waitForTask(asking, McpTestClient::isTerminal);
    QCOMPARE(repaired.value("status", ""), std::string("completed"));
    QCOMPARE(repaired["result"].value("isError", true), false);
}

void tst_ServerDurability::terminateCheckpoints()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "1", "--checkpoint-interval-ms", "60000"}), qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const std::string id = client.createTask(longCase("graceful"));
    client.waitForTask(id, [](const json &t) { return iterationOf(t) >= 500; });
    const json p = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {id}}}}};
    Eddy::Test::SseReader listen;
    listen.start(client.url(), json{{"jsonrpc", "2.0"}, {"id", "bye"}, {"method", "subscriptions/listen"}, {"params", p}}.dump(),
                 client.headersFor("subscriptions/listen", p));
    QVERIFY(!listen.waitForEvent([](const json &e) { return e.value("method", "") == "notifications/subscriptions/acknowledged"; }).is_null());
    // SIGTERM: exit code 0 after a checkpoint, although the periodic one would be a minute away.
    QVERIFY(server.terminate());
    QVERIFY(server.standardError().contains("checkpointed for shutdown"));
    // The listen stream was closed gracefully, with the response to the listen request.
    const json closing = listen.waitForEvent([](const json &e) { return e.value("id", json()) == "bye"; }, 10000);
    QVERIFY2(!closing.is_null(), listen.rawText().c_str());
    QCOMPARE(closing["result"].value("resultType", ""), std::string("complete"));
    listen.stop();
    QVERIFY(server.restart());
    QTRY_VERIFY_WITH_TIMEOUT(resumedAt(server.standardError()) >= 500, 30000);
    McpTestClient after(server.url());
    QCOMPARE(after.request("tasks/cancel", {{"taskId", id}}).result().value("resultType", ""), std::string("complete"));
    QCOMPARE(after.waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("cancelled"));
}

void tst_ServerDurability::finishedCaseDropsItsCheckpoint()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "1", "--checkpoint-interval-ms", "50", "--log-level", "debug"}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const std::string id = client.createTask(longCase("checkpointed"));
    QVERIFY(!id.empty());
    // It checkpoints while it runs; then it is cancelled, and another one completes.
    QTRY_VERIFY_WITH_TIMEOUT(server.standardError().contains("checkpoint at iteration"), 60000);
    client.request("tasks/cancel", {{"taskId", id}});
    QCOMPARE(client.waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("cancelled"));
    const qsizetype logBefore = server.standardError().size();
    const std::string done = client.createTask({{"reynolds", 100}, {"grid", 48}, {"max_iterations", 20000},
                                                {"tolerance", 1e-14}});
    QCOMPARE(client.waitForTask(done, McpTestClient::isTerminal, 100000).value("status", ""),
             std::string("completed"));
    QVERIFY2(server.standardError().mid(logBefore).contains("checkpoint at iteration"),
             "the completed case never checkpointed; make it longer");

    const QString db = server.dataDir() + "/tasks.sqlite";
    const auto ended = [&db] {
        return Eddy::Test::query(db, "SELECT status, length(checkpoint) FROM tasks WHERE status IN "
                                     "('completed', 'cancelled') ORDER BY status", 10000);
    };
    // Both ends are stored (the row may follow the answer by a moment).
    QTRY_COMPARE_WITH_TIMEOUT(ended().size(), 2, 10000);
    for (const QStringList &row : ended())
        QVERIFY2(row.value(1).isEmpty(),
                 qPrintable("a " + row.value(0) + " case keeps a checkpoint of " + row.value(1) + " bytes"));
}

// A reader that holds one snapshot for a while (a backup, an engineer's sqlite3 shell) keeps
// every checkpoint from rewinding the WAL, which then grows with each write. Once the reader lets
// go, the WAL must come back under the server's limit (journal_size_limit, 4 MiB), not keep its
// high-water mark until the server exits.
void tst_ServerDurability::walShrinksAfterALongReader()
{
    constexpr qint64 kLimit = 4 << 20;
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "1", "--checkpoint-interval-ms", "50"}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const QString wal = server.dataDir() + "/tasks.sqlite-wal";
    sqlite3 *reader = nullptr;
    const auto closeReader = qScopeGuard([&reader] { sqlite3_close(reader); });
    QCOMPARE(sqlite3_open_v2(qPrintable(server.dataDir() + "/tasks.sqlite"), &reader,
                             SQLITE_OPEN_READWRITE, nullptr),
             SQLITE_OK);
    sqlite3_busy_timeout(reader, 10000);
    QCOMPARE(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM tasks;", nullptr, nullptr, nullptr),
             SQLITE_OK);
    // A grid-128 case stores its fields (about 0.5 MB) every 50 ms: the WAL grows while the
    // snapshot is held.
    json writer = longCase("writer");
    writer["grid"] = 128;
    const std::string id = client.createTask(writer);
    QVERIFY(!id.empty());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(wal).size() > 2 * kLimit, 120000);
    QCOMPARE(client.getTask(id).result().value("status", ""), std::string("working"));
    QCOMPARE(sqlite3_exec(reader, "COMMIT;", nullptr, nullptr, nullptr), SQLITE_OK);
    // The next checkpoint rewinds the WAL, and the write after it cuts the file back.
    QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo(wal).size() <= kLimit,
                              qPrintable(QStringLiteral("the WAL stays at %1 bytes")
                                             .arg(QFileInfo(wal).size())),
                              60000);
    client.request("tasks/cancel", {{"taskId", id}});
    QCOMPARE(client.waitForTask(id, McpTestClient::isTerminal).value("status", ""),
             std::string("cancelled"));
}

QTEST_GUILESS_MAIN(tst_ServerDurability)
#include "tst_serverdurability.moc"
