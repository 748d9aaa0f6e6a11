#include "models/enginebridge.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

// The sweep results plot and the residual chart as an engineer reviewing a sweep reads them: the
// real window (offscreen) against the real eddy-cfd-server and a real SQLite file. One sweep of
// four cases along max_iterations: 30 and 45 stop short of convergence, 20000 and 25000
// converge, so along the sorted x an unconverged run is followed by a converged one.
class tst_SweepPlot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sweepFinishes();
    void noLineJoinsDifferentOutcomes();
    void unconvergedPointsAreDistinctAndInTheLegend();
    void sweepPlotTicksAreRound();
    void residualChartTicksAreRound();
    void cleanupTestCase();

private:
    QChart *sweepChart() const { return m_window->sweepResults()->chartView()->chart(); }

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr; // m_app's
    EngineBridge *m_bridge = nullptr;
};

namespace {

// Whether step is 1, 2 or 5 x 10^n.
bool isNiceStep(double step)
{
    if (!(step > 0) || !std::isfinite(step))
        return false;
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (std::abs(mantissa - m) < 1e-6)
            return true;
    }
    return false;
}

// The tick values a QValueAxis draws, from its own properties (as Qt Charts lays them out).
QList<double> tickValues(const QValueAxis *axis, double *step)
{
    QList<double> values;
    if (axis->tickType() == QValueAxis::TicksDynamic) {
        *step = axis->tickInterval();
        if (!(*step > 0))
            return values;
        // Qt places ticks at anchor + k x interval inside [min, max].
        const double kFirst = std::ceil((axis->min() - axis->tickAnchor()) / *step - 1e-9);
        for (double k = kFirst; axis->tickAnchor() + k * *step <= axis->max() + *step * 1e-9; ++k)
            values << axis->tickAnchor() + k * *step;
    } else {
        const int n = axis->tickCount();
        *step = (axis->max() - axis->min()) / std::max(1, n - 1);
        for (int i = 0; i < n; ++i)
            values << axis->min() + i * *step;
    }
    return values;
}

// Empty when every tick of the axis is a multiple of a 1/2/5 x 10^n step; else what is wrong.
QString roundTickProblem(const QValueAxis *axis)
{
    double step = 0;
    const QList<double> values = tickValues(axis, &step);
    QStringList shown;
    for (double v : values)
        shown << QString::number(v, 'g', 12);
    const QString where = QStringLiteral("axis \"%1\" [%2, %3] ticks %4")
                              .arg(axis->titleText())
                              .arg(axis->min())
                              .arg(axis->max())
                              .arg(shown.join(QLatin1String(", ")));
    if (values.size() < 2)
        return QStringLiteral("fewer than two ticks: ") + where;
    if (!isNiceStep(step))
        return QStringLiteral("step %1 is not 1, 2 or 5 x 10^n: ").arg(step) + where;
    for (double v : values) {
        if (std::abs(v / step - std::round(v / step)) > 1e-6)
            return QStringLiteral("%1 is not a multiple of the step %2: ").arg(v).arg(step) + where;
    }
    return {};
}

QString logTickProblem(const QLogValueAxis *axis)
{
    const auto isPowerOfTen = [](double v) {
        const double e = std::log10(v);
        return v > 0 && std::abs(e - std::round(e)) < 1e-9;
    };
    if (!isPowerOfTen(axis->base()) || !isPowerOfTen(axis->min()) || !isPowerOfTen(axis->max()))
        return QStringLiteral("log axis base %1 over [%2, %3]: ticks not at decades")
            .arg(axis->base())
            .arg(axis->min())
            .arg(axis->max());
    return {};
}

QValueAxis *valueAxis(QChart *chart, Qt::Orientation o)
{
    for (QAbstractAxis *axis : chart->axes(o)) {
        if (auto *v = qobject_cast<QValueAxis *>(axis))
            return v;
    }
    return nullptr;
}

QScatterSeries *scatterNamed(QChart *chart, const QString &name)
{
    for (QAbstractSeries *s : chart->series()) {
        if (auto *scatter = qobject_cast<QScatterSeries *>(s); scatter && scatter->name() == name)
            return scatter;
    }
    return nullptr;
}

