#include "server/serveroptions.h"

#include "server/oauth.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <thread>

namespace Eddy::Server {

namespace {

bool parseInt(const std::string &text, std::int64_t min, std::int64_t max, std::int64_t &out)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
        return false;
    out = value;
    return true;
}

} // namespace

std::string lowerAscii(std::string s)
{
    for (char &c : s)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return s;
}

std::string ServerOptions::slurmCaseDir() const
{
    std::error_code ec;
    return std::filesystem::absolute(caseDir.empty() ? std::filesystem::path(dataDir) / "cases"
                                                     : std::filesystem::path(caseDir),
                                     ec)
        .lexically_normal()
        .string();
}

std::string ServerOptions::usage()
{
    return "Usage: eddy-cfd-server [options]\n"
           "The reference MCP Tasks server (protocol 2026-07-28, also 2025-11-25) with a\n"
           "lid-driven cavity CFD solver, exposed as the tool run_cfd_case at POST /mcp, and\n"
           "run_openfoam_case for OpenFOAM cases when OpenFOAM is installed.\n\n"
           "Options:\n"
           "  --host HOST             address to listen on (default 127.0.0.1)\n"
           "  --port PORT             TCP port, 0 picks a free one (default 0)\n"
           "  --data-dir DIR          SQLite database and case files, created if missing\n"
           "                          (default ./eddy-data)\n"
           "  --workers N             solver threads (default: cores - 1, at least 1)\n"
           "  --token T               require 'Authorization: Bearer T' on every request\n"
           "  --oauth-issuer URL      act as an OAuth 2.1 resource server: accept JWT access\n"
           "                          tokens from this authorization server (its metadata and\n"
           "                          keys are fetched at start), each task bound to the token's\n"
           "                          iss and sub (docs/server-auth.md)\n"
           "  --oauth-audience URL    the resource URL the tokens' aud must name (default: this\n"
           "                          server's http://HOST:PORT/mcp; give the public URL behind\n"
           "                          a proxy)\n"
           "  --oauth-scopes \"A B\"    scopes every request needs (default: none)\n"
           "  --oauth-leeway-s S      clock skew allowed on exp and nbf (default 60)\n"
           "  --poll-interval-ms MS   pollIntervalMs advertised for running tasks (default 1000)\n"
           "  --ttl-ms MS             task lifetime from creation (default 86400000 = 24 h)\n"
           "  --results-in-memory-ms MS  how long a finished task's result stays in memory after\n"
           "                          it ends; later reads come from the database (default 60000)\n"
           "  --checkpoint-interval-ms MS  how often running cases save a checkpoint (default 3000)\n"
           "  --request-timeout-ms MS close connections that leave a request unfinished this\n"
           "                          long, with 408 (default 30000)\n"
           "  --sse-keep-alive-ms MS  comment interval on idle SSE streams (default 15000)\n"
           "  --log-level LEVEL       error, warn, info or debug (default info); logs go to stderr\n"
           "  --http-engine ENGINE    epoll (default) or httplib: the HTTP front end\n"
           "  --allowed-host NAME     also serve requests whose Host is NAME (repeatable; for a\n"
           "                          reverse proxy). Loopback names are always allowed\n"
           "  --allowed-origin ORIGIN also serve requests from this web Origin, e.g.\n"
           "                          https://ui.example.org (repeatable)\n"
           "  --no-tasks-extension    do not offer the Tasks extension (nor 2025-11-25 tasks):\n"
           "                          run_cfd_case then answers as a streamed tools/call with\n"
           "                          progress notifications; a lost stream cancels the run\n"
           "  --stream-progress-ms MS least time between two progress notifications of a\n"
           "                          streamed run (default 1000)\n"
           "  --stream-progress-iterations N  instead, a progress notification every N solver\n"
           "                          iterations (sampled every 50 ms; default 0 = by time)\n"
           "  --backend local|slurm   where cases run: solver threads here (local, the default)\n"
           "                          or one Slurm batch job per case (slurm)\n"
           "  --openfoam-cases DIR    run_openfoam_case may run OpenFOAM case folders under DIR\n"
           "                          (copied, never changed; default: templates only)\n"
           "  --case-dir DIR          slurm: case folders, shared with the compute nodes\n"
           "                          (default DATA_DIR/cases)\n"
           "  --slurm-partition P     slurm: submit to partition P (default: the cluster's)\n"
           "  --slurm-refresh-ms MS   slurm: one squeue for all live jobs this often\n"
           "                          (default 2000)\n"
           "  --slurm-solver PATH     slurm: the eddy-cfd-solve binary the jobs run (default:\n"
           "                          next to eddy-cfd-server)\n"
           "  --slurm-stats FILE      slurm: rewrite FILE every refresh with the count of Slurm\n"
           "                          command-line calls (for measuring)\n"
           "  --slurm-rest URL        slurm: submit, refresh and cancel through slurmrestd at\n"
           "                          URL (http://HOST:PORT, API v0.0.38) with the JWT in\n"
           "                          SLURM_JWT or --slurm-jwt-file\n"
           "  --slurm-jwt-file FILE   slurm: the JWT for --slurm-rest (mode 0600; re-read\n"
           "                          when it changes)\n"
           "  --slurm-user NAME       slurm: X-SLURM-USER-NAME for --slurm-rest (default: the\n"
           "                          user running the server)\n"
           "  --slurm-rest-timeout-s N  slurm: how long each --slurm-rest call waits for\n"
           "                          slurmrestd's answer, 1 to 600 (default 20); a submission\n"
           "                          left unanswered is looked for by its comment, never sent\n"
           "                          again\n"
           "  --replica-key-file FILE slurm: run as one of several replicas sharing DATA_DIR\n"
           "                          and the case folder: task ids carry a MAC under this key\n"
           "                          (a file of at least 32 bytes, mode 0600) and any replica\n"
           "                          answers for any task\n"
           "  --stats-file FILE       rewrite FILE every second with this run's tasks/get count,\n"
           "                          the polls the advertised intervals asked for, and tasks\n"
           "                          by state (for measuring, e.g. bench/soak)\n"
           "  --conformance-fixtures  add the fixture tools, prompts and resources of the MCP\n"
           "                          conformance suite (testing only)\n"
           "  --help                  show this text\n";
}

