// Servers removed or added by another process on the same database: the real window (offscreen)
// polls a long-running task on the real eddy-cfd-server (debug log: one line per tasks/get, task
// ids redacted to six characters) while the real `eddyctl servers remove NAME` runs on the same
// SQLite file. Within a look or two at the database the window drops the server from its list,
// shows the task as lost from "NAME (removed)" (or no longer at all with --delete-tasks), gives
// the task's lease back and never asks the server about it again. The other way round, a server
// eddyctl adds (or brings back) is listed by the running window.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

namespace {

constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};
const QString s_name = QStringLiteral("Remote CFD");

} // namespace

class tst_ServerSync : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void removedElsewhereKeepingTasks();
    void removedElsewhereDeletingTasks();

private:
    // The window on a new database, its server added, one task running on it and polled.
    void startPolledTask(const QString &dbFile);
    int polls() const; // tasks/get lines about the task in the server's log
    Test::CtlRun ctl(const QStringList &args) const;
    bool listed(const QString &url) const;
    // The polls counted once the window has seen the removal and a poll already on the wire
    // had time to arrive, and again after more than ten of the server's poll intervals.
    void checkNoMorePolls();

    std::unique_ptr<Test::TestServer> m_server;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
    qint64 m_taskId = 0;
    QString m_logId; // the task's id as the server logs it
};

void tst_ServerSync::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serversync"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void tst_ServerSync::init()
{
    // A server per scenario: the task it runs for ever ends with it.
    m_server = std::make_unique<Test::TestServer>();
    QVERIFY2(m_server->start({QStringLiteral("--poll-interval-ms"),
                              QStringLiteral("200"),
                              QStringLiteral("--log-level"),
                              QStringLiteral("debug")}),
             qPrintable(m_server->errorString()));
}

void tst_ServerSync::cleanup()
{
    m_app.reset();
    m_server.reset();
    QSettings().clear();
}

Test::CtlRun tst_ServerSync::ctl(const QStringList &args) const
{
    return Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args, s_ctl);
}

int tst_ServerSync::polls() const
{
    return int(m_server->standardError().count(("tasks/get " + m_logId).toUtf8()));
}

bool tst_ServerSync::listed(const QString &url) const
{
    const ServerListModel *servers = m_app->window()->serverModel();
    for (int r = 0; r < servers->rowCount(); ++r) {
        if (servers->index(r).data(ServerListModel::UrlRole).toString() == url)
            return true;
    }
    return false;
}

void tst_ServerSync::startPolledTask(const QString &dbFile)
{
    m_db = m_dir.filePath(dbFile);
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    m_serverId = m_app->addServer(m_server->url(), s_name);
    QVERIFY(m_serverId > 0);
    // Runs until it is stopped: far more iterations than the test lasts, never converging.
    m_app->bridge()->callOnce(m_serverId,
                              QStringLiteral("run_cfd_case"),
                              R"({"case_name":"long","reynolds":100,"grid":64,)"
                              R"("tolerance":1e-300,"max_iterations":10000000})",
                              w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Working), 1, 60000);
    m_taskId = w.taskModel()->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong();
    QVERIFY(m_taskId > 0);
    QString serverTaskId;
    m_app->onEngine([&](Monitor::Engine &e) {
        if (const auto t = e.catalogue().task(m_taskId))
            serverTaskId = t->serverTaskId;
    });
    QVERIFY(serverTaskId.size() > 6);
    m_logId = serverTaskId.left(6) + QStringLiteral("…");
    // The window polls it (it holds its lease).
    QTRY_VERIFY_WITH_TIMEOUT(polls() >= 2, 30000);
    QCOMPARE(Test::scalar(
                 m_db,
                 QStringLiteral("SELECT COUNT(*) FROM leases WHERE item = 'task:%1'").arg(m_taskId),
                 10000),
             qint64(1));
}

void tst_ServerSync::checkNoMorePolls()
{
    QTest::qWait(1500); // negative check, part 1: a poll already on the wire may still arrive
    const int settled = polls();
    QTest::qWait(3000); // negative check: more than ten poll intervals of the server (200 ms)
    QCOMPARE(polls(), settled);
    // Its lease was given back at once, not left to run out.
    QCOMPARE(Test::scalar(
                 m_db,
                 QStringLiteral("SELECT COUNT(*) FROM leases WHERE item = 'task:%1'").arg(m_taskId),
                 10000),
             qint64(0));
}

void tst_ServerSync::removedElsewhereKeepingTasks()
{
    startPolledTask(QStringLiteral("keep.sqlite"));
    MainWindow &w = *m_app->window();

    const Test::CtlRun run = ctl({QStringLiteral("servers"), QStringLiteral("remove"), s_name});
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.out.contains("kept as history"), run.out.constData());

    // The window sees it: the server leaves its list, the row is lost, from "NAME (removed)",
    // with the reason.
    QTRY_VERIFY_WITH_TIMEOUT(!listed(m_server->url()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Lost), 1, 10000);
    QCOMPARE(w.taskModel()->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->index(0, TaskTableModel::ServerColumn).data().toString(),
        s_name + QStringLiteral(" (removed)"),
        10000);
    const QString message
        = w.taskModel()->index(0, TaskTableModel::MessageColumn).data().toString();
    QVERIFY2(message.contains(QLatin1String("server was removed")), qPrintable(message));
    checkNoMorePolls();
    // The store agrees: the window did not write the task back to working.
    QCOMPARE(Test::query(m_db,
                         QStringLiteral("SELECT status FROM tasks WHERE id = %1").arg(m_taskId),
                         10000)
                 .value(0)
                 .value(0),
             QStringLiteral("lost"));

    // The other way round: eddyctl adds a server (here a second URL of the same server) and
    // brings the removed one back; the window lists both, and the row names its server again.
    const QString other
        = m_server->url().replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
    QVERIFY2(ctl({QStringLiteral("discover"), other}).code == 0, "eddyctl discover failed");
    QTRY_VERIFY_WITH_TIMEOUT(listed(other), 10000);
    QVERIFY(!listed(m_server->url()));
    QVERIFY2(ctl({QStringLiteral("discover"), m_server->url()}).code == 0,
             "eddyctl discover failed");
    QTRY_VERIFY_WITH_TIMEOUT(listed(m_server->url()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->index(0, TaskTableModel::ServerColumn).data().toString(), s_name, 10000);
    // Its lost task stays lost: brought back is not polled again.
    QCOMPARE(w.taskModel()->statusCounts().value(TaskStatus::Lost), 1);
}

void tst_ServerSync::removedElsewhereDeletingTasks()
{
    startPolledTask(QStringLiteral("delete.sqlite"));
    MainWindow &w = *m_app->window();

    const Test::CtlRun run = ctl({QStringLiteral("servers"),
                                  QStringLiteral("remove"),
                                  s_name,
                                  QStringLiteral("--delete-tasks")});
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.out.contains("deleted its 1 task"), run.out.constData());

    QTRY_VERIFY_WITH_TIMEOUT(!listed(m_server->url()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 0, 10000);
    checkNoMorePolls();
    QCOMPARE(Test::scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM tasks"), 10000), qint64(0));
    QCOMPARE(Test::scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM servers"), 10000), qint64(0));
}

QTEST_MAIN(tst_ServerSync)
#include "tst_serversync.moc"
