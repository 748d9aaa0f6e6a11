#include "app/net/loopbacklistener.h"

#include <QSocketNotifier>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Eddy::Net {

namespace {
constexpr qsizetype kMaxRequestBytes = 16 * 1024; // a request line with a code and a state fits
constexpr size_t kMaxConnections = 16;

QByteArray page(int status, const QByteArray &reason, const QString &text)
{
    const QByteArray body = "<!doctype html><meta charset=\"utf-8\"><title>Eddy</title><p>"
                            + text.toHtmlEscaped().toUtf8() + "</p>\n";
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason
           + "\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
             "Connection: close\r\nContent-Length: "
           + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// A short page on a loopback socket: the kernel takes it at once; what it does not take is lost
// with the browser, which then shows an error but the sign-in still goes on.
void sendAll(int fd, const QByteArray &bytes)
{
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
        if (n <= 0)
            return;
        sent += n;
    }
}
} // namespace

struct LoopbackListener::Connection
{
    std::unique_ptr<QSocketNotifier> notifier;
    QByteArray request;
};

LoopbackListener::LoopbackListener(QObject *parent) : QObject(parent) {}

LoopbackListener::~LoopbackListener()
{
    close();
}

bool LoopbackListener::listen()
{
    if (m_fd >= 0)
        return true;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0
        || ::listen(fd, 8) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    m_fd = fd;
    m_port = ntohs(addr.sin_port);
    m_notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &LoopbackListener::onAcceptable);
    return true;
}

QUrl LoopbackListener::redirectUri() const
{
    if (m_fd < 0)
        return {};
    return QUrl(QStringLiteral("http://127.0.0.1:%1/callback").arg(m_port));
}

void LoopbackListener::close()
{
    while (!m_connections.empty())
        drop(m_connections.begin()->first);
    m_notifier.reset();
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

void LoopbackListener::onAcceptable()
{
    for (;;) {
        const int fd = ::accept4(m_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        if (m_connections.size() >= kMaxConnections) {
            ::close(fd);
            continue;
        }
        auto c = std::make_unique<Connection>();
        c->notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
        connect(c->notifier.get(), &QSocketNotifier::activated, this, [this, fd] { onReadable(fd); });
        m_connections.emplace(fd, std::move(c));
    }
}

void LoopbackListener::drop(int fd)
{
    auto it = m_connections.find(fd);
    if (it == m_connections.end())
        return;
    it->second->notifier->setEnabled(false);
    // Deleted later: this may run inside the notifier's own signal.
    it->second->notifier.release()->deleteLater();
    m_connections.erase(it);
    ::close(fd);
}

void LoopbackListener::onReadable(int fd)
{
    auto it = m_connections.find(fd);
    if (it == m_connections.end())
        return;
    QByteArray &request = it->second->request;
    char buffer[4096];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            drop(fd);
        return;
    }
    request.append(buffer, qsizetype(n));
    const qsizetype end = request.indexOf("\r\n");
    if (end < 0) {
        if (request.size() > kMaxRequestBytes)
            drop(fd);
        return;
    }
    const QList<QByteArray> line = request.left(end).split(' ');
    const QUrl target = line.size() >= 2 ? QUrl(QString::fromLatin1(line[1])) : QUrl();
    if (line.value(0) != "GET" || target.path() != QLatin1String("/callback") || m_answered) {
        sendAll(fd, page(404, "Not Found", tr("Nothing to see here.")));
        drop(fd);
        return;
    }
    m_answered = true;
    const QUrlQuery query(target);
    const bool failed = query.hasQueryItem(QStringLiteral("error"));
    sendAll(fd, page(200, "OK", failed ? tr("Eddy did not get permission. You can close this window "
                                            "and read what Eddy says.")
                                       : tr("Eddy received the sign-in. You can close this window.")));
    drop(fd);
    emit callback(query);
}

} // namespace Eddy::Net
