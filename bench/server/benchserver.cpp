// bench_server: what one tasks/get costs eddy-cfd-server. It starts the server itself (so it knows
// the PID), parks N tasks in input_required (run_cfd_case with force_mesh_defect), then polls every
// task with tasks/get at a fixed interval for a fixed time through libcurl multi, once over
// keep-alive connections and once with a new connection per request. It reads the server's CPU
// time (utime+stime, read through the process's CPU clock: the same sum as /proc/PID/stat, to the
// nanosecond instead of the 10 ms tick) and RSS around each run. With --floor it runs the same
// polls, in the same minutes, against bench_server_floor (a bare epoll responder with a fixed
// answer) and reports eddy-cfd-server's CPU per poll as a multiple of the floor's. Optional Node
// comparisons run bench/server/*.mjs against the same tasks. Prints its verdict rows as RESULT
// lines (bench/common/benchresult.h). Single-threaded; not a test: it asserts nothing.
#include "benchresult.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr const char *kProtocolVersion = "2026-07-28";

struct Options
{
    std::string serverBin;
    std::vector<int> taskCounts{1, 100, 1000, 10000};
    double durationS = 10.0;
    int intervalMs = 500;
    int maxInFlight = 32;
    int workers = 1;
    bool keepAlive = true;
    bool fresh = true;
    std::string nodeBin;     // empty: no Node comparison
    std::string scriptDir;   // bench/server, for the .mjs comparisons
    int nodeTasks = 100;     // task count of the Node comparison runs
    std::string markdownOut; // optional file for the table rows
    std::string floorBin;    // bench_server_floor: the same polls against it, for the ratio
    int slices = 5;          // with a floor: the window cut into this many turns each, alternating
    // A Node server script (e.g. tests/interop/sdk-fixture-server.mjs) instead of eddy-cfd-server,
    // to measure the official server SDK on the same machine at the same time.
    bool serverIsScript = false;
    std::string tool = "run_cfd_case";
    std::vector<std::string> serverArgs; // extra eddy-cfd-server flags, e.g. --http-engine httplib
};

struct CpuSample
{
    double serverCpuS = 0;  // utime + stime of the server process
    long serverRssKb = 0;   // VmRSS
    long serverHwmKb = 0;   // VmHWM (peak RSS)
    double selfCpuS = 0;    // this bench's own CPU
    Clock::time_point at;
};

struct RunResult
{
    std::string label;
    int tasks = 0;
    double seconds = 0;
    long asked = 0;
    long served = 0;
    long errors = 0;
    double serverCpuS = 0;
    double clientCpuS = 0;
    double idleServerCpuPerS = 0;
    long rssKb = 0;
    long hwmKb = 0;
    double clientRssMiB = 0;
};

// The server child, so that a fatal error (std::exit skips destructors) still stops it.
std::vector<pid_t> g_children;
std::string g_tmpDir; // removed on a fatal error too

void die(const std::string &message)
{
    std::fprintf(stderr, "bench_server: %s\n", message.c_str());
    for (const pid_t pid : g_children) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
    if (!g_tmpDir.empty()) {
        std::error_code ec;
        fs::remove_all(g_tmpDir, ec);
    }
    std::exit(2);
}

std::vector<int> parseCounts(const std::string &text)
{
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char *end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (end == item.c_str() || *end != '\0' || v < 1 || v > 100000)
            die("--tasks takes a comma-separated list of counts between 1 and 100000, e.g. 1,100,1000");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty())
        die("--tasks needs at least one count");
    return out;
}

