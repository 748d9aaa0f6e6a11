#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace Eddy::Test {

// A real eddy-cfd-server child process for one test: started on 127.0.0.1 port 0 with its own
// data folder, ready once it has printed its "listening on" line. Lives on the test thread.
class TestServer final
{
    Q_DISABLE_COPY_MOVE(TestServer)

public:
    TestServer();
    ~TestServer();

    // Starts the server with extra flags (e.g. {"--token", "s3cret"}). An empty dataDir means a
    // fresh temporary folder owned by this object (kept across restart()). Waits up to 30 s.
    bool start(const QStringList &extraArgs = {}, const QString &dataDir = {});
    // Starts again on the same data folder and flags (the port may change).
    bool restart();
    void kill();      // SIGKILL: the crash case
    bool terminate(); // SIGTERM and wait for a clean exit; true when it exited with code 0

    bool isRunning() const;
    QString url() const { return m_url; } // http://127.0.0.1:PORT/mcp
    quint16 port() const { return m_port; }
    QString dataDir() const { return m_dataDir; }
    qint64 pid() const;
    QString errorString() const { return m_error; }
    QByteArray standardError() const; // everything the server logged so far

    // Path of the eddy-cfd-server binary (EDDY_SERVER_BIN, set by ctest).
    static QString binaryPath();

private:
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QTemporaryDir> m_ownedDir;
    QStringList m_args;
    QString m_dataDir;
    QString m_url;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace Eddy::Test
