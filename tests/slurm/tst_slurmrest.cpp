// eddy-cfd-server --backend slurm --slurm-rest: the same private Slurm as tst_slurmbackend plus
// its slurmrestd (slurm-cluster.sh start DIR --rest, JWT). The real eddyctl runs cases whose jobs
// go in, are watched and are cancelled through REST only (slurmrestd's own log and the server's
// counters say so); one GET /jobs per refresh whatever the number of live jobs; and bad, expired
// or exposed tokens give messages that say what to do, at start and while tasks run.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using Eddy::Test::TestServer;
using Eddy::Test::writeFile;
using Eddy::Test::Slurm::tool;

namespace {

Eddy::Test::CtlRun runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 120000, 5000});
}

bool waitFor(const std::function<bool()> &condition, int ms = 60000)
{
    QElapsedTimer clock;
    clock.start();
    while (!condition() && clock.elapsed() < ms)
        QTest::qWait(100);
    return condition();
}

} // namespace

class tst_SlurmRest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void badTokensAreRefusedWithWhatToDo();
    void casesRunThroughRestWithMeshQuestionsAndCancel();
    void brokenTokenShowsInTheTaskUntilRenewed();
    void oneJobsCallPerRefreshWhateverTheJobCount();

private:
    QStringList serverArgs(const QString &jwtFile) const;
    QByteArray restLog() const;
    QJsonObject stats() const;
    bool partition(const char *state);

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    QString m_url, m_jwt, m_jwtFile;
    TestServer m_server;
    bool m_started = false;
};

QStringList tst_SlurmRest::serverArgs(const QString &jwtFile) const
{
    QStringList args = {QStringLiteral("--backend"), QStringLiteral("slurm"),
                        QStringLiteral("--case-dir"), m_dir.filePath(QStringLiteral("cases")),
                        QStringLiteral("--slurm-refresh-ms"), QStringLiteral("300"),
                        QStringLiteral("--poll-interval-ms"), QStringLiteral("250"),
                        QStringLiteral("--slurm-rest"), m_url,
                        QStringLiteral("--slurm-stats"), m_dir.filePath(QStringLiteral("stats.json"))};
    if (!jwtFile.isEmpty())
        args << QStringLiteral("--slurm-jwt-file") << jwtFile;
    return args;
}