Options parseOptions(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                die("missing value after " + a);
            return argv[++i];
        };
        if (a == "--server")
            o.serverBin = value();
        else if (a == "--tasks")
            o.taskCounts = parseCounts(value());
        else if (a == "--duration-s")
            o.durationS = std::atof(value().c_str());
        else if (a == "--interval-ms")
            o.intervalMs = std::atoi(value().c_str());
        else if (a == "--max-in-flight")
            o.maxInFlight = std::atoi(value().c_str());
        else if (a == "--workers")
            o.workers = std::atoi(value().c_str());
        else if (a == "--only-keepalive")
            o.fresh = false;
        else if (a == "--only-fresh")
            o.keepAlive = false;
        else if (a == "--node")
            o.nodeBin = value();
        else if (a == "--scripts")
            o.scriptDir = value();
        else if (a == "--node-tasks")
            o.nodeTasks = std::atoi(value().c_str());
        else if (a == "--markdown")
            o.markdownOut = value();
        else if (a == "--floor")
            o.floorBin = value();
        else if (a == "--slices")
            o.slices = std::atoi(value().c_str());
        else if (a == "--server-arg")
            o.serverArgs.push_back(value());
        else if (a == "--help" || a == "-h") {
            std::printf("Usage: bench_server --server PATH/eddy-cfd-server [--tasks 1,100,1000,10000]\n"
                        "  [--duration-s 10] [--interval-ms 500] [--max-in-flight 32] [--workers 1]\n"
                        "  [--only-keepalive|--only-fresh] [--node PATH/node --scripts bench/server\n"
                        "  --node-tasks 100] [--markdown FILE] [--server-arg ARG]...\n"
                        "  [--floor PATH/bench_server_floor [--slices 5]]\n"
                        "  --floor runs the same polls against the bare epoll responder in the same\n"
                        "  minutes (the window cut into --slices turns each, alternating, so both see\n"
                        "  the same machine load) and prints server CPU per poll for both and their\n"
                        "  ratio (target: eddy-cfd-server within 1.5x of the floor).\n"
                        "  The verdict rows are the RESULT lines (bench/README.md).\n"
                        "  --server-arg passes one more argument to eddy-cfd-server, e.g.\n"
                        "  --server-arg --http-engine --server-arg httplib\n");
            std::exit(0);
        } else
            die("unknown argument \"" + a + "\"; see --help");
    }
    if (o.serverBin.empty())
        die("--server PATH (the eddy-cfd-server binary) is required");
    o.serverIsScript = o.serverBin.size() > 4 && o.serverBin.compare(o.serverBin.size() - 4, 4, ".mjs") == 0;
    if (o.serverIsScript) {
        o.tool = "fixture_case";
    }
    if (o.slices <= 0)
        die("--slices must be positive");
    if (o.durationS <= 0 || o.intervalMs <= 0 || o.maxInFlight <= 0 || o.workers <= 0 || o.nodeTasks <= 0)
        die("--duration-s, --interval-ms, --max-in-flight, --workers and --node-tasks must be positive");
    if (!o.nodeBin.empty() && o.scriptDir.empty())
        die("--node needs --scripts DIR (the folder holding node-http-poll.mjs and ext-tasks-poll.mjs)");
    return o;
}

// ---- /proc readings -------------------------------------------------------------------------

// utime+stime of every thread of pid, to the nanosecond: the process's CPU-time clock is the sum
// /proc/PID/stat reports in 10 ms ticks. Falls back to /proc/PID/stat if the clock is refused.
double processCpuSeconds(pid_t pid)
{
    clockid_t clock;
    timespec ts{};
    if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &ts) == 0)
        return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return -1;
    // The command name is in parentheses and may hold spaces: fields restart after the last ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int index = 3; rest >> field; ++index) {
        if (index == 14)
            utime = std::stoull(field);
        else if (index == 15) {
            stime = std::stoull(field);
            break;
        }
    }
    return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

long statusKb(pid_t pid, const char *key)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(in, line)) {
        if (line.rfind(prefix, 0) == 0)
            return std::atol(line.c_str() + prefix.size());
    }
    return -1;
}

double selfCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
           + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

CpuSample sample(pid_t server)
{
    CpuSample s;
    s.serverCpuS = processCpuSeconds(server);
    s.serverRssKb = statusKb(server, "VmRSS");
    s.serverHwmKb = statusKb(server, "VmHWM");
    s.selfCpuS = selfCpuSeconds();
    s.at = Clock::now();
    return s;
}

// ---- the server child ---------------------------------------------------------------------------

// The command line of the server under test.
std::vector<std::string> serverCommand(const Options &o, const fs::path &dataDir)
{
    if (o.serverIsScript) {
        // The fixture keeps tasks in memory and parks each one in input_required itself.
        return {o.nodeBin.empty() ? "node" : o.nodeBin, o.serverBin, "--host", "127.0.0.1", "--port", "0"};
    }
    std::vector<std::string> argv{o.serverBin, "--host", "127.0.0.1", "--port", "0",
                                  "--data-dir", dataDir.string(), "--workers",
                                  std::to_string(o.workers), "--poll-interval-ms",
                                  std::to_string(o.intervalMs), "--log-level", "warning"};
    argv.insert(argv.end(), o.serverArgs.begin(), o.serverArgs.end());
    return argv;
}

