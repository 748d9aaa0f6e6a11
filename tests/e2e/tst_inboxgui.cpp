// The input inbox and the answer panel as a person meets them (issue 24), through the real window
// (offscreen), the real engine on a real SQLite file, the real eddyctl binary on the same file and
// eddy-cfd-server on loopback, with cases that force a mesh defect so each asks "repair or
// abort?":
// - a question is announced once, when it is first seen open: not again once it was answered
//   here or with eddyctl, declined, refreshed (F5), or when other work happens;
// - a question answered with eddyctl while its case ends stays listed as answered (by whom,
//   when), exactly as a restart lists it, the panel says who answered and nothing jumps;
// - a case aborted in the window or cancelled with eddyctl closes its question with the reason,
//   in the database too: the inbox, the task's detail and the panel say why it was never
//   answered, also after a restart;
// - Answer Next Question (Ctrl+I) selects the asking case and charts it;
// - the status line under the chart tells time in the server's queue and time after a case ended
//   while Eddy was closed from computing, and gives the solver's own time;
// - without USER (and USERNAME, LOGNAME) an answer is stored with the account's name;
// - a declined case's result does not advise lowering a grading that is already 1.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/statustimeline.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QApplication>
#include <QDeadlineTimer>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

#include <pwd.h>
#include <unistd.h>

using namespace Eddy;
using nlohmann::json;
using Store::TaskStatus;

namespace {

constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};
const QString s_repair = QStringLiteral(R"({"action":"repair","smoothing_passes":3})");

// The inbox as a person reads it: each row's task, question key, state and answer.
QStringList listed(const InboxModel &inbox)
{
    QStringList out;
    for (int r = 0; r < inbox.rowCount(); ++r) {
        const QModelIndex i = inbox.index(r, 0);
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(i.data(InboxModel::TaskIdRole).toLongLong())
                   .arg(i.data(InboxModel::KeyRole).toString())
                   .arg(i.data(InboxModel::StateRole).toInt())
                   .arg(i.data(InboxModel::AnswerTextRole).toString());
    }
    return out;
}

} // namespace

class tst_InboxGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void questionIsAnnouncedOnce();
    void answeredWithEddyctlStaysListed();
    void endedCaseClosesItsQuestion_data();
    void endedCaseClosesItsQuestion();
    void answerNextSelectsTheAskingCase();
    void timelineTellsQueueAndUnwatchedTime();
    void answerWithoutUserNamesTheAccount();

private:
    // The window on dbFile; waitForSession: settled on a listed session (not All sessions).
    void openWindow(const QString &dbFile, bool addServer = true, bool waitForSession = true);
    Test::CtlRun ctl(const QStringList &args) const;
    // Cases the window submits; their task ids once listed (and, when asking, once each asks).
    QList<qint64> submit(int n, bool asking);
    QString keyOf(qint64 taskId) const;
    // Clicks the task's question in the inbox list, as a person would, and waits for the panel.
    void pickQuestion(qint64 taskId);
    int rowOf(qint64 taskId) const;
    // The state of the task's question as listed; -1 when it is not listed.
    int stateOf(qint64 taskId) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
    qint64 m_serverId = 0;
    std::unique_ptr<Test::E2eWindow> m_app;
    int m_reynolds = 100;
};

void tst_InboxGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_inboxgui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200"),
                             QStringLiteral("--workers"), QStringLiteral("4")}),
             qPrintable(m_server.errorString()));
}

void tst_InboxGui::cleanup()
{
    m_app.reset();
    QSettings().clear();
}

void tst_InboxGui::openWindow(const QString &dbFile, bool addServer, bool waitForSession)
{
    m_db = m_dir.filePath(dbFile);
    Test::E2eWindowOptions options;
    options.waitForSession = waitForSession;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    if (addServer) {
        m_serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
        QVERIFY(m_serverId > 0);
    }
}

Test::CtlRun tst_InboxGui::ctl(const QStringList &args) const
{
    return Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args, s_ctl);
}

