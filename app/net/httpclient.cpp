#include "app/net/httpclient.h"

#include "app/net/polllane.h"

#include <QLoggingCategory>
#include <QSocketNotifier>

#include <algorithm>
#include <chrono>
#include <mutex>

#include <unistd.h>

Q_LOGGING_CATEGORY(lcNet, "eddy.net")

namespace Eddy::Net {

namespace {

// Scheme, host and port: what a poll lane serves.
QString originKey(const QUrl &url)
{
    return url.scheme() + QLatin1String("://") + url.host() + QLatin1Char(':')
           + QString::number(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}

} // namespace


bool initGlobal()
{
    static std::once_flag once;
    static bool ok = false;
    std::call_once(once, [] { ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; });
    return ok;
}

namespace {

QByteArray firstSet(std::initializer_list<const char *> names)
{
    for (const char *name : names) {
        const QByteArray value = qgetenv(name);
        if (!value.isEmpty()) // libcurl takes an empty variable as unset
            return value;
    }
    return {};
}

// An https:// transfer that timed out connected but never got through the TLS handshake: typically
// a plain-HTTP port, which waits for a request line that never comes.
// (libcurl records no connect time for a connection whose TLS handshake failed, so "connected"
// is whether the transfer ever waited to read, which it only does on a connected socket.)
bool handshakeNeverFinished(CURL *easy, bool connected)
{
    const char *scheme = nullptr;
    curl_off_t handshaken = 0;
    curl_easy_getinfo(easy, CURLINFO_SCHEME, &scheme);
    curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &handshaken);
    return connected && scheme && qstricmp(scheme, "https") == 0 && handshaken == 0;
}

} // namespace

void CurlLoop::armTimer(QTimer &timer, long timeoutMs)
{
    if (timeoutMs < 0) {
        timer.stop();
        return;
    }
    const int ms = int(qMin<long>(timeoutMs, 24L * 3600 * 1000));
    // libcurl repeats the same deadline often (every request added asks for 0 ms); restarting the
    // timer each time costs more than the check.
    if (timer.isActive() && timer.remainingTime() <= ms && timer.remainingTime() >= ms - 1)
        return;
    timer.start(ms);
}

void CurlLoop::runTimeouts(CURLM *multi, QTimer &timer)
{
    int running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    if (!timer.isActive()) {
        long next = -1;
        curl_multi_timeout(multi, &next);
        if (next >= 0)
            timer.start(int(qMin<long>(next, 24L * 3600 * 1000)));
    }
}

std::vector<std::pair<CURL *, CURLcode>> CurlLoop::takeFinished(CURLM *multi)
{
    std::vector<std::pair<CURL *, CURLcode>> done;
    int left = 0;
    while (CURLMsg *msg = curl_multi_info_read(multi, &left)) {
        if (msg->msg == CURLMSG_DONE)
            done.emplace_back(msg->easy_handle, msg->data.result);
    }
    return done;
}

HttpClient::ProxySettings HttpClient::ProxySettings::fromEnvironment()
{
    // libcurl's rules (url.c detect_proxy): the lower-case variable first; HTTP_PROXY is never
    // read (a CGI program would take it from a request header); all_proxy as the fallback.
    ProxySettings p;
    const QByteArray all = firstSet({"all_proxy", "ALL_PROXY"});
    p.http = firstSet({"http_proxy"});
    if (p.http.isEmpty())
        p.http = all;
    p.https = firstSet({"https_proxy", "HTTPS_PROXY"});
    if (p.https.isEmpty())
        p.https = all;
    p.noProxy = firstSet({"no_proxy", "NO_PROXY"});
    return p;
}

struct HttpClient::SocketWatch
{
    std::unique_ptr<QSocketNotifier> read;
    std::unique_ptr<QSocketNotifier> write;
    bool wantRead = false;   // what libcurl last asked for
    bool connection = false; // a connection's socket (always closed through closeSocketCallback)
};

// Options are set again only when they differ from the handle's last request.
struct HttpClient::Handle
{
    CURL *easy = nullptr;
    QByteArray url;
    QByteArray proxy;
    long timeoutMs = -1;
    long connectTimeoutMs = -1;
    long lowSpeedLimit = 0; // libcurl's defaults: no floor
    long lowSpeedTime = 0;
    int verifyTls = -1;
    curl_off_t maxBytes = -1;
    bool isDelete = false;
    bool isGet = false;

