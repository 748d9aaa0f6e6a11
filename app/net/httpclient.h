#pragma once

#include "app/net/httpreply.h"
#include "app/net/httprequest.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <curl/curl.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

class QSocketNotifier;

namespace Eddy::Net {

class PollLane;

// Calls curl_global_init exactly once (thread-safe); main() and tests call it before any client.
bool initGlobal();

// Driving a libcurl multi handle from a Qt event loop, shared by HttpClient and PollLane.
namespace CurlLoop {
// Follows CURLMOPT_TIMERFUNCTION: starts (or stops, for -1) the single-shot timer. The same
// deadline asked again is not restarted; never later than asked.
void armTimer(QTimer &timer, long timeoutMs);
// The timer expired: runs libcurl's timeouts, and re-arms the timer when libcurl still has a
// deadline (it calls the timer callback only when its earliest deadline changes, so an expiry
// that found nothing due yet would otherwise leave nobody to wake it).
void runTimeouts(CURLM *multi, QTimer &timer);
// The transfers libcurl finished, copied out first: curl_multi_remove_handle invalidates them.
std::vector<std::pair<CURL *, CURLcode>> takeFinished(CURLM *multi);
} // namespace CurlLoop

// Owns one libcurl multi handle driven by the Qt event loop of its thread (QSocketNotifiers plus
// one single-shot QTimer), so thousands of requests share a few keep-alive connections without a
// thread each. Signals of replies are emitted only after curl_multi_socket_action has returned.
// Per request it only sets what differs from the last use of a pooled easy handle: the options
// that never change, the socket notifiers (one pair per socket while it lives) and the proxy
// settings (read from the environment once, with libcurl's own rules) are set up once.
class HttpClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpClient)

public:
    explicit HttpClient(QObject *parent = nullptr);
    ~HttpClient() override;

    // Starts a POST (or request.method's DELETE) at once. The caller owns the reply and
    // deleteLaters it after finished().
    HttpReply *post(const HttpRequest &request);

    // Caps parallel connections per host; extra transfers wait inside libcurl. 0 = no cap.
    void setMaxConnectionsPerHost(int count);
    int activeTransfers() const { return int(m_active.size()); }
    // Connections libcurl opened so far (CURLINFO_NUM_CONNECTS summed): shows keep-alive reuse.
    qint64 connectionsOpened() const { return m_connectionsOpened; }

    // Requests marked mayRepeat (tasks/get polls) go through a PollLane per origin when no proxy
    // applies: keep-alive connections libcurl opens and Eddy writes to and reads from itself,
    // without a libcurl transfer per poll. Whatever the lane does not read (an error status, SSE,
    // a reset...) is sent again through libcurl, so callers see the same answers and errors
    // either way. On by default; EDDY_POLL_LANE=0 in the environment turns it off.
    void setPollLaneEnabled(bool on) { m_laneAllowed = on; }
    bool isPollLaneEnabled() const { return m_laneAllowed; }
    qint64 laneAnswers() const { return m_laneAnswers; }     // answered by a lane
    qint64 laneFallbacks() const { return m_laneFallbacks; } // sent again through libcurl
    // A lane that has sent nothing for this long and holds no request is closed, with its
    // connections and its libcurl multi handle (a wake-up socket pair): a client that met many
    // servers over days (restarted, moved, replaced) keeps descriptors only for those it still
    // polls. The next poll to that origin opens a new lane; an origin whose lane turned itself off
    // stays off. Default 120 s, libcurl's own limit for an idle connection (CURLOPT_MAXAGE_CONN).
    void setLaneIdleMs(int ms);
    int laneCount() const { return int(m_lanes.size()); }

    // Proxies as libcurl takes them from the environment, resolved once per client:
    // <scheme>_proxy (HTTPS_PROXY too, but never HTTP_PROXY), then all_proxy / ALL_PROXY; hosts in
    // no_proxy / NO_PROXY go direct. Empty = direct.
    struct ProxySettings
    {
        QByteArray http;
        QByteArray https;
        QByteArray noProxy;
        static ProxySettings fromEnvironment();
    };
    const ProxySettings &proxySettings() const { return m_proxy; }

private:
    friend class HttpReply;
    struct SocketWatch;
    struct Handle; // a pooled easy handle and the options last set on it

    static int socketCallback(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp);
    static int timerCallback(CURLM *multi, long timeoutMs, void *userp);
    static int closeSocketCallback(void *clientp, curl_socket_t socket);
    static int socketOptionCallback(void *clientp, curl_socket_t socket, curlsocktype purpose);

    std::unique_ptr<Handle> takeHandle();
    void configure(Handle &handle, const HttpRequest &request);
    void startTransfer(HttpReply *reply, const HttpRequest &request);
    PollLane *laneFor(const QUrl &url);
    void closeIdleLanes();
    // A lane's answer, as the reply would have read it from libcurl.
    static void setLaneAnswer(HttpReply *reply, int status, QByteArray headerLines, QByteArray body);

    void onSocketActivity(curl_socket_t socket, int eventMask);
    void onTimeout();
    void afterSocketAction();
    void abortReply(HttpReply *reply);
    void finishReply(HttpReply *reply, CURLcode code);
    // headersReceived / readyRead still owed to the reply; false when it is gone since.
    bool announceData(HttpReply *reply);

    CURLM *m_multi = nullptr;
    QTimer m_timer;
    std::unordered_map<curl_socket_t, std::unique_ptr<SocketWatch>> m_sockets;
    std::unordered_set<curl_socket_t> m_connectionSockets; // opened for connections, still open
    struct Transfer
    {
        HttpReply *reply = nullptr;
        std::unique_ptr<Handle> handle;
    };
    std::unordered_map<CURL *, Transfer> m_active;
    std::vector<std::unique_ptr<Handle>> m_idleHandles; // finished easy handles kept for reuse
    QUrl m_lastUrl;                   // and its encoding, computed once per URL
    QByteArray m_lastEncodedUrl;
    QByteArray m_lastProxy;           // the proxy for m_lastUrl
    ProxySettings m_proxy;
    qint64 m_connectionsOpened = 0;
    std::vector<std::unique_ptr<PollLane>> m_lanes; // one per origin polled lately
    QTimer m_laneSweep;                              // closes idle lanes (closeIdleLanes)
    int m_laneIdleMs = 120000;
    QHash<QString, QString> m_laneOffOrigins; // origins whose closed lane had turned off, and why
    PollLane *m_lastLane = nullptr; // the lane for m_lastLaneUrl
    QUrl m_lastLaneUrl;
    // By ticket: replies a lane holds. A QHash keeps its entries in blocks, so a poll allocates
    // nothing here once it has grown (a std::unordered_map allocates a node per insert).
    QHash<quint64, HttpReply *> m_laneReplies;
    quint64 m_nextTicket = 1;
    bool m_laneAllowed = true;
    qint64 m_laneAnswers = 0;
    qint64 m_laneFallbacks = 0;
};

} // namespace Eddy::Net