// Whether the legend shows the one entry of the outcome series called name.
bool legendShows(QChart *chart, const QString &name)
{
    QScatterSeries *series = scatterNamed(chart, name);
    if (!series)
        return false;
    const QList<QLegendMarker *> markers = chart->legend()->markers(series);
    return markers.size() == 1 && markers.first()->isVisible();
}

} // namespace

void tst_SweepPlot::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sweepplot"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(m_server.errorString()));

    Test::E2eWindowOptions options;
    options.size = QSize(1600, 1000);
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    QVERIFY(m_app);
    m_window = m_app->window();
    m_bridge = m_app->bridge();
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")) > 0);
    QCOMPARE(m_window->serverModel()->rowCount(), 1);
}

void tst_SweepPlot::sweepFinishes()
{
    const qint64 serverId
        = m_window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    QVERIFY(serverId > 0);
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "plot", "reynolds": 100, "grid": 16, "tolerance": 1e-4},
        "vary": {"max_iterations": {"list": [30, 20000, 45, 25000]}},
        "concurrency": 4})";
    m_bridge->submitSweep(serverId, spec, m_window->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->taskModel()->rowCount(), 4, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_window->taskModel()->statusCounts().value(TaskStatus::Completed), 4, 180000);
    m_window->monitor()->selectTask(m_window->taskModel()->taskIdAt(0));
    SweepResultsView *view = m_window->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 4, 20000);
    QVERIFY(view->setPlot(QStringLiteral("max_iterations"), QStringLiteral("iterations")));
    QCOMPARE(view->plottedPoints().size(), 4);
}

void tst_SweepPlot::noLineJoinsDifferentOutcomes()
{
    SweepResultsView *view = m_window->sweepResults();
    for (const QString &y : {QStringLiteral("iterations"), QStringLiteral("final_residual")}) {
        QVERIFY(view->setPlot(QStringLiteral("max_iterations"), y));
        QChart *chart = sweepChart();
        const QScatterSeries *converged = scatterNamed(chart, QStringLiteral("Converged"));
        const QScatterSeries *unconverged = scatterNamed(chart, QStringLiteral("Not converged"));
        QVERIFY2(converged && unconverged, qPrintable(y));
        QCOMPARE(converged->points().size(), 2);
        QCOMPARE(unconverged->points().size(), 2);
        QList<QPointF> otherOutcomes; // every plotted point that is not converged
        for (const QPointF &p : view->plottedPoints()) {
            if (!converged->points().contains(p))
                otherOutcomes << p;
        }
        QCOMPARE(otherOutcomes.size(), 2);
        int lines = 0;
        for (QAbstractSeries *s : chart->series()) {
            if (s->type() != QAbstractSeries::SeriesTypeLine)
                continue;
            ++lines;
            const QList<QPointF> pts = static_cast<QLineSeries *>(s)->points();
            QVERIFY(!pts.isEmpty());
            // A line joins converged points only, and passes no point of another outcome.
            for (const QPointF &p : pts)
                QVERIFY2(
                    converged->points().contains(p),
                    qPrintable(QStringLiteral("%1: line through (%2, %3), not a converged point")
                                   .arg(y)
                                   .arg(p.x())
                                   .arg(p.y())));
            for (const QPointF &p : otherOutcomes)
                QVERIFY2(p.x() < pts.first().x() || p.x() > pts.last().x(),
                         qPrintable(QStringLiteral("%1: a line spans the unconverged x = %2")
                                        .arg(y)
                                        .arg(p.x())));
        }
        // The two converged points are neighbours along x: they are joined.
        QCOMPARE(lines, 1);
    }
}

