#pragma once

#include "app/monitor/engine.h"

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

class QDBusPendingCallWatcher;
class QDBusServiceWatcher;

namespace Eddy {

// The background notifier (`eddy --notify`): while Eddy's window is closed it runs the engine on
// the database as `eddyctl watch` does (so it polls a task only under that task's lease), shows one
// desktop notification per open question through org.freedesktop.Notifications, with "Answer..."
// (starts Eddy at that question) and "Later", and closes it as soon as the question can no longer
// be answered. It ends when the window takes the bus name io.github.eddy.Eddy, and when nothing
// is left to follow. Main thread.
class Notifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Notifier)

public:
    // windowArgs: passed on to the window "Answer..." starts (e.g. --lang de).
    Notifier(const QString &dbPath, const QStringList &windowArgs, QObject *parent = nullptr);
    ~Notifier() override;

    // Checks the session bus, the notification daemon and the database, then follows the
    // questions; finished() comes once it ends (possibly from the event loop at once).
    void start();

    // The bus name a running notifier owns: one per desktop session.
    static QString serviceName();

Q_SIGNALS:
    void finished(int exitCode);

private Q_SLOTS:
    // The daemon's signals (connected by name: QtDBus has no pointer-to-member form for them).
    void onActionInvoked(uint id, const QString &action);
    void onNotificationClosed(uint id, uint reason);

private:
    // A question being shown (or on its way to the daemon, id 0 until Notify answers).
    struct Shown
    {
        qint64 requestId = 0;
        qint64 taskId = 0;
        QString key;
        uint id = 0;
    };

    bool checkDaemon();
    void follow();
    void notify(const Store::InputRequestRecord &request);
    void notified(qint64 requestId, QDBusPendingCallWatcher *call);
    // Closes the notifications of `taskId`'s questions that can no longer be answered.
    void checkTask(const Store::TaskRecord &task);
    void close(qint64 requestId);
    void openWindow(qint64 requestId);
    void stop(const QString &why, int exitCode);
    QString caseLabel(const Store::TaskRecord &task);
    QString serverLabel(qint64 serverId);

    QString m_dbPath;
    QStringList m_windowArgs;
    QDBusConnection m_bus;
    Monitor::Engine m_engine;
    QDBusServiceWatcher *m_windowWatcher = nullptr;
    QHash<qint64, Shown> m_shown; // request id -> its notification
    QSet<qint64> m_seen;          // request ids notified once: never again by this notifier
    bool m_markup = false;        // the daemon reads markup in the body: escape the text
    bool m_actions = false;       // the daemon shows actions
    bool m_stopped = false;
};

} // namespace Eddy
