#include "server/httpserver.h"

#include "server/log.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace Eddy::Server {

namespace {

constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
// Reused per-thread buffers give back what one large request or response made them hold.
constexpr std::size_t kKeptBufferBytes = 64 * 1024;
// Event threads, each with its own epoll set. One: the polls of many connections then share a
// wake-up (at 1,000 tasks every 500 ms, two threads split them and woke about 1.3 times as often
// per poll, costing 1.6x the CPU per poll); anything slow runs on its own thread anyway.
constexpr int kEventThreads = 1;
constexpr int kSendTimeoutMs = 30000;
// Requests that are not polls and open streams each hold a thread; beyond this, answer 503.
constexpr std::size_t kMaxRequestThreads = 4096;
// A connection answered on its first request is checked again after this long (by then a
// client that opens a connection per request has closed it) or at its event thread's next
// wake-up after at least kParkMin, and only then, if still open, enters the epoll set.
constexpr auto kParkMax = std::chrono::milliseconds(10);
constexpr auto kParkMin = std::chrono::milliseconds(1);

// The index of the event thread running here; -1 on request threads.
thread_local int t_eventThread = -1;

std::string_view reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 202: return "Accepted";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

char *put(char *p, std::string_view s)
{
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
}

} // namespace

struct HttpServer::Connection
{
    int fd = -1;
    int epollFd = -1;         // the set of the event thread that accepted it
    bool registered = false;  // in that set now (not while another thread serves it)
    bool parked = false;      // was parked once after its first answer (see park())
    bool answered = false;    // at least one request was complete
    bool tracked = false;     // in m_unfinished (owner thread only)
    std::atomic<bool> timedOut{false}; // set by the sweep under m_unfinishedMutex
    std::string in;
};

HttpServer::HttpServer(Handler handler, FastPath fastPath, ErrorFiller errorFiller,
                       std::size_t maxBody)
    : m_handler(std::move(handler))
    , m_fastPath(std::move(fastPath))
    , m_errorFiller(std::move(errorFiller))
    , m_maxBody(maxBody)
{}

HttpServer::~HttpServer()
{
    if (m_listenFd >= 0)
        ::close(m_listenFd);
    for (const int fd : m_epollFds)
        ::close(fd);
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

int HttpServer::bind(const std::string &host, int port, std::string &error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo *found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
        error = "cannot resolve --host '" + host + "': " + gai_strerror(rc);
        return -1;
    }
    for (addrinfo *ai = found; ai; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                                ai->ai_protocol);
        if (fd < 0)
            continue;
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        // Accepted sockets inherit TCP_NODELAY; and accept() waits until the first request's
        // bytes are there, so the first read needs no epoll round trip.
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        const int deferSeconds = 5;
        ::setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &deferSeconds, sizeof deferSeconds);
        if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, 4096) == 0) {
            m_listenFd = fd;
            break;
        }
        error = std::strerror(errno);
        ::close(fd);
    }
    freeaddrinfo(found);
    if (m_listenFd < 0) {
        error = "cannot listen on " + host + ":" + std::to_string(port) + " (" + error
                + "); choose another --port (0 picks a free one) or --host";
        return -1;
    }
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&addr), &len);
    const int bound = addr.ss_family == AF_INET6
                          ? ntohs(reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port)
                          : ntohs(reinterpret_cast<sockaddr_in *>(&addr)->sin_port);

    m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_wakeFd < 0) {
        error = std::string("cannot create the event loop: ") + std::strerror(errno);
        return -1;
    }
    // One epoll set per event thread: a connection stays in the set of the thread that accepted
    // it, level-triggered, so serving a poll needs no re-arm (epoll_ctl) and no other thread is
    // woken for it. The listening socket is in every set, exclusively: a new connection wakes
    // one thread, not all of them.
    for (int i = 0; i < kEventThreads; ++i) {
        const int epollFd = epoll_create1(EPOLL_CLOEXEC);
        if (epollFd < 0) {
            error = std::string("cannot create the event loop: ") + std::strerror(errno);
            return -1;
        }
        m_epollFds.push_back(epollFd);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLEXCLUSIVE;
        ev.data.ptr = nullptr; // the listening socket
        epoll_ctl(epollFd, EPOLL_CTL_ADD, m_listenFd, &ev);
        ev.events = EPOLLIN; // level-triggered: once written, it wakes every event thread
        ev.data.ptr = &m_wakeFd;
        epoll_ctl(epollFd, EPOLL_CTL_ADD, m_wakeFd, &ev);
    }
    return bound;
}

