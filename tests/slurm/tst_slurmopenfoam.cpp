// run_openfoam_case through --backend slurm end to end: a private single-node Slurm
// (slurm-cluster.sh), the real server submitting each case as a batch job that runs real OpenFOAM
// (Debian: openfoam, openfoam-examples), and the real eddyctl as the engineer. A 6-case sweep over
// nu and the number of processors, two of whose meshes fail checkMesh: the questions cross the
// job boundary, one is answered with a mesh change (a second job), one with abort. A running
// 2-processor case is cancelled: its job ends and no OpenFOAM process of it is left. Another,
// requeued by Slurm mid-run, resumes from its latest written time.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::Slurm::tool;

Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 120000, 5000});
}

const QString kNu = QStringLiteral("constant/transportProperties:nu");
const QString kVertices = QStringLiteral("system/blockMeshDict:vertices");
const QString kBadVertices
    = QStringLiteral("((0 0 0) (1 0 0) (9 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (9 1 0.1) (0 1 0.1))");
const QString kGoodVertices
    = QStringLiteral("((0 0 0) (1 0 0) (1 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (1 1 0.1) (0 1 0.1))");

// Three entry sets (two nu, one with the vertex that fails checkMesh) times 1 and 2 processors.
QByteArray sweepSpec()
{
    const QJsonArray sets{QJsonObject{{kNu, 0.01}}, QJsonObject{{kNu, 0.02}},
                          QJsonObject{{kNu, 0.01}, {kVertices, kBadVertices}}};
    const QJsonObject spec{
        {QStringLiteral("tool"), QStringLiteral("run_openfoam_case")},
        {QStringLiteral("fixed"), QJsonObject{{QStringLiteral("template"), QStringLiteral("cavity")},
                                              {QStringLiteral("end_time"), 0.1}}},
        {QStringLiteral("vary"),
         QJsonObject{{QStringLiteral("set"), QJsonObject{{QStringLiteral("list"), sets}}},
                     {QStringLiteral("processors"), QJsonObject{{QStringLiteral("list"), QJsonArray{1, 2}}}}}},
        {QStringLiteral("mode"), QStringLiteral("grid")},
        {QStringLiteral("concurrency"), 6}};
    return QJsonDocument(spec).toJson();
}

QString changeMesh()
{
    const QJsonObject mesh{{kVertices, kGoodVertices}};
    const QJsonObject values{{QStringLiteral("action"), QStringLiteral("change_mesh")},
                             {QStringLiteral("mesh_set"), QString::fromUtf8(QJsonDocument(mesh).toJson(QJsonDocument::Compact))}};
    return QString::fromUtf8(QJsonDocument(values).toJson(QJsonDocument::Compact));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Processes whose environment carries the case's marker (EDDY_FOAM_RUN=<case key>, set on every
// OpenFOAM step the server or its job starts), as "PID NAME".
QStringList markedProcesses(const QString &caseKey)
{
    const QByteArray entry = "EDDY_FOAM_RUN=" + caseKey.toLatin1();
    QStringList found;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        if (pid.toInt() <= 0)
            continue;
        const QList<QByteArray> env = readAll(QStringLiteral("/proc/%1/environ").arg(pid)).split('\0');
        if (env.contains(entry))
            found << pid + QLatin1Char(' ') + QString::fromLatin1(readAll(QStringLiteral("/proc/%1/comm").arg(pid)).trimmed());
    }
    return found;
}

// Waits until the database's task events hold a status message matching like (SQL LIKE).
bool waitForMessage(const QString &db, const QString &like, int ms)
{
    QDeadlineTimer deadline(ms);
    const QString sql = QStringLiteral("SELECT COUNT(*) FROM task_events WHERE status_message LIKE '%1'").arg(like);
    while (!deadline.hasExpired()) {
        if (QFile::exists(db) && Eddy::Test::scalar(db, sql, 10000) > 0)
            return true;
        QTest::qWait(200); // the poll step of a condition wait: each try opens the database
    }
    return false;
}

} // namespace