    ~Handle()
    {
        if (easy)
            curl_easy_cleanup(easy);
    }
};

HttpClient::HttpClient(QObject *parent)
    : QObject(parent), m_proxy(ProxySettings::fromEnvironment())
{
    initGlobal();
    m_laneAllowed = qgetenv("EDDY_POLL_LANE") != "0";
    m_multi = curl_multi_init();
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &HttpClient::socketCallback);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &HttpClient::timerCallback);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    // Keep enough idle connections for a busy poller; listens hold theirs for their lifetime.
    curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, 64L);
    m_timer.setSingleShot(true);
    // A coarse timer may fire early; libcurl then finds nothing due and does not ask again.
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &HttpClient::onTimeout);
    m_laneSweep.setInterval(m_laneIdleMs / 2);
    connect(&m_laneSweep, &QTimer::timeout, this, &HttpClient::closeIdleLanes);
}

HttpClient::~HttpClient()
{
    // Replies outliving the client end as aborted; their owners still delete them.
    m_laneSweep.stop();
    m_lastLane = nullptr;
    m_lanes.clear(); // requests in flight there end without a call
    for (HttpReply *reply : std::as_const(m_laneReplies)) {
        reply->m_laneTicket = 0;
        reply->m_client = nullptr;
        reply->m_finished = true;
        reply->m_error = Error(Error::Kind::Aborted, CURLE_ABORTED_BY_CALLBACK,
                               QStringLiteral("the HTTP client was shut down"));
    }
    m_laneReplies.clear();
    for (auto &[easy, transfer] : m_active) {
        curl_multi_remove_handle(m_multi, easy);
        HttpReply *reply = transfer.reply;
        reply->m_easy = nullptr;
        reply->m_client = nullptr;
        reply->m_finished = true;
        reply->m_error = Error(Error::Kind::Aborted, CURLE_ABORTED_BY_CALLBACK,
                               QStringLiteral("the HTTP client was shut down"));
    }
    m_active.clear();
    m_idleHandles.clear();
    curl_multi_cleanup(m_multi); // closes the connections (closeSocketCallback drops notifiers)
    m_sockets.clear();
}

void HttpClient::setMaxConnectionsPerHost(int count)
{
    curl_multi_setopt(m_multi, CURLMOPT_MAX_HOST_CONNECTIONS, long(count));
}

std::unique_ptr<HttpClient::Handle> HttpClient::takeHandle()
{
    if (!m_idleHandles.empty()) {
        // No curl_easy_reset: configure() sets whatever differs, and keeping the handle's state
        // saves work on every poll.
        auto handle = std::move(m_idleHandles.back());
        m_idleHandles.pop_back();
        return handle;
    }
    auto handle = std::make_unique<Handle>();
    CURL *easy = curl_easy_init();
    handle->easy = easy;
    // The same on every request of every handle.
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &HttpReply::writeCallback);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &HttpReply::headerCallback);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &HttpClient::closeSocketCallback);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, &HttpClient::socketOptionCallback);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, this);
    // Set explicitly (possibly empty), so libcurl does not read no_proxy on every transfer.
    curl_easy_setopt(easy, CURLOPT_NOPROXY, m_proxy.noProxy.constData());
    return handle;
}

