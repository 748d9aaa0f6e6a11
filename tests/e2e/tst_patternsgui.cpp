// The three long-running patterns in the window (issue 16), on the real MainWindow offscreen
// against the real eddy-cfd-server run with --no-tasks-extension (so its run_cfd_case answers as
// a streamed tools/call and its classic job tools are the other way to run a case) and a real
// SQLite file:
// - connecting to that server raises a notice (never a modal dialog) offering to review the job
//   adapter; the Job Adapter dialog shows Eddy's proposal, refuses a wrong field by name (nothing
//   stored), stores the engineer's edit, and a job submitted afterwards is a row of pattern Job
//   that completes with the result tool's answer;
// - a streamed call is a row of pattern "Streamed call" whose progress shows like a task's, and
//   cancelling it from the table (Del) ends the stream and the row as cancelled: in 2026-07-28
//   by closing the stream, in 2025-11-25 with notifications/cancelled (the server says which);
// - a streamed call that completes is announced like a task that does.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/jobadapterdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFrame>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;

class tst_PatternsGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void noticeThenDialogStoresTheAdapter();
    void streamedCallShowsProgressAndCancels();
    void streamedCallEndIsAnnounced();
    void legacyStreamedCancelSendsNotificationsCancelled();
    void cleanupTestCase();

private:
    // What Server > Add Server... does with the dialog's answers; *id once it is online.
    void addServer(const Test::TestServer &server, const QString &name, qint64 *id);
    int rowOfTool(const QString &tool) const;
    // The id of the last row of the task table whose task matches, 0 when none does.
    template <typename Pred>
    qint64 lastTaskWhere(Pred matches) const
    {
        const TaskTableModel *tasks = m_window->taskModel();
        qint64 id = 0;
        for (int r = 0; r < tasks->rowCount(); ++r)
            if (const Store::TaskRecord *t = tasks->task(tasks->taskIdAt(r)); t && matches(*t))
                id = t->id;
        return id;
    }
    qint64 scalar(const QString &sql) const { return Test::scalar(m_db, sql, 10000); }
    // Starts run_cfd_case on the server (a streamed call), waits for its row to make progress,
    // then cancels it from the table with Del.
    void runThenCancelStream(qint64 serverId);

    Test::TestServer m_server;
    Test::TestServer m_legacyServer;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr; // m_app's
    EngineBridge *m_bridge = nullptr;
    qint64 m_serverId = 0;
};

void tst_PatternsGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_patternsgui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    const QStringList flags{QStringLiteral("--no-tasks-extension"),
                            QStringLiteral("--workers"),
                            QStringLiteral("2"),
                            QStringLiteral("--stream-progress-ms"),
                            QStringLiteral("100"),
                            QStringLiteral("--sse-keep-alive-ms"),
                            QStringLiteral("300")};
    QVERIFY2(m_server.start(flags), qPrintable(m_server.errorString()));
    QVERIFY2(m_legacyServer.start(flags), qPrintable(m_legacyServer.errorString()));

    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    m_window = m_app->window();
    m_bridge = m_app->bridge();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_window->monitor()->setConfirmCancel(false);
}

void tst_PatternsGui::cleanupTestCase()
{
    m_app.reset();
}

void tst_PatternsGui::addServer(const Test::TestServer &server, const QString &name, qint64 *id)
{
    *id = m_app->addServer(server.url(), name);
    QVERIFY(*id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_window->serverModel()->state(*id), ServerListModel::State::Online, 30000);
}

int tst_PatternsGui::rowOfTool(const QString &tool) const
{
    TaskTableModel *m = m_window->taskModel();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->task(m->taskIdAt(r)) && m->task(m->taskIdAt(r))->tool == tool)
            return r;
    return -1;
}

