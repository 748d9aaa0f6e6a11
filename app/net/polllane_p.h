#pragma once

// Private to the PollLane sources: the helpers and the job, connection and watch records.

#include "app/net/polllane.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QSocketNotifier>

#include <algorithm>
#include <chrono>
#include <cstring>

#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcNet) // defined in httpclient.cpp

namespace Eddy::Net {

namespace {

inline qint64 nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline bool equalsNoCase(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && qstrnicmp(a.data(), b.data(), size_t(a.size())) == 0;
}

inline QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

// RFC 9110 tchar: what a header name may hold.
inline bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

// Where the first blank line (CRLFCRLF) starts, -1 if none.
inline qsizetype findBlankLine(QByteArrayView v)
{
    for (qsizetype at = findCrlf(v); at >= 0; at = findCrlf(v, at + 2)) {
        if (at + 3 < v.size() && v[at + 2] == '\r' && v[at + 3] == '\n')
            return at;
    }
    return -1;
}

inline bool hasLineBreak(QByteArrayView v)
{
    for (const char c : v) {
        if (c == '\r' || c == '\n' || c == '\0')
            return true;
    }
    return false;
}

// Headers the lane writes itself (or that change the framing): a request setting one goes to
// libcurl, which knows what to do with it.
inline bool isFramingHeader(QByteArrayView name)
{
    for (const char *reserved : {"host",
                                 "content-length",
                                 "transfer-encoding",
                                 "connection",
                                 "expect",
                                 "authorization",
                                 "upgrade",
                                 "te"}) {
        if (equalsNoCase(name, QByteArrayView(reserved)))
            return true;
    }
    return false;
}

inline bool isDefaultPort(const QUrl &url)
{
    const int port = url.port(-1);
    return port == -1 || (port == 80 && url.scheme() == QLatin1String("http"))
           || (port == 443 && url.scheme() == QLatin1String("https"));
}

inline bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const int defaultA = a.scheme() == QLatin1String("https") ? 443 : 80;
    const int defaultB = b.scheme() == QLatin1String("https") ? 443 : 80;
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(defaultA) == b.port(defaultB);
}

inline QByteArray hostHeader(const QUrl &url)
{
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']'; // an IPv6 literal
    if (!isDefaultPort(url))
        host += ':' + QByteArray::number(url.port());
    return host;
}

} // namespace

struct PollLane::Job
{
    QByteArray bytes; // the whole request, head and body, until it joins a connection's output
    Done done;
    qint64 maxBytes = 0;
    qint64 deadline = 0; // steady clock ms; 0 = none
    int timeoutMs = 0;
    bool pipelined = false; // written behind another request still unanswered
};

struct PollLane::Ready
{
    Done done;
    Outcome outcome;
};

struct PollLane::Connection
{
    CURL *easy = nullptr;
    curl_socket_t fd = CURL_SOCKET_BAD;
    bool isConnected = false;
    std::deque<Job> jobs; // written or being written; their answers come in this order
    QByteArray out;       // what is still to be written of them
    qsizetype sent = 0;
    QByteArray in;           // received, not yet taken as answers
    qsizetype headBytes = 0; // of the answer at the front of in; 0 until its head is read
    Head head;
    int answeredInRun = 0; // answers since the connection last had nothing in flight
    qint64 answered = 0;
    std::unique_ptr<QSocketNotifier> read;
    std::unique_ptr<QSocketNotifier> write;

    // The notifiers may be the sender of the signal being handled: never deleted in place.
    void releaseNotifiers()
    {
        for (std::unique_ptr<QSocketNotifier> *n : {&read, &write}) {
            if (*n) {
                (*n)->setEnabled(false);
                n->release()->deleteLater();
            }
        }
        fd = CURL_SOCKET_BAD;
    }
};

// libcurl's sockets while it connects (a connect may try several addresses at once).
struct PollLane::Watch
{
    std::unique_ptr<QSocketNotifier> read;
    std::unique_ptr<QSocketNotifier> write;
};

} // namespace Eddy::Net
