#include "app/mcp/notmcp.h"

#include <QUrl>

namespace Eddy::Mcp {

namespace {
constexpr QLatin1StringView Marker(", but not as an MCP server");
}

bool NotMcp::looksLikeIt(int status, bool bodyIsJson)
{
    if (status >= 200 && status < 300)
        return !bodyIsJson;
    return status == 404 || status == 405 || status == 406 || status == 410 || status == 415;
}

QString NotMcp::message(const QString &url, int status, const QString &method)
{
    const QUrl u(url);
    QString path = u.path();
    if (path.isEmpty())
        path = QStringLiteral("/");
    const QString origin = u.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                                      | QUrl::RemoveUserInfo)
                               .toString();
    // The marker stays English in every language: isMessage() looks for it.
    return tr("%1 answered%2 (HTTP %3 on POST %4 for %5): check the URL's path, e.g. /mcp.")
        .arg(origin, Marker)
        .arg(status)
        .arg(path, method);
}

bool NotMcp::isMessage(const QString &text)
{
    return text.contains(Marker);
}

} // namespace Eddy::Mcp
