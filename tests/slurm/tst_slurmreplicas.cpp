// Fungible replicas (docs/server-replicas.md): three eddy-cfd-server replicas
// with --backend slurm share one data folder, one case folder and one --replica-key-file, behind
// a private nginx (round robin, proxy_next_upstream for polls) on loopback. The real eddyctl runs
// a sweep through nginx while one replica is killed with -9, then while all three restart one at
// a time: no task lost, no job run twice. A forged or altered task id is refused by every replica.
// An answer or a cancel taken by one replica shows on the next poll of another replica that
// already holds the task, and the cancelled job is ended by exactly one scancel.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"
#include "tests/server/mcptestclient.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <csignal>
#include <memory>

using Eddy::Test::McpTestClient;
using Eddy::Test::SseReader;
using nlohmann::json;
using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::writeFile;

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// The nginx configuration docs/server-replicas.md shows, for a private nginx run as this user.
QByteArray nginxConfig(const QString &prefix, quint16 listen, const QList<quint16> &replicas)
{
    QByteArray upstream;
    for (quint16 p : replicas)
        upstream += "        server 127.0.0.1:" + QByteArray::number(p) + " max_fails=1 fail_timeout=2s;\n";
    const QByteArray dir = prefix.toUtf8();
    return "pid " + dir + "/nginx.pid;\nerror_log " + dir + "/error.log warn;\n"
           "worker_processes 1;\nevents { worker_connections 256; }\n"
           "http {\n"
           "    access_log " + dir + "/access.log;\n"
           "    client_body_temp_path " + dir + "/body;\n    proxy_temp_path " + dir + "/proxy;\n"
           "    fastcgi_temp_path " + dir + "/fastcgi;\n    uwsgi_temp_path " + dir + "/uwsgi;\n"
           "    scgi_temp_path " + dir + "/scgi;\n"
           "    upstream eddy {\n" + upstream + "        keepalive 16;\n    }\n"
           "    server {\n        listen 127.0.0.1:" + QByteArray::number(listen) + ";\n"
           "        location / {\n"
           "            proxy_pass http://eddy;\n"
           "            proxy_http_version 1.1;\n"
           "            proxy_set_header Connection \"\";\n"
           "            proxy_set_header Host $http_host;\n"
           "            proxy_buffering off;\n"
           "            proxy_read_timeout 300s;\n"
           "            proxy_next_upstream error timeout non_idempotent;\n"
           "            proxy_next_upstream_tries 3;\n"
           "        }\n    }\n}\n";
}

} // namespace

class tst_SlurmReplicas : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void anyReplicaAnswersAndForgedIdsAreRefused();
    void answerThroughOneReplicaShowsOnAnother();
    void cancelThroughOneReplicaShowsOnAnother();
    void cancelLeftByADeadReplicaIsEndedByAnother();
    void sweepSurvivesKillNineOfOneReplica();
    void sweepSurvivesRollingRestart();

private:
    QStringList replicaArgs(int i) const;
    int eddyJobsInJobcomp() const;
    static bool eddyJobRunning();
    QList<QByteArray> jobcompLinesOf(const std::string &taskId) const;
    void runSweep(const QString &name, const std::function<void()> &midway);

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    bool m_started = false;
    QList<quint16> m_ports;
    std::unique_ptr<TestServer> m_replicas[3];
    QProcess m_nginx;
    QString m_url;
};

QStringList tst_SlurmReplicas::replicaArgs(int i) const
{
    return {QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--case-dir"),
            m_dir.filePath(QStringLiteral("cases")), QStringLiteral("--slurm-refresh-ms"),
            QStringLiteral("300"), QStringLiteral("--poll-interval-ms"), QStringLiteral("250"),
            QStringLiteral("--checkpoint-interval-ms"), QStringLiteral("200"),
            QStringLiteral("--replica-key-file"), m_dir.filePath(QStringLiteral("replica.key")),
            QStringLiteral("--port"), QString::number(m_ports[i])};
}

int tst_SlurmReplicas::eddyJobsInJobcomp() const
{
    QFile f(m_cluster.filePath(QStringLiteral("jobcomp.log")));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return int(f.readAll().count("Name=eddy-"));
}