class tst_SlurmOpenFoam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void sweepWithMeshQuestionsAcrossJobs();
    void cancelEndsTheJobAndEveryOpenFoamProcess();
    void requeueResumesFromTheLatestTime();

private:
    QStringList serverTaskIds() const;
    int eddyJobsInJobcomp() const
    {
        return int(readAll(m_cluster.path() + QStringLiteral("/jobcomp.log")).count("Name=eddy-"));
    }

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    TestServer m_server;
    bool m_started = false;
};

void tst_SlurmOpenFoam::initTestCase()
{
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty(),
             "OpenFOAM is not installed; this test needs it: apt-get install openfoam openfoam-examples");
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    QVERIFY(m_cluster.isValid() && m_dir.isValid());
    int code = -1;
    const QByteArray out = Eddy::Test::Slurm::startCluster(m_cluster.path(), code);
    m_started = true;
    QVERIFY2(code == 0, out.constData());
    QVERIFY2(m_server.start({QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--case-dir"),
                             m_dir.filePath(QStringLiteral("cases")), QStringLiteral("--slurm-refresh-ms"),
                             QStringLiteral("300"), QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
}

void tst_SlurmOpenFoam::cleanupTestCase()
{
    m_server.terminate();
    if (m_started)
        Eddy::Test::Slurm::stopCluster(m_cluster.path());
}

QStringList tst_SlurmOpenFoam::serverTaskIds() const
{
    QStringList ids;
    for (const QStringList &row : Eddy::Test::query(m_server.dataDir() + QStringLiteral("/tasks.sqlite"),
                                                    QStringLiteral("SELECT id FROM tasks"), 10000))
        ids << row[0];
    return ids;
}

void tst_SlurmOpenFoam::sweepWithMeshQuestionsAcrossJobs()
{
    const QString db = m_dir.filePath(QStringLiteral("sweep.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("nu.json"));
    QVERIFY(Eddy::Test::writeFile(spec, sweepSpec()));
    const int jobsBefore = eddyJobsInJobcomp();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    QVERIFY2(r.out.contains("6 case(s) submitted, 0 rejected"), r.out.constData());

    // Both questions come from checkMesh in the first job of their case; nothing answers them
    // for the engineer.
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    QByteArray err;
    const QRegularExpression askedRe(QStringLiteral("task (\\d+) asks \\((mesh_repair_\\d+)\\): ([^\\n]*)"));
    QList<QRegularExpressionMatch> asked;
    QDeadlineTimer deadline(120000);
    while (asked.size() < 2 && !deadline.hasExpired() && watch.state() == QProcess::Running) {
        watch.waitForReadyRead(500);
        err += watch.readAllStandardError();
        asked.clear();
        for (auto it = askedRe.globalMatch(QString::fromUtf8(err)); it.hasNext();)
            asked << it.next();
    }
    QVERIFY2(asked.size() == 2, err.constData());
    for (const QRegularExpressionMatch &m : asked)
        for (const char *finding : {"failed 1 check (Max skewness) on 400 cells", "max non-orthogonality 82.7",
                                    "507 severely non-orthogonal faces"})
            QVERIFY2(m.captured(3).contains(QLatin1String(finding)), qPrintable(m.captured(3)));
    const QString repaired = asked[0].captured(1);
    const QString aborted = asked[1].captured(1);
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("answer"), repaired, asked[0].captured(2), changeMesh()});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("answer"), aborted, asked[1].captured(2),
                QStringLiteral(R"({"action": "abort"})")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(watch.waitForFinished(120000), err.constData());
    err += watch.readAllStandardError();
    QCOMPARE(watch.exitCode(), 0);
    QVERIFY2(err.contains("all tasks finished"), err.constData());

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 6);
    int ran = 0, inParallel = 0;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        const QJsonObject result = row.value("result").toObject();
        const QString task = QString::number(row.value("task").toInt());
        if (task == aborted) {
            QVERIFY2(result.value("isError").toBool(), qPrintable(QJsonDocument(row).toJson()));
            QVERIFY(result.value("content").toArray().at(0).toObject().value("text").toString().contains(QLatin1String("abort")));
            continue;
        }
        QVERIFY2(!result.value("isError").toBool(true), qPrintable(QJsonDocument(row).toJson()));
        const QJsonObject s = result.value("structuredContent").toObject();
        QCOMPARE(s.value("outcome").toString(), QStringLiteral("end time reached"));
        QCOMPARE(s.value("last_time").toDouble(), 0.1);
        const QJsonObject residuals = s.value("final_residuals").toObject();
        for (const char *field : {"Ux", "Uy", "p"})
            QVERIFY2(residuals.value(QLatin1String(field)).toDouble(-1) >= 0, qPrintable(QJsonDocument(s).toJson()));
        // The case ran in the shared case folder, with each step's log, as it does locally.
        const QString folder = s.value("case_folder").toString();
        QVERIFY2(folder.startsWith(m_dir.filePath(QStringLiteral("cases/openfoam/"))), qPrintable(folder));
        for (const char *log : {"log.blockMesh", "log.checkMesh", "log.icoFoam"})
            QVERIFY2(QFile::exists(folder + QLatin1Char('/') + QLatin1String(log)), qPrintable(folder));
        if (row.value("arguments").toObject().value("processors").toInt() == 2) {
            ++inParallel;
            QVERIFY(readAll(folder + QStringLiteral("/log.decomposePar")).contains("Processor 1"));
            QVERIFY(QFile::exists(folder + QStringLiteral("/log.reconstructPar")));
            QVERIFY2(readAll(folder + QStringLiteral("/log.icoFoam")).contains("nProcs : 2"),
                     readAll(folder + QStringLiteral("/log.icoFoam")).left(2000).constData());
        }
        if (task == repaired) {
            QVERIFY(s.value("mesh").toObject().value("ok").toBool());
            QVERIFY(readAll(folder + QStringLiteral("/log.answer")).contains("answer 1: change_mesh"));
        }
        ++ran;
    }
    QCOMPARE(ran, 5);
    QVERIFY(inParallel >= 2);
    // Six first jobs and one more for the changed mesh: each case ran once, none twice.
    QTRY_VERIFY_WITH_TIMEOUT(eddyJobsInJobcomp() - jobsBefore >= 7, 30000);
    QTest::qWait(1000); // negative check: no eighth job turns up late
    QCOMPARE(eddyJobsInJobcomp() - jobsBefore, 7);
}