void HttpClient::configure(Handle &h, const HttpRequest &request)
{
    if (request.url != m_lastUrl) { // every request of a client goes to the same URL
        m_lastUrl = request.url;
        m_lastEncodedUrl = request.url.toEncoded();
        // Set explicitly (possibly empty = direct), so libcurl does not read the environment on
        // every transfer.
        m_lastProxy = request.url.scheme() == QLatin1String("https") ? m_proxy.https : m_proxy.http;
        if (m_lastProxy.isNull())
            m_lastProxy = "";
    }
    CURL *easy = h.easy;
    if (h.url != m_lastEncodedUrl) {
        h.url = m_lastEncodedUrl;
        curl_easy_setopt(easy, CURLOPT_URL, h.url.constData()); // libcurl copies strings
    }
    if (h.proxy.isNull() || h.proxy != m_lastProxy) {
        h.proxy = m_lastProxy;
        curl_easy_setopt(easy, CURLOPT_PROXY, h.proxy.constData());
    }
    const bool isDelete = request.method == HttpRequest::Method::Delete;
    if (h.isDelete != isDelete) {
        h.isDelete = isDelete;
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, isDelete ? "DELETE" : nullptr);
    }
    const bool isGet = request.method == HttpRequest::Method::Get;
    if (h.isGet != isGet) {
        h.isGet = isGet;
        if (isGet)
            curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
        else
            curl_easy_setopt(easy, CURLOPT_POST, 1L);
    }
    const long timeoutMs = request.timeoutMs > 0 ? request.timeoutMs : 0;
    if (h.timeoutMs != timeoutMs) {
        h.timeoutMs = timeoutMs;
        curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeoutMs);
    }
    if (h.connectTimeoutMs != request.connectTimeoutMs) {
        h.connectTimeoutMs = request.connectTimeoutMs;
        curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(request.connectTimeoutMs));
    }
    const bool floor = request.lowSpeedBytesPerSec > 0 && request.lowSpeedWindowMs > 0;
    const long lowLimit = floor ? long(request.lowSpeedBytesPerSec) : 0;
    const long lowTime = floor ? long((request.lowSpeedWindowMs + 999) / 1000) : 0;
    if (h.lowSpeedLimit != lowLimit || h.lowSpeedTime != lowTime) {
        h.lowSpeedLimit = lowLimit;
        h.lowSpeedTime = lowTime;
        curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, lowLimit);
        curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, lowTime);
    }
    if (h.verifyTls != int(request.verifyTls)) {
        h.verifyTls = int(request.verifyTls);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, request.verifyTls ? 1L : 0L);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, request.verifyTls ? 2L : 0L);
    }
    const curl_off_t maxBytes = request.maxResponseBytes > 0 ? request.maxResponseBytes : 0;
    if (h.maxBytes != maxBytes) {
        h.maxBytes = maxBytes;
        curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, maxBytes);
    }
}

void HttpClient::setLaneIdleMs(int ms)
{
    m_laneIdleMs = std::max(1, ms);
    m_laneSweep.setInterval(std::max(1, m_laneIdleMs / 2));
}

void HttpClient::closeIdleLanes()
{
    const qint64 now = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count();
    std::erase_if(m_lanes, [&](const std::unique_ptr<PollLane> &lane) {
        if (!lane->isIdle() || now - lane->lastSendMs() < m_laneIdleMs)
            return false;
        if (!lane->isEnabled()) {
            if (m_laneOffOrigins.size() >= 256) // a bound; a forgotten origin is learned again
                m_laneOffOrigins.clear();
            m_laneOffOrigins.insert(originKey(lane->origin()), lane->offWhy());
        }
        if (lane.get() == m_lastLane) {
            m_lastLane = nullptr;
            m_lastLaneUrl = QUrl();
        }
        return true;
    });
    if (m_lanes.empty())
        m_laneSweep.stop();
}

PollLane *HttpClient::laneFor(const QUrl &url)
{
    // Every poll of a client goes to the same URL: one comparison instead of taking the origin
    // apart for each lane. closeIdleLanes() clears the pointer with the lane it closes.
    if (m_lastLane && url == m_lastLaneUrl)
        return m_lastLane->isEnabled() ? m_lastLane : nullptr;
    PollLane *found = nullptr;
    for (const auto &lane : m_lanes) {
        if (lane->accepts(url)) {
            found = lane.get();
            break;
        }
    }
    if (!found) {
        if (!PollLane::usable(url, m_proxy))
            return nullptr;
        m_lanes.push_back(std::make_unique<PollLane>(url));
        found = m_lanes.back().get();
        const auto off = m_laneOffOrigins.constFind(originKey(url));
        if (off != m_laneOffOrigins.constEnd())
            found->disable(*off);
        if (!m_laneSweep.isActive())
            m_laneSweep.start();
    }
    m_lastLane = found;
    m_lastLaneUrl = url;
    return found->isEnabled() ? found : nullptr;
}