// Whether squeue lists a case's job (named eddy-...) as running.
bool tst_SlurmReplicas::eddyJobRunning()
{
    const QByteArray out = Eddy::Test::Slurm::tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("RUNNING"),
                                                                            QStringLiteral("-o"), QStringLiteral("%j")});
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("eddy-"))
            return true;
    return false;
}

// The job completion log's lines for the task's jobs (named after its case folder's key).
QList<QByteArray> tst_SlurmReplicas::jobcompLinesOf(const std::string &taskId) const
{
    const QByteArray key = QCryptographicHash::hash("eddy case folder\n" + QByteArray::fromStdString(taskId),
                                                    QCryptographicHash::Sha256)
                               .toHex()
                               .left(12);
    QFile f(m_cluster.filePath(QStringLiteral("jobcomp.log")));
    QList<QByteArray> lines;
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.contains("Name=eddy-" + key + ' '))
                lines << line;
    return lines;
}

void tst_SlurmReplicas::initTestCase()
{
    QVERIFY(m_cluster.isValid() && m_dir.isValid());
    int code = -1;
    const QByteArray out = Eddy::Test::Slurm::startCluster(m_cluster.path(), code);
    m_started = true;
    QVERIFY2(code == 0, out.constData());
    const QString key = m_dir.filePath(QStringLiteral("replica.key"));
    QVERIFY(writeFile(key, "0123456789abcdef0123456789abcdef-test-key"));
    // A key others can read is refused with the fix in the message.
    QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
    const QString shared = m_dir.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(shared));
    m_ports = {freePort(), freePort(), freePort()};
    {
        TestServer refused;
        QVERIFY(!refused.start(replicaArgs(0), shared));
    }
    QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    for (int i = 0; i < 3; ++i) {
        m_replicas[i] = std::make_unique<TestServer>();
        QVERIFY2(m_replicas[i]->start(replicaArgs(i), shared), qPrintable(m_replicas[i]->errorString()));
    }
    const QString prefix = m_dir.filePath(QStringLiteral("nginx"));
    QVERIFY(QDir().mkpath(prefix));
    const quint16 listen = freePort();
    QVERIFY(writeFile(prefix + QStringLiteral("/nginx.conf"), nginxConfig(prefix, listen, m_ports)));
    m_nginx.setProcessChannelMode(QProcess::ForwardedChannels);
    m_nginx.start(QStringLiteral("/usr/sbin/nginx"),
                  {QStringLiteral("-p"), prefix, QStringLiteral("-c"), prefix + QStringLiteral("/nginx.conf"),
                   QStringLiteral("-e"), prefix + QStringLiteral("/error.log"), QStringLiteral("-g"),
                   QStringLiteral("daemon off;")});
    QVERIFY2(m_nginx.waitForStarted(10000), "nginx (Debian package nginx-light) did not start");
    m_url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(listen);
    long status = 0;
    const auto up = [&] {
        status = McpTestClient(m_url).request("tools/list").status;
        return status == 200;
    };
    QFile log(prefix + QStringLiteral("/error.log"));
    QTRY_VERIFY2_WITH_TIMEOUT(up(), qPrintable(QStringLiteral("nginx does not answer (HTTP %1): ").arg(status)
                                                + QString::fromUtf8(log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray())),
                              30000);
}

void tst_SlurmReplicas::cleanupTestCase()
{
    if (m_nginx.state() != QProcess::NotRunning) {
        ::kill(pid_t(m_nginx.processId()), SIGQUIT);
        m_nginx.waitForFinished(10000);
    }
    for (auto &r : m_replicas)
        if (r)
            r->terminate();
    if (m_started)
        Eddy::Test::Slurm::stopCluster(m_cluster.path());
}

void tst_SlurmReplicas::anyReplicaAnswersAndForgedIdsAreRefused()
{
    McpTestClient first(m_replicas[0]->url());
    const std::string id = first.createTask({{"reynolds", 100}, {"grid", 16}, {"max_iterations", 200}});
    QVERIFY(!id.empty());
    // The other replicas never saw the call; they answer from the shared store and Slurm.
    for (int i : {1, 2}) {
        McpTestClient other(m_replicas[i]->url());
        const nlohmann::json done = other.waitForTask(id, McpTestClient::isTerminal, 60000);
        QCOMPARE(QString::fromStdString(done.value("status", "")), QStringLiteral("completed"));
    }
    std::string forged = id;
    forged[3] = forged[3] == 'a' ? 'b' : 'a';
    std::string retagged = id;
    retagged.back() = retagged.back() == '0' ? '1' : '0';
    for (auto &r : m_replicas) {
        McpTestClient c(r->url());
        for (const std::string &bad : {forged, retagged, id.substr(0, 32)}) {
            QCOMPARE(c.getTask(bad).errorCode(), -32602);
            QCOMPARE(c.request("tasks/cancel", {{"taskId", bad}}).errorCode(), -32602);
        }
    }
}

