#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/sweeptable.h"
#include "tests/common/testserver.h"
#include "widgets/compareview.h"
#include "widgets/elicitationdialog.h"
#include "widgets/resultview.h"
#include "widgets/fieldpictures.h"
#include "widgets/mainwindow.h"
#include "widgets/parallelcoordinatespanel.h"
#include "widgets/parallelcoordinatesview.h"
#include "widgets/residualchart.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDockWidget>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QRegularExpression>
#include "models/sampleseriesmodel.h"
#include <QSet>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using json = nlohmann::json;

// An engineer reviewing a finished sweep in the real window (offscreen, 1280x800) against the
// real eddy-cfd-server and a real SQLite file: four cavity cases at two tolerances, with and without a
// mesh question answered "repair". Compare a case with the sweep's first case; brush the parallel
// coordinates and see the cases selected in the table; brush a sweep with unconverged cases and
// re-run the brushed ones from the sweep table.
class tst_CompareGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void compareFlagsARegressionAgainstTheBaseline();
    void compareShowsQuestionsAndAnswers();
    void brushingSelectsCasesInTheTable();
    void fieldPicturesSideBySideAtOneScale();
    void twoSweepsOnOnePlot();
    void rerunBrushedFailedCasesJoinTheirSweep();
    void cleanupTestCase();

private:
    qint64 taskOf(double tolerance, bool defect) const;
    void selectRows(const QList<qint64> &tasks) { Test::selectSweepRows(m_window->sweepResults(), tasks); }
    // The sweep table's selection: its ranges, and the runs of adjacent rows it holds.
    std::pair<int, int> selectionRangesAndRuns() const;
    void showSweep();
    static int resultRow(const QTableWidget *table, const QString &scalar);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr;
};

void tst_CompareGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_comparegui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2")}, m_dir.filePath(QStringLiteral("server"))),
             qPrintable(m_server.errorString()));
    Test::E2eWindowOptions options;
    options.size = QSize(1280, 800);
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    QVERIFY(m_app);
    m_window = m_app->window();
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")) > 0);
    const qint64 serverId = m_window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "compare", "reynolds": 100, "grid": 16},
        "vary": {"tolerance": {"list": [1e-4, 1e-5]}, "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 4})";
    m_app->bridge()->submitSweep(serverId, spec, m_window->currentSession());
    TaskTableModel *tasks = m_window->taskModel();
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), 4, 60000);
    // Every mesh question is answered "repair", as an engineer would in the inbox.
    const InboxModel *inbox = m_window->inboxModel();
    QSet<qint64> answered;
    const auto settled = [&] {
        for (int r = 0; r < inbox->rowCount(); ++r) {
            const qint64 task = inbox->index(r, 0).data(InboxModel::TaskIdRole).toLongLong();
            if (answered.contains(task))
                continue;
            answered.insert(task);
            m_app->bridge()->answerInput(task, inbox->index(r, 0).data(InboxModel::KeyRole).toString(),
                                         R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})");
        }
        return tasks->statusCounts().value(Store::TaskStatus::Completed) == 4;
    };
    QVERIFY2(QTest::qWaitFor(settled, 240000), qPrintable(m_window->statusCountsText()));
    QCOMPARE(answered.size(), 2);
}

qint64 tst_CompareGui::taskOf(double tolerance, bool defect) const
{
    const TaskTableModel *m = m_window->taskModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        const Store::TaskRecord *t = m->task(m->taskIdAt(r));
        const json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (args.value("grid", 0) == 16 && args.value("tolerance", 0.0) == tolerance && args.value("force_mesh_defect", false) == defect)
            return t->id;
    }
    return 0;
}

std::pair<int, int> tst_CompareGui::selectionRangesAndRuns() const
{
    const QItemSelectionModel *selection = m_window->sweepResults()->table()->selectionModel();
    QList<int> rows;
    for (const QModelIndex &i : selection->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    int runs = 0;
    for (int k = 0; k < rows.size(); ++k)
        runs += k == 0 || rows.at(k) != rows.at(k - 1) + 1 ? 1 : 0;
    return {int(selection->selection().size()), runs};
}

void tst_CompareGui::showSweep()
{
    m_window->monitor()->selectTask(taskOf(1e-4, false));
    SweepResultsModel *model = m_window->sweepResults()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->withResultsCount(), 4, 30000);
    m_window->sweepResultsDock()->raise();
    QTRY_VERIFY(m_window->sweepResults()->table()->isVisible());
}