QList<qint64> tst_InboxGui::submit(int n, bool asking)
{
    MainWindow &w = *m_app->window();
    const int before = w.taskModel()->rowCount();
    for (int i = 0; i < n; ++i) {
        json args{{"reynolds", m_reynolds++}, {"grid", 16}, {"max_iterations", 200}};
        if (asking)
            args["force_mesh_defect"] = true;
        m_app->bridge()->callOnce(m_serverId, QStringLiteral("run_cfd_case"),
                                  QByteArray::fromStdString(args.dump()), w.currentSession());
    }
    QList<qint64> ids;
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), before + n, 60000);
        QList<qint64> all;
        for (int r = 0; r < w.taskModel()->rowCount(); ++r)
            all << w.taskModel()->taskIdAt(r);
        std::sort(all.begin(), all.end());
        ids = all.mid(before);
        for (qint64 id : std::as_const(ids)) {
            if (asking)
                QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(id)->status), int(TaskStatus::InputRequired), 60000);
            if (asking)
                QTRY_VERIFY_WITH_TIMEOUT(rowOf(id) >= 0, 30000);
        }
    }();
    return ids;
}

QString tst_InboxGui::keyOf(qint64 taskId) const
{
    return Test::query(m_db, QStringLiteral("SELECT key FROM input_requests WHERE task_id = %1").arg(taskId), 5000)
        .value(0)
        .value(0);
}

int tst_InboxGui::rowOf(qint64 taskId) const
{
    const InboxModel *inbox = m_app->window()->inboxModel();
    for (int r = 0; r < inbox->rowCount(); ++r)
        if (inbox->request(r)->taskId == taskId)
            return r;
    return -1;
}

int tst_InboxGui::stateOf(qint64 taskId) const
{
    const int row = rowOf(taskId);
    return row < 0 ? -1 : int(m_app->window()->inboxModel()->request(row)->state);
}

void tst_InboxGui::pickQuestion(qint64 taskId)
{
    MainWindow &w = *m_app->window();
    QTableView *inbox = w.inboxView();
    const int row = rowOf(taskId);
    QVERIFY(row >= 0);
    const QRect cell = inbox->visualRect(w.inboxModel()->index(row, InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(w.answerPanel()->hasQuestion() && w.answerPanel()->taskId() == taskId, 10000);
}

void tst_InboxGui::questionIsAnnouncedOnce()
{
    openWindow(QStringLiteral("announce.sqlite"));
    MainWindow &w = *m_app->window();
    // What the status bar says (a tray icon, where there is one, shows the same).
    QStringList said;
    connect(w.statusBar(), &QStatusBar::messageChanged, this, [&said](const QString &m) {
        if (!m.isEmpty())
            said << m;
    });
    const auto announced = [&said](qint64 taskId) {
        return int(std::count_if(said.cbegin(), said.cend(), [taskId](const QString &m) {
            return m.startsWith(QStringLiteral("Task %1 asks: ").arg(taskId));
        }));
    };
    const QList<qint64> ids = submit(2, true);
    QCOMPARE(ids.size(), 2);
    for (qint64 id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(announced(id), 1, 10000);

    // One answered with eddyctl while the window is open: the window hears of the answer.
    const Test::CtlRun answered
        = ctl({QStringLiteral("answer"), QString::number(ids[0]), keyOf(ids[0]), s_repair});
    QVERIFY2(answered.code == 0, answered.err.constData());
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(ids[0]), int(Store::InputState::Answered), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(ids[0])->status), int(TaskStatus::Completed), 60000);

    // The other declined in the panel.
    pickQuestion(ids[1]);
    QTRY_VERIFY_WITH_TIMEOUT(!w.answerPanel()->isGuarded(), 5000);
    w.answerPanel()->findChild<QPushButton *>(QStringLiteral("decline"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(!w.taskModel()->task(ids[1])->isLive(), 60000);
    // The server's account of the declined case gives advice that fits it: its defect was
    // forced, and its grading is already 1 (uniform).
    const QString declined
        = Test::query(m_db, QStringLiteral("SELECT result FROM tasks WHERE id = %1").arg(ids[1]), 5000).value(0).value(0);
    QVERIFY2(declined.contains(QLatin1String("forced by 'force_mesh_defect'")), qPrintable(declined));
    QVERIFY2(!declined.contains(QLatin1String("Lower 'grading'")), qPrintable(declined));

    // F5: the window reads the database again, its own answers among it.
    QSignalSpy changes(m_app->bridge(), &EngineBridge::changesReady);
    QAction *refresh = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->shortcut() == QKeySequence(QKeySequence::Refresh))
            refresh = a;
    QVERIFY(refresh);
    refresh->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!changes.isEmpty(), 10000);

    // Unrelated work: a call from the window, and one from eddyctl on the same database (it joins
    // the session shown, or is listed under All sessions).
    const QList<qint64> more = submit(1, false);
    QCOMPARE(more.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(more[0])->status), int(TaskStatus::Completed), 60000);
    const json quiet{{"reynolds", m_reynolds++}, {"grid", 16}, {"max_iterations", 200}};
    const Test::CtlRun call = ctl({QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"),
                                   QString::fromStdString(quiet.dump()), QStringLiteral("--wait")});
    QVERIFY2(call.code == 0, call.err.constData());
    w.switchSession(std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 4, 30000);
    for (int r = 0; r < 4; ++r)
        QTRY_VERIFY_WITH_TIMEOUT(!w.taskModel()->task(w.taskModel()->taskIdAt(r))->isLive(), 60000);

    for (qint64 id : ids)
        QVERIFY2(announced(id) == 1, qPrintable(said.join(QLatin1Char('\n'))));
}

