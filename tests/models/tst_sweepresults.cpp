// The per-sweep results table (parameters + result scalars, sortable, CSV, scalar-vs-parameter
// points as cases finish) and the SVG writer (parsed back: one polyline per series with exactly
// the points the chart shows after downsampling, decade ticks on a log axis).
#include "models/resultcurves.h"
#include "models/sampleseriesmodel.h"
#include "models/svgplot.h"
#include "models/sweepresultsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace Eddy;
using Store::TaskStatus;

namespace {

Store::TaskRecord task(qint64 id, qint64 caseId, double reynolds, int grid, TaskStatus status,
                       const QString &structured = {})
{
    Store::TaskRecord t;
    t.id = id;
    t.caseId = caseId;
    t.sweepId = 7;
    t.tool = QStringLiteral("run_cfd_case");
    t.arguments = QStringLiteral(R"({"reynolds":%1,"grid":%2,"idempotency_key":"k%3"})").arg(reynolds).arg(grid).arg(id);
    t.status = status;
    if (!structured.isEmpty())
        t.result = QStringLiteral(R"({"content":[{"type":"text","text":"ok"}],"structuredContent":%1,"isError":false})")
                       .arg(structured);
    return t;
}

QString cavity(double re, int iterations, double residual, double vx, bool converged)
{
    return QStringLiteral(R"({"case_name":"c","reynolds":%1,"grid":32,"u_centreline":{"y":[0,0.5,1],"u":[0,-0.2,1]},)"
                          R"("vortex_centre":{"x":%4,"y":0.73,"psi":-0.1},"iterations":%2,"final_residual":%3,)"
                          R"("converged":%5,"wall_seconds":1.5})")
        .arg(re)
        .arg(iterations)
        .arg(residual)
        .arg(vx)
        .arg(converged ? QStringLiteral("true") : QStringLiteral("false"));
}

struct ParsedSvg
{
    QList<int> polylinePoints; // point count per polyline
    QStringList names;
    QStringList tickLabels;
    int circles = 0;
    bool ok = false;
};

ParsedSvg parse(const QString &svg)
{
    ParsedSvg out;
    QXmlStreamReader xml(svg);
    bool inTicks = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("polyline")) {
                const QString pts = xml.attributes().value(QLatin1String("points")).toString().trimmed();
                out.polylinePoints << (pts.isEmpty() ? 0 : int(pts.split(QLatin1Char(' ')).size()));
                out.names << xml.attributes().value(QLatin1String("data-name")).toString();
            } else if (xml.name() == QLatin1String("circle")) {
                ++out.circles;
            } else if (xml.name() == QLatin1String("g")) {
                inTicks = xml.attributes().value(QLatin1String("class")) == QLatin1String("ticks");
            } else if (inTicks && xml.name() == QLatin1String("text")) {
                out.tickLabels << xml.readElementText();
            }
        }
    }
    out.ok = !xml.hasError();
    return out;
}

} // namespace

class tst_SweepResults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableOfParametersAndScalars();
    void updatesAsCasesFinish();
    void latestAttemptPerCase();
    void sortsNumbersAsNumbers();
    void csvExport();
    void svgOfDownsampledSeries();
    void svgScatterAndEscaping();
    void svgMarkersOnlyAndUnnamedSegments();
    void ticks();
    void curvesOfResultArrays();
};

