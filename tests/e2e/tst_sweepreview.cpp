#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/charttexts.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/layoutwait.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;
using Test::drawnTexts;

// An engineer reviewing a past sweep: the real window (offscreen, 1280x800) against the real
// eddy-cfd-server and a real SQLite file. One sweep of four cases ends converged, not converged,
// converged after its mesh question was answered "repair", and cancelled at its question. Then
// Eddy closes, the server restarts on a data folder that no longer has those tasks, and Eddy
// opens again on the same database: everything below is read from what Eddy kept.
class tst_SweepReview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void emptyPlotShowsNoCutLabels();
    void statusBarCountsEveryCase();
    void enlargedPlotReturnsBesideTheTable();
    void sweepPlotAxesAreReadableInTheDock();
    void residualColumnKeepsItsNumbersAfterRestart();
    void sweepTableColumnsReadInOneNotation();
    void resultTextAgreesWithItsNumbers();
    void cleanupTestCase();

private:
    bool runSweep();
    bool reopen();
    qint64 taskOf(bool defect, int maxIterations) const;
    QString residualText(qint64 taskId) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr; // m_app's
    QHash<qint64, QString> m_residualBefore; // task -> Residual column before the restart
};

namespace {

Test::E2eWindowOptions windowOptions()
{
    Test::E2eWindowOptions options;
    options.size = QSize(1280, 800);
    options.waitForSession = true;
    return options;
}

// Clicks the tab of the bottom dock area titled `title`, as a person would.
bool clickDockTab(MainWindow *window, const QString &title)
{
    for (QTabBar *bar : window->findChildren<QTabBar *>()) {
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i) == title && bar->isVisible()) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                return true;
            }
        }
    }
    return false;
}

} // namespace

void tst_SweepReview::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sweepreview"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2")},
                            m_dir.filePath(QStringLiteral("server-before"))),
             qPrintable(m_server.errorString()));
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), windowOptions());
    QVERIFY(m_app);
    m_window = m_app->window();
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")) > 0);
    QVERIFY(runSweep());
    QVERIFY(reopen());
}

bool tst_SweepReview::runSweep()
{
    const qint64 serverId
        = m_window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "review", "reynolds": 100, "grid": 16, "tolerance": 1e-4},
        "vary": {"force_mesh_defect": {"list": [false, true]}, "max_iterations": {"list": [30, 20000]}},
        "concurrency": 4})";
    m_app->bridge()->submitSweep(serverId, spec, m_window->currentSession());
    TaskTableModel *tasks = m_window->taskModel();
    if (!QTest::qWaitFor([&] { return tasks->rowCount() == 4; }, 60000))
        return false;
    // The limited defective case is cancelled at its question, the other one repaired.
    const InboxModel *inbox = m_window->inboxModel();
    QSet<qint64> handled;
    const auto settled = [&] {
        for (int r = 0; r < inbox->rowCount(); ++r) {
            const qint64 task = inbox->index(r, 0).data(InboxModel::TaskIdRole).toLongLong();
            if (handled.contains(task))
                continue;
            handled.insert(task);
            if (task == taskOf(true, 30))
                m_app->bridge()->cancelTasks({task});
            else
                m_app->bridge()->answerInput(
                    task, inbox->index(r, 0).data(InboxModel::KeyRole).toString(),
                    R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})");
        }
        const auto counts = tasks->statusCounts();
        return counts.value(TaskStatus::Completed) == 3 && counts.value(TaskStatus::Cancelled) == 1;
    };
    if (!QTest::qWaitFor(settled, 180000)) {
        qWarning("the sweep did not settle: %s", qPrintable(m_window->statusCountsText()));
        return false;
    }
    // What the Residual column read while Eddy watched the cases end (results and their
    // residual histories arrive just after the status). Pacing: nothing tells when the last of
    // them has arrived, and a value read before it would differ from the stored one.
    QTest::qWait(1500);
    for (int r = 0; r < tasks->rowCount(); ++r)
        m_residualBefore.insert(tasks->taskIdAt(r), residualText(tasks->taskIdAt(r)));
    return true;
}

