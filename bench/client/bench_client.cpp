// bench_client: client CPU per tasks/get round trip against the real eddy-cfd-server on
// loopback with 1, 100, 1,000 and 10,000 live tasks each polled every 500 ms (polls served /
// asked, RSS, heap per tracked task), a flat-out rate, and heap bytes per task state. Run by hand:
// build/bench/client/bench_client [--quick] [--tasks 100,1000] (only those rows) [--paced-seconds S]
// (a longer paced window, less noise) [--no-flat] (paced rows only, e.g. under perf or strace).
// Numbers go to docs/performance.md (Client section). Not a test: nothing here asserts speed.
// Verdict rows are RESULT lines (bench/common/benchresult.h): client CPU per paced poll at 100
// tasks (target <= 50 us) and heap per tracked task state (target <= 2 KB).
// --jobs N: client CPU per status poll of N jobs followed through the proposed job adapter
// (classic submit/status tools of eddy-cfd-server --no-tasks-extension, batched like the engine)
// against the same N tasks polled with tasks/get, alternating, [--rounds R] times each; the
// verdict row is the ratio (issue 16: <= 2).

#include "benchresult.h"
#include "procstats.h"

#include "app/mcp/client.h"
#include "app/mcp/taskreplyparser.h"
#include "app/monitor/adapterproposal.h"
#include "app/monitor/jobadapter.h"
#include "app/monitor/pollscheduler.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"
#include "tests/common/testserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLoggingCategory>
#include <QTimer>

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

using namespace Eddy;
using nlohmann::json;

namespace {

double cpuMicros()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

size_t heapInUse()
{
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

// Creates `count` tasks with `inFlight` calls outstanding at a time.
std::vector<std::string> createTasks(Mcp::Client &client, int count, int inFlight)
{
    std::vector<std::string> ids;
    int started = 0, done = 0, failed = 0;
    QEventLoop loop;
    std::function<void()> next = [&] {
        while (started < count && started - done < inFlight) {
            ++started;
            const json args = {{"case_name", "bench"}, {"reynolds", 100}, {"grid", 8},
                               {"max_iterations", 10000000}, {"tolerance", 1e-14},
                               {"force_mesh_defect", true}};
            Mcp::CallJob *job = client.callTool(QStringLiteral("run_cfd_case"), args);
            QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] {
                ++done;
                if (job->kind() == Mcp::CallJob::Kind::Task)
                    ids.push_back(job->task().taskId);
                else if (++failed < 5)
                    std::fprintf(stderr, "create failed: %s\n", qPrintable(job->error().message()));
                if (done == count)
                    loop.quit();
                else
                    next();
            });
        }
    };
    next();
    if (count > 0)
        loop.exec();
    return ids;
}

struct PollResult
{
    qint64 roundTrips = 0;
    qint64 errors = 0;
    double seconds = 0;
    double cpuUs = 0;
};

// Polls the ids round-robin, `inFlight` requests outstanding, for `seconds`.
PollResult pollFlat(Mcp::Client &client, const std::vector<std::string> &ids, int inFlight, double seconds)
{
    PollResult r;
    QEventLoop loop;
    size_t cursor = 0;
    int outstanding = 0;
    bool stopping = false;
    QElapsedTimer wall;
    std::function<void()> issue = [&] {
        while (!stopping && outstanding < inFlight) {
            ++outstanding;
            Mcp::TaskJob *job = client.getTask(ids[cursor++ % ids.size()]);
            QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] {
                --outstanding;
                if (job->hasError())
                    ++r.errors;
                else
                    ++r.roundTrips;
                if (stopping && outstanding == 0)
                    loop.quit();
                issue();
            });
        }
    };
    QTimer::singleShot(int(seconds * 1000), &loop, [&] {
        stopping = true;
        if (outstanding == 0)
            loop.quit();
    });
    const double cpu0 = cpuMicros();
    wall.start();
    issue();
    loop.exec();
    r.seconds = double(wall.nsecsElapsed()) / 1e9;
    r.cpuUs = cpuMicros() - cpu0;
    return r;
}

long rssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

