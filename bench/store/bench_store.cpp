// Benchmarks of the durable task store and the monitor against the real eddy-cfd-server:
//   journal  - a 1,000-case sweep journalled, then submitted on loopback (target <= 3 s)
//   monitor  - 10,000 live tasks polled at the server's intervals: process RSS (target < 60 MB),
//              CPU, and polls sent vs polls the server asked for (target within 5%)
//   startup  - open a database with 100,000 stored tasks (10,000 live), and again with 10M
//              progress samples on top: time until polling resumes (target <= 1 s), after a
//              clean close and without the clean-shutdown mark (a crash: full check at open)
// Options: --samples N sets the sample count of the second startup run (0 skips it); a second
// positional argument sets the monitor's task count. Verdict rows are RESULT lines
// (bench/common/benchresult.h, read by bench/run-all.sh).
#include "benchresult.h"
#include "procstats.h"

#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "app/store/taskstore.h"
#include "tests/common/engineprobe.h"
#include "tests/common/testserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QTimer>
#include <QUuid>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>

using namespace Eddy;

namespace {

// One RESULT line of this bench.
void result(const QString &what, double value, int decimals, const QString &unit, const QString &target,
            const QString &shown, const QString &how)
{
    Bench::Result r;
    r.bench = "store";
    r.what = what.toStdString();
    r.value = value;
    r.decimals = decimals;
    r.unit = unit.toStdString();
    r.target = target.toStdString();
    r.shown = shown.toStdString();
    r.how = how.toStdString();
    Bench::printResult(r);
}

// VmRSS or VmHWM (the kernel's own peak of the resident set) of this process, in MB.
double statusMb(const char *key)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(int(qstrlen(key))).trimmed().split(' ').first().toDouble() / 1024.0;
    return -1;
}

// Starts a new peak: VmHWM drops to the current RSS (Linux 4.0+). False if the kernel refused.
bool resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Runs the event loop until done() (checked every 20 ms) or the timeout. Not processEvents() in
// a loop: its time-limited overload ignores WaitForMoreEvents and spins, which would bill the
// bench's own busy loop to the code under measurement.
bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QElapsedTimer t;
    t.start();
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (done() || t.elapsed() > timeoutMs)
            loop.quit();
    });
    tick.start(20);
    loop.exec();
    return done();
}

QByteArray sweepSpec(int cases, int grid, int iterations, int concurrency)
{
    return QStringLiteral(R"({"tool":"run_cfd_case","fixed":{"grid":%1,"max_iterations":%2},
        "vary":{"reynolds":{"range":{"from":1,"to":%3,"step":1}}},"concurrency":%4})")
        .arg(grid).arg(iterations).arg(cases).arg(concurrency).toUtf8();
}

