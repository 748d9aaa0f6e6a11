// eddy-cfd-server: the reference MCP Tasks server. main() parses flags, opens the store, starts
// the task manager and the HTTP endpoint, prints the ready line, and on SIGTERM/SIGINT stops
// accepting, checkpoints running cases and exits 0.

#include "server/httplibfrontend.h"
#include "server/httpserver.h"
#include "server/legacysession.h"
#include "server/log.h"
#include "server/mcphandler.h"
#include "server/oauth.h"
#include "server/pollstats.h"
#include "server/replicaids.h"
#include "server/serveroptions.h"
#include "server/slurmbackend.h"
#include "server/taskmanager.h"
#include "server/taskstore.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <pthread.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>

using namespace Eddy::Server;

namespace {

constexpr std::size_t kMaxBody = 4 * 1024 * 1024;

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    ServerOptions options;
    std::string error;
    switch (ServerOptions::parse(args, options, error)) {
    case ServerOptions::ParseResult::Help:
        std::cout << ServerOptions::usage();
        return 0;
    case ServerOptions::ParseResult::Error:
        std::cerr << "eddy-cfd-server: " << error << "\n";
        return 2;
    case ServerOptions::ParseResult::Run:
        break;
    }
    Log::setLevel(options.logLevel);
    // Solver fields (a few MB each on a large grid) are mapped and given back when a case ends.
    // With glibc's default the threshold rises to the largest block freed, and from then on the
    // fields of every large case stayed in the worker threads' arenas: the server grew by about
    // 15 MB with each pair of grid-512 cases (bench/soak; tst_servermemory).
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    // One arena for every thread. glibc gives each thread that allocates while another holds the
    // lock an arena of its own (up to 8 per core), and each arena keeps the pages its freed
    // chunks leave partly used, which malloc_trim cannot give back: over the hours of the soak
    // the RSS low of each 2 minutes rose 1 MB per 10-minute lifetime while the heap in use stayed
    // flat. The threads are a few workers, each request's and each open stream's, mostly waiting
    // on sockets, the solver or SQLite, so one lock costs them little (docs/soak.md).
    mallopt(M_ARENA_MAX, 1);
    ::umask(077); // the data folder holds token hashes and task ids
    // Every kept-alive poller holds a socket: allow as many as the hard limit permits.
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }

    // Signals are taken by one thread with sigwait, so every other thread must block them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    std::error_code ec;
    std::filesystem::create_directories(options.dataDir, ec);
    if (ec || !std::filesystem::is_directory(options.dataDir)) {
        std::cerr << "eddy-cfd-server: cannot create the data folder '" << options.dataDir
                  << "': " << ec.message() << "; pass a writable folder with --data-dir\n";
        return 1;
    }
    TaskStore store;
    if (!store.open((std::filesystem::path(options.dataDir) / "tasks.sqlite").string(), error)) {
        std::cerr << "eddy-cfd-server: " << error << "\n";
        return 1;
    }
    ReplicaIds replicaIds; // outlives tasks
    if (!options.replicaKeyFile.empty() && !replicaIds.loadKey(options.replicaKeyFile, error)) {
        std::cerr << "eddy-cfd-server: " << error << "\n";
        return 1;
    }
    std::unique_ptr<SlurmBackend> slurm; // outlives tasks: its shutdown stops the backend
    TaskManager tasks(store, options);
    if (replicaIds.enabled())
        tasks.setReplicaIds(&replicaIds);
    if (options.backend == "slurm") {
        slurm = std::make_unique<SlurmBackend>(tasks, options);
        tasks.setBackend(slurm.get());
    }
    if (!tasks.start(error)) {
        std::cerr << "eddy-cfd-server: " << error << "\n";
        return 1;
    }
    std::unique_ptr<PollStats> pollStats;
    if (!options.statsFile.empty()) {
        pollStats = std::make_unique<PollStats>(tasks, options.statsFile);
        pollStats->start();
    }
    LegacySession sessions;
    McpHandler handler(tasks, sessions, options);

    // Both front ends take the same handler; --http-engine picks one (docs/server.md).
    const auto handle = [&handler](const HttpRequest &req, HttpResponse &res) { handler.handle(req, res); };
    // With OAuth a request may fetch the issuer's keys again: none is served on the event thread.
    const bool oauth = !options.oauthIssuer.empty();
    const auto fastPath = [oauth](const HttpRequest &req) { return !oauth && McpHandler::isFastPath(req); };
    OAuthResourceServer oauthServer; // outlives handler's use of it (the front ends stop first)
    std::unique_ptr<HttpServer> epollServer;
    std::unique_ptr<HttplibFrontend> httplibServer;
    int port = -1;
    if (options.httpEngine == "httplib") {
        httplibServer = std::make_unique<HttplibFrontend>(handle, fastPath,
                                                          &McpHandler::fillError, kMaxBody);
        httplibServer->setRequestTimeout(std::chrono::milliseconds(options.requestTimeoutMs));
        port = httplibServer->bind(options.host, options.port, error);
    } else {
        epollServer = std::make_unique<HttpServer>(handle, fastPath,
                                                   &McpHandler::fillError, kMaxBody);
        epollServer->setRequestTimeout(std::chrono::milliseconds(options.requestTimeoutMs));
        port = epollServer->bind(options.host, options.port, error);
    }
    if (port < 0) {
        std::cerr << "eddy-cfd-server: " << error << "\n";
        return 1;
    }
    const std::string host = options.host.find(':') != std::string::npos
                                 ? "[" + options.host + "]"
                                 : options.host;
    if (oauth) {
        // The issuer must answer now: a server that cannot check tokens refuses to start rather
        // than refuse every request later (docs/server-auth.md).
        OAuthResourceServer::Config config;
        config.issuer = options.oauthIssuer;
        config.audience = options.oauthAudience.empty()
                              ? "http://" + host + ":" + std::to_string(port) + "/mcp"
                              : options.oauthAudience;
        config.scopes = options.oauthScopes;
        config.leewayS = options.oauthLeewayS;
        if (!oauthServer.start(config, error)) {
            std::cerr << "eddy-cfd-server: " << error << "\n";
            tasks.shutdown();
            return 1;
        }
        handler.setOAuth(&oauthServer);
    }

    std::thread signalThread([&] {
        int received = 0;
        sigwait(&signals, &received);
        Log::info(std::string("received ") + (received == SIGINT ? "SIGINT" : "SIGTERM")
                  + ": checkpointing running cases and stopping");
        handler.beginShutdown();
        tasks.shutdown();
        if (epollServer)
            epollServer->stop();
        else
            httplibServer->stop();
    });

    std::printf("eddy-cfd-server listening on http://%s:%d/mcp\n", host.c_str(), port);
    std::fflush(stdout);
    Log::info("serving with " + (slurm ? std::string("the Slurm backend") : std::to_string(options.workers) + " solver workers") + ", data in "
              + options.dataDir + (options.token.empty() ? "" : ", bearer token required")
              + (oauth ? ", OAuth access tokens required" : ""));

    if (epollServer)
        epollServer->run();
    else
        httplibServer->run();
    // Wake the signal thread if the event loop ended on its own.
    pthread_kill(signalThread.native_handle(), SIGTERM);
    signalThread.join();
    tasks.shutdown();
    if (pollStats)
        pollStats->stop();
    Log::info("stopped");
    return 0;
}
