#pragma once

#include "app/net/error.h"

#include <QByteArray>
#include <QList>
#include <QObject>

#include <curl/curl.h>

#include <utility>
#include <vector>

namespace Eddy::Net {

class HttpClient;

// One in-flight POST, shaped like QNetworkReply: readyRead() as body bytes arrive, finished()
// exactly once. Owned by the caller (deleteLater it after finished()); lives on the thread of the
// HttpClient that made it.
class HttpReply final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpReply)

public:
    ~HttpReply() override;

    QByteArray readAll();                   // body bytes received since the last call
    qint64 bytesAvailable() const { return m_body.size(); }
    int statusCode() const { return m_status; } // 0 until the status line arrived
    QByteArray header(const QByteArray &name) const; // case-insensitive, last value wins
    QList<std::pair<QByteArray, QByteArray>> headers() const { return m_headers; }
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

    static size_t writeCallback(char *data, size_t size, size_t count, void *userp);
    static size_t headerCallback(char *data, size_t size, size_t count, void *userp);
    // The request's header lines as a curl_slist whose nodes and text live in this reply (libcurl
    // only reads the list), so a request costs no allocation per header.
    curl_slist *buildHeaderList(const QList<std::pair<QByteArray, QByteArray>> &headers,
                                const QByteArray &bearerToken);

    HttpClient *m_client = nullptr;
    CURL *m_easy = nullptr;
    QByteArray m_headerText;  // NUL-separated header lines
    std::vector<curl_slist> m_headerNodes;
    QByteArray m_requestBody;
    QByteArray m_body;
    QList<std::pair<QByteArray, QByteArray>> m_headers;
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
