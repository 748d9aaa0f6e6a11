// Streamed calls end to end: the real eddyctl against the official
// @modelcontextprotocol/server-everything (its trigger-long-running-operation tool answers a
// tools/call as an SSE stream of notifications/progress; no task is offered for it), served on
// loopback by tests/interop/everything-server.mjs. A streamed call is a row of pattern
// "streamed" with progress samples and its stored result; kill -9 of eddyctl mid-stream leaves a
// row that the next eddyctl reports as lost, never as running; a server that dies mid-stream
// gives a lost row that says how far the run got.
#include "tests/common/ctlprocess.h"
#include "tests/common/nodeserver.h"
#include "tests/common/testserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

using Run = Eddy::Test::CtlRun;

Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 120000, 5000});
}

QList<QStringList> query(const QString &path, const QString &sql)
{
    return Eddy::Test::query(path, sql, 10000);
}

QJsonArray tasksJson(const QString &db)
{
    const Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("tasks"), QStringLiteral("--json")});
    if (r.code != 0)
        qWarning() << "eddyctl tasks failed:" << r.code << r.err;
    return QJsonDocument::fromJson(r.out).array();
}

// Waits (polling the file another process writes) until the task's status message matches.
bool waitForMessage(const QString &db, const QString &like, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        const auto rows = query(db, QStringLiteral("SELECT count(*) FROM tasks WHERE pattern = 'streamed' "
                                                   "AND status_message LIKE '%1'").arg(like));
        if (!rows.isEmpty() && rows.first().value(0).toInt() > 0)
            return true;
        QTest::qWait(100); // the poll step of a condition wait: each try opens the database
    }
    return false;
}

const QString Tool = QStringLiteral("trigger-long-running-operation");

// A loopback TCP relay in front of the real server that cuts one connection: the first response
// bytes that contain `cutAt` are passed on, then that client connection is closed (a dropped
// stream the real server cannot produce on demand). Everything else is relayed unchanged, and
// the request heads are kept so the test can see what the client sent.
class CuttingRelay : public QObject
{
public:
    bool listen(quint16 upstreamPort, QByteArray cutAt)
    {
        m_upstreamPort = upstreamPort;
        m_cutAt = std::move(cutAt);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection())
                relay(client);
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }
    bool cut() const { return m_cut; }
    QByteArray requests() const { return m_requests; }

private:
    void relay(QTcpSocket *client)
    {
        auto *upstream = new QTcpSocket(client);
        upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
        connect(client, &QTcpSocket::readyRead, upstream, [this, client, upstream] {
            const QByteArray data = client->readAll();
            m_requests += data;
            if (upstream->state() == QAbstractSocket::ConnectedState)
                upstream->write(data);
            else
                m_pending[upstream] += data;
        });
        connect(upstream, &QTcpSocket::connected, upstream, [this, upstream] {
            upstream->write(m_pending.take(upstream));
        });
        connect(upstream, &QTcpSocket::readyRead, client, [this, client, upstream] {
            const QByteArray data = upstream->readAll();
            client->write(data);
            if (!m_cut && data.contains(m_cutAt)) {
                m_cut = true;
                client->flush();
                client->abort();
                upstream->abort();
            }
        });
        connect(upstream, &QTcpSocket::disconnected, client, &QTcpSocket::disconnectFromHost);
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    }

    QTcpServer m_server;
    quint16 m_upstreamPort = 0;
    QByteArray m_cutAt;
    bool m_cut = false;
    QByteArray m_requests;
    QHash<QTcpSocket *, QByteArray> m_pending;
};

} // namespace

class tst_StreamedCall : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void streamedCallIsARowWithProgressAndResult();
    void killNineMidStreamIsLostNotRunning();
    void serverGoneMidStreamIsLostWithHowFar();
    void droppedStreamIsResumedWithLastEventId();
    void referenceServerStreamedModeOnTheRealSolver();

private:
    Eddy::Test::NodeServer m_server{QStringLiteral("everything-server.mjs"),
                                    QStringLiteral("@modelcontextprotocol/server-everything")};
    QString m_url;
    QTemporaryDir m_dir;
    QString db() const { return m_dir.filePath(QStringLiteral("eddy.db")); }
};

void tst_StreamedCall::init()
{
    QVERIFY(m_dir.isValid());
    QFile::remove(db());
    m_url = m_server.start();
    QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.error()));
}

void tst_StreamedCall::cleanup()
{
    m_server.stop();
}

