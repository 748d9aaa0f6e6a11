// The engine against the real eddy-cfd-server: live tasks resume after a restart with no user
// action, results are stored, change sets are batched (but the first change after a quiet
// interval is not held back), unknown or expired task ids end as lost or expired (never failed),
// a task near its TTL raises a warning, and a snapshot arrives in chunks that never interleave
// with change sets.
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "app/store/taskstore.h"
#include "tests/common/serverlog.h"
#include "tests/common/testserver.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <nlohmann/json.hpp>

using namespace Eddy;
using Eddy::Test::TestServer;

class tst_Engine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void resumesAfterRestartAndBatches();
    void goneTasksAreLostOrExpired();
    void catalogueReadsWhatIsStored();
    void ttlWarningForTaskAtRisk();
    void pushesAccelerateSlowPolls();
    void laterTasksJoinASmallStream();
    void firstChangeIsNotBatched();
    void snapshotInChunks();
    void answerInFlightWhenTaskEndedStaysAnswered();

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
        engine.submitSweep(sid, R"({"tool":"run_cfd_case","fixed":{"grid":32,"max_iterations":20000,"tolerance":1e-30},
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
    // A case may already have completed before the first engine quit (an idle machine runs one
    // in well under a second), so wait for every stored task to be completed, not for three
    // taskFinished signals from this engine.
    const auto allCompleted = [&] {
        return std::all_of(taskIds.begin(), taskIds.end(), [&](qint64 id) {
            const auto t = engine.catalogue().task(id);
            return t && t->status == Store::TaskStatus::Completed;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allCompleted(), 90000);
    QTRY_VERIFY_WITH_TIMEOUT(!batches.isEmpty(), 30000);
    int updates = 0;
    for (const auto &b : batches)
        updates += int(b.at(0).value<Monitor::ChangeSet>().tasks.size());
    QVERIFY(batches.size() >= 1);
    QVERIFY2(batches.size() <= updates, "one emission carries several updates, never the other way");
    for (qint64 id : taskIds) {
        const auto t = engine.catalogue().task(id);
        QVERIFY(t);
        QCOMPARE(t->status, Store::TaskStatus::Completed);
        QVERIFY(!t->result.isEmpty());
        QVERIFY(!t->isToolError);
        QVERIFY(t->finishedAtMs);
        QVERIFY(engine.catalogue().taskEvents(id).size() >= 2);
        // Progress parsed from the real solver's messages (if a poll saw it running).
        const auto samples = engine.catalogue().progressSamples(id);
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
    QCOMPARE(engine.catalogue().task(lostId)->status, Store::TaskStatus::Lost);
    QCOMPARE(engine.catalogue().task(expiredId)->status, Store::TaskStatus::Expired);
    QVERIFY(engine.catalogue().task(lostId)->statusMessage.contains(QStringLiteral("does not know")));
    QCOMPARE(engine.catalogue().taskEvents(lostId).last().status, Store::TaskStatus::Lost);
    {
        Store::TaskStore store; // the same file, through a connection of the test's own
        QVERIFY(store.open(db));
        QVERIFY(store.liveTasks().isEmpty());
    }
}

void tst_Engine::catalogueReadsWhatIsStored()
{
    Monitor::Engine engine;
    engine.setMonitoring(false);
    const Monitor::Catalogue &catalogue = engine.catalogue();
    // Not open: every read answers empty.
    QVERIFY(catalogue.servers(true).isEmpty());
    QVERIFY(!catalogue.task(1));
    QVERIFY(!catalogue.serverUse(1));
    const QString db = m_dir.filePath(QStringLiteral("catalogue.sqlite"));
    QVERIFY(engine.open(db));
    const qint64 sid = engine.addServer(QStringLiteral("http://127.0.0.1:1/mcp"), QStringLiteral("c"));
    QVERIFY(sid > 0);
    {
        // Written by another connection to the same file: the catalogue reads the database,
        // not a copy the engine keeps.
        Store::TaskStore store;
        QVERIFY(store.open(db));
        QVERIFY(store.createSession(QStringLiteral("other")));
    }
    QCOMPARE(catalogue.servers().size(), 1);
    QCOMPARE(catalogue.server(sid)->name, QStringLiteral("c"));
    QCOMPARE(catalogue.serverUse(sid)->tasks, 0);
    QVERIFY(catalogue.sessionByName(QStringLiteral("other")));
    engine.close();
    QVERIFY(catalogue.servers().isEmpty());
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
    QVERIFY(engine.catalogue().task(task)->cancelRequested);
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
    const auto t = engine.catalogue().task(submitted.first().at(1).toLongLong());
    QCOMPARE(t->status, Store::TaskStatus::Completed);
    QVERIFY(!t->result.isEmpty());
    // Only the listen request (and at most a poll or two at 20 s) went out meanwhile.
    QVERIFY2(engine.requestsSent() - requestsAfterSubmit <= 4, qPrintable(QString::number(engine.requestsSent() - requestsAfterSubmit)));
}

void tst_Engine::laterTasksJoinASmallStream()
{
    // Each listen stream makes the server send the state of every task it names, so a task
    // submitted later must not reopen the stream over every task already followed: it joins a
    // second stream of its own, and both become one only when the newcomers outgrow an eighth of
    // the first. Every case stops at a mesh question and waits, so the live set is exact; polls
    // are asked for once a minute, so each question and each end seen here came by push, on
    // whichever stream carried the task.
    TestServer slow;
    QVERIFY2(slow.start({QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--poll-interval-ms"), QStringLiteral("60000"),
                         QStringLiteral("--log-level"), QStringLiteral("debug")}),
             qPrintable(slow.errorString()));
    const auto listens = [&] {
        QList<int> sizes;
        for (const Test::LogLine &l : Test::serverLines(slow.standardError(), QStringLiteral("subscriptions/listen")))
            sizes << l.rest.section(QLatin1Char(' '), 0, 0).toInt();
        return sizes;
    };
    Monitor::Engine engine;
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QSignalSpy asked(&engine, &Monitor::Engine::inputRequested);
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("streams.sqlite"))));
    const qint64 sid = engine.addServer(slow.url());
    const auto parkedCase = [](int reynolds) {
        return QStringLiteral(R"({"reynolds":%1,"grid":8,"max_iterations":200,"force_mesh_defect":true})").arg(reynolds).toUtf8();
    };
    engine.submitSweep(sid, R"({"tool":"run_cfd_case","fixed":{"grid":8,"max_iterations":200,"force_mesh_defect":true},
        "vary":{"reynolds":{"range":{"from":1,"to":16,"step":1}}},"concurrency":16})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 16, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 16, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(listens().constLast(), 16, 30000);
    const qsizetype before = listens().size();

    engine.callOnce(sid, QStringLiteral("run_cfd_case"), parkedCase(17), std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 17, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(listens().size() > before, 30000);
    QCOMPARE(listens().mid(before), QList<int>{1}); // the newcomer alone, not all 17

    // Three more: with the one before, more than an eighth of the first stream's 16, so one
    // stream over all 20 again.
    for (int reynolds : {18, 19, 20})
        engine.callOnce(sid, QStringLiteral("run_cfd_case"), parkedCase(reynolds), std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 20, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(listens().constLast(), 20, 30000);
    const QList<int> opened = listens().mid(before);
    QVERIFY2(std::all_of(opened.begin(), opened.end() - 1, [](int n) { return n < 4; }), qPrintable(QDebug::toString(opened)));

    for (const auto &args : std::as_const(asked)) {
        const auto q = args.at(0).value<Store::InputRequestRecord>();
        engine.answerInput(q.taskId, q.key, R"({"action":"accept","content":{"action":"repair"}})");
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 20, 120000);
    for (const auto &args : std::as_const(submitted))
        QCOMPARE(engine.catalogue().task(args.at(1).toLongLong())->status, Store::TaskStatus::Completed);
    QVERIFY(engine.pushesReceived() >= 40); // a question and an end for each
}

void tst_Engine::firstChangeIsNotBatched()
{
    // A batch interval far longer than the test: a change set can only arrive before it ends if
    // the first change after a quiet interval goes out at once (leading edge).
    Monitor::Engine engine;
    engine.setBatchIntervalMs(24 * 3600 * 1000);
    QSignalSpy batches(&engine, &Monitor::Engine::changesReady);
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("leading.sqlite"))));
    const qint64 sid = engine.addServer(m_server.url());
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":8,"max_iterations":100})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!batches.isEmpty(), 60000);
    const auto first = batches.first().at(0).value<Monitor::ChangeSet>();
    QCOMPARE(first.tasks.size(), 1);
    QCOMPARE(first.tasks.first().id, submitted.first().at(1).toLongLong());
    QVERIFY(!first.isSnapshot());
}

