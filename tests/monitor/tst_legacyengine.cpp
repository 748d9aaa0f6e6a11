// The engine in the 2025-11-25 era (sessions, polling only) against the real eddy-cfd-server:
// an engine with live tasks and requests in flight is destroyed, or closed and opened again,
// without touching freed memory (the session DELETE goes out through a live HTTP client), and a
// server restart on the same port and data folder ends the session but loses no task: the
// engine initializes again and keeps polling every task, which keeps its status; the questions
// the user saw before the restart stay the same questions after it (the server asks them again
// under new request ids), not a second set.
#include "app/mcp/client.h"
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "app/store/taskstore.h"
#include "tests/common/testserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>


#include <algorithm>
#include <memory>

using namespace Eddy;
using Eddy::Test::TestServer;

namespace {

const QStringList kServerArgs{QStringLiteral("--workers"), QStringLiteral("1"),
                              QStringLiteral("--poll-interval-ms"), QStringLiteral("250")};

// Cases that stop at once on the mesh question and then run a few hundred iterations.
QByteArray parkedSweep(int count)
{
    return QStringLiteral(R"({"tool":"run_cfd_case","fixed":{"grid":8,"max_iterations":200,
        "force_mesh_defect":true},"vary":{"reynolds":{"range":{"from":1,"to":%1,"step":1}}},
        "concurrency":%1})")
        .arg(count)
        .toUtf8();
}

// Stops the server and starts a new one on the same port and data folder, so the same URL;
// returns what went wrong, or nothing.
QString restartOnSamePort(std::unique_ptr<TestServer> &server, quint16 port, const QString &dataDir)
{
    if (!server->terminate())
        return QStringLiteral("the server did not stop");
    server = std::make_unique<TestServer>();
    if (!server->start(kServerArgs + QStringList{QStringLiteral("--port"), QString::number(port)}, dataDir))
        return server->errorString();
    return {};
}

// A database whose server is known to speak 2025-11-25, as the store keeps it after detection.
bool prepareLegacyDatabase(const QString &path, const QString &url)
{
    Store::TaskStore store;
    if (!store.open(path))
        return false;
    Store::ServerRecord s;
    s.url = url;
    s.era = QStringLiteral("legacy");
    return bool(store.addServer(s));
}

int countWithStatus(Monitor::Engine &engine, const QList<qint64> &ids, Store::TaskStatus status)
{
    int n = 0;
    for (qint64 id : ids) {
        const auto t = engine.catalogue().task(id);
        n += t && t->status == status ? 1 : 0;
    }
    return n;
}

// "3 input_required; 4 failed: <message>" for a failure message.
QByteArray describe(Monitor::Engine &engine, const QList<qint64> &ids)
{
    QStringList out;
    for (qint64 id : ids) {
        const auto t = engine.catalogue().task(id);
        out << (t ? QStringLiteral("%1 %2: %3 %4")
                        .arg(id)
                        .arg(Store::toText(t->status), t->statusMessage, t->error.left(200))
                  : QStringLiteral("%1 missing").arg(id));
    }
    return out.join(QStringLiteral("; ")).toUtf8();
}

} // namespace

class tst_LegacyEngine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void destroyWithLiveTasks();
    void closeThenReopen();
    void restartKeepsTasks();
    void questionsSurviveRestart();

private:
    // Opens a 2025-era engine on a fresh database and parks `count` tasks on their question.
    QList<qint64> submitParked(Monitor::Engine &engine, const QString &db, const QString &url, int count);

    TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_LegacyEngine::initTestCase()
{
    Net::initGlobal();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(kServerArgs), qPrintable(m_server.errorString()));
}