HttpReply *HttpClient::post(const HttpRequest &request)
{
    auto *reply = new HttpReply(this);
    reply->m_maxBytes = request.maxResponseBytes;
    PollLane *lane = m_laneAllowed && request.mayRepeat ? laneFor(request.url) : nullptr;
    if (!lane) {
        startTransfer(reply, request);
        return reply;
    }
    const quint64 ticket = m_nextTicket++;
    reply->m_laneTicket = ticket;
    m_laneReplies.insert(ticket, reply);
    reply->m_laneRequest = request; // shares the request's data, no copy
    // The lane calls back on a later turn of the loop, never from inside send(). The closure is
    // two words, which std::function keeps without allocating; the request waits in the reply.
    lane->send(request, [this, ticket](PollLane::Outcome outcome) {
        HttpReply *reply = m_laneReplies.take(ticket);
        if (!reply)
            return; // the reply was aborted or deleted meanwhile
        reply->m_laneTicket = 0;
        const HttpRequest request = std::exchange(reply->m_laneRequest, {});
        if (outcome.kind != PollLane::Outcome::Answered) {
            ++m_laneFallbacks;
            startTransfer(reply, request); // libcurl reads it again and says what went wrong
            return;
        }
        ++m_laneAnswers;
        setLaneAnswer(reply, outcome.status, std::move(outcome.headerLines), std::move(outcome.body));
        if (announceData(reply))
            reply->announce(HttpReply::Notice::Finished);
    });
    return reply;
}

void HttpClient::setLaneAnswer(HttpReply *reply, int status, QByteArray headerLines, QByteArray body)
{
    reply->m_status = status;
    // The header lines as the write callback would have kept them: "name: value", no CRLF.
    reply->m_headerBlock = std::move(headerLines);
    const QByteArrayView block(reply->m_headerBlock);
    reply->m_headerLines.clear();
    for (qsizetype at = 0; at < block.size();) {
        qsizetype end = findCrlf(block, at); // a lone CR belongs to the line
        if (end < 0)
            end = block.size();
        if (end > at)
            reply->m_headerLines.emplace_back(at, end - at);
        at = end + 2;
    }
    // A wrong answer a lane relays (429, 503...) reads as libcurl's would: status, headers, body.
    reply->m_received = body.size();
    reply->m_body = std::move(body);
    reply->m_headersDone = true;
    reply->m_pendingReadyRead = !reply->m_body.isEmpty();
    reply->m_finished = true;
}

void HttpClient::startTransfer(HttpReply *reply, const HttpRequest &request)
{
    std::unique_ptr<Handle> handle = takeHandle();
    CURL *easy = handle->easy;
    reply->m_easy = easy;
    reply->m_requestBody = request.body;

    configure(*handle, request);
    if (request.method != HttpRequest::Method::Get) { // a body would make it a POST again
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, reply->m_requestBody.constData());
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(reply->m_requestBody.size()));
    }
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, reply);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, reply);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, reply);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, reply->m_errorBuffer);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, reply->buildHeaderList(request.headers, request.bearerToken));

    m_active.emplace(easy, Transfer{reply, std::move(handle)});
    const CURLMcode rc = curl_multi_add_handle(m_multi, easy);
    if (rc != CURLM_OK) {
        m_active.erase(easy); // cleans the handle up
        reply->m_easy = nullptr;
        reply->m_finished = true;
        reply->m_error = Error(Error::Kind::Transport, CURLE_FAILED_INIT,
                               QStringLiteral("cannot start the request (%1)")
                                   .arg(QString::fromUtf8(curl_multi_strerror(rc))));
        // finished() must not fire before the caller could connect to it.
        QMetaObject::invokeMethod(reply, [reply] { reply->announce(HttpReply::Notice::Finished); },
                                  Qt::QueuedConnection);
    }
}