int tst_CompareGui::resultRow(const QTableWidget *table, const QString &scalar)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0) && table->item(r, 0)->text() == scalar)
            return r;
    return -1;
}

// One case selected, Compare: it stands against the sweep's first case (tolerance 1e-4, no
// defect). The tighter tolerance needs more iterations than the threshold allows: flagged on screen and in the
// CSV; raising the threshold clears the flag.
void tst_CompareGui::compareFlagsARegressionAgainstTheBaseline()
{
    showSweep();
    const qint64 first = taskOf(1e-4, false);
    const qint64 fine = taskOf(1e-5, false);
    selectRows({fine});
    auto *compare = m_window->sweepResults()->findChild<QToolButton *>(QStringLiteral("compareCases"));
    QVERIFY2(compare, "the sweep results have no Compare button");
    QVERIFY(compare->isEnabled());
    QTest::mouseClick(compare, Qt::LeftButton);
    auto *view = m_window->findChild<CompareView *>();
    QVERIFY(view);
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(view->cases(), (QList<qint64>{first, fine}));
    QCOMPARE(view->baseline(), first);
    QCOMPARE(view->baselineCombo()->currentText(), QStringLiteral("Case 1"));

    // Inputs: only the argument that differs.
    QTableWidget *inputs = view->inputsTable();
    QCOMPARE(inputs->rowCount(), 1);
    QCOMPARE(inputs->item(0, 0)->text(), QStringLiteral("tolerance"));
    QCOMPARE(inputs->item(0, 1)->text(), QLocale().toString(1e-4, 'g', 6));
    QCOMPARE(inputs->item(0, 2)->text(), QLocale().toString(1e-5, 'g', 6));
    QTest::mouseClick(view->allArgumentsBox(), Qt::LeftButton);
    QVERIFY(inputs->rowCount() > 3);
    QVERIFY(resultRow(inputs, QStringLiteral("reynolds")) >= 0);
    QTest::mouseClick(view->allArgumentsBox(), Qt::LeftButton);
    QCOMPARE(inputs->rowCount(), 1);

    // Results: iterations with difference and change, flagged.
    QTableWidget *results = view->resultsTable();
    const int iterations = resultRow(results, QStringLiteral("iterations"));
    QVERIFY(iterations >= 0);
    const SweepResultsModel *model = m_window->sweepResults()->model();
    const double base = model->comparisonCase(model->rowOfTask(first)).scalars.value(QStringLiteral("iterations")).toDouble();
    const double mine = model->comparisonCase(model->rowOfTask(fine)).scalars.value(QStringLiteral("iterations")).toDouble();
    QVERIFY2(mine > base * 1.2, qPrintable(QStringLiteral("%1 vs %2").arg(mine).arg(base)));
    QCOMPARE(results->item(iterations, 3)->text(), QLatin1Char('+') + QLocale().toString(mine - base, 'g', 6));
    QTableWidgetItem *change = results->item(iterations, 4);
    QVERIFY2(change->text().startsWith(QStringLiteral("⚠ +")), qPrintable(change->text()));
    QVERIFY(change->data(Qt::UserRole).toBool());
    QVERIFY2(change->toolTip().contains(QStringLiteral("threshold +20 %")), qPrintable(change->toolTip()));
    QVERIFY(view->regressionCount() >= 1);
    QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("iterations")), qPrintable(view->summaryLabel()->text()));

    // In the export too.
    const QString path = m_dir.filePath(QStringLiteral("comparison.csv"));
    QVERIFY(view->exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString csv = QString::fromUtf8(file.readAll());
    QVERIFY2(csv.contains(QRegularExpression(QStringLiteral("\nCase 2,iterations,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.e+-]+,yes,"))),
             qPrintable(csv));

    // The residual histories of both cases on one chart.
    QTRY_VERIFY_WITH_TIMEOUT(view->residualChart()->series().size() >= 2, 30000);
    QSet<qint64> charted;
    for (const auto *s : view->residualChart()->series())
        charted.insert(s->taskId());
    QCOMPARE(charted, (QSet<qint64>{first, fine}));

    // A laxer rule: no flag on the iterations any more.
    QDoubleSpinBox *threshold = view->findChild<QDoubleSpinBox *>(QStringLiteral("iterationsThreshold"));
    QVERIFY(threshold);
    QCOMPARE(threshold->value(), 20.0);
    threshold->setFocus();
    threshold->selectAll();
    QTest::keyClicks(threshold, QStringLiteral("1000"));
    QTest::keyClick(threshold, Qt::Key_Enter);
    QCOMPARE(threshold->value(), 1000.0);
    QVERIFY(!results->item(resultRow(results, QStringLiteral("iterations")), 4)->data(Qt::UserRole).toBool());
    threshold->setValue(20);

    // The other case as the baseline: now the first case has fewer iterations, no flag there.
    view->baselineCombo()->setFocus();
    QTest::keyClick(view->baselineCombo(), Qt::Key_Down);
    QCOMPARE(view->baseline(), fine);
    QCOMPARE(results->horizontalHeaderItem(1)->text(), QStringLiteral("Case 2 (baseline)"));
    QVERIFY(!results->item(resultRow(results, QStringLiteral("iterations")), 4)->data(Qt::UserRole).toBool());
    view->close();
}

