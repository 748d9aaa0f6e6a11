// Two connections on one real database file, as two processes would hold them: leases (one
// holder at a time, renewal, takeover once expired, release, an acquire after a failed one) and
// the change feed (data_version moves only for the other connection's commits; the log names
// exactly the rows written, in commit order; samples by rowid; a pruned log is reported as a gap;
// a server's add, edit, removal and return are logged, and a poll stored after its removal leaves
// its task alone).
#include "app/store/sharing.h"
#include "app/store/taskstore.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace Eddy::Store;

class tst_Sharing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void oneHolderAtATime();
    void expiredLeaseIsTakenOver();
    void acquireAfterAFailedAcquire();
    void unheldLiveTasksAndAnswers();
    void feedSeesTheOtherConnection();
    void adoptSweepOnlyWithoutSession();
    void serverWritesAreLogged();

private:
    qint64 addTask(TaskStore &store, const QString &serverTaskId, TaskStatus status);

    QTemporaryDir m_dir;
    TaskStore m_a; // "process" A
    TaskStore m_b; // "process" B
    qint64 m_server = 0;
};

void tst_Sharing::init()
{
    QVERIFY(m_dir.isValid());
    const QString path
        = m_dir.filePath(QStringLiteral("%1.sqlite").arg(QTest::currentTestFunction()));
    QVERIFY2(m_a.open(path), qPrintable(m_a.lastError()));
    QVERIFY2(m_b.open(path), qPrintable(m_b.lastError()));
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:1/mcp");
    m_server = *m_a.addServer(s);
}

void tst_Sharing::cleanup()
{
    m_a.close();
    m_b.close();
}

qint64 tst_Sharing::addTask(TaskStore &store, const QString &serverTaskId, TaskStatus status)
{
    CaseRecord c;
    c.serverId = m_server;
    c.tool = QStringLiteral("run_cfd_case");
    c.arguments = QStringLiteral("{}");
    c.idempotencyKey = QStringLiteral("key-") + serverTaskId;
    if (!store.journalCase(c))
        return 0;
    TaskRecord t;
    t.serverId = m_server;
    t.tool = c.tool;
    t.serverTaskId = serverTaskId;
    t.status = status;
    if (isTerminal(status))
        t.result = QStringLiteral("{\"content\":[]}"); // fetched: nothing left to do
    return store.recordTaskForCase(c.id, t).value_or(0);
}

void tst_Sharing::oneHolderAtATime()
{
    Leases a(m_a.database(), QStringLiteral("A"));
    Leases b(m_b.database(), QStringLiteral("B"));
    const QString item = Leases::taskItem(7);
    QVERIFY(a.acquire(item, 1000, 5000));
    QVERIFY(!b.acquire(item, 1000, 5000));
    QVERIFY(!b.takeOver(item, 5999, 5000)); // still live at its last millisecond
    QVERIFY(a.acquire(item, 2000, 5000));   // the holder may renew
    QVERIFY(!a.takeOver(item, 2000, 5000)); // but not take over from itself
    QCOMPARE(a.holder(item, 2000).value_or(QString()), QStringLiteral("A"));
    QList<QString> held;
    QVERIFY(a.renewAll(3000, 5000, &held));
    QCOMPARE(held, QList<QString>{item});
    QVERIFY(!b.acquire(item, 7999, 5000)); // renewed to 8000
    QVERIFY(a.release(item));
    QVERIFY(b.acquire(item, 4000, 5000));
    QVERIFY(!a.acquire(item, 4000, 5000));
    QVERIFY(b.releaseAll());
    QVERIFY(!a.holder(item, 4000));
}

void tst_Sharing::expiredLeaseIsTakenOver()
{
    Leases a(m_a.database(), QStringLiteral("A"));
    Leases b(m_b.database(), QStringLiteral("B"));
    const QString item = Leases::answerItem(3, QStringLiteral("mesh_repair_1"));
    QVERIFY(a.acquire(item, 1000, 1500));
    // A was killed: nothing renews its lease.
    QVERIFY(!b.takeOver(item, 2500, 1500));
    QVERIFY(b.takeOver(item, 2501, 1500));
    QCOMPARE(b.holder(item, 2501).value_or(QString()), QStringLiteral("B"));
    QList<QString> held;
    QVERIFY(a.renewAll(2600, 1500, &held)); // A comes back: it holds nothing any more
    QVERIFY(held.isEmpty());
    QVERIFY(a.grant(item, 2600, 1500)); // granted outright (won in the same transaction)
    QCOMPARE(b.holder(item, 2600).value_or(QString()), QStringLiteral("A"));
}