QList<qint64> tst_LegacyEngine::submitParked(Monitor::Engine &engine, const QString &db,
                                             const QString &url, int count)
{
    QList<qint64> ids;
    if (!prepareLegacyDatabase(db, url) || !engine.open(db))
        return ids;
    const qint64 sid = engine.addServer(url);
    if (sid <= 0)
        return ids;
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QSignalSpy rejected(&engine, &Monitor::Engine::caseRejected);
    engine.submitSweep(sid, parkedSweep(count), std::nullopt);
    if (!QTest::qWaitFor([&] { return submitted.size() + rejected.size() >= count; }, 60000)
        || !rejected.isEmpty())
        return ids;
    for (const auto &args : submitted)
        ids << args.at(1).toLongLong();
    // Parked: every task has been polled into input_required.
    (void)QTest::qWaitFor(
        [&] { return countWithStatus(engine, ids, Store::TaskStatus::InputRequired) == count; },
        60000);
    return ids;
}

void tst_LegacyEngine::destroyWithLiveTasks()
{
    const QString db = m_dir.filePath(QStringLiteral("destroy.sqlite"));
    auto engine = std::make_unique<Monitor::Engine>();
    const QList<qint64> ids = submitParked(*engine, db, m_server.url(), 3);
    QCOMPARE(ids.size(), 3);
    QCOMPARE(countWithStatus(*engine, ids, Store::TaskStatus::InputRequired), 3);
    // Destroy while a poll is in flight: wait for the next request to leave, then delete at once.
    const qint64 sent = engine->requestsSent();
    QVERIFY(QTest::qWaitFor([&] { return engine->requestsSent() > sent; }, 30000));
    engine.reset(); // the 2025 session's DELETE must not go through a deleted HTTP client

    // Nothing was lost by quitting: a new engine on the same database tracks all three.
    Monitor::Engine again;
    QVERIFY(again.open(db));
    QCOMPARE(again.liveTaskCount(), 3);
    const qint64 before = again.requestsSent();
    QVERIFY(QTest::qWaitFor([&] { return again.requestsSent() > before; }, 30000));
    QCOMPARE(countWithStatus(again, ids, Store::TaskStatus::InputRequired), 3);
}

void tst_LegacyEngine::closeThenReopen()
{
    const QString db = m_dir.filePath(QStringLiteral("reopen.sqlite"));
    Monitor::Engine engine;
    const QList<qint64> ids = submitParked(engine, db, m_server.url(), 2);
    QCOMPARE(ids.size(), 2);
    QVERIFY(!engine.findChildren<Mcp::Client *>().isEmpty());
    engine.close();
    QVERIFY(!engine.isOpen());
    // close() ends every 2025 session while its HTTP client still lives: no client is left
    // behind holding a deleted one.
    QCOMPARE(engine.findChildren<Mcp::Client *>().size(), 0);
    QVERIFY(engine.open(db));
    QCOMPARE(engine.liveTaskCount(), 2);
    // Polls resume through the new HTTP client (a 2025 client left over from before the close
    // would hold the deleted one).
    const qint64 before = engine.requestsSent();
    QVERIFY(QTest::qWaitFor([&] { return engine.requestsSent() > before + 2; }, 30000));
    QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::InputRequired), 2);
    engine.close();
    QVERIFY(engine.open(db));
    QCOMPARE(engine.liveTaskCount(), 2);
} // destroyed while open, with its second set of clients