void HttpServer::run()
{
    m_parked.resize(kEventThreads);
    for (int i = 1; i < kEventThreads; ++i)
        m_eventThreads.emplace_back([this, i] { eventLoop(i); });
    eventLoop(0);
    for (std::thread &t : m_eventThreads)
        t.join();
    m_eventThreads.clear();
    std::unique_lock lock(m_threadsMutex);
    m_threadsCv.wait(lock, [this] { return m_requestThreads == 0; });
    // No thread serves a connection any more; those left are idle between requests.
    const std::lock_guard live(m_liveMutex);
    for (Connection *c : m_live) {
        ::close(c->fd);
        delete c;
    }
    m_live.clear();
}

void HttpServer::stop()
{
    m_stopping = true;
    if (m_listenFd >= 0)
        ::shutdown(m_listenFd, SHUT_RDWR);
    const std::uint64_t one = 1;
    if (m_wakeFd >= 0 && ::write(m_wakeFd, &one, sizeof one) < 0)
        Log::warn("cannot wake the event threads");
}

[[gnu::hot]] void HttpServer::eventLoop(int index)
{
    t_eventThread = index;
    const int epollFd = m_epollFds[std::size_t(index)];
    const bool sweeps = index == 0;
    std::vector<Parked> &parked = m_parked[std::size_t(index)];
    epoll_event events[64];
    // One thread checks deadlines a few times per timeout (at most once a second): an idle
    // server wakes once a second, a busy one sweeps between events.
    const auto sweepEvery = std::clamp(m_requestTimeout / 4, std::chrono::milliseconds(10),
                                       std::chrono::milliseconds(1000));
    auto nextSweep = std::chrono::steady_clock::now() + sweepEvery;
    unsigned wakeups = 0;
    int n = 0;
    while (!m_stopping) {
        // The clock is read on timeouts and every 256th wake-up, not on every poll.
        if (sweeps && (n == 0 || ++wakeups % 256 == 0)) {
            const auto now = std::chrono::steady_clock::now();
            if (now >= nextSweep) {
                sweepUnfinished();
                nextSweep = now + sweepEvery;
            }
        }
        int timeout = sweeps ? int(sweepEvery.count()) : -1;
        if (!parked.empty())
            timeout = int(kParkMax.count());
        n = epoll_wait(epollFd, events, 64, timeout);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            Log::error(std::string("epoll_wait failed: ") + std::strerror(errno));
            return;
        }
        for (int i = 0; i < n; ++i) {
            void *ptr = events[i].data.ptr;
            if (ptr == &m_wakeFd)
                return;
            if (ptr == nullptr)
                accept(epollFd);
            else
                onReadable(static_cast<Connection *>(ptr));
        }
        if (!parked.empty())
            checkParked(parked, n == 0);
    }
}

bool HttpServer::park(Connection *c)
{
    if (t_eventThread < 0 || c->parked || c->registered || !c->in.empty())
        return false;
    c->parked = true;
    m_parked[std::size_t(t_eventThread)].push_back({c, std::chrono::steady_clock::now()});
    return true;
}

void HttpServer::checkParked(std::vector<Parked> &parked, bool all)
{
    // A client that opens a connection per request has usually closed this one by now: one
    // recv reads the close, and the close costs no wake-up of its own. Otherwise the recv
    // says EAGAIN (or reads the next request) and the connection goes on as any other.
    const auto due = std::chrono::steady_clock::now() - kParkMin;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < parked.size(); ++i) {
        if (!all && parked[i].since > due) {
            parked[kept++] = parked[i];
            continue;
        }
        onReadable(parked[i].connection);
    }
    parked.resize(kept);
}

