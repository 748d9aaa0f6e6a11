#include "app/net/polllane.h"
#include "app/net/polllane_p.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QSocketNotifier>

#include <algorithm>
#include <chrono>
#include <cstring>

#include <unistd.h>

namespace Eddy::Net {

qsizetype findCrlf(QByteArrayView v, qsizetype from)
{
    const char *const begin = v.data();
    const char *const end = begin + v.size();
    for (const char *p = begin + from; p < end;) {
        const auto *cr = static_cast<const char *>(std::memchr(p, '\r', size_t(end - p)));
        if (!cr || cr + 1 >= end)
            return -1;
        if (cr[1] == '\n')
            return cr - begin;
        p = cr + 1;
    }
    return -1;
}

PollLane::PollLane(const QUrl &origin, QObject *parent)
    : QObject(parent)
    , m_origin(origin)
{
    initGlobal();
    QUrl base;
    base.setScheme(origin.scheme());
    base.setHost(origin.host());
    base.setPort(origin.port(-1));
    base.setPath(QStringLiteral("/"));
    m_originUrl = base.toEncoded();
    m_multi = curl_multi_init();
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &PollLane::socketCallback);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &PollLane::timerCallback);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    m_curlTimer.setSingleShot(true);
    // As HttpClient's: a coarse timer may fire early, and libcurl's connect deadlines are short.
    m_curlTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_curlTimer, &QTimer::timeout, this, &PollLane::onCurlTimer);
    m_deadlineTimer.setSingleShot(true);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &PollLane::onDeadline);
    // EDDY_POLL_PIPELINE=1 sends one request at a time (for comparison, or a server that needs it).
    bool ok = false;
    const int depth = qEnvironmentVariableIntValue("EDDY_POLL_PIPELINE", &ok);
    if (ok)
        setPipelineDepth(depth);
}

PollLane::~PollLane()
{
    m_pending.clear(); // their done() is never called
    for (const std::unique_ptr<Connection> &c : m_connections) {
        c->releaseNotifiers();
        curl_multi_remove_handle(m_multi, c->easy); // closes a connect-only connection
        curl_easy_cleanup(c->easy);
    }
    m_connections.clear();
    curl_multi_cleanup(m_multi);
    m_connectWatches.clear();
}

bool PollLane::usable(const QUrl &url, const HttpClient::ProxySettings &proxy)
{
    const bool https = url.scheme() == QLatin1String("https");
    if ((!https && url.scheme() != QLatin1String("http")) || url.host().isEmpty()
        || !url.userInfo().isEmpty())
        return false;
    // libcurl's no_proxy matching (domains, suffixes, CIDR ranges) is not repeated here: with a
    // proxy set, only "*" is sure to mean direct.
    const QByteArray &viaProxy = https ? proxy.https : proxy.http;
    return viaProxy.isEmpty() || proxy.noProxy.trimmed() == "*";
}

void PollLane::setMaxConnections(int count)
{
    m_maxConnections = qMax(1, count);
}

void PollLane::setPipelineDepth(int depth)
{
    m_pipelineDepth = qMax(1, depth);
}

void PollLane::stopPipelining(const QString &why)
{
    if (m_pipelineDepth == 1)
        return;
    m_pipelineDepth = 1;
    m_pipeliningOffReason = why;
    qCInfo(lcNet).noquote() << "poll lane for" << m_origin.toDisplayString(QUrl::RemovePath)
                            << "sends one request at a time from now on:" << why;
}

