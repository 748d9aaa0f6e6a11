// eddy-cfd-server --backend slurm end to end: a private single-node Slurm (slurm-cluster.sh, from
// Debian's packages, nothing in /etc), the real server submitting eddy-cfd-solve batch jobs, and
// the real eddyctl as the user. A 12-case sweep with mesh questions answered across job
// boundaries; cancel → scancel; a server killed with -9 between sbatch and storing the job id
// (no second job); and jobs Slurm forgets, settled from the case folder and the job completion log.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::writeFile;

Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 120000, 5000});
}

using Eddy::Test::Slurm::script;
using Eddy::Test::Slurm::tool;
using Eddy::Test::Slurm::waitForJobState;

} // namespace

class tst_SlurmBackend : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void refusesToStartWithoutSlurm();
    void sweepWithMeshQuestionsAcrossJobs();
    void cancelScancelsTheJob();
    void cancelAfterTheJobFinishedKeepsTheResult();
    void killNineBetweenSbatchAndStoreSubmitsOnce();
    void killNineThenSlurmSilentAtRestartFindsTheJobLater();
    void requeueResumesFromTheCheckpoint();
    void unknownPartitionFailsTheTaskWithSlurmsReason();
    void jobsSlurmForgotAreSettledFromEvidence();

private:
    QString serverDb() const { return m_server.dataDir() + QStringLiteral("/tasks.sqlite"); }
    QStringList serverArgs() const;
    QByteArray jobcomp() const;
    int eddyJobsInJobcomp() const { return int(jobcomp().count("Name=eddy-")); }
    QString caseFolder(const QString &taskId) const;
    QString onlyNewTaskId(const QStringList &before) const;
    QStringList serverTaskIds() const;
    bool setPartitionState(const char *state);
    // Slurm jobs of Eddy's in the completion log beyond `before`, once the count has moved (or
    // 20 s have passed) and a second more: a second job for one case would show here.
    int jobsAddedSince(int before);
    // Writes an executable sbatch into bin that submits through the real one, answers, then
    // kills its caller (the server) with SIGKILL while `armed` exists; it removes `armed`.
    static bool writeCrashingSbatch(const QString &bin, const QString &armed);

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    TestServer m_server;
    bool m_started = false;
};

QStringList tst_SlurmBackend::serverArgs() const
{
    return {QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--case-dir"),
            m_dir.filePath(QStringLiteral("cases")), QStringLiteral("--slurm-refresh-ms"),
            QStringLiteral("300"), QStringLiteral("--poll-interval-ms"), QStringLiteral("250"),
            QStringLiteral("--checkpoint-interval-ms"), QStringLiteral("200")};
}

void tst_SlurmBackend::initTestCase()
{
    QVERIFY(m_cluster.isValid() && m_dir.isValid());
    int code = -1;
    const QByteArray out = Eddy::Test::Slurm::startCluster(m_cluster.path(), code);
    m_started = true;
    QVERIFY2(code == 0, out.constData());
    QVERIFY2(m_server.start(serverArgs()), qPrintable(m_server.errorString()));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("answers.json")),
                      R"({"action": "repair", "smoothing_passes": 5})"));
}

void tst_SlurmBackend::cleanupTestCase()
{
    m_server.terminate();
    if (m_started)
        Eddy::Test::Slurm::stopCluster(m_cluster.path());
}

void tst_SlurmBackend::refusesToStartWithoutSlurm()
{
    const QByteArray conf = qgetenv("SLURM_CONF");
    // A slurm.conf Slurm cannot use (a missing file makes scontrol retry for its time-out).
    const QString broken = m_dir.filePath(QStringLiteral("broken-slurm.conf"));
    QVERIFY(writeFile(broken, "# not a Slurm configuration\n"));
    qputenv("SLURM_CONF", broken.toUtf8());
    TestServer server;
    const bool started = server.start(serverArgs());
    qputenv("SLURM_CONF", conf);
    QVERIFY(!started);
    QVERIFY2(server.errorString().contains(QLatin1String("cannot reach Slurm"))
                 && server.errorString().contains(QLatin1String("Unable to process configuration file"))
                 && server.errorString().contains(QLatin1String("SLURM_CONF")),
             qPrintable(server.errorString()));
}

