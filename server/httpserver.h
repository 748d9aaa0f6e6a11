#pragma once

// A small HTTP/1.1 server on epoll. Its event thread (kEventThreads: one, so that the polls of
// many connections share a wake-up) reads and parses requests on non-blocking sockets and
// answers fast requests (tasks/get polls) inline with one write each, so a kept-alive poll costs
// at most one wake-up, one recv and one send, no allocation and no thread hand-off; other
// requests run on their own thread (the connection leaves the event thread's set meanwhile), and
// streamed (SSE) responses keep that thread. Idle keep-alive connections cost nothing.

#include "server/httpmessage.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace Eddy::Server {

class HttpServer final
{
public:
    using Handler = std::function<void(const HttpRequest &, HttpResponse &)>;
    // Decides from the parsed request whether the handler is quick enough to run inline.
    using FastPath = std::function<bool(const HttpRequest &)>;
    // Fills in a body for an error status that has none (413, 404, 431, ...).
    using ErrorFiller = std::function<void(HttpResponse &)>;

    HttpServer(Handler handler, FastPath fastPath, ErrorFiller errorFiller,
               std::size_t maxBody);
    ~HttpServer();
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    // A connection that leaves a request unfinished this long (or says nothing after
    // connecting) gets 408 and is closed; idle keep-alive connections between requests stay.
    void setRequestTimeout(std::chrono::milliseconds timeout) { m_requestTimeout = timeout; }
    // Binds and listens; port 0 picks a free one. Returns the bound port, or -1 with error set.
    int bind(const std::string &host, int port, std::string &error);
    // Serves until stop(); blocks the calling thread.
    void run();
    // Stops accepting, ends the event threads and waits for request threads to finish.
    void stop();

private:
    struct Connection;

    // A connection answered on its first request, left out of the epoll set for a moment.
    struct Parked
    {
        Connection *connection;
        std::chrono::steady_clock::time_point since;
    };

    void eventLoop(int index);
    // On an event thread, keeps c (just answered, nothing buffered, never parked before) out of
    // the epoll set until that thread's next wake-up, at most kParkMax: a client that opens a
    // connection per request has closed it by then, and its close then costs a recv on a
    // wake-up that happens anyway instead of a wake-up, an epoll_ctl and a recv of its own.
    // False where that does not apply; the caller then arms c as usual.
    bool park(Connection *c);
    // Reads every parked connection due (all of them after a timeout) once.
    void checkParked(std::vector<Parked> &parked, bool all);
    // Marks c as waiting for the rest of a request (from now, unless it already was).
    void trackUnfinished(Connection *c);
    void untrack(Connection *c);
    // Shuts the reading side of connections past their deadline; their owner answers 408.
    void sweepUnfinished();
    void accept(int epollFd);
    void onReadable(Connection *c);
    // Parses and serves every complete request in c's buffer, or in fresh (bytes just read,
    // when that buffer is empty); false when c was closed or handed to another thread.
    bool serveBuffered(Connection *c, bool inlineOnly, std::string_view fresh);
    void handle(const HttpRequest &request, HttpResponse &response);
    void serve(Connection *c, HttpRequest request, bool keepAlive);
    // Sends the response; false when the connection was closed (and c freed).
    bool finishResponse(Connection *c, HttpResponse &response, bool keepAlive);
    void stream(Connection *c, HttpResponse &response);
    bool sendAll(int fd, const char *data, std::size_t size);
    static constexpr std::size_t kMaxParts = 4;
    bool sendAll(int fd, const std::string_view *parts, std::size_t count); // at most kMaxParts
    // Puts c (back) into its event thread's set; a no-op while it is there.
    void rearm(Connection *c);
    // Takes c out of its event thread's set before another thread serves it.
    void release(Connection *c);
    void close(Connection *c);
    void sendError(Connection *c, int status);
    void rejectOversize(Connection *c);

    Handler m_handler;
    FastPath m_fastPath;
    ErrorFiller m_errorFiller;
    const std::size_t m_maxBody;

    int m_listenFd = -1;
    std::vector<int> m_epollFds; // one per event thread
    std::vector<std::vector<Parked>> m_parked; // per event thread, touched by it only
    int m_wakeFd = -1;
    std::atomic<bool> m_stopping{false};
    std::chrono::milliseconds m_requestTimeout{30000};

    // Connections waiting for the rest of a request, with when that request began. Only
    // unusual connections enter: a poll arrives whole and never touches this mutex.
    std::mutex m_unfinishedMutex;
    std::unordered_map<Connection *, std::chrono::steady_clock::time_point> m_unfinished;
    std::vector<std::thread> m_eventThreads;

    std::mutex m_threadsMutex;
    std::condition_variable m_threadsCv;
    std::size_t m_requestThreads = 0;

    // Every open connection: run() closes and frees those still open when it ends (idle
    // keep-alive ones, a client's poll lane). Touched once per accept and once per close.
    std::mutex m_liveMutex;
    std::unordered_set<Connection *> m_live;
};

} // namespace Eddy::Server
