#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

// Re-run and cancel from the task table, end to end: the real window (offscreen) against the
// real eddy-cfd-server (one solver worker, so a second case waits in its queue) and a real
// SQLite file. A sweep of two design points: case 1 runs for a long time, case 2 (30
// iterations) waits behind it. Del asks first ("No" changes nothing); a cancelled queued case
// does not keep its queue message; re-running it makes a new attempt of the same design point,
// and the sweep view shows that attempt.
class tst_Rerun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void delAsksAndNoCancelsNothing();
    void cancelledQueuedCaseDropsQueueMessage();
    void rerunStaysInSweep();
    void cleanupTestCase();

private:
    // Presses Del on the task table with this task selected; answers the confirmation with
    // `button`. Returns whether the confirmation was shown.
    bool pressDel(qint64 taskId, QMessageBox::StandardButton button);
    qint64 taskWithIterations(int maxIterations) const;
    std::optional<Store::CaseRecord> caseRecord(qint64 caseId);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_sweepId = 0;
    qint64 m_long = 0;   // case 1: runs until cancelled
    qint64 m_queued = 0; // case 2: waits behind case 1
};

void tst_Rerun::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_rerun"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("200"),
                             QStringLiteral("--workers"),
                             QStringLiteral("1")}),
             qPrintable(m_server.errorString()));

    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")));
    QVERIFY(m_app);
    QVERIFY(QTest::qWaitForWindowExposed(m_app->window()));
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->currentSession().has_value(), 30000);
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
    QCOMPARE(m_app->window()->serverModel()->rowCount(), 1);

    // Concurrency 1: case 1 is created (and takes the one worker) before case 2 is sent.
    const qint64 serverId
        = m_app->window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "rerun", "reynolds": 100, "grid": 64, "tolerance": 1e-14},
        "vary": {"max_iterations": {"list": [10000000, 30]}},
        "concurrency": 1})";
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->rowCount(), 2, 60000);
    m_long = taskWithIterations(10000000);
    m_queued = taskWithIterations(30);
    QVERIFY(m_long > 0 && m_queued > 0);
    m_sweepId = m_app->window()->taskModel()->task(m_queued)->sweepId.value_or(0);
    QVERIFY(m_sweepId > 0);
    QTRY_COMPARE_WITH_TIMEOUT(
        int(m_app->window()->taskModel()->task(m_long)->status), int(TaskStatus::Working), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->taskModel()->task(m_queued)->statusMessage.contains(
                                 QLatin1String("queued, position")),
                             30000);
}

qint64 tst_Rerun::taskWithIterations(int maxIterations) const
{
    const TaskTableModel *m = m_app->window()->taskModel();
    qint64 found = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const Store::TaskRecord *t = m->task(m->taskIdAt(r));
        const json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (args.value("max_iterations", 0) == maxIterations)
            found = std::max(found, t->id);
    }
    return found;
}

std::optional<Store::CaseRecord> tst_Rerun::caseRecord(qint64 caseId)
{
    std::optional<Store::CaseRecord> out;
    m_app->onEngine(
        [caseId, &out](Monitor::Engine &engine) { out = engine.catalogue().caseRecord(caseId); });
    return out;
}

bool tst_Rerun::pressDel(qint64 taskId, QMessageBox::StandardButton button)
{
    m_app->window()->monitor()->selectTask(taskId);
    QTableView *view = m_app->window()->monitor()->view();
    m_app->window()->activateWindow();
    view->setFocus();
    if (!QTest::qWaitForWindowActive(m_app->window()))
        qWarning("the window did not become active");
    // The confirmation is modal: answered from the event loop it runs.
    bool shown = false;
    auto *timer = new QTimer(this);
    timer->setInterval(50);
    connect(timer, &QTimer::timeout, this, [&shown, button, timer] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || !box->isVisible())
            return;
        timer->stop();
        shown = box->objectName() == QLatin1String("cancelConfirm")
                && box->text().contains(QLatin1String("cancel"));
        if (QAbstractButton *b = box->button(button))
            b->click();
        else
            box->reject();
    });
    timer->start();
    QTest::keyClick(view, Qt::Key_Delete);
    QTest::qWait(500); // negative check: a confirmation that did not come would have been answered by now
    timer->stop();
    timer->deleteLater();
    return shown;
}

void tst_Rerun::delAsksAndNoCancelsNothing()
{
    QVERIFY(pressDel(m_long, QMessageBox::No));
    // Several polls later the task still runs on the server and no cancel is pending.
    QTest::qWait(1500); // negative check: several polls at 200 ms send no cancel
    const Store::TaskRecord *t = m_app->window()->taskModel()->task(m_long);
    QCOMPARE(int(t->status), int(TaskStatus::Working));
    QVERIFY(!t->cancelRequested);
    QVERIFY2(!t->statusMessage.contains(QLatin1String("cancel")), qPrintable(t->statusMessage));
}

