#include "widgets/desktopservice.h"
#include "widgets/desktopservice_p.h"

#include "models/inboxmodel.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QFileInfo>
#include <QProcess>
#include <QStatusBar>
#include <QTimer>

namespace Eddy {

DesktopService::DesktopService(MainWindow *window, QObject *parent) : QObject(parent), m_window(window)
{
    new ApplicationAdaptor(this);
    new EddyAdaptor(this);
}

DesktopService::~DesktopService()
{
    unregisterFromBus();
}

QString DesktopService::serviceName()
{
    return QStringLiteral("io.github.eddy.Eddy");
}

QString DesktopService::objectPath()
{
    return QStringLiteral("/io/github/eddy/Eddy");
}

bool DesktopService::hasSessionBus()
{
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return true;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtime.isEmpty() && QFileInfo::exists(runtime + QStringLiteral("/bus"));
}

bool DesktopService::registerOnBus()
{
    if (m_registered || !hasSessionBus())
        return m_registered;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return false;
    // The object first: whoever sees the name can call it at once.
    if (!bus.registerObject(objectPath(), this, QDBusConnection::ExportAdaptors))
        return false;
    if (!bus.registerService(serviceName())) { // another Eddy window has it
        bus.unregisterObject(objectPath());
        return false;
    }
    m_registered = true;
    return true;
}

void DesktopService::unregisterFromBus()
{
    if (!m_registered)
        return;
    QDBusConnection bus = QDBusConnection::sessionBus();
    bus.unregisterService(serviceName());
    bus.unregisterObject(objectPath());
    m_registered = false;
}

bool DesktopService::showQuestion(qint64 number)
{
    const InboxModel *inbox = m_window->inboxModel();
    for (int row = 0; row < inbox->rowCount(); ++row) {
        const Store::InputRequestRecord *r = inbox->request(row);
        if (!r || r->id != number || r->state != Store::InputState::Pending)
            continue;
        raiseWindow();
        m_window->answer(r->taskId, r->key);
        return true;
    }
    raiseWindow();
    m_window->statusBar()->showMessage(tr("That question is no longer open: it was answered, or its task ended."), 10000);
    return false;
}

qint64 DesktopService::shownQuestion() const
{
    const AnswerPanel *panel = m_window->answerPanel();
    if (!panel->hasQuestion())
        return 0;
    const InboxModel *inbox = m_window->inboxModel();
    const Store::InputRequestRecord *r = inbox->request(inbox->rowOf(panel->taskId(), panel->key()));
    return r ? r->id : 0;
}

void DesktopService::raiseWindow()
{
    m_window->showNormal();
    m_window->raise();
    m_window->activateWindow();
}

void DesktopService::quit()
{
    // After the D-Bus reply has gone: the quit guard may ask first (a dialog of its own).
    QTimer::singleShot(0, m_window, [window = m_window] { window->close(); });
}

bool DesktopService::forwardQuestion(qint64 number)
{
    if (!hasSessionBus())
        return false;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected() || !bus.interface()->isServiceRegistered(serviceName()))
        return false;
    QDBusMessage call = QDBusMessage::createMethodCall(serviceName(), objectPath(),
                                                       QStringLiteral("org.freedesktop.Application"),
                                                       QStringLiteral("ActivateAction"));
    call.setArguments({QStringLiteral("answer"), QVariantList{QVariant::fromValue(QDBusVariant(number))},
                       QVariantMap()});
    return bus.call(call, QDBus::Block, 10000).type() == QDBusMessage::ReplyMessage;
}

bool DesktopService::startNotifier(const QString &program, const QString &dbPath, const QStringList &extraArgs)
{
    return QProcess::startDetached(program,
                                   QStringList{QStringLiteral("--notify"), QStringLiteral("--db"), dbPath}
                                       + extraArgs);
}

void ApplicationAdaptor::Activate(const QVariantMap &)
{
    m_service->raiseWindow();
}

void ApplicationAdaptor::Open(const QStringList &, const QVariantMap &)
{
    m_service->raiseWindow(); // Eddy opens no files given this way
}

void ApplicationAdaptor::ActivateAction(const QString &action, const QVariantList &parameter, const QVariantMap &)
{
    if (action == QLatin1String("quit")) {
        m_service->quit();
        return;
    }
    if (action != QLatin1String("answer"))
        return;
    QVariant number = parameter.value(0);
    if (number.canConvert<QDBusVariant>())
        number = number.value<QDBusVariant>().variant();
    m_service->showQuestion(number.toLongLong());
}

} // namespace Eddy
