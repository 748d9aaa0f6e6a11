// bench_openfoam: what eddy-cfd-server adds on top of OpenFOAM, and what reading a log costs.
//   overhead - the pitzDaily tutorial (12,225 cells; blockMesh, checkMesh, simpleFoam, converged
//              in 282 iterations) run by hand in a temporary folder (cp -r, gunzip -r, then each
//              utility with its output in log.<utility>, in the environment the server gives its
//              steps: FoamCase::environment) and through run_openfoam_case on a fresh server, in
//              turns for --rounds N pairs (default 3; who goes first alternates). Rows: wall time
//              through the server over by hand (median of the pairs' ratios, their range), and
//              the server process's own CPU per run (its CPU clock, every thread) against
//              OpenFOAM's CPU by hand (getrusage of the reaped children).
//   parse    - the log.simpleFoam of a by-hand run fed to FoamLog (server/foamlog.cpp) in 64 KiB
//              reads, as the server follows a solver, repeated to at least 50 MB: ns per line and
//              MB/s, best of 5 passes.
// Usage: bench_openfoam [overhead|parse|all] [--rounds N]; EDDY_SERVER_BIN must point at
// eddy-cfd-server. Without OpenFOAM every row says so ("not measured") and the exit status is 0.
// Verdict rows are RESULT lines (bench/common/benchresult.h, read by bench/run-all.sh).
#include "benchresult.h"

#include "server/foamcase.h"
#include "server/foamlog.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <vector>

using nlohmann::json;

namespace {

const char *const kTutorial = "incompressible/simpleFoam/pitzDaily";

struct Run
{
    bool ok = false;
    QString why;       // when not ok
    double wallS = 0;
    double cpuS = 0;   // by hand: OpenFOAM's CPU; through the server: the server process's own
    double childCpuS = 0; // through the server: every process it started and reaped (OpenFOAM)
    int iterations = 0;
};

double childrenCpuS()
{
    rusage r{};
    getrusage(RUSAGE_CHILDREN, &r);
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

// CPU of the children a process has reaped (cutime + cstime of /proc/PID/stat, in ticks).
double reapedChildrenCpuS(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = stat.readAll();
    // The command name is in parentheses and may hold spaces: fields restart after the last ')'.
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 15)
        return -1;
    // Fields 16 and 17 of the line (cutime, cstime) are 13 and 14 after the state (field 3).
    return double(fields[13].toLongLong() + fields[14].toLongLong()) / double(sysconf(_SC_CLK_TCK));
}

double processCpuS(qint64 pid)
{
    clockid_t clock;
    timespec ts{};
    if (clock_getcpuclockid(pid_t(pid), &clock) == 0 && clock_gettime(clock, &ts) == 0)
        return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    return -1;
}

// One command to its end in dir, output to logPath (when given); false and why on failure.
bool runCommand(const QString &program, const QStringList &args, const QString &dir,
                const QProcessEnvironment &env, const QString &logPath, QString &why)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setStandardOutputFile(logPath.isEmpty() ? QProcess::nullDevice() : logPath);
    p.start(program, args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        why = program + QStringLiteral(" failed (exit code %1)").arg(p.exitCode());
        return false;
    }
    return true;
}

