// bench_server_floor: the least an HTTP/1.1 server can do per tasks/get on this machine, the floor
// that bench_server reads eddy-cfd-server's CPU per poll against. One thread, one epoll set,
// non-blocking sockets; every request gets the same 200-byte JSON answer. It reads nothing of a
// request but the end of its headers and its Content-Length (to find where the next request on
// a keep-alive connection starts). Connection-per-request clients simply close. It spends no
// syscall it can avoid: one accept4 per event on the level-triggered listener, the new socket
// read at once, no recv that would only say EAGAIN after a short read, no epoll_ctl per answer.
//   bench_server_floor [--port N]   prints "listening on http://127.0.0.1:PORT/mcp", runs until
//                                   SIGTERM or SIGINT. Loopback only. Not a server for anything else.
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_map>

namespace {

volatile std::sig_atomic_t g_stop = 0;

void onSignal(int)
{
    g_stop = 1;
}

// 200 bytes of JSON-RPC body, shaped like a tasks/get answer.
std::string body()
{
    std::string b = R"({"jsonrpc":"2.0","id":1,"result":{"taskId":"floor","status":"input_required",)"
                    R"("statusMessage":"waiting","createdAt":"2026-12-01T00:00:00Z","pollIntervalMs":500,"p":")";
    const std::string tail = "\"}}";
    b.append(200 - b.size() - tail.size(), 'x');
    b += tail;
    return b;
}

struct Connection
{
    std::string in;
    std::string out;
    size_t sent = 0;
    bool wantsWrite = false; // EPOLLOUT registered
};

// Length of the first complete request in `in` (headers and body), or 0 if it is not all there.
size_t completeRequest(const std::string &in)
{
    const size_t end = in.find("\r\n\r\n");
    if (end == std::string::npos)
        return 0;
    size_t length = 0;
    static const char key[] = "\r\ncontent-length:";
    for (size_t at = in.find("\r\n"); at != std::string::npos && at < end; at = in.find("\r\n", at + 2)) {
        if (strncasecmp(in.c_str() + at, key, sizeof key - 1) == 0) {
            length = std::strtoul(in.c_str() + at + sizeof key - 1, nullptr, 10);
            break;
        }
    }
    const size_t total = end + 4 + length;
    return in.size() >= total ? total : 0;
}

} // namespace

int main(int argc, char **argv)
{
    int port = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--port" && i + 1 < argc) {
            port = std::atoi(argv[++i]);
        } else if (a == "--help" || a == "-h") {
            std::printf("Usage: bench_server_floor [--port N]\n"
                        "A fixed 200-byte JSON answer to every HTTP/1.1 request on 127.0.0.1,\n"
                        "the floor bench_server --floor compares eddy-cfd-server with.\n");
            return 0;
        } else {
            std::fprintf(stderr, "bench_server_floor: unknown argument \"%s\"; see --help\n", a.c_str());
            return 2;
        }
    }
    std::signal(SIGTERM, onSignal);
    std::signal(SIGINT, onSignal);
    std::signal(SIGPIPE, SIG_IGN);

    const std::string answerBody = body();
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                               + std::to_string(answerBody.size()) + "\r\n\r\n" + answerBody;

    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(uint16_t(port));
    if (bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || listen(listener, 1024) != 0) {
        std::fprintf(stderr, "bench_server_floor: cannot listen on 127.0.0.1:%d: %s\n", port,
                     std::strerror(errno));
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len);
    std::printf("listening on http://127.0.0.1:%d/mcp\n", ntohs(addr.sin_port));
    std::fflush(stdout);

    const int ep = epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listener;
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
    std::unordered_map<int, Connection> connections;
    const auto drop = [&](int fd) {
        epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
        close(fd);
        connections.erase(fd);
    };
    // Writes what is pending; returns false when the connection is gone.
    const auto flush = [&](int fd, Connection &c) {
        while (c.sent < c.out.size()) {
            const ssize_t n = send(fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            if (n <= 0)
                return false;
            c.sent += size_t(n);
        }
        if (c.sent == c.out.size()) {
            c.out.clear();
            c.sent = 0;
        }
        if (c.wantsWrite != !c.out.empty()) { // only when it changes: no syscall per answer
            c.wantsWrite = !c.out.empty();
            epoll_event w{};
            w.events = EPOLLIN | (c.wantsWrite ? unsigned(EPOLLOUT) : 0u);
            w.data.fd = fd;
            epoll_ctl(ep, EPOLL_CTL_MOD, fd, &w);
        }
        return true;
    };
    epoll_event events[64];
    char buf[65536];
    while (!g_stop) {
        const int n = epoll_wait(ep, events, 64, 500);
        for (int i = 0; i < n; ++i) {
            int fd = events[i].data.fd;
            uint32_t what = events[i].events;
            if (fd == listener) {
                fd = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd < 0)
                    continue;
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                epoll_event cev{};
                cev.events = EPOLLIN;
                cev.data.fd = fd;
                epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
                connections[fd];
                what = EPOLLIN; // the request is usually there already
            }
            auto it = connections.find(fd);
            if (it == connections.end())
                continue;
            Connection &c = it->second;
            bool alive = true;
            if (what & EPOLLIN) {
                while (true) {
                    const ssize_t r = recv(fd, buf, sizeof buf, 0);
                    if (r > 0) {
                        c.in.append(buf, size_t(r));
                        if (size_t(r) < sizeof buf)
                            break; // drained: level-triggered epoll reports what comes later
                        continue;
                    }
                    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                        break;
                    alive = false; // closed by the client, or an error
                    break;
                }
                while (size_t used = completeRequest(c.in)) {
                    c.in.erase(0, used);
                    c.out += answer;
                }
            }
            if (alive && (!c.out.empty() || (what & EPOLLOUT)))
                alive = flush(fd, c);
            if (!alive || (what & (EPOLLERR | EPOLLHUP)))
                drop(fd);
        }
    }
    for (auto &[fd, c] : connections)
        close(fd);
    close(ep);
    close(listener);
    return 0;
}