void tst_PatternsGui::noticeThenDialogStoresTheAdapter()
{
    MainWindow &w = *m_window;
    addServer(m_server, QStringLiteral("Job CFD"), &m_serverId);
    QVERIFY(m_serverId > 0);

    // Connected, no Tasks, job tools, no adapter: a notice in the status bar, not a dialog.
    auto *notice = w.findChild<QFrame *>(QStringLiteral("jobAdapterNotice"));
    QVERIFY(notice);
    QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible(), 30000);
    auto *text = notice->findChild<QLabel *>(QStringLiteral("jobAdapterNoticeText"));
    QVERIFY2(text->text().contains(QLatin1String("Job CFD")), qPrintable(text->text()));
    QVERIFY(!QApplication::activeModalWidget());
    QVERIFY(!w.findChild<JobAdapterDialog *>());
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM job_adapters")), 0);

    // Review Job Adapter...: Eddy's proposal, pre-filled.
    QTest::mouseClick(notice->findChild<QPushButton *>(QStringLiteral("reviewJobAdapter")),
                      Qt::LeftButton);
    QVERIFY(!notice->isVisible());
    JobAdapterDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = w.findChild<JobAdapterDialog *>()) && dialog->isVisible(),
                             10000);
    auto *save = dialog->findChild<QPushButton *>(QStringLiteral("saveAdapter"));
    QTRY_VERIFY_WITH_TIMEOUT(save->isEnabled(), 30000);
    const auto combo = [dialog](const char *key) {
        return qobject_cast<QComboBox *>(dialog->field(QString::fromLatin1(key)));
    };
    const auto edit = [dialog](const char *key) {
        return qobject_cast<QLineEdit *>(dialog->field(QString::fromLatin1(key)));
    };
    QCOMPARE(combo("submit.tool")->currentText(), QStringLiteral("submit_cfd_case"));
    QCOMPARE(edit("submit.jobIdPointer")->text(), QStringLiteral("/job_id"));
    QCOMPARE(combo("status.tool")->currentText(), QStringLiteral("get_cfd_case_status"));
    QCOMPARE(edit("status.idArgument")->text(), QStringLiteral("job_id"));
    QCOMPARE(combo("cancelTool")->currentText(), QStringLiteral("cancel_cfd_case"));
    QCOMPARE(combo("resultTool")->currentText(), QStringLiteral("get_cfd_result"));
    QCOMPARE(combo("answerTool")->currentText(), QStringLiteral("answer_cfd_case"));
    bool mapsCompleted = false;
    for (int r = 0; r < dialog->statesTable()->rowCount(); ++r) {
        auto *to = qobject_cast<QComboBox *>(dialog->statesTable()->cellWidget(r, 1));
        mapsCompleted = mapsCompleted || (to && to->currentText() == QLatin1String("completed"));
    }
    QVERIFY(mapsCompleted);
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("adapterIntro"))
                ->text()
                .contains(QLatin1String("proposes")));

    // Two wrong fields: both are named, the first takes the focus, nothing is stored.
    edit("submit.jobIdPointer")->setText(QStringLiteral("job_id"));
    combo("status.tool")->setCurrentText(QStringLiteral("get_status_of_everything"));
    QTest::mouseClick(save, Qt::LeftButton);
    auto *problems = dialog->findChild<QLabel *>(QStringLiteral("adapterProblems"));
    QVERIFY(problems->isVisible());
    QVERIFY2(problems->text().contains(QLatin1String("Job id pointer"))
                 && problems->text().contains(QLatin1String("must start with \"/\"")),
             qPrintable(problems->text()));
    QVERIFY2(problems->text().contains(QStringLiteral("Status \u25B8 Tool"))
                 && problems->text().contains(QLatin1String("get_status_of_everything")),
             qPrintable(problems->text()));
    QVERIFY(edit("submit.jobIdPointer")->property("invalid").toBool());
    QVERIFY(combo("status.tool")->property("invalid").toBool());
    QVERIFY(!edit("status.idArgument")->property("invalid").toBool());
    QCOMPARE(dialog->focusWidget(), dialog->field(QStringLiteral("submit.jobIdPointer")));
    QVERIFY(dialog->isVisible());
    QTest::qWait(200); // negative check: nothing is saved late either
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM job_adapters")), 0);

    // The engineer's edit: fixed fields, and polling every 200 ms backing off to 1 s.
    edit("submit.jobIdPointer")->setText(QStringLiteral("/job_id"));
    combo("status.tool")->setCurrentText(QStringLiteral("get_cfd_case_status"));
    qobject_cast<QSpinBox *>(dialog->field(QStringLiteral("poll.intervalMs")))->setValue(200);
    qobject_cast<QSpinBox *>(dialog->field(QStringLiteral("poll.maxIntervalMs")))->setValue(1000);
    QPointer<JobAdapterDialog> guard(dialog);
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!guard, 10000); // stored, then closed
    const QList<QStringList> stored = Test::query(
        m_db,
        QStringLiteral("SELECT adapter FROM job_adapters WHERE server_id = %1").arg(m_serverId),
        10000);
    QCOMPARE(stored.size(), 1);
    const QJsonObject adapter = QJsonDocument::fromJson(stored[0][0].toUtf8()).object();
    QCOMPARE(adapter["poll"].toObject()["intervalMs"].toInt(), 200);
    QCOMPARE(adapter["status"].toObject()["tool"].toString(),
             QStringLiteral("get_cfd_case_status"));

    // Server > Job Adapter... now shows the stored one.
    QAction *menu = w.findChild<QAction *>(QStringLiteral("jobAdapter"));
    QVERIFY(menu);
    menu->trigger();
    QTRY_VERIFY_WITH_TIMEOUT((dialog = w.findChild<JobAdapterDialog *>()) && dialog->isVisible(),
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->findChild<QLabel *>(QStringLiteral("adapterIntro"))
                                 ->text()
                                 .contains(QLatin1String("stored")),
                             30000);
    QCOMPARE(qobject_cast<QSpinBox *>(dialog->field(QStringLiteral("poll.intervalMs")))->value(),
             200);
    dialog->reject();

    // A job through the stored adapter is a row of pattern Job that completes with the result
    // tool's answer.
    TaskTableModel *tasks = w.taskModel();
    QVERIFY(w.monitor()->view()->isColumnHidden(TaskTableModel::PatternColumn)); // no job yet
    m_bridge->callOnce(m_serverId,
                       QStringLiteral("submit_cfd_case"),
                       R"({"reynolds": 100, "grid": 16, "max_iterations": 200})",
                       w.currentSession());
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT((row = rowOfTool(QStringLiteral("submit_cfd_case"))) >= 0, 30000);
    QCOMPARE(tasks->index(row, TaskTableModel::PatternColumn).data().toString(),
             QStringLiteral("Job"));
    QCOMPARE(tasks->index(row, 0).data(TaskTableModel::PatternRole).toString(),
             QStringLiteral("job"));
    QVERIFY(!w.monitor()->view()->isColumnHidden(TaskTableModel::PatternColumn));
    QTRY_COMPARE_WITH_TIMEOUT(tasks->index(row, 0).data(TaskTableModel::StatusRole).toInt(),
                              int(Store::TaskStatus::Completed),
                              120000);
    const qint64 taskId = tasks->taskIdAt(row);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND pattern = 'job' "
                                   "AND result LIKE '%\"iterations\":200%'")
                        .arg(taskId)),
             1);
}

