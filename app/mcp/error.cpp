#include "app/mcp/error.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

#include <cstdint>
#include <limits>

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

bool namesTasksExtension(const json &data)
{
    if (!data.is_object())
        return false;
    const auto caps = data.find("requiredCapabilities");
    if (caps == data.end() || !caps->is_object())
        return false;
    const auto ext = caps->find("extensions");
    return ext != caps->end() && ext->is_object() && ext->contains("io.modelcontextprotocol/tasks");
}

QString supportedList(const json &data)
{
    QStringList out;
    if (data.is_object() && data.contains("supported") && data["supported"].is_array()) {
        for (const json &v : data["supported"])
            if (v.is_string())
                out << QString::fromStdString(v.get<std::string>());
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

Error Error::transport(const QString &message)
{
    Error e;
    e.m_kind = Kind::Transport;
    e.m_message = message;
    return e;
}

Error Error::timeout(const QString &message)
{
    Error e;
    e.m_kind = Kind::Timeout;
    e.m_message = message;
    return e;
}

Error Error::aborted()
{
    Error e;
    e.m_kind = Kind::Aborted;
    e.m_message = tr("The request was cancelled before it finished.");
    return e;
}

Error Error::http(int status, const QString &message)
{
    Error e;
    e.m_kind = Kind::Http;
    e.m_httpStatus = status;
    e.m_message = message;
    return e;
}

Error Error::protocol(const QString &message)
{
    Error e;
    e.m_kind = Kind::Protocol;
    e.m_message = message;
    return e;
}

Error Error::fromJsonRpcObject(const json &errorObject, const QString &method, int httpStatus)
{
    if (!errorObject.is_object() || !errorObject.contains("code")
        || !errorObject["code"].is_number_integer()) {
        Error e = protocol(tr("The server sent a malformed JSON-RPC error for %1 (no integer "
                              "code); check the server's version or report it to its maintainers.")
                               .arg(method));
        e.m_httpStatus = httpStatus;
        e.m_method = method;
        return e;
    }
    // JSON-RPC codes are 32-bit in every implementation. A wider one cut to an int would be read
    // as some other code, perhaps one the client acts on: 4294934694 cuts to -32602, which for
    // tasks/get says the task is gone (fuzz_jsonrpc).
    const json &code = errorObject["code"];
    const bool fits = code.is_number_unsigned()
                          ? code.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                          : code.get<std::int64_t>() >= std::numeric_limits<int>::min()
                                && code.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) {
        Error e = protocol(tr("The server sent a JSON-RPC error for %1 whose code %2 is not a 32-bit "
                              "integer; check the server's version or report it to its maintainers.")
                               .arg(method, QString::fromStdString(code.dump())));
        e.m_httpStatus = httpStatus;
        e.m_method = method;
        return e;
    }
    const auto msg = errorObject.find("message");
    const QString serverMessage = msg != errorObject.end() && msg->is_string()
                                      ? QString::fromStdString(msg->get<std::string>())
                                      : QString();
    const auto data = errorObject.find("data");
    return jsonRpc(errorObject["code"].get<int>(), serverMessage,
                   data != errorObject.end() ? *data : json(), method, httpStatus);
}

Error Error::jsonRpc(int code, const QString &serverMessage, const json &data,
                     const QString &method, int httpStatus)
{
    Error e;
    e.m_kind = Kind::JsonRpc;
    // Early Tasks drafts used -32003 for a missing capability; read it as today's code.
    if (code == ErrorCode::StaleMissingCapability && data.is_object()
        && data.contains("requiredCapabilities"))
        code = ErrorCode::MissingRequiredClientCapability;
    e.m_code = code;
    e.m_serverMessage = serverMessage;
    e.m_data = data;
    e.m_method = method;
    e.m_httpStatus = httpStatus;
    const QString said = serverMessage.isEmpty() ? QString() : tr(" (server said: %1)").arg(serverMessage);
    if (httpStatus == 401 || httpStatus == 403) {
        e.m_message = tr("The server refused %1 (HTTP %2): check the access token in this "
                         "server's settings.%3").arg(method).arg(httpStatus).arg(said);
        return e;
    }
    switch (code) {
    case ErrorCode::MissingRequiredClientCapability:
        e.m_message = namesTasksExtension(data)
                          ? tr("The server needs the Tasks extension for %1; this client declares "
                               "it, so a proxy may have altered the request.%2").arg(method, said)
                          : tr("The server needs a client capability Eddy did not declare for %1.%2")
                                .arg(method, said);
        break;
    case ErrorCode::HeaderMismatch:
        e.m_message = tr("The server rejected the request headers of %1: a gateway or proxy may "
                         "have stripped or changed the Mcp-Name / Mcp-Method headers.%2")
                          .arg(method, said);
        break;
    case ErrorCode::UnsupportedProtocolVersion:
        e.m_message = tr("The server does not support this protocol version (it supports: %1); "
                         "update Eddy or the server.%2").arg(supportedList(data), said);
        break;
    case ErrorCode::InvalidParams:
        if (method.startsWith(QLatin1String("tasks/")))
            e.m_message = tr("The task is unknown to the server or has expired there; its stored "
                             "result (if any) is all that remains.%1").arg(said);
        else
            e.m_message = tr("The server rejected the parameters of %1.%2").arg(method, said);
        break;
    case ErrorCode::MethodNotFound:
        e.m_message = tr("The server does not offer %1; check that it is an MCP server of a "
                         "supported version.%2").arg(method, said);
        break;
    case ErrorCode::ParseError:
    case ErrorCode::InvalidRequest:
        e.m_message = tr("The server could not read the %1 request; this is a bug in Eddy or the "
                         "server.%2").arg(method, said);
        break;
    default:
        e.m_message = tr("The server reported error %1 for %2.%3").arg(code).arg(method, said);
        break;
    }
    return e;
}

bool Error::isTransient() const
{
    switch (m_kind) {
    case Kind::Transport:
    case Kind::Timeout:
        return true;
    case Kind::Http:
        return m_httpStatus == 429 || m_httpStatus == 502 || m_httpStatus == 503
               || m_httpStatus == 504;
    case Kind::JsonRpc:
        return m_httpStatus == 429 || m_httpStatus == 503 || m_code == ErrorCode::InternalError;
    default:
        return false;
    }
}

bool Error::isTaskGone() const
{
    return m_kind == Kind::JsonRpc && m_code == ErrorCode::InvalidParams
           && m_method.startsWith(QLatin1String("tasks/"));
}

qint64 Error::parseRetryAfter(const QByteArray &value)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const qint64 seconds = v.toLongLong(&ok);
    if (ok)
        return seconds >= 0 ? qMin<qint64>(seconds, 24 * 3600) * 1000 : -1;
    // HTTP-date, e.g. "Wed, 21 Oct 2015 07:28:00 GMT"
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(v),
                                             QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!when.isValid())
        return -1;
    when.setTimeSpec(Qt::UTC);
    const qint64 ms = QDateTime::currentDateTimeUtc().msecsTo(when);
    return qBound<qint64>(0, ms, 24LL * 3600 * 1000);
}

} // namespace Eddy::Mcp
