#pragma once

#include "tests/net/httppeer.h"

#include <QHash>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpServer>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace Eddy::Test {

// A real HTTP server on 127.0.0.1:0 (an HttpPeer) that speaks just enough of the 2026-07-28
// wire for a client to get through server/discover -> tools/list -> tools/call -> tasks/get
// (working, then completed), and misbehaves wherever its Fault says. Lives on the test thread.
class HostileServer final : public QObject
{
    Q_OBJECT

public:
    struct Call
    {
        std::string method;
        nlohmann::json body; // discarded when the request was not JSON
        nlohmann::json id;
        const HttpPeer::Request &request;
        QTcpSocket *socket;
        int count; // 1-based: the how-many-th request of this method
    };
    // Returns true when it answered (or deliberately did not); false = behave normally.
    using Fault = std::function<bool(HostileServer &, const Call &)>;

    explicit HostileServer(QObject *parent = nullptr);
    bool listen();
    QUrl url() const { return m_peer.url(); }
    quint16 port() const { return quint16(m_peer.url().port()); }
    void setFault(Fault fault) { m_fault = std::move(fault); }
    int count(const std::string &method) const { return m_counts.value(QByteArray::fromStdString(method)); }
    int connections() const { return m_peer.connections(); }

    std::string taskId = "task-hostile-0123456789abcdef";
    nlohmann::json tools; // tools/list's list
    nlohmann::json firstCallId; // for faults that compare a retry's id with the first call's

    // A task object with sane defaults (ttlMs 10 min, pollIntervalMs 250).
    nlohmann::json task(const std::string &status) const;
    // What a well-behaved server answers to the call (a JSON-RPC message).
    nlohmann::json normalAnswer(const Call &call) const;

    // A tools/call result that is a tool error (isError: true, resultType "complete"): the call
    // is answered at once and no task exists to poll.
    static nlohmann::json toolError(const std::string &text);

    static QByteArray rpcResult(const nlohmann::json &id, const nlohmann::json &result);
    static QByteArray rpcError(const nlohmann::json &id, int code, const std::string &message);
    // A complete HTTP response carrying a JSON body.
    static QByteArray http(const QByteArray &body, int status = 200,
                           const QByteArray &contentType = "application/json",
                           const QList<std::pair<QByteArray, QByteArray>> &extra = {});

    // Writes `bytes` one byte per `msPerByte` until done or the client goes away.
    static void drip(QTcpSocket *socket, const QByteArray &bytes, int msPerByte);
    // Writes `head`, then next() whenever the socket's buffer runs low, forever (until the
    // client goes away).
    static void endless(QTcpSocket *socket, const QByteArray &head, std::function<QByteArray()> next);
    // Writes `head`, then next() every `ms`, forever (until the client goes away).
    static void every(QTcpSocket *socket, const QByteArray &head, int ms, std::function<QByteArray()> next);

private:
    void onRequest(const HttpPeer::Request &request, QTcpSocket *socket);

    HttpPeer m_peer;
    Fault m_fault;
    QHash<QByteArray, int> m_counts;
};

// A TLS server on 127.0.0.1:0 with a freshly made self-signed certificate (openssl CLI): every
// connection gets the certificate and nothing else.
class SelfSignedTlsServer final : public QTcpServer
{
    Q_OBJECT

public:
    // Makes the certificate in `dir`; false + *error when openssl or Qt's TLS backend is missing.
    bool start(const QString &dir, QString *error);

protected:
    void incomingConnection(qintptr handle) override;

private:
    QSslCertificate m_cert;
    QSslKey m_key;
};

} // namespace Eddy::Test