PollLane::Head PollLane::parseHead(QByteArrayView text)
{
    Head head;
    const auto unreadable = [&head](const QString &why) {
        head.verdict = Head::Unreadable;
        head.why = why;
        return head;
    };
    if (text.size() > kMaxHeadBytes)
        return unreadable(
            QStringLiteral("the answer's headers are longer than %1 bytes").arg(kMaxHeadBytes));
    if (!text.endsWith("\r\n\r\n"))
        return unreadable(QStringLiteral("the answer's headers do not end with a blank line"));
    text.chop(2); // every line, the last included, now ends with CRLF

    qsizetype lineEnd = findCrlf(text);
    const QByteArrayView statusLine = text.first(lineEnd);
    if (!statusLine.startsWith("HTTP/1.1 ")) {
        if (statusLine.startsWith("HTTP/"))
            return unreadable(QStringLiteral("the server does not answer in HTTP/1.1"));
        return unreadable(QStringLiteral("the answer does not start with an HTTP status line"));
    }
    const QByteArrayView code
        = statusLine.sliced(9).first(qMin<qsizetype>(3, statusLine.size() - 9));
    if (code.size() != 3
        || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; })
        || (statusLine.size() > 12 && statusLine[12] != ' ') || code[0] == '0')
        return unreadable(QStringLiteral("the answer's status line is malformed"));
    if (hasLineBreak(statusLine))
        return unreadable(QStringLiteral("the answer's status line holds a stray line break"));
    head.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');

    bool chunked = false;
    int lengths = 0;
    bool lengthOk = true;
    for (qsizetype start = lineEnd + 2; start < text.size(); start = lineEnd + 2) {
        lineEnd = findCrlf(text, start);
        const QByteArrayView line = text.sliced(start, lineEnd - start);
        if (hasLineBreak(line))
            return unreadable(QStringLiteral("a header line holds a stray CR, LF or NUL"));
        if (line.isEmpty() || line.front() == ' ' || line.front() == '\t')
            return unreadable(QStringLiteral("a header line is folded or empty"));
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return unreadable(QStringLiteral("a header line has no name"));
        const QByteArrayView name = line.first(colon);
        if (!std::all_of(name.begin(), name.end(), isTokenChar))
            return unreadable(QStringLiteral("a header name holds characters a name cannot"));
        const QByteArrayView value = trimmed(line.sliced(colon + 1));
        if (equalsNoCase(name, "content-length")) {
            ++lengths;
            lengthOk = !value.isEmpty() && value.size() <= 15
                       && std::all_of(
                           value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (lengthOk)
                head.contentLength = value.toLongLong();
        } else if (equalsNoCase(name, "content-type")) {
            head.contentType = value.toByteArray();
        } else if (equalsNoCase(name, "transfer-encoding")) {
            chunked = true;
        } else if (equalsNoCase(name, "connection")) {
            for (const QByteArrayView token :
                 QByteArray::fromRawData(value.data(), value.size()).split(',')) {
                if (equalsNoCase(trimmed(token), "close"))
                    head.close = true;
            }
        }
    }

    if (head.status != 200) {
        head.why = QStringLiteral("the server answered HTTP %1").arg(head.status);
        // An error answer framed by Content-Length goes to the caller as it is: sending it again
        // through libcurl would lose what it said (a 429's or 503's Retry-After) and ask twice.
        head.verdict = head.status >= 200 && !chunked && lengths == 1 && lengthOk ? Head::Relay
                                                                                  : Head::NotOk;
        return head;
    }
    if (chunked)
        return unreadable(
            QStringLiteral("the server sends its answers with a transfer coding (chunked)"));
    if (lengths == 0)
        return unreadable(QStringLiteral("the answer has no Content-Length"));
    if (lengths > 1 || !lengthOk)
        return unreadable(
            QStringLiteral("the answer's Content-Length is repeated or not a number"));
    const qsizetype semicolon = head.contentType.indexOf(';');
    const QByteArrayView mediaType
        = trimmed(QByteArrayView(head.contentType)
                      .first(semicolon < 0 ? head.contentType.size() : semicolon));
    if (equalsNoCase(mediaType, "text/event-stream"))
        return unreadable(QStringLiteral("the server answers tasks/get as an event stream"));
    if (!equalsNoCase(mediaType, "application/json"))
        return unreadable(QStringLiteral("the server's answer is not application/json"));
    head.verdict = Head::Ok;
    return head;
}

bool PollLane::accepts(const QUrl &url) const
{
    return sameOrigin(url, m_origin);
}

