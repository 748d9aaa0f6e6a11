// A year of sweeps in one database (docs/performance.md, "A year of sweeps"). Assumptions, all
// options: 250 working days, 20 sweeps a working day, 20 cases a sweep (100,000 runs); each run
// polled 120 times (two minutes at the server's 1 s interval), each poll storing 4 progress
// samples (iteration, residual.u, .v, .ω), so 480 samples a run; a 200-point residual history
// per field in each result; every tenth case asked a mesh question that was answered. Written
// straight through the store API, sweeps dated over the past year. Then, on that file:
//   open     TaskStore::open (integrity check included) and the engine's open;
//   list     every sweep, and every task (the window's all-sessions list);
//   filter   one sweep's tasks, the tasks with reynolds = 400, the failed ones;
//   export   one old sweep's CSV (SweepExport) and its report (SweepReportReader + HTML);
//   thin     eddyctl samples thin --older-than 90d --keep 1-in-10 (its store call): the count,
//            the removal, the samples and the database's used pages before and after; then
//            the same reads again.
// Usage: bench_year [--days N] [--sweeps-per-day N] [--cases N] [--polls N]
// Verdict rows are RESULT lines (bench/common/benchresult.h, read by bench/run-all.sh).
#include "benchresult.h"
#include "sweepgen.h"

#include "app/monitor/engine.h"
#include "app/monitor/sweepexport.h"
#include "app/store/sampleretention.h"
#include "app/store/taskstore.h"
#include "models/sweepreport.h"
#include "models/sweepreportreader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstdio>
#include <functional>

using namespace Eddy;

