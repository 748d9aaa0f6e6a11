// eddyctl end to end: the real eddyctl binary against the real eddy-cfd-server. A 12-case sweep
// with mesh questions answered from --answers and exported; the command-line contract (exit
// codes, no server task id ever printed); kill -9 at random moments during submission and
// watching, proving no case lost, none run twice on the server, every result stored; and task
// handles of a 2025-11-25 server exported and imported as generation "v1".
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::ctlBin;
using Eddy::Test::writeFile;

// A command here runs at most one short sweep: 90 s before it counts as hung.
Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 90000, 5000});
}

QList<QStringList> query(const QString &path, const QString &sql)
{
    return Eddy::Test::query(path, sql, 10000);
}

qint64 scalar(const QString &path, const QString &sql)
{
    return Eddy::Test::scalar(path, sql, 10000);
}

} // namespace

class tst_EddyCtl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sweepWithMeshQuestionsAnsweredAndExported();
    void callWaitCancelAttachAndExitCodes();
    void killNineAtRandomMoments();
    void legacyServersHandlesAreGenerationV1();

private:
    QString serverDb() const { return m_server.dataDir() + QStringLiteral("/tasks.sqlite"); }
    void checkNoServerIdIn(const QByteArray &text);

    TestServer m_server;
    QTemporaryDir m_dir;
    QByteArray m_allOutput;
};

void tst_EddyCtl::initTestCase()
{
    QVERIFY2(QFile::exists(ctlBin()), qPrintable(ctlBin()));
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("answers.json")), R"({"action": "repair", "smoothing_passes": 5})"));
}

void tst_EddyCtl::checkNoServerIdIn(const QByteArray &text)
{
    for (const QStringList &row : query(serverDb(), QStringLiteral("SELECT id FROM tasks")))
        QVERIFY2(!text.contains(row[0].toUtf8()), "a server task id was printed");
}

void tst_EddyCtl::sweepWithMeshQuestionsAnsweredAndExported()
{
    const QString db = m_dir.filePath(QStringLiteral("sweep.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep12.json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 300},
        "vary": {"reynolds": {"list": [100, 400, 1000]},
                 "force_mesh_defect": {"list": [false, true]},
                 "grading": {"range": {"from": 1, "to": 1.5, "step": 0.5}}},
        "mode": "grid", "concurrency": 4})"));
    const qint64 serverBefore = scalar(serverDb(), QStringLiteral("SELECT COUNT(*) FROM tasks"));

    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec,
                    QStringLiteral("--session"), QStringLiteral("cavity study")});
    m_allOutput += r.out + r.err;
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("12 case(s) submitted"), r.out.constData());

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                QStringLiteral("--answers"), m_dir.filePath(QStringLiteral("answers.json"))});
    m_allOutput += r.out + r.err;
    QVERIFY2(r.code == 0, r.err.constData());

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("tasks"), QStringLiteral("--json")});
    m_allOutput += r.out + r.err;
    QCOMPARE(r.code, 0);
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 12);
    for (const QJsonValue &v : tasks) {
        const QJsonObject t = v.toObject();
        for (const char *key : {"id", "status", "statusMessage", "tool", "arguments", "sweep", "session", "createdAt", "lastUpdatedAt"})
            QVERIFY2(t.contains(QLatin1String(key)), key);
        QCOMPARE(t.value("status").toString(), QStringLiteral("completed"));
        QCOMPARE(t.value("isError").toBool(), false);
        QCOMPARE(t.value("sweep").toInt(), 1);
        QCOMPARE(t.value("session").toString(), QStringLiteral("cavity study"));
        QCOMPARE(t.value("arguments").toObject().value("grid").toInt(), 16);
    }
    // Every mesh question was stored once and answered once, from the file.
    const qint64 answered = scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state='answered'"));
    QVERIFY2(answered >= 6, qPrintable(QString::number(answered)));
    QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state<>'answered'")), qint64(0));
    QVERIFY(scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE answer LIKE '%repair%'")) == answered);
    // Progress parsed from the real statusMessage, and events for every change.
    QVERIFY(scalar(db, QStringLiteral("SELECT COUNT(*) FROM task_events")) >= 24);
    // The server ran exactly 12 tasks for this sweep.
    QCOMPARE(scalar(serverDb(), QStringLiteral("SELECT COUNT(*) FROM tasks")) - serverBefore, qint64(12));

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 12);
    for (const QJsonValue &v : rows) {
        const QJsonObject sc = v.toObject().value("result").toObject().value("structuredContent").toObject();
        QCOMPARE(sc.value("iterations").toInt(), 300);
        QVERIFY(!v.toObject().value("arguments").toObject().contains("idempotency_key"));
    }
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 13);
    QVERIFY(lines[0].startsWith("case,task,outcome,is_error,status"));
    QVERIFY(lines[0].contains("reynolds") && lines[0].contains("final_residual"));
    checkNoServerIdIn(m_allOutput);
}