// A child that prints "listening on URL" on stdout (eddy-cfd-server, the SDK fixture, the floor).
class ServerProcess
{
public:
    ServerProcess(const std::vector<std::string> &command, const fs::path &logFile)
    {
        int out[2];
        if (pipe(out) != 0)
            die("pipe() failed");
        m_pid = fork();
        if (m_pid < 0)
            die("fork() failed");
        if (m_pid == 0) {
            dup2(out[1], STDOUT_FILENO);
            const int logFd = open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (logFd >= 0)
                dup2(logFd, STDERR_FILENO);
            close(out[0]);
            close(out[1]);
            std::vector<const char *> argv;
            for (const std::string &arg : command)
                argv.push_back(arg.c_str());
            argv.push_back(nullptr);
            execvp(argv[0], const_cast<char *const *>(argv.data()));
            std::fprintf(stderr, "bench_server: cannot execute %s: %s\n", argv[0], std::strerror(errno));
            _exit(127);
        }
        close(out[1]);
        m_stdout = out[0];
        g_children.push_back(m_pid);
        std::string seen;
        const auto deadline = Clock::now() + std::chrono::seconds(60);
        while (Clock::now() < deadline) {
            pollfd p{m_stdout, POLLIN, 0};
            if (::poll(&p, 1, 500) <= 0)
                continue;
            char buf[512];
            const ssize_t n = read(m_stdout, buf, sizeof buf);
            if (n <= 0)
                break;
            seen.append(buf, size_t(n));
            const auto at = seen.find("listening on ");
            if (at != std::string::npos && seen.find('\n', at) != std::string::npos) {
                m_url = seen.substr(at + 13, seen.find('\n', at) - at - 13);
                return;
            }
        }
        stop();
        die(command.front() + " did not print its \"listening on\" line within 60 s; see " + logFile.string());
    }
    ~ServerProcess() { stop(); }

    pid_t pid() const { return m_pid; }
    const std::string &url() const { return m_url; }

    void stop()
    {
        if (m_pid <= 0)
            return;
        const pid_t pid = m_pid;
        kill(m_pid, SIGTERM);
        for (int i = 0; i < 100; ++i) {
            if (waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                m_pid = -1;
                break;
            }
            usleep(100 * 1000);
        }
        if (m_pid > 0) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
            m_pid = -1;
        }
        g_children.erase(std::remove(g_children.begin(), g_children.end(), pid), g_children.end());
        if (m_stdout >= 0)
            close(m_stdout);
        m_stdout = -1;
    }

private:
    pid_t m_pid = -1;
    int m_stdout = -1;
    std::string m_url;
};

// ---- HTTP through libcurl multi ------------------------------------------------------------------

struct Exchange
{
    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    std::string body;
    std::string response;
    std::string contentType;
    int taskIndex = -1;
};

size_t onWrite(char *data, size_t size, size_t count, void *user)
{
    auto *ex = static_cast<Exchange *>(user);
    ex->response.append(data, size * count);
    return size * count;
}

size_t onHeader(char *data, size_t size, size_t count, void *user)
{
    auto *ex = static_cast<Exchange *>(user);
    const std::string line(data, size * count);
    if (line.size() > 13 && strncasecmp(line.c_str(), "content-type:", 13) == 0)
        ex->contentType = line.substr(13);
    return size * count;
}

Json requestMeta()
{
    return Json{{"io.modelcontextprotocol/protocolVersion", kProtocolVersion},
                {"io.modelcontextprotocol/clientInfo", {{"name", "eddy-bench-server"}, {"version", "0.1"}}},
                {"io.modelcontextprotocol/clientCapabilities",
                 {{"elicitation", {{"form", Json::object()}}},
                  {"extensions", {{"io.modelcontextprotocol/tasks", Json::object()}}}}}};
}

// Extracts the JSON-RPC response from a JSON or text/event-stream body.
Json parseRpc(const Exchange &ex)
{
    if (ex.contentType.find("text/event-stream") == std::string::npos)
        return Json::parse(ex.response, nullptr, false);
    std::istringstream in(ex.response);
    std::string line, data;
    Json last = Json(nullptr);
    auto flush = [&]() {
        if (data.empty())
            return;
        Json msg = Json::parse(data, nullptr, false);
        data.clear();
        if (!msg.is_discarded() && msg.is_object() && (msg.contains("result") || msg.contains("error")))
            last = std::move(msg);
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            flush();
        else if (line.rfind("data:", 0) == 0)
            data += (data.empty() ? "" : "\n") + line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5);
    }
    flush();
    return last;
}

