#include "app/monitor/streamedtasks.h"

#include "app/mcp/client.h"
#include "app/monitor/log.h"

#include <QDateTime>
#include <QFile>
#include <QSysInfo>

#if defined(Q_OS_WIN)
#include <windows.h>
#elif defined(Q_OS_UNIX)
#include <cerrno>
#include <csignal>
#endif

namespace Eddy::Monitor {

using json = nlohmann::json;

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

// The kernel's start time of a process (field 22 of /proc/PID/stat, in clock ticks since boot):
// with the pid it names one process, even after the pid is reused. Empty where there is no /proc.
QString processStart(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = f.readAll();
    // The command name (field 2) is in parentheses and may hold spaces or ')'.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = text.mid(close + 1).simplified().split(' ');
    // fields[0] is field 3 (state), so field 22 is fields[19].
    return fields.size() > 19 ? QString::fromLatin1(fields[19]) : QString();
}

bool processRunning(qint64 pid)
{
#if defined(Q_OS_WIN)
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, DWORD(pid));
    if (!h)
        return false;
    DWORD code = 0;
    const bool running = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
    CloseHandle(h);
    return running;
#elif defined(Q_OS_UNIX)
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
#else
    Q_UNUSED(pid)
    return true;
#endif
}

std::optional<double> numberField(const json &object, const char *name)
{
    const auto it = object.find(name);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

} // namespace

StreamedCalls::Update StreamedCalls::fromNotification(const json &notification)
{
    Update u;
    if (!notification.is_object())
        return u;
    const std::string method = notification.value("method", std::string());
    const json params = notification.value("params", json::object());
    if (!params.is_object())
        return u;
    // The text below is data, not interface: it is stored as the row's status message and read
    // by the progress parser ("step N of M", "NN %"), like a server's own statusMessage.
    if (method == "notifications/progress") {
        const auto progress = numberField(params, "progress");
        if (!progress)
            return u;
        u.x = *progress;
        const auto total = numberField(params, "total");
        if (total && *total > 0)
            u.percent = std::clamp(*progress / *total * 100.0, 0.0, 100.0);
        const std::string said = params.value("message", std::string());
        if (!said.empty()) {
            u.message = QString::fromStdString(said).left(2000);
            if (u.percent && !u.message.contains(QLatin1Char('%')))
                u.message += QStringLiteral(" (%1 %)").arg(std::floor(*u.percent), 0, 'f', 0);
        } else if (total) {
            u.message = QStringLiteral("step %1 of %2").arg(number(*progress), number(*total));
            if (u.percent)
                u.message += QStringLiteral(" (%1 %)").arg(std::floor(*u.percent), 0, 'f', 0);
        } else {
            u.message = QStringLiteral("step %1").arg(number(*progress));
        }
        return u;
    }
    if (method == "notifications/message") {
        const auto data = params.find("data");
        if (data == params.end() || data->is_null())
            return u;
        QString text = data->is_string() ? QString::fromStdString(data->get<std::string>())
                                         : QString::fromStdString(data->dump());
        text = text.left(2000);
        const std::string level = params.value("level", std::string("info"));
        if (level != "debug" && level != "info" && level != "notice")
            text = QStringLiteral("%1: %2").arg(QString::fromStdString(level), text);
        u.message = text;
    }
    return u;
}

QString StreamedCalls::lostMessage(std::optional<double> percent, const QString &cause)
{
    const QString lost =
        percent ? tr("connection lost at %1 %; the server may have cancelled the run. Re-run the "
                     "call to start it again.")
                      .arg(std::floor(*percent), 0, 'f', 0)
                : tr("connection lost before any progress; the server may have cancelled the run. "
                     "Re-run the call to start it again.");
    // The cause, when known, is the client's own sentence, e.g. "The server closed the event
    // stream of tools/call before answering; ...".
    const QString why = cause.trimmed();
    return why.isEmpty() ? lost : tr("%1 (%2)").arg(lost, why);
}

QString StreamedCalls::cancelledMessage(std::optional<double> percent)
{
    if (percent)
        return tr("cancelled at %1 %: Eddy ended the streamed call on request.")
            .arg(std::floor(*percent), 0, 'f', 0);
    return tr("cancelled: Eddy ended the streamed call on request.");
}

QString StreamedCalls::serverRemovedMessage(std::optional<double> percent)
{
    if (percent)
        return tr("ended at %1 %: its server was removed from Eddy, so Eddy closed the streamed "
                  "call; the server may have stopped the run.")
            .arg(std::floor(*percent), 0, 'f', 0);
    return tr("ended before any progress: its server was removed from Eddy, so Eddy closed the "
              "streamed call; the server may have stopped the run.");
}

QString StreamedCalls::orphanedMessage(std::optional<double> percent)
{
    if (percent)
        return tr("connection lost at %1 %: the Eddy process that held the stream ended; the "
                  "server may have cancelled the run. Re-run the call to start it again.")
            .arg(std::floor(*percent), 0, 'f', 0);
    return tr("connection lost: the Eddy process that held the stream ended before any "
              "progress; the server may have cancelled the run. Re-run the call to start it "
              "again.");
}

QString StreamedCalls::ownerId()
{
    static const QString id = [] {
        const qint64 pid = QCoreApplication::applicationPid();
        return QStringLiteral("%1/%2/%3")
            .arg(QSysInfo::machineHostName())
            .arg(pid)
            .arg(processStart(pid));
    }();
    return id;
}

bool StreamedCalls::ownerAlive(const QString &owner)
{
    const QStringList parts = owner.split(QLatin1Char('/'));
    if (parts.size() != 3)
        return false; // not written by this code: nobody can be holding it
    if (parts[0] != QSysInfo::machineHostName())
        return true;
    bool ok = false;
    const qint64 pid = parts[1].toLongLong(&ok);
    if (!ok || pid <= 0)
        return false;
    if (!processRunning(pid))
        return false;
    // Where the start time is known it must match: otherwise the pid belongs to a newer process.
    return parts[2].isEmpty() || processStart(pid) == parts[2];
}

} // namespace Eddy::Monitor