namespace {

std::string statusOf(const json &task)
{
    return task.value("status", std::string());
}

} // namespace

void tst_SlurmReplicas::answerThroughOneReplicaShowsOnAnother()
{
    McpTestClient a(m_replicas[0]->url());
    McpTestClient b(m_replicas[1]->url());
    const std::string id = a.createTask(
        {{"reynolds", 100}, {"grid", 16}, {"max_iterations", 300}, {"force_mesh_defect", true}});
    QVERIFY(!id.empty());
    // Both replicas hold the task and show its mesh question: B takes it over on its first poll
    // and follows the job from then on, as A does.
    const auto asking = [](const json &t) {
        return statusOf(t) == "input_required" || McpTestClient::isTerminal(t);
    };
    const json onB = b.waitForTask(id, asking, 60000);
    QCOMPARE(statusOf(onB), std::string("input_required"));
    const json onA = a.waitForTask(id, asking, 60000);
    QCOMPARE(statusOf(onA), std::string("input_required"));
    QVERIFY2(onA["inputRequests"] == onB["inputRequests"], onB.dump().c_str());
    const std::string key = onA["inputRequests"].items().begin().key();

    const auto answered = a.request(
        "tasks/update",
        {{"taskId", id},
         {"inputResponses",
          {{key, {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 5}}}}}}}});
    QCOMPARE(answered.errorCode(), 0);
    // The very next poll of B shows the answer taken: no question, the case runs again.
    const json next = b.getTask(id).result();
    QCOMPARE(statusOf(next), std::string("working"));
    QVERIFY2(!next.contains("inputRequests") || next["inputRequests"].is_null(), next.dump().c_str());

    // The answered case proceeds to its result, seen from either replica.
    const json done = b.waitForTask(id, McpTestClient::isTerminal, 90000);
    QCOMPARE(statusOf(done), std::string("completed"));
    QCOMPARE(done["result"].value("isError", true), false);
    QCOMPARE(statusOf(a.getTask(id).result()), std::string("completed"));
    // One job per attempt: the one that asked and the one that ran after the answer.
    QTRY_VERIFY_WITH_TIMEOUT(jobcompLinesOf(id).size() >= 2, 30000);
    QTest::qWait(1000); // negative check: no third job turns up late
    QCOMPARE(jobcompLinesOf(id).size(), 2);
}