void HttpServer::accept(int epollFd)
{
    // One connection per event: the listening socket is level-triggered, so the next
    // epoll_wait reports it again while more wait, and no accept4 is spent to hear EAGAIN.
    int fd = -1;
    do {
        fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && (errno == EINTR || errno == ECONNABORTED));
    if (fd < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && !m_stopping)
            Log::warn(std::string("accept failed: ") + std::strerror(errno));
        return;
    }
    auto *c = new Connection;
    c->fd = fd;
    c->epollFd = epollFd;
    {
        const std::lock_guard live(m_liveMutex);
        m_live.insert(c);
    }
    // Read at once (the request is usually there already); rearm() registers the socket.
    onReadable(c);
}

[[gnu::hot]] void HttpServer::onReadable(Connection *c)
{
    char buf[64 * 1024];
    while (true) {
        const ssize_t n = ::recv(c->fd, buf, sizeof buf, 0);
        if (n > 0) {
            // The usual poll: one short read holds a whole request on a connection with
            // nothing buffered. It is served where it lies; only a remainder is copied.
            if (std::size_t(n) < sizeof buf && c->in.empty()) {
                serveBuffered(c, false, std::string_view(buf, std::size_t(n)));
                return;
            }
            c->in.append(buf, std::size_t(n));
            // A short read drained the socket: skip the recv that would only say EAGAIN (the
            // level-triggered set reports anything that arrives later).
            if (std::size_t(n) < sizeof buf)
                break;
            // Never buffer more than one maximal request; the parser rejects it below.
            if (c->in.size() > m_maxBody + kMaxHeaderBytes)
                break;
            continue;
        }
        if (n == 0) {
            if (c->timedOut)
                sendError(c, 408);
            else
                close(c);
            return;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
        close(c);
        return;
    }
    serveBuffered(c, false, {});
}

[[gnu::hot]] bool HttpServer::serveBuffered(Connection *c, bool inlineOnly, std::string_view fresh)
{
    // Requests are parsed where their bytes lie: in c->in or, when c->in was empty, in fresh
    // (the event thread's read buffer). Whatever is left unserved when the loop waits for more
    // bytes or hands c to another thread moves into c->in first.
    const bool inPlace = !fresh.empty();
    std::string_view pending = inPlace ? fresh : std::string_view(c->in);
    const auto consume = [&](std::size_t size) {
        if (inPlace) {
            pending.remove_prefix(size);
        } else {
            c->in.erase(0, size);
            pending = c->in;
        }
    };
    const auto keepRest = [&] {
        if (inPlace && !pending.empty())
            c->in.assign(pending);
    };
    while (true) {
        // Reused across requests on this thread, so a poll's header list and bytes keep their
        // memory; a request handed to another thread is moved out and this one starts empty.
        thread_local HttpRequest request;
        if (request.headers.capacity() > 256)
            decltype(request.headers)().swap(request.headers);
        request.body = {};
        HttpHead head;
        // Nothing left (the usual end of a poll's read): nothing to parse.
        const HttpHead::Result parsed
            = pending.empty() ? HttpHead::Result::Incomplete : parseHead(pending, request, head);
        if (parsed == HttpHead::Result::Incomplete) {
            keepRest();
            if (c->in.size() > kMaxHeaderBytes) {
                sendError(c, 431);
                return false;
            }
            if (!c->in.empty() || !c->answered)
                trackUnfinished(c);
            else if (park(c))
                return true;
            rearm(c);
            return true;
        }
        // A whole head that came in one read is held to the limit a head still arriving is.
        if (head.size > kMaxHeaderBytes) {
            sendError(c, 431);
            return false;
        }
        if (parsed == HttpHead::Result::Bad) {
            sendError(c, 400);
            return false;
        }
        const bool http10 = request.http10;
        const std::size_t contentLength = head.contentLength;
        if (head.chunked) {
            sendError(c, 411); // JSON-RPC messages are small: send them with Content-Length
            return false;
        }
        if (contentLength > m_maxBody) {
            rejectOversize(c);
            return false;
        }
        if (pending.size() < head.size + contentLength) {
            keepRest();
            trackUnfinished(c);
            rearm(c);
            return true;
        }
        c->answered = true;
        if (c->tracked)
            untrack(c);
        const std::size_t requestSize = head.size + contentLength;
        request.body = pending.substr(head.size, contentLength);
        const std::string_view *connection = request.header(HttpRequest::Known::Connection);
        const std::string_view connectionValue = connection ? *connection : std::string_view();
        const bool keepAlive = http10 ? equalsIgnoreCase(connectionValue, "keep-alive")
                                      : !equalsIgnoreCase(connectionValue, "close");
        if (m_fastPath(request)) {
            // Reused like request: a poll's answer is built into memory the last one left.
            thread_local HttpResponse response;
            if (response.body.capacity() > kKeptBufferBytes)
                std::string().swap(response.body);
            response.status = 200;
            response.headers.clear();
            response.body.clear();
            response.contentType.clear();
            response.provider = nullptr;
            response.releaser = nullptr;
            handle(request, response);
            consume(requestSize); // the handler is done with the request's views
            if (!response.isStream()) {
                if (!finishResponse(c, response, keepAlive))
                    return false;
                continue;
            }
            // A streamed answer on the fast path: hand it to its own thread like the rest.
            keepRest();
            {
                const std::lock_guard lock(m_threadsMutex);
                ++m_requestThreads;
            }
            auto shared = std::make_shared<HttpResponse>(std::move(response));
            release(c);
            std::thread([this, c, shared] {
                stream(c, *shared);
                const std::lock_guard lock(m_threadsMutex);
                if (--m_requestThreads == 0)
                    m_threadsCv.notify_all();
            }).detach();
            return false;
        }
        // The request outlives the bytes it was parsed from: it takes a copy.
        request.adopt(pending.substr(0, requestSize));
        consume(requestSize);
        keepRest();
        if (inlineOnly) {
            // Already on a request thread: serve here.
            serve(c, std::move(request), keepAlive);
            return false;
        }
        {
            const std::lock_guard lock(m_threadsMutex);
            if (m_requestThreads >= kMaxRequestThreads) {
                sendError(c, 503);
                return false;
            }
            ++m_requestThreads;
        }
        release(c);
        try {
            std::thread([this, c, keepAlive, request = std::move(request)]() mutable {
                serve(c, std::move(request), keepAlive);
                const std::lock_guard lock(m_threadsMutex);
                if (--m_requestThreads == 0)
                    m_threadsCv.notify_all();
            }).detach();
        } catch (const std::system_error &) {
            {
                const std::lock_guard lock(m_threadsMutex);
                --m_requestThreads;
            }
            sendError(c, 503);
        }
        return false; // the request thread owns the connection now
    }
}

void HttpServer::handle(const HttpRequest &request, HttpResponse &response)
{
    runHandler(m_handler, request, response);
}

void HttpServer::serve(Connection *c, HttpRequest request, bool keepAlive)
{
    HttpResponse response;
    handle(request, response);
    if (response.isStream()) {
        stream(c, response);
        return;
    }
    if (finishResponse(c, response, keepAlive))
        serveBuffered(c, true, {});
}

[[gnu::hot]] bool HttpServer::finishResponse(Connection *c, HttpResponse &response, bool keepAlive)
{
    if (response.status >= 400 && response.bodySize() == 0)
        m_errorFiller(response);
    // The head only: the body goes out from where the handler wrote it, in the same send. It
    // is written once into a buffer on the stack when it fits (a poll's does), else on the heap.
    const std::string_view why = reason(response.status);
    std::size_t size = 128 + why.size() + response.contentType.size(); // 98 fixed at most
    for (const auto &[k, v] : response.headers)
        size += k.size() + v.size() + 4;
    char stack[512];
    std::string heap;
    if (size > sizeof stack)
        heap.resize(size);
    char *const begin = size > sizeof stack ? heap.data() : stack;
    char *p = begin;
    if (response.status == 200) {
        p = put(p, "HTTP/1.1 200 OK"); // a poll's: stored inline, no digits to compute
    } else {
        p = put(p, "HTTP/1.1 ");
        if (response.status >= 100 && response.status <= 999) {
            *p++ = char('0' + response.status / 100);
            *p++ = char('0' + response.status / 10 % 10);
            *p++ = char('0' + response.status % 10);
        } else {
            p = std::to_chars(p, p + 11, response.status).ptr;
        }
        *p++ = ' ';
        p = put(p, why);
    }
    if (response.contentType == std::string_view("application/json")) {
        p = put(p, "\r\nContent-Type: application/json");
    } else if (!response.contentType.empty()) {
        p = put(p, "\r\nContent-Type: ");
        p = put(p, response.contentType);
    }
    p = put(p, "\r\nContent-Length: ");
    p = std::to_chars(p, p + 20, response.bodySize()).ptr;
    p = put(p, "\r\n");
    for (const auto &[k, v] : response.headers) {
        p = put(p, k);
        p = put(p, ": ");
        p = put(p, v);
        p = put(p, "\r\n");
    }
    if (!keepAlive)
        p = put(p, "Connection: close\r\n");
    p = put(p, "\r\n");
    const std::string_view out(begin, std::size_t(p - begin));
    const std::string &body = response.body;
    bool sent;
    if (!response.shared) {
        const std::string_view parts[] = {out, body};
        sent = sendAll(c->fd, parts, 2);
    } else {
        const std::size_t at = std::min(response.sharedAt, body.size());
        const std::string_view parts[] = {out,
                                          std::string_view(body.data(), at),
                                          *response.shared,
                                          std::string_view(body.data() + at, body.size() - at)};
        sent = sendAll(c->fd, parts, 4);
        response.shared.reset(); // a task's old rendering is not held until the next answer
    }
    if (!sent || !keepAlive) {
        close(c);
        return false;
    }
    return true;
}

void HttpServer::stream(Connection *c, HttpResponse &response)
{
    std::string head
        = "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason(response.status))
          + "\r\nContent-Type: " + response.contentType + "\r\nTransfer-Encoding: chunked\r\n";
    for (const auto &[k, v] : response.headers)
        head += k + ": " + v + "\r\n";
    head += "\r\n";
    bool ok = sendAll(c->fd, head.data(), head.size());
    bool done = false;
    StreamSink sink;
    sink.write = [&](const char *data, std::size_t size) {
        if (size == 0)
            return true;
        char hex[32];
        const int n = std::snprintf(hex, sizeof hex, "%zx\r\n", size);
        std::string chunk(hex, std::size_t(n));
        chunk.append(data, size);
        chunk += "\r\n";
        return sendAll(c->fd, chunk.data(), chunk.size());
    };
    sink.done = [&] { done = true; };
    std::size_t offset = 0;
    while (ok && !done) {
        try {
            if (!response.provider(offset, sink))
                ok = false;
        } catch (const std::exception &e) {
            Log::error(std::string("stream provider failed: ") + e.what());
            ok = false;
        }
    }
    if (ok && done)
        ok = sendAll(c->fd, "0\r\n\r\n", 5);
    if (response.releaser)
        response.releaser(ok);
    close(c); // streams are never reused: a client opens a new connection for its next call
}

[[gnu::hot]] bool HttpServer::sendAll(int fd, const std::string_view *parts, std::size_t count)
{
    // One sendmsg for all parts (empty ones are fine there); what a partial send leaves goes
    // out through sendAll below.
    iovec vec[kMaxParts];
    std::size_t total = 0;
    count = std::min(count, kMaxParts);
    for (std::size_t i = 0; i < count; ++i) {
        vec[i] = {const_cast<char *>(parts[i].data()), parts[i].size()};
        total += parts[i].size();
    }
    msghdr message{};
    message.msg_iov = vec;
    message.msg_iovlen = count;
    ssize_t n = -1;
    do {
        n = ::sendmsg(fd, &message, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    std::size_t sent = n > 0 ? std::size_t(n) : 0;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        return false;
    if (sent == total)
        return true; // the usual case: all of it went in one call
    for (std::size_t i = 0; i < count; ++i) {
        std::string_view part = parts[i];
        const std::size_t done = std::min(sent, part.size());
        sent -= done;
        part.remove_prefix(done);
        if (!part.empty() && !sendAll(fd, part.data(), part.size()))
            return false;
    }
    return true;
}

bool HttpServer::sendAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n > 0) {
            data += n;
            size -= std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p{fd, POLLOUT, 0};
            if (::poll(&p, 1, kSendTimeoutMs) <= 0 || (p.revents & (POLLERR | POLLHUP)))
                return false;
            continue;
        }
        return false;
    }
    return true;
}

