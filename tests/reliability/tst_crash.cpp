// Crash suites with the real eddyctl and the real eddy-cfd-server.
// Client crash: a 100-case sweep (half the cases stop at the mesh check and are answered from
// --answers) while eddyctl is killed with SIGKILL at random moments of submission, watching and
// answering, then restarted; at the end no handle is lost, no case ran twice on the server and
// every result is stored. Server crash: SIGKILL of the server mid-sweep and a restart on the same
// data folder and port; a running `eddyctl watch` finishes every case with no user action.
// More: EDDY_CRASH_TRIALS=N runs N such sweeps (default 1).
#include "tests/common/testserver.h"
#include "tests/reliability/ctlsupport.h"

#include <QDeadlineTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy::Test;

class tst_Crash : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void clientKilledDuringHundredCaseSweep();
    void serverKilledMidSweep();

private:
    QTemporaryDir m_dir;
    QString m_answers;
};

namespace {

// What the suites count: a case without a stored task handle is lost, a key the server ran more
// than once is a duplicate, a case whose task has no stored result is missing.
struct Tally
{
    qint64 cases = 0;
    qint64 lostHandles = 0;
    qint64 duplicates = 0;
    qint64 missingResults = 0;
    qint64 serverTasks = 0;
    qint64 unanswered = 0;
};

Tally tally(const QString &clientDb, const QString &serverDb)
{
    Tally t;
    t.cases = scalar(clientDb, QStringLiteral("SELECT COUNT(*) FROM cases"));
    t.lostHandles = scalar(clientDb, QStringLiteral(
        "SELECT COUNT(*) FROM cases c LEFT JOIN tasks t ON t.id = c.task_id "
        "WHERE c.state <> 'submitted' OR t.server_task_id IS NULL OR t.server_task_id = ''"));
    t.missingResults = scalar(clientDb, QStringLiteral(
        "SELECT COUNT(*) FROM cases c LEFT JOIN tasks t ON t.id = c.task_id "
        "WHERE t.status IS NOT 'completed' OR t.result = '' OR t.is_tool_error <> 0"));
    t.unanswered = scalar(clientDb, QStringLiteral(
        "SELECT COUNT(*) FROM input_requests WHERE state <> 'answered'"));
    t.serverTasks = scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks"));
    for (const QStringList &k : query(clientDb, QStringLiteral("SELECT idempotency_key FROM cases"))) {
        const qint64 n = scalar(serverDb, QStringLiteral(
            "SELECT COUNT(*) FROM tasks WHERE idempotency_key = '%1'").arg(k[0]));
        if (n > 1)
            t.duplicates += n - 1;
    }
    // A server task no journalled case asked for would be a duplicate too.
    t.duplicates += std::max<qint64>(0, t.serverTasks - t.cases - t.duplicates);
    return t;
}

QString describe(const Tally &t)
{
    return QStringLiteral("%1 cases: %2 lost handles, %3 duplicated server jobs, %4 missing "
                          "results, %5 server tasks, %6 unanswered questions")
        .arg(t.cases).arg(t.lostHandles).arg(t.duplicates).arg(t.missingResults)
        .arg(t.serverTasks).arg(t.unanswered);
}

} // namespace

void tst_Crash::initTestCase()
{
    QVERIFY2(QFile::exists(ctlBin()), qPrintable(ctlBin()));
    QVERIFY(m_dir.isValid());
    m_answers = m_dir.filePath(QStringLiteral("answers.json"));
    QVERIFY(writeFile(m_answers, R"({"action": "repair", "smoothing_passes": 3})"));
}