namespace {

int argValue(const QStringList &args, const char *name, int fallback)
{
    const int i = int(args.indexOf(QLatin1String(name)));
    return i > 0 && i + 1 < args.size() ? std::max(1, args[i + 1].toInt()) : fallback;
}

double ms(const std::function<void()> &f)
{
    QElapsedTimer t;
    t.start();
    f();
    return double(t.nsecsElapsed()) / 1e6;
}

std::string msText(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.1f ms" : "%.0f ms", v);
    return buf;
}

void row(const std::string &what, double value, const std::string &target, const std::string &shown)
{
    Bench::Result r;
    r.bench = "store";
    r.what = what;
    r.unit = "ms";
    r.decimals = value < 10 ? 1 : 0;
    r.target = target;
    r.value = value;
    r.shown = shown;
    r.how = "bench_year";
    Bench::printResult(r);
}

// Pages in use (the file keeps freed pages until a VACUUM, and reuses them).
double usedMb(Store::TaskStore &store)
{
    sqlite3_stmt *st = nullptr;
    double mb = -1;
    if (sqlite3_prepare_v2(store.database().handle(),
                           "SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM "
                           "pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())",
                           -1, &st, nullptr) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW)
        mb = double(sqlite3_column_int64(st, 0)) * double(sqlite3_column_int64(st, 1)) / 1e6;
    sqlite3_finalize(st);
    return mb;
}

struct Reads
{
    double open = 0, sweeps = 0, allTasks = 0, oneSweep = 0, byArgument = 0, failed = 0, csv = 0, report = 0;
    qsizetype tasks = 0;
};

Reads measure(const QString &db, qint64 oldSweep, const QString &dir)
{
    Reads r;
    Monitor::Engine engine;
    engine.setMonitoring(false);
    r.open = ms([&] { engine.open(db); });
    r.sweeps = ms([&] { engine.catalogue().sweeps(); });
    r.allTasks = ms([&] { r.tasks = engine.catalogue().tasks().size(); });
    Store::TaskQuery q;
    q.sweepId = oldSweep;
    r.oneSweep = ms([&] { engine.catalogue().tasks(q); });
    Store::TaskQuery byArg;
    byArg.arguments = {{QStringLiteral("reynolds"), QStringLiteral("400")}};
    r.byArgument = ms([&] { engine.catalogue().tasks(byArg); });
    Store::TaskQuery failed;
    failed.status = Store::TaskStatus::Failed;
    r.failed = ms([&] { engine.catalogue().tasks(failed); });
    r.csv = ms([&] {
        const auto rows = engine.catalogue().exportRows(oldSweep);
        Monitor::SweepExport::csv(rows, Monitor::SweepExport::variedNames(engine.catalogue().sweep(oldSweep)->spec));
    });
    r.report = ms([&] {
        QString error;
        SweepReport::writeHtml(*SweepReportReader::read(engine, oldSweep), dir + QStringLiteral("/old.html"), &error);
    });
    engine.close();
    return r;
}

void print(const char *when, const Reads &r)
{
    printf("%s: open %.0f ms; %lld tasks listed in %.0f ms, sweeps %.0f ms; one sweep's tasks %.1f ms, reynolds=400 "
           "%.0f ms, failed %.1f ms; one sweep's CSV %.1f ms, its report %.0f ms\n",
           when, r.open, qint64(r.tasks), r.allTasks, r.sweeps, r.oneSweep, r.byArgument, r.failed, r.csv, r.report);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.debug=false\neddy.*.info=false"));
    const QStringList args = app.arguments();
    const int days = argValue(args, "--days", 250);
    const int perDay = argValue(args, "--sweeps-per-day", 20);
    Bench::SweepShape shape;
    shape.cases = argValue(args, "--cases", 20);
    shape.samplesPerTask = argValue(args, "--polls", 120);
    shape.historyPoints = 200;
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("year.sqlite"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 oldSweep = 0;
    QElapsedTimer gen;
    gen.start();
    {
        Store::TaskStore store;
        if (!store.open(db)) {
            fprintf(stderr, "cannot create %s: %s\n", qPrintable(db), qPrintable(store.lastError()));
            return 1;
        }
        Store::ServerRecord s;
        s.url = QStringLiteral("http://127.0.0.1:9/mcp");
        s.name = QStringLiteral("Workstation CFD");
        const qint64 sid = *store.addServer(s);
        const qint64 session = *store.createSession(QStringLiteral("Year"));
        for (int d = 0; d < days; ++d) {
            for (int k = 0; k < perDay; ++k) {
                // Working days spread over the past 365 days, oldest first.
                shape.createdAtMs = now - qint64(365 - d * 365 / days) * 86400000LL + qint64(k) * 1200000;
                QString error;
                const auto id = Bench::writeSweep(store, sid, session, shape, &error);
                if (!id) {
                    fprintf(stderr, "cannot write a sweep: %s\n", qPrintable(error));
                    return 1;
                }
                if (d == days / 10 && k == 0)
                    oldSweep = *id; // about 330 days old
            }
            if (d % 25 == 24)
                fprintf(stderr, "generated %d of %d days (%.0f s)\n", d + 1, days, double(gen.elapsed()) / 1000.0);
        }
    }
    const double genS = double(gen.elapsed()) / 1000.0;
    const double fileMb = double(QFileInfo(db).size()) / 1e6;
    printf("generated: %d days x %d sweeps x %d cases = %d runs, %d polls x 4 samples each, in %.0f s; %.0f MB\n", days,
           perDay, shape.cases, days * perDay * shape.cases, shape.samplesPerTask, genS, fileMb);

    const Reads before = measure(db, oldSweep, dir.path());
    print("before thinning", before);
    const std::string runs = std::to_string(days * perDay * shape.cases) + " runs";
    row("A year of sweeps (" + runs + "): open (integrity check included)", before.open, "<=2000",
        std::to_string(qint64(before.open)) + " ms, " + std::to_string(qint64(fileMb)) + " MB file");
    row("A year of sweeps: one sweep's tasks (filter)", before.oneSweep, "<=100", msText(before.oneSweep));
    row("A year of sweeps: tasks with reynolds = 400 (filter)", before.byArgument, "", msText(before.byArgument));
    row("A year of sweeps: every task listed (all sessions)", before.allTasks, "", msText(before.allTasks) + ", " + std::to_string(before.tasks) + " tasks");
    row("A year of sweeps: one old sweep exported (CSV)", before.csv, "<=500", msText(before.csv));
    row("A year of sweeps: one old sweep's report (HTML)", before.report, "<=2000", msText(before.report));

    {
        Store::TaskStore store;
        if (!store.open(db)) {
            fprintf(stderr, "cannot reopen %s\n", qPrintable(db));
            return 1;
        }
        const qint64 cutoff = now - 90LL * 86400000LL;
        std::optional<Store::SampleThinning> plan;
        const double countMs = ms([&] { plan = Store::SampleRetention::plan(store, cutoff, 10); });
        const double usedBefore = usedMb(store);
        std::optional<qint64> removed;
        const double thinMs = ms([&] { removed = Store::SampleRetention::thin(store, cutoff, 10); });
        const double usedAfter = usedMb(store);
        if (!plan || !removed) {
            fprintf(stderr, "thinning failed: %s\n", qPrintable(store.lastError()));
            return 1;
        }
        printf("thin --older-than 90d --keep 1-in-10: %lld runs, %lld of %lld samples removable (counted in %.0f ms); "
               "removed %lld in %.0f ms; pages in use %.0f MB -> %.0f MB\n",
               plan->runs, plan->removable, plan->total, countMs, *removed, thinMs, usedBefore, usedAfter);
        row("A year of sweeps: samples thin --older-than 90d --keep 1-in-10", thinMs, "",
            std::to_string(qint64(thinMs / 1000)) + " s, " + std::to_string(*removed) + " of " + std::to_string(plan->total)
                + " samples, " + std::to_string(qint64(usedBefore)) + " -> " + std::to_string(qint64(usedAfter)) + " MB in use");
    }
    const Reads after = measure(db, oldSweep, dir.path());
    print("after thinning", after);
    return 0;
}
