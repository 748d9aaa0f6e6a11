// GUI benchmarks (docs/performance.md, "GUI"): run under QT_QPA_PLATFORM=offscreen (painting is
// real, into an offscreen backing store).
//   stall    10,000 live tasks in the main window, updated at 1 kHz through the real change-set
//            path (a producer thread emits the engine's changesReady in 30 ms batches, as the
//            engine does); the main thread's event-loop latency is sampled by a 1 ms timer:
//            p50/p99/max of (gap - 1 ms). Also memory per task (RSS growth / tasks). That timer
//            keeps the main thread busy (the event loop waits in whole milliseconds, so it
//            polls through each sub-millisecond remainder), which makes it a CPU-bound thread
//            the scheduler preempts on a loaded machine; a second probe leaves the thread idle
//            as the real window is: another thread posts a timestamped call to it every 1 ms
//            (sleeping in between), and the latency is posted -> run.
//   redraw   a 1,000,000-sample residual series: load + decimate, then repaints (nothing changed),
//            full redraws (every item's cached rendering dropped), live ticks and zooms; wall and
//            main-thread CPU time of each.
//   startup  a database of 100,000 tasks written with the store API; time from opening it to
//            the window shown and to the tasks listed.
// Usage: bench_gui [stall|redraw|startup|all] [--seconds N]
// Verdict rows are RESULT lines (bench/common/benchresult.h, read by bench/run-all.sh).
#include "benchresult.h"
#include "benchapp.h"

#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "models/enginebridge.h"
#include "models/sampleseriesmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUuid>
#include <QWindow>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>

#include <malloc.h>
#include <time.h>

using namespace Eddy;
using namespace BenchGui;
using Store::TaskStatus;

namespace {

Store::TaskRecord liveTask(qint64 id, qint64 sweepId)
{
    Store::TaskRecord t;
    t.id = id;
    t.serverId = 1;
    t.caseId = id;
    t.sweepId = sweepId;
    t.tool = QStringLiteral("run_cfd_case");
    t.arguments = QStringLiteral(R"({"reynolds":%1,"grid":64,"tolerance":1e-6,"max_iterations":12000,)"
                                 R"("case_name":"study-%2","idempotency_key":"eddy-%3"})")
                      .arg(100 + id % 900)
                      .arg(id)
                      .arg(id); // fixed per task, as a real task's arguments are between polls
    t.serverTaskId = QUuid::createUuid().toString(QUuid::Id128);
    t.status = TaskStatus::Working;
    t.statusMessage = QStringLiteral("queued");
    t.createdAt = QStringLiteral("2026-11-29T20:00:00Z");
    t.lastUpdatedAt = t.createdAt;
    t.ttlMs = 86400000;
    t.pollIntervalMs = 1000;
    t.firstSeenAtMs = QDateTime::currentMSecsSinceEpoch();
    t.updatedAtMs = t.firstSeenAtMs;
    return t;
}

// A stand-in for the engine thread's batching: every batchMs it emits the engine's
// changesReady with the updates of that interval (rate per second in total).
class Producer final : public QObject
{
public:
    Producer(Monitor::Engine *engine, int tasks, int ratePerSecond, int batchMs)
        : m_engine(engine), m_tasks(tasks), m_rate(ratePerSecond), m_batchMs(batchMs)
    {
    }
    void run()
    {
        m_timer = new QTimer(this);
        m_timer->setTimerType(Qt::PreciseTimer);
        m_timer->setInterval(m_batchMs);
        m_clock.start();
        connect(m_timer, &QTimer::timeout, this, [this] { tick(); });
        m_timer->start();
    }
    void stop()
    {
        delete m_timer; // in its own thread
        m_timer = nullptr;
    }
    std::atomic<qint64> sent{0};

private:
    void tick()
    {
        const qint64 due = m_clock.elapsed() * m_rate / 1000;
        Monitor::ChangeSet cs;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        while (m_next < due) {
            const qint64 id = 1 + (m_next % m_tasks);
            const qint64 iteration = 100 * (1 + m_next / m_tasks);
            Store::TaskRecord t = liveTask(id, 1 + (id - 1) / 1000);
            t.statusMessage = QStringLiteral("iteration %1 of 12000, residual %2").arg(iteration).arg(1.0 / double(iteration), 0, 'e', 2);
            t.updatedAtMs = now;
            cs.tasks << t;
            cs.samples << Store::ProgressSample{id, now, QStringLiteral("iteration"), double(iteration), double(iteration)}
                       << Store::ProgressSample{id, now, QStringLiteral("residual"), double(iteration), 1.0 / double(iteration)};
            ++m_next;
        }
        if (!cs.isEmpty()) {
            sent += cs.tasks.size();
            Q_EMIT m_engine->changesReady(cs); // queued to the GUI thread, as from the engine
        }
    }

