// bench_streamed: client CPU per streamed progress notification. One tools/call of
// server-everything's trigger-long-running-operation (an SSE stream of notifications/progress,
// no task) on loopback, measured twice with getrusage (user + sys of this process):
// - "client": Mcp::Client alone, counting notifications (HTTP, SSE and JSON parsing);
// - "engine": the whole monitor (Engine + TaskStore on a temporary SQLite file): each
//   notification parsed into a status message, progress samples and one stored transaction.
// Run by hand: build/bench/client/bench_streamed [--steps N] [--seconds S]; needs Node.js (EDDY_NODE
// or node on PATH) and tests/interop/node_modules (.ci/install-deps). Numbers go to
// docs/performance.md (Client section). Not a test: nothing here asserts speed.

#include "procstats.h"

#include "app/mcp/client.h"
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>

#include <cstdio>

using namespace Eddy;
using nlohmann::json;

namespace {

double cpuMicros()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6
           + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

QString startServer(QProcess &p)
{
    QString node = qEnvironmentVariable("EDDY_NODE");
    if (node.isEmpty())
        node = QStandardPaths::findExecutable(QStringLiteral("node"));
    p.start(node, {QStringLiteral(EDDY_BENCH_SOURCE_DIR "/tests/interop/everything-server.mjs"),
                   QStringLiteral("--exit-on-stdin-close")});
    if (!p.waitForStarted(10000))
        return {};
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(500);
        out += p.readAllStandardOutput();
        const qsizetype at = out.indexOf("listening on ");
        const qsizetype end = out.indexOf('\n', at);
        if (at >= 0 && end > at)
            return QString::fromUtf8(out.mid(at + 13, end - at - 13)).trimmed();
    }
    return {};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.info=false\neddy.*.debug=false"));
    int steps = 2000;
    double seconds = 4;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps"))
            steps = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--seconds"))
            seconds = args[i + 1].toDouble();
    }
    QProcess server;
    const QString url = startServer(server);
    if (url.isEmpty()) {
        std::fprintf(stderr, "bench_streamed: cannot start everything-server.mjs (node, and "
                             "tests/interop/node_modules from .ci/install-deps)\n");
        return 1;
    }
    const json callArgs{{"duration", seconds}, {"steps", steps}};
    std::printf("streamed call: %d progress notifications over %.1f s, load %.2f\n", steps, seconds,
                Bench::loadAverage());

    { // the client alone
        Net::HttpClient http;
        Mcp::ServerConfig config;
        config.url = QUrl(url);
        Mcp::Client client(config, &http);
        int notes = 0;
        Mcp::CallOptions options;
        options.onNotification = [&notes](const json &) { ++notes; };
        options.onStreamOpened = [] {};
        QEventLoop loop;
        Mcp::ToolsJob *tools = client.listTools();
        QObject::connect(tools, &Mcp::Job::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const double cpu0 = cpuMicros();
        Mcp::CallJob *job = client.callTool(QStringLiteral("trigger-long-running-operation"), callArgs, options);
        QObject::connect(job, &Mcp::Job::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const double cpu = cpuMicros() - cpu0;
        std::printf("client: %d notifications, %s, %.1f us CPU per notification\n", notes,
                    job->hasError() ? "call failed" : "result received", cpu / std::max(1, notes));
    }
    { // the whole monitor: engine and store
        QTemporaryDir dir;
        Monitor::Engine engine;
        engine.setBatchIntervalMs(30);
        if (!engine.open(dir.filePath(QStringLiteral("bench.sqlite"))))
            return 1;
        int samples = 0, changes = 0;
        QObject::connect(&engine, &Monitor::Engine::changesReady, &engine,
                         [&](const Monitor::ChangeSet &c) {
                             samples += int(c.samples.size());
                             ++changes;
                         });
        const qint64 serverId = engine.addServer(url);
        QEventLoop loop;
        QObject::connect(&engine, &Monitor::Engine::toolsChanged, &loop, &QEventLoop::quit);
        engine.refreshServer(serverId);
        loop.exec();
        const double cpu0 = cpuMicros();
        bool ok = false;
        QObject::connect(&engine, &Monitor::Engine::taskFinished, &loop,
                         [&](const Store::TaskRecord &t) {
                             ok = t.status == Store::TaskStatus::Completed;
                             loop.quit();
                         });
        QObject::connect(&engine, &Monitor::Engine::caseRejected, &loop, &QEventLoop::quit);
        engine.callOnce(serverId, QStringLiteral("trigger-long-running-operation"),
                        QByteArray::fromStdString(callArgs.dump()), std::nullopt);
        loop.exec();
        const double cpu = cpuMicros() - cpu0;
        std::printf("engine: %s, %d samples in %d change sets, %.1f us CPU per notification "
                    "(stored: message, event, samples)\n",
                    ok ? "completed" : "did not complete", samples, changes, cpu / std::max(1, steps));
    }
    server.closeWriteChannel();
    server.waitForFinished(5000);
    return 0;
}