// Each task polled every `intervalMs` (the product's steady state), for `seconds`, the way the
// monitor engine does it: Monitor::PollScheduler decides, one single-shot QTimer wakes the loop
// and the poller sends what is due. The same loop serves tasks/get (one request a task, the
// answer's TaskState kept per task) and jobs (the due jobs of a tick in status calls of up to a
// batch of ids, each answer mapped through the job adapter).
struct PacedResult
{
    PollResult poll; // roundTrips: task or job polls served
    qint64 asked = 0;
    qint64 requests = 0; // HTTP requests sent (a batched status call is one)
    qint64 wakeUps = 0;  // poll timer expiries (each sends every poll due on that tick)
    long rssKiB = 0;
    double heapPerTask = 0; // scheduler entry + id + the poller's state, per tracked task
};

// A poller sends the polls of the due tasks (indexes into the caller's ids) and calls settle()
// once for each when its answer is read: ok, and the interval the server asked for (if any).
using Settle = std::function<void(qint64 index, bool ok, std::optional<qint64> intervalMs)>;
struct Poller
{
    std::function<int(const QList<qint64> &due, const Settle &settle)> send; // requests sent
    std::optional<Monitor::PollScheduler::Ticks> ticks; // jobs: shared ticks, as the engine
};

// makePoller runs inside the measured window, so the heap its state takes counts per task.
PacedResult
pollPaced(size_t count, int intervalMs, double seconds, const std::function<Poller()> &makePoller)
{
    PacedResult out;
    PollResult &r = out.poll;
    malloc_trim(0);
    const size_t heap0 = heapInUse();
    Monitor::PollScheduler::Config config;
    config.minIntervalMs = intervalMs;
    config.defaultIntervalMs = intervalMs;
    config.maxInFlightPerServer = 64;
    auto scheduler = std::make_unique<Monitor::PollScheduler>(config);
    const Poller poller = makePoller();
    const qint64 start = scheduler->now();
    for (size_t i = 0; i < count; ++i) // first polls spread over one interval
        scheduler->add(
            qint64(i), 1, intervalMs, start + qint64(i) * intervalMs / qint64(count), poller.ticks);

    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    // A coarse timer may fire up to 5 % early, find nothing due on the scheduler's grid and wake
    // again (the engine's poll timer should be precise too).
    timer.setTimerType(Qt::PreciseTimer);
    bool stopping = false;
    qint64 outstanding = 0; // polls sent and not yet answered
    auto arm = [&] {
        if (stopping)
            return;
        const auto next = scheduler->nextDueAtMs();
        if (!next)
            return;
        const qint64 wait = std::max<qint64>(0, *next - scheduler->now());
        if (!timer.isActive() || timer.remainingTime() > wait)
            timer.start(int(wait));
    };
    const Settle settle = [&](qint64 i, bool ok, std::optional<qint64> interval) {
        --outstanding;
        if (ok) {
            ++r.roundTrips;
            scheduler->completed(i, interval);
        } else {
            ++r.errors;
            scheduler->failed(i);
        }
        if (stopping && outstanding == 0)
            loop.quit();
        arm();
    };
    QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
        if (stopping)
            return;
        ++out.wakeUps;
        const QList<qint64> due = scheduler->takeDue();
        outstanding += due.size();
        out.requests += poller.send(due, settle);
        arm();
    });
    QTimer::singleShot(int(seconds * 1000), &loop, [&] {
        stopping = true;
        timer.stop();
        if (outstanding == 0)
            loop.quit();
    });
    const double cpu0 = cpuMicros();
    QElapsedTimer wall;
    wall.start();
    arm();
    loop.exec();
    r.seconds = double(wall.nsecsElapsed()) / 1e9;
    r.cpuUs = cpuMicros() - cpu0;
    out.asked = qint64(double(count) * seconds * 1000.0 / intervalMs);
    out.rssKiB = rssKiB();
    malloc_trim(0);
    out.heapPerTask = double(heapInUse() - heap0) / double(count);
    return out;
}