    Monitor::Engine *m_engine;
    int m_tasks;
    int m_rate;
    int m_batchMs;
    QTimer *m_timer = nullptr;
    QElapsedTimer m_clock;
    qint64 m_next = 0;
};

enum class Probe { Timer, Posted };

int benchStall(int tasks, int seconds, int batchMs, int rate, Probe how = Probe::Timer)
{
    QTemporaryDir dir;
    App app;
    if (!app.start(dir.filePath(QStringLiteral("stall.sqlite")))) {
        fprintf(stderr, "cannot open the database\n");
        return 1;
    }
    MainWindow &w = *app.window;
    w.resize(1500, 900);
    w.show();
    waitFor([] { return false; }, 300);
    malloc_trim(0);
    const double rssBefore = rssMiB();
    QList<Store::TaskRecord> list;
    list.reserve(tasks);
    for (int i = 1; i <= tasks; ++i)
        list << liveTask(i, 1 + (i - 1) / 1000);
    QElapsedTimer load;
    load.start();
    w.taskModel()->setTasks(list); // the first page; the rest follow in their own event-loop turns
    const qint64 loadMs = load.elapsed();
    waitFor([&] { return !w.taskModel()->isListing(); }, 60000);
    const qint64 listedAllMs = load.elapsed();
    list.clear();
    list.squeeze();
    waitFor([] { return false; }, 500);
    malloc_trim(0); // the input list is gone: count what the model and views keep
    const double rssAfter = rssMiB();

    // Event-loop latency: a 1 ms timer on the main thread; a late tick is a stall.
    std::vector<double> gaps;
    gaps.reserve(size_t(seconds) * 1200);
    QElapsedTimer clock;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(1);
    qint64 last = -1;
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (last >= 0)
            gaps.push_back(std::max(0.0, double(now - last) / 1e6 - 1.0));
        last = now;
    });
    // The idle probe: a sleeping thread posts a call stamped with its send time every 1 ms.
    std::atomic<bool> posting{how == Probe::Posted};
    QObject receiver;
    std::thread poster;
    QThread producerThread;
    Producer producer(app.engine, tasks, rate, batchMs);
    producer.moveToThread(&producerThread);
    producerThread.start();
    clock.start();
    if (how == Probe::Timer) {
        probe.start();
    } else {
        poster = std::thread([&] {
            timespec next;
            clock_gettime(CLOCK_MONOTONIC, &next);
            while (posting) {
                next.tv_nsec += 1'000'000;
                if (next.tv_nsec >= 1'000'000'000) {
                    next.tv_nsec -= 1'000'000'000;
                    ++next.tv_sec;
                }
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
                const qint64 sent = clock.nsecsElapsed();
                QMetaObject::invokeMethod(
                    &receiver,
                    [&gaps, &clock, sent] {
                        gaps.push_back(double(clock.nsecsElapsed() - sent) / 1e6);
                    },
                    Qt::QueuedConnection);
            }
        });
    }
    QMetaObject::invokeMethod(&producer, [&producer] { producer.run(); });
    {
        // The event loop as the application runs it: asleep until there is something to do
        // (waitFor's processEvents() loop would keep the thread busy and so preempted).
        QEventLoop loop;
        QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    probe.stop();
    if (poster.joinable()) {
        posting = false;
        poster.join();
        QCoreApplication::sendPostedEvents(&receiver); // the calls still queued refer to gaps
    }
    QMetaObject::invokeMethod(&producer, [&producer] { producer.stop(); }, Qt::BlockingQueuedConnection);
    producerThread.quit();
    producerThread.wait();
    const double p50 = percentile(gaps, 0.5), p99 = percentile(gaps, 0.99), mx = percentile(gaps, 1.0);
    const char *probeName = how == Probe::Timer ? "1 ms timer" : "posted calls";
    printf("stall (%s): %d live tasks, %lld updates in %d s (%.0f/s) in %d ms change sets; "
           "main-thread stall p50 %.2f ms, "
           "p99 %.2f ms, max %.1f ms (target p99 < 16 ms); setTasks (first page) %lld ms, all "
           "listed %lld ms; memory %.2f KB/task "
           "(RSS %.0f -> %.0f MB); load average %.1f\n",
           probeName,
           tasks,
           qint64(producer.sent),
           seconds,
           double(producer.sent) / seconds,
           batchMs,
           p50,
           p99,
           mx,
           loadMs,
           listedAllMs,
           (rssAfter - rssBefore) * 1024.0 / tasks,
           rssBefore,
           rssAfter,
           loadAverage());
    Bench::Result r;
    r.bench = "gui";
    r.what = "GUI main-thread stall p99, " + std::to_string(tasks) + " live tasks, "
             + std::to_string(rate) + " updates/s in " + std::to_string(batchMs) + " ms change sets";
    if (how == Probe::Posted)
        r.what += "; latency of a call posted to the idle main thread";
    r.unit = "ms";
    r.target = "<16";
    r.how = "bench_gui stall --seconds " + std::to_string(seconds);
    char shown[200];
    std::snprintf(shown, sizeof shown, "p50 %.1f ms, p99 %.1f ms, max %.1f ms; %.2f KB per task", p50, p99, mx,
                  (rssAfter - rssBefore) * 1024.0 / tasks);
    r.shown = shown;
    if (gaps.empty())
        r.why = "the main thread's probe timer never fired";
    else
        r.value = p99;
    Bench::printResult(r);
    return 0;
}