void tst_LegacyEngine::restartKeepsTasks()
{
    // A server of its own, restarted on the same port and data folder.
    QTemporaryDir serverData;
    QVERIFY(serverData.isValid());
    auto server = std::make_unique<TestServer>();
    QVERIFY2(server->start(kServerArgs, serverData.path()), qPrintable(server->errorString()));
    const quint16 port = server->port();
    const QString url = server->url();

    const int count = 8;
    const QString db = m_dir.filePath(QStringLiteral("restart.sqlite"));
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    const QList<qint64> ids = submitParked(engine, db, url, count);
    QCOMPARE(ids.size(), count);
    QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::InputRequired), count);

    // Several restarts: each ends the 2025 session while polls for every task are in flight.
    for (int round = 0; round < 2; ++round) {
        const QString restarted = restartOnSamePort(server, port, serverData.path());
        QVERIFY2(restarted.isEmpty(), qPrintable(restarted));
        QCOMPARE(server->url(), url);
        // Polls go on against the new server (the old session is gone): none ends a task.
        const qint64 before = engine.requestsSent();
        const auto lost = [&] { return countWithStatus(engine, ids, Store::TaskStatus::Lost); };
        QVERIFY2(QTest::qWaitFor([&] { return engine.requestsSent() > before + count || lost() > 0; },
                                 90000),
                 describe(engine, ids).constData());
        QCOMPARE(lost(), 0);
        QCOMPARE(engine.liveTaskCount(), count);
        QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::InputRequired), count);
    }

    // Still tracked, each keeping its status and its question.
    QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::InputRequired), count);
    QCOMPARE(finished.size(), 0);
}

void tst_LegacyEngine::questionsSurviveRestart()
{
    QTemporaryDir serverData;
    QVERIFY(serverData.isValid());
    auto server = std::make_unique<TestServer>();
    QVERIFY2(server->start(kServerArgs, serverData.path()), qPrintable(server->errorString()));
    const quint16 port = server->port();
    const QString url = server->url();

    {
        // Another client asks first, so this engine's questions get request ids 4 to 7 from the
        // server; the restarted server numbers them from 1 again.
        Monitor::Engine other;
        QCOMPARE(submitParked(other, m_dir.filePath(QStringLiteral("answers-other.sqlite")), url, 3).size(), 3);
        QTRY_COMPARE_WITH_TIMEOUT(other.catalogue().pendingInputRequests().size(), 3, 60000);
    }
    const int count = 4;
    const QString db = m_dir.filePath(QStringLiteral("answers.sqlite"));
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QSignalSpy asked(&engine, &Monitor::Engine::inputRequested);
    const QList<qint64> ids = submitParked(engine, db, url, count);
    QCOMPARE(ids.size(), count);
    // The questions as the user sees them (one per task).
    QTRY_COMPARE_WITH_TIMEOUT(engine.catalogue().pendingInputRequests().size(), count, 60000);
    const QList<Store::InputRequestRecord> questions = engine.catalogue().pendingInputRequests();

    const QString restarted = restartOnSamePort(server, port, serverData.path());
    QVERIFY2(restarted.isEmpty(), qPrintable(restarted));
    // Polls resume against the new server, which asks every question again.
    const qint64 before = engine.requestsSent();
    QVERIFY(QTest::qWaitFor([&] { return engine.requestsSent() > before + 2 * count; }, 90000));
    QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::InputRequired), count);
    // The same questions, not new ones: nothing more for the user to answer.
    QCOMPARE(engine.catalogue().pendingInputRequests().size(), count);
    QCOMPARE(asked.size(), count);

    // Still the questions the user saw before the restart, under the same keys.
    const QList<Store::InputRequestRecord> after = engine.catalogue().pendingInputRequests();
    for (const Store::InputRequestRecord &q : questions)
        QVERIFY2(std::any_of(after.begin(), after.end(),
                             [&q](const Store::InputRequestRecord &a) {
                                 return a.taskId == q.taskId && a.key == q.key;
                             }),
                 qPrintable(q.key));

    // Answered after the restart, every task runs to completion: the answers go to the request
    // ids of the restarted server, not to the ids it forgot (it would acknowledge those with 202
    // and drop them).
    for (const Store::InputRequestRecord &q : after)
        engine.answerInput(q.taskId, q.key, R"({"action":"accept","content":{"action":"repair"}})");
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), count, 120000);
    QCOMPARE(countWithStatus(engine, ids, Store::TaskStatus::Completed), count);
    QCOMPARE(engine.catalogue().pendingInputRequests().size(), 0);
}

QTEST_GUILESS_MAIN(tst_LegacyEngine)
#include "tst_legacyengine.moc"