void tst_InboxGui::answeredWithEddyctlStaysListed()
{
    // eddyctl calls an asking case and waits for it: it polls the task, not the window.
    m_db = m_dir.filePath(QStringLiteral("elsewhere.sqlite"));
    const json args{{"reynolds", m_reynolds++}, {"grid", 16}, {"max_iterations", 200}, {"force_mesh_defect", true}};
    QProcess holder;
    holder.setStandardInputFile(QProcess::nullDevice());
    holder.setStandardOutputFile(QProcess::nullDevice()); // the result: not read here
    holder.start(Test::ctlBin(), {QStringLiteral("--db"), m_db, QStringLiteral("call"), m_server.url(),
                                  QStringLiteral("run_cfd_case"), QString::fromStdString(args.dump()),
                                  QStringLiteral("--wait")});
    QVERIFY(holder.waitForStarted(30000));
    QByteArray holderSaid;
    QTRY_VERIFY_WITH_TIMEOUT((holderSaid += holder.readAllStandardError()).contains("asks"), 60000);

    // The window on the same database lists the question; the engineer picks it.
    openWindow(QStringLiteral("elsewhere.sqlite"), false);
    MainWindow &w = *m_app->window();
    w.switchSession(std::nullopt); // the call has no session: All sessions
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 1, 30000);
    const qint64 task = w.taskModel()->taskIdAt(0);
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 30000);
    pickQuestion(task);
    const QString key = keyOf(task);
    QVERIFY(!key.isEmpty());
    QCOMPARE(w.monitor()->selectedTaskIds(), QList<qint64>{task});
    QCOMPARE(w.inboxView()->currentIndex().row(), rowOf(task));

    // Answered with eddyctl, and the case finishes, before the window reads the database again
    // (its engine thread held meanwhile): it learns of both at once, as when the case finishes
    // within one look of the answer.
    Test::CtlRun answered;
    bool finished = false;
    m_app->onEngine([&](Monitor::Engine &) {
        answered = ctl({QStringLiteral("answer"), QString::number(task), key, s_repair});
        const QDeadlineTimer deadline(60000);
        const QString done = QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND status = 'completed'").arg(task);
        while (!(finished = Test::scalar(m_db, done, 5000) == 1) && !deadline.hasExpired())
            QThread::msleep(20);
    });
    QVERIFY2(answered.code == 0, answered.err.constData());
    QVERIFY(finished);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(task)->status), int(TaskStatus::Completed), 30000);

    // Listed as answered, by eddyctl; the panel says who answered; nothing moved.
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(task), int(Store::InputState::Answered), 30000);
    const QString answer = w.inboxModel()->index(rowOf(task), 0).data(InboxModel::AnswerTextRole).toString();
    QVERIFY2(answer.contains(QStringLiteral("— by eddyctl, ")), qPrintable(answer));
    QTRY_VERIFY2_WITH_TIMEOUT(w.answerPanel()->noteText().contains(QLatin1String("was answered")),
                              qPrintable(w.answerPanel()->noteText()), 10000);
    QVERIFY2(w.answerPanel()->noteText().contains(QLatin1String("by eddyctl")), qPrintable(w.answerPanel()->noteText()));
    QCOMPARE(w.inboxView()->currentIndex().row(), rowOf(task));
    QCOMPARE(w.monitor()->selectedTaskIds(), QList<qint64>{task});
    const QStringList live = listed(*w.inboxModel());
    QVERIFY(holder.state() == QProcess::NotRunning || holder.waitForFinished(60000));
    QCOMPARE(holder.exitCode(), 0); // it saw the case complete

    // F5 and a restart list the same.
    m_app->bridge()->checkSharedChanges();
    QTRY_COMPARE_WITH_TIMEOUT(listed(*w.inboxModel()), live, 5000);
    m_app.reset();
    openWindow(QStringLiteral("elsewhere.sqlite"), false, false); // on All sessions, as it was left
    MainWindow &again = *m_app->window();
    QVERIFY(!again.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(listed(*again.inboxModel()), live, 30000);
}