QByteArray tst_SlurmBackend::jobcomp() const
{
    QFile f(m_cluster.path() + QStringLiteral("/jobcomp.log"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString tst_SlurmBackend::caseFolder(const QString &taskId) const
{
    return m_dir.filePath(QStringLiteral("cases/") + Eddy::Test::Slurm::caseKey(taskId));
}

QStringList tst_SlurmBackend::serverTaskIds() const
{
    QStringList ids;
    for (const QStringList &row : Eddy::Test::query(serverDb(), QStringLiteral("SELECT id FROM tasks"), 10000))
        ids << row[0];
    return ids;
}

QString tst_SlurmBackend::onlyNewTaskId(const QStringList &before) const
{
    QStringList fresh;
    for (const QString &id : serverTaskIds())
        if (!before.contains(id))
            fresh << id;
    return fresh.size() == 1 ? fresh[0] : QString();
}

void tst_SlurmBackend::sweepWithMeshQuestionsAcrossJobs()
{
    const QString db = m_dir.filePath(QStringLiteral("sweep.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep12.json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 300},
        "vary": {"reynolds": {"list": [100, 400, 1000]},
                 "force_mesh_defect": {"list": [false, true]},
                 "grading": {"range": {"from": 1, "to": 1.5, "step": 0.5}}},
        "mode": "grid", "concurrency": 12})"));
    const int jobsBefore = eddyJobsInJobcomp();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("12 case(s) submitted"), r.out.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                QStringLiteral("--answers"), m_dir.filePath(QStringLiteral("answers.json"))});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 12);
    for (const QJsonValue &v : rows) {
        const QJsonObject result = v.toObject().value("result").toObject();
        QCOMPARE(result.value("isError").toBool(), false);
        QCOMPARE(result.value("structuredContent").toObject().value("iterations").toInt(), 300);
    }
    // Six cases asked about their mesh (the question crossed a job boundary: the first job ended
    // with it, the answer went into a second job), and every answer was a repair.
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state='answered'"), 10000),
             qint64(6));
    // The client saw the Slurm job's own progress lines, relayed from the case folder.
    QVERIFY(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM task_events WHERE status_message LIKE '%iteration%'"), 10000) > 0);
    // 12 first jobs + 6 after the repair, each job exactly once.
    QTRY_VERIFY_WITH_TIMEOUT(eddyJobsInJobcomp() - jobsBefore >= 18, 30000);
    QCOMPARE(eddyJobsInJobcomp() - jobsBefore, 18);
}

void tst_SlurmBackend::cancelScancelsTheJob()
{
    const QString db = m_dir.filePath(QStringLiteral("cancel.sqlite"));
    const QStringList before = serverTaskIds();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 64, "max_iterations": 10000000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const int task = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    const QString id = onlyNewTaskId(before);
    QVERIFY(!id.isEmpty());
    const QString key = QFileInfo(caseFolder(id)).fileName();
    QVERIFY2(waitForJobState(key, "RUNNING"), "the job never ran");
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(task)});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("cancelled")});
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
    // scancel reached Slurm: the job ends CANCELLED, it does not run on.
    QVERIFY2(waitForJobState(key, "CANCELLED") || jobcomp().contains("Name=eddy-" + key.left(12).toLatin1() + " JobState=CANCELLED"),
             jobcomp().constData());
}

void tst_SlurmBackend::cancelAfterTheJobFinishedKeepsTheResult()
{
    // A server that looks at Slurm only every 10 minutes: the job ends long before it notices.
    QTemporaryDir data;
    TestServer server;
    QStringList args = serverArgs();
    args[args.indexOf(QStringLiteral("--slurm-refresh-ms")) + 1] = QStringLiteral("600000");
    QVERIFY2(server.start(args, data.path()), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("late-cancel.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 200})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QList<QStringList> ids = Eddy::Test::query(data.path() + QStringLiteral("/tasks.sqlite"), QStringLiteral("SELECT id FROM tasks"), 10000);
    QCOMPARE(ids.size(), 1);
    const QString result = caseFolder(ids[0][0]) + QStringLiteral("/result.json");
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(result), "the job did not finish", 60000);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QStringLiteral("1")});
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks")});
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 1);
    QCOMPARE(tasks[0].toObject().value("status").toString(), QStringLiteral("completed"));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value("structuredContent").toObject().value("iterations").toInt(), 200);
}