// tasks/get of each due task, one request each; the answer's TaskState is kept per task.
std::function<Poller()> taskPoller(Mcp::Client &client, const std::vector<std::string> &ids)
{
    return [&client, &ids] {
        auto tracked = std::make_shared<std::vector<std::string>>(ids);
        auto last = std::make_shared<std::vector<Mcp::TaskState>>(ids.size());
        Poller p;
        p.send = [&client, tracked, last](const QList<qint64> &due, const Settle &settle) {
            for (qint64 i : due) {
                Mcp::TaskJob *job = client.getTask((*tracked)[size_t(i)]);
                QObject::connect(job, &Mcp::Job::finished, job, [job, i, last, settle] {
                    if (job->hasError())
                        return settle(i, false, std::nullopt);
                    (*last)[size_t(i)] = job->state();
                    settle(i, true, job->state().pollIntervalMs);
                });
            }
            return int(due.size());
        };
        return p;
    };
}

// CPU of reading one tasks/get answer: the full path (DOM of the whole response, then
// TaskState::parse of a copy of the result) against TaskReplyParser's single SAX pass.
void parseCost(Mcp::Client &client, const std::string &working, const std::string &asking)
{
    for (const std::string &id : {working, asking}) {
        if (id.empty())
            continue;
        // The server's real answer, fetched raw so both readers see identical bytes.
        Net::HttpClient http;
        Net::HttpRequest request;
        request.url = client.config().url;
        request.headers = {{"Accept", "application/json, text/event-stream"},
                           {"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tasks/get"},
                           {"Mcp-Name", QByteArray::fromStdString(id)}};
        const json message = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tasks/get"},
                              {"params", {{"taskId", id},
                                          {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                                     {"io.modelcontextprotocol/clientCapabilities",
                                                      {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}}}}}};
        request.body = QByteArray::fromStdString(message.dump());
        std::unique_ptr<Net::HttpReply> reply(http.post(request));
        QEventLoop loop;
        QObject::connect(reply.get(), &Net::HttpReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const QByteArray body = reply->readAll();
        const std::string_view view(body.constData(), size_t(body.size()));
        const int rounds = 20000;
        Mcp::TaskState state;
        double t0 = cpuMicros();
        int ok = 0;
        for (int i = 0; i < rounds; ++i) {
            const json doc = json::parse(view.begin(), view.end(), nullptr, false);
            const json result = doc["result"];
            ok += Mcp::TaskState::parse(result, Mcp::Era::Modern, Mcp::TaskState::Source::GetResult).isValid();
        }
        const double full = (cpuMicros() - t0) / rounds;
        t0 = cpuMicros();
        int fast = 0;
        for (int i = 0; i < rounds; ++i)
            fast += Mcp::TaskReplyParser::parseGetResponse(view, 1, id, &state);
        const double sax = (cpuMicros() - t0) / rounds;
        std::printf("reading one %s answer (%lld bytes): full parser %.2f us, SAX reader %.2f us "
                    "(%d/%d and %d/%d parsed)\n",
                    id == working ? "working" : "input_required", static_cast<long long>(body.size()),
                    full, sax, ok, rounds, fast, rounds);
    }
}

void report(const char *name, const PollResult &r)
{
    std::printf("%-34s %8lld round trips in %5.1f s = %8.0f /s, client CPU %6.1f us/round trip, %lld errors\n",
                name, static_cast<long long>(r.roundTrips), r.seconds, double(r.roundTrips) / r.seconds,
                r.roundTrips ? r.cpuUs / double(r.roundTrips) : 0.0, static_cast<long long>(r.errors));
    std::fflush(stdout);
}


// ------------------------------------------------------------------ jobs through an adapter

json toolsJson(const std::vector<Mcp::Tool> &tools)
{
    json out = json::array();
    for (const Mcp::Tool &t : tools) {
        json j{{"name", t.name.toStdString()}, {"inputSchema", t.inputSchema}};
        if (!t.description.isEmpty())
            j["description"] = t.description.toStdString();
        if (!t.outputSchema.is_null())
            j["outputSchema"] = t.outputSchema;
        out.push_back(std::move(j));
    }
    return out;
}

