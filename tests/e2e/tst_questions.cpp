// Answering questions without destroying work by accident, through the real window (offscreen),
// the real engine and eddy-cfd-server on loopback, cases that force a mesh defect (so each asks
// "repair or abort?") and a real SQLite file:
// - Escape or closing a question leaves it open: the task stays input_required on the server
//   and the question stays in the inbox;
// - a double click never answers two tasks, and nothing answers in the first 500 ms;
// - "Abort this case" asks once, then aborts; Re-run is then enabled and makes a new attempt;
// - the answer given is shown on the task (detail, inbox tooltip, export) with who and when,
//   also after a restart on the same database.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/layoutwait.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QApplication>
#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWindow>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using nlohmann::json;

class tst_Questions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void escapeAndCloseLeaveTheQuestionOpen();
    void doubleClickAnswersOneQuestion();
    void firstHalfSecondIsIgnored();
    void panelKeepsTheCaseInView();
    void doubleClickInThePanelAnswersOne();
    void answerIsShownOnTheTask();
    void abortAsksOnceThenRerunMakesANewAttempt();
    void declinedCaseCanBeRerun();
    void cleanupTestCase();

private:
    std::unique_ptr<Test::E2eWindow> startApp(const QString &dbName);
    qint64 serverId() const;
    // Submits cases that force a mesh defect; returns their task ids once every one asks.
    QList<qint64> askingCases(int n);
    QString serverStatus(qint64 taskId);
    int storedAnswers(qint64 taskId);
    // A real click at a point of the screen: the widget under it gets press and release.
    static void clickAt(const QPoint &global);
    int rowOfTask(qint64 taskId) const;
    // Clicks the task's question in the inbox list, as a person would.
    void pickQuestion(qint64 taskId);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    int m_db = 0;
    int m_reynolds = 100;
};

std::unique_ptr<Test::E2eWindow> tst_Questions::startApp(const QString &dbName)
{
    return Test::E2eWindow::open(m_dir.filePath(dbName));
}

void tst_Questions::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_questions"));
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200"), QStringLiteral("--workers"),
                             QStringLiteral("4")}),
             qPrintable(m_server.errorString()));
}

void tst_Questions::init()
{
    // Every test on its own database and with default settings.
    QSettings().clear();
    m_app = startApp(QStringLiteral("q%1.sqlite").arg(++m_db));
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentSession().has_value(), 30000);
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
    QCOMPARE(w.serverModel()->rowCount(), 1);
}

void tst_Questions::cleanup()
{
    m_app.reset();
}

void tst_Questions::cleanupTestCase()
{
    m_app.reset();
}

qint64 tst_Questions::serverId() const
{
    return m_app->window()
        ->serverModel()
        ->index(0)
        .data(ServerListModel::ServerIdRole)
        .toLongLong();
}

QList<qint64> tst_Questions::askingCases(int n)
{
    MainWindow &w = *m_app->window();
    const int before = w.taskModel()->rowCount();
    for (int i = 0; i < n; ++i) {
        const json args{{"reynolds", m_reynolds++}, {"grid", 16}, {"max_iterations", 200}, {"force_mesh_defect", true}};
        m_app->bridge()->callOnce(serverId(),
                                  QStringLiteral("run_cfd_case"),
                                  QByteArray::fromStdString(args.dump()),
                                  w.currentSession());
    }
    QList<qint64> ids;
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), before + n, 60000);
        for (int r = 0; r < w.taskModel()->rowCount(); ++r) {
            const Store::TaskRecord *t = w.taskModel()->task(w.taskModel()->taskIdAt(r));
            if (t && t->isLive())
                ids << t->id;
        }
        QCOMPARE(ids.size(), n);
        for (qint64 id : ids) {
            QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(id)->status), int(TaskStatus::InputRequired), 60000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->rowCount(), n, 30000);
    }();
    return ids;
}

QString tst_Questions::serverStatus(qint64 taskId)
{
    const Store::TaskRecord *t = m_app->window()->taskModel()->task(taskId);
    if (!t || t->serverTaskId.isEmpty())
        return {};
    Test::McpTestClient client(m_server.url());
    const json result = client.getTask(t->serverTaskId.toStdString()).result();
    return QString::fromStdString(result.value("status", std::string()));
}

