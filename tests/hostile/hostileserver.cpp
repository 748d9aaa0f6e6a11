#include "tests/hostile/hostileserver.h"

#include <QDateTime>
#include <QFile>
#include <QPointer>
#include <QProcess>
#include <QSslSocket>
#include <QTimer>

namespace Eddy::Test {

using nlohmann::json;

HostileServer::HostileServer(QObject *parent) : QObject(parent)
{
    tools = json::array({{{"name", "sim"},
                          {"description", "a simulation"},
                          {"inputSchema", {{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}}}}});
    m_peer.setHandler([this](const HttpPeer::Request &r, QTcpSocket *s) { onRequest(r, s); });
}

bool HostileServer::listen()
{
    return m_peer.listen();
}

json HostileServer::task(const std::string &status) const
{
    const std::string now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    return {{"taskId", taskId}, {"status", status}, {"createdAt", now}, {"lastUpdatedAt", now},
            {"ttlMs", 600000}, {"pollIntervalMs", 250}};
}

json HostileServer::normalAnswer(const Call &call) const
{
    auto result = [&call](json r) { return json{{"jsonrpc", "2.0"}, {"id", call.id}, {"result", std::move(r)}}; };
    const std::string &m = call.method;
    if (m == "server/discover")
        return result({{"resultType", "complete"},
                       {"supportedVersions", {"2026-07-28"}},
                       {"capabilities", {{"tools", json::object()},
                                         {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}},
                       {"ttlMs", 60000},
                       {"cacheScope", "public"},
                       {"_meta", {{"io.modelcontextprotocol/serverInfo", {{"name", "hostile"}, {"version", "1"}}}}}});
    if (m == "tools/list")
        return result({{"resultType", "complete"}, {"tools", tools}});
    if (m == "tools/call") {
        json t = task("working");
        t["resultType"] = "task";
        return result(t);
    }
    if (m == "tasks/get") {
        const int n = call.count;
        json t = task(n < 2 ? "working" : "completed");
        t["resultType"] = "complete";
        if (n < 2)
            t["statusMessage"] = "iteration 10, residual 1e-3";
        else
            t["result"] = {{"content", {{{"type", "text"}, {"text", "hostile result"}}}}, {"isError", false}};
        return result(t);
    }
    if (m == "tasks/update" || m == "tasks/cancel")
        return result({{"resultType", "complete"}});
    return json{{"jsonrpc", "2.0"}, {"id", call.id}, {"error", {{"code", -32601}, {"message", "Method not found"}}}};
}

void HostileServer::onRequest(const HttpPeer::Request &request, QTcpSocket *socket)
{
    const json body = json::parse(request.body.constBegin(), request.body.constEnd(), nullptr, false);
    std::string method;
    json id;
    if (body.is_object()) {
        method = body.value("method", std::string());
        id = body.value("id", json());
    }
    const int n = ++m_counts[QByteArray::fromStdString(method)];
    const Call call{method, body, id, request, socket, n};
    if (m_fault && m_fault(*this, call))
        return;
    if (id.is_null()) { // a notification
        socket->write(HttpPeer::response(202, "", ""));
        return;
    }
    socket->write(http(QByteArray::fromStdString(normalAnswer(call).dump())));
}

json HostileServer::toolError(const std::string &text)
{
    return {{"resultType", "complete"},
            {"content", {{{"type", "text"}, {"text", text}}}},
            {"isError", true}};
}

QByteArray HostileServer::rpcResult(const json &id, const json &result)
{
    return QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump());
}

QByteArray HostileServer::rpcError(const json &id, int code, const std::string &message)
{
    return QByteArray::fromStdString(
        json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}}.dump());
}

QByteArray HostileServer::http(const QByteArray &body, int status, const QByteArray &contentType,
                               const QList<std::pair<QByteArray, QByteArray>> &extra)
{
    return HttpPeer::response(status, body, contentType, extra);
}

void HostileServer::drip(QTcpSocket *socket, const QByteArray &bytes, int msPerByte)
{
    auto *timer = new QTimer(socket); // dies with the connection
    auto pos = std::make_shared<qsizetype>(0);
    QObject::connect(timer, &QTimer::timeout, socket, [socket, timer, bytes, pos] {
        if (*pos >= bytes.size() || socket->state() != QAbstractSocket::ConnectedState) {
            timer->stop();
            return;
        }
        socket->write(bytes.mid((*pos)++, 1));
    });
    timer->start(msPerByte);
}

void HostileServer::endless(QTcpSocket *socket, const QByteArray &head, std::function<QByteArray()> next)
{
    socket->write(head);
    auto fill = [socket, next] {
        while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() < (1 << 20))
            socket->write(next());
    };
    QObject::connect(socket, &QTcpSocket::bytesWritten, socket, fill);
    fill();
}

void HostileServer::every(QTcpSocket *socket, const QByteArray &head, int ms, std::function<QByteArray()> next)
{
    socket->write(head);
    auto *timer = new QTimer(socket);
    QObject::connect(timer, &QTimer::timeout, socket, [socket, next] {
        if (socket->state() == QAbstractSocket::ConnectedState)
            socket->write(next());
    });
    timer->start(ms);
}

bool SelfSignedTlsServer::start(const QString &dir, QString *error)
{
    if (!QSslSocket::supportsSsl()) {
        *error = QStringLiteral("Qt has no TLS backend here; install Qt's OpenSSL plugin.");
        return false;
    }
    const QString key = dir + QStringLiteral("/key.pem");
    const QString cert = dir + QStringLiteral("/cert.pem");
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                   QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                   QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-days"), QStringLiteral("2"),
                   QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
    if (!openssl.waitForFinished(60000) || openssl.exitCode() != 0) {
        *error = QStringLiteral("openssl req failed (%1); install the openssl package.")
                     .arg(QString::fromLocal8Bit(openssl.readAllStandardError()).trimmed());
        return false;
    }
    QFile k(key), c(cert);
    if (!k.open(QIODevice::ReadOnly) || !c.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the certificate openssl made");
        return false;
    }
    m_key = QSslKey(k.readAll(), QSsl::Ec);
    m_cert = QSslCertificate(c.readAll());
    if (m_key.isNull() || m_cert.isNull()) {
        *error = QStringLiteral("Qt cannot load the certificate openssl made");
        return false;
    }
    if (!listen(QHostAddress::LocalHost, 0)) {
        *error = errorString();
        return false;
    }
    return true;
}

void SelfSignedTlsServer::incomingConnection(qintptr handle)
{
    auto *socket = new QSslSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return;
    }
    socket->setLocalCertificate(m_cert);
    socket->setPrivateKey(m_key);
    connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
    // The client refuses the certificate and hangs up; anything it might send is ignored.
    connect(socket, &QSslSocket::sslErrors, socket, [] {});
    socket->startServerEncryption();
}

} // namespace Eddy::Test
