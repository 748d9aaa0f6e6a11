#pragma once

#include "app/net/httpclient.h"
#include "app/net/httprequest.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <curl/curl.h>

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

class QSocketNotifier;

namespace Eddy::Net {

// Where the next CRLF starts at or after from, -1 if none; a lone CR is part of a line. Scans with
// memchr: QByteArrayView::indexOf with a two-byte needle cost ~2,600 instructions per poll
// (callgrind). Used by the lane's head parser and by HttpClient to index a lane answer's headers.
qsizetype findCrlf(QByteArrayView text, qsizetype from = 0);

// A fast lane for tasks/get polls to one origin: a few keep-alive HTTP/1.1 connections that
// libcurl opens (CURLOPT_CONNECT_ONLY, so TLS, timeouts and IPv6 are libcurl's) and Eddy then
// drives itself, writing the request and reading a Content-Length JSON answer without libcurl's
// per-transfer machinery. Anything but that happy path ends the request as Fallback with no data,
// and the caller sends it again through HttpClient, which produces the proper error or handles
// the quirk. That is only safe because the lane carries nothing but tasks/get, which reads and
// changes nothing on the server: a request sent twice does no harm. Lives on the HttpClient's
// thread.
class PollLane final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PollLane)

public:
    struct Outcome
    {
        enum Kind { Answered, Fallback };
        Kind kind = Fallback;
        int status = 0;         // Answered: 200, or an error status relayed as it came
        QByteArray contentType; // Answered with 200: application/json, parameters as sent
        QByteArray headerLines; // Answered: the header lines as received, each ending in CRLF
        QByteArray body;
        QString why; // Fallback: what the lane did not take, for a debug log
    };
    using Done = std::function<void(Outcome)>;

    // origin: scheme, host and port of every request (the path may vary).
    explicit PollLane(const QUrl &origin, QObject *parent = nullptr);
    ~PollLane() override; // requests in flight end without a call

    // Whether requests to url may take the lane: http or https without user info, and no proxy
    // applies (the lane does not speak to proxies; a no_proxy of "*" counts as none).
    static bool usable(const QUrl &url, const HttpClient::ProxySettings &proxy);
    // Whether url has this lane's origin (scheme, host, port).
    bool accepts(const QUrl &url) const;

    // Sends request (a POST) and calls done exactly once, never from inside send() and never after
    // the lane is destroyed. done may call send() again or destroy the lane.
    void send(const HttpRequest &request, Done done);

    // False once the origin answered in a way the lane does not read (chunked, SSE, not JSON,
    // not HTTP/1.1, malformed): every later send() falls back at once, so callers may as well
    // use HttpClient directly. Transport faults (reset, timeout, refused) leave it on.
    bool isEnabled() const { return m_enabled; }
    QString disabledReason() const { return m_disabledReason; }
    // Turns the lane off before it sends anything it would have to send again: when an answer on
    // the main path shows the origin frames its JSON in a way the lane does not read.
    void disable(const QString &why) { turnOff(why); }
    QString offWhy() const { return m_offWhy; } // what disable() or the lane itself was told

    const QUrl &origin() const { return m_origin; }
    // When send() was last called (steady clock, ms; 0 before), and whether nothing is waiting or
    // in flight: HttpClient closes a lane that has been idle for a while (its connections, and the
    // libcurl multi handle's wake-up socket pair, are file descriptors).
    qint64 lastSendMs() const { return m_lastSendMs; }
    bool isIdle() const;

    void setMaxConnections(int count); // default 16
    int maxConnections() const { return m_maxConnections; }

    // HTTP/1.1 pipelining: up to this many requests written on one connection before the first
    // is answered, so the polls that fall due together go out in a few writes instead of one each
    // (default 8, or EDDY_POLL_PIPELINE from the environment; 1 sends one at a time). Requests sent
    // in one turn of the event loop are written together at the end of it. A server that shows it
    // does not take pipelined requests (answers a pipelined one with anything but 200 JSON, closes
    // or times out part way through a run, or closes after every answer) makes the lane fall back
    // to one request at a time for good; the requests it left unanswered fall back like any other.
    void setPipelineDepth(int depth);
    int pipelineDepth() const { return m_pipelineDepth; }
    QString pipeliningOffReason() const { return m_pipeliningOffReason; }

    qint64 connectionsOpened() const { return m_connectionsOpened; }
    qint64 answered() const { return m_answered; }
    qint64 fallbacks() const { return m_fallbacks; }
    int openConnections() const { return int(m_connections.size()); }

    // What the lane reads of an answer's status line and headers (the text up to and including
    // the blank line). Public for the tests.
    struct Head
    {
        enum Verdict {
            Ok,        // 200, application/json, Content-Length
            Relay,     // another final status framed by Content-Length: the caller reads it as is
            NotOk,     // a well-formed answer the caller must see through libcurl (e.g. 1xx)
            Unreadable // framing or syntax the lane does not take: the lane turns itself off
        };
        Verdict verdict = Unreadable;
        int status = 0;
        qint64 contentLength = -1;
        QByteArray contentType;
        bool close = false; // Connection: close
        QString why;
    };
    static Head parseHead(QByteArrayView head);
    static constexpr qsizetype kMaxHeadBytes = 16 * 1024;