void tst_Engine::snapshotInChunks()
{
    // 2,500 stored tasks (one journalled sweep), delivered 1,000 rows per chunk while a real task
    // runs and changes: every row exactly once, results left out, the pending question in the
    // first chunk, the complete marker on the last, and no change set between the chunks.
    const QString db = m_dir.filePath(QStringLiteral("snapshot.sqlite"));
    const int stored = 2500;
    qint64 sid = 0;
    QSet<qint64> expected;
    {
        Store::TaskStore store;
        QVERIFY(store.open(db));
        Store::ServerRecord s;
        s.url = m_server.url();
        sid = *store.addServer(s);
        Store::SweepRecord sweep;
        sweep.serverId = sid;
        sweep.tool = QStringLiteral("run_cfd_case");
        sweep.spec = QStringLiteral("{}");
        QList<Store::CaseRecord> cases;
        for (int i = 0; i < stored; ++i) {
            Store::CaseRecord c;
            c.serverId = sid;
            c.index = i;
            c.tool = sweep.tool;
            c.arguments = QStringLiteral("{}");
            c.idempotencyKey = QUuid::createUuid().toString();
            cases << c;
        }
        QVERIFY(store.journalSweep(sweep, cases));
        for (const Store::CaseRecord &c : std::as_const(cases)) {
            Store::TaskRecord t;
            t.serverId = sid;
            t.sweepId = sweep.id;
            t.tool = c.tool;
            t.status = Store::TaskStatus::Completed;
            t.result = QStringLiteral("{\"content\":[],\"big\":\"%1\"}").arg(QString(100, QLatin1Char('x')));
            const auto id = store.recordTaskForCase(c.id, t);
            QVERIFY(id);
            expected.insert(*id);
        }
    }
    // Every emission in order: 'c' for changesReady, 's' for a chunk. Declared before the engine:
    // closing it at the end of the test still emits into them.
    QString order;
    QList<Monitor::ChangeSet> chunks;
    Monitor::Engine engine;
    engine.setSnapshotChunkRows(1000);
    connect(&engine, &Monitor::Engine::changesReady, this, [&](const Monitor::ChangeSet &) { order += QLatin1Char('c'); });
    connect(&engine, &Monitor::Engine::snapshotChunk, this, [&](const Monitor::ChangeSet &c) {
        order += QLatin1Char('s');
        chunks << c;
    });
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QSignalSpy asked(&engine, &Monitor::Engine::inputRequested);
    QVERIFY(engine.open(db));
    // Live work while the snapshot goes out: one case parked on its question (a pending input),
    // one running (its progress changes all the time).
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":1,"grid":8,"max_iterations":200,"force_mesh_defect":true})", std::nullopt);
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":64,"max_iterations":10000000,"tolerance":1e-30})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 2, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!asked.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(order.contains(QLatin1Char('c')), 30000);
    for (const auto &args : submitted)
        expected.insert(args.at(1).toLongLong());

    order.clear();
    engine.requestSnapshot(7, Store::TaskQuery());
    QTRY_VERIFY_WITH_TIMEOUT(!chunks.isEmpty() && chunks.last().snapshotComplete, 60000);
    QCOMPARE(chunks.size(), 3); // 2,502 rows by 1,000
    QSet<qint64> seen;
    for (int i = 0; i < chunks.size(); ++i) {
        const Monitor::ChangeSet &c = chunks[i];
        QCOMPARE(c.snapshotId, qint64(7));
        QCOMPARE(c.snapshotComplete, i == chunks.size() - 1);
        QVERIFY(c.tasks.size() <= 1000);
        QVERIFY(c.samples.isEmpty());
        QCOMPARE(c.inputs.isEmpty(), i != 0);
        for (const Store::TaskRecord &t : c.tasks) {
            QVERIFY2(!seen.contains(t.id), "a row twice");
            seen.insert(t.id);
            QVERIFY(t.result.isEmpty());
        }
    }
    QCOMPARE(seen, expected);
    // The parked case's question (the two calls run at once, so either may be submitted first).
    QCOMPARE(chunks.first().inputs.first().taskId,
             asked.first().at(0).value<Store::InputRequestRecord>().taskId);
    // Changes go on, and never between the first chunk and the complete one.
    QTRY_VERIFY_WITH_TIMEOUT(order.endsWith(QLatin1Char('c')), 60000);
    // (At most one change set first: what was pending when the snapshot was asked for.)
    QVERIFY2(QRegularExpression(QStringLiteral("^c?sss")).match(order).hasMatch(), qPrintable(order));

    // An empty snapshot is one empty complete chunk.
    chunks.clear();
    Store::TaskQuery none;
    none.tool = QStringLiteral("no such tool");
    engine.requestSnapshot(8, none);
    QTRY_COMPARE_WITH_TIMEOUT(chunks.size(), 1, 30000);
    QVERIFY(chunks.first().snapshotComplete);
    QVERIFY(chunks.first().tasks.isEmpty());
    QCOMPARE(chunks.first().snapshotId, qint64(8));
    const qint64 parked = asked.first().at(0).value<Store::InputRequestRecord>().taskId;
    for (const auto &args : submitted)
        if (args.at(1).toLongLong() != parked)
            engine.cancelTasks({args.at(1).toLongLong()});
}