void tst_Rerun::cancelledQueuedCaseDropsQueueMessage()
{
    QVERIFY(pressDel(m_queued, QMessageBox::Yes));
    QTRY_COMPARE_WITH_TIMEOUT(int(m_app->window()->taskModel()->task(m_queued)->status),
                              int(TaskStatus::Cancelled),
                              30000);
    const TaskTableModel *m = m_app->window()->taskModel();
    const int row = m->rowOf(m_queued);
    QVERIFY(row >= 0);
    const QString message = m->index(row, TaskTableModel::MessageColumn).data().toString();
    QVERIFY2(!message.contains(QLatin1String("queued")), qPrintable(message));
    // The long case still runs: only the selected task was cancelled.
    QCOMPARE(int(m->task(m_long)->status), int(TaskStatus::Working));
}

void tst_Rerun::rerunStaysInSweep()
{
    // Free the one worker, then re-run the cancelled case 2.
    QVERIFY(pressDel(m_long, QMessageBox::Yes));
    QTRY_COMPARE_WITH_TIMEOUT(
        int(m_app->window()->taskModel()->task(m_long)->status), int(TaskStatus::Cancelled), 30000);
    const Store::TaskRecord before = *m_app->window()->taskModel()->task(m_queued);
    QVERIFY(before.caseId);
    m_app->window()->monitor()->selectTask(m_queued);
    auto *rerun
        = m_app->window()->monitor()->findChild<QToolButton *>(QStringLiteral("rerunTasks"));
    QVERIFY(rerun);
    QTRY_VERIFY_WITH_TIMEOUT(rerun->isEnabled(), 5000);
    rerun->click();
    QTRY_VERIFY_WITH_TIMEOUT(taskWithIterations(30) > m_queued, 60000);
    const qint64 attempt = taskWithIterations(30);

    // The new attempt belongs to the same sweep and design point, with its lineage.
    const Store::TaskRecord *t = m_app->window()->taskModel()->task(attempt);
    QCOMPARE(t->sweepId.value_or(0), m_sweepId);
    QVERIFY(t->caseId && *t->caseId != *before.caseId);
    const auto c = caseRecord(*t->caseId);
    QVERIFY(c);
    const auto old = caseRecord(*before.caseId);
    QVERIFY(old);
    QCOMPARE(c->sweepId.value_or(0), m_sweepId);
    QCOMPARE(c->index, old->index);
    QCOMPARE(c->parentCaseId.value_or(0), old->id);
    QTRY_COMPARE_WITH_TIMEOUT(int(m_app->window()->taskModel()->task(attempt)->status),
                              int(TaskStatus::Completed),
                              60000);
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->caseLabel(attempt),
                              m_app->window()->taskModel()->caseLabel(m_queued),
                              10000);

    // The sweep view: two design points, case 2 showing the new attempt and its result.
    m_app->window()->monitor()->selectTask(attempt);
    SweepResultsView *view = m_app->window()->sweepResults();
    const SweepResultsModel *results = view->model();
    QTRY_COMPARE_WITH_TIMEOUT(results->sweepId(), m_sweepId, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(results->withResultsCount(), 1, 20000);
    QCOMPARE(results->rowCount(), 2);
    int caseTwo = -1;
    for (int r = 0; r < results->rowCount(); ++r)
        if (results->index(r, 0).data().toString() == QStringLiteral("Case %1").arg(c->index + 1))
            caseTwo = r;
    QVERIFY(caseTwo >= 0);
    QCOMPARE(results->index(caseTwo, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), attempt);
    const int iterations = results->scalarColumn(QStringLiteral("iterations"));
    QVERIFY(iterations >= 0);
    QCOMPARE(results->index(caseTwo, iterations).data(SweepResultsModel::ValueRole).toDouble(),
             30.0);
    // The plot draws the new attempt's point.
    bool plotted = false;
    for (const SweepResultsModel::Point &p :
         results->outcomePoints(QStringLiteral("max_iterations"), QStringLiteral("iterations")))
        plotted = plotted || p.taskId == attempt;
    QVERIFY(plotted);
    // The export lists each design point once, with its latest attempt, like eddyctl's.
    const QString path = m_dir.filePath(QStringLiteral("gui.csv"));
    QVERIFY(view->exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray gui = file.readAll();
    const QList<QByteArray> lines = gui.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const int taskColumn = int(lines.first().split(',').indexOf("task"));
    QVERIFY(taskColumn >= 0);
    QCOMPARE(lines.at(2).split(',').value(taskColumn), QByteArray::number(attempt));
    const Test::CtlRun ctl = Test::runCtl({QStringLiteral("--db"),
                                           m_dir.filePath(QStringLiteral("eddy.sqlite")),
                                           QStringLiteral("export"),
                                           QString::number(m_sweepId),
                                           QStringLiteral("--format"),
                                           QStringLiteral("csv")},
                                          {30000, 120000, 10000});
    QVERIFY2(ctl.code == 0, ctl.err.constData());
    QCOMPARE(QString::fromUtf8(gui), QString::fromUtf8(ctl.out));
}

void tst_Rerun::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_Rerun)
#include "tst_rerun.moc"
