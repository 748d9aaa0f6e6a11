#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QAction>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;

// Server > Remove Server... on a server with stored tasks (issue 14, item 10), on the real
// MainWindow against the real eddy-cfd-server and a real SQLite file. It is the bundled local
// server here (the remembered URL), so the box also says what happens at the next start. One box:
// keeping its tasks as history is the default (the server leaves the list and is never asked
// again; its tasks stay, with results, marked as from a removed server; the running one is no
// longer watched), adding its URL again brings it back with them, then deleting its tasks too.
class tst_ServerRemove : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void removeKeepingTasks();
    void readdBringsHistoryBack();
    void removeDeletingTasks();
    void cleanupTestCase();

private:
    QMessageBox *openRemoval(const QString &name);
    int taskGets() const { return int(m_server.standardError().count("tasks/get")); }
    qint64 storedTasks();

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr; // m_app's
    EngineBridge *m_bridge = nullptr;
    qint64 m_serverId = 0;
};

void tst_ServerRemove::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serverremove"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    // Two workers: the short case must not wait behind the long one (one worker on 2 cores).
    QVERIFY2(m_server.start({QStringLiteral("--workers"),
                             QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("200"),
                             QStringLiteral("--log-level"),
                             QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    QVERIFY(m_app);
    m_window = m_app->window();
    m_bridge = m_app->bridge();

    MainWindow &w = *m_window;
    QSettings().setValue(QStringLiteral("localServer/url"), m_server.url()); // as FirstRun keeps it
    m_serverId = m_app->addServer(m_server.url(), QStringLiteral("Local CFD server"));
    QVERIFY(m_serverId > 0);
    QCOMPARE(w.serverModel()->rowCount(), 1);
    // One case that finishes, one that runs for minutes.
    m_bridge->callOnce(m_serverId,
                       QStringLiteral("run_cfd_case"),
                       R"({"case_name":"short","reynolds":100,"grid":16,"tolerance":1e-4})",
                       w.currentSession());
    m_bridge->callOnce(m_serverId,
                       QStringLiteral("run_cfd_case"),
                       R"({"case_name":"long","reynolds":100,"grid":128,"tolerance":1e-300,)"
                       R"("max_iterations":10000000})",
                       w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(Store::TaskStatus::Completed), 1, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(Store::TaskStatus::Working), 1, 60000);
}

QMessageBox *tst_ServerRemove::openRemoval(const QString &name)
{
    MainWindow &w = *m_window;
    auto *list = w.findChild<QListView *>(QStringLiteral("servers"));
    for (int r = 0; r < w.serverModel()->rowCount(); ++r) {
        if (w.serverModel()->index(r).data().toString() == name)
            list->setCurrentIndex(w.serverModel()->index(r));
    }
    w.findChild<QAction *>(QStringLiteral("removeServer"))->trigger();
    QMessageBox *box = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                box = w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm"));
                return box && box->isVisible();
            },
            10000))
        return nullptr;
    return box;
}

qint64 tst_ServerRemove::storedTasks()
{
    qint64 n = -1;
    m_app->onEngine([&n](Monitor::Engine &engine) { n = engine.catalogue().tasks().size(); });
    return n;
}

void tst_ServerRemove::removeKeepingTasks()
{
    MainWindow &w = *m_window;
    // The live task is being polled.
    const int before = taskGets();
    QTRY_VERIFY_WITH_TIMEOUT(taskGets() > before, 30000);

    QMessageBox *box = openRemoval(QStringLiteral("Local CFD server"));
    QVERIFY(box);
    // One question: how many tasks, how many still run, and what the next start does.
    const QString text = box->text();
    QVERIFY2(text.contains(QLatin1String("Local CFD server")) && text.contains(m_server.url())
                 && text.contains(QLatin1String("2 stored task"))
                 && text.contains(QLatin1String("Still running on it: 1 task"))
                 && text.contains(QLatin1String("no longer watch"))
                 && text.contains(QLatin1String("comes with Eddy"))
                 && text.contains(QLatin1String("next start")),
             qPrintable(text));
    auto *keep = box->findChild<QPushButton *>(QStringLiteral("removeKeepTasks"));
    QVERIFY(keep);
    QCOMPARE(box->defaultButton(), keep); // Enter deletes nothing
    auto *del = box->findChild<QPushButton *>(QStringLiteral("removeDeleteTasks"));
    QVERIFY(del);
    QVERIFY2(del->text().contains(QLatin1String("2")), qPrintable(del->text()));
    QTest::mouseClick(keep, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->rowCount(), 0, 10000);

    // Its tasks stay in the session: the finished one with its result, the running one no
    // longer followed (not failed), both named after the server, marked as removed.
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(Store::TaskStatus::Lost), 1, 10000);
    QCOMPARE(w.taskModel()->rowCount(), 2);
    QCOMPARE(w.taskModel()->statusCounts().value(Store::TaskStatus::Completed), 1);
    QCOMPARE(w.taskModel()->statusCounts().value(Store::TaskStatus::Failed), 0);
    qint64 completedId = 0;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r) {
        const QModelIndex i = w.taskModel()->index(r, TaskTableModel::ServerColumn);
        QCOMPARE(i.data().toString(), QStringLiteral("Local CFD server (removed)"));
        if (i.data(TaskTableModel::StatusRole).toInt() == int(Store::TaskStatus::Completed))
            completedId = i.data(TaskTableModel::TaskIdRole).toLongLong();
    }
    QVERIFY(completedId > 0);
    QSignalSpy detail(m_bridge, &EngineBridge::taskDetailReady);
    m_bridge->requestTaskDetail(completedId);
    QTRY_COMPARE_WITH_TIMEOUT(detail.count(), 1, 10000);
    const auto d = detail.first().first().value<EngineBridge::TaskDetail>();
    QVERIFY2(d.task.result.contains(QLatin1String("structuredContent"))
                 || d.task.result.contains(QLatin1String("content")),
             qPrintable(d.task.result.left(200)));

    // The server is asked nothing more: no poll of the task it still runs.
    QTest::qWait(1000); // negative check, part 1: a poll already on the wire may still arrive
    const int settled = taskGets();
    QTest::qWait(3000); // negative check: more than ten poll intervals of the server
    QCOMPARE(taskGets(), settled);
}

void tst_ServerRemove::readdBringsHistoryBack()
{
    MainWindow &w = *m_window;
    QSettings().setValue(QStringLiteral("localServer/url"), m_server.url()); // as FirstRun keeps it
    m_bridge->addServer(m_server.url(), QStringLiteral("Local CFD server"), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->rowCount(), 1, 10000);
    QCOMPARE(w.serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong(),
             m_serverId);
    QCOMPARE(storedTasks(), qint64(2));
}

void tst_ServerRemove::removeDeletingTasks()
{
    MainWindow &w = *m_window;
    QMessageBox *box = openRemoval(QStringLiteral("Local CFD server"));
    QVERIFY(box);
    auto *del = box->findChild<QPushButton *>(QStringLiteral("removeDeleteTasks"));
    QVERIFY(del);
    QVERIFY2(del->text().contains(QLatin1String("2")), qPrintable(del->text()));
    QTest::mouseClick(del, Qt::LeftButton); // asked once: no second box
    QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->rowCount(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(storedTasks(), qint64(0), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 0, 10000);
    QVERIFY(!w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm")));
}

void tst_ServerRemove::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_ServerRemove)
#include "tst_serverremove.moc"