void tst_SweepResults::tableOfParametersAndScalars()
{
    SweepResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSweep(7, {QStringLiteral("reynolds"), QStringLiteral("grid")},
                   {task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 5503, 9.9e-8, 0.617, true)),
                    task(2, 12, 400, 32, TaskStatus::Working),
                    task(3, 13, 1000, 64, TaskStatus::Failed),
                    // another sweep's task is not shown
                    [] { auto t = task(4, 14, 1, 1, TaskStatus::Completed); t.sweepId = 8; return t; }()},
                   {{11, 0}, {12, 1}, {13, 2}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.parameterNames(), (QStringList{QStringLiteral("reynolds"), QStringLiteral("grid")}));
    // Scalars of the structured content: numbers and booleans, nested objects flattened; arrays
    // and strings are not scalars; varied parameters are not repeated.
    const QStringList scalars = model.scalarNames();
    for (const char *name : {"iterations", "final_residual", "converged", "wall_seconds", "vortex_centre.x",
                             "vortex_centre.y", "vortex_centre.psi"})
        QVERIFY2(scalars.contains(QLatin1String(name)), name);
    QVERIFY(!scalars.contains(QStringLiteral("reynolds")));
    QVERIFY(!scalars.contains(QStringLiteral("case_name")));
    QVERIFY(!scalars.join(QLatin1Char(' ')).contains(QStringLiteral("centreline")));
    QCOMPARE(model.columnCount(), 2 + 2 + int(scalars.size()));
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Case 1"));
    QCOMPARE(model.index(0, model.parameterColumn(QStringLiteral("reynolds"))).data().toString(), QStringLiteral("100"));
    QCOMPARE(model.index(2, model.parameterColumn(QStringLiteral("grid"))).data().toString(), QStringLiteral("64"));
    QCOMPARE(model.index(0, model.scalarColumn(QStringLiteral("iterations"))).data().toString(), QStringLiteral("5503"));
    QCOMPARE(model.index(0, model.scalarColumn(QStringLiteral("converged"))).data().toString(), QStringLiteral("yes"));
    QCOMPARE(model.index(0, model.scalarColumn(QStringLiteral("vortex_centre.x"))).data(SweepResultsModel::ValueRole).toDouble(), 0.617);
    QCOMPARE(model.index(1, 3).data().toString(), QStringLiteral("Working"));
    // Cases without a result have empty scalar cells.
    QVERIFY(!model.index(1, model.scalarColumn(QStringLiteral("iterations"))).data(SweepResultsModel::ValueRole).isValid());
    QCOMPARE(model.headerData(model.scalarColumn(QStringLiteral("final_residual")), Qt::Horizontal).toString(),
             QStringLiteral("final_residual"));
}

void tst_SweepResults::updatesAsCasesFinish()
{
    SweepResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSweep(7, {QStringLiteral("reynolds")},
                   {task(1, 11, 100, 32, TaskStatus::Working), task(2, 12, 400, 32, TaskStatus::Working)},
                   {{11, 0}, {12, 1}, {13, 2}});
    QVERIFY(model.scalarNames().isEmpty());
    QVERIFY(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")).isEmpty());
    QSignalSpy changed(&model, &SweepResultsModel::resultsChanged);
    model.updateTasks({task(2, 12, 400, 32, TaskStatus::Completed, cavity(400, 9000, 1e-7, 0.554, true))});
    QCOMPARE(changed.size(), 1);
    QVERIFY(model.scalarNames().contains(QStringLiteral("iterations")));
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")), (QList<QPointF>{{400, 9000}}));
    // A change set without the result (status only) keeps the stored result.
    auto statusOnly = task(2, 12, 400, 32, TaskStatus::Completed);
    model.updateTasks({statusOnly});
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")).size(), 1);
    model.updateTasks({task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 5000, 1e-7, 0.617, true)),
                       task(3, 13, 1000, 32, TaskStatus::Completed, cavity(1000, 12000, 1e-6, 0.53, false))});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")),
             (QList<QPointF>{{100, 5000}, {400, 9000}, {1000, 12000}}));
    // Booleans plot as 0/1.
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("converged")).last(), QPointF(1000, 0));
    // A tool error is not a design point.
    auto toolError = task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 1, 1, 0, false));
    toolError.isToolError = true;
    model.updateTasks({toolError});
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")).size(), 2);
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("Tool error"));
}