class Poller
{
public:
    Poller(std::string url, bool keepAlive, int maxInFlight)
        : m_url(std::move(url)), m_keepAlive(keepAlive), m_maxInFlight(maxInFlight)
    {
        m_multi = curl_multi_init();
        curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, long(maxInFlight + 4));
        m_pool.reserve(size_t(maxInFlight));
    }
    ~Poller()
    {
        for (auto &ex : m_all) {
            curl_multi_remove_handle(m_multi, ex->easy);
            curl_easy_cleanup(ex->easy);
            curl_slist_free_all(ex->headers);
        }
        curl_multi_cleanup(m_multi);
    }

    int inFlight() const { return m_inFlight; }
    bool canStart() const { return m_inFlight < m_maxInFlight; }

    void start(const std::string &method, const Json &params, const std::string &name, int taskIndex)
    {
        Exchange *ex = takeExchange();
        ex->taskIndex = taskIndex;
        ex->response.clear();
        ex->contentType.clear();
        Json p = params;
        p["_meta"] = requestMeta();
        ex->body = Json{{"jsonrpc", "2.0"}, {"id", ++m_nextId}, {"method", method}, {"params", p}}.dump();
        curl_slist_free_all(ex->headers);
        ex->headers = nullptr;
        ex->headers = curl_slist_append(ex->headers, "Content-Type: application/json");
        ex->headers = curl_slist_append(ex->headers, "Accept: application/json, text/event-stream");
        ex->headers = curl_slist_append(ex->headers, "MCP-Protocol-Version: 2026-07-28");
        ex->headers = curl_slist_append(ex->headers, ("Mcp-Method: " + method).c_str());
        ex->headers = curl_slist_append(ex->headers, ("Mcp-Name: " + name).c_str());
        curl_easy_setopt(ex->easy, CURLOPT_HTTPHEADER, ex->headers);
        curl_easy_setopt(ex->easy, CURLOPT_POSTFIELDS, ex->body.c_str());
        curl_easy_setopt(ex->easy, CURLOPT_POSTFIELDSIZE, long(ex->body.size()));
        curl_multi_add_handle(m_multi, ex->easy);
        ++m_inFlight;
    }

    // Runs the multi until something finishes or waitMs passes; calls done(exchange, ok) for each.
    template<typename Done>
    void pump(int waitMs, Done &&done)
    {
        int running = 0;
        curl_multi_perform(m_multi, &running);
        int queued = 0;
        bool any = false;
        while (CURLMsg *msg = curl_multi_info_read(m_multi, &queued)) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            // Copy what we need before removing the handle (libcurl frees msg on removal).
            CURL *easy = msg->easy_handle;
            const CURLcode code = msg->data.result;
            Exchange *ex = nullptr;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, &ex);
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            curl_multi_remove_handle(m_multi, easy);
            --m_inFlight;
            any = true;
            done(*ex, code == CURLE_OK && status == 200);
            m_pool.push_back(ex);
        }
        if (!any && waitMs > 0)
            curl_multi_poll(m_multi, nullptr, 0, waitMs, nullptr);
    }

private:
    Exchange *takeExchange()
    {
        if (!m_pool.empty()) {
            Exchange *ex = m_pool.back();
            m_pool.pop_back();
            return ex;
        }
        auto ex = std::make_unique<Exchange>();
        ex->easy = curl_easy_init();
        curl_easy_setopt(ex->easy, CURLOPT_URL, m_url.c_str());
        curl_easy_setopt(ex->easy, CURLOPT_WRITEFUNCTION, onWrite);
        curl_easy_setopt(ex->easy, CURLOPT_WRITEDATA, ex.get());
        curl_easy_setopt(ex->easy, CURLOPT_HEADERFUNCTION, onHeader);
        curl_easy_setopt(ex->easy, CURLOPT_HEADERDATA, ex.get());
        curl_easy_setopt(ex->easy, CURLOPT_PRIVATE, ex.get());
        curl_easy_setopt(ex->easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(ex->easy, CURLOPT_TIMEOUT_MS, 60000L);
        curl_easy_setopt(ex->easy, CURLOPT_TCP_NODELAY, 1L);
        curl_easy_setopt(ex->easy, CURLOPT_NOPROXY, "*");
        if (!m_keepAlive) {
            curl_easy_setopt(ex->easy, CURLOPT_FRESH_CONNECT, 1L);
            curl_easy_setopt(ex->easy, CURLOPT_FORBID_REUSE, 1L);
        }
        m_all.push_back(std::move(ex));
        return m_all.back().get();
    }

    std::string m_url;
    bool m_keepAlive;
    int m_maxInFlight;
    CURLM *m_multi = nullptr;
    std::vector<std::unique_ptr<Exchange>> m_all;
    std::vector<Exchange *> m_pool;
    int m_inFlight = 0;
    long m_nextId = 0;
};