namespace {

// The path of a program on PATH, or empty.
QByteArray whichTool(const char *name)
{
    return tool(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("command -v ") + QLatin1String(name)})
        .trimmed();
}

bool writeExecutable(const QString &path, const QByteArray &script)
{
    return writeFile(path, script)
           && QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

} // namespace

bool tst_SlurmBackend::writeCrashingSbatch(const QString &bin, const QString &armed)
{
    const QByteArray realSbatch = whichTool("sbatch");
    return !realSbatch.isEmpty()
           && writeExecutable(bin + QStringLiteral("/sbatch"),
                              "#!/bin/sh\nout=$(" + realSbatch + " \"$@\") || exit $?\necho \"$out\"\n"
                              "if [ -f '" + armed.toUtf8() + "' ]; then rm -f '" + armed.toUtf8() + "'; kill -9 $PPID; fi\n");
}

bool tst_SlurmBackend::setPartitionState(const char *state)
{
    int code = -1;
    tool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("PartitionName=eddy"),
                                      QStringLiteral("State=") + QLatin1String(state)}, &code);
    return code == 0;
}

int tst_SlurmBackend::jobsAddedSince(int before)
{
    // Not QTRY_VERIFY: this returns a count, and the caller compares it.
    (void)QTest::qWaitFor([&] { return eddyJobsInJobcomp() != before; }, 30000);
    QTest::qWait(1000); // negative check: no further job turns up late
    return eddyJobsInJobcomp() - before;
}

void tst_SlurmBackend::killNineBetweenSbatchAndStoreSubmitsOnce()
{
    // An sbatch in front of the real one that submits, answers, then kills its caller (the server)
    // with SIGKILL before the server can store the job id. One-shot: it disarms itself.
    const QString bin = m_dir.filePath(QStringLiteral("crashbin"));
    QVERIFY(QDir().mkpath(bin));
    const QString armed = m_dir.filePath(QStringLiteral("crash-armed"));
    QVERIFY(writeFile(armed, "1"));
    QVERIFY(writeCrashingSbatch(bin, armed));
    const QByteArray path = qgetenv("PATH");
    // The same port after every restart: eddyctl's database remembers the server's URL.
    const QString port = QString::number(m_server.port());
    QVERIFY(m_server.terminate());
    qputenv("PATH", bin.toUtf8() + ':' + path);
    QVERIFY2(m_server.start(serverArgs() << QStringLiteral("--port") << port, m_server.dataDir()),
             qPrintable(m_server.errorString()));
    qputenv("PATH", path);

    const int jobsBefore = eddyJobsInJobcomp();
    const QString db = m_dir.filePath(QStringLiteral("crash.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 2000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    QTRY_VERIFY2_WITH_TIMEOUT(!m_server.isRunning(), "the sbatch wrapper did not kill the server", 30000);
    QVERIFY(!QFile::exists(armed));
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("completed")});
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
    // Exactly one job ran for the case.
    QCOMPARE(jobsAddedSince(jobsBefore), 1);
    QVERIFY2(m_server.standardError().contains("by its comment after a restart"), m_server.standardError().constData());
}

