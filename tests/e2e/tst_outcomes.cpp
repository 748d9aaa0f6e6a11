#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

// Outcomes and charts, end to end: the real window (offscreen) against the real eddy-cfd-server
// and a real SQLite file. One sweep of four cases gives every outcome an engineer reviews: a run
// that converged, one that stopped at its iteration limit, a tool error (mesh question answered
// "abort") and one repaired and converged. The server's poll interval is long, so every case
// ends before Eddy's first poll: only the final state and result are ever seen.
class tst_Outcomes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sweepEndsWithEveryOutcome();
    void toolErrorIsNotPaintedAsSuccess();
    void unconvergedRunReadsNotConverged();
    void fastCaseChartHasIterationsAndFullHistory();
    void vorticitySeriesIsNotNamedP();
    void guiExportEqualsEddyctlExport();
    void sweepPlotDefaultsToNumericAxis();
    void cleanupTestCase();

private:
    // Row of the case whose arguments have these values (-1 when none).
    int rowOf(bool defect, int maxIterations) const;
    qint64 taskOf(bool defect, int maxIterations) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_sweepId = 0;
};

void tst_Outcomes::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_outcomes"));
    QSettings().clear();
    // Questions go to the inbox; this test answers them through the engine like the panel does.
    QSettings().setValue(QStringLiteral("input/openDialogs"), false);
    QVERIFY(m_dir.isValid());
    // A poll interval far longer than a 16x16 case takes: each case ends between two polls.
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("4000"),
                             QStringLiteral("--workers"),
                             QStringLiteral("2")}),
             qPrintable(m_server.errorString()));

    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")));
    QVERIFY(m_app);
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->currentSession().has_value(), 30000);
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
    QCOMPARE(m_app->window()->serverModel()->rowCount(), 1);
}

int tst_Outcomes::rowOf(bool defect, int maxIterations) const
{
    const TaskTableModel *m = m_app->window()->taskModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        const Store::TaskRecord *t = m->task(m->taskIdAt(r));
        const json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (args.value("force_mesh_defect", false) == defect
            && args.value("max_iterations", 0) == maxIterations)
            return r;
    }
    return -1;
}

qint64 tst_Outcomes::taskOf(bool defect, int maxIterations) const
{
    const int r = rowOf(defect, maxIterations);
    return r < 0 ? 0 : m_app->window()->taskModel()->taskIdAt(r);
}

void tst_Outcomes::sweepEndsWithEveryOutcome()
{
    const qint64 serverId
        = m_app->window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    QVERIFY(serverId > 0);
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "outcomes", "reynolds": 100, "grid": 16, "tolerance": 1e-4},
        "vary": {"force_mesh_defect": {"list": [false, true]}, "max_iterations": {"list": [30, 20000]}},
        "concurrency": 4})";
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->rowCount(), 4, 60000);

    // The two defective meshes ask; the limited one is aborted (a tool error), the other repaired.
    QSet<qint64> answered;
    QElapsedTimer timer;
    timer.start();
    const auto done = [this] {
        return m_app->window()->taskModel()->statusCounts().value(TaskStatus::Completed) == 4;
    };
    while (!done() && timer.elapsed() < 180000) {
        const InboxModel *inbox = m_app->window()->inboxModel();
        for (int r = 0; r < inbox->rowCount(); ++r) {
            const qint64 task = inbox->index(r, 0).data(InboxModel::TaskIdRole).toLongLong();
            const QString key = inbox->index(r, 0).data(InboxModel::KeyRole).toString();
            if (answered.contains(task))
                continue;
            const bool abort = task == taskOf(true, 30);
            m_app->bridge()->answerInput(
                task,
                key,
                abort
                    ? R"({"action":"accept","content":{"action":"abort"}})"
                    : R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})");
            answered.insert(task);
        }
        QTest::qWait(50); // the poll step of this answering loop: events run between its looks
    }
    QVERIFY2(done(), qPrintable(m_app->window()->statusCountsText()));
    QCOMPARE(answered.size(), 2);
    m_sweepId = m_app->window()->taskModel()->task(taskOf(false, 30))->sweepId.value_or(0);
    QVERIFY(m_sweepId > 0);
    QVERIFY(m_app->window()->taskModel()->task(taskOf(true, 30))->isToolError);
}