// acquire() keeps its statement prepared between calls: one that failed (the other process held
// the write lock) must not leave its item bound for the next.
void tst_Sharing::acquireAfterAFailedAcquire()
{
    Leases b(m_b.database(), QStringLiteral("B"));
    QVERIFY(b.acquire(Leases::taskItem(1), 1000, 5000));
    sqlite3_busy_timeout(m_b.database().handle(), 0); // fail at once instead of after 10 s
    QVERIFY(m_a.database().begin());
    QVERIFY(!b.acquire(Leases::taskItem(2), 1000, 5000));
    m_a.database().rollback();
    QVERIFY(b.acquire(Leases::taskItem(3), 1000, 5000));
    QCOMPARE(b.holder(Leases::taskItem(3), 2000).value_or(QString()), QStringLiteral("B"));
    QVERIFY(!b.holder(Leases::taskItem(2), 2000));
    QVERIFY(b.acquire(Leases::taskItem(1), 2000, 5000)); // renewed through the same statement
    QList<QString> held;
    QVERIFY(b.renewAll(3000, 5000, &held));
    QCOMPARE(held.size(), 2);
}

void tst_Sharing::unheldLiveTasksAndAnswers()
{
    const qint64 live = addTask(m_a, QStringLiteral("s1"), TaskStatus::Working);
    const qint64 held = addTask(m_a, QStringLiteral("s2"), TaskStatus::InputRequired);
    const qint64 done = addTask(m_a, QStringLiteral("s3"), TaskStatus::Completed);
    QVERIFY(live && held && done);
    Leases a(m_a.database(), QStringLiteral("A"));
    Leases b(m_b.database(), QStringLiteral("B"));
    QVERIFY(a.acquire(Leases::taskItem(held), 1000, 5000));
    QVERIFY(a.acquire(Leases::taskItem(done), 1000, 5000));
    QCOMPARE(b.unheldLiveTasks(2000), QList<qint64>{live});
    QCOMPARE(b.unheldLiveTasks(6001), (QList<qint64>{live, held}));
    // A finished task's lease is dropped; a live one's stays.
    QVERIFY(b.pruneFinished());
    QVERIFY(!b.holder(Leases::taskItem(done), 2000));
    QVERIFY(b.holder(Leases::taskItem(held), 2000));

    // An answer being sent with nobody holding it (its sender went away) is found.
    QVERIFY(m_a.recordInputRequest(held, QStringLiteral("k"), QStringLiteral("{}")));
    QVERIFY(m_a.beginAnswer(held, QStringLiteral("k"), QStringLiteral("{\"action\":\"accept\"}")));
    QCOMPARE(b.unheldAnswers(2000).size(), 1);
    QVERIFY(a.grant(Leases::answerItem(held, QStringLiteral("k")), 2000, 5000));
    QVERIFY(b.unheldAnswers(3000).isEmpty());
    QCOMPARE(b.unheldAnswers(7001).size(), 1);
    QVERIFY(m_a.finishAnswer(held, QStringLiteral("k"), true));
    QVERIFY(b.unheldAnswers(7001).isEmpty());
    QVERIFY(b.pruneFinished());
    QVERIFY(!a.holder(Leases::answerItem(held, QStringLiteral("k")), 3000));
}

void tst_Sharing::feedSeesTheOtherConnection()
{
    ChangeFeed feed(m_b.database());
    QVERIFY(feed.start());
    QVERIFY(!feed.dataChanged());
    const auto nothing = feed.read();
    QVERIFY(nothing && nothing->isEmpty());

    // B's own writes do not move B's data_version (they are in the log all the same).
    addTask(m_b, QStringLiteral("own"), TaskStatus::Working);
    QVERIFY(!feed.dataChanged());
    QVERIFY(feed.read().has_value());

    const qint64 t = addTask(m_a, QStringLiteral("a1"), TaskStatus::Working);
    TaskRecord rec = *m_a.task(t);
    rec.statusMessage = QStringLiteral("iteration 10 of 100, residual 1e-2");
    ProgressSample s;
    s.taskId = t;
    s.series = QStringLiteral("residual");
    s.x = 10;
    s.y = 1e-2;
    QVERIFY(m_a.storeTaskUpdate(rec, true, {s}));
    QVERIFY(m_a.recordInputRequest(t, QStringLiteral("k"), QStringLiteral("{}")));
    QVERIFY(feed.dataChanged());
    QVERIFY(!feed.dataChanged());
    const auto changes = feed.read();
    QVERIFY(changes);
    QCOMPARE(changes->tasks, QList<qint64>{t}); // inserted and updated: listed once
    QCOMPARE(changes->cases.size(), 1);
    QCOMPARE(changes->inputs.size(), 1);
    QCOMPARE(changes->samples.size(), 1);
    QCOMPARE(changes->samples[0].y, 1e-2);
    QVERIFY(!changes->gap);
    QVERIFY(feed.read()->isEmpty()); // read once

    // A job adapter stored by A (eddyctl adapter set) reaches B as its server's id.
    QVERIFY2(m_a.setJobAdapter(m_server, QStringLiteral("{}")), qPrintable(m_a.lastError()));
    QVERIFY(feed.dataChanged());
    const auto adapter = feed.read();
    QVERIFY(adapter && !adapter->isEmpty());
    QCOMPARE(adapter->jobAdapters, QList<qint64>{m_server});
    QVERIFY(adapter->tasks.isEmpty());

    // The log is pruned before B reads it: B is told to read everything again.
    addTask(m_a, QStringLiteral("a2"), TaskStatus::Working);
    ChangeFeed pruner(m_a.database());
    QVERIFY(m_a.database().exec(QStringLiteral("UPDATE change_log SET at = at - 3600")));
    QVERIFY(pruner.prune(600));
    addTask(m_a, QStringLiteral("a3"), TaskStatus::Working);
    const auto after = feed.read();
    QVERIFY(after);
    QVERIFY(after->gap);
}

