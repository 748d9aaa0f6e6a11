#include "app/notifier.h"

#include "widgets/desktopservice.h"
#include "app/monitor/sweepexport.h"

#include <QCoreApplication>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QProcess>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace Eddy {

using json = nlohmann::json;

namespace {

const QString s_service = QStringLiteral("org.freedesktop.Notifications");
const QString s_path = QStringLiteral("/org/freedesktop/Notifications");
const QString s_interface = QStringLiteral("org.freedesktop.Notifications");
constexpr int s_callTimeoutMs = 10000; // a daemon that does not answer in this time is not there

QDBusMessage daemonCall(const QString &method, const QVariantList &args = {})
{
    QDBusMessage m = QDBusMessage::createMethodCall(s_service, s_path, s_interface, method);
    m.setArguments(args);
    return m;
}

void say(const QString &line)
{
    std::fprintf(stderr, "eddy --notify: %s\n", qPrintable(line));
    std::fflush(stderr);
}

QString valueText(const json &v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString::fromStdString(v.dump());
}

} // namespace

Notifier::Notifier(const QString &dbPath, const QStringList &windowArgs, QObject *parent)
    : QObject(parent), m_dbPath(dbPath), m_windowArgs(windowArgs), m_bus(QString()) // connected in start()
{
}

Notifier::~Notifier()
{
    if (m_engine.isOpen())
        m_engine.close();
}

QString Notifier::serviceName()
{
    return QStringLiteral("io.github.eddy.Notifier");
}

void Notifier::start()
{
    if (!DesktopService::hasSessionBus())
        return stop(tr("no D-Bus session bus (%1); questions wait in Eddy's window.")
                        .arg(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")),
                    1);
    m_bus = QDBusConnection::sessionBus();
    if (!m_bus.isConnected())
        return stop(tr("no D-Bus session bus (%1); questions wait in Eddy's window.")
                        .arg(m_bus.lastError().message()),
                    1);
    if (m_bus.interface()->isServiceRegistered(DesktopService::serviceName()))
        return stop(tr("Eddy's window is open; it shows the questions."), 0);
    if (!checkDaemon())
        return;
    if (!m_bus.registerService(serviceName()))
        return stop(tr("another notifier already follows the questions of this desktop session."), 0);
    // The window takes its name once it shows the questions: then they are its to show.
    m_windowWatcher = new QDBusServiceWatcher(DesktopService::serviceName(), m_bus,
                                              QDBusServiceWatcher::WatchForRegistration, this);
    connect(m_windowWatcher, &QDBusServiceWatcher::serviceRegistered, this,
            [this] { stop(tr("Eddy's window is open; it shows the questions."), 0); });
    m_bus.connect(s_service, s_path, s_interface, QStringLiteral("ActionInvoked"), this,
                  SLOT(onActionInvoked(uint, QString)));
    m_bus.connect(s_service, s_path, s_interface, QStringLiteral("NotificationClosed"), this,
                  SLOT(onNotificationClosed(uint, uint)));
    follow();
}

bool Notifier::checkDaemon()
{
    const QDBusMessage reply = m_bus.call(daemonCall(QStringLiteral("GetCapabilities")), QDBus::Block,
                                          s_callTimeoutMs);
    if (reply.type() != QDBusMessage::ReplyMessage) {
        stop(tr("no notification daemon answers on the session bus (%1: %2); questions wait in "
                "Eddy's window. Start a notification daemon, or open Eddy.")
                 .arg(s_service, reply.errorMessage()),
             1);
        return false;
    }
    const QStringList caps = reply.arguments().value(0).toStringList();
    m_markup = caps.contains(QLatin1String("body-markup"));
    m_actions = caps.contains(QLatin1String("actions"));
    return true;
}

void Notifier::follow()
{
    connect(&m_engine, &Monitor::Engine::operationFailed, this, [](const QString &message) { say(message); });
    connect(&m_engine, &Monitor::Engine::inputRequested, this, &Notifier::notify);
    connect(&m_engine, &Monitor::Engine::changesReady, this, [this](const Monitor::ChangeSet &c) {
        for (const Store::InputRequestRecord &r : c.inputs)
            notify(r);
        for (const Store::TaskRecord &t : c.tasks)
            checkTask(t);
    });
    // Queued: the engine may say so from inside open() or a poll's handler, and stop() closes it.
    connect(&m_engine, &Monitor::Engine::idle, this, [this] { stop(tr("nothing left to follow."), 0); },
            Qt::QueuedConnection);
    m_engine.setMonitoring(true); // polls under the shared-database leases, like eddyctl watch
    if (!m_engine.open(m_dbPath))
        return stop(tr("cannot open %1: %2").arg(m_dbPath, m_engine.storeError()), 1);
    for (const Store::InputRequestRecord &r : m_engine.catalogue().pendingInputRequests())
        notify(r);
    if (m_engine.isIdle())
        stop(tr("nothing left to follow."), 0);
}

void Notifier::notify(const Store::InputRequestRecord &request)
{
    if (m_stopped || request.state != Store::InputState::Pending)
        return;
    std::optional<Store::InputRequestRecord> stored = m_engine.catalogue().inputRequest(request.taskId, request.key);
    const std::optional<Store::TaskRecord> task = m_engine.catalogue().task(request.taskId);
    if (!stored || stored->state != Store::InputState::Pending || !task || !task->isLive())
        return;
    if (m_seen.contains(stored->id))
        return;
    m_seen.insert(stored->id);
    const json req = json::parse(stored->request.toStdString(), nullptr, false);
    QString message;
    if (req.is_object() && req.value("params", json::object()).is_object())
        message = valueText(req["params"].value("message", json("")));
    QString body = tr("%1: %2").arg(caseLabel(*task), message);
    if (m_markup)
        body = body.toHtmlEscaped();
    QStringList actions;
    if (m_actions) // "default" is a click on the notification; "answer" its button
        actions = {QStringLiteral("default"), tr("Answer..."), QStringLiteral("answer"), tr("Answer..."),
                   QStringLiteral("later"), tr("Later")};
    const QVariantMap hints{{QStringLiteral("desktop-entry"), QStringLiteral("eddy")},
                            {QStringLiteral("category"), QStringLiteral("im.received")}};
    const QDBusMessage call = daemonCall(
        QStringLiteral("Notify"),
        {QStringLiteral("Eddy"), 0u, QStringLiteral("eddy"), tr("Question from %1").arg(serverLabel(task->serverId)),
         body, actions, hints, 0 /* until closed: a question waits */});
    m_shown.insert(stored->id, Shown{stored->id, stored->taskId, stored->key, 0});
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, s_callTimeoutMs), this);
    const qint64 requestId = stored->id;
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, requestId](QDBusPendingCallWatcher *w) { notified(requestId, w); });
}

