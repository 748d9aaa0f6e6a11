#pragma once

#include "app/mcp/error.h"

#include <QCoreApplication>
#include <QString>

namespace Eddy::Mcp {

// The account of a URL that answers HTTP but is no MCP server (a web site, a wrong path): it
// says so, instead of leaving the user with "unreachable". The state travels as data
// (Error::isNotMcp()), never by reading the message, so every language words it freely.
class NotMcp final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Mcp::NotMcp)

public:
    // True for an answer that no MCP endpoint gives to a JSON-RPC POST: 404, 405, 406, 410, 415,
    // 501 (a plain web server that does not take POST), or a 2xx whose body is not JSON (an HTML
    // page).
    static bool looksLikeIt(int status, bool bodyIsJson);
    // "https://example.org answered, but not as an MCP server (HTTP 404 on POST / for
    // server/discover): check the URL's path, e.g. /mcp."
    static QString message(const QString &url, int status, const QString &method);
    // `e` marked as a not-MCP answer (Error::isNotMcp()).
    static Error error(Error e)
    {
        e.setNotMcp(true);
        return e;
    }
};

} // namespace Eddy::Mcp
