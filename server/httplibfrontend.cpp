#include "server/httplibfrontend.h"

#include "server/log.h"

#include <httplib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <sys/socket.h>

namespace Eddy::Server {

namespace {

// Each connection holds a pool thread for its whole keep-alive life and each SSE stream holds
// one until it ends, so the pool must outnumber the open streams (tests keep 64 open while
// polling) plus the pollers, or new connections wait in the queue behind idle ones.
constexpr std::size_t kPoolThreads = 256;
// httplib closes a kept-alive connection after 5 requests by default; a poller would then
// reconnect every fifth poll. HttpServer never closes an active connection.
constexpr std::size_t kKeepAliveRequests = 100000;
// Same as HttpServer: a burst of pollers connecting at once must not overflow the queue.
constexpr int kListenBacklog = 4096;
// The request head limit HttpServer keeps (431 beyond it).
constexpr std::size_t kMaxHeadBytes = 64 * 1024;
// How long stop() lets closed SSE streams write their final frame before the sockets go.
constexpr auto kStreamDrain = std::chrono::seconds(2);

// The views point into in, which outlives the handler call.
HttpRequest toRequest(const httplib::Request &in)
{
    HttpRequest out;
    out.method = in.method;
    out.path = in.path;
    out.http10 = in.version == "HTTP/1.0";
    out.headers.reserve(in.headers.size());
    for (const auto &[name, value] : in.headers)
        out.headers.emplace_back(name, value);
    out.body = in.body;
    out.indexHeaders();
    return out;
}

// Two Content-Length headers with different values (RFC 9112 6.3: an error).
bool lengthsDisagree(const httplib::Request &in)
{
    const auto [first, last] = in.headers.equal_range("Content-Length");
    return std::any_of(first, last, [&](const auto &h) { return h.second != first->second; });
}

// The request head's size as httplib read it, give or take the blanks it trimmed and the four
// REMOTE_/LOCAL_ headers it adds (some 80 bytes): httplib limits each line (8 KiB), not the sum.
std::size_t headSize(const httplib::Request &in)
{
    std::size_t size = in.method.size() + in.target.size() + in.version.size() + 4;
    for (const auto &[name, value] : in.headers)
        size += name.size() + value.size() + 4;
    return size + 2;
}

} // namespace

// httplib::Server keeps its listening socket protected; this subclass only reaches it to
// raise the listen backlog, which the compiled library fixes at 5.
class HttplibFrontend::Server final : public httplib::Server
{
public:
    void widenBacklog()
    {
        // listen() again on a listening socket only changes its backlog (Linux).
        if (::listen(svr_sock_, kListenBacklog) != 0)
            Log::warn(std::string("cannot raise the listen backlog: ") + std::strerror(errno));
    }
};

HttplibFrontend::HttplibFrontend(Handler handler, FastPath, ErrorFiller errorFiller,
                                 std::size_t maxBody)
    : m_handler(std::move(handler))
    , m_errorFiller(std::move(errorFiller))
    , m_maxBody(maxBody)
    , m_server(std::make_unique<Server>())
{
    httplib::Server &svr = *m_server;
    svr.new_task_queue = [] { return new httplib::ThreadPool(kPoolThreads); };
    svr.set_payload_max_length(m_maxBody);
    svr.set_keep_alive_max_count(kKeepAliveRequests);
    // Without it a keep-alive poll's header and body writes meet Nagle and delayed ACK (40 ms).
    svr.set_tcp_nodelay(true);

    const auto serve = [this](const httplib::Request &req, httplib::Response &res) {
        if (lengthsDisagree(req)) {
            // httplib framed the body by the first Content-Length; a proxy in front may have
            // taken another (request smuggling). Refused as under HttpServer, and the
            // connection ends: what follows on it is framed ambiguously too.
            res.status = 400; // the error handler adds the body
            res.set_header("Connection", "close");
            return;
        }
        if (headSize(req) > kMaxHeadBytes) {
            res.status = 431; // as HttpServer answers; httplib keeps the connection open
            res.set_header("Connection", "close");
            return;
        }
        HttpResponse response;
        handle(toRequest(req), response);
        res.status = response.status;
        for (const auto &[name, value] : response.headers)
            res.set_header(name, value);
        if (!response.isStream()) {
            response.flatten();
            if (!response.body.empty() || !response.contentType.empty())
                res.set_content(response.body, response.contentType);
            return;
        }
        {
            const std::lock_guard lock(m_streamsMutex);
            ++m_streams;
        }
        // httplib calls the provider until done() or a failed write, like HttpServer::stream;
        // a zero-length write would end its loop early, and an exception would escape its
        // worker thread, so both are kept out here.
        res.set_chunked_content_provider(
            response.contentType,
            [provider = std::move(response.provider)](std::size_t offset, httplib::DataSink &sink) {
                StreamSink out;
                out.write = [&sink](const char *data, std::size_t size) {
                    return size == 0 || sink.write(data, size);
                };
                out.done = [&sink] { sink.done(); };
                try {
                    return provider(offset, out);
                } catch (const std::exception &e) {
                    Log::error(std::string("stream provider failed: ") + e.what());
                    return false;
                }
            },
            [this, releaser = std::move(response.releaser)](bool success) {
                if (releaser)
                    releaser(success);
                const std::lock_guard lock(m_streamsMutex);
                if (--m_streams == 0)
                    m_streamsCv.notify_all();
            });
    };

    // httplib reads a body only for methods it routes with one (POST, PUT, PATCH, DELETE);
    // every other method is answered before routing, so 405/404 come from the same handler.
    svr.set_pre_routing_handler([serve](const httplib::Request &req, httplib::Response &res) {
        if (req.method == "POST" || req.method == "PUT" || req.method == "PATCH"
            || req.method == "DELETE" || req.method == "PRI")
            return httplib::Server::HandlerResponse::Unhandled;
        serve(req, res);
        return httplib::Server::HandlerResponse::Handled;
    });
    svr.Post(".*", serve);
    svr.Put(".*", serve);
    svr.Patch(".*", serve);
    svr.Delete(".*", serve);

    // Errors httplib produces itself (400, 413, 414, ...) and handler errors without a body
    // get the same JSON-RPC error bodies as under HttpServer.
    svr.set_error_handler(httplib::Server::HandlerWithResponse(
        [this](const httplib::Request &, httplib::Response &res) {
            if (!res.body.empty() || res.content_provider_)
                return httplib::Server::HandlerResponse::Unhandled;
            HttpResponse filled;
            filled.status = res.status;
            m_errorFiller(filled);
            for (const auto &[name, value] : filled.headers)
                res.set_header(name, value);
            res.set_content(filled.body, filled.contentType);
            return httplib::Server::HandlerResponse::Handled;
        }));
    svr.set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr) {
        res.status = 500; // the error handler adds the body
    });
}

