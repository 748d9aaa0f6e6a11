#include "app/mcp/notmcp.h"

#include <QUrl>

namespace Eddy::Mcp {

bool NotMcp::looksLikeIt(int status, bool bodyIsJson)
{
    if (status >= 200 && status < 300)
        return !bodyIsJson;
    return status == 404 || status == 405 || status == 406 || status == 410 || status == 415
           || status == 501;
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
    return tr("%1 answered, but not as an MCP server (HTTP %2 on POST %3 for %4): check the "
              "URL's path, e.g. /mcp.")
        .arg(origin, QString::number(status), path, method);
}

} // namespace Eddy::Mcp