int benchJournal()
{
    QTemporaryDir dir;
    // Pure journalling: 1,000 cases in one transaction.
    {
        Store::TaskStore store;
        store.open(dir.filePath(QStringLiteral("j.sqlite")));
        Store::ServerRecord s;
        s.url = QStringLiteral("http://127.0.0.1:1/mcp");
        Store::SweepRecord sweep;
        sweep.serverId = *store.addServer(s);
        sweep.tool = QStringLiteral("run_cfd_case");
        sweep.spec = QStringLiteral("{}");
        QList<Store::CaseRecord> cases;
        for (int i = 0; i < 1000; ++i) {
            Store::CaseRecord c;
            c.index = i;
            c.tool = sweep.tool;
            c.arguments = QStringLiteral("{\"reynolds\":%1,\"grid\":16}").arg(i + 1);
            c.idempotencyKey = QUuid::createUuid().toString();
            cases << c;
        }
        QElapsedTimer t;
        t.start();
        store.journalSweep(sweep, cases);
        printf("journal: 1000 cases written in one transaction: %.1f ms\n", double(t.nsecsElapsed()) / 1e6);
    }
    Test::TestServer server;
    if (!server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("5000")})) {
        fprintf(stderr, "cannot start the server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    Monitor::Engine engine;
    engine.open(dir.filePath(QStringLiteral("e.sqlite")));
    const qint64 sid = engine.addServer(server.url());
    int submitted = 0;
    int total = -1;
    QObject::connect(&engine, &Monitor::Engine::caseSubmitted, [&] { ++submitted; });
    QObject::connect(&engine, &Monitor::Engine::caseRejected, [&](qint64, const QString &m) { fprintf(stderr, "rejected: %s\n", qPrintable(m)); ++submitted; });
    QObject::connect(&engine, &Monitor::Engine::sweepSubmitted, [&](qint64, int n) { total = n; });
    // Warm up: the tool list (its schema validates the sweep) and the era, as a real session has.
    engine.refreshServer(sid);
    waitFor([&] { return !engine.catalogue().server(sid)->tools.isEmpty(); }, 10000);
    QElapsedTimer t;
    t.start();
    qint64 journalled = -1;
    QObject::connect(&engine, &Monitor::Engine::sweepSubmitted, [&] { journalled = t.elapsed(); });
    engine.submitSweep(sid, sweepSpec(1000, 8, 1, 32), std::nullopt);
    const bool ok = waitFor([&] { return total > 0 && submitted >= total; }, 60000);
    const qint64 all = t.elapsed();
    printf("journal: 1000-case sweep validated+journalled in %lld ms, all submitted (task handles stored) in %lld ms%s (target <= 3000 ms)\n",
           journalled, all, ok ? "" : " [TIMEOUT]");
    result(QStringLiteral("1,000-case sweep journalled and submitted (task handles stored)"), double(all), 0,
           QStringLiteral("ms"), QStringLiteral("<=3000"),
           QStringLiteral("journalled %1 ms, all submitted %2 ms%3").arg(journalled).arg(all).arg(ok ? "" : " (timed out)"),
           QStringLiteral("bench_store journal"));
    return ok ? 0 : 1;
}

int benchMonitor(int tasks, int seconds)
{
    QTemporaryDir dir;
    Test::TestServer server;
    // One worker busy with a long case keeps every other case queued ("working", polled at
    // 3 x 5 s = 15 s as the server asks).
    if (!server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"), QStringLiteral("5000")})) {
        fprintf(stderr, "cannot start the server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    // The peak covers this run only (submission and polling), not the benches before it.
    const bool peakReset = resetPeakRss();
    Monitor::Engine engine;
    engine.open(dir.filePath(QStringLiteral("m.sqlite")));
    const qint64 sid = engine.addServer(server.url());
    int submitted = 0, total = -1;
    QObject::connect(&engine, &Monitor::Engine::caseSubmitted, [&] { ++submitted; });
    QObject::connect(&engine, &Monitor::Engine::caseRejected, [&] { ++submitted; });
    QObject::connect(&engine, &Monitor::Engine::sweepSubmitted, [&](qint64, int n) { total = n; });
    int batches = 0, batchedTasks = 0;
    QObject::connect(&engine, &Monitor::Engine::changesReady, [&](const Monitor::ChangeSet &c) { ++batches; batchedTasks += int(c.tasks.size()); });
    engine.submitSweep(sid, sweepSpec(1, 256, 10000000, 1), std::nullopt);
    waitFor([&] { return submitted >= 1; }, 30000);
    submitted = 0;
    total = -1;
    QElapsedTimer t;
    t.start();
    engine.submitSweep(sid, sweepSpec(tasks, 16, 100, 64), std::nullopt);
    if (!waitFor([&] { return total > 0 && submitted >= total; }, 600000)) {
        fprintf(stderr, "submission timed out\n");
        return 1;
    }
    printf("monitor: %d tasks submitted in %lld ms; %d live\n", tasks, t.elapsed(), engine.liveTaskCount());
    // Let the first polls settle the server's queued interval into every task.
    waitFor([] { return false; }, 20000);
    const qint64 r0 = engine.requestsSent();
    const double cpu0 = cpuSeconds();
    batches = batchedTasks = 0;
    t.restart();
    waitFor([] { return false; }, seconds * 1000);
    const double peak = statusMb("VmHWM:");
    const double rssNow = statusMb("VmRSS:");
    const double wall = double(t.elapsed()) / 1000.0;
    const qint64 polls = engine.requestsSent() - r0;
    double asked = 0;
    for (const Store::TaskRecord &task : Monitor::EngineProbe::store(engine).liveTasks())
        asked += wall * 1000.0 / double(engine.scheduler().clampedInterval(task.pollIntervalMs));
    const double cpu = cpuSeconds() - cpu0;
    printf("monitor: %d live tasks for %.1f s: %lld polls sent, %.0f asked by the server (%.1f%%), "
           "RSS %.1f MB (peak %.1f MB, target < 60), CPU %.1f%% of one core, %d change batches (%d task updates)\n",
           engine.liveTaskCount(), wall, polls, asked, 100.0 * double(polls) / asked, rssNow, peak,
           100.0 * cpu / wall, batches, batchedTasks);
    const QString how = QStringLiteral("bench_store monitor %1").arg(tasks);
    result(QStringLiteral("Peak memory (VmHWM) of the monitor process at %1 live tasks").arg(engine.liveTaskCount()),
           peak, 1, QStringLiteral("MB"), QStringLiteral("<=60"),
           QStringLiteral("peak %1 MB %2, RSS at the end %3 MB")
               .arg(peak, 0, 'f', 1)
               .arg(peakReset ? QStringLiteral("(submission and polling)") : QStringLiteral("(whole process: the peak could not be reset)"))
               .arg(rssNow, 0, 'f', 1),
           how);
    const double off = asked > 0 ? 100.0 * std::abs(double(polls) / asked - 1.0) : 100.0;
    result(QStringLiteral("Polls sent vs asked by the server at %1 live tasks: distance from 100 %").arg(engine.liveTaskCount()),
           off, 1, QStringLiteral("%"), QStringLiteral("<=5"),
           QStringLiteral("%1 / %2 (%3 %)").arg(polls).arg(asked, 0, 'f', 0).arg(100.0 * double(polls) / asked, 0, 'f', 1),
           how);
    return 0;
}

enum class StartupCheck { AfterCleanClose, Full };

struct StartupTimes
{
    qint64 opened = -1;
    qint64 firstSent = -1;
    qint64 firstAnswered = -1;
};

// Opens an engine on path and times it until the first poll is sent and answered; with
// AfterCleanClose also until the background integrity check is done (the engine's clean close
// then leaves the mark for the next run).
StartupTimes measureStartup(const QString &path, StartupCheck check)
{
    if (check == StartupCheck::Full)
        QFile::remove(Store::Database::cleanShutdownMarkPath(path));
    else if (!QFile::exists(Store::Database::cleanShutdownMarkPath(path)))
        fprintf(stderr, "startup: no clean-shutdown mark next to the database; this run checks it in full\n");
    StartupTimes times;
    QElapsedTimer t;
    t.start();
    const double cpuAtStart = cpuSeconds();
    Monitor::Engine engine;
    if (!engine.open(path)) {
        fprintf(stderr, "cannot open the database: %s\n", qPrintable(engine.storeError()));
        return times;
    }
    times.opened = t.elapsed();
    const double openCpu = cpuSeconds() - cpuAtStart;
    int answered = 0;
    QObject::connect(&engine, &Monitor::Engine::taskFinished, [&] { ++answered; }); // unknown ids: lost
    if (waitFor([&] { return engine.requestsSent() > 0; }, 10000))
        times.firstSent = t.elapsed();
    if (waitFor([&] { return answered > 0; }, 10000))
        times.firstAnswered = t.elapsed();
    const Store::Database &db = Monitor::EngineProbe::store(engine).database();
    printf("startup (%s): open %lld ms (%.0f ms CPU), first poll sent at %lld ms, first poll answered "
           "at %lld ms (target <= 1000 ms), RSS %.1f MB\n",
           db.openCheck() == Store::Database::OpenCheck::Full ? "full check at open" : "clean shutdown",
           times.opened, openCpu * 1000.0, times.firstSent, times.firstAnswered, Bench::rssMiB());
    if (db.openCheck() == Store::Database::OpenCheck::Skipped) {
        const auto done = [&] { return db.backgroundCheckState() != Store::IntegrityCheck::State::Running; };
        waitFor(done, 600000);
        printf("startup (clean shutdown): background integrity check %s at %lld ms\n",
               db.backgroundCheckState() == Store::IntegrityCheck::State::Passed ? "passed" : "did not finish or pass",
               t.elapsed());
    }
    return times;
}

int benchStartup(int total, int live, qint64 samples)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.sqlite"));
    Test::TestServer server;
    if (!server.start({QStringLiteral("--workers"), QStringLiteral("1")})) {
        fprintf(stderr, "cannot start the server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    {
        Store::TaskStore store;
        store.open(path);
        Store::ServerRecord s;
        s.url = server.url();
        s.era = QStringLiteral("modern");
        const qint64 sid = *store.addServer(s);
        Store::Transaction tx(store.database());
        Store::Statement ins = store.database().prepare(QStringLiteral(
            "INSERT INTO tasks(server_id, tool, arguments, server_task_id, status, status_message, created_at, "
            "last_updated_at, ttl_ms, poll_interval_ms, result, first_seen_at, updated_at) "
            "VALUES(?, 'run_cfd_case', ?, ?, ?, ?, '2026-11-29T20:00:00Z', '2026-11-29T20:00:00Z', 86400000, 1000, ?, ?, ?)"));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < total; ++i) {
            const bool isLive = i >= total - live;
            ins.reset();
            ins.bind(1, sid).bind(2, QStringLiteral("{\"reynolds\":%1,\"grid\":64}").arg(i))
                .bind(3, QUuid::createUuid().toString(QUuid::Id128))
                .bind(4, isLive ? QStringLiteral("working") : QStringLiteral("completed"))
                .bind(5, QStringLiteral("iteration 4200 of 12000, residual 3.1e-4 (u 2.0e-4, v 3.1e-4, p 8.7e-5)"))
                .bind(6, isLive ? QString("") : QStringLiteral("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}],\"structuredContent\":{\"iterations\":4200}}"))
                .bind(7, now).bind(8, now);
            ins.exec();
        }
        if (samples > 0) {
            // Residual histories spread evenly over every task, as the monitor stores them.
            Store::Statement ps = store.database().prepare(QStringLiteral(
                "INSERT INTO progress_samples(task_id, at, series, x, y) VALUES(?, ?, ?, ?, ?)"));
            static const QString series[] = {QStringLiteral("residual"), QStringLiteral("residual.u"),
                                             QStringLiteral("residual.v"), QStringLiteral("residual.p")};
            const qint64 perTask = samples / total;
            for (qint64 i = 0; i < samples; ++i) {
                const qint64 task = 1 + std::min<qint64>(i / std::max<qint64>(perTask, 1), total - 1);
                const qint64 k = i % std::max<qint64>(perTask, 1);
                ps.reset();
                ps.bind(1, task).bind(2, now - 1000 * (perTask - k)).bind(3, series[k % 4])
                    .bind(4, double(k / 4 * 100)).bind(5, 1e-2 / double(1 + k));
                if (!ps.exec()) {
                    fprintf(stderr, "cannot insert progress samples: %s\n", qPrintable(store.lastError()));
                    return 1;
                }
            }
        }
        tx.commit();
    }
    printf("startup: database with %d tasks (%d live), %lld progress samples, %.1f MB\n", total, live,
           static_cast<long long>(samples), double(QFile(path).size()) / 1e6);
    // The same file twice: without the clean-shutdown mark (after a crash, and every open before
    // the mark existed), when open() checks the whole file; then as that run's clean close left
    // it. In this order: the server knows none of the generated tasks, so every poll marks one
    // lost, and the clean run's wait for its background check would leave the other none to poll.
    const StartupTimes full = measureStartup(path, StartupCheck::Full);
    const StartupTimes clean = measureStartup(path, StartupCheck::AfterCleanClose);
    const QString what = samples > 0
        ? QStringLiteral("Startup, %1 stored tasks + %2M progress samples").arg(total).arg(double(samples) / 1e6)
        : QStringLiteral("Startup, %1 stored tasks, %2 live").arg(total).arg(live);
    // No poll within the 10 s wait counts as 10 s: a miss, not a row without a number.
    result(what + QStringLiteral(": to the first poll after a clean close"),
           double(clean.firstSent >= 0 ? clean.firstSent : 10000), 0, QStringLiteral("ms"), QStringLiteral("<=1000"),
           QStringLiteral("open %1 ms, first poll sent %2 ms, answered %3 ms; after a crash (full check) %4 ms to the first poll")
               .arg(clean.opened).arg(clean.firstSent).arg(clean.firstAnswered).arg(full.firstSent),
           samples > 0 ? QStringLiteral("bench_store startup --samples %1").arg(samples)
                       : QStringLiteral("bench_store startup --samples 0"));
    return clean.firstSent >= 0 && full.firstSent >= 0 ? 0 : 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.debug=false\neddy.*.info=false\neddy.*.warning=false"));
    Net::initGlobal();
    QStringList positional;
    qint64 samples = 10000000;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--samples") && i + 1 < args.size()) {
            bool ok = false;
            samples = args[++i].toLongLong(&ok);
            if (!ok || samples < 0) {
                fprintf(stderr, "--samples takes a count (0 skips the run with samples), not \"%s\"\n", qPrintable(args[i]));
                return 2;
            }
        } else if (args[i].startsWith(QLatin1String("--"))) {
            fprintf(stderr, "unknown option \"%s\"; usage: bench_store [journal|monitor|startup|all] [TASKS] "
                            "[--samples N]\n", qPrintable(args[i]));
            return 2;
        } else {
            positional << args[i];
        }
    }
    const QString what = positional.value(0, QStringLiteral("all"));
    const int tasks = positional.size() > 1 ? positional[1].toInt() : 10000;
    if (tasks < 1) {
        fprintf(stderr, "the task count must be a positive number, not \"%s\"\n", qPrintable(positional.value(1)));
        return 2;
    }
    if (!QStringList{QStringLiteral("journal"), QStringLiteral("monitor"), QStringLiteral("startup"), QStringLiteral("all")}
             .contains(what)) {
        fprintf(stderr, "unknown benchmark \"%s\"; choose journal, monitor, startup or all\n", qPrintable(what));
        return 2;
    }
    int rc = 0;
    if (what == QLatin1String("journal") || what == QLatin1String("all"))
        rc |= benchJournal();
    if (what == QLatin1String("startup") || what == QLatin1String("all")) {
        rc |= benchStartup(100000, 10000, 0);
        if (samples > 0)
            rc |= benchStartup(100000, 10000, samples);
    }
    if (what == QLatin1String("monitor") || what == QLatin1String("all"))
        rc |= benchMonitor(tasks, 45);
    return rc;
}