bool tst_SweepReview::reopen()
{
    m_app.reset();
    m_window = nullptr;
    // The server forgot every task: a fresh data folder on the same address.
    const QString port = QString::number(m_server.port());
    m_server.terminate();
    if (!m_server.start({QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--port"), port},
                        m_dir.filePath(QStringLiteral("server-after")))) {
        qWarning("%s", qPrintable(m_server.errorString()));
        return false;
    }
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), windowOptions());
    if (!m_app)
        return false;
    m_window = m_app->window();
    return QTest::qWaitFor([&] { return m_window->taskModel()->rowCount() == 4; }, 30000);
}

qint64 tst_SweepReview::taskOf(bool defect, int maxIterations) const
{
    const TaskTableModel *m = m_window->taskModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        const Store::TaskRecord *t = m->task(m->taskIdAt(r));
        const json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (args.value("force_mesh_defect", false) == defect
            && args.value("max_iterations", 0) == maxIterations)
            return t->id;
    }
    return 0;
}

QString tst_SweepReview::residualText(qint64 taskId) const
{
    const TaskTableModel *m = m_window->taskModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->taskIdAt(r) == taskId)
            return m->index(r, TaskTableModel::ResidualColumn).data().toString();
    }
    return QStringLiteral("(no row)");
}

void tst_SweepReview::emptyPlotShowsNoCutLabels()
{
    // The window just opened, no task selected: the tab says to pick one, and its empty plot
    // draws nothing cut to "..." (it drew an empty 0..1 frame whose labels were all cut).
    QVERIFY(clickDockTab(m_window, QStringLiteral("Sweep Results")));
    SweepResultsView *view = m_window->sweepResults();
    QCOMPARE(view->model()->sweepId(), 0);
    QTRY_VERIFY(view->chartView()->isVisible());
    // Also when the engineer has made the dock shorter (dragging its edge; a restored layout).
    QVERIFY(Test::waitForLayout(m_window)); // the dock takes its height on the next turns
    const int tall = m_window->sweepResultsDock()->height();
    for (int height : {tall, 170}) {
        m_window->resizeDocks({m_window->sweepResultsDock()}, {height}, Qt::Vertical);
        QVERIFY(Test::waitForLayout(m_window)); // the chart lays out on the next turns
        for (const QString &text : drawnTexts(view->chartView()))
            QVERIFY2(!text.contains(QLatin1String("...")),
                     qPrintable(QStringLiteral("\"%1\" in a %2 px high plot")
                                    .arg(text)
                                    .arg(view->chartView()->height())));
    }
    // Back to the inbox: the next look at the tab gives it its room again.
    QVERIFY(clickDockTab(m_window, QStringLiteral("Input Inbox")));
}

void tst_SweepReview::statusBarCountsEveryCase()
{
    // The counts a person reads in the status bar add up to the four cases, the cancelled one
    // included, each under its own outcome.
    QStringList shown;
    int total = 0;
    static const QRegularExpression count(QStringLiteral("^(.*) <b>(\\d+)</b>"));
    for (QLabel *label : m_window->statusBar()->findChildren<QLabel *>()) {
        if (!label->objectName().startsWith(QLatin1String("count_")) || !label->isVisible())
            continue;
        const QString plain = QString(label->text()).remove(QRegularExpression(QStringLiteral("<span[^>]*>[^<]*</span>\\s*")))
                                  .remove(QStringLiteral("&nbsp;"));
        const auto m = count.match(plain.trimmed());
        QVERIFY2(m.hasMatch(), qPrintable(label->text()));
        total += m.captured(2).toInt();
        shown << plain.trimmed();
    }
    const QString all = shown.join(QStringLiteral(" | "));
    QVERIFY2(total == 4, qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("Cancelled <b>1</b>")), qPrintable(all));
}

