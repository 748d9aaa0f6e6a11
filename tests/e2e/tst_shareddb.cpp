// One database, several processes: the real window (offscreen) and the real eddyctl binary on one
// SQLite file, against eddy-cfd-server on loopback (debug log: one line per tasks/get and
// tasks/update, task ids redacted), cases that force a mesh defect so each asks "repair or
// abort?":
// - a sweep eddyctl submits into the window's database (no session) appears in the window's
//   session and its questions reach the window's inbox;
// - with the window and two eddyctl watchers on the database, each task is polled by one process
//   at a time (the server sees one poll rate, not three) and each answer is sent once although
//   three processes try;
// - kill -9 of the process that polls a task: the window takes over once the lease runs out.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/serverlog.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <signal.h>

using namespace Eddy;
using nlohmann::json;
using Store::TaskStatus;
using Test::LogLine;
using Test::serverLines;

namespace {

constexpr int s_serverPollMs = 500; // the server's pollIntervalMs for a waiting task
constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};

} // namespace

class tst_SharedDb : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void eddyctlSweepJoinsTheWindow();
    void oneProcessPollsEachTaskAndAnswersGoOnce();
    void killedPollerIsTakenOver();
    void hungPollerIsTakenOverWhenItsLeaseRunsOut();

private:
    // The window on `db`, settled on a session that exists.
    static std::unique_ptr<Test::E2eWindow> startApp(const QString &db);
    QString writeSpec(int cases);
    std::unique_ptr<QProcess> startCtl(const QStringList &args);
    static qint64 requestsSent(const Test::E2eWindow &app);
    qint64 m_quietRequests = 0; // the window's requests once it opened beside a polling eddyctl
    // An eddyctl "call --wait" of an asking case, then the window on its database, checked to
    // show the task and its question without polling it. Null (test failed) otherwise.
    QProcess *startHolder(const QString &db);
    // The window answers the task's question; it completes, and the server got one answer.
    void answerAndFinish(const QString &db, qsizetype logBefore);
    // Polls per task in a stretch of the server's log fit one poller, not two.
    void checkOnePoller(const QList<LogLine> &polls, int tasks);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    QList<std::shared_ptr<QProcess>> m_ctls;
    int m_reynolds = 100;
};

std::unique_ptr<Test::E2eWindow> tst_SharedDb::startApp(const QString &db)
{
    Test::E2eWindowOptions options;
    options.waitForSession = true; // a remembered session that does not exist is replaced first
    return Test::E2eWindow::open(db, options);
}

qint64 tst_SharedDb::requestsSent(const Test::E2eWindow &app)
{
    qint64 n = 0;
    app.onEngine([&n](Monitor::Engine &engine) { n = engine.requestsSent(); });
    return n;
}

QString tst_SharedDb::writeSpec(int cases)
{
    json reynolds = json::array();
    for (int i = 0; i < cases; ++i)
        reynolds.push_back(m_reynolds++);
    const json spec{{"tool", "run_cfd_case"},
                    {"fixed", {{"grid", 16}, {"max_iterations", 200}, {"force_mesh_defect", true}}},
                    {"vary", {{"reynolds", {{"list", reynolds}}}}},
                    {"concurrency", cases}};
    const QString path = m_dir.filePath(QStringLiteral("spec-%1.json").arg(m_reynolds));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QByteArray::fromStdString(spec.dump()));
    return path;
}

std::unique_ptr<QProcess> tst_SharedDb::startCtl(const QStringList &args)
{
    auto p = std::make_unique<QProcess>();
    p->setProgram(Test::ctlBin());
    p->setArguments(args);
    p->setStandardInputFile(QProcess::nullDevice()); // no terminal: nothing asks on stdin
    p->start();
    return p;
}