void tst_SlurmBackend::killNineThenSlurmSilentAtRestartFindsTheJobLater()
{
    // As above, the server dies between sbatch and storing the job id; at its next start squeue
    // fails for a while (slurmctld busy, slurmrestd down), so the job cannot be looked for then.
    // Once Slurm answers, the job is found by its comment: not failed as lost, not resubmitted.
    // It waits in a down partition meanwhile, so only the comment can tell it is there.
    const QString bin = m_dir.filePath(QStringLiteral("silentbin"));
    QVERIFY(QDir().mkpath(bin));
    const QString armed = m_dir.filePath(QStringLiteral("crash-armed-2"));
    const QString silent = m_dir.filePath(QStringLiteral("squeue-silent"));
    QVERIFY(writeFile(armed, "1"));
    QVERIFY(writeCrashingSbatch(bin, armed));
    const QByteArray realSqueue = whichTool("squeue");
    QVERIFY(!realSqueue.isEmpty());
    QVERIFY(writeExecutable(bin + QStringLiteral("/squeue"),
                            "#!/bin/sh\nif [ -f '" + silent.toUtf8() + "' ]; then\n"
                            "  echo 'squeue: error: Unable to contact slurm controller (connect failure)' >&2; exit 1\nfi\n"
                            "exec " + realSqueue + " \"$@\"\n"));
    const QByteArray path = qgetenv("PATH");
    const QString port = QString::number(m_server.port());
    QVERIFY(m_server.terminate());
    QVERIFY(setPartitionState("DOWN"));
    qputenv("PATH", bin.toUtf8() + ':' + path);
    QVERIFY2(m_server.start(serverArgs() << QStringLiteral("--port") << port, m_server.dataDir()),
             qPrintable(m_server.errorString()));
    qputenv("PATH", path);

    const int jobsBefore = eddyJobsInJobcomp();
    const QString db = m_dir.filePath(QStringLiteral("silent.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 400, "grid": 16, "max_iterations": 300})")});
    QVERIFY2(r.code == 0, r.err.constData());
    QTRY_VERIFY2_WITH_TIMEOUT(!m_server.isRunning(), "the sbatch wrapper did not kill the server", 30000);
    QVERIFY(writeFile(silent, "1"));
    qputenv("PATH", bin.toUtf8() + ':' + path);
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    qputenv("PATH", path);
    // Slurm does not answer: the task waits, and three refreshes later says so.
    QTRY_VERIFY2_WITH_TIMEOUT(m_server.standardError().contains("Slurm does not answer"),
                              m_server.standardError().right(2000).constData(), 30000);
    QVERIFY(QFile::remove(silent));
    // As before: the test goes on if this line never comes; the checks below tell what went wrong.
    (void)QTest::qWaitFor([&] { return m_server.standardError().contains("by its comment once Slurm answered"); }, 30000);
    QVERIFY(setPartitionState("UP"));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("completed")});
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
    QCOMPARE(jobsAddedSince(jobsBefore), 1);
    QVERIFY2(m_server.standardError().contains("by its comment once Slurm answered"), m_server.standardError().right(2000).constData());
    // The server goes on without the wrappers on its PATH.
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
}

void tst_SlurmBackend::requeueResumesFromTheCheckpoint()
{
    const QString db = m_dir.filePath(QStringLiteral("requeue.sqlite"));
    const QStringList before = serverTaskIds();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 128, "max_iterations": 12000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QString id = onlyNewTaskId(before);
    QVERIFY(!id.isEmpty());
    const QString folder = caseFolder(id);
    const QString key = QFileInfo(folder).fileName();
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    QVERIFY2(waitForJobState(key, "RUNNING"), "the job never ran");
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(folder + QStringLiteral("/checkpoint.bin")), "no checkpoint", 30000);
    const QByteArray jobId = Eddy::Test::Slurm::jobIdOf(key);
    QVERIFY(!jobId.isEmpty());
    // What a node failure does to a --requeue job: SIGTERM, back to the queue, run again.
    int code = -1;
    tool(QStringLiteral("scontrol"), {QStringLiteral("requeue"), QString::fromLatin1(jobId)}, &code);
    QCOMPARE(code, 0);
    QVERIFY(waitForJobState(key, "PENDING"));
    QTest::qWait(1500); // pacing: a few refreshes and polls must see it waiting (the case under test)
    // Slurm holds a requeued job back for a while (BeginTime); let it start now.
    tool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("JobId=") + QString::fromLatin1(jobId),
                                      QStringLiteral("StartTime=now")}, &code);
    QCOMPARE(code, 0);
    QVERIFY(watch.waitForFinished(120000));
    QCOMPARE(watch.exitCode(), 0);
    QVERIFY(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM task_events WHERE status_message LIKE 'requeued by Slurm%'"), 10000) > 0);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value("structuredContent").toObject().value("iterations").toInt(), 12000);
    QFile progress(folder + QStringLiteral("/progress.log"));
    QVERIFY(progress.open(QIODevice::ReadOnly));
    QVERIFY(progress.readAll().contains("resumed from its checkpoint at iteration"));
}

