#include "app/net/httpclient.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QSocketNotifier>

#include <mutex>

Q_LOGGING_CATEGORY(lcNet, "eddy.net")

namespace Eddy::Net {

bool initGlobal()
{
    static std::once_flag once;
    static bool ok = false;
    std::call_once(once, [] { ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; });
    return ok;
}

struct HttpClient::SocketWatch
{
    std::unique_ptr<QSocketNotifier> read;
    std::unique_ptr<QSocketNotifier> write;
};

HttpClient::HttpClient(QObject *parent)
    : QObject(parent)
{
    initGlobal();
    m_multi = curl_multi_init();
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &HttpClient::socketCallback);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &HttpClient::timerCallback);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    // Keep enough idle connections for a busy poller; listens hold theirs for their lifetime.
    curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, 64L);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpClient::onTimeout);
}

HttpClient::~HttpClient()
{
    // Replies outliving the client end as aborted; their owners still delete them.
    const auto active = m_active;
    for (const auto &[easy, reply] : active) {
        curl_multi_remove_handle(m_multi, easy);
        curl_easy_cleanup(easy);
        reply->m_easy = nullptr;
        reply->m_client = nullptr;
        reply->m_finished = true;
        reply->m_error = Error(Error::Kind::Aborted, CURLE_ABORTED_BY_CALLBACK,
                               QStringLiteral("the HTTP client was shut down"));
    }
    m_active.clear();
    for (CURL *easy : m_idleHandles)
        curl_easy_cleanup(easy);
    m_sockets.clear();
    curl_multi_cleanup(m_multi);
}

void HttpClient::setMaxConnectionsPerHost(int count)
{
    curl_multi_setopt(m_multi, CURLMOPT_MAX_HOST_CONNECTIONS, long(count));
}

HttpReply *HttpClient::post(const HttpRequest &request)
{
    auto *reply = new HttpReply(this);
    CURL *easy = nullptr;
    if (!m_idleHandles.empty()) {
        // No curl_easy_reset: every option below is set on each use, and keeping the handle's
        // state saves work on every poll.
        easy = m_idleHandles.back();
        m_idleHandles.pop_back();
    } else {
        easy = curl_easy_init();
    }
    reply->m_easy = easy;
    reply->m_maxBytes = request.maxResponseBytes;
    reply->m_requestBody = request.body;

    if (request.url != m_lastUrl) { // every request of a client goes to the same URL
        m_lastUrl = request.url;
        m_lastEncodedUrl = request.url.toEncoded();
    }
    curl_easy_setopt(easy, CURLOPT_URL, m_lastEncodedUrl.constData()); // libcurl copies strings
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, reply->m_requestBody.constData());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(reply->m_requestBody.size()));
    // Handles are reused without a reset, so the method is set (or cleared) on every use.
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST,
                     request.method == HttpRequest::Method::Delete ? "DELETE" : nullptr);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &HttpReply::writeCallback);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, reply);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &HttpReply::headerCallback);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, reply);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, reply);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, reply->m_errorBuffer);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(request.timeoutMs > 0 ? request.timeoutMs : 0));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(request.connectTimeoutMs));
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, request.verifyTls ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, request.verifyTls ? 2L : 0L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     curl_off_t(request.maxResponseBytes > 0 ? request.maxResponseBytes : 0));

    curl_slist *list = nullptr;
    // No "Expect: 100-continue": it costs a round trip on every larger POST.
    list = curl_slist_append(list, "Expect:");
    bool hasContentType = false;
    for (const auto &[name, value] : request.headers) {
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            hasContentType = true;
        const QByteArray line = name + ": " + value;
        list = curl_slist_append(list, line.constData());
    }
    if (!hasContentType)
        list = curl_slist_append(list, "Content-Type: application/json");
    if (!request.bearerToken.isEmpty()) {
        const QByteArray line = "Authorization: Bearer " + request.bearerToken;
        list = curl_slist_append(list, line.constData());
    }
    reply->m_headerList = list;
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, list);

    m_active.emplace(easy, reply);
    const CURLMcode rc = curl_multi_add_handle(m_multi, easy);
    if (rc != CURLM_OK) {
        m_active.erase(easy);
        curl_easy_cleanup(easy);
        reply->m_easy = nullptr;
        reply->m_finished = true;
        reply->m_error = Error(Error::Kind::Transport, CURLE_FAILED_INIT,
                               QStringLiteral("cannot start the request (%1)")
                                   .arg(QString::fromUtf8(curl_multi_strerror(rc))));
        // finished() must not fire before the caller could connect to it.
        QMetaObject::invokeMethod(reply, [reply] { emit reply->finished(); }, Qt::QueuedConnection);
    }
    return reply;
}