void HttpServer::rearm(Connection *c)
{
    if (c->registered)
        return; // level-triggered: it stays armed between requests
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.ptr = c;
    // Written before epoll_ctl: when a request thread hands the connection back, its event
    // thread may own (and free) it at once, so nothing here may touch c afterwards.
    c->registered = true;
    if (epoll_ctl(c->epollFd, EPOLL_CTL_ADD, c->fd, &ev) < 0)
        close(c);
}

void HttpServer::release(Connection *c)
{
    if (!c->registered)
        return;
    c->registered = false;
    epoll_ctl(c->epollFd, EPOLL_CTL_DEL, c->fd, nullptr);
}

void HttpServer::trackUnfinished(Connection *c)
{
    if (c->tracked)
        return;
    c->tracked = true;
    const std::lock_guard lock(m_unfinishedMutex);
    m_unfinished.emplace(c, std::chrono::steady_clock::now());
}

void HttpServer::untrack(Connection *c)
{
    c->tracked = false;
    const std::lock_guard lock(m_unfinishedMutex);
    m_unfinished.erase(c);
}

void HttpServer::sweepUnfinished()
{
    const auto deadline = std::chrono::steady_clock::now() - m_requestTimeout;
    const std::lock_guard lock(m_unfinishedMutex);
    for (auto &[c, since] : m_unfinished) {
        if (since > deadline)
            continue;
        // The connection may belong to another thread right now, so it is not touched here:
        // shutting the reading side wakes its owner, which answers 408 and closes. The fd is
        // still c's: close() leaves this map (under this mutex) before it closes the fd.
        c->timedOut = true;
        ::shutdown(c->fd, SHUT_RD);
        since = std::chrono::steady_clock::time_point::max();
    }
}