void tst_SlurmOpenFoam::cancelEndsTheJobAndEveryOpenFoamProcess()
{
    const QString db = m_dir.filePath(QStringLiteral("cancel.sqlite"));
    const QStringList before = serverTaskIds();
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(),
                    QStringLiteral("run_openfoam_case"),
                    QStringLiteral(R"({"template": "cavity", "end_time": 1000, "processors": 2})")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    const int task = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QString id;
    for (const QString &candidate : serverTaskIds())
        if (!before.contains(candidate))
            id = candidate;
    QVERIFY(!id.isEmpty());
    const QString key = Eddy::Test::Slurm::caseKey(id);

    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    // The solver's residuals, read from its log inside the job, reach statusMessage.
    QVERIFY2(waitForMessage(db, QStringLiteral("icoFoam: time = % of 1000 %residual %(Ux %, Uy %, p %)%"), 120000),
             watch.readAllStandardError().constData());
    QVERIFY2(!markedProcesses(key).isEmpty(), "no OpenFOAM process of the case is running");

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(task)});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(watch.waitForFinished(60000));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks"), QStringLiteral("--status"), QStringLiteral("cancelled")});
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
    // scancel ended the job, and with it every OpenFOAM process it had started.
    const QByteArray name = "eddy-" + key.left(12).toLatin1();
    QTRY_VERIFY2_WITH_TIMEOUT(readAll(m_cluster.path() + QStringLiteral("/jobcomp.log")).contains("Name=" + name + " JobState=CANCELLED"),
                              "the job did not end CANCELLED", 60000);
    QStringList left;
    QTRY_VERIFY2_WITH_TIMEOUT((left = markedProcesses(key)).isEmpty(), qPrintable(left.join(QStringLiteral(", "))), 60000);
}

