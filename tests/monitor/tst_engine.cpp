// The engine against the real eddy-cfd-server: live tasks resume after a restart with no user
// action, results are stored, change sets are batched, unknown or expired task ids end as lost
// or expired (never failed), and a task near its TTL raises a warning.
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "tests/common/testserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace Eddy;
using Eddy::Test::TestServer;

class tst_Engine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void resumesAfterRestartAndBatches();
    void goneTasksAreLostOrExpired();
    void ttlWarningForTaskAtRisk();
    void pushesAccelerateSlowPolls();

private:
    TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_Engine::initTestCase()
{
    Net::initGlobal();
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
}

void tst_Engine::resumesAfterRestartAndBatches()
{
    const QString db = m_dir.filePath(QStringLiteral("resume.sqlite"));
    QList<qint64> taskIds;
    {
        Monitor::Engine engine;
        QVERIFY(engine.open(db));
        const qint64 sid = engine.addServer(m_server.url());
        QVERIFY(sid > 0);
        QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
        QSignalSpy rejected(&engine, &Monitor::Engine::submissionRejected);
        engine.submitSweep(sid, R"({"tool":"run_cfd_case","fixed":{"grid":32,"max_iterations":3000},
            "vary":{"reynolds":{"list":[100,400,1000]}},"concurrency":3})", std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size() + rejected.size(), 3, 30000);
        QCOMPARE(rejected.size(), 0);
        for (const auto &args : submitted)
            taskIds << args.at(1).toLongLong();
        // Quit at once, like a user closing Eddy with work running.
    }
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QSignalSpy batches(&engine, &Monitor::Engine::changesReady);
    QVERIFY(engine.open(db));
    QVERIFY(engine.liveTaskCount() > 0 || finished.size() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 90000);
    int updates = 0;
    for (const auto &b : batches)
        updates += int(b.at(0).value<Monitor::ChangeSet>().tasks.size());
    QVERIFY(batches.size() >= 1);
    QVERIFY2(batches.size() <= updates, "one emission carries several updates, never the other way");
    for (qint64 id : taskIds) {
        const auto t = engine.store().task(id);
        QVERIFY(t);
        QCOMPARE(t->status, Store::TaskStatus::Completed);
        QVERIFY(!t->result.isEmpty());
        QVERIFY(!t->isToolError);
        QVERIFY(t->finishedAtMs);
        QVERIFY(engine.store().taskEvents(id).size() >= 2);
        // Progress parsed from the real solver's messages (if a poll saw it running).
        const auto samples = engine.store().progressSamples(id);
        for (const auto &s : samples)
            QVERIFY(!s.series.isEmpty());
    }
    QTRY_VERIFY_WITH_TIMEOUT(engine.isIdle(), 10000);
}

void tst_Engine::goneTasksAreLostOrExpired()
{
    const QString db = m_dir.filePath(QStringLiteral("gone.sqlite"));
    qint64 lostId = 0, expiredId = 0;
    {
        Store::TaskStore store;
        QVERIFY(store.open(db));
        Store::ServerRecord s;
        s.url = m_server.url();
        const qint64 sid = *store.addServer(s);
        auto add = [&](const QString &createdAt, qint64 ttl) {
            Store::CaseRecord c;
            c.serverId = sid;
            c.tool = QStringLiteral("run_cfd_case");
            c.arguments = QStringLiteral("{}");
            c.idempotencyKey = QUuid::createUuid().toString();
            store.journalCase(c);
            Store::TaskRecord t;
            t.serverId = sid;
            t.tool = c.tool;
            t.serverTaskId = QUuid::createUuid().toString(QUuid::Id128); // the server never made it
            t.createdAt = createdAt;
            t.ttlMs = ttl;
            t.pollIntervalMs = 250;
            return *store.recordTaskForCase(c.id, t);
        };
        const QDateTime now = QDateTime::currentDateTimeUtc();
        lostId = add(now.toString(Qt::ISODateWithMs), 86400000);
        expiredId = add(now.addSecs(-7200).toString(Qt::ISODateWithMs), 3600000);
    }
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QVERIFY(engine.open(db));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
    QCOMPARE(engine.store().task(lostId)->status, Store::TaskStatus::Lost);
    QCOMPARE(engine.store().task(expiredId)->status, Store::TaskStatus::Expired);
    QVERIFY(engine.store().task(lostId)->statusMessage.contains(QStringLiteral("does not know")));
    QCOMPARE(engine.store().taskEvents(lostId).last().status, Store::TaskStatus::Lost);
    QVERIFY(engine.store().liveTasks().isEmpty());
}

void tst_Engine::ttlWarningForTaskAtRisk()
{
    TestServer shortLived;
    QVERIFY2(shortLived.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--ttl-ms"), QStringLiteral("40000")}),
             qPrintable(shortLived.errorString()));
    Monitor::Engine engine;
    QSignalSpy warnings(&engine, &Monitor::Engine::ttlWarning);
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("ttl.sqlite"))));
    const qint64 sid = engine.addServer(shortLived.url());
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":128,"max_iterations":10000000,"tolerance":1e-30})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 30000);
    const qint64 task = submitted.first().at(1).toLongLong();
    QTRY_COMPARE_WITH_TIMEOUT(warnings.size(), 1, 20000);
    QCOMPARE(warnings.first().at(0).toLongLong(), task);
    const qint64 left = warnings.first().at(1).toLongLong();
    QVERIFY2(left > 0 && left <= 40000, qPrintable(QString::number(left)));
    QSignalSpy cancelled(&engine, &Monitor::Engine::cancelSent);
    engine.cancelTasks({task});
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, 20000);
    QVERIFY(engine.store().task(task)->cancelRequested);
}

void tst_Engine::pushesAccelerateSlowPolls()
{
    // The server asks for a poll every 20 s; its listen stream pushes every change. The task's
    // end arrives by push, and the poll count stays at what the server asked for.
    TestServer slow;
    QVERIFY2(slow.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("20000")}),
             qPrintable(slow.errorString()));
    Monitor::Engine engine;
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("push.sqlite"))));
    const qint64 sid = engine.addServer(slow.url());
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":32,"max_iterations":3000,"tolerance":1e-30})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 30000);
    const qint64 requestsAfterSubmit = engine.requestsSent();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QVERIFY(engine.pushesReceived() > 0);
    const auto t = engine.store().task(submitted.first().at(1).toLongLong());
    QCOMPARE(t->status, Store::TaskStatus::Completed);
    QVERIFY(!t->result.isEmpty());
    // Only the listen request (and at most a poll or two at 20 s) went out meanwhile.
    QVERIFY2(engine.requestsSent() - requestsAfterSubmit <= 4, qPrintable(QString::number(engine.requestsSent() - requestsAfterSubmit)));
}

QTEST_GUILESS_MAIN(tst_Engine)
#include "tst_engine.moc"
