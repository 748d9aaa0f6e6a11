// A 1,000-case sweep with 4 varied parameters (docs/performance.md, "Reviewing a large sweep"):
// written straight through the store API (each case completed, with a 500-point residual
// history per field in its result, 120 polls of progress samples, every tenth a mesh question
// answered), then
//   report   SweepReportReader::read from the database and the HTML written (the window's and
//            eddyctl report's path), and the PDF: wall time of each;
//   window   the real window (QT_QPA_PLATFORM=offscreen) with the sweep's tasks listed and its
//            results table shown; interactions on the GUI thread, each timed from the call to
//            the end of the repaint it causes: the task list's search (filter) and status
//            filter, sorting the task list and the sweep table by each column, and brushing the
//            sweep's parallel coordinates (mouse drags synthesized along each axis; each press,
//            move and release timed until the sweep table's selection and the repaint of the
//            table and the plot are done). p50/p99/max per kind; the target is p99 < 16 ms (one
//            frame).
// Usage: bench_sweep [report|window|all] [--cases N] [--rounds N] [--brush-rounds N] (the
// rounds whose drags are timed, the first two by default; 0: none)
// Verdict rows are RESULT lines (bench/common/benchresult.h, read by bench/run-all.sh).
#include "benchapp.h"
#include "benchresult.h"
#include "sweepgen.h"

#include "models/sweepreport.h"
#include "models/sweepreportreader.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/parallelcoordinatespanel.h"
#include "widgets/parallelcoordinatesview.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

#include <cstdio>

using namespace Eddy;
using namespace BenchGui;

namespace {

std::string fmt(const char *format, double a, double b = 0, double c = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, format, a, b, c);
    return buf;
}

bool generate(const QString &path, int cases, qint64 *sweepId)
{
    Store::TaskStore store;
    if (!store.open(path)) {
        fprintf(stderr, "cannot create %s: %s\n", qPrintable(path), qPrintable(store.lastError()));
        return false;
    }
    Store::ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:9/mcp");
    s.name = QStringLiteral("Workstation CFD");
    const qint64 sid = *store.addServer(s);
    const qint64 session = *store.createSession(QStringLiteral("Bench"));
    Bench::SweepShape shape;
    shape.cases = cases;
    QString error;
    const auto id = Bench::writeSweep(store, sid, session, shape, &error);
    if (!id) {
        fprintf(stderr, "cannot write the sweep: %s\n", qPrintable(error));
        return false;
    }
    *sweepId = *id;
    return true;
}