void tst_SweepResults::latestAttemptPerCase()
{
    // Case 2 (index 1) was re-run: case 14 is its second attempt, task 4.
    SweepResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto first
        = task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 5000, 1e-7, 0.6, true));
    const auto cancelled = task(2, 12, 400, 32, TaskStatus::Cancelled);
    const auto attempt
        = task(4, 14, 400, 32, TaskStatus::Completed, cavity(400, 9000, 1e-7, 0.55, true));
    model.setSweep(7, {QStringLiteral("reynolds")}, {first, attempt, cancelled},
                   {{11, 0}, {12, 1}, {14, 1}});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Case 2"));
    QCOMPARE(model.index(1, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), 4);
    QCOMPARE(model.points(QStringLiteral("reynolds"), QStringLiteral("iterations")),
             (QList<QPointF>{{100, 5000}, {400, 9000}}));
    // A late change of the earlier attempt does not take the row back.
    model.updateTasks({cancelled});
    QCOMPARE(model.index(1, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), 4);
    // A third attempt, once its case is known, takes over the row in place.
    model.setSweep(7, {QStringLiteral("reynolds")}, {first, cancelled},
                   {{11, 0}, {12, 1}, {15, 1}});
    model.updateTasks({task(5, 15, 400, 32, TaskStatus::Working)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), 5);
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("Working"));
    // A task of a case the model was not given is left for the caller to reload.
    model.updateTasks({task(6, 16, 400, 32, TaskStatus::Working)});
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!model.knowsCase(16));
}

void tst_SweepResults::sortsNumbersAsNumbers()
{
    SweepResultsModel model;
    model.setSweep(7, {QStringLiteral("reynolds")},
                   {task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 5000, 1e-7, 0.6, true)),
                    task(2, 12, 1000, 32, TaskStatus::Completed, cavity(1000, 900, 1e-7, 0.5, true)),
                    task(3, 13, 400, 32, TaskStatus::Completed, cavity(400, 12000, 1e-7, 0.55, true))},
                   {{11, 0}, {12, 1}, {13, 2}});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SweepResultsModel::SortRole);
    proxy.sort(model.scalarColumn(QStringLiteral("iterations")), Qt::AscendingOrder);
    // As text "12000" < "5000" < "900"; as numbers 900 < 5000 < 12000.
    QCOMPARE(proxy.index(0, 1).data().toString(), QStringLiteral("1000"));
    QCOMPARE(proxy.index(2, 1).data().toString(), QStringLiteral("400"));
    proxy.sort(1, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 1).data().toString(), QStringLiteral("1000"));
    QCOMPARE(proxy.index(1, 1).data().toString(), QStringLiteral("400"));
}

void tst_SweepResults::csvExport()
{
    SweepResultsModel model;
    auto odd = task(2, 12, 400, 32, TaskStatus::Failed);
    odd.arguments = QStringLiteral(R"({"reynolds":400,"case_name":"a, \"b\""})");
    model.setSweep(7, {QStringLiteral("reynolds"), QStringLiteral("case_name")},
                   {task(1, 11, 100, 32, TaskStatus::Completed, cavity(100, 5503, 9.99546e-08, 0.617, true)), odd},
                   {{11, 0}, {12, 1}});
    model.setAnswers({{1, QStringLiteral("accept {\"action\":\"repair\"} by alice at 2026-12-01T14:40:12Z")}});
    const QStringList lines = model.toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    // Varied arguments first, then the fixed ones by name; never the idempotency key.
    QVERIFY2(lines[0].startsWith(QStringLiteral("case,task,outcome,is_error,status,reynolds,case_name,grid,")),
             qPrintable(lines[0]));
    QVERIFY(!lines[0].contains(QStringLiteral("idempotency_key")));
    QVERIFY(lines[0].contains(QStringLiteral("final_residual")));
    // The answers given to the case's questions, then the engineer's note and tags.
    QVERIFY(lines[0].endsWith(QStringLiteral(",answer,note,tags")));
    QVERIFY2(lines[1].endsWith(QStringLiteral(",\"accept {\"\"action\"\":\"\"repair\"\"} by alice at 2026-12-01T14:40:12Z\",,")),
             qPrintable(lines[1]));
    QVERIFY2(lines[1].startsWith(QStringLiteral("1,1,converged,false,completed,100,,32,")), qPrintable(lines[1]));
    QVERIFY2(lines[1].contains(QStringLiteral("9.99546e-08")), qPrintable(lines[1])); // full precision, not "1e-07"
    QVERIFY(lines[1].contains(QStringLiteral(",true,")));
    QVERIFY2(lines[2].startsWith(QStringLiteral("2,2,failed,false,failed,400,\"a, \"\"b\"\"\",,")), qPrintable(lines[2]));
    QVERIFY2(lines[2].endsWith(QStringLiteral(",")), qPrintable(lines[2])); // no answer for case 2
}