void tst_SharedDb::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_shareddb"));
    // Short leases keep the takeover test short; eddyctl children inherit it.
    qputenv("EDDY_LEASE_MS", "1500");
    QSettings().clear(); // no session remembered from an earlier run
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"),
                             QString::number(s_serverPollMs),
                             QStringLiteral("--workers"),
                             QStringLiteral("4"),
                             QStringLiteral("--log-level"),
                             QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
}

void tst_SharedDb::cleanup()
{
    for (const auto &p : std::as_const(m_ctls)) {
        if (p->state() != QProcess::NotRunning) {
            p->kill();
            p->waitForFinished(10000);
        }
    }
    m_ctls.clear();
    m_app.reset();
    QSettings().clear();
}

void tst_SharedDb::eddyctlSweepJoinsTheWindow()
{
    const QString db = m_dir.filePath(QStringLiteral("joins.sqlite"));
    m_app = startApp(db);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    const qint64 session = *w.currentSession();
    QCOMPARE(w.taskModel()->rowCount(), 0);

    // eddyctl journals and submits a sweep of two asking cases into the window's database, with
    // no session, and exits once both have their task: nobody tells the window.
    const QString spec = writeSpec(2);
    const Test::CtlRun run = Test::runCtl({QStringLiteral("--db"),
                                           db,
                                           QStringLiteral("sweep"),
                                           QStringLiteral("submit"),
                                           m_server.url(),
                                           spec},
                                          s_ctl);
    QVERIFY2(run.code == 0, run.err.constData());

    // The window's session lists both cases, they go on to ask, and the questions reach the
    // window's inbox: polled here now that eddyctl has gone.
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 2, 30000);
    for (int r = 0; r < 2; ++r) {
        const qint64 id = w.taskModel()->taskIdAt(r);
        QTRY_COMPARE_WITH_TIMEOUT(
            int(w.taskModel()->task(id)->status), int(TaskStatus::InputRequired), 60000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->rowCount(), 2, 30000);

    // The sweep became part of the session for good (the next start lists it there too).
    QTRY_COMPARE_WITH_TIMEOUT(
        Test::query(
            db,
            QStringLiteral("SELECT COUNT(*) FROM sweeps WHERE session_id = %1").arg(session),
            5000)
            .value(0)
            .value(0),
        QStringLiteral("1"),
        30000);
}

