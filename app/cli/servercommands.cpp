#include "app/cli/servercommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

namespace Eddy::Cli {

namespace {
QString nameOf(const Store::ServerRecord &s)
{
    return s.name.isEmpty() ? s.url : s.name;
}
} // namespace

ServerCommands::ServerCommands(Invocation &run)
    : m_run(run)
{}

void ServerCommands::run()
{
    const bool remove = m_run.args().size() == 3 && m_run.args()[1] == QLatin1String("remove");
    const bool set = m_run.args().size() == 3 && m_run.args()[1] == QLatin1String("set");
    if (m_run.args().size() != 1 && !remove && !set)
        return m_run.fail(
            QStringLiteral("usage: eddyctl servers, eddyctl servers remove NAME|URL "
                           "[--delete-tasks], or eddyctl servers set NAME|URL [--url URL] "
                           "[--name NAME] [--token TOKEN]"),
            Usage);
    if (set && !m_run.options().newUrl && !m_run.options().newName && !m_run.options().tokenGiven)
        return m_run.fail(
            QStringLiteral("give what to change: --url URL, --name NAME or --token TOKEN "
                           "(--token \"\" removes it); nothing was changed."),
            Usage);
    if (m_run.options().keepTasks && m_run.options().deleteTasks)
        return m_run.fail(
            QStringLiteral("give --keep-tasks or --delete-tasks, not both; nothing was "
                           "removed."),
            Usage);
    if (!m_run.openEngine(false))
        return;
    const QList<Store::ServerRecord> servers = m_run.engine().catalogue().servers();
    if (!remove && !set) {
        json arr = json::array();
        for (const auto &s : servers) {
            const auto use
                = m_run.engine().catalogue().serverUse(s.id).value_or(Store::ServerUse{});
            if (m_run.options().jsonOutput) {
                arr.push_back({{"name", nameOf(s).toStdString()},
                               {"url", s.url.toStdString()},
                               {"tasks", use.tasks},
                               {"running", use.live}});
            } else {
                m_run.out() << QStringLiteral("%1  %2  (%3 task(s), %4 running)\n")
                                   .arg(nameOf(s), s.url)
                                   .arg(use.tasks)
                                   .arg(use.live);
            }
        }
        if (m_run.options().jsonOutput)
            m_run.out() << QString::fromStdString(arr.dump(2)) << Qt::endl;
        return m_run.finish(Ok);
    }
    const QString key = m_run.args()[2];
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
        return m_run.fail(
            QStringLiteral("no server is named \"%1\" or has that URL; nothing was %2. "
                           "\"eddyctl servers\" lists them.")
                .arg(key, nothing));
    if (matches.size() > 1)
        return m_run.fail(
            QStringLiteral("%1 servers are named \"%2\"; nothing was %3. Give the URL "
                           "of the one to change (\"eddyctl servers\" lists them).")
                .arg(matches.size())
                .arg(key, nothing));
    const Store::ServerRecord s = matches.first();
    if (set)
        return setServer(s, servers);
    const auto use = m_run.engine().catalogue().serverUse(s.id);
    if (!use)
        return m_run.fail(
            QStringLiteral("cannot count the tasks of \"%1\": %2; nothing was removed.")
                .arg(nameOf(s), m_run.engine().storeError()));
    using Removal = Store::ServerRemoval;
    const Removal mode = m_run.options().deleteTasks ? Removal::DeleteTasks : Removal::KeepTasks;
    if (!m_run.engine().removeServer(s.id, mode))
        return m_run.finish(Failure); // operationFailed printed why
    if (use->tasks == 0) {
        m_run.out() << QStringLiteral("removed \"%1\"; it had no stored tasks\n").arg(nameOf(s));
    } else if (m_run.options().deleteTasks) {
        m_run.out() << QStringLiteral("removed \"%1\" and deleted its %2 task(s)\n")
                           .arg(nameOf(s))
                           .arg(use->tasks);
    } else {
        m_run.out() << QStringLiteral("removed \"%1\"; its %2 task(s) are kept as history")
                           .arg(nameOf(s))
                           .arg(use->tasks);
        if (use->live > 0)
            m_run.out() << QStringLiteral(
                               " (%1 still running there, no longer watched: stored as lost)")
                               .arg(use->live);
        m_run.out() << QStringLiteral("\n");
    }
    m_run.finish(Ok);
}

void ServerCommands::setServer(const Store::ServerRecord &server,
                               const QList<Store::ServerRecord> &servers)
{
    Store::ServerRecord changed = server;
    if (m_run.options().newUrl) {
        const QUrl url(*m_run.options().newUrl);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            return m_run.fail(
                QStringLiteral("\"%1\" is not an http(s) URL; give the server's MCP "
                               "endpoint, e.g. http://127.0.0.1:8080/mcp. Nothing was "
                               "changed.")
                    .arg(*m_run.options().newUrl),
                Usage);
        changed.url = *m_run.options().newUrl;
    }
    if (m_run.options().newName) {
        if (m_run.options().newName->trimmed().isEmpty())
            return m_run.fail(QStringLiteral("--name needs a name; nothing was changed."), Usage);
        changed.name = m_run.options().newName->trimmed();
    }
    if (m_run.options().tokenGiven)
        changed.token = m_run.options().token;
    for (const Store::ServerRecord &other : servers) {
        if (other.id == server.id)
            continue;
        if (m_run.options().newUrl && other.url == changed.url)
            return m_run.fail(QStringLiteral("%1 already has the URL %2; nothing was changed.")
                                  .arg(nameOf(other), changed.url));
        if (m_run.options().newName && other.name == changed.name)
            return m_run.fail(QStringLiteral("another server is named \"%1\"; nothing was changed.")
                                  .arg(changed.name));
    }
    if (!m_run.engine().updateServer(changed))
        return m_run.finish(Failure); // operationFailed printed why
    QStringList what;
    if (changed.url != server.url)
        what << QStringLiteral("URL %1").arg(changed.url);
    if (changed.name != server.name)
        what << QStringLiteral("name \"%1\"").arg(changed.name);
    if (changed.token != server.token)
        what << (changed.token.isEmpty() ? QStringLiteral("no token")
                                         : QStringLiteral("a new token"));
    if (what.isEmpty())
        m_run.out()
            << QStringLiteral("\"%1\" already had that; nothing changed\n").arg(nameOf(server));
    else
        m_run.out() << QStringLiteral("\"%1\" now has %2; its tasks are kept and followed there\n")
                           .arg(nameOf(server), what.join(QStringLiteral(", ")));
    m_run.finish(Ok);
}

} // namespace Eddy::Cli