void tst_Sharing::adoptSweepOnlyWithoutSession()
{
    SweepRecord sweep;
    sweep.serverId = m_server;
    sweep.tool = QStringLiteral("run_cfd_case");
    sweep.spec = QStringLiteral("{}");
    CaseRecord c;
    c.tool = sweep.tool;
    c.arguments = QStringLiteral("{}");
    c.idempotencyKey = QStringLiteral("adopt-1");
    QList<CaseRecord> cases{c};
    QVERIFY(m_a.journalSweep(sweep, cases));
    TaskRecord t;
    t.serverId = m_server;
    t.sweepId = sweep.id;
    t.tool = sweep.tool;
    t.serverTaskId = QStringLiteral("adopted");
    QVERIFY(m_a.recordTaskForCase(cases[0].id, t));
    const qint64 mine = *m_b.createSession(QStringLiteral("mine"));
    const qint64 theirs = *m_b.createSession(QStringLiteral("theirs"));
    QVERIFY(adoptSweep(m_b.database(), sweep.id, mine));
    QVERIFY(adoptSweep(m_a.database(), sweep.id, theirs)); // too late: it has a session
    QCOMPARE(m_a.sweep(sweep.id)->sessionId.value_or(0), mine);
    TaskQuery q;
    q.sessionId = mine;
    QCOMPARE(m_a.tasks(q).size(), 1);
    q.sessionId = theirs;
    QCOMPARE(m_a.tasks(q).size(), 0);
}

void tst_Sharing::serverWritesAreLogged()
{
    const qint64 live = addTask(m_a, QStringLiteral("srv-live"), TaskStatus::Working);
    QVERIFY(live > 0);
    ChangeFeed feed(m_b.database());
    QVERIFY(feed.start()); // the server added in init() is not news

    // Discovery and tools a refresh caches are not logged; an edit is.
    QVERIFY(m_a.setServerTools(m_server, QStringLiteral("[]")));
    QVERIFY(feed.dataChanged());
    QVERIFY(feed.read()->servers.isEmpty());
    auto rec = m_a.server(m_server);
    rec->name = QStringLiteral("renamed");
    QVERIFY(m_a.updateServer(*rec));
    QCOMPARE(feed.read()->servers, QList<qint64>{m_server});

    // Process B polled the task before A removed its server, and stores the answer after.
    auto polled = m_b.task(live);
    QVERIFY(polled);
    QVERIFY(m_a.removeServer(m_server, TaskStore::Removal::KeepTasks));
    auto changes = feed.read();
    QCOMPARE(changes->servers, QList<qint64>{m_server});
    QVERIFY(changes->tasks.contains(live));
    polled->statusMessage = QStringLiteral("iteration 500");
    const qsizetype events = m_b.taskEvents(live).size();
    QVERIFY(m_b.storeTaskUpdate(*polled, true, {}));
    QCOMPARE(m_b.task(live)->status, TaskStatus::Lost);
    QVERIFY(m_b.task(live)->statusMessage.contains(QLatin1String("server was removed")));
    QCOMPARE(m_b.taskEvents(live).size(), events); // no event for what was not stored

    // Brought back, then deleted with its tasks: each logged once.
    QVERIFY(m_a.setServerRetired(m_server, false));
    QCOMPARE(feed.read()->servers, QList<qint64>{m_server});
    QVERIFY(m_a.removeServer(m_server, TaskStore::Removal::DeleteTasks));
    changes = feed.read();
    QCOMPARE(changes->servers, QList<qint64>{m_server});
    for (qint64 id : std::as_const(changes->tasks))
        QVERIFY(!m_b.task(id)); // unlinked before deletion: logged, but gone
    QVERIFY(m_b.storeTaskUpdate(*polled, true, {})); // a row that is gone: nothing written
    QVERIFY(!m_b.task(live));

    // A new server is news too.
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:2/mcp");
    const qint64 added = *m_a.addServer(s);
    QCOMPARE(feed.read()->servers, QList<qint64>{added});
}

QTEST_GUILESS_MAIN(tst_Sharing)
#include "tst_sharing.moc"