void tst_SharedDb::oneProcessPollsEachTaskAndAnswersGoOnce()
{
    const QString db = m_dir.filePath(QStringLiteral("once.sqlite"));
    m_app = startApp(db);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    const qint64 serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(serverId);

    // The window submits two asking cases: it polls them.
    for (int i = 0; i < 2; ++i) {
        const json args{{"reynolds", m_reynolds++},
                        {"grid", 16},
                        {"max_iterations", 200},
                        {"force_mesh_defect", true}};
        m_app->bridge()->callOnce(serverId,
                                  QStringLiteral("run_cfd_case"),
                                  QByteArray::fromStdString(args.dump()),
                                  w.currentSession());
    }
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 2, 60000);
    QList<qint64> ids{w.taskModel()->taskIdAt(0), w.taskModel()->taskIdAt(1)};
    for (qint64 id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(
            int(w.taskModel()->task(id)->status), int(TaskStatus::InputRequired), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->rowCount(), 2, 30000);

    // Two eddyctl watchers open the same database while the tasks wait for their answers.
    const qsizetype logBefore = m_server.standardError().size();
    for (int i = 0; i < 2; ++i) {
        m_ctls << std::shared_ptr<QProcess>(
            startCtl({QStringLiteral("--db"), db, QStringLiteral("watch")}));
        QVERIFY(m_ctls.last()->waitForStarted(30000));
    }
    // A while of waiting questions: polls every s_serverPollMs from whoever polls.
    QTest::qWait(5000); // pacing: a window of polls, counted below
    checkOnePoller(
        serverLines(m_server.standardError().mid(logBefore), QStringLiteral("tasks/get")), 2);
    if (QTest::currentTestFailed())
        return;

    // Each question is answered by three processes at once: two eddyctl answer commands and the
    // window; each answer reaches the server once.
    QList<std::shared_ptr<QProcess>> answers;
    const QString form = QStringLiteral("{\"action\":\"repair\",\"smoothing_passes\":3}");
    for (qint64 id : ids) {
        const auto rows = Test::query(
            db, QStringLiteral("SELECT key FROM input_requests WHERE task_id = %1").arg(id), 5000);
        QCOMPARE(rows.size(), 1);
        const QString key = rows[0][0];
        for (int i = 0; i < 2; ++i)
            answers << std::shared_ptr<QProcess>(startCtl({QStringLiteral("--db"),
                                                           db,
                                                           QStringLiteral("answer"),
                                                           QString::number(id),
                                                           key,
                                                           form}));
        m_app->bridge()->answerInput(
            id,
            key,
            QByteArrayLiteral("{\"action\":\"accept\",\"content\":{\"action\":\"repair\","
                              "\"smoothing_passes\":3}}"),
            QStringLiteral("tester"));
    }
    int ok = 0;
    for (const auto &p : std::as_const(answers)) {
        QVERIFY(p->waitForFinished(60000));
        ok += p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0;
    }
    QVERIFY(ok <= 2); // at most one winner per question among the commands
    for (qint64 id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(
            int(w.taskModel()->task(id)->status), int(TaskStatus::Completed), 60000);
    const QList<LogLine> updates
        = serverLines(m_server.standardError().mid(logBefore), QStringLiteral("tasks/update"));
    QHash<QString, int> perTask;
    for (const LogLine &l : updates)
        ++perTask[l.task];
    QCOMPARE(perTask.size(), 2);
    for (auto it = perTask.cbegin(); it != perTask.cend(); ++it)
        QCOMPARE(it.value(), 1);
    QCOMPARE(w.inboxModel()->pendingCount(), 0);
}

QProcess *tst_SharedDb::startHolder(const QString &db)
{
    // eddyctl calls an asking case and waits for it: it polls the task.
    const json args{{"reynolds", m_reynolds++},
                    {"grid", 16},
                    {"max_iterations", 200},
                    {"force_mesh_defect", true}};
    m_ctls << std::shared_ptr<QProcess>(startCtl({QStringLiteral("--db"),
                                                  db,
                                                  QStringLiteral("call"),
                                                  m_server.url(),
                                                  QStringLiteral("run_cfd_case"),
                                                  QString::fromStdString(args.dump()),
                                                  QStringLiteral("--wait")}));
    QProcess *holder = m_ctls.last().get();
    if (!holder->waitForStarted(30000))
        return nullptr;
    QByteArray said;
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT((said += holder->readAllStandardError()).contains("asks"), 60000);
    }();
    if (!said.contains("asks"))
        return nullptr;

    // The window opens on the same database: it shows the task and its question, and leaves the
    // polling to eddyctl.
    m_app = startApp(db);
    if (!m_app)
        return nullptr;
    MainWindow &w = *m_app->window();
    w.switchSession(std::nullopt); // the call has no session: All sessions
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 1, 30000);
        const qint64 id = w.taskModel()->taskIdAt(0);
        QTRY_COMPARE_WITH_TIMEOUT(
            int(w.taskModel()->task(id)->status), int(TaskStatus::InputRequired), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 30000);
        // The window asks the server who it is once it opens (server/discover, tools/list):
        // counted from when it shows the answer.
        QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->state(w.serverModel()->servers().value(0).id),
                                  ServerListModel::State::Online, 30000);
        m_quietRequests = requestsSent(*m_app);
        // eddyctl goes on polling (a poll every 500 ms while the question waits); the window
        // sends nothing more.
        const qsizetype logBefore = m_server.standardError().size();
        QTRY_VERIFY_WITH_TIMEOUT(
            serverLines(m_server.standardError().mid(logBefore), QStringLiteral("tasks/get")).size()
                >= 4,
            30000);
        QCOMPARE(requestsSent(*m_app), m_quietRequests);
    }();
    return QTest::currentTestFailed() ? nullptr : holder;
}