void tst_Crash::clientKilledDuringHundredCaseSweep()
{
    // One 100-case sweep by default; EDDY_CRASH_TRIALS=N runs N sweeps, each on a fresh server.
    const int sweeps = std::max(1, qEnvironmentVariableIntValue("EDDY_CRASH_TRIALS"));
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("client crash: %d sweep(s) of 100 cases, seed %u", sweeps, seed);
    QRandomGenerator rng(seed);
    const QString spec = m_dir.filePath(QStringLiteral("sweep100.json"));
    // 25 x 2 x 2 = 100 small cases; the 50 with a forced mesh defect ask a question.
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 32, "max_iterations": 40000, "tolerance": 1e-14},
        "vary": {"reynolds": {"range": {"from": 100, "to": 2500, "step": 100}},
                 "force_mesh_defect": {"list": [false, true]},
                 "grading": {"list": [1.0, 1.2]}},
        "concurrency": 8})"));
    int killedSubmitting = 0, killedWatching = 0, killedAnswering = 0, finishedEarly = 0;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
        TestServer server;
        QVERIFY2(server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                               QStringLiteral("--poll-interval-ms"), QStringLiteral("300")}),
                 qPrintable(server.errorString()));
        const QString serverDb = server.dataDir() + QStringLiteral("/tasks.sqlite");
        const QString db = m_dir.filePath(QStringLiteral("client-crash-%1.sqlite").arg(sweep));
        const QStringList submit{QStringLiteral("--db"), db, QStringLiteral("sweep"),
                                 QStringLiteral("submit"), server.url(), spec};
        const QStringList watch{QStringLiteral("--db"), db, QStringLiteral("watch"),
                                QStringLiteral("--until-done"), QStringLiteral("--answers"), m_answers};
        bool journalled = false;
        bool done = false;
        // Kill, restart, repeat until a run gets to the end on its own (at most 60 rounds).
        for (int round = 0; round < 60 && !done; ++round) {
            // Until the whole sweep is journalled the user re-runs submit; afterwards watch.
            const bool submitting = !journalled;
            QProcess p;
            p.start(ctlBin(), submitting ? submit : watch);
            QVERIFY(p.waitForStarted(30000));
            const int delayMs = submitting ? int(rng.bounded(400)) : 150 + int(rng.bounded(900));
            if (p.waitForFinished(delayMs)) {
                QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                         p.readAllStandardError().constData());
                ++finishedEarly;
                done = !submitting;
            } else {
                const bool questionsOpen = !submitting
                    && scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests "
                                                 "WHERE state <> 'answered'")) > 0;
                p.kill(); // SIGKILL
                QVERIFY(p.waitForFinished(30000));
                if (submitting)
                    ++killedSubmitting;
                else if (questionsOpen)
                    ++killedAnswering;
                else
                    ++killedWatching;
            }
            // The journal is all or nothing: a killed submit leaves 0 or 100 cases.
            const qint64 cases = std::max<qint64>(0, scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases")));
            QVERIFY2(cases == 0 || cases == 100,
                     qPrintable(QStringLiteral("round %1: %2 cases journalled").arg(round).arg(cases)));
            journalled = cases == 100;
        }
        if (!journalled) {
            const CtlRun r = runCtl(submit);
            QVERIFY2(r.code == 0, r.err.constData());
        }
        const CtlRun last = runCtl(watch, 600000);
        QVERIFY2(last.code == 0, last.err.right(3000).constData());

        const Tally t = tally(db, serverDb);
        qInfo("client crash, sweep %d: %s", sweep + 1, qPrintable(describe(t)));
        for (const QStringList &row : query(db, QStringLiteral(
                 "SELECT c.id, t.status, t.is_tool_error, length(t.result), t.status_message, t.error "
                 "FROM cases c LEFT JOIN tasks t ON t.id = c.task_id WHERE t.status IS NOT 'completed' "
                 "OR t.result = '' OR t.is_tool_error <> 0")))
            qWarning("case without a good result: %s", qPrintable(row.join(QStringLiteral(" | ")).left(400)));
        QCOMPARE(t.cases, qint64(100));
        QCOMPARE(t.lostHandles, qint64(0));
        QCOMPARE(t.duplicates, qint64(0));
        QCOMPARE(t.missingResults, qint64(0));
        QCOMPARE(t.serverTasks, qint64(100));
        QCOMPARE(t.unanswered, qint64(0));
        QVERIFY(scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests")) >= 50);
    }
    qInfo("client crash: killed %d submissions, %d watches, %d while questions were open; %d "
          "runs ended before their kill", killedSubmitting, killedWatching, killedAnswering,
          finishedEarly);
    // The kills really happened, also after submission.
    QVERIFY(killedSubmitting + killedWatching + killedAnswering >= 3 * sweeps);
    QVERIFY(killedWatching + killedAnswering > 0);
}