ServerOptions::ParseResult ServerOptions::parse(const std::vector<std::string> &args,
                                                ServerOptions &out, std::string &error)
{
    const unsigned cores = std::thread::hardware_concurrency();
    out.workers = cores > 1 ? int(cores) - 1 : 1;
    bool restTimeout = false; // --slurm-rest-timeout-s given
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::string value;
        bool hasValue = false;
        if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
            hasValue = true;
        }
        if (flag == "--help" || flag == "-h")
            return ParseResult::Help;
        if (flag == "--conformance-fixtures" && !hasValue) {
            out.conformanceFixtures = true;
            continue;
        }
        if (flag == "--no-tasks-extension" && !hasValue) {
            out.tasksExtension = false;
            continue;
        }
        static const char *const valued[] = {"--host", "--port", "--data-dir", "--workers",
                                             "--token", "--poll-interval-ms", "--ttl-ms", "--results-in-memory-ms",
                                             "--checkpoint-interval-ms", "--log-level",
                                             "--http-engine", "--request-timeout-ms",
                                             "--sse-keep-alive-ms", "--allowed-host",
                                             "--allowed-origin", "--stream-progress-ms",
                                             "--stream-progress-iterations", "--backend",
                                             "--case-dir", "--slurm-partition",
                                             "--slurm-refresh-ms", "--slurm-solver",
                                             "--slurm-stats", "--replica-key-file",
                                             "--slurm-rest", "--slurm-jwt-file", "--slurm-user",
                                             "--slurm-rest-timeout-s", "--openfoam-cases",
                                             "--stats-file", "--oauth-issuer", "--oauth-audience",
                                             "--oauth-scopes", "--oauth-leeway-s"};
        bool known = false;
        for (const char *name : valued)
            known = known || flag == name;
        if (!known) {
            error = "unknown option '" + flag + "'; run eddy-cfd-server --help for the list";
            return ParseResult::Error;
        }
        if (!hasValue) {
            if (i + 1 >= args.size()) {
                error = "option " + flag + " needs a value; run eddy-cfd-server --help";
                return ParseResult::Error;
            }
            value = args[++i];
        }
        std::int64_t number = 0;
        const auto bad = [&](const std::string &what) {
            error = "bad value '" + value + "' for " + flag + ": " + what;
            return ParseResult::Error;
        };
        if (flag == "--host") {
            if (value.empty())
                return bad("give an address such as 127.0.0.1");
            out.host = value;
        } else if (flag == "--port") {
            if (!parseInt(value, 0, 65535, number))
                return bad("expected a port number from 0 to 65535");
            out.port = int(number);
        } else if (flag == "--data-dir") {
            if (value.empty())
                return bad("give a folder path");
            out.dataDir = value;
        } else if (flag == "--workers") {
            if (!parseInt(value, 1, 256, number))
                return bad("expected a whole number of threads from 1 to 256");
            out.workers = int(number);
        } else if (flag == "--token") {
            if (value.empty())
                return bad("the token must not be empty; leave the option out to disable auth");
            out.token = value;
        } else if (flag == "--oauth-issuer" || flag == "--oauth-audience") {
            const bool http = value.rfind("http://", 0) == 0 || value.rfind("https://", 0) == 0;
            if (!http || value.find_first_of(" ?#") != std::string::npos)
                return bad(flag == "--oauth-issuer"
                               ? "give the issuer URL exactly as the identity provider names it, "
                                 "e.g. https://id.example.org/realms/cfd"
                               : "give this server's MCP URL as clients reach it, e.g. "
                                 "https://cfd.example.org/mcp");
            (flag == "--oauth-issuer" ? out.oauthIssuer : out.oauthAudience) = value;
        } else if (flag == "--oauth-scopes") {
            out.oauthScopes.clear();
            std::string scope;
            for (char c : value + " ") {
                if (c == ' ' || c == ',') {
                    if (!scope.empty() && std::find(out.oauthScopes.begin(), out.oauthScopes.end(), scope) == out.oauthScopes.end())
                        out.oauthScopes.push_back(scope);
                    scope.clear();
                } else if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
                    return bad("scopes are printable ASCII without quotes or backslashes, "
                               "separated by spaces, e.g. \"cfd:run cfd:read\"");
                } else {
                    scope.push_back(c);
                }
            }
        } else if (flag == "--oauth-leeway-s") {
            if (!parseInt(value, 0, 600, number))
                return bad("expected whole seconds from 0 to 600");
            out.oauthLeewayS = number;
        } else if (flag == "--poll-interval-ms") {
            if (!parseInt(value, 10, 3600000, number))
                return bad("expected milliseconds from 10 to 3600000");
            out.pollIntervalMs = int(number);
        } else if (flag == "--ttl-ms") {
            if (!parseInt(value, 100, 100LL * 365 * 24 * 3600 * 1000, number))
                return bad("expected milliseconds, at least 100");
            out.ttlMs = number;
        } else if (flag == "--results-in-memory-ms") {
            if (!parseInt(value, 0, 100LL * 365 * 24 * 3600 * 1000, number))
                return bad("expected milliseconds, 0 or more");
            out.resultsInMemoryMs = number;
        } else if (flag == "--checkpoint-interval-ms") {
            if (!parseInt(value, 50, 3600000, number))
                return bad("expected milliseconds from 50 to 3600000");
            out.checkpointIntervalMs = number;
        } else if (flag == "--request-timeout-ms") {
            if (!parseInt(value, 100, 3600000, number))
                return bad("expected milliseconds from 100 to 3600000");
            out.requestTimeoutMs = number;
        } else if (flag == "--sse-keep-alive-ms") {
            if (!parseInt(value, 100, 3600000, number))
                return bad("expected milliseconds from 100 to 3600000");
            out.sseKeepAliveMs = number;
        } else if (flag == "--log-level") {
            if (!Log::parseLevel(value, out.logLevel))
                return bad("expected error, warn, info or debug");
        } else if (flag == "--http-engine") {
            if (value != "epoll" && value != "httplib")
                return bad("expected epoll (the default) or httplib");
            out.httpEngine = value;
        } else if (flag == "--allowed-host") {
            const std::string name = lowerAscii(value);
            const bool ipv6Literal = name.size() > 2 && name.front() == '[' && name.back() == ']';
            if (!ipv6Literal && (name.empty() || name.find_first_of(":/ \t") != std::string::npos))
                return bad("give a host name without scheme or port, e.g. mcp.example.org");
            out.allowedHosts.push_back(name);
        } else if (flag == "--allowed-origin") {
            std::string origin = lowerAscii(value);
            while (!origin.empty() && origin.back() == '/')
                origin.pop_back();
            const auto scheme = origin.find("://");
            if (scheme == std::string::npos || scheme == 0 || scheme + 3 >= origin.size()
                || origin.find('/', scheme + 3) != std::string::npos)
                return bad("give an origin as scheme://host[:port], e.g. https://ui.example.org");
            out.allowedOrigins.push_back(origin);
        } else if (flag == "--stream-progress-ms") {
            if (!parseInt(value, 10, 3600000, number))
                return bad("expected milliseconds from 10 to 3600000");
            out.streamProgressMs = number;
        } else if (flag == "--stream-progress-iterations") {
            if (!parseInt(value, 0, 10000000, number))
                return bad("expected a whole number of iterations from 0 (by time) to 10000000");
            out.streamProgressIterations = number;
        } else if (flag == "--backend") {
            if (value != "local" && value != "slurm")
                return bad("expected local (the default) or slurm");
            out.backend = value;
        } else if (flag == "--stats-file") {
            if (value.empty())
                return bad("give the path of the file to rewrite every second");
            out.statsFile = value;
        } else if (flag == "--case-dir" || flag == "--slurm-solver" || flag == "--slurm-stats") {
            if (value.empty())
                return bad("give a path");
            (flag == "--case-dir" ? out.caseDir
                                  : flag == "--slurm-solver" ? out.slurmSolver
                                                             : out.slurmStatsFile) = value;
        } else if (flag == "--openfoam-cases") {
            std::error_code ec;
            if (value.empty() || !std::filesystem::is_directory(value, ec))
                return bad("not a folder; give the folder that holds your OpenFOAM case folders");
            out.openfoamCases = value;
        } else if (flag == "--replica-key-file") {
            if (value.empty())
                return bad("give the path of the key file the replicas share (mode 0600)");
            out.replicaKeyFile = value;
        } else if (flag == "--slurm-partition") {
            if (value.empty() || value.find_first_of(" \t,") != std::string::npos)
                return bad("give one partition name as sinfo lists it");
            out.slurmPartition = value;
        } else if (flag == "--slurm-rest") {
            if (value.rfind("http://", 0) != 0 || value.size() <= 7)
                return bad("expected http://HOST:PORT of slurmrestd (it speaks plain HTTP)");
            out.slurmRest = value;
        } else if (flag == "--slurm-jwt-file" || flag == "--slurm-user") {
            if (value.empty())
                return bad(flag == "--slurm-user" ? "give the Slurm user the token was made for"
                                                  : "give the path of the token file (mode 0600)");
            (flag == "--slurm-user" ? out.slurmUser : out.slurmJwtFile) = value;
        } else if (flag == "--slurm-rest-timeout-s") {
            if (!parseInt(value, 1, 600, number))
                return bad("expected whole seconds from 1 to 600 (how long a call to slurmrestd "
                           "waits for its answer)");
            out.slurmRestTimeoutS = int(number);
            restTimeout = true;
        } else if (flag == "--slurm-refresh-ms") {
            if (!parseInt(value, 100, 600000, number))
                return bad("expected milliseconds from 100 to 600000");
            out.slurmRefreshMs = int(number);
        }
    }
    if (out.oauthIssuer.empty()
        && (!out.oauthAudience.empty() || !out.oauthScopes.empty() || out.oauthLeewayS != 60)) {
        error = "--oauth-audience, --oauth-scopes and --oauth-leeway-s go with --oauth-issuer URL "
                "(the authorization server whose tokens this server accepts)";
        return ParseResult::Error;
    }
    if (!out.oauthIssuer.empty() && out.oauthIssuer.rfind("https://", 0) != 0
        && !OAuthResourceServer::isLoopbackUrl(out.oauthIssuer)) {
        error = "--oauth-issuer must be an https URL (plain http only on 127.0.0.1, localhost or "
                "[::1], for testing): access tokens and the issuer's keys travel over it";
        return ParseResult::Error;
    }
    if (!out.oauthIssuer.empty() && !out.token.empty()) {
        error = "--token and --oauth-issuer exclude each other: a static token is for one person, "
                "OAuth for a team; give one of them";
        return ParseResult::Error;
    }
    if (!out.oauthIssuer.empty() && out.oauthAudience.empty()
        && (out.host == "0.0.0.0" || out.host == "::" || out.host == "[::]")) {
        error = "with --oauth-issuer on a wildcard address, give --oauth-audience with this "
                "server's MCP URL as clients reach it (e.g. https://cfd.example.org/mcp): the "
                "tokens' aud must name it";
        return ParseResult::Error;
    }
    if (!out.replicaKeyFile.empty() && out.backend != "slurm") {
        // Every replica would run the same case on its own solver threads.
        error = "--replica-key-file needs --backend slurm: replicas share the cases' Slurm jobs, "
                "while the local backend runs each case in the server that holds it";
        return ParseResult::Error;
    }
    if ((!out.slurmJwtFile.empty() || !out.slurmUser.empty()) && out.slurmRest.empty()) {
        error = "--slurm-jwt-file and --slurm-user go with --slurm-rest URL (slurmrestd); the "
                "command-line tools authenticate through munge";
        return ParseResult::Error;
    }
    if (restTimeout && out.slurmRest.empty()) {
        error = "--slurm-rest-timeout-s goes with --slurm-rest URL (slurmrestd); the command-line "
                "tools have their own time-outs";
        return ParseResult::Error;
    }
    if (!out.slurmRest.empty() && out.backend != "slurm") {
        error = "--slurm-rest needs --backend slurm";
        return ParseResult::Error;
    }
    return ParseResult::Run;
}

} // namespace Eddy::Server