void tst_Outcomes::toolErrorIsNotPaintedAsSuccess()
{
    const TaskTableModel *m = m_app->window()->taskModel();
    const int error = rowOf(true, 30);
    const int good = rowOf(false, 20000);
    QVERIFY(error >= 0 && good >= 0);
    QVERIFY(m->task(m->taskIdAt(good))->status == TaskStatus::Completed);
    const QModelIndex errorStatus = m->index(error, TaskTableModel::StatusColumn);
    const QModelIndex goodStatus = m->index(good, TaskTableModel::StatusColumn);
    // The success colour is the converged row's; the tool error's dot and text must differ.
    const QColor success = goodStatus.data(Qt::ForegroundRole).value<QColor>();
    QVERIFY(success.isValid());
    QVERIFY2(errorStatus.data(Qt::ForegroundRole).value<QColor>() != success,
             qPrintable(errorStatus.data(Qt::ForegroundRole).value<QColor>().name()));
    QVERIFY(errorStatus.data(Qt::DecorationRole).value<QColor>() != success);
    QCOMPARE(errorStatus.data().toString(), QStringLiteral("Tool error"));
    // No full green bar: a tool error is not a finished run.
    QVERIFY(m->index(error, TaskTableModel::ProgressColumn).data().toString()
            != QStringLiteral("100 %"));
    QVERIFY(m->index(error, TaskTableModel::ProgressColumn)
                .data(TaskTableModel::ProgressRole)
                .toDouble()
            < 1.0);
    // The sweep table agrees.
    m_app->window()->monitor()->selectTask(m->taskIdAt(error));
    const SweepResultsModel *results = m_app->window()->sweepResults()->model();
    QTRY_COMPARE_WITH_TIMEOUT(results->rowCount(), 4, 20000);
    const int statusColumn = int(results->parameterNames().size()) + 1;
    QColor sweepError, sweepGood;
    for (int r = 0; r < results->rowCount(); ++r) {
        const qint64 id = results->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong();
        if (id == m->taskIdAt(error))
            sweepError = results->index(r, statusColumn).data(Qt::ForegroundRole).value<QColor>();
        if (id == m->taskIdAt(good))
            sweepGood = results->index(r, statusColumn).data(Qt::ForegroundRole).value<QColor>();
    }
    QVERIFY(sweepGood.isValid());
    QVERIFY(sweepError != sweepGood);
}