void tst_Crash::serverKilledMidSweep()
{
    const quint16 port = freePort();
    QVERIFY(port != 0);
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                           QStringLiteral("--poll-interval-ms"), QStringLiteral("200"),
                           QStringLiteral("--checkpoint-interval-ms"), QStringLiteral("500"),
                           QStringLiteral("--port"), QString::number(port)}),
             qPrintable(server.errorString()));
    QCOMPARE(server.port(), port);
    const QString serverDb = server.dataDir() + QStringLiteral("/tasks.sqlite");
    const QString db = m_dir.filePath(QStringLiteral("server-crash.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep8.json"));
    // Cases long enough (a tolerance they never reach) to be mid-run when the server dies.
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 64, "max_iterations": 20000, "tolerance": 1e-14},
        "vary": {"reynolds": {"list": [100, 400, 1000, 3200]},
                 "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 8})"));
    const CtlRun submitted = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"),
                                     QStringLiteral("submit"), server.url(), spec});
    QVERIFY2(submitted.code == 0, submitted.err.constData());

    QProcess watcher;
    watcher.start(ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"),
                             QStringLiteral("--until-done"), QStringLiteral("--answers"), m_answers});
    QVERIFY(watcher.waitForStarted(30000));

    // Kill once the sweep is under way: some case finished or iterating, others not done.
    const QString running = QStringLiteral(
        "SELECT COUNT(*) FROM tasks WHERE status = 'working' AND status_message LIKE 'iteration%'");
    const QString open = QStringLiteral(
        "SELECT COUNT(*) FROM tasks WHERE status NOT IN ('completed', 'failed', 'cancelled')");
    QTRY_VERIFY_WITH_TIMEOUT(scalar(db, running) > 0, 200000);
    const qint64 openAtKill = scalar(db, open);
    server.kill(); // SIGKILL
    qInfo("server crash: killed the server with %lld of 8 tasks open", openAtKill);
    QVERIFY(openAtKill > 0);
    // The outage lasts a while (the fault itself, not a synchronisation): the client keeps
    // polling a dead port meanwhile and must not give up or mark anything failed.
    QTest::qWait(2000); // pacing: the outage's length (see above)
    QCOMPARE(watcher.state(), QProcess::Running);
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QCOMPARE(server.port(), port);

    QVERIFY2(watcher.waitForFinished(600000), "eddyctl watch did not finish after the restart");
    QCOMPARE(watcher.exitStatus(), QProcess::NormalExit);
    QVERIFY2(watcher.exitCode() == 0, watcher.readAllStandardError().right(3000).constData());

    const Tally t = tally(db, serverDb);
    qInfo("server crash: %s", qPrintable(describe(t)));
    QCOMPARE(t.cases, qint64(8));
    QCOMPARE(t.lostHandles, qint64(0));
    QCOMPARE(t.duplicates, qint64(0));
    QCOMPARE(t.missingResults, qint64(0));
    QCOMPARE(t.unanswered, qint64(0));
    // The server really came back from a crash: its log shows the reload of unfinished tasks.
    QFile log(server.dataDir() + QStringLiteral("/server-stderr.log"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("to resume"));
}

QTEST_GUILESS_MAIN(tst_Crash)
#include "tst_crash.moc"