int tst_Questions::storedAnswers(qint64 taskId)
{
    int n = 0;
    m_app->onEngine([taskId, &n](Monitor::Engine &engine) {
        for (const auto &r : engine.catalogue().inputRequests(taskId))
            n += r.state != Store::InputState::Pending ? 1 : 0;
    });
    return n;
}

void tst_Questions::clickAt(const QPoint &global)
{
    // The window on top at the point gets the click through the window system's path, and Qt
    // picks the widget there (a disabled one takes nothing, a window behind a modal one none).
    // QApplication::widgetAt() is not used: the offscreen screen is smaller than the window.
    QList<QWidget *> tops;
    if (QWidget *modal = QApplication::activeModalWidget())
        tops << modal;
    tops << QApplication::topLevelWidgets();
    for (QWidget *top : tops) {
        if (!top->isVisible() || !top->geometry().contains(global) || !top->windowHandle())
            continue;
        QWindow *window = top->windowHandle();
        QTest::mouseClick(window, Qt::LeftButton, {}, top->mapFromGlobal(global));
        return;
    }
}

void tst_Questions::escapeAndCloseLeaveTheQuestionOpen()
{
    MainWindow &w = *m_app->window();
    w.setOpenDialogsAutomatically(true); // the opt-in pop-up
    const QList<qint64> ids = askingCases(1);
    QVERIFY(!ids.isEmpty());
    const qint64 task = ids.first();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog() && w.currentDialog()->isVisible(), 30000);
    // Past the input guard: this Escape is meant.
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog()->panel()->isGuarded(), 10000);
    QTest::keyClick(w.currentDialog(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog(), 10000);
    QTest::qWait(1500); // negative check: several polls at 200 ms send no answer
    QCOMPARE(serverStatus(task), QStringLiteral("input_required"));
    QCOMPARE(int(w.taskModel()->task(task)->status), int(TaskStatus::InputRequired));
    QCOMPARE(w.inboxModel()->rowOf(task, w.inboxModel()->index(0, 0).data(InboxModel::KeyRole).toString()), 0);
    QCOMPARE(storedAnswers(task), 0);

    // Ctrl+I opens it again; a window-manager close leaves it open too.
    w.answerNext();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog() && w.currentDialog()->isVisible(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog()->panel()->isGuarded(), 10000);
    QVERIFY(w.currentDialog()->close());
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog(), 10000);
    QTest::qWait(1500); // negative check: several polls at 200 ms send no answer
    QCOMPARE(serverStatus(task), QStringLiteral("input_required"));
    QCOMPARE(int(w.taskModel()->task(task)->status), int(TaskStatus::InputRequired));
    QCOMPARE(w.inboxModel()->rowCount(), 1);
    QCOMPARE(storedAnswers(task), 0);
}

void tst_Questions::doubleClickAnswersOneQuestion()
{
    MainWindow &w = *m_app->window();
    w.setOpenDialogsAutomatically(true);
    const QList<qint64> ids = askingCases(2);
    QCOMPARE(ids.size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog() && w.currentDialog()->isVisible(), 30000);
    auto *accept = w.currentDialog()->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept);
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog()->panel()->isGuarded() && accept->isEnabled(), 10000);
    const QPoint at = accept->mapToGlobal(accept->rect().center());
    clickAt(at);
    QTest::qWait(150); // pacing: a person's double click, the second click 150 ms after the first
    clickAt(at); // the second click of a double click
    const auto asking = [&] {
        int n = 0;
        for (qint64 id : ids)
            n += serverStatus(id) == QLatin1String("input_required") ? 1 : 0;
        return n;
    };
    // The first click's answer reaches the server...
    QTRY_COMPARE_WITH_TIMEOUT(storedAnswers(ids[0]) + storedAnswers(ids[1]), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(asking(), 1, 20000);
    QTest::qWait(1500); // negative check: ...and the second click answers nothing, however late
    QCOMPARE(storedAnswers(ids[0]) + storedAnswers(ids[1]), 1);
    QCOMPARE(asking(), 1);
}