// Two cases with their mesh questions' answers (who, when).
void tst_CompareGui::compareShowsQuestionsAndAnswers()
{
    showSweep();
    const qint64 a = taskOf(1e-4, true);
    const qint64 b = taskOf(1e-5, true);
    selectRows({a, b});
    QTest::mouseClick(m_window->sweepResults()->findChild<QToolButton *>(QStringLiteral("compareCases")), Qt::LeftButton);
    auto *view = m_window->findChild<CompareView *>();
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(view->cases().size(), 2);
    QTableWidget *questions = view->questionsTable();
    QCOMPARE(questions->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
        const QString text = questions->item(r, 1)->text();
        QVERIFY2(text.contains(QStringLiteral("accept")) && text.contains(QStringLiteral("repair"))
                     && text.contains(QStringLiteral(" at 20")),
                 qPrintable(text));
    }
    view->close();
}

// Parallel coordinates: drag along the tolerance axis over its lower end; the two cases at the
// tighter tolerance are selected in the sweep table. Selecting a row in the table highlights its
// line and drops the brush.
void tst_CompareGui::brushingSelectsCasesInTheTable()
{
    showSweep();
    auto *open = m_window->sweepResults()->findChild<QAction *>(QStringLiteral("showParallelCoordinates"));
    QVERIFY2(open, "the sweep results offer no parallel coordinates");
    auto *review = m_window->sweepResults()->findChild<QToolButton *>(QStringLiteral("sweepReview"));
    QVERIFY(review && review->isVisible() && review->menu()->actions().contains(open));
    open->trigger(); // Review > Parallel Coordinates...
    ParallelCoordinatesPanel *panel = m_window->sweepResults()->parallelCoordinates();
    QVERIFY(panel);
    QTRY_VERIFY(panel->isVisible());
    ParallelCoordinatesView *view = panel->view();
    QVERIFY(QTest::qWaitForWindowExposed(panel));
    const int tolerance = view->data().axisOf(QStringLiteral("tolerance"));
    QVERIFY(tolerance >= 0);
    QVERIFY(view->data().axisOf(QStringLiteral("iterations")) >= 0);
    QVERIFY(view->data().axes().size() >= 3);
    QCOMPARE(view->data().lines().size(), 4);

    const QLineF axis = view->axisLine(tolerance);
    const QPoint bottom = QPointF(axis.x1(), axis.y2() + 2).toPoint();
    const QPoint lowThird = QPointF(axis.x1(), axis.y2() - axis.length() / 3).toPoint();
    QTest::mousePress(view, Qt::LeftButton, {}, bottom);
    QTest::mouseMove(view, QPointF(axis.x1(), axis.y2() - 20).toPoint());
    QTest::mouseMove(view, lowThird);
    QTest::mouseRelease(view, Qt::LeftButton, {}, lowThird);
    const QList<qint64> tight{taskOf(1e-5, false), taskOf(1e-5, true)};
    QList<qint64> selected = m_window->sweepResults()->selectedTasks();
    std::sort(selected.begin(), selected.end());
    QList<qint64> expected = tight;
    std::sort(expected.begin(), expected.end());
    QCOMPARE(selected, expected);
    auto *status = panel->findChild<QLabel *>(QStringLiteral("parallelStatus"));
    QVERIFY2(status->text().startsWith(QStringLiteral("2 case")), qPrintable(status->text()));

    // A second axis brushed (keyboard): Up on the iterations axis puts a band mid-axis; with
    // the tolerance brush, only cases inside both stay selected.
    view->setFocus();
    const int iterations = view->data().axisOf(QStringLiteral("iterations"));
    while (view->currentAxis() < iterations)
        QTest::keyClick(view, Qt::Key_Right);
    while (view->currentAxis() > iterations)
        QTest::keyClick(view, Qt::Key_Left);
    for (int i = 0; i < 30; ++i) // the band up to the top: the most iterations
        QTest::keyClick(view, Qt::Key_Up);
    for (qint64 id : m_window->sweepResults()->selectedTasks())
        QVERIFY(tight.contains(id));
    QVERIFY(view->data().hasBrush());
    QTest::keyClick(view, Qt::Key_Escape);
    QVERIFY(!view->data().hasBrush());
    QVERIFY(m_window->sweepResults()->selectedTasks().isEmpty());

    // The other way: a row clicked in the table is highlighted in the plot.
    selectRows({taskOf(1e-4, false)});
    QCOMPARE(view->selected(), QSet<qint64>{taskOf(1e-4, false)});
    panel->close();
}

