#pragma once

#include "models/enginebridge.h"

#include <QObject>
#include <QString>

class QWidget;

namespace Eddy {

class LocalServer;

// First run and the bundled server: with no server configured, starts eddy-cfd-server on a free
// loopback port (data in the app data folder) and adds it; on later runs restarts it on the
// same port so stored tasks keep their URL. On quit, stops it unless tasks are still running
// there (then asks). GUI thread.
class FirstRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FirstRun)

public:
    FirstRun(EngineBridge *bridge, QObject *parent = nullptr);
    ~FirstRun() override;

    // Call with the first snapshot. `explicitServer`: the user named one (--server), so no
    // bundled server is started. Returns true when it starts the local server.
    bool begin(const EngineBridge::Snapshot &snapshot, bool explicitServer);
    void setDataDir(const QString &dir) { m_dataDir = dir; }
    LocalServer *server() const { return m_server; }
    QString url() const;

    // Whether `url` is the bundled server Eddy started (on this or an earlier run).
    static bool isBundledServer(const QString &url);

    // Before quitting: false when the user chose to keep Eddy open.
    bool prepareQuit(QWidget *parent, int liveTasks);

Q_SIGNALS:
    void serverReady(const QString &url);
    void serverFailed(const QString &message);

private:
    void onReady(const QString &url);

    EngineBridge *m_bridge;
    LocalServer *m_server;
    QString m_dataDir;
    QList<Store::ServerRecord> m_known;
    bool m_retriedAnyPort = false;
};

} // namespace Eddy