QByteArray PollLane::requestBytes(const HttpRequest &request, QString *why)
{
    if (request.method != HttpRequest::Method::Post) {
        *why = QStringLiteral("the lane sends only POST");
        return {};
    }
    if (request.url != m_lastUrl) {
        if (!sameOrigin(request.url, m_origin)) {
            *why = QStringLiteral("the request is not for this lane's origin");
            return {};
        }
        m_lastUrl = request.url;
        QByteArray target = request.url.path(QUrl::FullyEncoded).toLatin1();
        if (target.isEmpty())
            target = "/";
        if (request.url.hasQuery())
            target += '?' + request.url.query(QUrl::FullyEncoded).toLatin1();
        m_lastPrefix = "POST " + target + " HTTP/1.1\r\nHost: " + hostHeader(request.url) + "\r\n";
    }

    bool hasContentType = false;
    bool hasAccept = false;
    qsizetype size = m_lastPrefix.size() + 64 + request.body.size() + request.bearerToken.size();
    for (const auto &[name, value] : request.headers) {
        if (name.isEmpty() || hasLineBreak(name) || hasLineBreak(value) || isFramingHeader(name)) {
            *why = QStringLiteral("the request sets a header the lane does not write");
            return {};
        }
        hasContentType = hasContentType || equalsNoCase(name, "content-type");
        hasAccept = hasAccept || equalsNoCase(name, "accept");
        size += name.size() + value.size() + 4;
    }
    if (hasLineBreak(request.bearerToken)) {
        *why = QStringLiteral("the token holds a line break");
        return {};
    }

    // The header lines libcurl would send for the same request on the main path.
    QByteArray out;
    out.reserve(size);
    out.append(m_lastPrefix);
    if (!hasAccept)
        out.append("Accept: */*\r\n");
    for (const auto &[name, value] : request.headers) {
        if (value.isEmpty())
            out.append(name).append(":\r\n"); // as libcurl writes "Name;"
        else
            out.append(name).append(": ").append(value).append("\r\n");
    }
    if (!hasContentType)
        out.append("Content-Type: application/json\r\n");
    if (!request.bearerToken.isEmpty())
        out.append("Authorization: Bearer ").append(request.bearerToken).append("\r\n");
    out.append("Content-Length: ")
        .append(QByteArray::number(request.body.size()))
        .append("\r\n\r\n");
    out.append(request.body);
    return out;
}

bool PollLane::isIdle() const
{
    if (!m_pending.empty() || !m_connectWatches.empty())
        return false;
    for (const std::unique_ptr<Connection> &c : m_connections) {
        if (!c->jobs.empty())
            return false;
    }
    return true;
}

void PollLane::send(const HttpRequest &request, Done done)
{
    m_lastSendMs = nowMs();
    if (!m_enabled) {
        queueFallback(std::move(done), m_disabledReason);
        return;
    }
    QString why;
    Job job;
    job.bytes = requestBytes(request, &why);
    if (job.bytes.isNull()) {
        queueFallback(std::move(done), why);
        return;
    }
    if (m_connections.empty()) {
        m_verifyTls = request.verifyTls;
        m_connectTimeoutMs = request.connectTimeoutMs;
    } else if (request.verifyTls != m_verifyTls) {
        queueFallback(std::move(done),
                      QStringLiteral("the lane's connections check TLS differently"));
        return;
    }
    job.done = std::move(done);
    job.maxBytes = request.maxResponseBytes;
    job.timeoutMs = request.timeoutMs;
    job.deadline = request.timeoutMs > 0 ? nowMs() + request.timeoutMs : 0;
    armDeadline(job.deadline);
    m_pending.push_back(std::move(job));
    if (m_pipelineDepth == 1)
        dispatchPending();
    else
        scheduleDispatch(); // the other polls due now are on their way: write them together
}

void PollLane::scheduleDispatch()
{
    if (m_dispatchQueued)
        return;
    m_dispatchQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_dispatchQueued = false;
            dispatchPending();
        },
        Qt::QueuedConnection);
}

void PollLane::queueFallback(Done done, QString why)
{
    ++m_fallbacks;
    // Queued with the lane as context: never inside send(), never after the lane is gone.
    QMetaObject::invokeMethod(
        this,
        [done = std::move(done), why = std::move(why)] {
            Outcome outcome;
            outcome.kind = Outcome::Fallback;
            outcome.why = why;
            done(std::move(outcome));
        },
        Qt::QueuedConnection);
}

