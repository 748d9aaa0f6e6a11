#pragma once

// The real OpenID provider of the authorization tests (oidc-provider,
// tests/auth/provider/provider.mjs) on 127.0.0.1:0, as a child process; Qt Core only, so the
// server's tests use it as well as the window's. Needs EDDY_NODE and EDDY_SOURCE_DIR.

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>

#include <utility>

namespace Eddy::Test {

inline QString nodeProgram() { return qEnvironmentVariable("EDDY_NODE"); }
inline QString providerScript(const char *name)
{
    return qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/tests/auth/provider/")
           + QLatin1String(name);
}

class OidcProcess final
{
public:
    ~OidcProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }

    // Starts provider.mjs with extra environment (e.g. EDDY_PROVIDER_REGISTRATION=1) and waits for
    // its first line, which names the issuer; false with what went wrong in error.
    bool start(QString &error, const QList<std::pair<QString, QString>> &extraEnv = {})
    {
        if (nodeProgram().isEmpty()) {
            error = QStringLiteral("no Node.js for the OpenID provider: ")
                    + qEnvironmentVariable("EDDY_NODE_PROBLEM");
            return false;
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const auto &[name, value] : extraEnv)
            env.insert(name, value);
        m_process.setProcessEnvironment(env);
        m_process.start(nodeProgram(), {providerScript("provider.mjs")});
        if (!m_process.waitForStarted(30000)) {
            error = QStringLiteral("cannot start the OpenID provider with ") + nodeProgram()
                    + QStringLiteral(": ") + m_process.errorString();
            return false;
        }
        QByteArray out;
        const QByteArray ready = "eddy-auth-provider listening on ";
        while (!out.contains('\n')) {
            if (!m_process.waitForReadyRead(60000)) {
                error = QStringLiteral("the OpenID provider did not start: ")
                        + QString::fromUtf8(m_process.readAllStandardError());
                return false;
            }
            out += m_process.readAllStandardOutput();
        }
        const QByteArray line = out.left(out.indexOf('\n'));
        if (!line.startsWith(ready)) {
            error = QStringLiteral("unexpected first line from the provider: ")
                    + QString::fromUtf8(line);
            return false;
        }
        m_issuer = QString::fromUtf8(line.mid(ready.size()).trimmed());
        return true;
    }

    QString issuer() const { return m_issuer; }

private:
    QProcess m_process;
    QString m_issuer;
};

} // namespace Eddy::Test