// The reference server's cavity result carries a picture of its flow: the task detail shows it
// with its colour scale, the compare view shows both cases' pictures side by side and says they
// share one scale.
void tst_CompareGui::fieldPicturesSideBySideAtOneScale()
{
    showSweep();
    const qint64 a = taskOf(1e-4, false);
    const qint64 b = taskOf(1e-5, false);
    m_window->monitor()->selectTask(a);
    auto *detail = m_window->findChild<ResultView *>();
    QVERIFY(detail);
    QTRY_VERIFY_WITH_TIMEOUT(detail->findChild<FieldPictures *>() != nullptr, 30000);
    FieldPictures *own = detail->findChild<FieldPictures *>();
    QCOMPARE(own->pictureCount(), 1);
    QVERIFY2(own->scaleNote().startsWith(QStringLiteral("Colour scale: |u|/U_lid from 0 to 1.")),
             qPrintable(own->scaleNote()));
    const QImage picture = own->picturesOf(0).first().image;
    QVERIFY(picture.width() >= 160 && picture.height() >= 160);
    // Not one flat colour: the lid's fast flow is lighter than the slow bottom corners.
    QVERIFY(picture.pixelColor(80, 2).lightness() > picture.pixelColor(2, 157).lightness() + 60);

    showSweep();
    selectRows({a, b});
    QTest::mouseClick(m_window->sweepResults()->findChild<QToolButton *>(QStringLiteral("compareCases")), Qt::LeftButton);
    auto *view = m_window->findChild<CompareView *>();
    QTRY_VERIFY(view->isVisible());
    FieldPictures *pictures = view->pictures();
    QCOMPARE(pictures->pictureCount(), 2);
    QVERIFY2(pictures->scaleNote().startsWith(QStringLiteral("One colour scale for every picture: |u|/U_lid from 0 to 1")),
             qPrintable(pictures->scaleNote()));
    view->detailTabs()->setCurrentWidget(pictures);
    QVERIFY(pictures->isVisible());
    view->close();
}

