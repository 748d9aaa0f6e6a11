#include "widgets/localserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace Eddy {

LocalServer::LocalServer(QObject *parent)
    : QObject(parent)
    , m_owned(std::make_unique<QProcess>())
    , m_process(*m_owned)
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    // The server logs to stderr; Eddy only needs its stdout line, and a full pipe would block it.
    m_process.setStandardErrorFile(QProcess::nullDevice());
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &LocalServer::readOutput);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_error = tr("The local server could not be started (%1). Check that eddy-cfd-server is "
                         "installed next to Eddy or on PATH.").arg(m_process.errorString());
            Q_EMIT failed(m_error);
        }
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (m_url.isEmpty() && !m_stopping) {
            m_error = tr("The local server stopped before it was ready (exit code %1). Its data folder "
                         "may be in use by another server; close it or choose another folder.").arg(code);
            Q_EMIT failed(m_error);
        } else if (!m_stopping) {
            m_error = status == QProcess::CrashExit ? tr("The local server crashed.")
                                                    : tr("The local server exited (code %1).").arg(code);
        }
        m_url.clear();
        Q_EMIT stopped();
    });
}

LocalServer::~LocalServer()
{
    if (m_owned)
        stop(3000);
}

void LocalServer::detach()
{
    if (!m_owned || m_process.state() == QProcess::NotRunning)
        return;
    m_process.disconnect(this);
    m_process.closeReadChannel(QProcess::StandardOutput);
    (void)m_owned.release(); // intentionally never destroyed: ~QProcess would kill the server
}

QString LocalServer::findBinary()
{
    const QString env = qEnvironmentVariable("EDDY_SERVER_BIN");
    if (!env.isEmpty() && QFileInfo(env).isExecutable())
        return env;
    // Installed (the .deb puts both in /usr/bin) or a build tree (build/app/eddy, build/server/).
    const QDir appDir(QCoreApplication::applicationDirPath());
    for (const QString &candidate : {appDir.filePath(QStringLiteral("eddy-cfd-server")),
                                     appDir.filePath(QStringLiteral("../server/eddy-cfd-server"))}) {
        const QFileInfo fi(candidate);
        if (fi.isFile() && fi.isExecutable())
            return fi.canonicalFilePath();
    }
    // A desktop session may start eddy with a PATH that lacks /usr/bin.
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("eddy-cfd-server"));
    if (!onPath.isEmpty())
        return onPath;
    return QStandardPaths::findExecutable(QStringLiteral("eddy-cfd-server"), {QStringLiteral("/usr/bin")});
}

QString LocalServer::defaultDataDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("server"));
}

bool LocalServer::start(const QString &binary, const QString &dataDir, quint16 port)
{
    if (isRunning())
        return true;
    const QString bin = binary.isEmpty() ? findBinary() : binary;
    if (bin.isEmpty()) {
        m_error = tr("Eddy could not find eddy-cfd-server next to it or on PATH. Install it, or add "
                     "a server with Server > Add Server.");
        Q_EMIT failed(m_error);
        return false;
    }
    const QString dir = dataDir.isEmpty() ? defaultDataDir() : dataDir;
    if (!QDir().mkpath(dir)) {
        m_error = tr("Eddy could not create the server's data folder %1. Check its permissions.").arg(dir);
        Q_EMIT failed(m_error);
        return false;
    }
    m_url.clear();
    m_error.clear();
    m_buffer.clear();
    m_stopping = false;
    m_process.setProgram(bin);
    // Loopback only: the bundled server is for this workstation.
    m_process.setArguments({QStringLiteral("--host"), QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                            QString::number(port), QStringLiteral("--data-dir"), dir});
    m_process.start();
    return true;
}

void LocalServer::readOutput()
{
    m_buffer += m_process.readAllStandardOutput();
    static const QRegularExpression re(QStringLiteral("eddy-cfd-server listening on (http://\\S+)"));
    int nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_buffer.left(nl)).trimmed();
        m_buffer.remove(0, nl + 1);
        const auto m = re.match(line);
        if (m.hasMatch() && m_url.isEmpty()) {
            m_url = m.captured(1);
            Q_EMIT ready(m_url);
        }
    }
}

void LocalServer::stop(int graceMs)
{
    if (!m_owned || m_process.state() == QProcess::NotRunning)
        return;
    m_stopping = true;
    m_process.terminate();
    if (!m_process.waitForFinished(graceMs)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

bool LocalServer::isRunning() const
{
    return m_owned && m_process.state() != QProcess::NotRunning;
}

qint64 LocalServer::pid() const
{
    return m_process.processId();
}

} // namespace Eddy