void tst_StreamedCall::streamedCallIsARowWithProgressAndResult()
{
    const Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("call"), m_url, Tool,
                          QStringLiteral("{\"duration\":2,\"steps\":4}"), QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("Long running operation completed. Duration: 2 seconds, Steps: 4."),
             r.out.constData());

    const QJsonArray tasks = tasksJson(db());
    QCOMPARE(tasks.size(), 1);
    const QJsonObject t = tasks.first().toObject();
    QCOMPARE(t.value(QStringLiteral("pattern")).toString(), QStringLiteral("streamed"));
    QCOMPARE(t.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(t.value(QStringLiteral("statusMessage")).toString(), QStringLiteral("step 4 of 4 (100 %)"));

    // Every notification was stored as it came: one event per step, and chart samples
    // (step and percent) at x = 1..4.
    const QString id = QString::number(t.value(QStringLiteral("id")).toInteger());
    const auto events = query(db(), QStringLiteral("SELECT status_message FROM task_events WHERE "
                                                   "task_id = %1 AND status = 'working' AND status_message <> '' "
                                                   "ORDER BY id").arg(id));
    QCOMPARE(events.size(), 4);
    QCOMPARE(events.first().value(0), QStringLiteral("step 1 of 4 (25 %)"));
    const auto percent = query(db(), QStringLiteral("SELECT x, y FROM progress_samples WHERE task_id = %1 "
                                                    "AND series = 'percent' ORDER BY x").arg(id));
    QCOMPARE(percent.size(), 4);
    QCOMPARE(percent.at(1), (QStringList{QStringLiteral("2.0"), QStringLiteral("50.0")}));
    QCOMPARE(percent.at(3), (QStringList{QStringLiteral("4.0"), QStringLiteral("100.0")}));
    const auto result = query(db(), QStringLiteral("SELECT result FROM tasks WHERE id = %1").arg(id));
    QVERIFY(result.value(0).value(0).contains(QStringLiteral("Long running operation completed")));
}

void tst_StreamedCall::killNineMidStreamIsLostNotRunning()
{
    QProcess ctl;
    ctl.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db(), QStringLiteral("call"), m_url, Tool,
                                     QStringLiteral("{\"duration\":60,\"steps\":60}"), QStringLiteral("--wait")});
    QVERIFY(ctl.waitForStarted(10000));
    // The row exists and shows progress while the call streams.
    QVERIFY2(waitForMessage(db(), QStringLiteral("step 2 of 60%"), 60000), ctl.readAllStandardError().constData());
    const QJsonArray live = tasksJson(db());
    QCOMPARE(live.size(), 1);
    QCOMPARE(live.first().toObject().value(QStringLiteral("status")).toString(), QStringLiteral("working"));
    ctl.kill(); // SIGKILL
    QVERIFY(ctl.waitForFinished(10000));

    const QJsonArray after = tasksJson(db());
    QCOMPARE(after.size(), 1);
    const QJsonObject t = after.first().toObject();
    QCOMPARE(t.value(QStringLiteral("pattern")).toString(), QStringLiteral("streamed"));
    QCOMPARE(t.value(QStringLiteral("status")).toString(), QStringLiteral("lost"));
    const QString message = t.value(QStringLiteral("statusMessage")).toString();
    QVERIFY2(message.startsWith(QStringLiteral("connection lost at ")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("may have cancelled the run")), qPrintable(message));
}

void tst_StreamedCall::serverGoneMidStreamIsLostWithHowFar()
{
    QProcess ctl;
    ctl.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db(), QStringLiteral("call"), m_url, Tool,
                                     QStringLiteral("{\"duration\":40,\"steps\":20}"), QStringLiteral("--wait")});
    QVERIFY(ctl.waitForStarted(10000));
    QVERIFY2(waitForMessage(db(), QStringLiteral("step 3 of 20%"), 60000), ctl.readAllStandardError().constData());
    m_server.kill();
    // eddyctl sees the stream end without a result: it stores the loss and fails the call.
    QVERIFY(ctl.waitForFinished(60000));
    QCOMPARE(ctl.exitStatus(), QProcess::NormalExit);
    QVERIFY(ctl.exitCode() != 0);
    const QByteArray err = ctl.readAllStandardError();
    QVERIFY2(err.contains("ended lost"), err.constData());

    const QJsonArray after = tasksJson(db());
    QCOMPARE(after.size(), 1);
    const QJsonObject t = after.first().toObject();
    QCOMPARE(t.value(QStringLiteral("status")).toString(), QStringLiteral("lost"));
    const QString message = t.value(QStringLiteral("statusMessage")).toString();
    // At least 3 of 20 steps had come (15 %), and the run was far from done.
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^connection lost at (\\d+) %; the server may have cancelled the run"))
            .match(message);
    QVERIFY2(m.hasMatch(), qPrintable(message));
    QVERIFY2(m.captured(1).toInt() >= 15 && m.captured(1).toInt() < 100, qPrintable(message));
}