void tst_SweepPlot::unconvergedPointsAreDistinctAndInTheLegend()
{
    SweepResultsView *view = m_window->sweepResults();
    QVERIFY(view->setPlot(QStringLiteral("max_iterations"), QStringLiteral("iterations")));
    QChart *chart = sweepChart();
    const QScatterSeries *converged = scatterNamed(chart, QStringLiteral("Converged"));
    const QScatterSeries *unconverged = scatterNamed(chart, QStringLiteral("Not converged"));
    QVERIFY(converged && unconverged);
    QCOMPARE(view->unconvergedPoints().size(), 2);
    // Hollow: the fill is not the outline's colour; and not the converged colour.
    QVERIFY(unconverged->brush().color() != unconverged->pen().color());
    QVERIFY(unconverged->pen().color() != converged->brush().color());
    QVERIFY(chart->legend()->isVisible());
    const QList<QLegendMarker *> markers
        = chart->legend()->markers(const_cast<QScatterSeries *>(unconverged));
    QCOMPARE(markers.size(), 1);
    QCOMPARE(markers.first()->label(), QStringLiteral("Not converged"));
    QCOMPARE(markers.first()->brush().color(), unconverged->brush().color()); // hollow there too
    // The legend lays out its new entries on the next event-loop turn. While waiting, a late
    // change to the sweep may replot, which replaces the series and their markers: look them up
    // afresh each time, never through a pointer held across the wait.
    QTRY_VERIFY(legendShows(chart, QStringLiteral("Not converged")));
    QTRY_VERIFY(legendShows(chart, QStringLiteral("Converged")));
    // The lines have no entry of their own.
    for (QAbstractSeries *s : chart->series()) {
        if (s->type() == QAbstractSeries::SeriesTypeLine) {
            for (QLegendMarker *m : chart->legend()->markers(s))
                QVERIFY(!m->isVisible());
        }
    }
}

void tst_SweepPlot::sweepPlotTicksAreRound()
{
    SweepResultsView *view = m_window->sweepResults();
    QVERIFY(view->setPlot(QStringLiteral("max_iterations"), QStringLiteral("iterations")));
    QChart *chart = sweepChart();
    const QValueAxis *x = valueAxis(chart, Qt::Horizontal);
    const QValueAxis *y = valueAxis(chart, Qt::Vertical);
    QVERIFY(x && y);
    const QString xProblem = roundTickProblem(x);
    QVERIFY2(xProblem.isEmpty(), qPrintable(xProblem));
    const QString yProblem = roundTickProblem(y);
    QVERIFY2(yProblem.isEmpty(), qPrintable(yProblem));
    // A residual-like scalar: a log axis, ticks at decades.
    QVERIFY(view->setPlot(QStringLiteral("max_iterations"), QStringLiteral("final_residual")));
    const QLogValueAxis *logY = nullptr;
    for (QAbstractAxis *axis : chart->axes(Qt::Vertical))
        logY = logY ? logY : qobject_cast<QLogValueAxis *>(axis);
    QVERIFY(logY);
    const QString logProblem = logTickProblem(logY);
    QVERIFY2(logProblem.isEmpty(), qPrintable(logProblem));
}

void tst_SweepPlot::residualChartTicksAreRound()
{
    // A converged case: its iterations end wherever the solver met the tolerance.
    const SweepResultsModel *results = m_window->sweepResults()->model();
    qint64 task = 0;
    for (int r = 0; r < results->rowCount() && !task; ++r) {
        const qint64 id = results->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong();
        const Store::TaskRecord *t = m_window->taskModel()->task(id);
        const json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (args.value("max_iterations", 0) == 20000)
            task = id;
    }
    QVERIFY(task > 0);
    m_window->monitor()->selectTask(task);
    ResidualChart *chart = m_window->chart();
    QTRY_VERIFY_WITH_TIMEOUT(!chart->series().isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!chart->series().first()->points().empty(), 20000);
    const QValueAxis *x = valueAxis(chart->chart(), Qt::Horizontal);
    QVERIFY(x);
    // The axis spans the case's iterations (ranges follow the data after a short delay).
    const double last = chart->series().first()->points().back().x();
    QTRY_VERIFY_WITH_TIMEOUT(x->max() >= last, 5000);
    QString problem = roundTickProblem(x);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    for (QAbstractAxis *axis : chart->chart()->axes(Qt::Vertical)) {
        if (auto *log = qobject_cast<QLogValueAxis *>(axis)) {
            problem = logTickProblem(log);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }
    // Zoomed in and panned, as with the wheel and the arrow keys: still round.
    chart->zoomBy(0.37);
    problem = roundTickProblem(x);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    chart->panBy(0.13);
    problem = roundTickProblem(x);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    chart->resetZoom();
}

void tst_SweepPlot::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_SweepPlot)
#include "tst_sweepplot.moc"
