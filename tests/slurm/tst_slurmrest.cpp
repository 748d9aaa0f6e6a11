// eddy-cfd-server --backend slurm --slurm-rest: the same private Slurm as tst_slurmbackend plus
// its slurmrestd (slurm-cluster.sh start DIR --rest, JWT). The real eddyctl runs cases whose jobs
// go in, are watched and are cancelled through REST only (slurmrestd's own log and the server's
// counters say so); one GET /jobs per refresh whatever the number of live jobs; and bad, expired
// or exposed tokens give messages that say what to do, at start and while tasks run; another
// user's token is refused or warned about; jobs Slurm purged while the server was down are
// settled from the evidence on a host without the Slurm tools; and slurmrestd killed while jobs
// run shows in the tasks, loses no case and submits none twice once it is back; and a stalled
// slurmrestd (stopped, not dead) shows in the tasks after --slurm-rest-timeout-s and gets the
// submission it took late no second time.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

#include <signal.h>

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
        QTest::qWait(100); // the poll step of a condition wait: conditions run squeue or sqlite, not every 10 ms
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
    void anotherUsersTokenIsRefusedOrWarnedAbout();
    void jobsPurgedWhileTheServerWasDownAreSettledFromEvidence();
    void slurmrestdKilledWhileJobsRunLosesNothing();
    void stalledSlurmrestdTimesOutAndSubmitsNothingTwice();
    void oneJobsCallPerRefreshWhateverTheJobCount();

private:
    QByteArray jobcomp() const;
    QStringList restJobIds();
    QStringList serverArgs(const QString &jwtFile) const;
    QByteArray restLog() const;
    QJsonObject stats() const;
    bool partition(const char *state);

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    QString m_url, m_jwt, m_jwtFile;
    QString m_user; // who runs the test, the cluster and slurmrestd's token: SlurmUser
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

