#pragma once

#include <QByteArray>
#include <QObject>
#include <QUrl>
#include <QUrlQuery>

#include <map>
#include <memory>

class QSocketNotifier;

namespace Eddy::Net {

// The redirect target of a browser sign-in (RFC 8252 §7.3): listens on 127.0.0.1 at a port the
// system picks, answers the browser's one GET of /callback with a short page, and hands its query
// (code, state, iss or error) on. Anything else (a favicon, a stray connection) gets a 404. It
// never logs the query: it carries an authorization code. Plain sockets on QSocketNotifiers, like
// HttpClient's, so the layer needs nothing beyond QtCore.
class LoopbackListener final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LoopbackListener)

public:
    explicit LoopbackListener(QObject *parent = nullptr);
    ~LoopbackListener() override;

    // Starts listening; false (with errorString()) when no loopback port could be opened.
    bool listen();
    QString errorString() const { return m_error; }
    // http://127.0.0.1:PORT/callback once listening.
    QUrl redirectUri() const;
    void close();

signals:
    // The browser arrived with the authorization response; emitted once.
    void callback(const QUrlQuery &query);

private:
    struct Connection;
    void onAcceptable();
    void onReadable(int fd);
    void drop(int fd);

    int m_fd = -1;
    quint16 m_port = 0;
    std::unique_ptr<QSocketNotifier> m_notifier;
    std::map<int, std::unique_ptr<Connection>> m_connections;
    QString m_error;
    bool m_answered = false;
};

} // namespace Eddy::Net