void tst_SlurmOpenFoam::requeueResumesFromTheLatestTime()
{
    const QString db = m_dir.filePath(QStringLiteral("requeue.sqlite"));
    const QStringList before = serverTaskIds();
    // 1,000 steps in two processes, a time written every 20.
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(),
                    QStringLiteral("run_openfoam_case"),
                    QStringLiteral(R"({"template": "cavity", "end_time": 5, "processors": 2})")});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    const int task = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QString id;
    for (const QString &candidate : serverTaskIds())
        if (!before.contains(candidate))
            id = candidate;
    QVERIFY(!id.isEmpty());
    const QString key = Eddy::Test::Slurm::caseKey(id);
    const QString folder = m_dir.filePath(QStringLiteral("cases/openfoam/") + key);
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(folder + QStringLiteral("/processor1/0.1/uniform/time")), "no time was written", 120000);
    const QByteArray jobId = Eddy::Test::Slurm::jobIdOf(key);
    QVERIFY(!jobId.isEmpty());
    // What a node failure does to a --requeue job: SIGTERM, back to the queue, run again.
    int code = -1;
    tool(QStringLiteral("scontrol"), {QStringLiteral("requeue"), QString::fromLatin1(jobId)}, &code);
    QCOMPARE(code, 0);
    QVERIFY(Eddy::Test::Slurm::waitForJobState(key, "PENDING"));
    // Slurm holds a requeued job back for a while (BeginTime); let it start now.
    tool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("JobId=") + QString::fromLatin1(jobId),
                                      QStringLiteral("StartTime=now")}, &code);
    QCOMPARE(code, 0);
    QVERIFY(watch.waitForFinished(180000));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), QString::number(task)});
    // On a failure, what the job printed, how it restarted, what Slurm recorded of each run and
    // what the watch saw say why (the test's folder is removed at its end).
    QByteArray jobOutput = "\n--- watch ---\n" + watch.readAllStandardOutput() + watch.readAllStandardError();
    for (const QString &name :
         QDir(folder).entryList({QStringLiteral("slurm-*.out"), QStringLiteral("log.restart"), QStringLiteral("log.icoFoam*")}))
        jobOutput += "\n--- " + name.toUtf8() + " ---\n" + readAll(folder + QLatin1Char('/') + name).right(4000);
    for (const QByteArray &line : readAll(m_cluster.path() + QStringLiteral("/jobcomp.log")).split('\n'))
        if (line.contains("JobId=" + jobId + ' '))
            jobOutput += "\n--- jobcomp ---\n" + line;
    QVERIFY2(watch.exitCode() == 0 && r.code == 0, (r.out + r.err + jobOutput).constData());
    const QJsonObject s = QJsonDocument::fromJson(r.out).object().value("structuredContent").toObject();
    QCOMPARE(s.value("last_time").toDouble(), 5.0);
    // The second run continued from a written time in the processor folders, not from 0; the
    // first run's log is kept beside its own.
    const QByteArray restart = readAll(folder + QStringLiteral("/log.restart"));
    const auto from = QRegularExpression(QStringLiteral("restarting from time (\\S+)")).match(QString::fromUtf8(restart));
    QVERIFY2(from.hasMatch() && from.captured(1).toDouble() >= 0.1, restart.constData());
    QVERIFY(QFile::exists(folder + QStringLiteral("/log.icoFoam.1")));
    QVERIFY2(s.value("start_time").toDouble() > from.captured(1).toDouble(), qPrintable(QJsonDocument(s).toJson()));
}

QTEST_GUILESS_MAIN(tst_SlurmOpenFoam)
#include "tst_slurmopenfoam.moc"
