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

} // namespace Eddy::Net