void PollLane::dispatchPending()
{
    const qsizetype depth = m_pipelineDepth;
    while (!m_pending.empty()) {
        // The connection with the fewest requests in flight, if it has room for one more.
        Connection *best = nullptr;
        qsizetype connecting = 0;
        for (const std::unique_ptr<Connection> &c : m_connections) {
            if (!c->isConnected)
                ++connecting;
            else if (qsizetype(c->jobs.size()) < depth
                     && (!best || c->jobs.size() < best->jobs.size()))
                best = c.get();
        }
        if (best) {
            assign(best,
                   std::min<qsizetype>(depth - qsizetype(best->jobs.size()),
                                       qsizetype(m_pending.size())));
            continue;
        }
        if (connecting * depth >= qsizetype(m_pending.size())
            || int(m_connections.size()) >= m_maxConnections)
            return;
        if (!openConnection()) {
            failPending(QStringLiteral("libcurl could not start a connection"));
            return;
        }
    }
}

bool PollLane::openConnection()
{
    auto c = std::make_unique<Connection>();
    CURL *easy = curl_easy_init();
    if (!easy)
        return false;
    c->easy = easy;
    curl_easy_setopt(easy, CURLOPT_URL, m_originUrl.constData());
    curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_PROXY, ""); // usable() said no proxy applies
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    // The lane reads into its own buffer (curl_easy_recv): libcurl's 16 KB download buffer per
    // connection would be 256 KB of nothing at 16 connections.
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, 1024L);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(m_connectTimeoutMs));
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, m_verifyTls ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, m_verifyTls ? 2L : 0L);
    // ALPN must not offer h2: the lane speaks HTTP/1.1 on the connection.
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
    // Until its first request a connect-only connection sits idle in the multi's cache, where
    // libcurl would close it as too old after CURLOPT_MAXAGE_CONN (118 s by default).
    curl_easy_setopt(easy, CURLOPT_MAXAGE_CONN, 365L * 24 * 3600);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &PollLane::closeSocketCallback);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, c.get());
    if (curl_multi_add_handle(m_multi, easy) != CURLM_OK) {
        curl_easy_cleanup(easy);
        return false;
    }
    m_connections.push_back(std::move(c));
    return true;
}

int PollLane::socketCallback(CURL *, curl_socket_t socket, int what, void *userp, void *)
{
    // Inside a libcurl callback: only bookkeeping of Qt notifiers, never a libcurl call.
    auto *self = static_cast<PollLane *>(userp);
    if (what == CURL_POLL_REMOVE) {
        self->m_connectWatches.erase(socket);
        return 0;
    }
    std::unique_ptr<Watch> &watch = self->m_connectWatches[socket];
    if (!watch)
        watch = std::make_unique<Watch>();
    const bool wantRead = what == CURL_POLL_IN || what == CURL_POLL_INOUT;
    const bool wantWrite = what == CURL_POLL_OUT || what == CURL_POLL_INOUT;
    const auto update = [self, socket](std::unique_ptr<QSocketNotifier> &n,
                                       QSocketNotifier::Type type,
                                       int mask,
                                       bool wanted) {
        if (wanted && !n) {
            n = std::make_unique<QSocketNotifier>(qintptr(socket), type);
            connect(n.get(), &QSocketNotifier::activated, self, [self, socket, mask] {
                self->onConnectActivity(socket, mask);
            });
        }
        if (n && n->isEnabled() != wanted)
            n->setEnabled(wanted);
    };
    update(watch->read, QSocketNotifier::Read, CURL_CSELECT_IN, wantRead);
    update(watch->write, QSocketNotifier::Write, CURL_CSELECT_OUT, wantWrite);
    return 0;
}

int PollLane::timerCallback(CURLM *, long timeoutMs, void *userp)
{
    CurlLoop::armTimer(static_cast<PollLane *>(userp)->m_curlTimer, timeoutMs);
    return 0;
}

