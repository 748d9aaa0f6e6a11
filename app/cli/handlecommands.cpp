#include "app/cli/handlecommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

#include "app/monitor/taskhandle.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

namespace Eddy::Cli {

namespace {

// Writes `data` to `path`, created (or truncated) with mode 0600: the file holds bearer secrets.
QString writePrivate(const QString &path, const QByteArray &data)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return QString::fromLocal8Bit(std::strerror(errno));
    if (::fchmod(fd, 0600) != 0) { // an existing file keeps its mode through O_CREAT
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        ::close(fd);
        return why;
    }
    QFile f;
    if (!f.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return f.errorString();
    }
    if (f.write(data) != data.size() || !f.flush())
        return f.errorString();
    f.close();
    return {};
}

} // namespace

HandleCommands::HandleCommands(Invocation &run)
    : m_run(run)
{}

void HandleCommands::run()
{
    const QString sub = m_run.args().value(1);
    if (sub == QLatin1String("export"))
        return exportHandles();
    if (sub == QLatin1String("import"))
        return importHandles();
    m_run.fail(
        QStringLiteral("usage: eddyctl handles export [QUERY] (-o FILE | --stdout), or "
                       "eddyctl handles import FILE [--server URL] [--session NAME] [--wait]"),
        Usage);
}

void HandleCommands::exportHandles()
{
    QStringList terms;
    QString output = m_run.options().output;
    const QStringList rest = m_run.args().mid(2);
    for (int i = 0; i < rest.size(); ++i) {
        if (rest[i] == QLatin1String("-o")) {
            if (i + 1 >= rest.size())
                return m_run.fail(QStringLiteral("-o needs a file name."), Usage);
            output = rest[++i];
        } else {
            terms << rest[i].split(QRegularExpression(QStringLiteral("[\\s,]+")),
                                   Qt::SkipEmptyParts);
        }
    }
    Store::TaskQuery q;
    QList<qint64> ids;
    QString session;
    for (const QString &term : std::as_const(terms)) {
        bool isNumber = false;
        const qint64 id = term.toLongLong(&isNumber);
        if (isNumber) {
            ids << id;
            continue;
        }
        const int eq = term.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return m_run.fail(
                QStringLiteral("query term \"%1\" is neither a task number nor NAME=VALUE "
                               "(session=NAME, sweep=N, status=S, tool=T, server=URL).")
                    .arg(term),
                Usage);
        const QString key = term.left(eq);
        const QString value = term.mid(eq + 1);
        if (key == QLatin1String("session"))
            session = value;
        else if (const QString problem = addQueryTerm(key, value, q); !problem.isEmpty())
            return m_run.fail(problem, Usage);
    }
    if (output.isEmpty() && !m_run.options().toStdout && ::isatty(STDOUT_FILENO))
        return m_run.fail(
            QStringLiteral("the references hold task ids, which are secrets: write them to a "
                           "file with -o FILE (created mode 0600), or pipe them, or give "
                           "--stdout to print them on this terminal."),
            Usage);
    if (!m_run.openEngine(false))
        return;
    const Monitor::HandleExport out = m_run.engine().exportHandles(q, ids, session);
    for (const QString &s : out.skipped)
        m_run.err() << "eddyctl: skipped " << s << Qt::endl;
    if (!out.error.isEmpty())
        return m_run.fail(out.error);
    if (out.count == 0)
        return m_run.fail(
            QStringLiteral("no task matches that can be handed off; nothing written."));
    if (output.isEmpty() || output == QLatin1String("-")) {
        m_run.out() << QString::fromUtf8(out.jsonLines);
        m_run.out().flush();
    } else if (const QString why = writePrivate(output, out.jsonLines); !why.isEmpty()) {
        return m_run.fail(QStringLiteral("cannot write %1: %2").arg(output, why));
    }
    m_run.err() << QStringLiteral(
                       "exported %1 task reference(s)%2; they hold task ids: keep them secret")
                       .arg(out.count)
                       .arg(output.isEmpty() || output == QLatin1String("-")
                                ? QString()
                                : QStringLiteral(" to %1 (mode 0600)").arg(output))
                << Qt::endl;
    m_run.finish(Ok);
}

void HandleCommands::importHandles()
{
    if (m_run.args().size() != 3)
        return m_run.fail(
            QStringLiteral(
                "usage: eddyctl handles import FILE [--server URL] [--session NAME] [--wait]"),
            Usage);
    const QString path = m_run.args()[2];
    QFile f(path);
    if (path != QLatin1String("-") && !f.open(QIODevice::ReadOnly))
        return m_run.fail(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (path == QLatin1String("-") && !f.open(stdin, QIODevice::ReadOnly))
        return m_run.fail(QStringLiteral("cannot read standard input: %1").arg(f.errorString()));
    const QByteArray content = f.readAll();
    if (m_run.options().wait) {
        m_run.printChanges();
        QObject::connect(&m_run.engine(), &Monitor::Engine::idle, &m_run, [this] {
            m_run.err() << QStringLiteral("all tasks finished") << Qt::endl;
            m_run.finish(m_rejected > 0 ? Failure : Ok);
        });
    }
    if (!m_run.openEngine(m_run.options().wait))
        return;
    const QString session = m_run.options().session.isEmpty() ? QStringLiteral("Imported handles")
                                                              : m_run.options().session;
    const Monitor::HandleImportReport report
        = m_run.engine().importHandles(content, session, m_run.options().server);
    if (!report.fileError.isEmpty())
        return m_run.fail(QStringLiteral("%1: %2").arg(path, report.fileError));
    using Outcome = Monitor::HandleImportReport::Line::Outcome;
    json lines = json::array();
    for (const auto &l : report.lines) {
        if (m_run.options().jsonOutput) {
            lines.push_back({{"line", l.line},
                             {"outcome",
                              l.outcome == Outcome::Imported ? "imported"
                              : l.outcome == Outcome::Known  ? "known"
                                                             : "rejected"},
                             {"task", l.taskId ? json(l.taskId) : json()},
                             {"error", l.message.toStdString()}});
        } else if (l.outcome == Outcome::Rejected) {
            m_run.err()
                << QStringLiteral("%1:%2: rejected: %3").arg(path).arg(l.line).arg(l.message)
                << Qt::endl;
        } else {
            m_run.out() << QStringLiteral("%1:%2: %3 task %4")
                               .arg(path)
                               .arg(l.line)
                               .arg(l.outcome == Outcome::Imported
                                        ? QStringLiteral("imported as")
                                        : QStringLiteral("already known as"))
                               .arg(l.taskId)
                        << Qt::endl;
        }
    }
    m_rejected = report.count(Outcome::Rejected);
    if (m_run.options().jsonOutput)
        m_run.out() << QString::fromStdString(json{
            {"imported", report.count(Outcome::Imported)},
            {"known", report.count(Outcome::Known)},
            {"rejected", m_rejected},
            {"session", session.toStdString()},
            {"lines", lines}}.dump())
                    << Qt::endl;
    m_run.err() << QStringLiteral("%1 imported, %2 already known, %3 rejected (session \"%4\")")
                       .arg(report.count(Outcome::Imported))
                       .arg(report.count(Outcome::Known))
                       .arg(m_rejected)
                       .arg(session)
                << Qt::endl;
    if (!m_run.options().wait)
        return m_run.finish(m_rejected > 0 ? Failure : Ok);
    if (m_run.engine().isIdle())
        m_run.finish(m_rejected > 0 ? Failure : Ok);
}

} // namespace Eddy::Cli