int benchReport(const QString &db, qint64 sweepId, int cases, const QString &dir)
{
    Monitor::Engine engine;
    engine.setMonitoring(false);
    if (!engine.open(db)) {
        fprintf(stderr, "cannot open %s\n", qPrintable(db));
        return 1;
    }
    QElapsedTimer t;
    t.start();
    const auto input = SweepReportReader::read(engine, sweepId);
    const qint64 readMs = t.restart();
    if (!input) {
        fprintf(stderr, "no sweep %lld\n", sweepId);
        return 1;
    }
    QString error;
    const QString html = dir + QStringLiteral("/report.html");
    if (!SweepReport::writeHtml(*input, html, &error)) {
        fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const qint64 htmlMs = t.restart();
    const QString pdf = dir + QStringLiteral("/report.pdf");
    if (!SweepReport::writePdf(*input, pdf, &error)) {
        fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const qint64 pdfMs = t.restart();
    const double htmlMb = double(QFileInfo(html).size()) / 1e6;
    const double pdfMb = double(QFileInfo(pdf).size()) / 1e6;
    printf("report: %d cases: read %lld ms, HTML %lld ms (%.1f MB), PDF %lld ms (%.1f MB); load average %.1f\n", cases,
           readMs, htmlMs, htmlMb, pdfMs, pdfMb, loadAverage());
    Bench::Result r;
    r.bench = "gui";
    r.what = "Sweep report of " + std::to_string(cases) + " cases: read from the database and HTML written";
    r.unit = "s";
    r.decimals = 2;
    r.target = "<=5";
    r.value = double(readMs + htmlMs) / 1000.0;
    r.shown = fmt("%.2f s (read %.2f s, %.1f MB of HTML)", r.value.value(), double(readMs) / 1000.0, htmlMb);
    r.how = "bench_sweep report";
    Bench::printResult(r);
    r.what = "Sweep report of " + std::to_string(cases) + " cases as PDF (tables and answers)";
    r.target.clear();
    r.value = double(pdfMs) / 1000.0;
    r.shown = fmt("%.2f s (%.1f MB)", r.value.value(), pdfMb);
    Bench::printResult(r);
    engine.close();
    return 0;
}

// One interaction's GUI-thread time: the call, the events it posted, and the repaint it causes.
double timed(QAbstractItemView *view, const std::function<void()> &action)
{
    QElapsedTimer t;
    t.start();
    action();
    QCoreApplication::processEvents();
    view->viewport()->repaint();
    return double(t.nsecsElapsed()) / 1e6;
}

// One mouse event sent to the parallel coordinates, timed until the brushed cases are selected
// in the sweep table and both are repainted.
double timedMouse(ParallelCoordinatesView *view, QTableView *table, QEvent::Type type, QPointF at)
{
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    const Qt::MouseButtons buttons = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
    QElapsedTimer t;
    t.start();
    QMouseEvent event(type, at, view->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(view, &event);
    QCoreApplication::processEvents();
    table->viewport()->repaint();
    view->repaint();
    return double(t.nsecsElapsed()) / 1e6;
}

// Brushing: on each axis in turn, a drag from one point of the axis to another in 8 steps (the
// brushes of the axes before it stay, as an engineer narrows down); Escape clears them all
// after the last axis. Every press, move and release is one interaction.
void brushAxes(ParallelCoordinatesView *view, QTableView *table, int round, std::vector<double> *ms,
               std::vector<int> *selected)
{
    const int axes = int(view->data().axes().size());
    for (int a = 0; a < axes; ++a) {
        const QLineF axis = view->axisLine(a);
        // From near one end to past the middle, a little different each round and axis.
        const double from = 0.02 + 0.05 * ((round + a) % 4);
        const double to = 0.55 + 0.08 * ((round * 3 + a) % 5);
        const auto at = [&](double f) { return QPointF(axis.x1(), axis.y2() - f * (axis.y2() - axis.y1())); };
        ms->push_back(timedMouse(view, table, QEvent::MouseButtonPress, at(from)));
        for (int step = 1; step <= 8; ++step)
            ms->push_back(timedMouse(view, table, QEvent::MouseMove, at(from + (to - from) * step / 8)));
        ms->push_back(timedMouse(view, table, QEvent::MouseButtonRelease, at(to)));
        selected->push_back(int(table->selectionModel()->selectedRows().size()));
    }
    QElapsedTimer t;
    t.start();
    QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
    QApplication::sendEvent(view, &escape);
    QCoreApplication::processEvents();
    table->viewport()->repaint();
    view->repaint();
    ms->push_back(double(t.nsecsElapsed()) / 1e6);
}

void printInteraction(const std::string &what, const std::vector<double> &ms)
{
    const double p50 = percentile(ms, 0.5), p99 = percentile(ms, 0.99);
    const double max = ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
    printf("window: %s: %zu interactions, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", what.c_str(), ms.size(), p50, p99, max);
    Bench::Result r;
    r.bench = "gui";
    r.what = what + ", p99 per interaction";
    r.unit = "ms";
    r.decimals = 1;
    r.target = "<16";
    r.value = p99;
    r.shown = fmt("%.1f ms (p50 %.1f, max %.1f)", p99, p50, max) + " over " + std::to_string(ms.size());
    r.how = "bench_sweep window";
    Bench::printResult(r);
}

int benchWindow(const QString &db, qint64 sweepId, int cases, int rounds, int brushRounds)
{
    QSettings().setValue(QStringLiteral("session/last"), -1); // all sessions: every task
    App app;
    bool loaded = false;
    app.create();
    QObject::connect(app.window.get(), &MainWindow::snapshotLoaded, [&] { loaded = true; });
    bool opened = false, done = false;
    QObject::connect(app.engine, &Monitor::Engine::opened, app.window.get(), [&](bool ok) {
        opened = ok;
        done = true;
        if (ok)
            app.window->start();
    });
    Monitor::Engine *e = app.engine;
    QMetaObject::invokeMethod(e, [e, db] { e->open(db); });
    app.window->resize(1600, 1000);
    app.window->show();
    waitFor([&] { return done; }, 60000);
    if (!opened) {
        fprintf(stderr, "cannot open the database\n");
        return 1;
    }
    TaskMonitor *monitor = app.window->monitor();
    waitFor([&] { return loaded && !app.window->taskModel()->isListing(); }, 120000);
    if (app.window->taskModel()->rowCount() != cases) {
        fprintf(stderr, "the window lists %d tasks, not %d\n", app.window->taskModel()->rowCount(), cases);
        return 1;
    }
    const qint64 someTask = app.window->taskModel()->taskIdAt(0);
    monitor->selectTask(someTask);
    SweepResultsView *results = app.window->sweepResults();
    waitFor([&] { return results->model()->sweepId() == sweepId && results->model()->rowCount() == cases; }, 60000);
    if (results->model()->rowCount() != cases) {
        fprintf(stderr, "the sweep table shows %d rows, not %d\n", results->model()->rowCount(), cases);
        return 1;
    }
    waitFor([] { return false; }, 500);

    results->showParallelCoordinates();
    ParallelCoordinatesPanel *panel = results->parallelCoordinates();
    ParallelCoordinatesView *parallel = panel ? panel->view() : nullptr;
    waitFor([&] { return parallel && parallel->isVisible() && parallel->data().lines().size() == cases; }, 30000);
    if (!parallel || parallel->data().lines().size() != cases) {
        fprintf(stderr, "the parallel coordinates show %d lines, not %d\n",
                parallel ? int(parallel->data().lines().size()) : 0, cases);
        return 1;
    }
    // Its first paints (the window settling) and a paint after new data draw every line:
    // done and timed here, on their own, not in the first interaction.
    waitFor([] { return false; }, 300);
    parallel->repaint();
    QElapsedTimer firstPaint;
    firstPaint.start();
    parallel->setData(parallel->data());
    parallel->repaint();
    const double firstPaintMs = double(firstPaint.nsecsElapsed()) / 1e6;
    QCoreApplication::processEvents();

    std::vector<double> search, status, sortTasks, sortSweep, brush;
    std::vector<int> brushSelected; // rows selected after each drag
    const QStringList words{QStringLiteral("reynolds"), QStringLiteral("400"), QStringLiteral("grid 32"),
                            QStringLiteral("converged"), QStringLiteral("1e-06"), QStringLiteral("limit"), QString()};
    const QList<TaskMonitor::StatusFilter> filters{TaskMonitor::StatusFilter::Completed, TaskMonitor::StatusFilter::Failed,
                                                   TaskMonitor::StatusFilter::NeedsInput, TaskMonitor::StatusFilter::All};
    QTableView *tasks = monitor->view();
    QTableView *table = results->table();

    for (int round = 0; round < rounds; ++round) {
        for (const QString &w : words)
            search.push_back(timed(tasks, [&] { monitor->setSearchText(w); }));
        for (auto f : filters)
            status.push_back(timed(tasks, [&] { monitor->setStatusFilter(f); }));
        for (int c = 0; c < tasks->model()->columnCount(); ++c) {
            if (tasks->isColumnHidden(c))
                continue;
            for (Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder})
                sortTasks.push_back(timed(tasks, [&] { tasks->sortByColumn(c, o); }));
        }
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            for (Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder})
                sortSweep.push_back(timed(table, [&] { table->sortByColumn(c, o); }));
        }
        if (round < brushRounds)
            brushAxes(parallel, table, round, &brush, &brushSelected);
    }
    const std::string n = std::to_string(cases);
    printInteraction(n + "-case sweep: task list search (filter)", search);
    printInteraction(n + "-case sweep: task list status filter", status);
    printInteraction(n + "-case sweep: task list sort by a column", sortTasks);
    printInteraction(n + "-case sweep: sweep table sort by a column", sortSweep);
    if (!brush.empty())
        printInteraction(n + "-case sweep: brushing a parallel-coordinates axis", brush);
    printf("window: parallel coordinates drawn in full (new data): %.1f ms\n", firstPaintMs);
    {
        Bench::Result r;
        r.bench = "gui";
        r.what = n + "-case sweep: parallel coordinates drawn in full (new data, size or theme)";
        r.unit = "ms";
        r.decimals = 1;
        r.value = firstPaintMs;
        r.how = "bench_sweep window";
        Bench::printResult(r);
    }
    printf("window: %d parallel-coordinates axes; rows selected after a drag: %d to %d\n",
           int(parallel->data().axes().size()),
           brushSelected.empty() ? 0 : *std::min_element(brushSelected.begin(), brushSelected.end()),
           brushSelected.empty() ? 0 : *std::max_element(brushSelected.begin(), brushSelected.end()));
    printf("window: %d sweep table columns, load average %.1f, RSS %.0f MB\n", table->model()->columnCount(),
           loadAverage(), rssMiB());
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    offscreenUnlessSet();
    QApplication app(argc, argv);
    const QString what = setUp("bench_sweep");
    const QStringList args = app.arguments();
    int cases = 1000;
    int rounds = 5;
    int brushRounds = 2; // the drags of the first two rounds are enough for their p99
    if (const int i = int(args.indexOf(QStringLiteral("--cases"))); i > 0 && i + 1 < args.size())
        cases = std::max(1, args[i + 1].toInt());
    if (const int i = int(args.indexOf(QStringLiteral("--rounds"))); i > 0 && i + 1 < args.size())
        rounds = std::max(1, args[i + 1].toInt());
    if (const int i = int(args.indexOf(QStringLiteral("--brush-rounds"))); i > 0 && i + 1 < args.size())
        brushRounds = std::max(0, args[i + 1].toInt());
    if (what != QLatin1String("all") && what != QLatin1String("report") && what != QLatin1String("window")) {
        fprintf(stderr, "usage: bench_sweep [report|window|all] [--cases N] [--rounds N] [--brush-rounds N]\n");
        return 2;
    }
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("sweep.sqlite"));
    QElapsedTimer gen;
    gen.start();
    qint64 sweepId = 0;
    if (!generate(db, cases, &sweepId))
        return 1;
    printf("generated: one sweep of %d cases in %.1f s (%.0f MB)\n", cases, double(gen.elapsed()) / 1000.0,
           double(QFileInfo(db).size()) / 1e6);
    int rc = 0;
    if (what != QLatin1String("window"))
        rc |= benchReport(db, sweepId, cases, dir.path());
    if (what != QLatin1String("report"))
        rc |= benchWindow(db, sweepId, cases, rounds, brushRounds);
    return rc;
}