void tst_SweepReview::enlargedPlotReturnsBesideTheTable()
{
    m_window->monitor()->selectTask(taskOf(false, 20000));
    QVERIFY(clickDockTab(m_window, QStringLiteral("Sweep Results")));
    SweepResultsView *view = m_window->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 3, 20000);
    auto *split = qobject_cast<QSplitter *>(view->chartView()->parentWidget());
    QVERIFY(split);
    QTRY_VERIFY(split->sizes().value(0) > 0);
    const QList<int> before = split->sizes();
    view->findChild<QWidget *>(QStringLiteral("enlargePlot"))->setFocus();
    QTest::mouseClick(view->findChild<QWidget *>(QStringLiteral("enlargePlot")), Qt::LeftButton);
    auto *dialog = view->findChild<QDialog *>(QStringLiteral("enlargedPlot"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(view->chartView()->window(), dialog);
    dialog->close(); // the window's close button
    QTRY_COMPARE(view->chartView()->parentWidget(), split);
    QApplication::processEvents();
    // Back where it was: the table keeps its width (it was squeezed to a sliver).
    const QList<int> after = split->sizes();
    QVERIFY2(std::abs(after.value(0) - before.value(0)) <= 2,
             qPrintable(QStringLiteral("table %1 px before, %2 px after").arg(before.value(0)).arg(after.value(0))));
}

void tst_SweepReview::sweepPlotAxesAreReadableInTheDock()
{
    m_window->monitor()->selectTask(taskOf(false, 20000));
    QVERIFY(clickDockTab(m_window, QStringLiteral("Sweep Results")));
    SweepResultsView *view = m_window->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 3, 20000);
    for (const QString &y : {QStringLiteral("final_residual"), QStringLiteral("iterations")}) {
        QVERIFY(view->setPlot(QStringLiteral("max_iterations"), y));
        QApplication::processEvents();
        // Qt Charts cuts a label that does not fit to "...": none may be cut, the axes' titles
        // and the legend included.
        QTRY_VERIFY(!drawnTexts(view->chartView()).isEmpty());
        QVERIFY(Test::waitForLayout(m_window)); // the chart lays out on the next turns
        const QStringList texts = drawnTexts(view->chartView());
        for (const QString &text : texts)
            QVERIFY2(!text.contains(QLatin1String("...")) && !text.contains(QChar(0x2026)),
                     qPrintable(QStringLiteral("%1: \"%2\" cut in a %3x%4 plot; drawn: %5")
                                    .arg(y, text)
                                    .arg(view->chartView()->width())
                                    .arg(view->chartView()->height())
                                    .arg(texts.join(QStringLiteral(", ")))));
        // Both names shown: on their axes, or above the plot ("y vs x") when the y axis is too
        // short for its name upright.
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(y) && all.contains(QStringLiteral("max_iterations")),
                 qPrintable(texts.join(QStringLiteral(", "))));
    }
}

void tst_SweepReview::residualColumnKeepsItsNumbersAfterRestart()
{
    // The Residual column reads what it read while the cases ran: the last residual Eddy stored
    // (from the result's history), not the status message's rounder number.
    QCOMPARE(m_residualBefore.size(), 4);
    for (auto it = m_residualBefore.begin(); it != m_residualBefore.end(); ++it) {
        const QString before = it.value();
        QTRY_COMPARE_WITH_TIMEOUT(residualText(it.key()), before, 5000);
        QVERIFY2(it.key() == taskOf(true, 30) || !before.isEmpty(), qPrintable(QString::number(it.key())));
    }
}