// CPU time of the calling thread: what a redraw costs, without the waits a loaded machine adds.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// Wall and main-thread CPU milliseconds of each run of step.
struct Timings
{
    std::vector<double> wall;
    std::vector<double> cpu;

    void measure(const std::function<void()> &step)
    {
        QElapsedTimer t;
        const double c0 = threadCpuMs();
        t.start();
        step();
        wall.push_back(double(t.nsecsElapsed()) / 1e6);
        cpu.push_back(threadCpuMs() - c0);
    }
    QByteArray text() const
    {
        return QStringLiteral("median %1 ms (CPU %2), max %3 ms (CPU %4)")
            .arg(percentile(wall, 0.5), 0, 'f', 1)
            .arg(percentile(cpu, 0.5), 0, 'f', 1)
            .arg(percentile(wall, 1.0), 0, 'f', 1)
            .arg(percentile(cpu, 1.0), 0, 'f', 1)
            .toLatin1();
    }
};

int benchRedraw(int samples)
{
    ResidualChart chart;
    chart.resize(900, 560);
    chart.show();
    SampleSeriesModel model(1, QStringLiteral("residual"));
    std::vector<QPointF> pts;
    pts.reserve(size_t(samples));
    for (int i = 1; i <= samples; ++i)
        pts.emplace_back(i, std::exp(-i / (samples / 8.0)) * (1.0 + 0.3 * std::sin(i * 0.01)));
    QElapsedTimer t;
    t.start();
    model.setPoints(std::move(pts));
    chart.setSeries({&model});
    const double setMs = double(t.nsecsElapsed()) / 1e6;
    waitFor([] { return false; }, 300);
    // A repaint (exposed, a dock moved, a rubber band drawn): nothing changed.
    Timings repaints;
    for (int i = 0; i < 20; ++i)
        repaints.measure([&] { chart.refresh(); });
    // Everything drawn again: every chart item's cached rendering dropped first (what a resize,
    // a theme change or the first paint costs; the old path paid this on every repaint).
    Timings full;
    for (int i = 0; i < 20; ++i) {
        full.measure([&] {
            for (QGraphicsItem *item : chart.chart()->scene()->items())
                item->update();
            chart.refresh();
        });
    }
    // A live tick: one new sample, then the repaint that shows it.
    Timings ticks;
    for (int i = 0; i < 20; ++i) {
        ticks.measure([&] {
            const double x = model.maxX() + 1;
            model.appendPoints({QPointF(x, std::exp(-x / (samples / 8.0)))});
            chart.refresh();
        });
    }
    // A zoom re-decimates the visible window, then redraws.
    Timings zooms;
    for (int i = 0; i < 10; ++i) {
        zooms.measure([&] {
            chart.zoomBy(i % 2 ? 2.0 : 0.5);
            chart.refresh();
        });
    }
    printf("redraw: %d samples -> %zu shown; load+decimate+first layout %.1f ms; repaint %s; full redraw (caches "
           "dropped) %s (target <= 50 ms); live tick + redraw %s; zoom+redraw %s; load average %.1f\n",
           samples, model.shownPoints().size(), setMs, repaints.text().constData(), full.text().constData(),
           ticks.text().constData(), zooms.text().constData(), loadAverage());
    Bench::Result r;
    r.bench = "gui";
    r.what = "Chart full redraw median, " + std::to_string(samples) + " samples (item caches dropped)";
    r.unit = "ms";
    r.target = "<=50";
    r.how = "bench_gui redraw";
    r.value = percentile(full.wall, 0.5);
    char shown[200];
    std::snprintf(shown, sizeof shown, "median %.1f ms, max %.1f ms", *r.value, percentile(full.wall, 1.0));
    r.shown = shown;
    Bench::printResult(r);
    return 0;
}