int HttpClient::socketCallback(CURL *easy, curl_socket_t socket, int what, void *userp, void *)
{
    // Inside a libcurl callback: only bookkeeping of Qt notifiers, never a libcurl call.
    auto *self = static_cast<HttpClient *>(userp);
    const bool wantRead = what == CURL_POLL_IN || what == CURL_POLL_INOUT;
    const bool wantWrite = what == CURL_POLL_OUT || what == CURL_POLL_INOUT;
    if (wantRead) {
        if (const auto active = self->m_active.find(easy); active != self->m_active.end())
            active->second.reply->m_waitedToRead = true;
    }
    auto &watch = self->m_sockets[socket];
    if (!watch) {
        if (what == CURL_POLL_REMOVE) {
            self->m_sockets.erase(socket);
            return 0;
        }
        watch = std::make_unique<SocketWatch>();
    }
    // Asked each time: a number may be reused after a resolver's socket closed unannounced.
    watch->connection = self->m_connectionSockets.contains(socket);
    // Notifiers stay while the socket lives, e.g. an idle keep-alive connection between polls;
    // closeSocketCallback drops them. A connection's read notifier even stays on when libcurl
    // stops watching it: switching it off and on for every poll costs glib a poll-set change and
    // a loop wake-up each time. Should it fire unwanted (the server closed the idle connection),
    // onSocketActivity switches it off then. Other sockets (a resolver's) may be closed without
    // the callback, so theirs go off at once.
    watch->wantRead = wantRead;
    if (wantRead && !watch->read) {
        watch->read = std::make_unique<QSocketNotifier>(qintptr(socket), QSocketNotifier::Read);
        connect(watch->read.get(), &QSocketNotifier::activated, self,
                [self, socket] { self->onSocketActivity(socket, CURL_CSELECT_IN); });
    }
    if (watch->read && watch->read->isEnabled() != wantRead && (wantRead || !watch->connection))
        watch->read->setEnabled(wantRead);
    if (wantWrite && !watch->write) {
        watch->write = std::make_unique<QSocketNotifier>(qintptr(socket), QSocketNotifier::Write);
        connect(watch->write.get(), &QSocketNotifier::activated, self,
                [self, socket] { self->onSocketActivity(socket, CURL_CSELECT_OUT); });
    }
    if (watch->write && watch->write->isEnabled() != wantWrite)
        watch->write->setEnabled(wantWrite);
    return 0;
}

int HttpClient::socketOptionCallback(void *clientp, curl_socket_t socket, curlsocktype purpose)
{
    if (purpose == CURLSOCKTYPE_IPCXN)
        static_cast<HttpClient *>(clientp)->m_connectionSockets.insert(socket);
    return CURL_SOCKOPT_OK;
}

int HttpClient::closeSocketCallback(void *clientp, curl_socket_t socket)
{
    // The socket's number may be reused at once: its notifiers go with it.
    auto *self = static_cast<HttpClient *>(clientp);
    self->m_sockets.erase(socket);
    self->m_connectionSockets.erase(socket);
    return ::close(socket);
}

int HttpClient::timerCallback(CURLM *, long timeoutMs, void *userp)
{
    CurlLoop::armTimer(static_cast<HttpClient *>(userp)->m_timer, timeoutMs);
    return 0;
}

void HttpClient::onSocketActivity(curl_socket_t socket, int eventMask)
{
    if (eventMask == CURL_CSELECT_IN) {
        // An idle connection's read notifier left on (socketCallback): off now, libcurl finds
        // out what happened to the connection when it next uses it.
        const auto watch = m_sockets.find(socket);
        if (watch != m_sockets.end() && !watch->second->wantRead) {
            watch->second->read->setEnabled(false);
            return;
        }
    }
    int running = 0;
    curl_multi_socket_action(m_multi, socket, eventMask, &running);
    afterSocketAction();
}

void HttpClient::onTimeout()
{
    CurlLoop::runTimeouts(m_multi, m_timer);
    afterSocketAction();
}

