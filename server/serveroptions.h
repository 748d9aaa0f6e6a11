#pragma once

// Command-line options of eddy-cfd-server, parsed once in main() before any thread starts.

#include "server/log.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Eddy::Server {

struct ServerOptions
{
    std::string host = "127.0.0.1";
    int port = 0;                      // 0: the kernel picks a free port
    std::string dataDir = "eddy-data"; // SQLite database and case files
    int workers = 1;                   // solver threads
    std::string token;                 // empty: no authentication
    // OAuth 2.1 resource server (server/oauth.h, docs/server-auth.md); off when oauthIssuer is
    // empty. oauthAudience empty: the server's own MCP URL http://HOST:PORT/mcp.
    std::string oauthIssuer;
    std::string oauthAudience;
    std::vector<std::string> oauthScopes;
    std::int64_t oauthLeewayS = 60;
    int pollIntervalMs = 1000;
    std::int64_t ttlMs = 24LL * 3600 * 1000;
    // A finished task's result stays in memory this long after it ends; later reads come from
    // the database, so a server holding a day of finished cases holds their ids, not their results.
    std::int64_t resultsInMemoryMs = 60000;
    std::int64_t checkpointIntervalMs = 3000;
    // A connection that leaves a request unfinished this long is answered 408 and closed.
    std::int64_t requestTimeoutMs = 30000;
    // How often an idle SSE stream (listen, legacy tasks/result) gets a ': keep-alive' comment.
    std::int64_t sseKeepAliveMs = 15000;
    Log::Level logLevel = Log::Level::Info;
    // The HTTP front end: "epoll" (our own, the default) or "httplib" (cpp-httplib, kept as a
    // supported alternative on the project's required stack; see docs/server.md).
    std::string httpEngine = "epoll";
    // DNS-rebinding protection: on a loopback bind only Host names localhost, 127.0.0.1 and
    // [::1] are served, and an Origin must be one of those too. These extend the lists (for a
    // reverse proxy that forwards its own Host, or a trusted web front end); lower-case names
    // without port ("mcp.example.org") and origins as scheme://host[:port].
    std::vector<std::string> allowedHosts;
    std::vector<std::string> allowedOrigins;
    // Adds the fixture tools, prompts and resources the official conformance suite calls
    // (server/conformancefixtures.cpp); off in production.
    bool conformanceFixtures = false;
    // --no-tasks-extension: neither era is offered the Tasks extension, and run_cfd_case is
    // answered as a streamed tools/call (SSE progress, log lines, then the result). The job
    // tools (submit_cfd_case, ...) are offered in both modes.
    bool tasksExtension = true;
    // Streamed run_cfd_case: a notifications/progress at most every streamProgressMs, or, when
    // streamProgressIterations > 0, whenever that many more iterations have run (sampled).
    std::int64_t streamProgressMs = 1000;
    std::int64_t streamProgressIterations = 0;
    // Where cases run: "local" (solver threads in this process, the default) or "slurm" (each
    // case a batch job running eddy-cfd-solve in a case folder under caseDir; docs/server-slurm.md).
    std::string backend = "local";
    std::string caseDir;        // empty: <dataDir>/cases; must be shared with the compute nodes
    // caseDir as the Slurm backend uses it: absolute, <dataDir>/cases when not given.
    std::string slurmCaseDir() const;
    std::string slurmPartition; // empty: the cluster's default partition
    int slurmRefreshMs = 2000;  // one squeue for all live jobs at most this often
    std::string slurmSolver;    // empty: eddy-cfd-solve next to the server binary
    std::string slurmStatsFile; // empty: none; else rewritten every refresh with call counts
    std::string statsFile;      // empty: none; else rewritten every second (PollStats)
    // --slurm-rest URL: submit, refresh and cancel through slurmrestd (server/slurmrest.h)
    // with a JWT from SLURM_JWT or slurmJwtFile (0600), as slurmUser (default: this process's).
    std::string slurmRest;
    std::string slurmJwtFile;
    std::string slurmUser;
    // How long each slurmrestd call waits for the answer; a submission without one is looked
    // for by its comment, never sent again.
    int slurmRestTimeoutS = 20;
    // --openfoam-cases DIR: the folder run_openfoam_case may take engineers' own cases from
    // (its 'case' argument is relative to it); empty: templates only. Never written.
    std::string openfoamCases;
    // Replicas sharing --data-dir and --case-dir: the shared MAC key for task ids (0600 file).
    std::string replicaKeyFile;

    enum class ParseResult { Run, Help, Error };
    // Parses argv; on Error, error says what was wrong and how to fix it.
    static ParseResult parse(const std::vector<std::string> &args, ServerOptions &out,
                             std::string &error);
    static std::string usage();
};

std::string lowerAscii(std::string s);

} // namespace Eddy::Server