// Creates `count` parked tasks; returns their ids (bearer secrets: never printed).
std::vector<std::string> createTasks(const Options &o, const std::string &url, int count, int already)
{
    std::vector<std::string> ids;
    ids.reserve(size_t(count));
    Poller poller(url, true, 16);
    long failures = 0;
    std::string firstError;
    const auto t0 = Clock::now();
    double lastMark = 0;
    while (int(ids.size()) < count) {
        while (int(ids.size()) + poller.inFlight() < count && poller.canStart()) {
            const int n = already + int(ids.size()) + poller.inFlight() + int(failures);
            const Json args = o.serverIsScript
                                  ? Json{{"case_name", "bench-" + std::to_string(n)}}
                                  : Json{{"case_name", "bench-" + std::to_string(n)},
                                         {"reynolds", 100},
                                         {"grid", 16},
                                         {"max_iterations", 100},
                                         {"tolerance", 1e-3},
                                         {"force_mesh_defect", true}};
            poller.start("tools/call", Json{{"name", o.tool}, {"arguments", args}}, o.tool, n);
        }
        poller.pump(100, [&](Exchange &ex, bool ok) {
            const Json reply = parseRpc(ex);
            const Json *r = (!reply.is_discarded() && reply.is_object() && reply.contains("result"))
                                ? &reply["result"] : nullptr;
            if (ok && r && r->is_object() && r->value("resultType", "") == "task" && r->contains("taskId")) {
                ids.push_back((*r)["taskId"].get<std::string>());
                // Progress per 1000, so a creation rate that falls as the server fills shows up.
                if (ids.size() % 1000 == 0) {
                    const double at = std::chrono::duration<double>(Clock::now() - t0).count();
                    std::printf("    %zu created after %.1f s (last 1000 at %.0f per s)\n", ids.size(), at,
                                1000.0 / std::max(1e-3, at - lastMark));
                    std::fflush(stdout);
                    lastMark = at;
                }
            } else {
                ++failures;
                if (firstError.empty())
                    firstError = ex.response.substr(0, 300);
            }
        });
        if (failures > count / 10 + 5)
            die("creating tasks keeps failing (" + o.tool + " did not answer with a task): " + firstError);
        if (Clock::now() - t0 > std::chrono::minutes(10))
            die("creating tasks took more than 10 minutes; try fewer tasks");
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("  created %d tasks in %.1f s (%.0f tools/call per s)%s\n", count, s, count / s,
                failures ? (" with " + std::to_string(failures) + " failed calls").c_str() : "");
    return ids;
}

// Waits until every task has left "working"/queued and parked in input_required, so that no
// solver CPU pollutes the poll measurement. Gives up after a while and reports what it saw.
void waitParked(const std::string &url, const std::vector<std::string> &ids)
{
    const auto t0 = Clock::now();
    for (int round = 0; round < 120; ++round) {
        Poller poller(url, true, 16);
        size_t next = 0;
        long parked = 0, other = 0;
        while (next < ids.size() || poller.inFlight() > 0) {
            while (next < ids.size() && poller.canStart()) {
                poller.start("tasks/get", Json{{"taskId", ids[next]}}, ids[next], int(next));
                ++next;
            }
            poller.pump(50, [&](Exchange &ex, bool) {
                const Json reply = parseRpc(ex);
                if (!reply.is_discarded() && reply.is_object() && reply.contains("result")
                    && reply["result"].value("status", "") == "input_required")
                    ++parked;
                else
                    ++other;
            });
        }
        if (other == 0) {
            std::printf("  all %zu tasks parked in input_required after %.1f s\n", ids.size(),
                        std::chrono::duration<double>(Clock::now() - t0).count());
            return;
        }
        if (round % 10 == 0)
            std::printf("  waiting: %ld parked, %ld not yet\n", parked, other);
        usleep(1000 * 1000);
    }
    std::printf("  warning: not every task parked within 2 minutes; server CPU may include solver work\n");
}

// Polls every task once per interval for `seconds` (default: --duration-s); with idle, first
// measures 2 s of the server's CPU with nobody polling (timers, checkpoints). With reuse, polls
// through that poller, so keep-alive connections carry over from one turn to the next.
RunResult pollRun(const Options &o, const std::string &url, pid_t server,
                  const std::vector<std::string> &ids, bool keepAlive, double seconds = 0, bool idle = true,
                  Poller *reuse = nullptr)
{
    RunResult r;
    r.label = keepAlive ? "C++ libcurl, keep-alive" : "C++ libcurl, new connection per request";
    r.tasks = int(ids.size());
    if (seconds <= 0)
        seconds = o.durationS;

    if (idle) {
        const CpuSample idle0 = sample(server);
        usleep(2000 * 1000);
        const CpuSample idle1 = sample(server);
        r.idleServerCpuPerS = (idle1.serverCpuS - idle0.serverCpuS)
                              / std::chrono::duration<double>(idle1.at - idle0.at).count();
    }

    std::unique_ptr<Poller> own;
    if (!reuse)
        own = std::make_unique<Poller>(url, keepAlive,
                                       std::min<int>(o.maxInFlight, std::max<int>(1, int(ids.size()))));
    Poller &poller = reuse ? *reuse : *own;
    const auto gap = std::chrono::duration<double>(o.intervalMs / 1000.0 / double(ids.size()));
    const auto duration = std::chrono::duration<double>(seconds);
    const CpuSample s0 = sample(server);
    const auto start = s0.at;
    const auto end = start + std::chrono::duration_cast<Clock::duration>(duration);
    long issued = 0;
    r.asked = long(seconds * 1000.0 / o.intervalMs * double(ids.size()));
    while (true) {
        const auto now = Clock::now();
        if (now >= end)
            break;
        // Poll j is due at start + j * gap: every task once per interval, evenly staggered.
        while (issued < r.asked && poller.canStart()
               && start + std::chrono::duration_cast<Clock::duration>(gap * double(issued)) <= now) {
            const size_t task = size_t(issued % long(ids.size()));
            poller.start("tasks/get", Json{{"taskId", ids[task]}}, ids[task], int(task));
            ++issued;
        }
        // Sleep in curl_multi_poll until the next poll is due (or a reply arrives), so the
        // client's CPU per poll is not inflated by spinning.
        const auto nextDue = issued < r.asked
                                 ? start + std::chrono::duration_cast<Clock::duration>(gap * double(issued))
                                 : end;
        const auto untilDue = std::chrono::ceil<std::chrono::milliseconds>(
                                  std::min(nextDue, end) - Clock::now()).count();
        const int waitMs = poller.canStart() ? int(std::clamp<long long>(untilDue, 0, 100)) : 100;
        poller.pump(waitMs, [&](Exchange &ex, bool ok) {
            const Json reply = parseRpc(ex);
            if (ok && !reply.is_discarded() && reply.is_object() && reply.contains("result")
                && reply["result"].contains("status"))
                ++r.served;
            else
                ++r.errors;
        });
    }
    const CpuSample s1 = sample(server);
    // Let in-flight requests finish outside the window so the next run starts clean.
    while (poller.inFlight() > 0)
        poller.pump(50, [](Exchange &, bool) {});
    r.seconds = std::chrono::duration<double>(s1.at - s0.at).count();
    r.serverCpuS = s1.serverCpuS - s0.serverCpuS;
    r.clientCpuS = s1.selfCpuS - s0.selfCpuS;
    r.rssKb = s1.serverRssKb;
    r.hwmKb = s1.serverHwmKb;
    r.clientRssMiB = statusKb(getpid(), "VmRSS") / 1024.0;
    return r;
}

std::optional<RunResult> nodeRun(const Options &o, const std::string &script, const std::string &label,
                                 const std::string &url, pid_t server, const std::vector<std::string> &ids,
                                 const fs::path &tmp)
{
    const fs::path idFile = tmp / "task-ids.json";
    {
        std::ofstream out(idFile);
        out << Json(ids).dump();
    }
    fs::permissions(idFile, fs::perms::owner_read | fs::perms::owner_write);
    const fs::path resultFile = tmp / "node-result.json";
    fs::remove(resultFile);

    RunResult r;
    r.label = label;
    r.tasks = int(ids.size());
    const CpuSample idle0 = sample(server);
    usleep(2000 * 1000);
    const CpuSample idle1 = sample(server);
    r.idleServerCpuPerS = (idle1.serverCpuS - idle0.serverCpuS)
                          / std::chrono::duration<double>(idle1.at - idle0.at).count();

    const std::string durationMs = std::to_string(long(o.durationS * 1000));
    const std::string interval = std::to_string(o.intervalMs);
    const CpuSample s0 = sample(server);
    const pid_t child = fork();
    if (child == 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDOUT_FILENO);
        execlp(o.nodeBin.c_str(), o.nodeBin.c_str(), script.c_str(), url.c_str(), "--ids", idFile.c_str(),
              "--duration-ms", durationMs.c_str(), "--interval-ms", interval.c_str(), "--out",
              resultFile.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    const CpuSample s1 = sample(server);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("  %s: the Node script failed (status %d); skipped in the table\n", label.c_str(), status);
        return std::nullopt;
    }
    std::ifstream in(resultFile);
    const Json res = Json::parse(in, nullptr, false);
    if (res.is_discarded() || !res.is_object()) {
        std::printf("  %s: no readable result from the Node script\n", label.c_str());
        return std::nullopt;
    }
    // The Node side reports its own measured window and CPU; the server CPU covers the whole
    // child run (start-up included), so it is scaled to the poll window.
    r.seconds = res.value("seconds", 0.0);
    r.asked = res.value("asked", 0L);
    r.served = res.value("served", 0L);
    r.errors = res.value("errors", 0L);
    r.clientCpuS = res.value("cpuSeconds", 0.0);
    const double wall = std::chrono::duration<double>(s1.at - s0.at).count();
    r.serverCpuS = (s1.serverCpuS - s0.serverCpuS) - r.idleServerCpuPerS * std::max(0.0, wall - r.seconds);
    r.rssKb = s1.serverRssKb;
    r.hwmKb = s1.serverHwmKb;
    r.clientRssMiB = res.value("rssMiB", 0.0);
    return r;
}

// Adds one slice of a run to the run's totals (the idle rate is the first slice's).
void accumulate(RunResult &into, const RunResult &part)
{
    if (into.seconds == 0) {
        into = part;
        return;
    }
    into.seconds += part.seconds;
    into.asked += part.asked;
    into.served += part.served;
    into.errors += part.errors;
    into.serverCpuS += part.serverCpuS;
    into.clientCpuS += part.clientCpuS;
    into.rssKb = part.rssKb;
    into.hwmKb = part.hwmKb;
    into.clientRssMiB = part.clientRssMiB;
}

// Polls a per-poll figure needs: below this, the server's own background work does not average out.
constexpr long kMinPolls = 500;

bool measurable(const RunResult &r)
{
    return r.served >= kMinPolls && r.serverCpuS > 0;
}

double serverUsPerPoll(const RunResult &r)
{
    return 1e6 * r.serverCpuS / double(r.served);
}

std::string row(const RunResult &r)
{
    const double net = std::max(0.0, r.serverCpuS - r.idleServerCpuPerS * r.seconds);
    char server[64], serverNet[64];
    if (measurable(r)) {
        std::snprintf(server, sizeof server, "%.1f", serverUsPerPoll(r));
        std::snprintf(serverNet, sizeof serverNet, "%.1f", 1e6 * net / double(r.served));
    } else {
        std::snprintf(server, sizeof server, "not measured (%ld polls served)", r.served);
        std::snprintf(serverNet, sizeof serverNet, "—");
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "| %s | %d | %.0f | %ld / %ld (%.1f%%) | %ld | %s | %s | %.1f | %.1f | %.1f |",
                  r.label.c_str(), r.tasks, r.served / r.seconds, r.served, r.asked,
                  r.asked ? 100.0 * double(r.served) / double(r.asked) : 0.0, r.errors, server,
                  serverNet, r.served ? 1e6 * r.clientCpuS / double(r.served) : 0.0, r.rssKb / 1024.0,
                  r.clientRssMiB);
    return buf;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One RESULT line: eddy-cfd-server's CPU per poll as a multiple of the floor's, same polls. The
// verdict is the median of the turn pairs (each turn of the server beside the floor's next turn,
// so a burst of load on the machine moves one pair, not the verdict); the ratio of the totals is
// shown beside it.
void printRatio(const Options &o, int tasks, bool keepAlive, const RunResult &eddy,
                const std::optional<RunResult> &floor, const std::vector<double> &turnRatios)
{
    char what[160], how[300];
    std::snprintf(what, sizeof what, "Server CPU per `tasks/get` against the floor, %s, %d tasks every %d ms",
                  keepAlive ? "keep-alive" : "new connection per poll", tasks, o.intervalMs);
    std::snprintf(how, sizeof how,
                  "bench_server --server eddy-cfd-server --floor bench_server_floor --tasks %d %s "
                  "--duration-s %g --slices %d",
                  tasks, keepAlive ? "--only-keepalive" : "--only-fresh", o.durationS, o.slices);
    Bench::Result res;
    res.bench = "server";
    res.what = what;
    res.unit = "×";
    res.decimals = 2;
    res.target = "<=1.5";
    res.how = how;
    char why[200];
    if (!floor) {
        res.why = "no --floor given";
    } else if (!measurable(eddy) || !measurable(*floor)) {
        std::snprintf(why, sizeof why,
                      "too few polls served (eddy-cfd-server %ld, floor %ld; %ld needed); "
                      "give a longer --duration-s",
                      eddy.served, floor->served, kMinPolls);
        res.why = why;
    } else {
        const double e = serverUsPerPoll(eddy), f = serverUsPerPoll(*floor);
        char shown[300];
        if (turnRatios.size() >= 3) {
            res.value = median(turnRatios);
            const auto [lo, hi] = std::minmax_element(turnRatios.begin(), turnRatios.end());
            std::snprintf(shown, sizeof shown,
                          "median of %zu turn pairs %.2f× (%.2f–%.2f×); all turns %.1f µs vs floor "
                          "%.1f µs = %.2f× (served %.0f%% / %.0f%%)",
                          turnRatios.size(), *res.value, *lo, *hi, e, f, e / f,
                          100.0 * double(eddy.served) / double(std::max(1L, eddy.asked)),
                          100.0 * double(floor->served) / double(std::max(1L, floor->asked)));
        } else {
            res.value = e / f;
            std::snprintf(shown, sizeof shown, "%.1f µs vs floor %.1f µs = %.2f× (served %.0f%% / %.0f%%)",
                          e, f, e / f, 100.0 * double(eddy.served) / double(std::max(1L, eddy.asked)),
                          100.0 * double(floor->served) / double(std::max(1L, floor->asked)));
        }
        res.shown = shown;
    }
    Bench::printResult(res);
}

} // namespace

int main(int argc, char **argv)
{
    const Options o = parseOptions(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    curl_global_init(CURL_GLOBAL_DEFAULT);

    char tmpl[] = "/tmp/eddy-bench-server-XXXXXX";
    if (!mkdtemp(tmpl))
        die("cannot create a temporary folder");
    const fs::path tmp(tmpl);
    g_tmpDir = tmp.string();

    std::vector<std::string> rows;
    const std::string header =
        "| client | tasks | tasks/get per s | polls served / asked | errors | server CPU µs per poll "
        "| same, minus idle | client CPU µs per poll | server RSS MiB | client RSS MiB |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
    struct Pair
    {
        int tasks;
        bool keepAlive;
        RunResult eddy;
        std::optional<RunResult> floor;
        std::vector<double> turnRatios; // per turn: server µs per poll / floor µs per poll
    };
    std::vector<Pair> pairs;
    {
        ServerProcess server(serverCommand(o, tmp / "data"), tmp / "server.log");
        std::unique_ptr<ServerProcess> floor;
        if (!o.floorBin.empty())
            floor = std::make_unique<ServerProcess>(std::vector<std::string>{o.floorBin}, tmp / "floor.log");
        std::printf("%s pid %d at %s; polling every %d ms for %.0f s per run, "
                    "at most %d requests in flight%s\n",
                    o.serverIsScript ? "sdk-fixture-server" : "eddy-cfd-server", server.pid(),
                    server.url().c_str(), o.intervalMs, o.durationS, o.maxInFlight,
                    floor ? "; the same polls against the floor (bench_server_floor) in alternating turns" : "");
        if (floor)
            std::printf("bench_server_floor pid %d at %s\n", floor->pid(), floor->url().c_str());
        std::fflush(stdout);
        std::vector<std::string> ids;
        std::vector<int> counts = o.taskCounts;
        std::sort(counts.begin(), counts.end());
        for (const int count : counts) {
            std::printf("%d tasks:\n", count);
            // Created in batches that park before the next batch: the bench measures polling, and
            // a deep run queue makes the server's task creation itself the bottleneck.
            while (int(ids.size()) < count) {
                const int batch = std::min(count - int(ids.size()), 1000);
                auto more = createTasks(o, server.url(), batch, int(ids.size()));
                waitParked(server.url(), more);
                ids.insert(ids.end(), more.begin(), more.end());
            }
            const std::vector<std::string> subset(ids.begin(), ids.begin() + count);
            for (const bool keep : {true, false}) {
                if ((keep && !o.keepAlive) || (!keep && !o.fresh))
                    continue;
                Pair pair{count, keep, {}, std::nullopt, {}};
                if (!floor) {
                    pair.eddy = pollRun(o, server.url(), server.pid(), subset, keep);
                } else {
                    // Turns of the same ids and request bytes, eddy-cfd-server then the floor
                    // (which answers every one alike), so that both see the same machine load.
                    RunResult f;
                    const double slice = o.durationS / o.slices;
                    const int inFlight = std::min<int>(o.maxInFlight, count);
                    Poller toServer(server.url(), keep, inFlight), toFloor(floor->url(), keep, inFlight);
                    for (int turn = 0; turn < o.slices; ++turn) {
                        const RunResult e = pollRun(o, server.url(), server.pid(), subset, keep, slice,
                                                    turn == 0, &toServer);
                        const RunResult fl = pollRun(o, floor->url(), floor->pid(), subset, keep, slice,
                                                     turn == 0, &toFloor);
                        if (e.served > 0 && fl.served > 0 && e.serverCpuS > 0 && fl.serverCpuS > 0)
                            pair.turnRatios.push_back(serverUsPerPoll(e) / serverUsPerPoll(fl));
                        accumulate(pair.eddy, e);
                        accumulate(f, fl);
                    }
                    f.label = std::string("floor (bench_server_floor), ")
                              + (keep ? "keep-alive" : "new connection per request");
                    pair.floor = f;
                }
                rows.push_back(row(pair.eddy));
                std::printf("  %s\n", rows.back().c_str());
                if (pair.floor) {
                    rows.push_back(row(*pair.floor));
                    std::printf("  %s\n", rows.back().c_str());
                }
                std::fflush(stdout);
                pairs.push_back(std::move(pair));
            }
            if (!o.nodeBin.empty() && count == o.nodeTasks) {
                const std::pair<const char *, const char *> scripts[] = {
                    {"node-http-poll.mjs", "Node node:http, keep-alive"},
                    {"ext-tasks-poll.mjs", "Node ext-tasks requester (snapshot)"}};
                for (const auto &[file, label] : scripts) {
                    if (auto r = nodeRun(o, (fs::path(o.scriptDir) / file).string(), label, server.url(),
                                         server.pid(), subset, tmp)) {
                        rows.push_back(row(*r));
                        std::printf("  %s\n", rows.back().c_str());
                        std::fflush(stdout);
                    }
                }
            }
        }
        std::printf("server peak RSS (VmHWM): %.1f MiB\n", statusKb(server.pid(), "VmHWM") / 1024.0);
    }
    std::printf("\n%s\n", header.c_str());
    for (const auto &r : rows)
        std::printf("%s\n", r.c_str());
    std::printf("\n");
    for (const Pair &p : pairs)
        printRatio(o, p.tasks, p.keepAlive, p.eddy, p.floor, p.turnRatios);
    if (!o.markdownOut.empty()) {
        std::ofstream out(o.markdownOut);
        out << header << "\n";
        for (const auto &r : rows)
            out << r << "\n";
    }
    std::error_code ec;
    fs::remove_all(tmp, ec);
    curl_global_cleanup();
    return 0;
}