void tst_Outcomes::unconvergedRunReadsNotConverged()
{
    const TaskTableModel *m = m_app->window()->taskModel();
    const int limited = rowOf(false, 30);
    const int good = rowOf(false, 20000);
    QVERIFY(limited >= 0);
    const QModelIndex status = m->index(limited, TaskTableModel::StatusColumn);
    QVERIFY2(status.data().toString().contains(QLatin1String("not converged")),
             qPrintable(status.data().toString()));
    QVERIFY(!m->index(good, TaskTableModel::StatusColumn)
                 .data()
                 .toString()
                 .contains(QLatin1String("not converged")));
    const QColor success
        = m->index(good, TaskTableModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>();
    QVERIFY(status.data(Qt::ForegroundRole).value<QColor>() != success);
    QVERIFY(!m_app->window()->statusCountsText().contains(QLatin1String("Done 4")));
}

void tst_Outcomes::fastCaseChartHasIterationsAndFullHistory()
{
    // The converged case ran entirely between two polls: Eddy saw only its end.
    const qint64 task = taskOf(false, 20000);
    QVERIFY(task > 0);
    m_app->window()->monitor()->selectTask(task);
    ResidualChart *chart = m_app->window()->chart();
    QTRY_VERIFY_WITH_TIMEOUT(!chart->series().isEmpty(), 20000);
    const Store::TaskRecord *t = m_app->window()->taskModel()->task(task);
    const TaskTableModel::Progress *p = m_app->window()->taskModel()->progress(task);
    QVERIFY(p && p->iteration);
    const double iterations = *p->iteration;
    QVERIFY2(iterations > 2 && iterations < 20000, qPrintable(t->statusMessage));
    for (SampleSeriesModel *s : chart->series()) {
        QVERIFY2(
            s->points().size() > 10,
            qPrintable(QStringLiteral("%1: %2 point(s)").arg(s->series()).arg(s->points().size())));
        for (const QPointF &pt : s->points())
            QVERIFY2(pt.x() >= 0 && pt.x() <= iterations,
                     qPrintable(QStringLiteral("x = %1").arg(pt.x(), 0, 'f')));
        QCOMPARE(s->points().back().x(), iterations);
    }
}

void tst_Outcomes::vorticitySeriesIsNotNamedP()
{
    m_app->window()->monitor()->selectTask(taskOf(false, 30));
    ResidualChart *chart = m_app->window()->chart();
    QTRY_VERIFY_WITH_TIMEOUT(chart->series().size() >= 3, 20000);
    QStringList names;
    for (SampleSeriesModel *s : chart->series())
        names << s->series();
    QVERIFY2(!names.contains(QStringLiteral("residual.p")), qPrintable(names.join(',')));
    QVERIFY2(names.contains(QStringLiteral("residual.ω")), qPrintable(names.join(',')));
    QVERIFY(names.contains(QStringLiteral("residual.u")));
    QVERIFY(names.contains(QStringLiteral("residual.v")));
}

void tst_Outcomes::guiExportEqualsEddyctlExport()
{
    QVERIFY(m_sweepId > 0);
    m_app->window()->monitor()->selectTask(taskOf(false, 30));
    SweepResultsView *view = m_app->window()->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->sweepId(), m_sweepId, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 3, 20000);
    const QString path = m_dir.filePath(QStringLiteral("gui.csv"));
    QVERIFY(view->exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray gui = file.readAll();

    const Test::CtlRun ctl = Test::runCtl({QStringLiteral("--db"),
                                           m_dir.filePath(QStringLiteral("eddy.sqlite")),
                                           QStringLiteral("export"),
                                           QString::number(m_sweepId),
                                           QStringLiteral("--format"),
                                           QStringLiteral("csv")},
                                          {30000, 120000, 10000});
    QVERIFY2(ctl.code == 0, ctl.err.constData());
    QCOMPARE(QString::fromUtf8(gui), QString::fromUtf8(ctl.out));

    const QList<QByteArray> lines = gui.trimmed().split('\n');
    QCOMPARE(lines.size(), 5);
    const QList<QByteArray> header = lines.first().split(',');
    for (const char *column : {"case",
                               "outcome",
                               "is_error",
                               "force_mesh_defect",
                               "max_iterations",
                               "reynolds",
                               "grid",
                               "tolerance",
                               "case_name",
                               "converged",
                               "final_residual"})
        QVERIFY2(header.contains(column), column);
    QVERIFY(!header.contains("idempotency_key"));
    const int caseColumn = int(header.indexOf("case"));
    const int errorColumn = int(header.indexOf("is_error"));
    const int outcomeColumn = int(header.indexOf("outcome"));
    QStringList outcomes;
    for (int i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> f = lines[i].split(',');
        QCOMPARE(f.value(caseColumn).toInt(), i); // case order
        outcomes << QString::fromUtf8(f.value(outcomeColumn));
        if (f.value(outcomeColumn) == "tool_error")
            QCOMPARE(f.value(errorColumn), QByteArray("true"));
    }
    QCOMPARE(outcomes.count(QStringLiteral("tool_error")), 1);
    QCOMPARE(outcomes.count(QStringLiteral("not_converged")), 1);
    QCOMPARE(outcomes.count(QStringLiteral("converged")), 2);
}

void tst_Outcomes::sweepPlotDefaultsToNumericAxis()
{
    SweepResultsView *view = m_app->window()->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 3, 20000);
    // force_mesh_defect (a yes/no switch) comes first by name; the plot opens on the number.
    QCOMPARE(view->xCombo()->currentText(), QStringLiteral("max_iterations"));
    QVERIFY(!view->yCombo()->currentText().isEmpty());
    auto *chartView = view->findChild<QChartView *>();
    QVERIFY(chartView);
    QVERIFY2(!chartView->chart()->title().contains(QLatin1String("No completed case")),
             qPrintable(chartView->chart()->title()));
    QVERIFY(!view->plottedPoints().isEmpty());
    // final_residual spans decades: a log axis; the unconverged point is drawn apart.
    QVERIFY(view->setPlot(QStringLiteral("max_iterations"), QStringLiteral("final_residual")));
    bool logAxis = false;
    for (QAbstractAxis *axis : chartView->chart()->axes(Qt::Vertical))
        logAxis = logAxis || qobject_cast<QLogValueAxis *>(axis);
    QVERIFY(logAxis);
    int unconverged = 0;
    for (QAbstractSeries *series : chartView->chart()->series()) {
        if (auto *scatter = qobject_cast<QScatterSeries *>(series);
            scatter && scatter->name() == QLatin1String("Not converged"))
            unconverged = int(scatter->points().size());
    }
    QCOMPARE(unconverged, 1);
}

void tst_Outcomes::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_Outcomes)
#include "tst_outcomes.moc"
