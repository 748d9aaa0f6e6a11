// eddyctl servers [remove NAME|URL [--delete-tasks]]: the stored servers, and removing one. Its
// tasks are kept as history unless --delete-tasks says otherwise (docs/eddyctl.md).
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
    if (m_args.size() != 1 && !remove)
        return fail(QStringLiteral("usage: eddyctl servers, or eddyctl servers remove NAME|URL "
                                   "[--delete-tasks]"),
                    Usage);
    if (m_keepTasks && m_deleteTasks)
        return fail(QStringLiteral("give --keep-tasks or --delete-tasks, not both; nothing was "
                                   "removed."),
                    Usage);
    if (!openEngine(false))
        return;
    const QList<Store::ServerRecord> servers = m_engine.servers();
    if (!remove) {
        json arr = json::array();
        for (const auto &s : servers) {
            const auto use = m_engine.serverUse(s.id).value_or(Store::TaskStore::ServerUse{});
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
    if (matches.isEmpty())
        return fail(QStringLiteral("no server is named \"%1\" or has that URL; nothing was "
                                   "removed. \"eddyctl servers\" lists them.")
                        .arg(key));
    if (matches.size() > 1)
        return fail(QStringLiteral("%1 servers are named \"%2\"; nothing was removed. Give the "
                                   "URL of the one to remove (\"eddyctl servers\" lists them).")
                        .arg(matches.size())
                        .arg(key));
    const Store::ServerRecord s = matches.first();
    const auto use = m_engine.serverUse(s.id);
    if (!use)
        return fail(QStringLiteral("cannot count the tasks of \"%1\": %2; nothing was removed.")
                        .arg(nameOf(s), m_engine.storeError()));
    using Removal = Store::TaskStore::Removal;
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

} // namespace Eddy::Cli
