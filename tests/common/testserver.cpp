#include "tests/common/testserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

#include <csignal>
#include <sys/prctl.h>

namespace Eddy::Test {

TestServer::TestServer() = default;

TestServer::~TestServer()
{
    if (isRunning())
        terminate();
    if (isRunning())
        kill();
}

QString TestServer::binaryPath()
{
    return qEnvironmentVariable("EDDY_SERVER_BIN", QStringLiteral("eddy-cfd-server"));
}

bool TestServer::start(const QStringList &extraArgs, const QString &dataDir)
{
    if (dataDir.isEmpty()) {
        if (!m_ownedDir) {
            m_ownedDir = std::make_unique<QTemporaryDir>();
            if (!m_ownedDir->isValid()) {
                m_error = QStringLiteral("cannot create a temporary data folder");
                return false;
            }
        }
        m_dataDir = m_ownedDir->path();
    } else {
        m_dataDir = dataDir;
    }
    m_args = extraArgs;
    // The server creates a missing data folder itself, but its log file is opened here first.
    if (!QDir().mkpath(m_dataDir)) {
        m_error = QStringLiteral("cannot create the data folder %1").arg(m_dataDir);
        return false;
    }
    return restart();
}

bool TestServer::restart()
{
    if (isRunning())
        terminate();
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(binaryPath());
    // A test that aborts (QFATAL, a crash, a ctest timeout) must not leave its server behind.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    QStringList args{QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                     QStringLiteral("--port"), QStringLiteral("0"),
                     QStringLiteral("--data-dir"), m_dataDir};
    args += m_args;
    m_process->setArguments(args);
    // The server's log goes to a file: a pipe nobody reads while a test blocks would fill up.
    m_process->setStandardErrorFile(m_dataDir + QStringLiteral("/server-stderr.log"),
                                    QIODevice::Append);
    m_url.clear();
    m_port = 0;
    m_process->start();
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("cannot start %1: %2").arg(binaryPath(), m_process->errorString());
        return false;
    }
    static const QRegularExpression ready(
        QStringLiteral("^eddy-cfd-server listening on (http://[^\\s]+/mcp)\\s*$"));
    QDeadlineTimer deadline(30000);
    QByteArray out;
    while (!deadline.hasExpired()) {
        if (!m_process->canReadLine() && !m_process->waitForReadyRead(int(deadline.remainingTime()))) {
            if (m_process->state() != QProcess::Running)
                break;
            continue;
        }
        while (m_process->canReadLine()) {
            const QString line = QString::fromUtf8(m_process->readLine()).trimmed();
            const auto match = ready.match(line);
            if (match.hasMatch()) {
                m_url = match.captured(1);
                m_port = quint16(QUrl(m_url).port());
                return true;
            }
        }
    }
    m_error = QStringLiteral("eddy-cfd-server did not report ready: %1")
                  .arg(QString::fromUtf8(standardError().right(2000)));
    return false;
}

void TestServer::kill()
{
    if (!m_process)
        return;
    m_process->kill();
    m_process->waitForFinished(10000);
}

bool TestServer::terminate()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return false;
    m_process->terminate();
    if (!m_process->waitForFinished(20000)) {
        m_process->kill();
        m_process->waitForFinished(5000);
        return false;
    }
    return m_process->exitStatus() == QProcess::NormalExit && m_process->exitCode() == 0;
}

bool TestServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QByteArray TestServer::standardError() const
{
    QFile log(m_dataDir + QStringLiteral("/server-stderr.log"));
    return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
}

qint64 TestServer::pid() const
{
    return m_process ? m_process->processId() : 0;
}

} // namespace Eddy::Test