void tst_SlurmReplicas::cancelThroughOneReplicaShowsOnAnother()
{
    McpTestClient a(m_replicas[0]->url());
    McpTestClient b(m_replicas[1]->url());
    const std::string id = a.createTask(
        {{"reynolds", 100}, {"grid", 32}, {"max_iterations", 10000000}, {"tolerance", 1e-30}});
    QVERIFY(!id.empty());
    // The job runs and both replicas follow it (its progress lines).
    const auto running = [](const json &t) {
        return t.value("statusMessage", std::string()).rfind("iteration ", 0) == 0
               || McpTestClient::isTerminal(t);
    };
    QCOMPARE(statusOf(b.waitForTask(id, running, 60000)), std::string("working"));
    QCOMPARE(statusOf(a.waitForTask(id, running, 60000)), std::string("working"));
    // A listener on B hears of the cancel too, without polling.
    const json params = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {id}}}}};
    SseReader listener;
    listener.start(b.url(),
                   json{{"jsonrpc", "2.0"}, {"id", "listen-b"}, {"method", "subscriptions/listen"}, {"params", params}}
                       .dump(),
                   b.headersFor("subscriptions/listen", params));
    const json ack = listener.waitForEvent([](const json &e) {
        return e.value("method", "") == "notifications/subscriptions/acknowledged";
    });
    QVERIFY2(ack["params"]["notifications"]["taskIds"] == json({id}), listener.rawText().c_str());

    const auto cancelled = a.request("tasks/cancel", {{"taskId", id}});
    QCOMPARE(cancelled.errorCode(), 0);
    // The very next poll of B shows it cancelled, by request.
    const json next = b.getTask(id).result();
    QCOMPARE(statusOf(next), std::string("cancelled"));
    QCOMPARE(next.value("statusMessage", std::string()), std::string("cancelled by request"));
    const json heard = listener.waitForEvent(
        [](const json &e) {
            return e.value("method", "") == "notifications/tasks" && McpTestClient::isTerminal(e["params"]);
        },
        10000);
    QVERIFY2(!heard.is_null(), listener.rawText().c_str());
    QCOMPARE(statusOf(heard["params"]), std::string("cancelled"));
    listener.stop();

    // The job ends CANCELLED, once, and no replica resubmits it.
    QTRY_VERIFY_WITH_TIMEOUT(!jobcompLinesOf(id).isEmpty(), 30000);
    QTest::qWait(1500); // negative check: several refresh cycles of every replica resubmit nothing
    const QList<QByteArray> jobs = jobcompLinesOf(id);
    QCOMPARE(jobs.size(), 1);
    QVERIFY2(jobs[0].contains(" JobState=CANCELLED "), jobs[0].constData());
    // Neither replica later turned the cancel into a failure ("cancelled outside Eddy").
    for (McpTestClient *c : {&a, &b}) {
        const json now = c->getTask(id).result();
        QCOMPARE(statusOf(now), std::string("cancelled"));
        QCOMPARE(now.value("statusMessage", std::string()), std::string("cancelled by request"));
    }
    const QByteArray jobId = QRegularExpression(QStringLiteral("JobId=(\\d+)"))
                                 .match(QString::fromLatin1(jobs[0]))
                                 .captured(1)
                                 .toLatin1();
    QVERIFY(!jobId.isEmpty());
    // Exactly one scancel (the replicas share one data folder, so one log file).
    const QRegularExpression scancel(QStringLiteral("scancel %1(?!\\d)").arg(QString::fromLatin1(jobId)));
    QStringList lines;
    for (const QString &line : QString::fromUtf8(m_replicas[0]->standardError()).split(QLatin1Char('\n')))
        if (line.contains(scancel))
            lines << line;
    QVERIFY2(lines.size() == 1, qPrintable(lines.join(QLatin1Char('\n'))));
}

namespace {

// What a replica writes when it stores a cancel (TaskStore::save): the row with the next change
// number. Here for the crash the real server cannot be stopped at: after this, before scancel.
bool storeCancel(const QString &dbPath, const std::string &taskId)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(dbPath).constData(), &db, SQLITE_OPEN_READWRITE, nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    sqlite3_busy_timeout(db, 10000);
    const std::string sql
        = "BEGIN IMMEDIATE; UPDATE task_seq SET n = n + 1;"
          " UPDATE tasks SET status = 'cancelled', status_message = 'cancelled by request',"
          " seq = (SELECT n FROM task_seq) WHERE id = '"
          + taskId + "'; COMMIT;";
    const bool ok = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK
                    && sqlite3_changes(db) == 1;
    sqlite3_close(db);
    return ok;
}

} // namespace

void tst_SlurmReplicas::cancelLeftByADeadReplicaIsEndedByAnother()
{
    McpTestClient b(m_replicas[1]->url());
    const std::string id = b.createTask(
        {{"reynolds", 100}, {"grid", 32}, {"max_iterations", 10000000}, {"tolerance", 1e-30}});
    QVERIFY(!id.empty());
    const auto running = [](const json &t) {
        return t.value("statusMessage", std::string()).rfind("iteration ", 0) == 0
               || McpTestClient::isTerminal(t);
    };
    QCOMPARE(statusOf(b.waitForTask(id, running, 60000)), std::string("working"));
    // Replica A took a cancel, stored it and died before its scancel.
    m_replicas[0]->kill();
    QVERIFY(storeCancel(m_dir.filePath(QStringLiteral("data/tasks.sqlite")), id));
    QVERIFY(m_replicas[0]->restart()); // it comes back; a cancelled task is no job of its
    const json next = b.getTask(id).result();
    QCOMPARE(statusOf(next), std::string("cancelled"));
    // B, which followed the job, ends it once it still runs well after the cancel (10 s).
    QTRY_VERIFY_WITH_TIMEOUT(!jobcompLinesOf(id).isEmpty(), 40000);
    QTest::qWait(1000); // negative check: no second job turns up late
    const QList<QByteArray> jobs = jobcompLinesOf(id);
    QCOMPARE(jobs.size(), 1);
    QVERIFY2(jobs[0].contains(" JobState=CANCELLED "), jobs[0].constData());
    const QString jobId = QRegularExpression(QStringLiteral("JobId=(\\d+)"))
                              .match(QString::fromLatin1(jobs[0]))
                              .captured(1);
    const QRegularExpression scancel(QStringLiteral("scancel %1(?!\\d)").arg(jobId));
    QStringList lines;
    for (const QString &line : QString::fromUtf8(m_replicas[1]->standardError()).split(QLatin1Char('\n')))
        if (line.contains(scancel))
            lines << line;
    QVERIFY2(lines.size() == 1 && lines[0].contains(QLatin1String("ended on another replica")),
             qPrintable(lines.join(QLatin1Char('\n'))));
    QCOMPARE(statusOf(b.getTask(id).result()), std::string("cancelled"));
}