QByteArray tst_SlurmRest::jobcomp() const
{
    QFile f(m_cluster.path() + QStringLiteral("/jobcomp.log"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The job ids slurmrestd's GET /jobs lists now (finished ones it still keeps included).
QStringList tst_SlurmRest::restJobIds()
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(m_url + QStringLiteral("/slurm/v0.0.38/jobs")));
    request.setRawHeader("X-SLURM-USER-NAME", m_user.toUtf8());
    request.setRawHeader("X-SLURM-USER-TOKEN", m_jwt.toUtf8());
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    QStringList ids;
    for (const QJsonValue &job : QJsonDocument::fromJson(reply->readAll()).object().value("jobs").toArray())
        ids << QString::number(job.toObject().value("job_id").toInteger());
    if (reply->error() != QNetworkReply::NoError)
        ids << QStringLiteral("error: ") + reply->errorString();
    reply->deleteLater();
    return ids;
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
    m_user = QString::fromUtf8(tool(QStringLiteral("id"), {QStringLiteral("-un")}).trimmed());
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
    QTest::qWait(2200); // pacing: the real clock must pass the token's 1 s lifespan
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

void tst_SlurmRest::stalledSlurmrestdTimesOutAndSubmitsNothingTwice()
{
    // slurmrestd stopped (SIGSTOP by its PID), not dead: the kernel still completes connections
    // into its listen backlog and buffers the requests, so every call hangs until the server's
    // read time-out (--slurm-rest-timeout-s 2). A case submitted then times out unanswered, and
    // once slurmrestd runs again it reads the queued request and makes the job after all: the
    // server must find THAT job by its comment and submit no second one.
    const qsizetype restLogBefore = restLog().size();
    const QByteArray jobcompBefore = jobcomp();
    QStringList args = serverArgs(m_jwtFile);
    const QString statsFile = m_dir.filePath(QStringLiteral("stalled-stats.json"));
    args[args.indexOf(QStringLiteral("--slurm-stats")) + 1] = statsFile;
    args << QStringLiteral("--slurm-rest-timeout-s") << QStringLiteral("2");
    TestServer server;
    QVERIFY2(server.start(args), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("stalled.sqlite"));
    // A long case, running when slurmrestd stalls (cancelled at the end).
    auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), server.url(), QStringLiteral("run_cfd_case"),
                     QStringLiteral(R"({"reynolds": 100, "grid": 64, "max_iterations": 10000000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const int running = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QVERIFY(waitFor([&] { return tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("RUNNING"),
                                                                  QStringLiteral("-o"), QStringLiteral("%j")}).count("eddy-") == 1; }));
    QFile pidFile(m_cluster.path() + QStringLiteral("/slurmrestd.pid"));
    QVERIFY(pidFile.open(QIODevice::ReadOnly));
    const pid_t pid = pid_t(pidFile.readAll().trimmed().toLongLong());
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid, SIGSTOP), 0);
    bool stopped = true;
    const auto guard = qScopeGuard([&] { // the tests after this one need it running
        if (stopped)
            ::kill(pid, SIGCONT);
    });
    // Submitted while slurmrestd is stopped: it cannot have read the request before the time-out.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral(R"({"reynolds": 400, "grid": 16, "max_iterations": 200})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const int late = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    const auto dump = [&] {
        QStringList lines;
        for (const QStringList &row : Eddy::Test::query(db, QStringLiteral("SELECT task_id, status, status_message FROM task_events ORDER BY id"), 10000))
            lines << row.join(QLatin1String(" | "));
        return lines.join('\n') + '\n' + QString::fromUtf8(server.standardError().right(3000));
    };
    // Both tasks say that Slurm is not answering, with the real time-out, the tries and the
    // time: the running one about its job list, the new one about its submission or job list.
    const QString notAnswering = QStringLiteral(
        "SELECT MAX(id) FROM task_events WHERE task_id=%1 AND status='working' AND status_message LIKE "
        "'%Slurm is not answering (the Slurm REST API at %did not answer the %2 (no answer within 2 s); "
        "check that slurmrestd runs there; % tries in % s)%'");
    QVERIFY2(waitFor([&] {
                 return Eddy::Test::scalar(db, notAnswering.arg(running).arg(QLatin1String("job list")), 10000) > 0
                        && Eddy::Test::scalar(db, notAnswering.arg(late).arg(QLatin1String("%")), 10000) > 0;
             }), qPrintable(dump()));
    const qint64 lastSilent = Eddy::Test::scalar(db, notAnswering.arg(running).arg(QLatin1String("job list")), 10000);
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status<>'working'"), 10000), qint64(0));

    QCOMPARE(::kill(pid, SIGCONT), 0);
    stopped = false;
    // The running case shows its progress again and the new one completes.
    const QString recovered = QStringLiteral("SELECT COUNT(*) FROM task_events WHERE task_id=%1 AND id>%2 AND "
                                             "status='working' AND status_message NOT LIKE 'Slurm is not answering%'")
                                  .arg(running).arg(lastSilent);
    QVERIFY2(waitFor([&] { return Eddy::Test::scalar(db, recovered, 10000) > 0; }), qPrintable(dump()));
    QVERIFY2(waitFor([&] { return Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id=%1 AND status='completed'").arg(late), 10000) == 1; }),
             qPrintable(dump()));
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(running)});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(watch.waitForFinished(120000));
    QCOMPARE(watch.exitCode(), 0);
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='cancelled'"), 10000), qint64(1));

    // Exactly one job per case: slurmrestd got two submissions (the late one read only after
    // SIGCONT), the server sent two, and the completion log has two jobs with different names.
    QVERIFY(waitFor([&] { return jobcomp().mid(jobcompBefore.size()).count("Name=eddy-") >= 2; }));
    QTest::qWait(1000); // negative check: a third job, were there one, would have ended by now
    QCOMPARE(int(restLog().mid(restLogBefore).count("POST /slurm/v0.0.38/job/submit")), 2);
    QFile serverStats(statsFile);
    QVERIFY(serverStats.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(serverStats.readAll()).object().value("rest_submits").toInt(), 2);
    const QByteArray added = jobcomp().mid(jobcompBefore.size());
    QCOMPARE(int(added.count("Name=eddy-")), 2);
    QSet<QByteArray> names;
    for (const QByteArray &line : added.split('\n'))
        if (const qsizetype at = line.indexOf("Name=eddy-"); at >= 0)
            names.insert(line.mid(at, line.indexOf(' ', at) - at));
    QCOMPARE(names.size(), 2);
    // How: the submission timed out unanswered, the task said it waits, and the job slurmrestd
    // made late was found by its comment.
    QVERIFY2(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM task_events WHERE task_id=%1 AND status_message LIKE "
                                                   "'waiting: the Slurm REST API at %did not answer the submission (no answer within 2 s)%'")
                                        .arg(late), 10000) > 0,
             qPrintable(dump()));
    const QByteArray log = server.standardError();
    QVERIFY2(log.contains("did not answer the submission (no answer within 2 s); check that slurmrestd runs there; "
                          "its job is looked for by its comment, never submitted again")
                 && log.contains("by its comment once Slurm answered; not submitting again"),
             log.right(3000).constData());
    QVERIFY(server.terminate());
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
        QTest::qWait(600); // pacing: the refresh that saw the jobs ends before the window opens
        const QJsonObject a = stats();
        const qsizetype logA = restLog().count("GET /slurm/v0.0.38/jobs");
        QTest::qWait(6000); // pacing: a fixed window in which the refreshes and REST calls are counted
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