void tst_StreamedCall::droppedStreamIsResumedWithLastEventId()
{
    // server-everything keeps every event (an in-memory event store) and replays them after a
    // GET with Last-Event-ID: Eddy reconnects and the call completes, nothing missed.
    CuttingRelay relay;
    QVERIFY(relay.listen(QUrl(m_url).port(), "\"progress\":3"));
    QString url = m_url;
    url.replace(QStringLiteral(":%1/").arg(QUrl(m_url).port()), QStringLiteral(":%1/").arg(relay.port()));
    QProcess ctl;
    ctl.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db(), QStringLiteral("call"), url, Tool,
                                     QStringLiteral("{\"duration\":3,\"steps\":6}"), QStringLiteral("--wait")});
    QVERIFY(ctl.waitForStarted(10000));
    // The relay lives on this thread: wait with the event loop running.
    QVERIFY(QTest::qWaitFor([&ctl] { return ctl.state() == QProcess::NotRunning; }, 120000));
    const QByteArray out = ctl.readAllStandardOutput();
    const QByteArray err = ctl.readAllStandardError();
    QVERIFY2(relay.cut(), "the relay never saw the third progress notification");
    QVERIFY2(ctl.exitCode() == 0, err.constData());
    QVERIFY2(out.contains("Long running operation completed. Duration: 3 seconds, Steps: 6."), out.constData());
    QVERIFY2(relay.requests().contains("GET /mcp"), relay.requests().constData());
    QVERIFY(relay.requests().toLower().contains("last-event-id: "));

    const QJsonObject t = tasksJson(db()).first().toObject();
    QCOMPARE(t.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(t.value(QStringLiteral("pattern")).toString(), QStringLiteral("streamed"));
    const QString id = QString::number(t.value(QStringLiteral("id")).toInteger());
    const auto steps = query(db(), QStringLiteral("SELECT y FROM progress_samples WHERE task_id = %1 "
                                                  "AND series = 'step' ORDER BY x").arg(id));
    QCOMPARE(steps.size(), 6); // steps 1-3 before the cut, 4-6 after the resumption
}

void tst_StreamedCall::referenceServerStreamedModeOnTheRealSolver()
{
    // eddy-cfd-server without the Tasks extension: run_cfd_case answers as a streamed tools/call
    // whose progress messages are the solver's ("iteration N of M, residual ...").
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({QStringLiteral("--no-tasks-extension"), QStringLiteral("--stream-progress-ms"),
                           QStringLiteral("50")}),
             qPrintable(server.errorString()));
    const Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("call"), server.url(),
                          QStringLiteral("run_cfd_case"),
                          QStringLiteral("{\"reynolds\": 100, \"grid\": 64, \"max_iterations\": 20000, "
                                         "\"tolerance\": 1e-12}"),
                          QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("\"structuredContent\""), r.out.constData());
    const QJsonObject t = tasksJson(db()).first().toObject();
    QCOMPARE(t.value(QStringLiteral("pattern")).toString(), QStringLiteral("streamed"));
    QCOMPARE(t.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QString id = QString::number(t.value(QStringLiteral("id")).toInteger());
    // The progress notifications were charted as they came: iterations at x = the iteration
    // (a run of about a second here, reported every 50 ms).
    const auto iterations = query(db(), QStringLiteral("SELECT x FROM progress_samples WHERE task_id = %1 "
                                                       "AND series = 'iteration' ORDER BY x").arg(id));
    QVERIFY2(iterations.size() >= 2, qPrintable(QString::number(iterations.size())));
    QVERIFY(iterations.first().value(0).toDouble() < iterations.last().value(0).toDouble());
    const auto percent = query(db(), QStringLiteral("SELECT count(*) FROM progress_samples WHERE task_id = %1 "
                                                    "AND series = 'percent'").arg(id));
    QVERIFY(percent.value(0).value(0).toInt() >= 2);
}

QTEST_GUILESS_MAIN(tst_StreamedCall)
#include "tst_streamedcall.moc"
