#pragma once

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

namespace Eddy::Mcp {

namespace ErrorCode {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
inline constexpr int HeaderMismatch = -32020;
inline constexpr int MissingRequiredClientCapability = -32021;
inline constexpr int UnsupportedProtocolVersion = -32022;
inline constexpr int StaleMissingCapability = -32003; // early Tasks drafts; read as -32021
} // namespace ErrorCode

// One error value for everything that can go wrong talking to an MCP server: transport (libcurl),
// timeout, HTTP status, JSON-RPC error, or a protocol violation by the server. message() is meant
// for an engineer: it says what happened and what to do.
class Error final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Mcp::Error)

public:
    enum class Kind { None, Transport, Timeout, Http, JsonRpc, Protocol, Aborted };

    Error() = default;
    static Error transport(const QString &message);
    static Error timeout(const QString &message);
    static Error aborted();
    static Error http(int status, const QString &message);
    // A JSON-RPC error object from the server; `method` is the request it answered.
    static Error jsonRpc(int code, const QString &serverMessage, const nlohmann::json &data,
                         const QString &method, int httpStatus = 0);
    static Error fromJsonRpcObject(const nlohmann::json &errorObject, const QString &method,
                                   int httpStatus = 0);
    static Error protocol(const QString &message);

    bool isOk() const { return m_kind == Kind::None; }
    Kind kind() const { return m_kind; }
    int code() const { return m_code; }              // JSON-RPC code (0 when not JSON-RPC)
    int httpStatus() const { return m_httpStatus; }  // 0 when no HTTP status was seen
    QString message() const { return m_message; }
    QString serverMessage() const { return m_serverMessage; }
    nlohmann::json data() const { return m_data; }
    QString method() const { return m_method; }

    // Worth retrying later with backoff: transport failures, timeouts, HTTP 429/502/503/504.
    bool isTransient() const;
    // Milliseconds the server asked us to wait (Retry-After), or -1.
    qint64 retryAfterMs() const { return m_retryAfterMs; }
    void setRetryAfterMs(qint64 ms) { m_retryAfterMs = ms; }
    // -32602 on tasks/*: the task id is unknown or expired on the server; polling it is pointless.
    bool isTaskGone() const;
    void setHttpStatus(int status) { m_httpStatus = status; }
    // The server's event stream for the request ended (cleanly or not) before the answer: the
    // request may or may not have taken effect on the server.
    bool isStreamDropped() const { return m_streamDropped; }
    void setStreamDropped(bool dropped) { m_streamDropped = dropped; }
    void setMethod(const QString &method) { m_method = method; }
    // An answer found no open question under its key in the server's current session (a server
    // that keys questions per session was restarted, or has not been polled since it asked):
    // poll the task, which brings the question's current key, and send the answer again.
    bool wantsPollFirst() const { return m_pollFirst; }
    void setPollFirst(bool pollFirst) { m_pollFirst = pollFirst; }
    // The URL answered HTTP, but not as an MCP server (a web page, a wrong path): see NotMcp.
    bool isNotMcp() const { return m_notMcp; }
    void setNotMcp(bool notMcp) { m_notMcp = notMcp; }
    // A tasks/get answer that is about another task id than the one asked for (a protocol error):
    // told apart by this flag, never by the (translated) message.
    bool isAboutAnotherTask() const { return m_aboutAnotherTask; }
    void setAboutAnotherTask(bool about) { m_aboutAnotherTask = about; }

    // Parses an HTTP Retry-After value (delta seconds or HTTP date) into ms; -1 when invalid.
    static qint64 parseRetryAfter(const QByteArray &value);

private:
    Kind m_kind = Kind::None;
    int m_code = 0;
    int m_httpStatus = 0;
    qint64 m_retryAfterMs = -1;
    bool m_streamDropped = false;
    bool m_pollFirst = false;
    bool m_notMcp = false;
    bool m_aboutAnotherTask = false;
    QString m_message;
    QString m_serverMessage;
    QString m_method;
    nlohmann::json m_data;
};

} // namespace Eddy::Mcp