void HttpServer::close(Connection *c)
{
    if (c->tracked)
        untrack(c);
    // Removed explicitly: a child spawned by another thread (the Slurm backend's sbatch and
    // squeue) holds a copy of every descriptor until its exec, and while it does close() alone
    // leaves the registration, with its pointer to the freed connection, in the set.
    if (c->registered)
        epoll_ctl(c->epollFd, EPOLL_CTL_DEL, c->fd, nullptr);
    ::close(c->fd);
    {
        const std::lock_guard live(m_liveMutex);
        m_live.erase(c);
    }
    delete c;
}

void HttpServer::rejectOversize(Connection *c)
{
    release(c); // the draining thread owns it from here
    // Closing with the unread body still arriving would make the kernel send RST, which can
    // destroy the 413 before the client reads it: answer, stop writing, then drain a while.
    {
        const std::lock_guard lock(m_threadsMutex);
        ++m_requestThreads;
    }
    std::thread([this, c] {
        HttpResponse response;
        response.status = 413;
        m_errorFiller(response);
        std::string out = "HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
                          "Content-Length: " + std::to_string(response.body.size())
                          + "\r\nConnection: close\r\n\r\n" + response.body;
        if (sendAll(c->fd, out.data(), out.size())) {
            ::shutdown(c->fd, SHUT_WR);
            char buf[65536];
            std::size_t drained = 0;
            while (drained < 4 * m_maxBody) {
                pollfd p{c->fd, POLLIN, 0};
                if (::poll(&p, 1, 5000) <= 0)
                    break;
                const ssize_t n = ::recv(c->fd, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                drained += std::size_t(n);
            }
        }
        close(c);
        const std::lock_guard lock(m_threadsMutex);
        if (--m_requestThreads == 0)
            m_threadsCv.notify_all();
    }).detach();
}

void HttpServer::sendError(Connection *c, int status)
{
    HttpResponse response;
    response.status = status;
    finishResponse(c, response, false);
}

} // namespace Eddy::Server