// A second sweep of the same tool, the same tolerances on a finer grid: drawn on the first
// sweep's plot, named in the legend, a grid-convergence check at a glance.
void tst_CompareGui::twoSweepsOnOnePlot()
{
    const qint64 serverId = m_window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    m_app->bridge()->submitSweep(serverId, R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "finer", "reynolds": 100, "grid": 24},
        "vary": {"tolerance": {"list": [1e-4, 1e-5]}}, "concurrency": 2})", m_window->currentSession());
    TaskTableModel *tasks = m_window->taskModel();
    QTRY_COMPARE_WITH_TIMEOUT(tasks->statusCounts().value(Store::TaskStatus::Completed), 6, 120000);
    qint64 finer = 0;
    for (int r = 0; r < tasks->rowCount(); ++r)
        if (const auto *t = tasks->task(tasks->taskIdAt(r)); t->sweepId && t->sweepId != tasks->task(taskOf(1e-4, false))->sweepId)
            finer = *t->sweepId;
    QVERIFY(finer > 0);

    showSweep();
    SweepResultsView *results = m_window->sweepResults();
    QVERIFY(results->setPlot(QStringLiteral("tolerance"), QStringLiteral("iterations")));
    auto *overlay = results->findChild<QMenu *>(QStringLiteral("overlaySweep"));
    QVERIFY2(overlay, "the sweep plot offers no other sweep to draw");
    QTRY_VERIFY(overlay->isEnabled());
    QAction *choice = nullptr;
    for (QAction *a : overlay->actions())
        if (a->data().toLongLong() == finer)
            choice = a;
    QVERIFY2(choice, "the finer sweep is not offered");
    QCOMPARE(choice->text(), QStringLiteral("Sweep %1").arg(finer));
    choice->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(results->overlayPoints().size(), 2, 30000);
    QStringList names;
    for (QAbstractSeries *s : results->chartView()->chart()->series())
        names << s->name();
    QVERIFY2(names.contains(QStringLiteral("Sweep %1").arg(finer)), qPrintable(names.join(QLatin1Char(','))));
    QCOMPARE(results->plottedPoints().size(), 4); // the sweep shown keeps its own points
    // Back to the one sweep.
    overlay->actions().first()->trigger();
    QVERIFY(results->overlayPoints().isEmpty());
}