void tst_SharedDb::answerAndFinish(const QString &db, qsizetype logBefore)
{
    MainWindow &w = *m_app->window();
    const qint64 id = w.taskModel()->taskIdAt(0);
    const QString key
        = Test::query(
              db, QStringLiteral("SELECT key FROM input_requests WHERE task_id = %1").arg(id), 5000)
              .value(0)
              .value(0);
    QVERIFY(!key.isEmpty());
    m_app->bridge()->answerInput(
        id,
        key,
        QByteArrayLiteral(
            "{\"action\":\"accept\",\"content\":{\"action\":\"repair\",\"smoothing_passes\":3}}"),
        QStringLiteral("tester"));
    QTRY_COMPARE_WITH_TIMEOUT(
        int(w.taskModel()->task(id)->status), int(TaskStatus::Completed), 60000);
    const QList<LogLine> updates
        = serverLines(m_server.standardError().mid(logBefore), QStringLiteral("tasks/update"));
    QCOMPARE(updates.size(), 1);
}

void tst_SharedDb::killedPollerIsTakenOver()
{
    const QString db = m_dir.filePath(QStringLiteral("killed.sqlite"));
    QProcess *holder = startHolder(db);
    QVERIFY(holder);
    // kill -9: the window polls the task itself.
    const qsizetype logBefore = m_server.standardError().size();
    holder->kill();
    QVERIFY(holder->waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(requestsSent(*m_app) > m_quietRequests, 30000);
    answerAndFinish(db, logBefore);
}

void tst_SharedDb::hungPollerIsTakenOverWhenItsLeaseRunsOut()
{
    const QString db = m_dir.filePath(QStringLiteral("hung.sqlite"));
    QProcess *holder = startHolder(db);
    QVERIFY(holder);
    // SIGSTOP: the holder still exists but renews nothing; once its lease has run out the
    // window polls the task.
    QCOMPARE(::kill(pid_t(holder->processId()), SIGSTOP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(requestsSent(*m_app) > m_quietRequests, 30000);
    // Woken up, it finds its lease gone and leaves the task to the window: one poller again.
    QCOMPARE(::kill(pid_t(holder->processId()), SIGCONT), 0);
    QTest::qWait(1000); // pacing: it wakes and gives the task up (no sign of it to wait on)
    const qsizetype logBefore = m_server.standardError().size();
    QTest::qWait(4000); // pacing: a window of polls, counted below
    checkOnePoller(
        serverLines(m_server.standardError().mid(logBefore), QStringLiteral("tasks/get")), 1);
    answerAndFinish(db, logBefore);
}

void tst_SharedDb::checkOnePoller(const QList<LogLine> &polls, int tasks)
{
    QHash<QString, QList<qint64>> byTask;
    for (const LogLine &l : polls)
        byTask[l.task] << l.atMs;
    QCOMPARE(byTask.size(), tasks);
    for (auto it = byTask.cbegin(); it != byTask.cend(); ++it) {
        const QList<qint64> &at = it.value();
        QVERIFY2(
            at.size() >= 4,
            qPrintable(QStringLiteral("task %1 polled %2 times").arg(it.key()).arg(at.size())));
        const double span = double(at.last() - at.first());
        // One poller: about span / interval + 1 polls; each more poller adds as many again.
        const double bound = 1.25 * span / s_serverPollMs + 3;
        QVERIFY2(at.size() <= bound,
                 qPrintable(QStringLiteral("task %1 polled %2 times in %3 ms "
                                           "(one poller: at most %4)")
                                .arg(it.key())
                                .arg(at.size())
                                .arg(span)
                                .arg(bound)));
    }
}

QTEST_MAIN(tst_SharedDb)
#include "tst_shareddb.moc"