void tst_PatternsGui::runThenCancelStream(qint64 serverId)
{
    MainWindow &w = *m_window;
    TaskTableModel *tasks = w.taskModel();
    const int before = tasks->rowCount();
    // Endless: the tolerance is never reached within millions of iterations.
    m_bridge->callOnce(serverId,
                       QStringLiteral("run_cfd_case"),
                       R"({"reynolds": 100, "grid": 32, "max_iterations": 5000000,
                           "tolerance": 1e-30})",
                       w.currentSession());
    qint64 taskId = 0;
    QTRY_VERIFY_WITH_TIMEOUT((taskId = lastTaskWhere([&](const Store::TaskRecord &t) {
                                  return t.tool == QLatin1String("run_cfd_case") && t.isLive() && t.serverId == serverId;
                              })) > 0,
                             30000);
    QVERIFY(tasks->rowCount() > before);
    const auto cell = [&](int column, int role = Qt::DisplayRole) {
        return tasks->index(tasks->rowOf(taskId), column).data(role);
    };
    QCOMPARE(cell(TaskTableModel::PatternColumn).toString(), QStringLiteral("Streamed call"));
    QVERIFY(cell(TaskTableModel::PatternColumn, Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("connection")));
    QVERIFY(!w.monitor()->view()->isColumnHidden(TaskTableModel::PatternColumn));
    // Its progress shows like a task's: a fraction and a percentage.
    QTRY_VERIFY_WITH_TIMEOUT(cell(0, TaskTableModel::ProgressRole).toDouble() > 0, 60000);
    QVERIFY(cell(0, TaskTableModel::ProgressRole).toDouble() < 1);
    QVERIFY2(cell(TaskTableModel::ProgressColumn).toString().endsWith(QLatin1String(" %")),
             qPrintable(cell(TaskTableModel::ProgressColumn).toString()));
    QVERIFY(cell(TaskTableModel::StatusColumn, TaskTableModel::IsLiveRole).toBool());

    // Del on its row.
    w.monitor()->selectTask(taskId);
    QCOMPARE(w.monitor()->selectedTaskIds(), QList<qint64>{taskId});
    QTableView *view = w.monitor()->view();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Delete);
    QTRY_COMPARE_WITH_TIMEOUT(
        cell(0, TaskTableModel::StatusRole).toInt(), int(Store::TaskStatus::Cancelled), 30000);
    QVERIFY2(cell(TaskTableModel::MessageColumn).toString().startsWith(QLatin1String("cancelled")),
             qPrintable(cell(TaskTableModel::MessageColumn).toString()));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND pattern = "
                                   "'streamed' AND status = 'cancelled'")
                        .arg(taskId)),
             1);
}