int PollLane::closeSocketCallback(void *clientp, curl_socket_t socket)
{
    // The number may be reused at once: nothing of the lane may watch it any longer.
    auto *self = static_cast<PollLane *>(clientp);
    self->m_connectWatches.erase(socket);
    for (const std::unique_ptr<Connection> &c : self->m_connections) {
        if (c->fd == socket)
            c->releaseNotifiers(); // a connection libcurl closed fails on its next send or read
    }
    return ::close(socket);
}

void PollLane::onConnectActivity(curl_socket_t socket, int eventMask)
{
    int running = 0;
    curl_multi_socket_action(m_multi, socket, eventMask, &running);
    harvestConnects();
}

void PollLane::onCurlTimer()
{
    CurlLoop::runTimeouts(m_multi, m_curlTimer);
    harvestConnects();
}

void PollLane::harvestConnects()
{
    for (const auto &[easy, code] : CurlLoop::takeFinished(m_multi)) {
        Connection *c = nullptr;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, reinterpret_cast<char **>(&c));
        if (!c)
            continue;
        curl_socket_t fd = CURL_SOCKET_BAD;
        if (code == CURLE_OK && curl_easy_getinfo(easy, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK
            && fd != CURL_SOCKET_BAD) {
            connected(c, fd);
            continue;
        }
        const QString why = QStringLiteral("the lane could not connect (%1)")
                                .arg(QString::fromUtf8(curl_easy_strerror(code)));
        drop(c);
        const bool anyConnected = std::any_of(m_connections.begin(),
                                              m_connections.end(),
                                              [](const auto &other) { return other->isConnected; });
        if (!anyConnected) // the server is not there: libcurl tells the caller why
            failPending(why);
    }
    dispatchPending();
}

void PollLane::connected(Connection *c, curl_socket_t fd)
{
    ++m_connectionsOpened;
    m_connectWatches.erase(fd);
    c->fd = fd;
    c->isConnected = true;
    c->read = std::make_unique<QSocketNotifier>(qintptr(fd), QSocketNotifier::Read);
    // Stays on while the connection is idle: the server closing it shows up at once.
    connect(c->read.get(), &QSocketNotifier::activated, this, [this, c] { onReadable(c); });
}

void PollLane::assign(Connection *c, qsizetype count)
{
    if (c->sent == c->out.size()) {
        c->out.resize(0);
        c->sent = 0;
    }
    for (qsizetype i = 0; i < count; ++i) {
        Job job = std::move(m_pending.front());
        m_pending.pop_front();
        job.pipelined = !c->jobs.empty();
        c->out.append(job.bytes);
        job.bytes = QByteArray();
        c->jobs.push_back(std::move(job));
    }
    if (!writeSome(c))
        fail(c, QStringLiteral("the request could not be sent"));
}

bool PollLane::writeSome(Connection *c)
{
    if (c->fd == CURL_SOCKET_BAD)
        return false;
    const QByteArray &bytes = c->out;
    while (c->sent < bytes.size()) {
        size_t n = 0;
        const CURLcode rc = curl_easy_send(
            c->easy, bytes.constData() + c->sent, size_t(bytes.size() - c->sent), &n);
        if (rc == CURLE_AGAIN) {
            if (!c->write) {
                c->write
                    = std::make_unique<QSocketNotifier>(qintptr(c->fd), QSocketNotifier::Write);
                connect(c->write.get(), &QSocketNotifier::activated, this, [this, c] {
                    if (!writeSome(c))
                        fail(c, QStringLiteral("the request could not be sent"));
                    dispatchPending();
                });
            }
            c->write->setEnabled(true);
            return true;
        }
        if (rc != CURLE_OK)
            return false;
        c->sent += qsizetype(n);
    }
    if (c->write)
        c->write->setEnabled(false);
    return true;
}

void PollLane::onReadable(Connection *c)
{
    if (c->jobs.empty()) {
        // An idle connection: the server closed it, reset it or sent bytes nobody asked for.
        char byte = 0;
        size_t n = 0;
        if (curl_easy_recv(c->easy, &byte, 1, &n) != CURLE_AGAIN)
            drop(c);
        return;
    }
    std::vector<Ready> ready;
    readAnswers(c, ready); // c may be gone after this
    m_answered += qint64(ready.size());
    dispatchPending();
    // Last: a done may send again or destroy the lane.
    const QPointer<PollLane> alive(this);
    for (Ready &r : ready) {
        if (!alive)
            return; // destroyed by an earlier done: the rest end without a call, as in flight
        r.done(std::move(r.outcome));
    }
}