void tst_SweepResults::svgOfDownsampledSeries()
{
    // A residual series of 200,000 samples, decimated for the chart; the SVG holds exactly what
    // the chart shows.
    SampleSeriesModel a(1, QStringLiteral("residual.u"));
    SampleSeriesModel b(1, QStringLiteral("residual.v"));
    a.setPositiveOnly(true);
    b.setPositiveOnly(true);
    std::vector<QPointF> pa, pb;
    for (int i = 1; i <= 200000; ++i) {
        pa.emplace_back(i, std::exp(-i / 20000.0) * (1.0 + 0.3 * std::sin(i)));
        pb.emplace_back(i, 0.5 * std::exp(-i / 30000.0));
    }
    pb.emplace_back(200001, 0.0); // a log axis cannot show it
    a.setPoints(pa);
    b.setPoints(pb);
    QVERIFY(a.isDecimated());
    QVERIFY(a.shownPoints().size() <= size_t(a.budget()) + 4);
    SvgPlot plot;
    plot.title = QStringLiteral("Residuals <task 1>");
    plot.xLabel = QStringLiteral("Iteration");
    plot.yLabel = QStringLiteral("Residual");
    plot.logY = true;
    plot.series << SvgPlot::Series{QStringLiteral("u"), Qt::red, a.shownPoints()}
                << SvgPlot::Series{QStringLiteral("v"), Qt::blue, b.shownPoints()};
    const ParsedSvg svg = parse(plot.toSvg());
    QVERIFY(svg.ok);
    QCOMPARE(svg.polylinePoints.size(), 2);
    QCOMPARE(svg.names, (QStringList{QStringLiteral("u"), QStringLiteral("v")}));
    QCOMPARE(svg.polylinePoints[0], int(a.shownPoints().size()));
    QCOMPARE(svg.polylinePoints[1], int(plot.drawable(plot.series[1]).size()));
    QVERIFY(svg.polylinePoints[1] > 100);
    // Decade ticks on the log axis cover the data (about 1e-5 .. 1.3).
    QVERIFY2(svg.tickLabels.contains(QStringLiteral("1e0")), qPrintable(svg.tickLabels.join(QLatin1Char(' '))));
    QVERIFY(svg.tickLabels.contains(QStringLiteral("1e-4")));
    QVERIFY(svg.tickLabels.contains(QStringLiteral("1e1")));
    QCOMPARE(svg.circles, 0);
}

void tst_SweepResults::svgScatterAndEscaping()
{
    SvgPlot plot;
    plot.xLabel = QStringLiteral("reynolds");
    plot.yLabel = QStringLiteral("vortex_centre.x & \"y\"");
    plot.series << SvgPlot::Series{QStringLiteral("<iterations>"), Qt::darkGreen, {{100, 5000}, {400, 9000}, {1000, 12000}}, true};
    const QString text = plot.toSvg();
    const ParsedSvg svg = parse(text);
    QVERIFY(svg.ok);
    QCOMPARE(svg.polylinePoints, QList<int>{3});
    QCOMPARE(svg.circles, 3);
    QCOMPARE(svg.names, QStringList{QStringLiteral("<iterations>")});
    QVERIFY(svg.tickLabels.contains(QStringLiteral("10000")));
    QTemporaryDir dir;
    QVERIFY(plot.save(dir.filePath(QStringLiteral("p.svg"))));
    QString error;
    QVERIFY(!plot.save(dir.filePath(QStringLiteral("missing/folder/p.svg")), &error));
    QVERIFY(!error.isEmpty());
}