void tst_PatternsGui::streamedCallShowsProgressAndCancels()
{
    QVERIFY(m_serverId > 0);
    runThenCancelStream(m_serverId);
    if (QTest::currentTestFailed())
        return;
    // 2026-07-28: closing the stream is the cancellation, and the server took it as one.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_server.standardError().contains("client of its streamed tools/call disconnected"), 30000);
    // Nothing hangs: the engine has nothing left in flight.
    QTRY_VERIFY_WITH_TIMEOUT(
        [this] {
            bool idle = false;
            m_app->onEngine([&idle](Monitor::Engine &engine) { idle = engine.isIdle(); });
            return idle;
        }(),
        30000);
}

void tst_PatternsGui::streamedCallEndIsAnnounced()
{
    QVERIFY(m_serverId > 0);
    MainWindow &w = *m_window;
    QSignalSpy shown(w.statusBar(), &QStatusBar::messageChanged);
    TaskTableModel *tasks = w.taskModel();
    m_bridge->callOnce(m_serverId, QStringLiteral("run_cfd_case"), R"({"reynolds":7,"grid":8,"max_iterations":200})",
                       w.currentSession());
    qint64 taskId = 0;
    QTRY_VERIFY_WITH_TIMEOUT((taskId = lastTaskWhere([](const Store::TaskRecord &t) {
                                  return t.pattern == Pattern::Streamed && t.status == Store::TaskStatus::Completed
                                         && t.arguments.contains(QLatin1String("\"reynolds\":7"));
                              })) > 0,
                             60000);
    const QString announced = tasks->caseLabel(taskId).isEmpty() ? QStringLiteral("Task %1 completed.").arg(taskId)
                                                                  : tasks->caseLabel(taskId) + QStringLiteral(" completed.");
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(shown.cbegin(), shown.cend(), [&](const QList<QVariant> &m) { return m.at(0).toString() == announced; }),
        10000);
}

void tst_PatternsGui::legacyStreamedCancelSendsNotificationsCancelled()
{
    // The same server spoken to in 2025-11-25 (the era stored with it), where a disconnect is not
    // a cancellation: Eddy must say notifications/cancelled.
    qint64 id = 0;
    addServer(m_legacyServer, QStringLiteral("Legacy CFD"), &id);
    QVERIFY(id > 0);
    Store::ServerRecord record = *m_window->serverModel()->server(id);
    record.era = QStringLiteral("legacy"); // 2025-11-25
    record.token = QString();              // null: keep the stored one
    m_bridge->updateServer(record);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_window->serverModel()->server(id)->era, QStringLiteral("legacy"), 10000);
    runThenCancelStream(id);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(
        m_legacyServer.standardError().contains("cancelled by notifications/cancelled"), 30000);
    QVERIFY(!m_legacyServer.standardError().contains("streamed tools/call disconnected"));
}

QTEST_MAIN(tst_PatternsGui)
#include "tst_patternsgui.moc"