std::optional<Monitor::JobAdapter> proposeAdapter(Mcp::Client &client)
{
    QEventLoop loop;
    json tools;
    Mcp::ToolsJob *job = client.listTools();
    QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] { // the job is gone after
        if (!job->hasError())
            tools = toolsJson(job->tools());
        loop.quit();
    });
    loop.exec();
    if (tools.is_null())
        return std::nullopt;
    return Monitor::AdapterProposer::propose(tools).adapter;
}

// Submits `count` jobs (the same stalled cases as createTasks) through the adapter's submit tool.
std::vector<QString> createJobs(Mcp::Client &client, const Monitor::JobAdapter &a, int count)
{
    std::vector<QString> ids;
    int done = 0;
    QEventLoop loop;
    for (int i = 0; i < count; ++i) {
        const json args = {{"case_name", "bench"}, {"reynolds", 100}, {"grid", 8},
                           {"max_iterations", 10000000}, {"tolerance", 1e-14},
                           {"force_mesh_defect", true}};
        Mcp::CallJob *job = client.callTool(a.submitTool, args);
        QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] {
            const QString id = job->kind() == Mcp::CallJob::Kind::Complete
                                   ? a.jobIdFrom(job->callResult())
                                   : QString();
            if (!id.isEmpty())
                ids.push_back(id);
            if (++done == count)
                loop.quit();
        });
    }
    if (count > 0)
        loop.exec();
    return ids;
}