int HttpClient::socketCallback(CURL *, curl_socket_t socket, int what, void *userp, void *)
{
    // Inside a libcurl callback: only bookkeeping of Qt notifiers, never a libcurl call.
    auto *self = static_cast<HttpClient *>(userp);
    if (what == CURL_POLL_REMOVE) {
        self->m_sockets.erase(socket); // destroys both notifiers now: the fd may be reused
        return 0;
    }
    auto &watch = self->m_sockets[socket];
    if (!watch)
        watch = std::make_unique<SocketWatch>();
    const bool wantRead = what == CURL_POLL_IN || what == CURL_POLL_INOUT;
    const bool wantWrite = what == CURL_POLL_OUT || what == CURL_POLL_INOUT;
    if (wantRead && !watch->read) {
        watch->read = std::make_unique<QSocketNotifier>(qintptr(socket), QSocketNotifier::Read);
        connect(watch->read.get(), &QSocketNotifier::activated, self,
                [self, socket] { self->onSocketActivity(socket, CURL_CSELECT_IN); });
    }
    if (watch->read)
        watch->read->setEnabled(wantRead);
    if (wantWrite && !watch->write) {
        watch->write = std::make_unique<QSocketNotifier>(qintptr(socket), QSocketNotifier::Write);
        connect(watch->write.get(), &QSocketNotifier::activated, self,
                [self, socket] { self->onSocketActivity(socket, CURL_CSELECT_OUT); });
    }
    if (watch->write)
        watch->write->setEnabled(wantWrite);
    return 0;
}

int HttpClient::timerCallback(CURLM *, long timeoutMs, void *userp)
{
    auto *self = static_cast<HttpClient *>(userp);
    if (timeoutMs < 0) {
        self->m_timer.stop();
        return 0;
    }
    const int ms = int(qMin<long>(timeoutMs, 24L * 3600 * 1000));
    // libcurl repeats the same deadline often; re-registering the timer each time costs more
    // than the check.
    if (ms > 0 && self->m_timer.isActive() && qAbs(self->m_timer.remainingTime() - ms) <= 1)
        return 0;
    self->m_timer.start(ms);
    return 0;
}

void HttpClient::onSocketActivity(curl_socket_t socket, int eventMask)
{
    int running = 0;
    m_inSocketAction = true;
    curl_multi_socket_action(m_multi, socket, eventMask, &running);
    m_inSocketAction = false;
    afterSocketAction();
}

void HttpClient::onTimeout()
{
    int running = 0;
    m_inSocketAction = true;
    curl_multi_socket_action(m_multi, CURL_SOCKET_TIMEOUT, 0, &running);
    m_inSocketAction = false;
    afterSocketAction();
}

void HttpClient::afterSocketAction()
{
    // Copy the completion messages first: curl_multi_remove_handle invalidates them.
    std::vector<std::pair<CURL *, CURLcode>> done;
    int left = 0;
    while (CURLMsg *msg = curl_multi_info_read(m_multi, &left)) {
        if (msg->msg == CURLMSG_DONE)
            done.emplace_back(msg->easy_handle, msg->data.result);
    }

    // Announce data of transfers still running (and of finishing ones, before their finished()).
    std::vector<QPointer<HttpReply>> withData;
    for (const auto &[easy, reply] : m_active) {
        if (reply->m_pendingReadyRead || (reply->m_headersDone && !reply->m_headersAnnounced))
            withData.emplace_back(reply);
    }
    for (const QPointer<HttpReply> &reply : withData) {
        if (!reply || reply->m_finished)
            continue;
        if (reply->m_headersDone && !reply->m_headersAnnounced) {
            reply->m_headersAnnounced = true;
            emit reply->headersReceived();
        }
        if (reply && !reply->m_finished && reply->m_pendingReadyRead) {
            reply->m_pendingReadyRead = false;
            emit reply->readyRead();
        }
    }

    for (const auto &[easy, code] : done) {
        const auto it = m_active.find(easy);
        if (it == m_active.end())
            continue; // aborted by a slot above
        finishReply(it->second, code);
    }
}

void HttpClient::finishReply(HttpReply *reply, CURLcode code)
{
    CURL *easy = reply->m_easy;
    long connects = 0;
    curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
    m_connectionsOpened += connects;
    m_active.erase(easy);
    curl_multi_remove_handle(m_multi, easy);
    reply->m_easy = nullptr;
    m_idleHandles.push_back(easy);

    if (reply->m_tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
        reply->m_error = Error(Error::Kind::TooLarge, code,
                               QStringLiteral("the server's answer is larger than the limit of %1 "
                                              "bytes; it was discarded")
                                   .arg(reply->m_maxBytes));
    } else {
        reply->m_error = Error::fromCurl(code, reply->m_errorBuffer);
    }
    reply->m_finished = true;
    QPointer<HttpReply> guard(reply);
    if (reply->m_headersDone && !reply->m_headersAnnounced) {
        reply->m_headersAnnounced = true;
        emit reply->headersReceived();
    }
    if (guard && reply->m_pendingReadyRead) {
        reply->m_pendingReadyRead = false;
        emit reply->readyRead();
    }
    if (guard)
        emit reply->finished();
}

void HttpClient::abortReply(HttpReply *reply)
{
    CURL *easy = reply->m_easy;
    if (!easy)
        return;
    m_active.erase(easy);
    curl_multi_remove_handle(m_multi, easy);
    // An aborted connection may be half-read: never hand this handle's state to a new request.
    curl_easy_cleanup(easy);
    reply->m_easy = nullptr;
}

} // namespace Eddy::Net
