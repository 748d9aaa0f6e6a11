#include "app/monitor/streamedtasks.h"

#include "app/mcp/client.h"
#include "app/monitor/engine.h"
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

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

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

// --- the engine's part (members of Engine, kept here to keep engine.cpp to polling tasks)

void Engine::streamOpened(const Store::CaseRecord &c, Mcp::CallJob *job)
{
    if (m_streamed.contains(c.id))
        return; // the same call sent again after a dropped stream: same row
    Store::TaskRecord t;
    t.serverId = c.serverId;
    t.sweepId = c.sweepId;
    t.tool = c.tool;
    t.arguments = c.arguments;
    t.traceparent = c.traceparent;
    t.pattern = Pattern::Streamed;
    t.streamOwner = StreamedCalls::ownerId();
    t.status = Store::TaskStatus::Working;
    t.firstSeenAtMs = nowMs();
    const auto id = m_store.recordTaskForCase(c.id, t);
    if (!id) {
        qCWarning(lcMonitor) << "cannot store a streamed call:" << m_store.lastError();
        emit operationFailed(m_store.lastError());
        return;
    }
    if (auto stored = m_store.task(*id))
        t = *stored;
    m_streamed.insert(c.id, StreamedRow{t, std::nullopt, job, false, false});
    if (auto sess = m_pendingSessionForCase.take(c.id))
        m_store.attachTask(sess, *id);
    qCInfo(lcMonitor, "case %lld: streamed call, task %lld", c.id, *id);
    emit caseSubmitted(c.id, *id);
    queueChange(t);
}

void Engine::streamNotification(qint64 caseId, const json &notification)
{
    const auto it = m_streamed.find(caseId);
    if (it == m_streamed.end())
        return;
    const StreamedCalls::Update u = StreamedCalls::fromNotification(notification);
    if (u.message.isEmpty())
        return;
    Store::TaskRecord &t = it->task;
    if (u.percent)
        it->percent = u.percent;
    const qint64 now = nowMs();
    const bool changed = u.message != t.statusMessage;
    t.statusMessage = u.message;
    t.updatedAtMs = now;
    QList<Store::ProgressSample> samples;
    if (changed) {
        const double fallback = u.x ? *u.x : lastX(t.id);
        samples = m_parser.parse(t.statusMessage, t.tool, now, t.id, fallback);
        if (!samples.isEmpty())
            m_lastX.insert(t.id, samples.first().x);
    }
    if (!m_store.storeTaskUpdate(t, changed, samples))
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_store.lastError();
    queueChange(t);
    m_pending.samples << samples;
}