void tst_SweepResults::svgMarkersOnlyAndUnnamedSegments()
{
    // As the sweep plot exports: a joined run of converged points (no legend entry of its own),
    // then a marker series per outcome without a line.
    SvgPlot plot;
    plot.series << SvgPlot::Series{QString(), Qt::darkGreen, {{20000, 1700}, {25000, 1700}}};
    plot.series << SvgPlot::Series{QStringLiteral("Converged"), Qt::darkGreen, {{20000, 1700}, {25000, 1700}}, true};
    plot.series.last().line = false;
    plot.series << SvgPlot::Series{QStringLiteral("Not converged"), QColor(0xb8, 0x5c, 0x00), {{30, 30}, {45, 45}}, true};
    plot.series.last().line = false;
    const QString text = plot.toSvg();
    const ParsedSvg svg = parse(text);
    QVERIFY(svg.ok);
    QCOMPARE(svg.polylinePoints, QList<int>{2}); // only the converged run is a line
    QCOMPARE(svg.circles, 4);
    QVERIFY(text.contains(QLatin1String(">Converged</text>")));
    QVERIFY(text.contains(QLatin1String(">Not converged</text>")));
    QCOMPARE(text.count(QLatin1String("width=\"14\" height=\"4\"")), 2); // two legend keys, not three
}

void tst_SweepResults::ticks()
{
    QCOMPARE(SvgPlot::logTicks(1e-7, 1.0).size(), 8);
    QCOMPARE(SvgPlot::logTicks(0.002, 0.5), (QList<double>{0.01, 0.1}));
    QVERIFY(SvgPlot::logTicks(0, 1).isEmpty());
    QCOMPARE(SvgPlot::linearTicks(0, 10, 5), (QList<double>{0, 2, 4, 6, 8, 10}));
    QCOMPARE(SvgPlot::linearTicks(95, 1005, 5).first(), 200.0);
}

void tst_SweepResults::curvesOfResultArrays()
{
    // What eddy-cfd-server returns: profiles as {position, velocity} array pairs; plus an
    // array of numbers and an array of {x, y} points.
    const QString result = QStringLiteral(
        R"({"content":[],"structuredContent":{"u_centreline":{"y":[0,0.5,1],"u":[0,-0.2,1]},)"
        R"("v_centreline":{"x":[0,0.25,0.5,1],"v":[0,0.1,0,0]},"history":{"residual":[1,0.1,0.01]},)"
        R"("points":[{"x":1,"y":2},{"x":3,"y":4}],"one":[5],"iterations":10,"mixed":[1,"a"]}})");
    const QList<ResultCurve> curves = resultCurves(result);
    QStringList names;
    for (const auto &c : curves)
        names << c.name;
    names.sort();
    QCOMPARE(names, (QStringList{QStringLiteral("history.residual"), QStringLiteral("points"),
                                 QStringLiteral("u_centreline"), QStringLiteral("v_centreline")}));
    for (const auto &c : curves) {
        if (c.name == QLatin1String("u_centreline")) {
            QCOMPARE(c.xLabel, QStringLiteral("y")); // position on x, velocity on y
            QCOMPARE(c.yLabel, QStringLiteral("u"));
            QCOMPARE(c.points, (std::vector<QPointF>{{0, 0}, {0.5, -0.2}, {1, 1}}));
        } else if (c.name == QLatin1String("v_centreline")) {
            QCOMPARE(c.xLabel, QStringLiteral("x"));
            QCOMPARE(c.points.size(), size_t(4));
        } else if (c.name == QLatin1String("history.residual")) {
            QCOMPARE(c.points, (std::vector<QPointF>{{0, 1}, {1, 0.1}, {2, 0.01}}));
        } else {
            QCOMPARE(c.points, (std::vector<QPointF>{{1, 2}, {3, 4}}));
        }
    }
    QVERIFY(resultCurves(QStringLiteral("not json")).isEmpty());
    QVERIFY(resultCurves(QStringLiteral(R"({"content":[]})")).isEmpty());
}

QTEST_MAIN(tst_SweepResults)
#include "tst_sweepresults.moc"
