#pragma once

// A loopback MCP server written in Node.js on the official packages (tests/interop/*.mjs), as a
// child of the test: started on 127.0.0.1 port 0, its URL read from the "listening on URL" line it
// prints, stopped by closing its stdin (each script takes --exit-on-stdin-close) and killed if it
// lingers. Which node runs it comes from EDDY_NODE (set by tests/interop/CMakeLists.txt); a missing
// node or node_modules is an error that names .ci/install-deps, never a skip.
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>

#include <memory>

namespace Eddy::Test {

class NodeServer
{
public:
    // `script`: a file in tests/interop; `package`: a folder under its node_modules the script
    // needs (e.g. "@modelcontextprotocol/server").
    NodeServer(QString script, QString package)
        : m_script(std::move(script)), m_package(std::move(package))
    {
    }
    ~NodeServer() { stop(); }
    NodeServer(const NodeServer &) = delete;
    NodeServer &operator=(const NodeServer &) = delete;

    // The server's URL, or empty with error() saying why.
    QString start(const QStringList &extraArgs = {})
    {
        const QString node = qEnvironmentVariable("EDDY_NODE");
        const QString dir = qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/tests/interop");
        if (node.isEmpty()) {
            m_error = qEnvironmentVariable("EDDY_NODE_PROBLEM",
                                           QStringLiteral("Node.js was not found when CMake "
                                                          "configured: run .ci/install-deps --tests, then "
                                                          "re-run cmake"));
            return {};
        }
        if (!QDir(dir + QStringLiteral("/node_modules/") + m_package).exists()) {
            m_error = QStringLiteral("tests/interop/node_modules has no %1: run .ci/install-deps "
                                     "--tests (npm ci in tests/interop)")
                          .arg(m_package);
            return {};
        }
        m_process = std::make_unique<QProcess>();
        m_process->setWorkingDirectory(dir);
        m_process->start(node, QStringList{dir + QLatin1Char('/') + m_script,
                                           QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                                           QStringLiteral("--port"), QStringLiteral("0"),
                                           QStringLiteral("--exit-on-stdin-close")}
                                   + extraArgs);
        if (!m_process->waitForStarted(10000)) {
            m_error = QStringLiteral("cannot start node: ") + m_process->errorString();
            return {};
        }
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000 && m_process->state() == QProcess::Running) {
            m_process->waitForReadyRead(500);
            out += m_process->readAllStandardOutput();
            const qsizetype at = out.indexOf("listening on ");
            const qsizetype end = out.indexOf('\n', at);
            if (at >= 0 && end > at)
                return QString::fromUtf8(out.mid(at + 13, end - at - 13)).trimmed();
        }
        m_error = m_script + QStringLiteral(" did not start: ")
                  + QString::fromUtf8(m_process->readAllStandardError().right(2000));
        return {};
    }
    void kill()
    {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    void stop()
    {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            m_process->closeWriteChannel(); // --exit-on-stdin-close
            if (!m_process->waitForFinished(5000))
                kill();
        }
    }
    QString error() const { return m_error; }
    // What the server wrote to stderr so far (its log).
    QByteArray log() { return m_process ? m_process->readAllStandardError() : QByteArray(); }

private:
    QString m_script;
    QString m_package;
    std::unique_ptr<QProcess> m_process;
    QString m_error;
};

} // namespace Eddy::Test
