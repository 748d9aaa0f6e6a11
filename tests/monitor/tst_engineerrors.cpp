// Which -32602 ends a task: only the unknown-task error ("Task not found", "Task has expired",
// "Unknown task") marks it lost; any other -32602 on tasks/get is a protocol error the user is
// told about, and the task is kept and polled again with backoff until the server answers.
// A fault a real server cannot produce on demand, so the peer is the hostile test server (real
// HTTP on loopback speaking the 2026-07-28 wire).
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "tests/hostile/hostileserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;
using Eddy::Test::HostileServer;
using nlohmann::json;

class tst_EngineErrors : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void otherInvalidParamsKeepsTheTask();
    void unknownTaskIsLost_data();
    void unknownTaskIsLost();

private:
    // Submits one case to `server` and returns its task id (0 on failure).
    qint64 submitOne(Monitor::Engine &engine, HostileServer &server, const QString &db);

    QTemporaryDir m_dir;
};

void tst_EngineErrors::initTestCase()
{
    QVERIFY(Net::initGlobal());
    QVERIFY(m_dir.isValid());
}

qint64 tst_EngineErrors::submitOne(Monitor::Engine &engine, HostileServer &server, const QString &db)
{
    if (!engine.open(db))
        return 0;
    const qint64 sid = engine.addServer(server.url().toString());
    if (sid <= 0)
        return 0;
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    engine.callOnce(sid, QStringLiteral("sim"), R"({"n": 1})", std::nullopt);
    if (!submitted.wait(60000) && submitted.isEmpty())
        return 0;
    return submitted.first().at(1).toLongLong();
}

void tst_EngineErrors::otherInvalidParamsKeepsTheTask()
{
    // The first three polls are refused with a -32602 that is not about the task; then the
    // server answers normally (working, then completed).
    HostileServer server;
    QVERIFY(server.listen());
    int refused = 0;
    server.setFault([&refused](HostileServer &, const HostileServer::Call &c) {
        if (c.method != "tasks/get" || refused >= 3)
            return false;
        ++refused;
        c.socket->write(HostileServer::http(HostileServer::rpcError(
            c.id, -32602, "Invalid params: '_meta.io.modelcontextprotocol/clientInfo' is malformed")));
        return true;
    });
    Monitor::Engine engine;
    QSignalSpy states(&engine, &Monitor::Engine::serverStateChanged);
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    const qint64 task = submitOne(engine, server, m_dir.filePath(QStringLiteral("invalid.sqlite")));
    QVERIFY(task > 0);

    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 90000);
    QCOMPARE(refused, 3);
    const auto t = engine.catalogue().task(task);
    QVERIFY(t);
    QCOMPARE(t->status, Store::TaskStatus::Completed); // never lost
    QVERIFY(t->result.contains(QStringLiteral("hostile result")));
    for (const Store::TaskEventRecord &e : engine.catalogue().taskEvents(task))
        QVERIFY2(e.status != Store::TaskStatus::Lost && e.status != Store::TaskStatus::Expired,
                 qPrintable(Store::toText(e.status)));
    // The user was told, in words that say what happened and that the task was kept.
    bool told = false;
    for (const auto &args : states) {
        const QString message = args.at(2).toString();
        told = told
               || (args.at(1).value<Monitor::Engine::ServerState>() == Monitor::Engine::ServerState::BackingOff
                   && message.contains(QStringLiteral("-32602")) && message.contains(QStringLiteral("is malformed"))
                   && message.contains(QStringLiteral("kept")));
    }
    QVERIFY2(told, "no BackingOff state naming the -32602 and saying the task is kept");
    QCOMPARE(server.count("tasks/get"), 4); // three refused, then the answer that completes it
}

void tst_EngineErrors::unknownTaskIsLost_data()
{
    QTest::addColumn<QString>("message");
    QTest::newRow("2026 and 2025 wording") << QStringLiteral("Failed to retrieve task: Task not found");
    QTest::newRow("expired") << QStringLiteral("Failed to retrieve task: Task has expired");
    QTest::newRow("short") << QStringLiteral("Unknown task");
}

void tst_EngineErrors::unknownTaskIsLost()
{
    QFETCH(QString, message);
    HostileServer server;
    QVERIFY(server.listen());
    const std::string said = message.toStdString();
    server.setFault([said](HostileServer &, const HostileServer::Call &c) {
        if (c.method != "tasks/get")
            return false;
        c.socket->write(HostileServer::http(HostileServer::rpcError(c.id, -32602, said)));
        return true;
    });
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    const QString db = m_dir.filePath(QStringLiteral("unknown-%1.sqlite").arg(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
    const qint64 task = submitOne(engine, server, db);
    QVERIFY(task > 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 90000);
    const auto t = engine.catalogue().task(task);
    QVERIFY(t);
    // The handle's TTL (10 min) has not run out: the server forgot it for another reason.
    QCOMPARE(t->status, Store::TaskStatus::Lost);
    QVERIFY(t->statusMessage.contains(QStringLiteral("does not know")));
    QCOMPARE(server.count("tasks/get"), 1); // given up at once, not retried
    QCOMPARE(engine.liveTaskCount(), 0);
}

QTEST_GUILESS_MAIN(tst_EngineErrors)
#include "tst_engineerrors.moc"