private:
    struct Job;
    struct Connection;
    struct Watch;

    static int
    socketCallback(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp);
    static int timerCallback(CURLM *multi, long timeoutMs, void *userp);
    static int closeSocketCallback(void *clientp, curl_socket_t socket);

    QByteArray requestBytes(const HttpRequest &request, QString *why);
    void queueFallback(Done done, QString why);
    bool openConnection();
    void onConnectActivity(curl_socket_t socket, int eventMask);
    void onCurlTimer();
    void harvestConnects();
    void connected(Connection *connection, curl_socket_t socket);
    void assign(Connection *connection, qsizetype count);
    bool writeSome(Connection *connection); // false: the connection failed
    void onReadable(Connection *connection);
    struct Ready;
    // Reads and parses what the connection has; whole answers go to ready in order. False: the
    // connection failed or was dropped; the requests still on it fell back (and those in ready
    // too when the framing is in doubt).
    bool readAnswers(Connection *connection, std::vector<Ready> &ready);
    void fail(Connection *connection, QString why, std::vector<Ready> *ready = nullptr);
    void drop(Connection *connection);
    void stopPipelining(const QString &why);
    void scheduleDispatch();
    void dispatchPending();
    void failPending(const QString &why);
    void turnOff(const QString &why);
    void armDeadline(qint64 deadline);
    void onDeadline();

    QUrl m_origin;
    QByteArray m_originUrl; // what libcurl connects to
    CURLM *m_multi = nullptr;
    QTimer m_curlTimer;
    QTimer m_deadlineTimer;
    qint64 m_armedDeadline = 0;
    std::unordered_map<curl_socket_t, std::unique_ptr<Watch>> m_connectWatches;
    std::vector<std::unique_ptr<Connection>> m_connections;
    std::deque<Job> m_pending; // requests waiting for a free connection
    QUrl m_lastUrl;            // and the request line and Host header made from it
    QByteArray m_lastPrefix;
    int m_maxConnections = 16;
    int m_pipelineDepth = 8;
    QString m_pipeliningOffReason;
    bool m_dispatchQueued = false;
    int m_connectTimeoutMs = 10000;
    bool m_verifyTls = true; // of the connections open now; a request that differs falls back
    bool m_enabled = true;
    QString m_disabledReason;
    QString m_offWhy;
    qint64 m_lastSendMs = 0;
    qint64 m_connectionsOpened = 0;
    qint64 m_answered = 0;
    qint64 m_fallbacks = 0;
};

} // namespace Eddy::Net