HttplibFrontend::~HttplibFrontend() = default;

void HttplibFrontend::setRequestTimeout(std::chrono::milliseconds timeout)
{
    // httplib answers some malformed requests (a header without a colon, a bad length) only
    // when its read times out, so the timeout never grows past httplib's own 5 s default.
    const auto ms = std::min<std::int64_t>(timeout.count(), 5000);
    m_server->set_read_timeout(ms / 1000, (ms % 1000) * 1000);
}

int HttplibFrontend::bind(const std::string &host, int port, std::string &error)
{
    errno = 0;
    const int bound = port == 0 ? m_server->bind_to_any_port(host)
                                : (m_server->bind_to_port(host, port) ? port : -1);
    if (bound < 0) {
        error = "cannot listen on " + host + ":" + std::to_string(port) + " ("
                + (errno ? std::strerror(errno) : "httplib could not bind")
                + "); choose another --port (0 picks a free one) or --host";
        return -1;
    }
    m_server->widenBacklog();
    return bound;
}

void HttplibFrontend::run()
{
    if (!m_server->listen_after_bind())
        Log::error("the httplib front end stopped accepting connections");
}

void HttplibFrontend::stop()
{
    {
        // The handler has closed every SSE channel by now; give the streams a moment to send
        // their closing frame, as HttpServer does, before httplib ends their loops.
        std::unique_lock lock(m_streamsMutex);
        m_streamsCv.wait_for(lock, kStreamDrain, [this] { return m_streams == 0; });
    }
    m_server->stop();
}

void HttplibFrontend::handle(const HttpRequest &request, HttpResponse &response)
{
    runHandler(m_handler, request, response);
}

} // namespace Eddy::Server