// pitzDaily as an engineer runs it by hand: copy, unpack, blockMesh, checkMesh, simpleFoam.
Run byHand(const Eddy::Server::FoamCase::Installation &foam, const QString &caseDir)
{
    Run run;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const std::string &entry : Eddy::Server::FoamCase::environment(foam)) {
        const auto eq = entry.find('=');
        env.insert(QString::fromStdString(entry.substr(0, eq)), QString::fromStdString(entry.substr(eq + 1)));
    }
    const QString tutorial = QString::fromStdString(foam.tutorials) + QLatin1Char('/') + QLatin1String(kTutorial);
    const double cpu0 = childrenCpuS();
    QElapsedTimer wall;
    wall.start();
    if (!runCommand(QStringLiteral("cp"), {QStringLiteral("-r"), tutorial, caseDir}, QDir::tempPath(), env, {}, run.why)
        || !runCommand(QStringLiteral("gunzip"), {QStringLiteral("-r"), caseDir}, caseDir, env, {}, run.why))
        return run;
    for (const QString &utility : {QStringLiteral("blockMesh"), QStringLiteral("checkMesh"), QStringLiteral("simpleFoam")})
        if (!runCommand(utility, {}, caseDir, env, caseDir + QStringLiteral("/log.") + utility, run.why))
            return run;
    run.wallS = double(wall.nsecsElapsed()) / 1e9;
    run.cpuS = childrenCpuS() - cpu0;
    QFile log(caseDir + QStringLiteral("/log.simpleFoam"));
    log.open(QIODevice::ReadOnly);
    Eddy::Server::FoamLog parsed;
    parsed.feed(log.readAll().toStdString());
    run.iterations = parsed.convergedIterations();
    run.ok = parsed.converged();
    if (!run.ok)
        run.why = QStringLiteral("simpleFoam did not converge by hand");
    return run;
}

// The same case through run_openfoam_case: from tools/call until tasks/get (every 100 ms) says
// it ended.
Run throughServer(Eddy::Test::TestServer &server)
{
    Run run;
    Eddy::Test::McpTestClient client(server.url());
    const double cpu0 = processCpuS(server.pid());
    const double children0 = reapedChildrenCpuS(server.pid());
    QElapsedTimer wall;
    wall.start();
    const json created = client.request("tools/call", {{"name", "run_openfoam_case"},
                                                       {"arguments", {{"template", "pitzDaily"}}}}).result();
    const std::string id = created.value("taskId", "");
    if (id.empty()) {
        run.why = QStringLiteral("run_openfoam_case was refused: ") + QString::fromStdString(created.dump()).left(200);
        return run;
    }
    json task;
    while (true) {
        task = client.getTask(id).result();
        if (Eddy::Test::McpTestClient::isTerminal(task) || task.value("status", "") == "input_required"
            || wall.elapsed() > 600000)
            break;
        QThread::msleep(100);
    }
    run.wallS = double(wall.nsecsElapsed()) / 1e9;
    run.cpuS = processCpuS(server.pid()) - cpu0;
    run.childCpuS = reapedChildrenCpuS(server.pid()) - children0;
    const json &s = task["result"]["structuredContent"];
    run.ok = task.value("status", "") == "completed" && s.value("outcome", "") == "converged";
    run.iterations = s.value("time_steps", 0);
    if (!run.ok)
        run.why = QStringLiteral("the server's run did not converge: ") + QString::fromStdString(task.value("statusMessage", ""));
    return run;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void result(const std::string &what, std::optional<double> value, int decimals, const std::string &unit,
            const std::string &shown, const std::string &why, const std::string &how)
{
    Bench::Result r;
    r.bench = "openfoam";
    r.what = what;
    r.value = value;
    r.decimals = decimals;
    r.unit = unit;
    r.shown = shown;
    r.why = why;
    r.how = how;
    Bench::printResult(r);
}

const char *const kOverheadWhat
    = "pitzDaily (blockMesh, checkMesh, simpleFoam) through run_openfoam_case over the same commands by hand, wall time";
const char *const kCpuWhat = "eddy-cfd-server's own CPU per pitzDaily run through run_openfoam_case";
const char *const kCpuRatioWhat = "pitzDaily's CPU through run_openfoam_case (the server and every process it started) over OpenFOAM's by hand";
const char *const kParseWhat = "Reading a solver log (FoamLog, pitzDaily's log.simpleFoam in 64 KiB reads), per line";

std::string fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals).toStdString();
}