void HttpClient::afterSocketAction()
{
    const std::vector<std::pair<CURL *, CURLcode>> done = CurlLoop::takeFinished(m_multi);

    // Announce data of transfers still running (and of finishing ones, before their finished()).
    // Kept by easy handle: a reply deleted or released by a slot is no longer in m_active.
    std::vector<CURL *> withData;
    for (const auto &[easy, transfer] : m_active) {
        const HttpReply *reply = transfer.reply;
        if (reply->m_pendingReadyRead || (reply->m_headersDone && !reply->m_headersAnnounced))
            withData.push_back(easy);
    }
    for (CURL *easy : withData) {
        const auto it = m_active.find(easy);
        if (it == m_active.end())
            continue;
        announceData(it->second.reply);
    }

    for (const auto &[easy, code] : done) {
        const auto it = m_active.find(easy);
        if (it == m_active.end())
            continue; // aborted by a slot above
        finishReply(it->second.reply, code);
    }
}

void HttpClient::finishReply(HttpReply *reply, CURLcode code)
{
    CURL *easy = reply->m_easy;
    if (m_laneAllowed && code == CURLE_OK && reply->m_status == 200
        && reply->header("transfer-encoding").toLower().contains("chunked")
        && reply->header("content-type").toLower().startsWith("application/json")) {
        // The lane would send its first tasks/get, find the answer chunked, and have it sent
        // again here at once: the server would see the task polled twice, faster than it asked.
        const char *url = nullptr;
        curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &url);
        if (PollLane *lane = url ? laneFor(QUrl(QString::fromUtf8(url))) : nullptr)
            lane->disable(QStringLiteral("the server sends its answers with a transfer coding "
                                         "(chunked)"));
    }
    long connects = 0;
    curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
    m_connectionsOpened += connects;
    const auto it = m_active.find(easy);
    curl_multi_remove_handle(m_multi, easy);
    m_idleHandles.push_back(std::move(it->second.handle));
    m_active.erase(it);
    reply->m_easy = nullptr;

    if (reply->m_tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
        reply->m_error = Error(Error::Kind::TooLarge, code,
                               QStringLiteral("the server's answer is larger than the limit of %1 "
                                              "bytes; it was discarded")
                                   .arg(reply->m_maxBytes));
    } else if (code == CURLE_OPERATION_TIMEDOUT && handshakeNeverFinished(easy, reply->m_waitedToRead)) {
        reply->m_error = Error(Error::Kind::Transport, code,
                               QStringLiteral("TLS failed: the server accepted the connection but never "
                                              "answered the TLS handshake (%1); if it serves plain HTTP, "
                                              "use an http:// URL")
                                   .arg(QString::fromUtf8(reply->m_errorBuffer)));
    } else {
        reply->m_error = Error::fromCurl(code, reply->m_errorBuffer);
    }
    reply->m_finished = true;
    if (announceData(reply))
        reply->announce(HttpReply::Notice::Finished);
}

bool HttpClient::announceData(HttpReply *reply)
{
    const bool running = !reply->m_finished;
    if (reply->m_headersDone && !reply->m_headersAnnounced) {
        reply->m_headersAnnounced = true;
        if (!reply->announce(HttpReply::Notice::HeadersReceived))
            return false;
    }
    if (running && reply->m_finished) // aborted by a slot meanwhile: nothing more
        return false;
    if (reply->m_pendingReadyRead) {
        reply->m_pendingReadyRead = false;
        if (!reply->announce(HttpReply::Notice::ReadyRead))
            return false;
    }
    return true;
}

void HttpClient::abortReply(HttpReply *reply)
{
    if (reply->m_laneTicket) { // the lane's answer, when it comes, finds no reply and is dropped
        m_laneReplies.remove(reply->m_laneTicket);
        reply->m_laneRequest = {};
        reply->m_laneTicket = 0;
        return;
    }
    CURL *easy = reply->m_easy;
    if (!easy)
        return;
    curl_multi_remove_handle(m_multi, easy);
    // An aborted connection may be half-read: never hand this handle's state to a new request.
    m_active.erase(easy); // cleans the handle up
    reply->m_easy = nullptr;
}

} // namespace Eddy::Net
