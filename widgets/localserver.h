#pragma once

#include <QObject>
#include <QProcess>
#include <QString>

#include <memory>

namespace Eddy {

// The bundled eddy-cfd-server as a child process for first run: started on a free loopback port
// (--port 0) with its data in Eddy's app data folder; ready once it prints its "listening on"
// line. Stopped with SIGTERM (then SIGKILL) when Eddy quits. GUI thread.
class LocalServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalServer)

public:
    explicit LocalServer(QObject *parent = nullptr);
    ~LocalServer() override;

    // The server binary: $EDDY_SERVER_BIN, next to eddy (installed: both in /usr/bin), in a build
    // tree (build/server/ beside build/app/), on PATH, or in /usr/bin. Empty when none is found.
    static QString findBinary();
    // <AppDataLocation>/server
    static QString defaultDataDir();

    // Starts the process (port 0 = any free port); emits ready(url) or failed(message). False when it cannot even start.
    bool start(const QString &binary = {}, const QString &dataDir = {}, quint16 port = 0);
    void stop(int graceMs = 5000);
    // Leaves the server running after Eddy exits (the user chose to keep tasks going): the
    // process object is let go on purpose so its destructor cannot kill the child.
    void detach();
    bool isRunning() const;
    QString url() const { return m_url; }
    QString errorString() const { return m_error; }
    qint64 pid() const;

Q_SIGNALS:
    void ready(const QString &url);
    void failed(const QString &message);
    void stopped();

private:
    void readOutput();

    std::unique_ptr<QProcess> m_owned;
    QProcess &m_process;
    QString m_url;
    QString m_error;
    QByteArray m_buffer;
    bool m_stopping = false;
};

} // namespace Eddy
