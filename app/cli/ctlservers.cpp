// eddyctl servers [remove NAME|URL [--delete-tasks] | set NAME|URL [--url U] [--name N]
// [--token T]]: the stored servers, removing one (its tasks are kept as history unless
// --delete-tasks says otherwise) and changing one's address, name or token (docs/eddyctl.md).
#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

namespace Eddy::Cli {

namespace {
QString nameOf(const Store::ServerRecord &s)
{
    return s.name.isEmpty() ? s.url : s.name;
}
} // namespace

void Ctl::cmdServers()
{
    const bool remove = m_args.size() == 3 && m_args[1] == QLatin1String("remove");
    const bool set = m_args.size() == 3 && m_args[1] == QLatin1String("set");
    if (m_args.size() != 1 && !remove && !set)
        return fail(QStringLiteral("usage: eddyctl servers, eddyctl servers remove NAME|URL "
                                   "[--delete-tasks], or eddyctl servers set NAME|URL [--url URL] "
                                   "[--name NAME] [--token TOKEN]"),
                    Usage);
    if (set && !m_newUrl && !m_newName && !m_tokenGiven)
        return fail(QStringLiteral("give what to change: --url URL, --name NAME or --token TOKEN "
                                   "(--token \"\" removes it); nothing was changed."),
                    Usage);
    if (m_keepTasks && m_deleteTasks)
        return fail(QStringLiteral("give --keep-tasks or --delete-tasks, not both; nothing was "
                                   "removed."),
                    Usage);
    if (!openEngine(false))
        return;
    const QList<Store::ServerRecord> servers = m_engine.catalogue().servers();
    if (!remove && !set) {
        json arr = json::array();
        for (const auto &s : servers) {
            const auto use = m_engine.catalogue().serverUse(s.id).value_or(Store::ServerUse{});
            if (m_json) {
                arr.push_back({{"name", nameOf(s).toStdString()},
                               {"url", s.url.toStdString()},
                               {"tasks", use.tasks},
                               {"running", use.live}});
            } else {
                m_out << QStringLiteral("%1  %2  (%3 task(s), %4 running)\n")
                             .arg(nameOf(s), s.url)
                             .arg(use.tasks)
                             .arg(use.live);
            }
        }
        if (m_json)
            m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
        return finish(Ok);
    }
    const QString key = m_args[2];
    QList<Store::ServerRecord> matches; // by URL (unique), else by name
    for (const auto &s : servers) {
        if (s.url == key)
            matches << s;
    }
    for (const auto &s : servers) {
        if (!matches.isEmpty() && matches.first().url == key)
            break;
        if (nameOf(s) == key)
            matches << s;
    }
    const QString nothing = set ? QStringLiteral("changed") : QStringLiteral("removed");
    if (matches.isEmpty())
        return fail(QStringLiteral("no server is named \"%1\" or has that URL; nothing was %2. "
                                   "\"eddyctl servers\" lists them.")
                        .arg(key, nothing));
    if (matches.size() > 1)
        return fail(QStringLiteral("%1 servers are named \"%2\"; nothing was %3. Give the URL "
                                   "of the one to change (\"eddyctl servers\" lists them).")
                        .arg(matches.size())
                        .arg(key, nothing));
    const Store::ServerRecord s = matches.first();
    if (set)
        return setServer(s, servers);
    const auto use = m_engine.catalogue().serverUse(s.id);
    if (!use)
        return fail(QStringLiteral("cannot count the tasks of \"%1\": %2; nothing was removed.")
                        .arg(nameOf(s), m_engine.storeError()));
    using Removal = Store::ServerRemoval;
    const Removal mode = m_deleteTasks ? Removal::DeleteTasks : Removal::KeepTasks;
    if (!m_engine.removeServer(s.id, mode))
        return finish(Failure); // operationFailed printed why
    if (use->tasks == 0) {
        m_out << QStringLiteral("removed \"%1\"; it had no stored tasks\n").arg(nameOf(s));
    } else if (m_deleteTasks) {
        m_out << QStringLiteral("removed \"%1\" and deleted its %2 task(s)\n")
                     .arg(nameOf(s))
                     .arg(use->tasks);
    } else {
        m_out << QStringLiteral("removed \"%1\"; its %2 task(s) are kept as history")
                     .arg(nameOf(s))
                     .arg(use->tasks);
        if (use->live > 0)
            m_out << QStringLiteral(" (%1 still running there, no longer watched: stored as lost)")
                         .arg(use->live);
        m_out << QStringLiteral("\n");
    }
    finish(Ok);
}

void Ctl::setServer(const Store::ServerRecord &server, const QList<Store::ServerRecord> &servers)
{
    Store::ServerRecord changed = server;
    if (m_newUrl) {
        const QUrl url(*m_newUrl);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            return fail(QStringLiteral("\"%1\" is not an http(s) URL; give the server's MCP "
                                       "endpoint, e.g. http://127.0.0.1:8080/mcp. Nothing was "
                                       "changed.")
                            .arg(*m_newUrl),
                        Usage);
        changed.url = *m_newUrl;
    }
    if (m_newName) {
        if (m_newName->trimmed().isEmpty())
            return fail(QStringLiteral("--name needs a name; nothing was changed."), Usage);
        changed.name = m_newName->trimmed();
    }
    if (m_tokenGiven)
        changed.token = m_token;
    for (const Store::ServerRecord &other : servers) {
        if (other.id == server.id)
            continue;
        if (m_newUrl && other.url == changed.url)
            return fail(QStringLiteral("%1 already has the URL %2; nothing was changed.")
                            .arg(nameOf(other), changed.url));
        if (m_newName && other.name == changed.name)
            return fail(QStringLiteral("another server is named \"%1\"; nothing was changed.")
                            .arg(changed.name));
    }
    if (!m_engine.updateServer(changed))
        return finish(Failure); // operationFailed printed why
    QStringList what;
    if (changed.url != server.url)
        what << QStringLiteral("URL %1").arg(changed.url);
    if (changed.name != server.name)
        what << QStringLiteral("name \"%1\"").arg(changed.name);
    if (changed.token != server.token)
        what << (changed.token.isEmpty() ? QStringLiteral("no token")
                                         : QStringLiteral("a new token"));
    if (what.isEmpty())
        m_out << QStringLiteral("\"%1\" already had that; nothing changed\n").arg(nameOf(server));
    else
        m_out << QStringLiteral("\"%1\" now has %2; its tasks are kept and followed there\n")
                     .arg(nameOf(server), what.join(QStringLiteral(", ")));
    finish(Ok);
}

} // namespace Eddy::Cli
