#pragma once

#include "app/net/error.h"
#include "app/net/httprequest.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QVarLengthArray>

#include <curl/curl.h>

#include <memory>
#include <utility>
#include <vector>

namespace Eddy::Net {

class HttpClient;

// One in-flight POST, shaped like QNetworkReply: readyRead() as body bytes arrive, finished()
// exactly once. Owned by the caller (deleteLater or release() it after finished()); lives on the
// thread of the HttpClient that made it.
class HttpReply final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpReply)

public:
    // Told directly instead of through the signals, for a caller that makes a reply per poll:
    // no connection per reply. The reply keeps it alive; it must not delete the reply (release()).
    class Handler
    {
    public:
        virtual void replyHeadersReceived(HttpReply *reply) = 0;
        virtual void replyReadyRead(HttpReply *reply) = 0;
        virtual void replyFinished(HttpReply *reply) = 0;

    protected:
        ~Handler() = default;
    };

    ~HttpReply() override;

    // Replaces the signals (none is emitted while a handler is set); nullptr = signals again.
    void setHandler(std::shared_ptr<Handler> handler) { m_handler = std::move(handler); }
    // The owner is done with the reply: a running one ends quietly, and it is deleted at once, or
    // right after the handler call or signal it is in (no posted event, unlike deleteLater).
    void release();

    QByteArray readAll();                   // body bytes received since the last call
    qint64 bytesAvailable() const { return m_body.size(); }
    int statusCode() const { return m_status; } // 0 until the status line arrived
    QByteArray header(QByteArrayView name) const; // case-insensitive, last value wins
    // The same without a copy; valid until the reply changes or goes.
    QByteArrayView headerView(QByteArrayView name) const;
    QList<std::pair<QByteArray, QByteArray>> headers() const;
    bool isFinished() const { return m_finished; }
    Error error() const { return m_error; }
    void abort(); // ends the exchange now; emits finished() with Error::Kind::Aborted

signals:
    void headersReceived(); // status line and headers are complete
    void readyRead();
    void finished();

private:
    friend class HttpClient;
    explicit HttpReply(HttpClient *client);

    enum class Notice { HeadersReceived, ReadyRead, Finished };
    // Tells the owner through the handler or the signal; false when the reply is gone since.
    bool announce(Notice notice);

    static size_t writeCallback(char *data, size_t size, size_t count, void *userp);
    static size_t headerCallback(char *data, size_t size, size_t count, void *userp);
    // The request's header lines as a curl_slist whose nodes and text live in this reply (libcurl
    // only reads the list), so a request costs no allocation per header.
    curl_slist *buildHeaderList(const QList<std::pair<QByteArray, QByteArray>> &headers,
                                const QByteArray &bearerToken);

    HttpClient *m_client = nullptr;
    CURL *m_easy = nullptr;
    quint64 m_laneTicket = 0; // non-zero while a poll lane holds the request
    HttpRequest m_laneRequest; // meanwhile: sent again through libcurl if the lane hands it back
    QByteArray m_headerText;  // NUL-separated header lines
    std::vector<curl_slist> m_headerNodes;
    QByteArray m_requestBody;
    QByteArray m_body;
    // The response's header lines as received, "name: value" each (CR/LF stripped), and where
    // each starts: one buffer for all of them instead of two arrays per header. A typical answer's
    // few lines fit in the reply itself.
    QByteArray m_headerBlock;
    QVarLengthArray<std::pair<qsizetype, qsizetype>, 8> m_headerLines; // offset, length
    std::shared_ptr<Handler> m_handler;
    int m_announcing = 0;   // nested announce() calls in progress
    bool m_released = false; // release() asked while announcing
    qint64 m_received = 0;
    qint64 m_maxBytes = 0;
    int m_status = 0;
    bool m_headersDone = false;
    bool m_headersAnnounced = false;
    bool m_tooLarge = false;
    bool m_pendingReadyRead = false;
    bool m_finished = false;
    bool m_waitedToRead = false; // the socket was connected (see HttpClient::finishReply)
    Error m_error;
    char m_errorBuffer[CURL_ERROR_SIZE] = {};
};

} // namespace Eddy::Net
