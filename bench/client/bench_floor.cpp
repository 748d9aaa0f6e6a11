// bench_floor: what a tasks/get round trip costs on this machine without Eddy, to read
// bench_client's numbers against. The same request bytes Eddy sends go to the real
// eddy-cfd-server on loopback, paced like the poll scheduler (N polls sent together every T ms,
// 100 tasks round-robin, at most 16 connections), by two bare loops with no Qt and no parsing:
//   raw  - blocking-free sockets, send / poll / recv, one keep-alive connection per request in flight;
//   curl - libcurl's multi interface driven by epoll and curl_multi_socket_action, as Eddy's
//          HttpClient drives it, with the answer appended to a buffer and nothing else;
//   lane - Eddy's Net::PollLane on the Qt event loop (libcurl connects, the lane writes and reads).
// Reports client CPU (getrusage, user+sys) per round trip and sleeps per round trip. Run by hand:
// build/bench/client/bench_floor [--seconds S] [--only raw|curl|lane]. Not a test: nothing here asserts speed.

#include "app/mcp/client.h"
#include "app/net/httpclient.h"
#include "app/net/polllane.h"
#include "tests/common/testserver.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QTimer>

#include <curl/curl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

using namespace Eddy;
using nlohmann::json;

namespace {

constexpr int kMaxConnections = 16;

struct Usage
{
    double cpuUs = 0;
    long voluntarySwitches = 0; // times the process slept (blocked in poll/epoll_wait)
};

Usage usage()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec),
            u.ru_nvcsw};
}

double nowMs()
{
    return double(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count())
        / 1000.0;
}

void sleepUntil(double ms)
{
    const double wait = ms - nowMs();
    if (wait > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(qint64(wait * 1000)));
}

