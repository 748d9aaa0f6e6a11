#pragma once

#include "tests/net/httppeer.h"

#include <QString>

namespace Eddy::Test {

// A web site, not an MCP server, on 127.0.0.1:0: every request gets a 404 HTML page (a heading
// in its own language) and the connection closes, as https://example.org/ answers a JSON-RPC
// POST. The reference server cannot be one: at a wrong path it answers a JSON-RPC error.
// `status` is the status line's code and reason: "501 Unsupported method ('POST')" is a plain
// file server's answer (python3 -m http.server).
class WebSite final
{
public:
    explicit WebSite(const QByteArray &heading = "Not Found",
                     const QByteArray &status = "404 Not Found")
    {
        const QByteArray page = "<!doctype html><html><body><h1>" + heading + "</h1></body></html>";
        m_peer.setHandler([page, status](const HttpPeer::Request &, QTcpSocket *socket) {
            socket->write("HTTP/1.1 " + status + "\r\nContent-Type: text/html\r\nContent-Length: "
                          + QByteArray::number(page.size()) + "\r\nConnection: close\r\n\r\n"
                          + page);
            socket->disconnectFromHost();
        });
    }

    bool listen() { return m_peer.listen(); }
    quint16 port() const { return quint16(m_peer.url().port()); }
    // Its root, the URL a user pastes from the browser: http://127.0.0.1:PORT/
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/").arg(port()); }

private:
    HttpPeer m_peer;
};

} // namespace Eddy::Test