void tst_SweepReview::sweepTableColumnsReadInOneNotation()
{
    // The final residuals of converged and unconverged cases span seven decades: one column
    // must not mix "9.9501e-05" with "12.9306" (as %g prints them), or the numbers read as
    // different kinds. Every number column is in one notation, the full value in the tooltip.
    m_window->monitor()->selectTask(taskOf(false, 20000));
    SweepResultsModel *results = m_window->sweepResults()->model();
    QTRY_COMPARE_WITH_TIMEOUT(results->withResultsCount(), 3, 20000);
    const int residual = results->scalarColumn(QStringLiteral("final_residual"));
    QVERIFY(residual > 0);
    for (int column = 1; column < results->columnCount(); ++column) {
        QStringList texts;
        int scientific = 0;
        for (int r = 0; r < results->rowCount(); ++r) {
            const QModelIndex cell = results->index(r, column);
            if (cell.data(SweepResultsModel::ValueRole).typeId() != QMetaType::Double)
                continue;
            const QString text = cell.data().toString();
            texts << text;
            scientific += text.contains(QLatin1Char('e')) ? 1 : 0;
            bool ok = false;
            const double shown = text.toDouble(&ok);
            const double value = cell.data(SweepResultsModel::ValueRole).toDouble();
            QVERIFY2(ok && std::abs(shown - value) <= std::abs(value) * 1e-4, qPrintable(text));
        }
        const QString header = results->headerData(column, Qt::Horizontal).toString();
        QVERIFY2(scientific == 0 || scientific == texts.size(),
                 qPrintable(QStringLiteral("%1: %2").arg(header, texts.join(QStringLiteral(", ")))));
        if (column == residual)
            QVERIFY2(scientific == 3, qPrintable(texts.join(QStringLiteral(", "))));
    }
}

void tst_SweepReview::resultTextAgreesWithItsNumbers()
{
    // The result's paragraph (the Text tab) as an engineer reads it beside the table: its
    // residual and solver time are the result's own numbers, and no clause says something else.
    const SweepResultsModel *results = m_window->sweepResults()->model();
    QTRY_COMPARE_WITH_TIMEOUT(results->withResultsCount(), 3, 20000);
    for (const auto &[task, converged] : {std::pair{taskOf(false, 20000), true}, std::pair{taskOf(false, 30), false}}) {
        m_window->monitor()->selectTask(task);
        ResultView *view = m_window->resultView();
        const QString opening = converged ? QStringLiteral("converged after") : QStringLiteral("did not converge");
        QTRY_VERIFY_WITH_TIMEOUT(view->text().contains(opening), 20000);
        const QString text = view->text();
        double finalResidual = 0, wallSeconds = 0;
        for (int r = 0; r < results->rowCount(); ++r) {
            if (results->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong() != task)
                continue;
            finalResidual = results->index(r, results->scalarColumn(QStringLiteral("final_residual")))
                                .data(SweepResultsModel::ValueRole).toDouble();
            wallSeconds = results->index(r, results->scalarColumn(QStringLiteral("wall_seconds")))
                              .data(SweepResultsModel::ValueRole).toDouble();
        }
        QVERIFY2(finalResidual > 0 && wallSeconds > 0, qPrintable(text));
        static const QRegularExpression residual(QStringLiteral("residual of ([-+0-9.e]+)"));
        static const QRegularExpression time(QStringLiteral("([-+0-9.e]+) s of solver time"));
        const auto r = residual.match(text);
        const auto t = time.match(text);
        QVERIFY2(r.hasMatch() && t.hasMatch(), qPrintable(text));
        // Three significant digits (two say "1.0e-6" of a run that met a 1e-6 tolerance with
        // 9.97e-7), within half a unit of the third.
        static const QRegularExpression threeDigits(QStringLiteral("^\\d\\.\\d\\de"));
        QVERIFY2(threeDigits.match(r.captured(1)).hasMatch(), qPrintable(text));
        QVERIFY2(std::abs(r.captured(1).toDouble() - finalResidual) <= finalResidual * 0.005,
                 qPrintable(QStringLiteral("%1 (final_residual %2)").arg(text).arg(finalResidual)));
        QVERIFY2(std::abs(t.captured(1).toDouble() - wallSeconds) <= wallSeconds * 0.05,
                 qPrintable(QStringLiteral("%1 (wall_seconds %2)").arg(text).arg(wallSeconds)));
        QVERIFY2(!text.contains(QLatin1String("more iterations in ")), qPrintable(text));
    }
}

void tst_SweepReview::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_SweepReview)
#include "tst_sweepreview.moc"