// Runs the pairs; leaves the last by-hand case folder's log in lastLog for the parse bench.
void overhead(const Eddy::Server::FoamCase::Installation &foam, int rounds, QByteArray &lastLog)
{
    const std::string how = "bench_openfoam overhead --rounds " + std::to_string(rounds);
    Eddy::Test::TestServer server;
    if (!server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("100")})) {
        const std::string why = "the server did not start: " + server.errorString().toStdString();
        result(kOverheadWhat, std::nullopt, 2, "×", "", why, how);
        result(kCpuWhat, std::nullopt, 0, "ms", "", why, how);
        result(kCpuRatioWhat, std::nullopt, 2, "×", "", why, how);
        return;
    }
    std::vector<Run> hand, served;
    std::vector<double> ratios;
    QString failure;
    for (int i = 0; i < rounds && failure.isEmpty(); ++i) {
        QTemporaryDir work;
        const QString caseDir = work.filePath(QStringLiteral("pitzDaily"));
        Run h, s;
        if (i % 2 == 0) {
            h = byHand(foam, caseDir);
            s = throughServer(server);
        } else {
            s = throughServer(server);
            h = byHand(foam, caseDir);
        }
        if (!h.ok || !s.ok) {
            failure = !h.ok ? h.why : s.why;
            break;
        }
        QFile log(caseDir + QStringLiteral("/log.simpleFoam"));
        if (log.open(QIODevice::ReadOnly))
            lastLog = log.readAll();
        hand.push_back(h);
        served.push_back(s);
        ratios.push_back(s.wallS / h.wallS);
        std::fprintf(stderr, "round %d: by hand %.2f s (OpenFOAM CPU %.2f s, %d iterations), through the server "
                             "%.2f s (server CPU %.3f s, its children %.2f s, %d iterations): %.3f×\n",
                     i + 1, h.wallS, h.cpuS, h.iterations, s.wallS, s.cpuS, s.childCpuS, s.iterations,
                     ratios.back());
    }
    if (!failure.isEmpty()) {
        result(kOverheadWhat, std::nullopt, 2, "×", "", failure.toStdString(), how);
        result(kCpuWhat, std::nullopt, 0, "ms", "", failure.toStdString(), how);
        result(kCpuRatioWhat, std::nullopt, 2, "×", "", failure.toStdString(), how);
        return;
    }
    std::vector<double> handWall, servedWall, serverCpu, foamCpu, servedCpu, cpuRatios;
    for (std::size_t i = 0; i < hand.size(); ++i) {
        handWall.push_back(hand[i].wallS);
        servedWall.push_back(served[i].wallS);
        serverCpu.push_back(served[i].cpuS * 1000);
        foamCpu.push_back(hand[i].cpuS);
        servedCpu.push_back(served[i].cpuS + served[i].childCpuS);
        cpuRatios.push_back(servedCpu.back() / hand[i].cpuS);
    }
    const auto [rmin, rmax] = std::minmax_element(ratios.begin(), ratios.end());
    result(kOverheadWhat, median(ratios), 2, "×",
           "median of " + std::to_string(rounds) + " pairs " + fixed(median(ratios), 2) + "× (" + fixed(*rmin, 2) + "–"
               + fixed(*rmax, 2) + "×); by hand median " + fixed(median(handWall), 2) + " s, through the server "
               + fixed(median(servedWall), 2) + " s; " + std::to_string(served.back().iterations) + " iterations",
           "", how);
    const auto [cmin, cmax] = std::minmax_element(serverCpu.begin(), serverCpu.end());
    result(kCpuWhat, median(serverCpu), 0, "ms",
           "median " + fixed(median(serverCpu), 0) + " ms (" + fixed(*cmin, 0) + "–" + fixed(*cmax, 0)
               + " ms) per run; OpenFOAM's own CPU by hand " + fixed(median(foamCpu), 2) + " s: "
               + fixed(median(serverCpu) / 10 / median(foamCpu), 2) + " % of it",
           "", how);
    const auto [qmin, qmax] = std::minmax_element(cpuRatios.begin(), cpuRatios.end());
    result(kCpuRatioWhat, median(cpuRatios), 2, "×",
           "median of " + std::to_string(rounds) + " pairs " + fixed(median(cpuRatios), 2) + "× (" + fixed(*qmin, 2)
               + "–" + fixed(*qmax, 2) + "×); through the server " + fixed(median(servedCpu), 2) + " s, by hand "
               + fixed(median(foamCpu), 2) + " s",
           "", how);
}