void tst_InboxGui::endedCaseClosesItsQuestion_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("aborted in the panel") << QStringLiteral("abort");
    QTest::newRow("cancelled with eddyctl") << QStringLiteral("eddyctl");
}

void tst_InboxGui::endedCaseClosesItsQuestion()
{
    QFETCH(QString, how);
    const QString dbFile = QStringLiteral("ended-%1.sqlite").arg(how);
    openWindow(dbFile);
    MainWindow &w = *m_app->window();
    const QList<qint64> ids = submit(1, true);
    QCOMPARE(ids.size(), 1);
    const qint64 task = ids[0];
    pickQuestion(task);
    AnswerPanel *panel = w.answerPanel();
    if (how == QLatin1String("abort")) {
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 5000);
        panel->findChild<QPushButton *>(QStringLiteral("abort"))->click();
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("abortConfirm"))) && box->isVisible(), 5000);
        auto *confirm = box->findChild<QPushButton *>(QStringLiteral("confirmAbort"));
        QTRY_VERIFY_WITH_TIMEOUT(confirm->isEnabled(), 5000);
        confirm->click();
    } else {
        const Test::CtlRun run = ctl({QStringLiteral("cancel"), QString::number(task)});
        QVERIFY2(run.code == 0, run.err.constData());
    }
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(task)->status), int(TaskStatus::Cancelled), 30000);

    // The question stays listed, closed, saying why; the panel says it at once.
    const QString why = QStringLiteral("its case was cancelled before an answer was given");
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(task), int(Store::InputState::Closed), 10000);
    QVERIFY2(w.inboxModel()->index(rowOf(task), 0).data(InboxModel::AnswerTextRole).toString().contains(why),
             qPrintable(w.inboxModel()->index(rowOf(task), 0).data(InboxModel::AnswerTextRole).toString()));
    QTRY_VERIFY2_WITH_TIMEOUT(panel->noteText().contains(QStringLiteral("is closed: %1.").arg(why)),
                              qPrintable(panel->noteText()), 10000);
    QCOMPARE(w.inboxModel()->pendingCount(), 0);
    // Stored so: closed, with the end that closed it.
    const auto stored = Test::query(
        m_db,
        QStringLiteral("SELECT r.state, t.status FROM input_requests r JOIN tasks t ON t.id = r.task_id "
                       "WHERE r.task_id = %1")
            .arg(task),
        5000);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored[0], (QStringList{QStringLiteral("closed"), QStringLiteral("cancelled")}));
    // The task's detail says why it was never answered.
    w.monitor()->selectTask(task);
    QTRY_VERIFY2_WITH_TIMEOUT(w.resultView()->answersText().contains(QStringLiteral("Answer: Not answered: %1.").arg(why)),
                              qPrintable(w.resultView()->answersText()), 20000);

    // A restart shows the same.
    const QStringList live = listed(*w.inboxModel());
    m_app.reset();
    openWindow(dbFile, false);
    MainWindow &again = *m_app->window();
    QTRY_COMPARE_WITH_TIMEOUT(listed(*again.inboxModel()), live, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(again.taskModel()->task(task), 30000);
    again.monitor()->selectTask(task);
    QTRY_VERIFY2_WITH_TIMEOUT(again.resultView()->answersText().contains(QStringLiteral("Answer: Not answered: %1.").arg(why)),
                              qPrintable(again.resultView()->answersText()), 20000);
}