void tst_EddyCtl::callWaitCancelAttachAndExitCodes()
{
    const QString db = m_dir.filePath(QStringLiteral("call.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral("{\"reynolds\": 100, \"grid\": 16, \"max_iterations\": 200}"), QStringLiteral("--wait")});
    m_allOutput += r.out + r.err;
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject result = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(result.value("structuredContent").toObject().value("iterations").toInt(), 200);
    QCOMPARE(result.value("isError").toBool(), false);

    // Refused before sending, naming the argument: nothing reaches the server.
    const qint64 before = scalar(serverDb(), QStringLiteral("SELECT COUNT(*) FROM tasks"));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral("{\"reynolds\": 0, \"grid\": 16, \"viscosity\": 1}")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("reynolds") && r.err.contains("viscosity"), r.err.constData());
    QCOMPARE(scalar(serverDb(), QStringLiteral("SELECT COUNT(*) FROM tasks")), before);

    // Cancel a long case, then watch it end.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral("{\"reynolds\": 100, \"grid\": 128, \"max_iterations\": 10000000, \"tolerance\": 1e-30}")});
    m_allOutput += r.out + r.err;
    QVERIFY2(r.code == 0, r.err.constData());
    const int longTask = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QVERIFY(longTask > 0);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(longTask)});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("cancelled")});
    QCOMPARE(r.code, 0);
    const QJsonArray cancelled = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(cancelled[0].toObject().value("cancelRequested").toBool(), true);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QString::number(longTask)});
    QCOMPARE(r.code, 1); // no result: it was cancelled
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);

    // Sessions: attach earlier work by query.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("attach"), QStringLiteral("review"), QStringLiteral("tool=run_cfd_case"),
                QStringLiteral("status=completed"), QStringLiteral("grid=16")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("attached 1 task(s)"), r.out.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sessions")});
    QVERIFY(r.out.contains("review") && r.out.contains("(1 task(s))"));

    // Exit codes: usage 2, failure 1.
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("frobnicate")}).code, 2);
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("done")}).code, 2);
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url()}).code, 2);
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QStringLiteral("999")}).code, 1);
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("answer"), QStringLiteral("1"), QStringLiteral("k"), QStringLiteral("{}")}).code, 1);
    QCOMPARE(runCtl({QStringLiteral("--db"), db, QStringLiteral("discover"), QStringLiteral("http://127.0.0.1:1/mcp")}).code, 1);
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.sqlite"));
    QVERIFY(writeFile(damaged, QByteArray(8192, 'x')));
    r = runCtl({QStringLiteral("--db"), damaged, QStringLiteral("tasks")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("damaged"), r.err.constData());
    checkNoServerIdIn(m_allOutput);
}