void tst_SlurmRest::anotherUsersTokenIsRefusedOrWarnedAbout()
{
    // An ordinary user's token (nobody) while the server asks as its own user: slurmctld rejects
    // it, and the refusal names both users and the two ways out.
    const QByteArray foreign = tool(QStringLiteral("scontrol"), {QStringLiteral("token"), QStringLiteral("username=nobody"),
                                                                 QStringLiteral("lifespan=600")}).trimmed();
    QVERIFY(foreign.startsWith("SLURM_JWT="));
    qputenv("SLURM_JWT", foreign.mid(10));
    TestServer refused;
    const bool started = refused.start(serverArgs({}));
    qunsetenv("SLURM_JWT");
    QVERIFY(!started);
    const QString message = refused.errorString();
    QVERIFY2(message.contains(QLatin1String("was made for user nobody (its sun claim) but the server asks as ") + m_user)
                 && message.contains(QLatin1String("`scontrol token username=") + m_user + '`')
                 && message.contains(QLatin1String("--slurm-user nobody")),
             qPrintable(message));
    // SlurmUser's token with --slurm-user nobody: slurmctld lets it act as nobody, so the server
    // starts, and says so in a warning and in its startup line.
    TestServer warned;
    QVERIFY2(warned.start(serverArgs(m_jwtFile) << QStringLiteral("--slurm-user") << QStringLiteral("nobody")),
             qPrintable(warned.errorString()));
    const QByteArray log = warned.standardError();
    QVERIFY2(log.contains("was made for user " + m_user.toUtf8() + " (its sun claim), not for nobody")
                 && log.contains("jobs run as nobody") && log.contains("scontrol token username=nobody")
                 && log.contains("as nobody with another user's token"),
             log.constData());
    QVERIFY(!log.contains(m_jwt.toUtf8()));
    QVERIFY(warned.terminate());
}