void tst_SlurmReplicas::runSweep(const QString &name, const std::function<void()> &midway)
{
    const QString db = m_dir.filePath(name + QStringLiteral(".sqlite"));
    const QString spec = m_dir.filePath(name + QStringLiteral(".json"));
    QVERIFY(writeFile(spec, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 300000, "tolerance": 1e-30},
        "vary": {"reynolds": {"list": [100, 200, 400, 600, 800, 1000]}},
        "mode": "grid", "concurrency": 6})"));
    const int jobsBefore = eddyJobsInJobcomp();
    Run r = Eddy::Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_url, spec},
                               {10000, 120000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted());
    // The fault strikes while cases are in flight: a job runs, and the watch follows it. A case
    // is 300,000 iterations (about 3 s of one job), so a loaded machine does not end the sweep
    // before the fault.
    QTRY_VERIFY2_WITH_TIMEOUT(watch.state() != QProcess::Running || eddyJobRunning(),
                              "no case's job was running within a minute of the submit", 60000);
    QVERIFY2(watch.state() == QProcess::Running,
             (QByteArray("eddyctl watch ended before the fault: ") + watch.readAllStandardOutput()
              + watch.readAllStandardError()).constData());
    QVERIFY2(eddyJobRunning(), "no case's job was running within a minute of the submit");
    QVERIFY2(eddyJobsInJobcomp() - jobsBefore < 6, "every job ended before the fault");
    midway();
    if (QTest::currentTestFailed())
        return;
    // waitForFinished() is false for a process that already ended during midway().
    if (watch.state() != QProcess::NotRunning)
        QVERIFY2(watch.waitForFinished(180000), "eddyctl watch did not finish");
    QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
    QVERIFY2(watch.exitCode() == 0, (watch.readAllStandardOutput() + watch.readAllStandardError()).constData());
    r = Eddy::Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), QStringLiteral("1"),
                            QStringLiteral("--format"), QStringLiteral("json")}, {10000, 120000, 5000});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 6);
    for (const QJsonValue &v : rows)
        QCOMPARE(v.toObject().value("result").toObject().value("isError").toBool(true), false);
    // Six jobs, each exactly once, whatever replica submitted or followed them.
    QTRY_VERIFY_WITH_TIMEOUT(eddyJobsInJobcomp() - jobsBefore >= 6, 30000);
    QTest::qWait(1000); // negative check: no seventh job turns up late
    QCOMPARE(eddyJobsInJobcomp() - jobsBefore, 6);
}

void tst_SlurmReplicas::sweepSurvivesKillNineOfOneReplica()
{
    runSweep(QStringLiteral("kill9"), [this] {
        m_replicas[1]->kill();
        QTest::qWait(1000); // pacing: the replica stays down a while, so the others must cover for it
        QVERIFY(m_replicas[1]->restart());
    });
}

void tst_SlurmReplicas::sweepSurvivesRollingRestart()
{
    runSweep(QStringLiteral("rolling"), [this] {
        for (auto &r : m_replicas) {
            QVERIFY(r->terminate());
            QVERIFY(r->restart());
            QTest::qWait(500); // pacing: a rolling restart, one replica after another, not all at once
        }
    });
}

QTEST_GUILESS_MAIN(tst_SlurmReplicas)
#include "tst_slurmreplicas.moc"