void tst_Engine::answerInFlightWhenTaskEndedStaysAnswered()
{
    // Eddy killed after the server took an answer but before the ack was stored, while a poll
    // had already stored the task's end: on the next start the stored answer is resent, the task
    // has ended, and the question must stay answered with the engineer's answer on record (it
    // can never be asked again), not reopen with the answer erased.
    const QString db = m_dir.filePath(QStringLiteral("answer-in-flight.sqlite"));
    const QByteArray answer = R"({"action":"accept","content":{"action":"repair","smoothing_passes":3}})";
    qint64 taskId = 0;
    QString key;
    {
        Monitor::Engine engine;
        QVERIFY(engine.open(db));
        const qint64 sid = engine.addServer(m_server.url());
        QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
        QSignalSpy asked(&engine, &Monitor::Engine::inputRequested);
        QSignalSpy answered(&engine, &Monitor::Engine::inputAnswered);
        QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
        engine.callOnce(sid, QStringLiteral("run_cfd_case"),
                        R"({"reynolds":10,"grid":8,"max_iterations":100,"force_mesh_defect":true})", std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 60000);
        const auto request = asked.first().at(0).value<Store::InputRequestRecord>();
        taskId = request.taskId;
        key = request.key;
        engine.answerInput(taskId, key, answer);
        QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 1, 30000);
        QVERIFY(answered.first().at(2).toBool());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(engine.catalogue().task(taskId)->status, Store::TaskStatus::Completed);
    }
    {
        // Back to what the store held at the moment of the kill: the answer begun, not acked.
        Store::TaskStore store;
        QVERIFY(store.open(db));
        QVERIFY(store.database().exec(QStringLiteral("UPDATE input_requests SET state='answering', answered_at=NULL")));
        QCOMPARE(store.answeringInputRequests().size(), 1);
    }
    Monitor::Engine engine;
    QSignalSpy answered(&engine, &Monitor::Engine::inputAnswered);
    QVERIFY(engine.open(db));
    QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 1, 10000);
    QVERIFY2(answered.first().at(2).toBool(), qPrintable(answered.first().at(3).toString()));
    const auto rec = engine.catalogue().inputRequest(taskId, key);
    QVERIFY(rec);
    QCOMPARE(rec->state, Store::InputState::Answered);
    QVERIFY2(nlohmann::json::parse(rec->answer.toStdString()) == nlohmann::json::parse(answer.toStdString()),
             qPrintable(rec->answer));
    {
        Store::TaskStore store; // the same file, through a connection of the test's own
        QVERIFY(store.open(db));
        QVERIFY(store.answeringInputRequests().isEmpty());
    }
    QVERIFY(engine.catalogue().pendingInputRequests().isEmpty());
}

QTEST_GUILESS_MAIN(tst_Engine)
#include "tst_engine.moc"
