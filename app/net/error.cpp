#include "app/net/error.h"

namespace Eddy::Net {

Error Error::fromCurl(CURLcode code, const char *detail)
{
    if (code == CURLE_OK)
        return {};
    const QString text = (detail && *detail) ? QString::fromUtf8(detail)
                                             : QString::fromUtf8(curl_easy_strerror(code));
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        if (text.startsWith(QLatin1String("Operation too slow")))
            return Error(Kind::Timeout, code,
                         QStringLiteral("the transfer was slower than the floor (%1); abandoned as "
                                        "a transient failure").arg(text));
        return Error(Kind::Timeout, code,
                     QStringLiteral("the server did not answer in time (%1); check that it is "
                                    "running and reachable, or raise the timeout").arg(text));
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return Error(Kind::Transport, code,
                     QStringLiteral("cannot connect to the server (%1); check the URL and that "
                                    "the server is running").arg(text));
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
        return Error(Kind::Transport, code,
                     QStringLiteral("TLS failed (%1); install the server's CA certificate, or "
                                    "turn TLS verification off for this server if you trust it")
                         .arg(text));
    default:
        return Error(Kind::Transport, code,
                     QStringLiteral("the connection to the server failed (%1)").arg(text));
    }
}

} // namespace Eddy::Net