int benchStartup(int total)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("startup.sqlite"));
    QElapsedTimer gen;
    gen.start();
    {
        Store::TaskStore store;
        if (!store.open(path)) {
            fprintf(stderr, "cannot create %s: %s\n", qPrintable(path), qPrintable(store.lastError()));
            return 1;
        }
        Store::ServerRecord s;
        s.url = QStringLiteral("http://127.0.0.1:9/mcp");
        s.name = QStringLiteral("Workstation CFD");
        const qint64 sid = *store.addServer(s);
        const qint64 session = *store.createSession(QStringLiteral("Bench"));
        const int perSweep = 1000;
        for (int first = 0; first < total; first += perSweep) {
            Store::SweepRecord sweep;
            sweep.serverId = sid;
            sweep.sessionId = session;
            sweep.tool = QStringLiteral("run_cfd_case");
            sweep.spec = QStringLiteral(R"({"tool":"run_cfd_case","vary":{"reynolds":{"range":[100,1000,%1]}}})").arg(perSweep);
            QList<Store::CaseRecord> cases;
            for (int i = 0; i < std::min(perSweep, total - first); ++i) {
                Store::CaseRecord c;
                c.serverId = sid;
                c.index = i;
                c.tool = sweep.tool;
                c.idempotencyKey = QStringLiteral("eddy-%1").arg(first + i);
                c.arguments = QStringLiteral(R"({"reynolds":%1,"grid":64,"idempotency_key":"%2"})").arg(100 + i).arg(c.idempotencyKey);
                cases << c;
            }
            if (!store.journalSweep(sweep, cases)) {
                fprintf(stderr, "journal: %s\n", qPrintable(store.lastError()));
                return 1;
            }
            for (const auto &c : cases) {
                Store::TaskRecord t;
                t.serverId = sid;
                t.tool = c.tool;
                t.arguments = c.arguments;
                t.serverTaskId = QUuid::createUuid().toString(QUuid::Id128);
                t.status = TaskStatus::Completed;
                t.statusMessage = QStringLiteral("converged after 4200 iterations");
                t.createdAt = QStringLiteral("2026-11-29T20:00:00Z");
                t.lastUpdatedAt = t.createdAt;
                t.result = QStringLiteral(R"({"content":[{"type":"text","text":"done"}],"structuredContent":{"iterations":4200}})");
                t.firstSeenAtMs = QDateTime::currentMSecsSinceEpoch();
                t.updatedAtMs = t.firstSeenAtMs;
                t.finishedAtMs = t.firstSeenAtMs;
                if (!store.recordTaskForCase(c.id, t)) {
                    fprintf(stderr, "task: %s\n", qPrintable(store.lastError()));
                    return 1;
                }
            }
        }
    }
    const qint64 genMs = gen.elapsed();
    QSettings().setValue(QStringLiteral("session/last"), -1); // all sessions: every task
    // As app/main.cpp does: the window is shown at once, the database opens on the engine
    // thread meanwhile, and the snapshot is requested when it is open.
    QElapsedTimer t;
    t.start();
    App app;
    bool loaded = false;
    bool opened = false;
    qint64 openedMs = -1;
    app.create();
    QObject::connect(app.window.get(), &MainWindow::snapshotLoaded, [&] { loaded = true; });
    QObject::connect(app.engine, &Monitor::Engine::opened, app.window.get(), [&](bool ok) {
        openedMs = t.elapsed();
        opened = ok;
        if (ok)
            app.window->start();
    });
    Monitor::Engine *e = app.engine;
    QMetaObject::invokeMethod(e, [e, path] { e->open(path); });
    app.window->show();
    waitFor([&] { return app.window->isVisible() && app.window->windowHandle() && app.window->windowHandle()->isExposed(); }, 10000);
    QCoreApplication::processEvents();
    const qint64 shownMs = t.elapsed();
    waitFor([&] { return openedMs >= 0; }, 60000);
    if (!opened) {
        fprintf(stderr, "cannot open the database\n");
        return 1;
    }
    // The longest main-thread block while the snapshot is delivered and listed.
    qint64 longestBlockMs = 0;
    {
        QElapsedTimer gap;
        gap.start();
        QTimer probe;
        probe.setInterval(1);
        QObject::connect(&probe, &QTimer::timeout, [&] {
            longestBlockMs = std::max(longestBlockMs, gap.restart());
        });
        probe.start();
        waitFor([&] { return loaded && !app.window->taskModel()->isListing(); }, 120000);
    }
    const qint64 listedMs = t.elapsed();
    printf("startup: %d stored tasks (written with the store API in %.1f s); window shown %lld ms (target <= 1000 ms), "
           "engine open %lld ms, all tasks listed %lld ms, longest main-thread block while listing %lld ms; rows %d; "
           "RSS %.0f MB; load average %.1f\n",
           total, double(genMs) / 1000.0, shownMs, openedMs, listedMs, longestBlockMs,
           app.window->taskModel()->rowCount(), rssMiB(), loadAverage());
    {
        Bench::Result r;
        r.bench = "gui";
        r.what = "GUI startup, " + std::to_string(total) + " stored tasks: window shown";
        r.unit = "ms";
        r.decimals = 0;
        r.target = "<=1000";
        r.how = "bench_gui startup";
        r.value = double(shownMs);
        r.shown = std::to_string(shownMs) + " ms shown, all listed " + std::to_string(listedMs) + " ms";
        Bench::printResult(r);
    }
    // Where the engine's open goes (its thread; the window no longer waits for it): the same
    // steps again on a second connection, file in the page cache.
    {
        QElapsedTimer step;
        step.start();
        Store::TaskStore store;
        if (!store.open(path)) {
            fprintf(stderr, "cannot reopen %s: %s\n", qPrintable(path), qPrintable(store.lastError()));
            return 1;
        }
        const qint64 openMs = step.restart();
        const auto live = store.liveTasks();
        const qint64 liveMs = step.restart();
        const auto unsubmitted = store.unsubmittedCases();
        const qint64 unsubmittedMs = step.restart();
        const auto sweeps = store.sweeps();
        const qint64 sweepsMs = step.restart();
        printf("startup: engine open steps: TaskStore::open (PRAGMA quick_check, schema) %lld ms, liveTasks %lld ms (%d), "
               "unsubmittedCases %lld ms (%d), sweeps %lld ms (%d)\n",
               openMs, liveMs, int(live.size()), unsubmittedMs, int(unsubmitted.size()), sweepsMs, int(sweeps.size()));
    }
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    offscreenUnlessSet();
    QApplication app(argc, argv);
    const QString what = setUp("bench_gui");
    const QStringList args = app.arguments();
    int seconds = 10;
    if (const int i = int(args.indexOf(QStringLiteral("--seconds"))); i > 0 && i + 1 < args.size())
        seconds = std::max(1, args[i + 1].toInt());
    if (what != QLatin1String("all") && what != QLatin1String("stall") && what != QLatin1String("redraw")
        && what != QLatin1String("startup")) {
        fprintf(stderr, "usage: bench_gui [stall|redraw|startup|all] [--seconds N]\n");
        return 2;
    }
    int rc = 0;
    if (what == QLatin1String("all") || what == QLatin1String("stall")) {
        rc |= benchStall(10000, seconds, 30, 100); // the target's load: 100 tasks change each second
        rc |= benchStall(10000, seconds, 30, 100, Probe::Posted); // the same, as input would wait
        rc |= benchStall(10000, seconds, 30, 1000); // ten times that
        rc |= benchStall(10000, seconds, 1, 1000);
    }
    if (what == QLatin1String("all") || what == QLatin1String("redraw"))
        rc |= benchRedraw(1000000);
    if (what == QLatin1String("all") || what == QLatin1String("startup"))
        rc |= benchStartup(100000);
    return rc;
}