void parse(const QByteArray &log)
{
    const std::string how = "bench_openfoam parse";
    if (log.isEmpty()) {
        result(kParseWhat, std::nullopt, 0, "ns", "", "no solver log: the pitzDaily run by hand failed", how);
        return;
    }
    const std::string one = log.toStdString();
    const std::size_t linesPerCopy = std::size_t(std::count(one.begin(), one.end(), '\n'));
    const int copies = int(50e6 / double(one.size())) + 1;
    double best = 1e9;
    int steps = 0;
    for (int pass = 0; pass < 5; ++pass) {
        Eddy::Server::FoamLog parsed;
        const auto start = std::chrono::steady_clock::now();
        for (int c = 0; c < copies; ++c)
            for (std::size_t at = 0; at < one.size(); at += 65536)
                parsed.feed(std::string_view(one).substr(at, 65536));
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        steps = parsed.steps();
    }
    const double lines = double(linesPerCopy) * copies;
    const double bytes = double(one.size()) * copies;
    result(kParseWhat, best / lines * 1e9, 0, "ns",
           fixed(best / lines * 1e9, 0) + " ns per line = " + fixed(bytes / best / 1e6, 0) + " MB/s ("
               + fixed(bytes / 1e6, 1) + " MB: " + std::to_string(copies) + " copies of a "
               + std::to_string(steps / copies) + "-iteration log, " + fixed(lines / 1e6, 2)
               + " M lines; best of 5 passes)",
           "", how);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString mode = QStringLiteral("all");
    int rounds = 3;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rounds") && i + 1 < args.size()) {
            rounds = std::max(1, args[++i].toInt());
        } else if (args[i] == QLatin1String("overhead") || args[i] == QLatin1String("parse")
                   || args[i] == QLatin1String("all")) {
            mode = args[i];
        } else {
            std::fprintf(stderr, "usage: bench_openfoam [overhead|parse|all] [--rounds N]\n");
            return args[i] == QLatin1String("--help") || args[i] == QLatin1String("-h") ? 0 : 2;
        }
    }
    const Eddy::Server::FoamCase::Installation &foam = Eddy::Server::FoamCase::installation();
    if (!foam.ok() || foam.tutorials.empty()) {
        const std::string why = "OpenFOAM is not installed (apt-get install openfoam openfoam-examples): " + foam.error;
        if (mode != QLatin1String("parse")) {
            result(kOverheadWhat, std::nullopt, 2, "×", "", why, "bench_openfoam overhead");
            result(kCpuWhat, std::nullopt, 0, "ms", "", why, "bench_openfoam overhead");
            result(kCpuRatioWhat, std::nullopt, 2, "×", "", why, "bench_openfoam overhead");
        }
        if (mode != QLatin1String("overhead"))
            result(kParseWhat, std::nullopt, 0, "ns", "", why, "bench_openfoam parse");
        return 0;
    }
    QByteArray log;
    if (mode == QLatin1String("parse")) {
        QTemporaryDir work;
        const Run h = byHand(foam, work.filePath(QStringLiteral("pitzDaily")));
        QFile f(work.filePath(QStringLiteral("pitzDaily/log.simpleFoam")));
        if (h.ok && f.open(QIODevice::ReadOnly))
            log = f.readAll();
    } else {
        overhead(foam, rounds, log);
    }
    if (mode != QLatin1String("overhead"))
        parse(log);
    return 0;
}
