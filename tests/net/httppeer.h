#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <functional>
#include <utility>

namespace Eddy::Test {

// A real HTTP/1.1 server on 127.0.0.1:0 that follows a per-test script: each complete request
// goes to the handler, which writes whatever bytes it likes (or resets, stalls, truncates).
// Used where the real eddy-cfd-server cannot be made to misbehave. Lives on the test thread.
class HttpPeer final : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QList<std::pair<QByteArray, QByteArray>> headers;
        QByteArray body;
        int connection = 0; // 1-based index of the TCP connection it came on
        QByteArray header(const QByteArray &name) const;
    };
    using Handler = std::function<void(const Request &, QTcpSocket *)>;

    explicit HttpPeer(QObject *parent = nullptr);
    bool listen();
    QUrl url() const; // http://127.0.0.1:PORT/mcp
    void setHandler(Handler handler) { m_handler = std::move(handler); }

    const QList<Request> &requests() const { return m_requests; }
    int connections() const { return m_connections; }

    // A complete response with Content-Length and keep-alive.
    static QByteArray response(int status, const QByteArray &body,
                               const QByteArray &contentType = "application/json",
                               const QList<std::pair<QByteArray, QByteArray>> &extra = {});
    // The head of a chunked response; follow with chunk() pieces and chunk({}) to end.
    static QByteArray chunkedHead(int status, const QByteArray &contentType);
    static QByteArray chunk(const QByteArray &data);

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);

    QTcpServer m_server;
    Handler m_handler;
    QList<Request> m_requests;
    int m_connections = 0;
};

} // namespace Eddy::Test