// The engine's way (JobFollower::poll): the jobs of the server are due on shared ticks; those
// due on a tick share status calls of up to `batch` ids; each answer is read with
// JobAdapter::statusPayload and mapStatus. No backoff, so jobs are polled as often as tasks.
std::function<Poller()> jobPoller(Mcp::Client &client,
                                  const Monitor::JobAdapter &a,
                                  const std::vector<QString> &ids,
                                  int batch,
                                  int intervalMs)
{
    return [&client, &a, &ids, batch, intervalMs] {
        auto last = std::make_shared<std::vector<Mcp::TaskStatus>>(ids.size());
        Poller p;
        p.ticks = Monitor::PollScheduler::Ticks{intervalMs, 1.0, intervalMs, batch};
        p.send = [&client, &a, &ids, batch, last](const QList<qint64> &due, const Settle &settle) {
            int requests = 0;
            for (qsizetype from = 0; from < due.size(); from += batch) {
                const QList<qint64> chunk = due.mid(from, batch);
                QStringList jobIds;
                jobIds.reserve(chunk.size());
                for (qint64 i : chunk)
                    jobIds << ids[size_t(i)];
                ++requests;
                Mcp::CallJob *job = client.callTool(a.statusTool, a.statusArguments(jobIds));
                QObject::connect(job, &Mcp::Job::finished, job, [job, chunk, &a, last, settle] {
                    const bool ok = !job->hasError() && job->kind() == Mcp::CallJob::Kind::Complete
                                    && !job->isToolError();
                    static const json none;
                    json parsed;
                    const json &payload = ok ? a.statusPayload(job->callResult(), parsed) : none;
                    const json &list = chunk.size() > 1
                                           ? Monitor::jsonAt(payload, a.batchResultPointer)
                                           : payload;
                    for (qsizetype k = 0; k < chunk.size(); ++k) {
                        const json &status
                            = chunk.size() > 1
                                  ? (list.is_array() && k < qsizetype(list.size()) ? list[size_t(k)]
                                                                                   : none)
                                  : list;
                        if (!status.is_object()) {
                            settle(chunk[k], false, std::nullopt);
                            continue;
                        }
                        (*last)[size_t(chunk[k])] = a.mapStatus(status).status;
                        settle(chunk[k], true, std::nullopt);
                    }
                });
            }
            return requests;
        };
        return p;
    };
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int runJobBench(const QStringList &args, int count, double seconds)
{
    const qsizetype roundsAt = args.indexOf(QStringLiteral("--rounds"));
    const int rounds = roundsAt >= 0 ? std::max(1, args.value(roundsAt + 1).toInt()) : 3;
    const qsizetype batchAt = args.indexOf(QStringLiteral("--job-batch"));
    const QStringList common{QStringLiteral("--workers"), QStringLiteral("1"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("500"),
                             QStringLiteral("--log-level"), QStringLiteral("error")};
    Test::TestServer taskServer;
    Test::TestServer jobServer;
    if (!taskServer.start(common)
        || !jobServer.start(common + QStringList{QStringLiteral("--no-tasks-extension")})) {
        std::fprintf(stderr, "cannot start eddy-cfd-server: %s %s\n",
                     qPrintable(taskServer.errorString()), qPrintable(jobServer.errorString()));
        return 1;
    }
    Net::HttpClient http;
    Mcp::ServerConfig taskConfig;
    taskConfig.url = QUrl(taskServer.url());
    taskConfig.timeoutMs = 60000;
    Mcp::Client taskClient(taskConfig, &http);
    Mcp::ServerConfig jobConfig = taskConfig;
    jobConfig.url = QUrl(jobServer.url());
    Mcp::Client jobClient(jobConfig, &http);

    const std::optional<Monitor::JobAdapter> adapter = proposeAdapter(jobClient);
    if (!adapter || !adapter->canBatch()) {
        std::fprintf(stderr, "no batching job adapter was proposed for eddy-cfd-server\n");
        return 1;
    }
    const int batch = std::max(1, batchAt >= 0 ? args.value(batchAt + 1).toInt() : adapter->maxBatch);
    std::printf("adapter: %s -> %s, up to %d ids a call\n", qPrintable(adapter->submitTool),
                qPrintable(adapter->statusTool), batch);
    const std::vector<std::string> tasks = createTasks(taskClient, count, 32);
    const std::vector<QString> jobs = createJobs(jobClient, *adapter, count);
    if (tasks.size() != size_t(count) || jobs.size() != size_t(count)) {
        std::fprintf(stderr, "created %zu tasks and %zu jobs of %d\n", tasks.size(), jobs.size(), count);
        return 1;
    }
    std::vector<double> taskUs, jobUs;
    for (int round = 0; round < rounds; ++round) {
        const PacedResult t = pollPaced(tasks.size(), 500, seconds, taskPoller(taskClient, tasks));
        const PacedResult j = pollPaced(
            jobs.size(), 500, seconds, jobPoller(jobClient, *adapter, jobs, batch, 500));
        const double tu = t.poll.roundTrips ? t.poll.cpuUs / double(t.poll.roundTrips) : 0;
        const double ju = j.poll.roundTrips ? j.poll.cpuUs / double(j.poll.roundTrips) : 0;
        taskUs.push_back(tu);
        jobUs.push_back(ju);
        std::printf(
            "round %d: tasks/get %6.1f us/poll (%lld / %lld served); job status %6.1f us/poll "
            "(%lld / %lld served in %lld calls, up to %d ids each, %lld errors); load %.1f\n",
            round + 1,
            tu,
            static_cast<long long>(t.poll.roundTrips),
            static_cast<long long>(t.asked),
            ju,
            static_cast<long long>(j.poll.roundTrips),
            static_cast<long long>(j.asked),
            static_cast<long long>(j.requests),
            batch,
            static_cast<long long>(j.poll.errors),
            Bench::loadAverage());
        std::fflush(stdout);
    }
    Bench::Result r;
    r.bench = "client";
    r.what = "Client CPU per job status poll through the job adapter / per tasks/get poll, "
             + std::to_string(count) + " each every 500 ms";
    r.unit = "×";
    r.decimals = 2;
    r.target = "<=2";
    r.how = "bench_client --jobs " + std::to_string(count) + " --paced-seconds "
            + std::to_string(int(seconds)) + " --rounds " + std::to_string(rounds)
            + (batchAt >= 0 ? " --job-batch " + std::to_string(batch) : std::string());
    const double tm = median(taskUs);
    const double jm = median(jobUs);
    if (tm > 0 && jm > 0) {
        r.value = jm / tm;
        char shown[200];
        std::snprintf(shown, sizeof shown, "%.2f× (job %.1f µs, tasks/get %.1f µs, medians of %d)",
                      *r.value, jm, tm, rounds);
        r.shown = shown;
    } else {
        r.why = "no polls were served";
    }
    Bench::printResult(r);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.debug=false\neddy.*.info=false"));
    Net::initGlobal();
    const bool quick = app.arguments().contains(QStringLiteral("--quick"));
    if (qEnvironmentVariableIsEmpty("EDDY_SERVER_BIN"))
        qputenv("EDDY_SERVER_BIN", EDDY_BENCH_SERVER_BIN);
    if (const qsizetype jobsAt = app.arguments().indexOf(QStringLiteral("--jobs")); jobsAt >= 0) {
        const qsizetype secondsAt = app.arguments().indexOf(QStringLiteral("--paced-seconds"));
        const double s = secondsAt >= 0 ? std::max(1.0, app.arguments().value(secondsAt + 1).toDouble())
                                        : 10.0;
        return runJobBench(app.arguments(), std::max(1, app.arguments().value(jobsAt + 1).toInt()), s);
    }

    Test::TestServer server;
    if (!server.start({QStringLiteral("--workers"), QStringLiteral("1"),
                       QStringLiteral("--poll-interval-ms"), QStringLiteral("500"),
                       QStringLiteral("--log-level"), QStringLiteral("error")})) {
        std::fprintf(stderr, "cannot start eddy-cfd-server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    Net::HttpClient http;
    Mcp::ServerConfig config;
    config.url = QUrl(server.url());
    config.timeoutMs = 60000;
    Mcp::Client client(config, &http);

    const double seconds = quick ? 2.0 : 5.0;
    const qsizetype pacedAt = app.arguments().indexOf(QStringLiteral("--paced-seconds"));
    const double pacedSeconds = pacedAt >= 0 ? std::max(1.0, app.arguments().value(pacedAt + 1).toDouble())
                                : quick      ? 4.0
                                             : 10.0;
    const bool flat = !app.arguments().contains(QStringLiteral("--no-flat"));
    std::vector<int> counts{1, 100, 1000, 10000};
    const qsizetype at = app.arguments().indexOf(QStringLiteral("--tasks"));
    const bool rowsOnly = at >= 0; // only the asked rows: no parse-cost or heap sections
    if (rowsOnly) {
        counts.clear();
        for (const QString &n : app.arguments().value(at + 1).split(QLatin1Char(','), Qt::SkipEmptyParts))
            counts.push_back(n.toInt());
        std::sort(counts.begin(), counts.end());
        if (counts.empty() || counts.front() <= 0) {
            std::fprintf(stderr, "--tasks needs a comma-separated list of task counts, e.g. --tasks 100,1000\n");
            return 2;
        }
    }
    std::vector<std::string> ids;
    for (int count : counts) {
        if (quick && count == 10000)
            count = 2000;
        QElapsedTimer t;
        t.start();
        const std::vector<std::string> more = createTasks(client, count - int(ids.size()), 32);
        ids.insert(ids.end(), more.begin(), more.end());
        std::printf("\n== %d live tasks (created %zu more in %.1f s)\n", count, more.size(),
                    double(t.elapsed()) / 1000.0);
        if (ids.size() != size_t(count))
            return 1;
        const double loadBefore = Bench::loadAverage();
        const PacedResult p = pollPaced(ids.size(), 500, pacedSeconds, taskPoller(client, ids));
        std::printf("paced, every task each 500 ms: %lld / %lld polls served, %lld timer wake-ups, "
                    "client CPU %6.1f us/poll, RSS %.1f MiB, heap %.0f B per tracked task, %lld errors, "
                    "load %.1f-%.1f\n",
                    static_cast<long long>(p.poll.roundTrips), static_cast<long long>(p.asked),
                    static_cast<long long>(p.wakeUps),
                    p.poll.roundTrips ? p.poll.cpuUs / double(p.poll.roundTrips) : 0.0,
                    double(p.rssKiB) / 1024.0, p.heapPerTask, static_cast<long long>(p.poll.errors),
                    loadBefore, Bench::loadAverage());
        std::fflush(stdout);
        if (count == 100) {
            Bench::Result r;
            r.bench = "client";
            r.what = "Client CPU per poll, 100 tasks every 500 ms (Mcp::Client, paced like the engine)";
            r.unit = "µs";
            r.target = "<=50";
            r.how = "bench_client --tasks 100 --no-flat --paced-seconds " + std::to_string(int(pacedSeconds));
            if (p.poll.roundTrips >= 100) {
                r.value = p.poll.cpuUs / double(p.poll.roundTrips);
                char shown[160];
                std::snprintf(shown, sizeof shown, "%.1f µs (%lld / %lld polls served in %.0f s)", *r.value,
                              static_cast<long long>(p.poll.roundTrips), static_cast<long long>(p.asked),
                              pacedSeconds);
                r.shown = shown;
            } else {
                r.why = "only " + std::to_string(p.poll.roundTrips) + " polls served";
            }
            Bench::printResult(r);
        }
        if (flat && count <= 1000)
            report("flat out, 16 requests in flight", pollFlat(client, ids, 16, seconds));
    }
    if (rowsOnly) {
        std::printf("connections opened: %lld\n", static_cast<long long>(http.connectionsOpened()));
        return 0;
    }
    {
        // A working task: one without the forced mesh defect, slowed by a tight tolerance.
        std::string working;
        const json args = {{"case_name", "bench-working"}, {"reynolds", 100}, {"grid", 64},
                           {"max_iterations", 10000000}, {"tolerance", 1e-14}};
        QEventLoop loop;
        Mcp::CallJob *job = client.callTool(QStringLiteral("run_cfd_case"), args);
        QObject::connect(job, &Mcp::Job::finished, &loop, [&] {
            if (job->kind() == Mcp::CallJob::Kind::Task)
                working = job->task().taskId;
            loop.quit();
        });
        loop.exec();
        parseCost(client, working, ids.front());
        if (!working.empty())
            client.cancelTask(working);
    }
    std::printf("connections opened: %lld\n", static_cast<long long>(http.connectionsOpened()));

    // Heap held per tracked task: the TaskState of each task as last returned by tasks/get.
    {
        const std::vector<std::string> ids = createTasks(client, quick ? 200 : 1000, 32);
        std::vector<Mcp::TaskState> states;
        states.reserve(ids.size());
        QEventLoop loop;
        size_t done = 0;
        for (const std::string &id : ids) {
            Mcp::TaskJob *job = client.getTask(id);
            QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] {
                if (!job->hasError())
                    states.push_back(job->state());
                if (++done == ids.size())
                    loop.quit();
            });
        }
        loop.exec();
        // Measure a deep copy, so transfer buffers and pooled curl handles are not counted.
        malloc_trim(0);
        const size_t before = heapInUse();
        auto copy = std::make_unique<std::vector<Mcp::TaskState>>(states);
        const size_t after = heapInUse();
        std::printf("\nheap per tracked task state: %.0f bytes (%zu states as returned by tasks/get, with "
                    "statusMessage and any inputRequests form)\n",
                    double(after - before) / double(copy->size()), copy->size());
        {
            Bench::Result r;
            r.bench = "client";
            r.what = "Heap per tracked task state, elicitation form pending (bench_client)";
            r.unit = "B";
            r.decimals = 0;
            r.target = "<=2048";
            r.how = quick ? "bench_client --quick" : "bench_client";
            if (copy->empty())
                r.why = "no task state was read back";
            else
                r.value = double(after - before) / double(copy->size());
            Bench::printResult(r);
        }
        size_t withForms = 0;
        for (Mcp::TaskState &st : *copy) {
            withForms += st.inputRequests.is_null() ? 0 : 1;
            st.inputRequests = nullptr;
        }
        copy.reset();
        malloc_trim(0);
        const size_t base = heapInUse();
        std::vector<Mcp::TaskState> lean(states.size());
        for (size_t i = 0; i < states.size(); ++i) {
            lean[i] = states[i];
            lean[i].inputRequests = nullptr;
        }
        const size_t leanAfter = heapInUse();
        std::printf("heap per tracked task state without the form: %.0f bytes (%zu of %zu had one)\n",
                    double(leanAfter - base) / double(lean.size()), withForms, lean.size());
    }
    return 0;
}