void tst_Questions::firstHalfSecondIsIgnored()
{
    MainWindow &w = *m_app->window();
    w.setOpenDialogsAutomatically(true);
    const QList<qint64> ids = askingCases(1);
    QVERIFY(!ids.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog() && w.currentDialog()->isVisible(), 30000);
    auto *accept = w.currentDialog()->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept);
    clickAt(accept->mapToGlobal(accept->rect().center())); // at once: ignored
    if (ElicitationDialog *d = w.currentDialog())
        QTest::keyClick(d, Qt::Key_Return); // nor does Enter answer
    QTest::qWait(1000); // negative check: neither answers, and this outlasts the 500 ms guard
    QCOMPARE(storedAnswers(ids.first()), 0);
    QCOMPARE(serverStatus(ids.first()), QStringLiteral("input_required"));
    QVERIFY(w.currentDialog() && w.currentDialog()->isVisible());
    accept = w.currentDialog()->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept->isEnabled());
    clickAt(accept->mapToGlobal(accept->rect().center())); // now it counts
    QTRY_COMPARE_WITH_TIMEOUT(storedAnswers(ids.first()), 1, 10000);
}

int tst_Questions::rowOfTask(qint64 taskId) const
{
    const InboxModel *inbox = m_app->window()->inboxModel();
    for (int r = 0; r < inbox->rowCount(); ++r)
        if (inbox->request(r)->taskId == taskId)
            return r;
    return -1;
}

void tst_Questions::pickQuestion(qint64 taskId)
{
    QTableView *view = m_app->window()->inboxView();
    const int row = rowOfTask(taskId);
    QVERIFY(row >= 0);
    const QRect cell = view->visualRect(view->model()->index(row, InboxModel::MessageColumn));
    QVERIFY(cell.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
}

void tst_Questions::panelKeepsTheCaseInView()
{
    MainWindow &w = *m_app->window();
    QVERIFY(!w.opensDialogsAutomatically()); // the default: the inbox and its answer panel
    const QList<qint64> ids = askingCases(2);
    QCOMPARE(ids.size(), 2);
    QTest::qWait(700); // negative check: nothing pops up by itself within this time
    QVERIFY(!w.currentDialog());
    AnswerPanel *panel = w.answerPanel();
    QVERIFY(!panel->hasQuestion());

    pickQuestion(ids[1]);
    QVERIFY(panel->hasQuestion());
    QCOMPARE(panel->taskId(), ids[1]);
    QCOMPARE(w.monitor()->selectedTaskIds(), QList<qint64>{ids[1]}); // the asking case is selected
    QVERIFY(w.chart()->isVisible());                                 // and its chart in view
    QVERIFY(!panel->findChild<QPushButton *>(QStringLiteral("accept"))->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 10000); // past the guard: these Escapes are meant
    // Escape on the panel or the window answers nothing.
    QTest::keyClick(panel, Qt::Key_Escape);
    QTest::keyClick(&w, Qt::Key_Escape);
    QTest::qWait(1000); // negative check: no answer is stored or sent within this time
    QVERIFY(panel->hasQuestion());
    QCOMPARE(storedAnswers(ids[1]), 0);
    QCOMPARE(serverStatus(ids[1]), QStringLiteral("input_required"));
    QCOMPARE(w.inboxModel()->pendingCount(), 2);
}

void tst_Questions::doubleClickInThePanelAnswersOne()
{
    MainWindow &w = *m_app->window();
    const QList<qint64> ids = askingCases(2);
    QCOMPARE(ids.size(), 2);
    AnswerPanel *panel = w.answerPanel();
    pickQuestion(ids[0]);
    QCOMPARE(panel->taskId(), ids[0]);
    auto *accept = panel->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept);
    // The inbox takes the room the question needs, once, as it appears.
    QVERIFY(Test::waitForLayout(&w));
    QVERIFY(panel->isGuarded());
    const QPoint at = accept->mapToGlobal(accept->rect().center());
    clickAt(at); // within the first 500 ms: ignored
    QTest::qWait(300); // negative check: the guarded click stores no answer
    QCOMPARE(storedAnswers(ids[0]), 0);
    QTRY_VERIFY_WITH_TIMEOUT(accept->isEnabled(), 5000);
    // The button did not move under the pointer when the guard ended.
    QCOMPARE(accept->mapToGlobal(accept->rect().center()), at);
    clickAt(at);
    QTest::qWait(150); // pacing: a person's double click, the second click 150 ms after the first
    clickAt(at); // the second click of a double click
    QTRY_COMPARE_WITH_TIMEOUT(storedAnswers(ids[0]), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 20000);
    QTest::qWait(1500); // negative check: the second click answers nothing, however late
    QCOMPARE(storedAnswers(ids[0]), 1);
    QCOMPARE(storedAnswers(ids[1]), 0);
    QCOMPARE(serverStatus(ids[1]), QStringLiteral("input_required"));
    QVERIFY2(!panel->hasQuestion(), qPrintable(QStringLiteral("panel shows task %1 (asking: %2, %3)")
                                                   .arg(panel->taskId()).arg(ids[0]).arg(ids[1])));
    // the next one is not put under the pointer
    QVERIFY(panel->noteText().contains(QLatin1String("Answer sent")));
    QCOMPARE(w.inboxModel()->pendingCount(), 1);
}