void tst_SlurmRest::jobsPurgedWhileTheServerWasDownAreSettledFromEvidence()
{
    // A host with slurmrestd only: no Slurm tools on the server's PATH (slurm.conf says where the
    // job completion log is). Two cases are submitted while the partition is down; the server
    // stops, both jobs run, one case's result is lost, and Slurm purges both (MinJobAge 2 s)
    // before the server starts again. As with squeue (tst_slurmbackend), the folder's result
    // completes the first and the completion log explains the second.
    QVERIFY(partition("DOWN"));
    QStringList args = serverArgs(m_jwtFile);
    const QString cases = m_dir.filePath(QStringLiteral("purged-cases"));
    args[args.indexOf(QStringLiteral("--case-dir")) + 1] = cases;
    args[args.indexOf(QStringLiteral("--slurm-stats")) + 1] = m_dir.filePath(QStringLiteral("purged-stats.json"));
    // The same port after the restart: the client's database knows the server by its URL.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    args << QStringLiteral("--port") << QString::number(probe.serverPort());
    probe.close();
    const QByteArray path = qgetenv("PATH");
    TestServer server;
    qputenv("PATH", "/nonexistent");
    bool started = server.start(args);
    qputenv("PATH", path);
    QVERIFY2(started, qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("purged.sqlite"));
    for (const char *arguments : {R"({"reynolds": 100, "grid": 16, "max_iterations": 200})",
                                  R"({"reynolds": 400, "grid": 16, "max_iterations": 200})"}) {
        const auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url(), QStringLiteral("run_cfd_case"),
                               QString::fromLatin1(arguments)});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    const QString serverDb = server.dataDir() + QStringLiteral("/tasks.sqlite");
    const QString stored = QStringLiteral("SELECT job_id FROM slurm_jobs WHERE job_id<>''");
    QVERIFY(waitFor([&] { return Eddy::Test::query(serverDb, stored, 10000).size() == 2; }));
    QStringList jobIds;
    for (const QStringList &row : Eddy::Test::query(serverDb, stored, 10000))
        jobIds << row[0];
    QVERIFY(server.terminate());
    QVERIFY(partition("UP"));
    QVERIFY2(waitFor([&] {
                 const QByteArray log = jobcomp();
                 return log.contains("JobId=" + jobIds[0].toLatin1() + ' ') && log.contains("JobId=" + jobIds[1].toLatin1() + ' ');
             }), jobcomp().constData());
    QString lost; // the folder of the reynolds 400 case
    for (const QString &folder : QDir(cases).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile spec(cases + '/' + folder + QStringLiteral("/case.json"));
        QVERIFY(spec.open(QIODevice::ReadOnly));
        if (QJsonDocument::fromJson(spec.readAll()).object().value("arguments").toObject().value("reynolds").toInt() == 400)
            lost = cases + '/' + folder;
    }
    QVERIFY(QFile::remove(lost + QStringLiteral("/result.json")));
    // Gone from slurmrestd's own answer.
    QVERIFY2(waitFor([&] {
                 const QStringList listed = restJobIds();
                 return !listed.contains(jobIds[0]) && !listed.contains(jobIds[1]) && !listed.join(' ').contains("error");
             }), qPrintable(restJobIds().join(' ')));

    qputenv("PATH", "/nonexistent");
    started = server.restart();
    qputenv("PATH", path);
    QVERIFY2(started, qPrintable(server.errorString()));
    auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    if (r.code != 0)
        qInfo("%s", server.standardError().right(4000).constData());
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("tasks")});
    QJsonObject first, second;
    for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array())
        (v.toObject().value("arguments").toObject().value("reynolds").toInt() == 100 ? first : second) = v.toObject();
    QCOMPARE(first.value("status").toString(), QStringLiteral("completed"));
    QCOMPARE(second.value("status").toString(), QStringLiteral("failed"));
    const QString message = second.value("statusMessage").toString();
    QVERIFY2(message.contains(QLatin1String("ended without a result: it ended COMPLETED, exit code 0:0 (from the job completion log)")),
             qPrintable(message));
    QVERIFY(server.standardError().contains("(from " + qgetenv("SLURM_CONF") + ")"));
    QVERIFY(server.terminate());
}