void tst_SlurmBackend::unknownPartitionFailsTheTaskWithSlurmsReason()
{
    TestServer server;
    QVERIFY2(server.start(serverArgs() << QStringLiteral("--slurm-partition") << QStringLiteral("nosuchpartition")),
             qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("partition.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 100})")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks")});
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 1);
    const QJsonObject task = tasks[0].toObject();
    QCOMPARE(task.value("status").toString(), QStringLiteral("failed"));
    const QString message = task.value("statusMessage").toString();
    QVERIFY2(message.contains(QLatin1String("not submitted to Slurm")) && message.contains(QLatin1String("invalid partition"), Qt::CaseInsensitive)
                 && message.contains(QLatin1String("--slurm-partition")),
             qPrintable(message));
}

void tst_SlurmBackend::jobsSlurmForgotAreSettledFromEvidence()
{
    // Two cases run while the server is down; then slurmctld loses its job records (restarted
    // clean), so squeue lists neither job when the server comes back. The partition is down while
    // they are submitted: they wait in the queue until the server has stopped.
    QVERIFY(setPartitionState("DOWN"));
    const QString db = m_dir.filePath(QStringLiteral("forgot.sqlite"));
    const QStringList before = serverTaskIds();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                    QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 400})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QString withResult = onlyNewTaskId(before);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral(R"({"reynolds": 400, "grid": 16, "max_iterations": 400})")});
    QVERIFY2(r.code == 0, r.err.constData());
    QStringList both = before;
    both << withResult;
    const QString withoutResult = onlyNewTaskId(both);
    QVERIFY(!withResult.isEmpty() && !withoutResult.isEmpty());
    const QString stored = QStringLiteral("SELECT COUNT(*) FROM slurm_jobs WHERE job_id<>'' AND task_id IN ('%1','%2')").arg(withResult, withoutResult);
    QTRY_VERIFY_WITH_TIMEOUT(Eddy::Test::scalar(serverDb(), stored, 10000) >= 2, 30000);
    QCOMPARE(Eddy::Test::scalar(serverDb(), stored, 10000), qint64(2));
    QVERIFY(m_server.terminate());
    QVERIFY(setPartitionState("UP"));
    const QString a = QFileInfo(caseFolder(withResult)).fileName();
    const QString b = QFileInfo(caseFolder(withoutResult)).fileName();
    // As before: the test goes on if the jobs never end; the checks below tell what went wrong.
    (void)QTest::qWaitFor([&] {
        return jobcomp().contains("Name=eddy-" + a.left(12).toLatin1()) && jobcomp().contains("Name=eddy-" + b.left(12).toLatin1());
    }, 60000);
    QVERIFY2(QFile::exists(caseFolder(withoutResult) + QStringLiteral("/result.json")), "the job left no result");
    // The second case's result is lost (a shared folder that did not sync, a user who cleaned up).
    QVERIFY(QFile::remove(caseFolder(withoutResult) + QStringLiteral("/result.json")));
    int code = -1;
    tool(script(), {QStringLiteral("restart-controller-clean"), m_cluster.path()}, &code);
    QCOMPARE(code, 0);
    const QByteArray listed = tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-o"), QStringLiteral("%j")});
    QVERIFY2(!listed.contains(a.left(12).toLatin1()) && !listed.contains(b.left(12).toLatin1()), listed.constData());

    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks")});
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 2);
    QJsonObject first, second;
    for (const QJsonValue &v : tasks)
        (v.toObject().value("arguments").toObject().value("reynolds").toInt() == 100 ? first : second) = v.toObject();
    // The folder's result is evidence: completed with its numbers.
    QCOMPARE(first.value("status").toString(), QStringLiteral("completed"));
    // No result: the completion log tells how the job ended, and the task says why it failed.
    QCOMPARE(second.value("status").toString(), QStringLiteral("failed"));
    const QString message = second.value("statusMessage").toString();
    QVERIFY2(message.contains(QLatin1String("without a result")) && message.contains(QLatin1String("job completion log")),
             qPrintable(message));
}

QTEST_GUILESS_MAIN(tst_SlurmBackend)
#include "tst_slurmbackend.moc"
