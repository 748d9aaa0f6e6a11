#pragma once

// The cpp-httplib front end (--http-engine httplib): the same endpoint handler as HttpServer,
// served by httplib::Server from the project's required stack. It is the slower of the two
// (a pool thread per connection, idle keep-alive connections polled every 10 ms, see
// docs/server.md "HTTP front ends"), kept so the server also runs on the stock library and so
// the protocol suite proves the handler does not depend on HttpServer's transport.

#include "server/httpmessage.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace Eddy::Server {

class HttplibFrontend final
{
public:
    using Handler = std::function<void(const HttpRequest &, HttpResponse &)>;
    using FastPath = std::function<bool(const HttpRequest &)>;
    using ErrorFiller = std::function<void(HttpResponse &)>;

    // Same arguments as HttpServer. fastPath is accepted for a drop-in constructor but not
    // used: httplib runs every request on a pool thread, there is no inline path to choose.
    HttplibFrontend(Handler handler, FastPath fastPath, ErrorFiller errorFiller,
                    std::size_t maxBody);
    ~HttplibFrontend();
    HttplibFrontend(const HttplibFrontend &) = delete;
    HttplibFrontend &operator=(const HttplibFrontend &) = delete;

    // httplib's read timeout: a request left unfinished this long closes the connection.
    void setRequestTimeout(std::chrono::milliseconds timeout);
    // Binds and listens; port 0 picks a free one. Returns the bound port, or -1 with error set.
    int bind(const std::string &host, int port, std::string &error);
    // Serves until stop(); blocks the calling thread.
    void run();
    // Lets ending streams send their last frame, then stops accepting and waits for the pool.
    void stop();

private:
    class Server;

    void handle(const HttpRequest &request, HttpResponse &response);

    Handler m_handler;
    ErrorFiller m_errorFiller;
    const std::size_t m_maxBody;
    std::unique_ptr<Server> m_server;

    std::mutex m_streamsMutex;
    std::condition_variable m_streamsCv;
    std::size_t m_streams = 0; // streamed responses still being written
};

} // namespace Eddy::Server