bool Engine::streamFinished(const Store::CaseRecord &c, Mcp::CallJob *job)
{
    const auto it = m_streamed.find(c.id);
    if (it == m_streamed.end())
        return false;
    const StreamedRow row = *it;
    m_streamed.erase(it);
    Store::TaskRecord t = row.task;
    m_lastX.remove(t.id);
    if (!job->hasError() && job->kind() == Mcp::CallJob::Kind::Task) {
        // The server made a task after all: the row becomes that task and is polled like one.
        if (!m_store.promoteStreamedToTask(t.id, QString::fromStdString(job->task().taskId)))
            qCWarning(lcMonitor) << "cannot store a task handle:" << m_store.lastError();
        return false;
    }
    const qint64 now = nowMs();
    QList<Store::ProgressSample> samples;
    bool replaceResiduals = false;
    if (!job->hasError() && job->kind() == Mcp::CallJob::Kind::Complete) {
        t.status = Store::TaskStatus::Completed;
        t.result = QString::fromStdString(job->callResult().dump());
        t.isToolError = job->isToolError();
        samples = ProgressParser::historySamples(t.result, t.id, now);
        replaceResiduals = !samples.isEmpty();
    } else if (row.serverRemoved) {
        // Its server was removed in another process (endServerCalls()). With its tasks deleted
        // the row is gone: nothing to store or show.
        if (!m_store.task(t.id)) {
            qCInfo(lcMonitor, "task %lld: streamed call ended, its server and row removed", t.id);
            return true;
        }
        t.status = Store::TaskStatus::Lost;
        t.statusMessage = StreamedCalls::serverRemovedMessage(row.percent);
        t.finishedAtMs = nowMs();
        if (!m_store.storeRemovedServerTaskEnd(t))
            qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_store.lastError();
        if (auto stored = m_store.task(t.id))
            t = *stored;
        queueChange(t);
        qCInfo(lcMonitor, "task %lld: streamed call ended, its server was removed", t.id);
        emit taskFinished(t);
        return true;
    } else if (row.cancelling) {
        // Cancelled from Eddy: whatever ended the stream (our close, or the server ending it
        // after notifications/cancelled), the run was stopped on request.
        t.status = Store::TaskStatus::Cancelled;
        t.statusMessage = StreamedCalls::cancelledMessage(row.percent);
    } else {
        const Mcp::Error e = job->error();
        json error{{"message", e.message().toStdString()}};
        if (e.code() != 0)
            error["code"] = e.code();
        if (e.kind() == Mcp::Error::Kind::JsonRpc || e.kind() == Mcp::Error::Kind::Protocol) {
            t.status = Store::TaskStatus::Failed; // the server answered: an error, not a loss
        } else {
            // No answer will come on a lost stream, and the call has no handle to ask again.
            t.status = Store::TaskStatus::Lost;
            t.statusMessage = StreamedCalls::lostMessage(row.percent, e.message());
        }
        t.error = QString::fromStdString(error.dump());
    }
    t.finishedAtMs = now;
    t.updatedAtMs = now;
    if (replaceResiduals && !m_store.deleteSamples(t.id, ProgressParser::Residual))
        qCWarning(lcMonitor) << "cannot replace the residuals of task" << t.id << ":"
                             << m_store.lastError();
    if (!m_store.storeTaskUpdate(t, true, samples))
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_store.lastError();
    if (auto stored = m_store.task(t.id))
        t = *stored;
    queueChange(t);
    m_pending.samples << samples;
    qCInfo(lcMonitor, "task %lld finished: %s", t.id, qPrintable(Store::toText(t.status)));
    emit taskFinished(t);
    return true;
}

void Engine::reconcileStreamed(Store::TaskRecord t)
{
    // A streamed row is live only while a process holds its stream: this one's streams all ended
    // with its last close(), and one whose process is gone will never get its answer.
    if (t.streamOwner != StreamedCalls::ownerId() && StreamedCalls::ownerAlive(t.streamOwner))
        return;
    std::optional<double> percent;
    const QList<Store::ProgressSample> samples = m_store.progressSamples(t.id);
    for (auto s = samples.crbegin(); s != samples.crend(); ++s) {
        if (s->series == ProgressParser::Percent) {
            percent = s->y;
            break;
        }
    }
    t.status = Store::TaskStatus::Lost;
    t.statusMessage = StreamedCalls::orphanedMessage(percent);
    t.finishedAtMs = nowMs();
    if (!m_store.storeTaskUpdate(t, true, {})) {
        qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_store.lastError();
        return;
    }
    qCInfo(lcMonitor, "task %lld: streamed call left by an ended process, stored as lost", t.id);
    queueChange(t);
}

void Engine::closeStreamed()
{
    // Closing ends every stream this engine holds: their rows say so now instead of at the next
    // open.
    const auto rows = std::exchange(m_streamed, {});
    for (const StreamedRow &row : rows) {
        Store::TaskRecord t = row.task;
        t.status = Store::TaskStatus::Lost;
        t.statusMessage = StreamedCalls::lostMessage(row.percent);
        t.finishedAtMs = nowMs();
        if (!m_store.storeTaskUpdate(t, true, {}))
            qCWarning(lcMonitor) << "cannot store task" << t.id << ":" << m_store.lastError();
        queueChange(t);
    }
}

} // namespace Eddy::Monitor