void tst_EddyCtl::killNineAtRandomMoments()
{
    // 20 in the suite; more by hand (bench/store/CMakeLists.txt): EDDY_CRASH_TRIALS=200.
    const int trials = std::max(20, qEnvironmentVariableIntValue("EDDY_CRASH_TRIALS"));
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("crash trials seed %u", seed);
    QRandomGenerator rng(seed);
    const QString spec = m_dir.filePath(QStringLiteral("crash.json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case", "fixed": {"grid": 16, "max_iterations": 150},
        "vary": {"reynolds": {"list": [100, 200]}, "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 2})"));
    const QString answers = m_dir.filePath(QStringLiteral("answers.json"));
    // The kill moments are drawn from how long the two commands take on this machine (one trial
    // run to the end first): a fixed window never lands on an idle fast machine (the commands are
    // done in a few ms) and always lands on a loaded one.
    qint64 submitMs = 0, watchMs = 0;
    {
        const QString db = m_dir.filePath(QStringLiteral("crash-calibration.sqlite"));
        QElapsedTimer clock;
        clock.start();
        Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
        submitMs = clock.restart();
        QVERIFY2(r.code == 0, r.err.constData());
        r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                    QStringLiteral("--answers"), answers});
        watchMs = clock.elapsed();
        QVERIFY2(r.code == 0, r.err.constData());
    }
    // Process start-up is part of both; a window 25 % longer than the run leaves some trials unkilled.
    const auto killWindow = [](qint64 ms) { return quint32(std::max<qint64>(20, ms * 5 / 4)); };
    qInfo("calibration: submit %lld ms, watch %lld ms", submitMs, watchMs);
    int killedSubmitting = 0, killedWatching = 0;
    for (int trial = 0; trial < trials; ++trial) {
        const QString db = m_dir.filePath(QStringLiteral("crash-%1.sqlite").arg(trial));
        const QStringList submit{QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec};
        const QStringList watch{QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                                QStringLiteral("--answers"), answers};
        {
            QProcess p;
            p.start(ctlBin(), submit);
            QVERIFY(p.waitForStarted(10000));
            if (!p.waitForFinished(int(rng.bounded(killWindow(submitMs))))) {
                p.kill(); // SIGKILL
                ++killedSubmitting;
            }
            p.waitForFinished(10000);
        }
        {
            QProcess p;
            p.start(ctlBin(), watch);
            QVERIFY(p.waitForStarted(10000));
            if (!p.waitForFinished(int(rng.bounded(killWindow(watchMs))))) {
                p.kill();
                ++killedWatching;
            }
            p.waitForFinished(10000);
        }
        // Killed before the journal was written: nothing was sent either; submitting again is
        // what the user does when the command did not report success.
        if (scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases")) <= 0) {
            const Run r = runCtl(submit);
            QVERIFY2(r.code == 0, r.err.constData());
        }
        const Run done = runCtl(watch);
        QVERIFY2(done.code == 0, (QByteArray("trial ") + QByteArray::number(trial) + ": " + done.err).constData());
        m_allOutput += done.out + done.err;

        // No case lost: 4 cases, each with a task holding a stored result.
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases")), qint64(4));
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE state='submitted' AND task_id IS NOT NULL")), qint64(4));
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='completed' AND result<>''")), qint64(4));
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(4));
        // None run twice: every journalled key made exactly one task on the server.
        const auto keys = query(db, QStringLiteral("SELECT idempotency_key FROM cases"));
        for (const QStringList &k : keys) {
            const qint64 n = scalar(serverDb(), QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(k[0]));
            QVERIFY2(n == 1, qPrintable(QStringLiteral("trial %1: key ran %2 times").arg(trial).arg(n)));
        }
        // The mesh questions were answered exactly once each.
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state<>'answered'")), qint64(0));
    }
    qInfo("killed %d submissions and %d watches out of %d trials", killedSubmitting, killedWatching, trials);
    QVERIFY(killedSubmitting + killedWatching >= trials / 2); // the kills really happened
    checkNoServerIdIn(m_allOutput);
}

// A server Eddy detected as 2025-11-25 (the era the store keeps after detection, "legacy"): its
// task handles export as generation "v1", a "v1" handle of it imports, a "v2" one is refused.
void tst_EddyCtl::legacyServersHandlesAreGenerationV1()
{
    const QString db = m_dir.filePath(QStringLiteral("legacy.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral("{\"reynolds\": 100, \"grid\": 8, \"max_iterations\": 50}"), QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(query(db, QStringLiteral("SELECT era FROM servers")), (QList<QStringList>{{QStringLiteral("modern")}}));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("handles"), QStringLiteral("export"), QStringLiteral("--stdout")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("\"generation\":\"v2\""), r.out.constData());

    // The same server as a 2025-11-25 one (as detection stores it).
    sqlite3 *handle = nullptr;
    QCOMPARE(sqlite3_open(QFile::encodeName(db).constData(), &handle), SQLITE_OK);
    QCOMPARE(sqlite3_exec(handle, "UPDATE servers SET era = 'legacy'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(handle);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("handles"), QStringLiteral("export"), QStringLiteral("--stdout")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject exported = QJsonDocument::fromJson(r.out.trimmed().split('\n').first()).object();
    QCOMPARE(exported.value(QStringLiteral("generation")).toString(), QStringLiteral("v1"));

    auto importLine = [&](const char *generation, const char *taskId) {
        QJsonObject ref = exported;
        ref.insert(QStringLiteral("generation"), QLatin1String(generation));
        ref.insert(QStringLiteral("taskId"), QLatin1String(taskId));
        const QString file = m_dir.filePath(QStringLiteral("handle-%1.jsonl").arg(QLatin1String(generation)));
        writeFile(file, QJsonDocument(ref).toJson(QJsonDocument::Compact) + '\n');
        return runCtl({QStringLiteral("--db"), db, QStringLiteral("handles"), QStringLiteral("import"), file});
    };
    r = importLine("v1", "handed-over-legacy-task");
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE server_task_id = 'handed-over-legacy-task'")), 1);
    r = importLine("v2", "handed-over-modern-task");
    QVERIFY2(r.code != 0, (r.out + r.err).constData());
    QVERIFY2((r.out + r.err).contains("generation v2 does not match"), (r.out + r.err).constData());
    QVERIFY2((r.out + r.err).contains("2025-11-25"), (r.out + r.err).constData());
}

QTEST_GUILESS_MAIN(tst_EddyCtl)
#include "tst_eddyctl.moc"