void tst_InboxGui::answerNextSelectsTheAskingCase()
{
    openWindow(QStringLiteral("next.sqlite"));
    MainWindow &w = *m_app->window();
    const QList<qint64> done = submit(1, false);
    QCOMPARE(done.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(done[0])->status), int(TaskStatus::Completed), 60000);
    const QList<qint64> asking = submit(1, true);
    QCOMPARE(asking.size(), 1);

    // The question in the panel, another case selected (its residuals in view) ...
    pickQuestion(asking[0]);
    w.monitor()->selectTask(done[0]);
    const auto charted = [&w](qint64 taskId) {
        const QList<SampleSeriesModel *> series = w.chart()->series();
        return !series.isEmpty() && std::all_of(series.cbegin(), series.cend(), [taskId](const SampleSeriesModel *s) {
            return s->taskId() == taskId;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(charted(done[0]), 20000);
    QVERIFY(w.resultView()->outcome() != ResultView::Outcome::Running);

    // ... then Ctrl+I: the asking case is selected, in view and charted beside its question.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    auto *table = w.monitor()->findChild<QTableView *>(QStringLiteral("taskTable"));
    QVERIFY(table);
    table->setFocus(); // where the click on the other case left it
    QTest::keyClick(table, Qt::Key_I, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(w.monitor()->selectedTaskIds(), QList<qint64>{asking[0]}, 5000);
    QVERIFY(w.answerPanel()->hasQuestion() && w.answerPanel()->taskId() == asking[0]);
    // Its chart and result: no residuals yet (the mesh check comes first), nothing of the other
    // case; the result dock shows the asking case, still running.
    QTRY_VERIFY_WITH_TIMEOUT(w.resultView()->outcome() == ResultView::Outcome::Running, 20000);
    const QList<SampleSeriesModel *> series = w.chart()->series();
    QVERIFY(std::none_of(series.cbegin(), series.cend(),
                         [&done](const SampleSeriesModel *s) { return s->taskId() == done[0]; }));
    const QRect row = table->visualRect(table->currentIndex());
    QVERIFY(table->viewport()->rect().intersects(row));
}

void tst_InboxGui::timelineTellsQueueAndUnwatchedTime()
{
    // Two workers, both busy: a case submitted then waits in the server's queue.
    Test::TestServer pair;
    QVERIFY2(pair.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200"),
                         QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(pair.errorString()));
    openWindow(QStringLiteral("timeline.sqlite"), false);
    MainWindow &w = *m_app->window();
    m_serverId = m_app->addServer(pair.url(), QStringLiteral("Two-worker CFD"));
    QVERIFY(m_serverId > 0);
    const auto call = [&](int grid, int iterations) {
        const json args{{"reynolds", m_reynolds++}, {"grid", grid}, {"max_iterations", iterations},
                        {"tolerance", 1e-14}};
        const int before = w.taskModel()->rowCount();
        m_app->bridge()->callOnce(m_serverId, QStringLiteral("run_cfd_case"),
                                  QByteArray::fromStdString(args.dump()), w.currentSession());
        [&] { QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), before + 1, 60000); }();
        qint64 newest = 0;
        for (int r = 0; r < w.taskModel()->rowCount(); ++r)
            newest = std::max(newest, w.taskModel()->taskIdAt(r));
        return newest;
    };
    // The long case runs four times as long as the short one (twice the grid): the queued case
    // runs once the short one has ended, and ends well before the long one.
    const qint64 shortCase = call(48, 60000);
    const qint64 longCase = call(96, 60000);
    const qint64 queued = call(16, 200);
    const qint64 neverRan = call(16, 200);
    QVERIFY(shortCase && longCase > shortCase && queued > longCase && neverRan > queued);
    // The last is cancelled while it waits for a worker: it never ran.
    m_app->bridge()->cancelTasks({neverRan});
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(neverRan)->status), int(TaskStatus::Cancelled), 30000);

    // Eddy closes while the others run or wait, and opens again once all have ended.
    const std::string longId = w.taskModel()->task(longCase)->serverTaskId.toStdString();
    const std::string queuedId = w.taskModel()->task(queued)->serverTaskId.toStdString();
    m_app.reset();
    Test::McpTestClient client(pair.url());
    const auto status = [&](const std::string &id) {
        return client.getTask(id).result().value("status", std::string());
    };
    QTRY_COMPARE_WITH_TIMEOUT(status(longId), std::string("completed"), 180000);
    QCOMPARE(status(queuedId), std::string("completed"));
    openWindow(QStringLiteral("timeline.sqlite"), false);
    MainWindow &again = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(again.taskModel()->task(queued) && !again.taskModel()->task(queued)->isLive(), 60000);

    // The case that waited: its queue, the time after its end while Eddy was closed, and the
    // solver's own time as its result gives it.
    again.monitor()->selectTask(queued);
    StatusTimeline *timeline = again.timeline();
    QTRY_VERIFY2_WITH_TIMEOUT(timeline->summary().startsWith(QLatin1String("Queued ")), qPrintable(timeline->summary()), 20000);
    QVERIFY2(timeline->summary().contains(QStringLiteral(" · solver time ")), qPrintable(timeline->summary()));
    QVERIFY2(timeline->summary().contains(QStringLiteral(" after its end")) && timeline->toolTip().contains(QStringLiteral("Eddy was closed")),
             qPrintable(timeline->summary()));
    // All of it reads at 1280x800, wrapped under the bar instead of cut at the dock's edge.
    QTRY_VERIFY(timeline->isVisible() && timeline->width() > 0);
    const QRect area = timeline->summaryRect();
    const QRect needed = timeline->fontMetrics().boundingRect(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                                                              timeline->summary());
    QVERIFY2(needed.height() <= area.height() && needed.width() <= area.width(),
             qPrintable(QStringLiteral("\"%1\" needs %2x%3, the timeline has %4x%5")
                            .arg(timeline->summary())
                            .arg(needed.width())
                            .arg(needed.height())
                            .arg(area.width())
                            .arg(area.height())));
    const StatusTimeline::Split queuedSplit = timeline->split();
    QVERIFY(queuedSplit.queuedMs > 0 && queuedSplit.unwatchedMs > 0);
    QCOMPARE(queuedSplit.queuedMs + queuedSplit.computingMs + queuedSplit.unwatchedMs,
             timeline->timeIn(TaskStatus::Working));

    // The cancelled one never computed.
    again.monitor()->selectTask(neverRan);
    QTRY_VERIFY2_WITH_TIMEOUT(timeline->summary().startsWith(QLatin1String("Queued ")), qPrintable(timeline->summary()), 20000);
    QCOMPARE(timeline->split().computingMs, 0);
    QVERIFY2(timeline->summary().contains(QStringLiteral(" · computing 0 ms")), qPrintable(timeline->summary()));
    QVERIFY2(!timeline->summary().contains(QStringLiteral("waiting for input")), qPrintable(timeline->summary()));
    m_app.reset();
}