QByteArray tst_SlurmRest::restLog() const
{
    QFile f(m_cluster.path() + QStringLiteral("/slurmrestd.log"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject tst_SlurmRest::stats() const
{
    QFile f(m_dir.filePath(QStringLiteral("stats.json")));
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

bool tst_SlurmRest::partition(const char *state)
{
    int code = -1;
    tool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("PartitionName=eddy"),
                                      QStringLiteral("State=") + QLatin1String(state)}, &code);
    return code == 0;
}

void tst_SlurmRest::initTestCase()
{
    QVERIFY(m_cluster.isValid() && m_dir.isValid());
    int code = -1;
    const QByteArray out
        = Eddy::Test::Slurm::startCluster(m_cluster.path(), code, {QStringLiteral("--rest")});
    m_started = true;
    QVERIFY2(code == 0, out.constData());
    for (const QByteArray &line : out.split('\n')) {
        if (line.startsWith("SLURM_REST="))
            m_url = QString::fromUtf8(line.mid(11));
        else if (line.startsWith("SLURM_JWT="))
            m_jwt = QString::fromUtf8(line.mid(10));
    }
    QVERIFY2(!m_url.isEmpty() && !m_jwt.isEmpty(), out.constData());
    m_jwtFile = m_dir.filePath(QStringLiteral("slurm.jwt"));
    QVERIFY(writeFile(m_jwtFile, m_jwt.toUtf8() + '\n'));
    QVERIFY(QFile::setPermissions(m_jwtFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QVERIFY2(m_server.start(serverArgs(m_jwtFile)), qPrintable(m_server.errorString()));
}

void tst_SlurmRest::cleanupTestCase()
{
    m_server.terminate();
    if (m_started)
        Eddy::Test::Slurm::stopCluster(m_cluster.path());
}

void tst_SlurmRest::badTokensAreRefusedWithWhatToDo()
{
    const auto refusal = [&](const QByteArray &env, const QString &file) {
        qputenv("SLURM_JWT", env);
        TestServer server;
        const bool started = server.start(serverArgs(file));
        qunsetenv("SLURM_JWT");
        return started ? QString() : server.errorString();
    };
    // A token slurmctld does not accept: named, with the user and how to make one.
    QString message = refusal("eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJyb290In0.bm90LWEtc2lnbmF0dXJl", {});
    QVERIFY2(message.contains(QLatin1String("token in SLURM_JWT is not valid for user"))
                 && message.contains(QLatin1String("scontrol token")),
             qPrintable(message));
    // An expired one: renew it.
    const QByteArray shortLived = tool(QStringLiteral("scontrol"), {QStringLiteral("token"), QStringLiteral("lifespan=1")}).trimmed();
    QVERIFY(shortLived.startsWith("SLURM_JWT="));
    QTest::qWait(2200);
    message = refusal(shortLived.mid(10), {});
    QVERIFY2(message.contains(QLatin1String("token in SLURM_JWT expired at"))
                 && message.contains(QLatin1String("renew it with `scontrol token")),
             qPrintable(message));
    // A token file others can read is refused before it is used.
    const QString exposed = m_dir.filePath(QStringLiteral("exposed.jwt"));
    QVERIFY(writeFile(exposed, m_jwt.toUtf8()));
    QVERIFY(QFile::setPermissions(exposed, QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                               | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    message = refusal({}, exposed);
    QVERIFY2(message.contains(QLatin1String("can be read by other users (mode 644)"))
                 && message.contains(QLatin1String("chmod 600")),
             qPrintable(message));
    // No token at all.
    message = refusal({}, {});
    QVERIFY2(message.contains(QLatin1String("set SLURM_JWT")), qPrintable(message));
    QVERIFY(!message.contains(m_jwt) && !m_server.standardError().contains(m_jwt.toUtf8()));
}

void tst_SlurmRest::casesRunThroughRestWithMeshQuestionsAndCancel()
{
    const QByteArray logBefore = restLog();
    const QString db = m_dir.filePath(QStringLiteral("sweep.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep4.json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case", "fixed": {"grid": 16, "max_iterations": 300},
        "vary": {"reynolds": {"list": [100, 400]}, "force_mesh_defect": {"list": [false, true]}},
        "mode": "grid", "concurrency": 4})"));
    auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
    QVERIFY2(r.code == 0 && r.out.contains("4 case(s) submitted"), (r.out + r.err).constData());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("answers.json")), R"({"action": "repair", "smoothing_passes": 5})"));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                QStringLiteral("--answers"), m_dir.filePath(QStringLiteral("answers.json"))});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='completed'"), 10000), qint64(4));
    // Two mesh questions, each answered across a job boundary: six jobs in all.
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state='answered'"), 10000), qint64(2));

    // A long case, cancelled while its job runs.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral(R"({"reynolds": 100, "grid": 64, "max_iterations": 10000000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const int task = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QVERIFY(waitFor([&] { return tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%T")}).contains("RUNNING"); }));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(task)});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='cancelled'"), 10000), qint64(1));
    const auto jobcomp = [&] {
        QFile f(m_cluster.path() + QStringLiteral("/jobcomp.log"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    QVERIFY2(waitFor([&] { return jobcomp().count("JobState=CANCELLED") == 1; }), jobcomp().constData());

    // slurmrestd's side: seven submissions and one cancel came in over REST, and the server
    // ran no sbatch, squeue or scancel (its one CLI call is scontrol show config at start).
    const QByteArray log = restLog().mid(logBefore.size());
    QCOMPARE(int(log.count("POST /slurm/v0.0.38/job/submit")), 7);
    QCOMPARE(int(log.count("DELETE /slurm/v0.0.38/job/")), 1);
    QVERIFY(log.count("GET /slurm/v0.0.38/jobs") > 0);
    QCOMPARE(jobcomp().count("Name=eddy-"), 7);
    QVERIFY(waitFor([&] { return stats().value("rest_cancels").toInt() == 1; })); // next refresh
    const QJsonObject s = stats();
    QCOMPARE(s.value("cli_calls").toInt(), 1);
    QCOMPARE(s.value("rest_submits").toInt(), 7);
    QCOMPARE(s.value("rest_cancels").toInt(), 1);
}

void tst_SlurmRest::brokenTokenShowsInTheTaskUntilRenewed()
{
    // The job waits in a down partition while the token file holds a token slurmctld rejects.
    QVERIFY(partition("DOWN"));
    const QString db = m_dir.filePath(QStringLiteral("token.sqlite"));
    auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                     QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 200})")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(waitFor([&] { return stats().value("live_jobs").toInt() == 1; }));
    QVERIFY(writeFile(m_jwtFile, "eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJyb290In0.bm90LWEtc2lnbmF0dXJl\n"));
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    const QString seen = QStringLiteral("SELECT COUNT(*) FROM task_events WHERE status_message LIKE "
                                        "'Slurm is not answering (slurmctld rejected the job list%not valid for user%tries in%'");
    QVERIFY2(waitFor([&] { return Eddy::Test::scalar(db, seen, 10000) > 0; }),
             qPrintable(Eddy::Test::query(db, QStringLiteral("SELECT status_message FROM task_events"), 10000).value(0).join(' ')));
    // Renewed in the file (read again on the next call): the case goes on and completes.
    QVERIFY(writeFile(m_jwtFile, m_jwt.toUtf8() + '\n'));
    QVERIFY(partition("UP"));
    QVERIFY(watch.waitForFinished(120000));
    QCOMPARE(watch.exitCode(), 0);
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='completed'"), 10000), qint64(1));
}

void tst_SlurmRest::oneJobsCallPerRefreshWhateverTheJobCount()
{
    // 10, then 20 live jobs, all pending in a down partition (no CPU spent): per window, the
    // server makes exactly one GET /jobs per refresh, 304s among them while nothing changes.
    QVERIFY(partition("DOWN"));
    const QString db = m_dir.filePath(QStringLiteral("many.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep10.json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case", "fixed": {"grid": 16, "max_iterations": 100},
        "vary": {"reynolds": {"range": {"from": 100, "to": 1000, "step": 100}}}, "mode": "grid", "concurrency": 10})"));
    for (int live : {10, 20}) {
        auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
        QVERIFY2(r.code == 0, (r.out + r.err).constData());
        QVERIFY(waitFor([&] { return stats().value("live_jobs").toInt() == live; }));
        QTest::qWait(600);
        const QJsonObject a = stats();
        const qsizetype logA = restLog().count("GET /slurm/v0.0.38/jobs");
        QTest::qWait(6000);
        const QJsonObject b = stats();
        const int calls = b.value("rest_jobs_calls").toInt() - a.value("rest_jobs_calls").toInt();
        const int refreshes = b.value("refreshes").toInt() - a.value("refreshes").toInt();
        const double minutes = (b.value("time_ms").toDouble() - a.value("time_ms").toDouble()) / 60000;
        qInfo("%d live jobs: %d GET /jobs in %d refreshes, %.0f per minute, %d answered 304",
              live, calls, refreshes, calls / minutes,
              b.value("rest_not_modified").toInt() - a.value("rest_not_modified").toInt());
        QVERIFY(refreshes > 0);
        QCOMPARE(calls, refreshes);
        QCOMPARE(b.value("rest_submits").toInt() - a.value("rest_submits").toInt(), 0);
        // Nothing changes in a down partition: sooner or later slurmrestd answers 304 (how soon
        // depends on the scheduler's own passes over the pending jobs).
        QVERIFY(waitFor([&] {
            return stats().value("rest_not_modified").toInt() > a.value("rest_not_modified").toInt();
        }));
        QVERIFY(restLog().count("GET /slurm/v0.0.38/jobs") - logA >= calls - 2);
    }
}

QTEST_GUILESS_MAIN(tst_SlurmRest)
#include "tst_slurmrest.moc"