void tst_SlurmRest::slurmrestdKilledWhileJobsRunLosesNothing()
{
    const qsizetype restLogBefore = restLog().size();
    const QByteArray jobcompBefore = jobcomp();
    const QString db = m_dir.filePath(QStringLiteral("restd.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep2.json"));
    // Jobs of a few seconds (about 0.5 s per 20000 iterations here): still running when killed.
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case", "fixed": {"grid": 64, "max_iterations": 150000, "tolerance": 1e-30},
        "vary": {"reynolds": {"list": [100, 400]}}, "mode": "grid", "concurrency": 2})"));
    auto r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
    QVERIFY2(r.code == 0, (r.out + r.err).constData());
    // And a long case, to be cancelled while slurmrestd is down.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral(R"({"reynolds": 100, "grid": 64, "max_iterations": 10000000, "tolerance": 1e-30})")});
    QVERIFY2(r.code == 0, r.err.constData());
    const int longTask = QJsonDocument::fromJson(r.out).object().value("id").toInt();
    QVERIFY(waitFor([&] { return tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("RUNNING"),
                                                                  QStringLiteral("-o"), QStringLiteral("%j")}).count("eddy-") == 3; }));
    // slurmrestd dies (SIGKILL, by its PID) while the jobs run; a fourth case comes in meanwhile.
    QFile pidFile(m_cluster.path() + QStringLiteral("/slurmrestd.pid"));
    QVERIFY(pidFile.open(QIODevice::ReadOnly));
    const qint64 pid = pidFile.readAll().trimmed().toLongLong();
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    bool restarted = false;
    const auto restart = [&] {
        int code = -1;
        tool(Eddy::Test::Slurm::script(), {QStringLiteral("start-rest"), m_cluster.path()}, &code);
        restarted = true;
        return code == 0;
    };
    const auto guard = qScopeGuard([&] { // the tests after this one need it, too
        if (!restarted)
            restart();
    });
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                QStringLiteral(R"({"reynolds": 1000, "grid": 16, "max_iterations": 200})")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), QString::number(longTask)});
    QVERIFY2(r.code == 0, r.err.constData());
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    // The running cases say Slurm is not answering, and why; the new one waits to be submitted.
    const QString events = QStringLiteral("SELECT COUNT(DISTINCT task_id) FROM task_events WHERE status_message LIKE '%1'");
    const QString running = events.arg(QStringLiteral("Slurm is not answering (the Slurm REST API at %did not answer the job list "
                                                      "(cannot connect); check that slurmrestd runs there; % tries in % s)%"));
    const QString waiting = events.arg(QStringLiteral("not submitted yet: Slurm is not answering (%(cannot connect)%; 4 tries in % s)%"));
    const auto failed = [&] {
        return Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='failed'"), 10000) > 0;
    };
    QVERIFY2(waitFor([&] { return Eddy::Test::scalar(db, running, 10000) >= 2; }),
             qPrintable(Eddy::Test::query(db, QStringLiteral("SELECT status_message FROM task_events"), 10000).value(0).join(' ')));
    QVERIFY(waitFor([&] { return Eddy::Test::scalar(db, waiting, 10000) == 1 || failed(); }));
    QVERIFY2(!failed(), qPrintable(Eddy::Test::query(db, QStringLiteral("SELECT status_message FROM tasks WHERE status='failed'"), 10000).value(0).join(' ')));

    // slurmrestd back on its port: every case completes, each submitted exactly once, and the
    // cancelled case's job, which ran on meanwhile, is cancelled then.
    QVERIFY(restart());
    QVERIFY(watch.waitForFinished(120000));
    QCOMPARE(watch.exitCode(), 0);
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='completed'"), 10000), qint64(3));
    QCOMPARE(Eddy::Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='cancelled'"), 10000), qint64(1));
    QVERIFY2(waitFor([&] { return jobcomp().mid(jobcompBefore.size()).count("JobState=CANCELLED") == 1; }),
             jobcomp().mid(jobcompBefore.size()).constData());
    QCOMPARE(int(restLog().mid(restLogBefore).count("POST /slurm/v0.0.38/job/submit")), 4);
    QVERIFY(waitFor([&] { return jobcomp().mid(jobcompBefore.size()).count("Name=eddy-") >= 4; }));
    QTest::qWait(1000); // negative check: a fifth job, were there one, would have ended by now
    const QByteArray added = jobcomp().mid(jobcompBefore.size());
    QCOMPARE(int(added.count("Name=eddy-")), 4);
    QSet<QByteArray> names;
    for (const QByteArray &line : added.split('\n'))
        if (const qsizetype at = line.indexOf("Name=eddy-"); at >= 0)
            names.insert(line.mid(at, line.indexOf(' ', at) - at));
    QCOMPARE(names.size(), 4);
}

QTEST_GUILESS_MAIN(tst_SlurmRest)
#include "tst_slurmrest.moc"