void tst_InboxGui::answerWithoutUserNamesTheAccount()
{
    const passwd *pw = ::getpwuid(::geteuid());
    QVERIFY(pw && pw->pw_name && *pw->pw_name);
    const QString account = QString::fromLocal8Bit(pw->pw_name);
    QHash<QByteArray, QByteArray> saved;
    for (const char *name : {"USER", "USERNAME", "LOGNAME"}) {
        saved.insert(name, qgetenv(name));
        qunsetenv(name);
    }
    openWindow(QStringLiteral("user.sqlite"));
    MainWindow &w = *m_app->window();
    const QList<qint64> ids = submit(1, true);
    QCOMPARE(ids.size(), 1);
    pickQuestion(ids[0]);
    QTRY_VERIFY_WITH_TIMEOUT(!w.answerPanel()->isGuarded(), 5000);
    w.answerPanel()->findChild<QPushButton *>(QStringLiteral("accept"))->click();
    const QString who = QStringLiteral("SELECT answered_by FROM input_requests WHERE task_id = %1").arg(ids[0]);
    QTRY_COMPARE_WITH_TIMEOUT(Test::query(m_db, who, 5000).value(0).value(0), account, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(w.inboxModel()->index(rowOf(ids[0]), 0).data(InboxModel::AnswerTextRole).toString().contains(
                                 QStringLiteral("— by %1, ").arg(account)),
                             10000);
    for (auto it = saved.cbegin(); it != saved.cend(); ++it)
        if (!it.value().isEmpty())
            qputenv(it.key().constData(), it.value());
}

QTEST_MAIN(tst_InboxGui)
#include "tst_inboxgui.moc"
