#include "tests/net/httppeer.h"

namespace Eddy::Test {

QByteArray HttpPeer::Request::header(const QByteArray &name) const
{
    for (const auto &[k, v] : headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

HttpPeer::HttpPeer(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &HttpPeer::onNewConnection);
}

bool HttpPeer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl HttpPeer::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/mcp").arg(m_server.serverPort()));
}

void HttpPeer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        socket->setProperty("peerConnection", m_connections);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }
}

void HttpPeer::onReadyRead(QTcpSocket *socket)
{
    QByteArray buffer = socket->property("peerBuffer").toByteArray() + socket->readAll();
    while (true) {
        const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
        if (headEnd < 0)
            break;
        const QList<QByteArray> lines = buffer.left(headEnd).split('\n');
        Request request;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        request.path = first.value(1);
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            request.headers.append({name, value});
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                length = value.toLongLong();
        }
        if (buffer.size() < headEnd + 4 + length)
            break;
        request.body = buffer.mid(headEnd + 4, length);
        buffer.remove(0, headEnd + 4 + length);
        request.connection = socket->property("peerConnection").toInt();
        m_requests.append(request);
        if (m_handler)
            m_handler(request, socket);
        if (socket->state() != QAbstractSocket::ConnectedState)
            return;
    }
    socket->setProperty("peerBuffer", buffer);
}

QByteArray HttpPeer::response(int status, const QByteArray &body, const QByteArray &contentType,
                              const QList<std::pair<QByteArray, QByteArray>> &extra)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " X\r\n";
    if (!contentType.isEmpty())
        out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto &[k, v] : extra)
        out += k + ": " + v + "\r\n";
    out += "\r\n" + body;
    return out;
}

QByteArray HttpPeer::chunkedHead(int status, const QByteArray &contentType)
{
    return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType
           + "\r\nTransfer-Encoding: chunked\r\n\r\n";
}

QByteArray HttpPeer::chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

} // namespace Eddy::Test