// The bytes Eddy's Mcp::Client sends for tasks/get (same headers, same _meta).
std::string requestFor(const std::string &host, const std::string &taskId, bool withHead, std::string *bodyOut = nullptr)
{
    const json body = {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tasks/get"},
                       {"params", {{"taskId", taskId},
                                   {"_meta", {{"io.modelcontextprotocol/clientCapabilities",
                                               {{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                                                {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}},
                                              {"io.modelcontextprotocol/clientInfo", {{"name", "eddy"}, {"version", "0.1.0"}}},
                                              {"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}};
    const std::string text = body.dump();
    if (bodyOut)
        *bodyOut = text;
    if (!withHead)
        return text;
    return "POST /mcp HTTP/1.1\r\nHost: " + host
        + "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
          "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tasks/get\r\nMcp-Name: "
        + taskId + "\r\nContent-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
}

struct Result
{
    long roundTrips = 0;
    long errors = 0;
    Usage used;
};

// Reads one whole HTTP answer (Content-Length framed) from a connection; false on error.
struct RawConnection
{
    int fd = -1;
    std::string in;
    bool busy = false;

    bool open(quint16 port)
    {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 && errno != EINPROGRESS)
            return false;
        pollfd p{fd, POLLOUT, 0};
        return ::poll(&p, 1, 5000) == 1;
    }
    // 1: a whole answer is in; 0: need more; -1: error
    int readSome()
    {
        char buf[16384];
        for (;;) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n > 0) {
                in.append(buf, size_t(n));
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            return -1;
        }
        const size_t head = in.find("\r\n\r\n");
        if (head == std::string::npos)
            return 0;
        const size_t cl = in.find("Content-Length: ");
        if (cl == std::string::npos || cl > head)
            return -1;
        const size_t length = std::stoul(in.substr(cl + 16));
        if (in.size() < head + 4 + length)
            return 0;
        in.erase(0, head + 4 + length);
        return 1;
    }
};

Result runRaw(quint16 port, const std::vector<std::string> &requests, int perTick, double tickMs, double seconds)
{
    Result r;
    std::vector<RawConnection> conns(size_t(std::min(perTick, kMaxConnections)));
    for (RawConnection &c : conns) {
        if (!c.open(port)) {
            r.errors = 1;
            return r;
        }
    }
    size_t cursor = 0;
    const Usage u0 = usage();
    const double t0 = nowMs();
    double next = t0;
    std::vector<pollfd> fds(conns.size());
    while (nowMs() - t0 < seconds * 1000) {
        sleepUntil(next);
        next += tickMs;
        int toSend = perTick;
        int pending = 0;
        auto sendOn = [&](RawConnection &c) {
            const std::string &req = requests[cursor++ % requests.size()];
            if (::send(c.fd, req.data(), req.size(), MSG_NOSIGNAL) != ssize_t(req.size()))
                ++r.errors;
            c.busy = true;
            --toSend;
            ++pending;
        };
        for (RawConnection &c : conns)
            if (toSend > 0)
                sendOn(c);
        while (pending > 0) {
            for (size_t i = 0; i < conns.size(); ++i)
                fds[i] = {conns[i].fd, short(conns[i].busy ? POLLIN : 0), 0};
            if (::poll(fds.data(), nfds_t(fds.size()), 5000) <= 0) {
                ++r.errors;
                return r;
            }
            for (size_t i = 0; i < conns.size(); ++i) {
                if (!(fds[i].revents & (POLLIN | POLLERR | POLLHUP)))
                    continue;
                const int got = conns[i].readSome();
                if (got < 0) {
                    ++r.errors;
                    return r;
                }
                if (got == 1) {
                    conns[i].busy = false;
                    --pending;
                    ++r.roundTrips;
                    if (toSend > 0)
                        sendOn(conns[i]);
                }
            }
        }
    }
    const Usage u1 = usage();
    r.used = {u1.cpuUs - u0.cpuUs, u1.voluntarySwitches - u0.voluntarySwitches};
    for (RawConnection &c : conns)
        ::close(c.fd);
    return r;
}

// libcurl's multi interface on epoll, the way HttpClient drives it on the Qt loop.
struct CurlLoop
{
    CURLM *multi = nullptr;
    int epfd = -1;
    long timeoutMs = -1;

    static int onSocket(CURL *, curl_socket_t s, int what, void *userp, void *socketp)
    {
        auto *self = static_cast<CurlLoop *>(userp);
        epoll_event ev{};
        ev.data.fd = s;
        if (what == CURL_POLL_REMOVE) {
            epoll_ctl(self->epfd, EPOLL_CTL_DEL, s, nullptr);
            curl_multi_assign(self->multi, s, nullptr);
            return 0;
        }
        ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
        if (!socketp) {
            epoll_ctl(self->epfd, EPOLL_CTL_ADD, s, &ev);
            curl_multi_assign(self->multi, s, self); // any non-null marker
        } else {
            epoll_ctl(self->epfd, EPOLL_CTL_MOD, s, &ev);
        }
        return 0;
    }
    static int onTimer(CURLM *, long ms, void *userp)
    {
        static_cast<CurlLoop *>(userp)->timeoutMs = ms;
        return 0;
    }
};

size_t sink(char *data, size_t size, size_t count, void *userp)
{
    static_cast<std::string *>(userp)->append(data, size * count);
    return size * count;
}

Result runCurl(const std::string &url, const std::vector<std::string> &ids, const std::vector<std::string> &bodies,
               int perTick, double tickMs, double seconds)
{
    Result r;
    CurlLoop loop;
    loop.multi = curl_multi_init();
    loop.epfd = epoll_create1(EPOLL_CLOEXEC);
    curl_multi_setopt(loop.multi, CURLMOPT_SOCKETFUNCTION, &CurlLoop::onSocket);
    curl_multi_setopt(loop.multi, CURLMOPT_SOCKETDATA, &loop);
    curl_multi_setopt(loop.multi, CURLMOPT_TIMERFUNCTION, &CurlLoop::onTimer);
    curl_multi_setopt(loop.multi, CURLMOPT_TIMERDATA, &loop);
    curl_multi_setopt(loop.multi, CURLMOPT_MAX_HOST_CONNECTIONS, long(kMaxConnections));
    std::vector<std::string> names;
    for (const std::string &id : ids)
        names.push_back("Mcp-Name: " + id);
    curl_slist *common = nullptr;
    for (const char *h : {"Accept: application/json, text/event-stream", "Content-Type: application/json",
                          "MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tasks/get", "Expect:"})
        common = curl_slist_append(common, h);
    std::vector<curl_slist *> headers;
    for (const std::string &n : names) {
        curl_slist *list = nullptr;
        for (curl_slist *h = common; h; h = h->next)
            list = curl_slist_append(list, h->data);
        headers.push_back(curl_slist_append(list, n.c_str()));
    }
    std::vector<CURL *> idle;
    auto makeEasy = [&] {
        CURL *e = curl_easy_init();
        curl_easy_setopt(e, CURLOPT_URL, url.c_str());
        curl_easy_setopt(e, CURLOPT_PROXY, "");
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &sink);
        return e;
    };
    size_t cursor = 0;
    int running = 0;
    int pending = 0;
    int toSend = 0;
    std::vector<std::string> buffers(64);
    size_t nextBuffer = 0;
    auto startOne = [&] {
        CURL *e = idle.empty() ? makeEasy() : idle.back();
        if (!idle.empty())
            idle.pop_back();
        const size_t i = cursor++ % ids.size();
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers[i]);
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, bodies[i].c_str());
        std::string *buffer = &buffers[nextBuffer++ % buffers.size()];
        buffer->clear();
        curl_easy_setopt(e, CURLOPT_WRITEDATA, buffer);
        curl_multi_add_handle(loop.multi, e);
        --toSend;
        ++pending;
    };
    auto harvest = [&] {
        int left = 0;
        while (CURLMsg *m = curl_multi_info_read(loop.multi, &left)) {
            if (m->msg != CURLMSG_DONE)
                continue;
            long status = 0;
            curl_easy_getinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (m->data.result == CURLE_OK && status == 200)
                ++r.roundTrips;
            else
                ++r.errors;
            CURL *e = m->easy_handle;
            curl_multi_remove_handle(loop.multi, e);
            idle.push_back(e);
            --pending;
        }
    };
    const Usage u0 = usage();
    const double t0 = nowMs();
    double next = t0;
    epoll_event events[kMaxConnections * 2];
    while (nowMs() - t0 < seconds * 1000) {
        sleepUntil(next);
        next += tickMs;
        toSend = perTick;
        while (toSend > 0 && pending < kMaxConnections)
            startOne();
        while (pending > 0) {
            // A 0 ms timer (every added transfer asks for one) runs at once, without a sleep.
            const int n = loop.timeoutMs == 0 ? 0
                                              : epoll_wait(loop.epfd, events, kMaxConnections * 2,
                                                           loop.timeoutMs < 0 ? 5000 : int(loop.timeoutMs));
            if (n == 0) {
                loop.timeoutMs = -1;
                curl_multi_socket_action(loop.multi, CURL_SOCKET_TIMEOUT, 0, &running);
            }
            for (int i = 0; i < n; ++i) {
                const int mask = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0)
                    | (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0)
                    | (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
                curl_multi_socket_action(loop.multi, events[i].data.fd, mask, &running);
            }
            harvest();
            while (toSend > 0 && pending < kMaxConnections)
                startOne();
        }
    }
    const Usage u1 = usage();
    r.used = {u1.cpuUs - u0.cpuUs, u1.voluntarySwitches - u0.voluntarySwitches};
    for (CURL *e : idle)
        curl_easy_cleanup(e);
    curl_multi_cleanup(loop.multi);
    ::close(loop.epfd);
    for (curl_slist *h : headers)
        curl_slist_free_all(h);
    curl_slist_free_all(common);
    return r;
}

// Eddy's PollLane on the Qt event loop: libcurl connects, the lane writes and reads the polls.
Result runLane(const QUrl &url, const std::vector<std::string> &ids, const std::vector<std::string> &bodies,
               int perTick, double tickMs, double seconds)
{
    Result r;
    std::vector<Net::HttpRequest> requests;
    for (size_t i = 0; i < ids.size(); ++i) {
        Net::HttpRequest request;
        request.url = url;
        request.headers = {{"Accept", "application/json, text/event-stream"},
                           {"Content-Type", "application/json"},
                           {"MCP-Protocol-Version", "2026-07-28"},
                           {"Mcp-Method", "tasks/get"},
                           {"Mcp-Name", QByteArray::fromStdString(ids[i])}};
        request.body = QByteArray::fromStdString(bodies[i]);
        requests.push_back(std::move(request));
    }
    Net::PollLane lane(url);
    lane.setMaxConnections(kMaxConnections);
    size_t cursor = 0;
    const Net::PollLane::Done done = [&r](Net::PollLane::Outcome o) {
        if (o.kind == Net::PollLane::Outcome::Answered && o.status == 200)
            ++r.roundTrips;
        else
            ++r.errors;
    };
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, &lane, [&] {
        for (int i = 0; i < perTick; ++i)
            lane.send(requests[cursor++ % requests.size()], done);
    });
    QEventLoop loop;
    QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    const Usage u0 = usage();
    tick.start(int(tickMs));
    loop.exec();
    tick.stop();
    const Usage u1 = usage();
    r.used = {u1.cpuUs - u0.cpuUs, u1.voluntarySwitches - u0.voluntarySwitches};
    if (lane.connectionsOpened() > kMaxConnections || !lane.isEnabled())
        ++r.errors;
    return r;
}

void report(const char *name, int perTick, double tickMs, const Result &r)
{
    std::printf("%-4s %3d polls every %5.0f ms: %6ld round trips, %2ld errors, client CPU %6.1f us/round trip, "
                "%.2f sleeps/round trip\n",
                name, perTick, tickMs, r.roundTrips, r.errors, r.roundTrips ? r.used.cpuUs / double(r.roundTrips) : 0.0,
                r.roundTrips ? double(r.used.voluntarySwitches) / double(r.roundTrips) : 0.0);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.debug=false\neddy.*.info=false"));
    Net::initGlobal();
    double seconds = 5;
    const qsizetype at = app.arguments().indexOf(QStringLiteral("--seconds"));
    if (at >= 0)
        seconds = app.arguments().value(at + 1).toDouble();
    if (seconds <= 0) {
        std::fprintf(stderr, "--seconds needs a positive number, e.g. --seconds 5\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("EDDY_SERVER_BIN"))
        qputenv("EDDY_SERVER_BIN", EDDY_BENCH_SERVER_BIN);
    Test::TestServer server;
    if (!server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"),
                       QStringLiteral("500"), QStringLiteral("--log-level"), QStringLiteral("error")})) {
        std::fprintf(stderr, "cannot start eddy-cfd-server: %s\n", qPrintable(server.errorString()));
        return 1;
    }

    // 100 tasks waiting for input (the forced mesh defect), as bench_client polls them.
    std::vector<std::string> ids;
    {
        Net::HttpClient http;
        Mcp::ServerConfig config;
        config.url = QUrl(server.url());
        Mcp::Client client(config, &http);
        QEventLoop loop;
        int done = 0;
        for (int i = 0; i < 100; ++i) {
            const json args = {{"case_name", "floor"}, {"reynolds", 100}, {"grid", 8},
                               {"max_iterations", 10000000}, {"tolerance", 1e-14}, {"force_mesh_defect", true}};
            Mcp::CallJob *job = client.callTool(QStringLiteral("run_cfd_case"), args);
            QObject::connect(job, &Mcp::Job::finished, &loop, [&, job] {
                if (job->kind() == Mcp::CallJob::Kind::Task)
                    ids.push_back(job->task().taskId);
                if (++done == 100)
                    loop.quit();
            });
        }
        loop.exec();
    }
    if (ids.size() != 100) {
        std::fprintf(stderr, "could create only %zu of 100 tasks\n", ids.size());
        return 1;
    }
    const std::string host = "127.0.0.1:" + std::to_string(server.port());
    std::vector<std::string> requests, bodies;
    for (const std::string &id : ids) {
        std::string body;
        requests.push_back(requestFor(host, id, true, &body));
        bodies.push_back(body);
    }
    const std::string url = server.url().toStdString();
    std::printf("100 tasks, each answer an input_required task with its form; %.0f s per row; at most %d "
                "connections\n",
                seconds, kMaxConnections);
    const QString only = app.arguments().contains(QStringLiteral("--only"))
        ? app.arguments().value(app.arguments().indexOf(QStringLiteral("--only")) + 1)
        : QString();
    const std::pair<int, double> pacings[] = {{1, 5}, {4, 20}, {25, 125}, {100, 500}};
    for (const auto &[perTick, tickMs] : pacings) {
        if (only.isEmpty() || only == QLatin1String("raw"))
            report("raw", perTick, tickMs, runRaw(server.port(), requests, perTick, tickMs, seconds));
        if (only.isEmpty() || only == QLatin1String("curl"))
            report("curl", perTick, tickMs, runCurl(url, ids, bodies, perTick, tickMs, seconds));
        if (only.isEmpty() || only == QLatin1String("lane"))
            report("lane", perTick, tickMs, runLane(QUrl(server.url()), ids, bodies, perTick, tickMs, seconds));
    }
    return 0;
}