void Notifier::notified(qint64 requestId, QDBusPendingCallWatcher *call)
{
    call->deleteLater();
    const QDBusPendingReply<uint> reply = *call;
    auto it = m_shown.find(requestId);
    if (it == m_shown.end()) {
        if (!reply.isError() && reply.value() != 0) // closed while on its way: close it now
            m_bus.asyncCall(daemonCall(QStringLiteral("CloseNotification"), {reply.value()}));
        return;
    }
    if (reply.isError()) {
        say(tr("the notification daemon refused a notification: %1").arg(reply.error().message()));
        m_shown.erase(it);
        return;
    }
    it->id = reply.value();
}

void Notifier::checkTask(const Store::TaskRecord &task)
{
    QList<qint64> ended;
    for (const Shown &s : std::as_const(m_shown)) {
        if (s.taskId != task.id)
            continue;
        const auto q = task.isLive() ? m_engine.catalogue().inputRequest(s.taskId, s.key) : std::nullopt;
        if (!q || q->state != Store::InputState::Pending)
            ended << s.requestId;
    }
    for (qint64 requestId : std::as_const(ended))
        close(requestId);
}

void Notifier::close(qint64 requestId)
{
    const Shown s = m_shown.take(requestId);
    if (s.id != 0)
        m_bus.asyncCall(daemonCall(QStringLiteral("CloseNotification"), {s.id}));
}

void Notifier::onActionInvoked(uint id, const QString &action)
{
    for (const Shown &s : std::as_const(m_shown)) {
        if (s.id != id)
            continue;
        if (action == QLatin1String("later"))
            close(s.requestId);
        else if (action == QLatin1String("default") || action == QLatin1String("answer"))
            openWindow(s.requestId);
        return;
    }
}

void Notifier::onNotificationClosed(uint id, uint)
{
    // Dismissed, expired or closed by us: not shown again (the window lists it still).
    for (auto it = m_shown.begin(); it != m_shown.end(); ++it) {
        if (it->id == id) {
            m_shown.erase(it);
            return;
        }
    }
}

void Notifier::openWindow(qint64 requestId)
{
    // The question's number in this database, never the server's task id (a bearer secret).
    const QStringList args = QStringList{QStringLiteral("--db"), m_dbPath, QStringLiteral("--answer"),
                                         QString::number(requestId)}
                             + m_windowArgs;
    if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), args)) {
        say(tr("cannot start %1 to answer the question; open Eddy to answer it.")
                .arg(QCoreApplication::applicationFilePath()));
        return;
    }
    close(requestId); // the window shows it; this notifier ends once the window is up
}

void Notifier::stop(const QString &why, int exitCode)
{
    if (m_stopped)
        return;
    m_stopped = true;
    if (!why.isEmpty())
        say(why);
    // Closed before leaving: nobody would answer their actions. Waited for, each at most briefly.
    for (const Shown &s : std::as_const(m_shown)) {
        if (s.id != 0)
            m_bus.call(daemonCall(QStringLiteral("CloseNotification"), {s.id}), QDBus::Block, 2000);
    }
    m_shown.clear();
    if (m_engine.isOpen())
        m_engine.close();
    QTimer::singleShot(0, this, [this, exitCode] { Q_EMIT finished(exitCode); });
}

QString Notifier::serverLabel(qint64 serverId)
{
    const auto s = m_engine.catalogue().server(serverId);
    if (!s)
        return tr("an MCP server");
    return s->name.isEmpty() ? s->url : s->name;
}

QString Notifier::caseLabel(const Store::TaskRecord &task)
{
    const json args = json::parse(task.arguments.toStdString(), nullptr, false);
    QStringList names;
    std::optional<Store::CaseRecord> c = task.caseId ? m_engine.catalogue().caseRecord(*task.caseId) : std::nullopt;
    if (task.sweepId) {
        if (const auto sweep = m_engine.catalogue().sweep(*task.sweepId))
            names = Monitor::SweepExport::variedNames(sweep->spec);
    }
    QStringList parts;
    if (args.is_object()) {
        for (const QString &n : std::as_const(names)) {
            if (const auto it = args.find(n.toStdString()); it != args.end())
                parts << tr("%1 = %2").arg(n, valueText(*it));
        }
    }
    const QString what = parts.isEmpty() ? task.tool : parts.join(QStringLiteral(", "));
    if (task.sweepId && c)
        return tr("Sweep %1 · case %2 (%3)").arg(*task.sweepId).arg(c->index + 1).arg(what);
    return tr("Task %1 (%2)").arg(task.id).arg(what);
}

} // namespace Eddy