void tst_Questions::answerIsShownOnTheTask()
{
    MainWindow &w = *m_app->window();
    // A one-case sweep (so the sweep export has the case) whose mesh check asks.
    m_app->bridge()->submitSweep(serverId(),
                                 R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 200, "force_mesh_defect": true},
        "vary": {"reynolds": {"list": [150]}}, "concurrency": 1})",
                                 w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 60000);
    const qint64 task = w.inboxModel()->request(w.inboxModel()->firstPendingRow())->taskId;
    AnswerPanel *panel = w.answerPanel();
    pickQuestion(task);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 5000);
    auto *action = qobject_cast<QComboBox *>(panel->form()->editor("action"));
    QVERIFY(action);
    action->setCurrentIndex(action->findText(QStringLiteral("Repair the mesh and continue")));
    auto *passes = qobject_cast<QSpinBox *>(panel->form()->editor("smoothing_passes"));
    QVERIFY(passes);
    passes->setValue(7);
    panel->findChild<QPushButton *>(QStringLiteral("accept"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(storedAnswers(task), 1, 10000);
    const QString who = MainWindow::localUserName();
    const auto shows = [&](const QString &text) {
        return text.contains(QLatin1String("Repair the mesh and continue")) && text.contains(QLatin1String("Smoothing passes: 7"))
               && text.contains(who);
    };
    // The inbox keeps the answered question, its answer in the tooltip; the detail shows it.
    const int row = rowOfTask(task);
    QVERIFY(row >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(shows(w.inboxModel()->index(row, 0).data(Qt::ToolTipRole).toString()), 10000);
    // ... also once the server acknowledged it (the row stays, answered).
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->index(rowOfTask(task), 0).data(InboxModel::StateRole).toInt(),
                              int(Store::InputState::Answered), 20000);
    QVERIFY(shows(w.inboxModel()->index(rowOfTask(task), 0).data(Qt::ToolTipRole).toString()));
    w.monitor()->selectTask(task);
    QTRY_VERIFY_WITH_TIMEOUT(shows(w.resultView()->answersText()), 20000);
    // The export of the sweep: an "answer" column with what, who and when.
    QTRY_VERIFY_WITH_TIMEOUT(w.sweepResults()->model()->toCsv().contains(QLatin1String("smoothing_passes\"\":7")), 20000);
    const QString csv = w.sweepResults()->model()->toCsv();
    QVERIFY2(csv.section(QLatin1Char('\n'), 0, 0).endsWith(QLatin1String(",answer,note,tags")), qPrintable(csv));
    QVERIFY2(csv.contains(QLatin1String("accept")) && csv.contains(QStringLiteral(" by %1 at ").arg(who)), qPrintable(csv));

    // A restart on the same database: still there.
    const QString db = QStringLiteral("q%1.sqlite").arg(m_db);
    m_app.reset();
    m_app = startApp(db);
    QVERIFY(m_app);
    MainWindow &again = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(again.taskModel()->task(task), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(rowOfTask(task) >= 0, 10000);
    QVERIFY(shows(again.inboxModel()->index(rowOfTask(task), 0).data(Qt::ToolTipRole).toString()));
    again.monitor()->selectTask(task);
    QTRY_VERIFY_WITH_TIMEOUT(shows(again.resultView()->answersText()), 20000);
}

void tst_Questions::abortAsksOnceThenRerunMakesANewAttempt()
{
    MainWindow &w = *m_app->window();
    const QList<qint64> ids = askingCases(1);
    QVERIFY(!ids.isEmpty());
    const qint64 task = ids.first();
    AnswerPanel *panel = w.answerPanel();
    pickQuestion(task);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 5000);
    auto *abort = panel->findChild<QPushButton *>(QStringLiteral("abort"));
    QVERIFY(abort);
    abort->click();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("abortConfirm"))) && box->isVisible(), 5000);
    auto *confirm = box->findChild<QPushButton *>(QStringLiteral("confirmAbort"));
    QVERIFY(confirm);
    QVERIFY(!confirm->isEnabled()); // the click that opened the box cannot confirm it
    box->findChild<QPushButton *>(QStringLiteral("keepAsking"))->click();
    QTest::qWait(1000); // negative check: "keep asking" sends no cancel within this time
    QCOMPARE(serverStatus(task), QStringLiteral("input_required")); // nothing happened
    QVERIFY(panel->hasQuestion());

    abort->click();
    QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("abortConfirm"))) && box->isVisible(), 5000);
    confirm = box->findChild<QPushButton *>(QStringLiteral("confirmAbort"));
    QTRY_VERIFY_WITH_TIMEOUT(confirm->isEnabled(), 5000);
    confirm->click();
    QTRY_COMPARE_WITH_TIMEOUT(serverStatus(task), QStringLiteral("cancelled"), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(task)->status), int(TaskStatus::Cancelled), 20000);
    QCOMPARE(w.inboxModel()->pendingCount(), 0);

    // Re-run in one step: a new attempt of the same case, which asks again.
    w.monitor()->selectTask(task);
    auto *rerun = w.monitor()->findChild<QToolButton *>(QStringLiteral("rerunTasks"));
    QVERIFY(rerun);
    QTRY_VERIFY_WITH_TIMEOUT(rerun->isEnabled(), 5000);
    const int before = w.taskModel()->rowCount();
    rerun->click();
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), before + 1, 60000);
    qint64 attempt = 0;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        attempt = std::max(attempt, w.taskModel()->taskIdAt(r));
    QVERIFY(attempt > task);
    QCOMPARE(w.taskModel()->task(attempt)->arguments.contains(QLatin1String("force_mesh_defect")), true);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(attempt)->status), int(TaskStatus::InputRequired), 60000);
    w.monitor()->selectTask(attempt);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->lineageText(), QStringLiteral("Relaunched from #%1.").arg(task), 20000);
}

void tst_Questions::declinedCaseCanBeRerun()
{
    // Decline: the reference server ends the case with a tool error; Re-run applies to it.
    MainWindow &w = *m_app->window();
    const QList<qint64> ids = askingCases(1);
    QVERIFY(!ids.isEmpty());
    const qint64 task = ids.first();
    AnswerPanel *panel = w.answerPanel();
    pickQuestion(task);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 5000);
    panel->findChild<QPushButton *>(QStringLiteral("decline"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(!w.taskModel()->task(task)->isLive(), 30000);
    QVERIFY(w.taskModel()->task(task)->isToolError);
    w.monitor()->selectTask(task);
    auto *rerun = w.monitor()->findChild<QToolButton *>(QStringLiteral("rerunTasks"));
    QTRY_VERIFY_WITH_TIMEOUT(rerun->isEnabled(), 5000);
}

QTEST_MAIN(tst_Questions)
#include "tst_questions.moc"