bool PollLane::readAnswers(Connection *c, std::vector<Ready> &ready)
{
    for (;;) {
        // Every whole answer in the buffer, in the order the requests went out.
        while (!c->jobs.empty()) {
            Job &job = c->jobs.front();
            if (!c->headBytes) {
                const qsizetype end = findBlankLine(c->in);
                if (end < 0) {
                    if (c->in.size() > kMaxHeadBytes) {
                        turnOff(QStringLiteral("the answer's headers are longer than %1 bytes")
                                    .arg(kMaxHeadBytes));
                        fail(c, m_disabledReason);
                        return false;
                    }
                    break;
                }
                c->head = parseHead(QByteArrayView(c->in).first(end + 4));
                if (c->head.verdict == Head::Relay && job.pipelined) {
                    // Maybe the server's word on this request, maybe on the bytes it took for
                    // one: asked again on its own, it says which.
                    stopPipelining(QStringLiteral("a pipelined request was answered HTTP %1")
                                       .arg(c->head.status));
                    fail(c, c->head.why);
                    return false;
                }
                if (c->head.verdict != Head::Ok && c->head.verdict != Head::Relay) {
                    if (c->head.verdict == Head::Unreadable)
                        turnOff(c->head.why);
                    fail(c, c->head.why);
                    return false;
                }
                if (c->head.contentLength > job.maxBytes && job.maxBytes > 0) {
                    fail(c,
                         QStringLiteral("the answer is larger than the limit of %1 bytes")
                             .arg(job.maxBytes));
                    return false;
                }
                c->headBytes = end + 4;
            }
            const qsizetype whole = c->headBytes + c->head.contentLength;
            if (c->in.size() < whole)
                break;

            Ready r;
            r.done = std::move(job.done);
            Outcome &outcome = r.outcome;
            outcome.kind = Outcome::Answered;
            outcome.status = c->head.status;
            outcome.contentType = std::move(c->head.contentType);
            // The header lines (after the status line, without the blank line that ends them).
            const qsizetype firstLine = findCrlf(c->in) + 2;
            outcome.headerLines
                = c->in.sliced(firstLine, qMax<qsizetype>(0, c->headBytes - 2 - firstLine));
            outcome.body = c->in.sliced(c->headBytes, c->head.contentLength);
            ready.push_back(std::move(r));
            c->jobs.pop_front();
            ++c->answeredInRun;
            ++c->answered;
            if (c->in.size() == whole)
                c->in.resize(0);
            else
                c->in.remove(0, whole);
            c->headBytes = 0;
            if (c->head.close) {
                // Answered are answered; the requests behind it go out again. (A server that
                // closes after a number of requests is fine; one that closes after every answer
                // would make every pipelined request go out twice.)
                if (!c->jobs.empty() && c->answered == 1)
                    stopPipelining(
                        QStringLiteral("the server closes the connection after each answer"));
                std::deque<Job> behind;
                behind.swap(c->jobs);
                drop(c);
                for (Job &rest : behind)
                    queueFallback(std::move(rest.done),
                                  QStringLiteral("the server closed the connection"));
                return false;
            }
        }
        if (c->jobs.empty()) {
            c->answeredInRun = 0;
            if (!c->in.isEmpty()) {
                // The framing is in doubt: the answers of this read are not taken either.
                fail(c, QStringLiteral("the server sent more than its Content-Length"), &ready);
                return false;
            }
            return true; // no read to an empty socket: its notifier says when more comes
        }

        const qsizetype want = qMax<qsizetype>(
            4096, c->headBytes ? c->headBytes + c->head.contentLength - c->in.size() : 0);
        const qsizetype old = c->in.size();
        c->in.resize(old + want);
        size_t n = 0;
        const CURLcode rc = curl_easy_recv(c->easy, c->in.data() + old, size_t(want), &n);
        c->in.resize(old + qsizetype(rc == CURLE_OK ? n : 0));
        if (rc == CURLE_AGAIN)
            return true;
        if (rc != CURLE_OK) {
            fail(c,
                 QStringLiteral("the connection failed (%1)")
                     .arg(QString::fromUtf8(curl_easy_strerror(rc))));
            return false;
        }
        if (n == 0) {
            fail(c,
                 QStringLiteral("the server closed the connection before the answer was complete"));
            return false;
        }
    }
}