// A sweep whose cases at 30 iterations stop short of convergence, at three Reynolds numbers.
// Brushing the lower Reynolds numbers selects two unconverged and two converged cases in the
// sweep table; Re-run Failed and Unconverged in its context menu sends exactly the two brushed
// unconverged cases again (the Reynolds 400 one stays as it is), each once (the server's own
// task list), each into its sweep at its case index (the database).
void tst_CompareGui::rerunBrushedFailedCasesJoinTheirSweep()
{
    const QString db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    const QString serverDb = m_server.dataDir() + QStringLiteral("/tasks.sqlite");
    TaskTableModel *tasks = m_window->taskModel();
    const QList<qint64> earlier = tasks->taskIds();
    const qint64 serverId = m_window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    m_app->bridge()->submitSweep(serverId, R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "rerun", "grid": 8},
        "vary": {"max_iterations": {"list": [30, 20000]}, "reynolds": {"list": [100, 200, 400]}},
        "concurrency": 4})", m_window->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), int(earlier.size()) + 6, 60000);
    QList<qint64> mine;
    for (qint64 id : tasks->taskIds())
        if (!earlier.contains(id))
            mine << id;
    const auto finished = [&] {
        return std::none_of(mine.cbegin(), mine.cend(), [tasks](qint64 id) { return tasks->task(id)->isLive(); });
    };
    QTRY_VERIFY_WITH_TIMEOUT(finished(), 120000);
    const qint64 sweepId = tasks->task(mine.first())->sweepId.value_or(0);
    QVERIFY(sweepId > 0);
    const auto reynoldsOf = [tasks](qint64 id) {
        return json::parse(tasks->task(id)->arguments.toStdString(), nullptr, false).value("reynolds", 0.0);
    };
    const auto failedOrUnconverged = [tasks](qint64 id) {
        return TaskMonitor::isRerunnable(*tasks->task(id)) || tasks->outcome(id) == Monitor::Outcome::NotConverged;
    };

    m_window->monitor()->selectTask(mine.first());
    SweepResultsModel *model = m_window->sweepResults()->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->sweepId() == sweepId && model->withResultsCount() == 6, 30000);
    m_window->sweepResultsDock()->raise();
    QTRY_VERIFY(m_window->sweepResults()->table()->isVisible());
    m_window->sweepResults()->findChild<QAction *>(QStringLiteral("showParallelCoordinates"))->trigger();
    ParallelCoordinatesPanel *panel = m_window->sweepResults()->parallelCoordinates();
    QTRY_VERIFY(panel->isVisible());
    QVERIFY(QTest::qWaitForWindowExposed(panel));
    ParallelCoordinatesView *view = panel->view();
    QTRY_COMPARE(view->data().lines().size(), 6);
    const int reynolds = view->data().axisOf(QStringLiteral("reynolds"));
    QVERIFY(reynolds >= 0);

    // Drag over the lower half of the Reynolds axis: 100 and 200, not 400.
    const QLineF axis = view->axisLine(reynolds);
    const QPoint bottom = QPointF(axis.x1(), axis.y2() + 2).toPoint();
    const QPoint half = QPointF(axis.x1(), axis.y2() - axis.length() / 2).toPoint();
    QTest::mousePress(view, Qt::LeftButton, {}, bottom);
    QTest::mouseMove(view, QPointF(axis.x1(), axis.y2() - 20).toPoint());
    QTest::mouseMove(view, half);
    QTest::mouseRelease(view, Qt::LeftButton, {}, half);
    QList<qint64> selected = m_window->sweepResults()->selectedTasks();
    QCOMPARE(selected.size(), 4);
    // Selected as one range per run of adjacent rows, not one per row (a brush over a
    // thousand cases selected them range by range, on every mouse move).
    const auto [ranges, runs] = selectionRangesAndRuns();
    QVERIFY2(runs < selected.size(), "the brushed rows are not adjacent: nothing to merge");
    QCOMPARE(ranges, runs);
    QList<qint64> expected; // the brushed cases that failed or did not converge
    for (qint64 id : selected) {
        QVERIFY(reynoldsOf(id) < 300);
        if (failedOrUnconverged(id))
            expected << id;
    }
    QCOMPARE(expected.size(), 2);
    qint64 leftOut = 0; // unconverged, outside the brush
    for (qint64 id : mine)
        if (!selected.contains(id) && failedOrUnconverged(id))
            leftOut = id;
    QVERIFY2(leftOut > 0, "the Reynolds 400 case at 30 iterations converged: nothing outside the brush to leave out");

    const qint64 serverBefore = Test::scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks"), 10000);
    Test::pickFromSweepMenu(m_window->sweepResults(), selected.first(), QStringLiteral("sweepRerunFailed"));
    if (QTest::currentTestFailed())
        return;
    panel->close();
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), int(earlier.size()) + 8, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(Test::scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks"), 10000),
                              serverBefore + 2, 30000);
    QCOMPARE(Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE sweep_id=%1").arg(sweepId), 10000),
             qint64(8));
    QCOMPARE(Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE sweep_id=%1 AND parent_case_id IS NOT NULL")
                                  .arg(sweepId), 10000),
             qint64(2));
    for (qint64 parent : expected) {
        const qint64 caseId = *tasks->task(parent)->caseId;
        QCOMPARE(Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE parent_case_id=%1").arg(caseId), 10000),
                 qint64(1));
        const qint64 child = Test::scalar(db, QStringLiteral("SELECT task_id FROM cases WHERE parent_case_id=%1").arg(caseId),
                                          10000);
        QTRY_VERIFY_WITH_TIMEOUT(tasks->task(child), 30000);
        const Store::TaskRecord *c = tasks->task(child);
        QCOMPARE(c->sweepId, std::optional<qint64>(sweepId)); // joins its sweep
        QCOMPARE(Test::scalar(db, QStringLiteral("SELECT idx FROM cases WHERE id=%1").arg(*c->caseId), 10000),
                 Test::scalar(db, QStringLiteral("SELECT idx FROM cases WHERE id=%1").arg(caseId), 10000));
        QCOMPARE(reynoldsOf(child), reynoldsOf(parent));
        const QString key =
            Test::query(db, QStringLiteral("SELECT idempotency_key FROM cases WHERE id=%1").arg(*c->caseId), 10000)
                .value(0)
                .value(0);
        QVERIFY(!key.isEmpty());
        QCOMPARE(Test::scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(key),
                              10000),
                 qint64(1));
    }
    QCOMPARE(Test::scalar(db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE parent_case_id=%1")
                                  .arg(*tasks->task(leftOut)->caseId), 10000),
             qint64(0));
    mine = tasks->taskIds();
    QTRY_VERIFY_WITH_TIMEOUT(finished(), 120000);
}

void tst_CompareGui::cleanupTestCase()
{
    m_app.reset();
    m_server.terminate();
}

QTEST_MAIN(tst_CompareGui)
#include "tst_comparegui.moc"