void PollLane::fail(Connection *c, QString why, std::vector<Ready> *ready)
{
    const bool pipelined
        = std::any_of(c->jobs.begin(), c->jobs.end(), [](const Job &job) { return job.pipelined; });
    if (pipelined && c->answeredInRun > 0)
        stopPipelining(QStringLiteral("a connection failed part way through pipelined "
                                      "requests (%1)")
                           .arg(why));
    std::deque<Job> jobs;
    jobs.swap(c->jobs);
    drop(c); // half-read or half-written: never reused
    if (ready) {
        for (Ready &r : *ready)
            queueFallback(std::move(r.done), why);
        ready->clear();
    }
    for (Job &job : jobs)
        queueFallback(std::move(job.done), why);
}

void PollLane::drop(Connection *c)
{
    c->releaseNotifiers();
    curl_multi_remove_handle(m_multi, c->easy); // closes the connect-only connection
    curl_easy_cleanup(c->easy);
    c->easy = nullptr;
    m_connections.erase(std::find_if(m_connections.begin(),
                                     m_connections.end(),
                                     [c](const auto &owned) { return owned.get() == c; }));
}

void PollLane::failPending(const QString &why)
{
    std::deque<Job> pending;
    pending.swap(m_pending);
    for (Job &job : pending)
        queueFallback(std::move(job.done), why);
}

void PollLane::turnOff(const QString &why)
{
    if (!m_enabled)
        return;
    m_enabled = false;
    m_offWhy = why;
    m_disabledReason = QStringLiteral("the poll lane is off for this server: %1").arg(why);
    qCInfo(lcNet).noquote() << "poll lane for" << m_origin.toDisplayString(QUrl::RemovePath)
                            << "off:" << why;
    failPending(m_disabledReason);
    std::vector<Connection *> idle;
    for (const std::unique_ptr<Connection> &c : m_connections) {
        if (c->isConnected && c->jobs.empty())
            idle.push_back(c.get());
    }
    for (Connection *c : idle)
        drop(c);
}

void PollLane::armDeadline(qint64 deadline)
{
    if (deadline == 0 || (m_deadlineTimer.isActive() && deadline >= m_armedDeadline))
        return;
    m_armedDeadline = deadline;
    m_deadlineTimer.start(int(qBound<qint64>(0, deadline - nowMs(), 24LL * 3600 * 1000)));
}

void PollLane::onDeadline()
{
    const qint64 now = nowMs();
    std::vector<std::pair<Connection *, int>> late;
    for (const std::unique_ptr<Connection> &c : m_connections) {
        for (const Job &job : c->jobs) {
            if (job.deadline != 0 && job.deadline <= now) {
                late.emplace_back(c.get(), job.timeoutMs);
                break;
            }
        }
    }
    for (const auto &[c, timeoutMs] : late)
        fail(c, QStringLiteral("no answer within %1 ms").arg(timeoutMs));
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->deadline != 0 && it->deadline <= now) {
            queueFallback(std::move(it->done),
                          QStringLiteral("no connection within %1 ms").arg(it->timeoutMs));
            it = m_pending.erase(it);
        } else {
            ++it;
        }
    }
    qint64 next = 0;
    const auto consider = [&next](const Job &job) {
        if (job.deadline != 0 && (next == 0 || job.deadline < next))
            next = job.deadline;
    };
    for (const std::unique_ptr<Connection> &c : m_connections) {
        for (const Job &job : c->jobs)
            consider(job);
    }
    for (const Job &job : m_pending)
        consider(job);
    armDeadline(next);
    dispatchPending();
}

} // namespace Eddy::Net
