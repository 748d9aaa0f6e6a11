#pragma once

// The real OpenID provider of the sign-in tests (oidc-provider, tests/auth/provider/provider.mjs)
// on 127.0.0.1:0, and the person's browser (tests/auth/provider/browser.mjs) that the window's
// system-browser hook (QDesktopServices) or eddyctl's EDDY_BROWSER starts: it posts the
// provider's login and consent forms as one named person. Needs EDDY_NODE and EDDY_SOURCE_DIR.

#include "app/mcp/client.h"
#include "app/mcp/oauth.h"
#include "tests/common/oidcprocess.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <memory>

namespace Eddy::Test {

// EDDY_BROWSER for an eddyctl that signs in as `login` (set EDDY_TEST_LOGIN in its environment).
inline QString browserCommand()
{
    return QLatin1Char('"') + nodeProgram() + QStringLiteral("\" \"") + providerScript("browser.mjs")
           + QLatin1Char('"');
}

class OidcProvider final
{
public:
    // Eddy's window has no client id: it registers itself (provider.mjs).
    bool start(QString &error)
    {
        return m_process.start(error, {{QStringLiteral("EDDY_PROVIDER_REGISTRATION"),
                                        QStringLiteral("1")}});
    }
    QString issuer() const { return m_process.issuer(); }

private:
    OidcProcess m_process;
};

// The system browser of this process: QDesktopServices::openUrl of an http(s) URL starts
// browser.mjs signed in as `login`. Installs itself as the URL handler, and the window's sign-in
// settings exactly as eddy's main() makes them (the authorization URL handed to
// QDesktopServices on the GUI thread), with the tokens kept in tokenFile.
class SystemBrowser final : public QObject
{
    Q_OBJECT

public:
    SystemBrowser(const QString &login, const QString &tokenFile)
        : m_login(login)
    {
        QDesktopServices::setUrlHandler(QStringLiteral("http"), this, "openUrl");
        QDesktopServices::setUrlHandler(QStringLiteral("https"), this, "openUrl");
        auto signIn = std::make_shared<Mcp::OAuthSettings>();
        signIn->tokenFile = tokenFile;
        signIn->openAuthorizationUrl = [](const QUrl &url) {
            QMetaObject::invokeMethod(qApp, [url] { QDesktopServices::openUrl(url); });
        };
        Mcp::Client::setOAuthSettings(std::move(signIn));
    }

    ~SystemBrowser() override
    {
        QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
        QDesktopServices::unsetUrlHandler(QStringLiteral("https"));
        for (QProcess *p : findChildren<QProcess *>()) {
            if (p->state() != QProcess::NotRunning) {
                p->kill();
                p->waitForFinished(10000);
            }
        }
    }

    int opened() const { return m_opened; }
    int signedIn() const { return m_signedIn; }
    QByteArray output() const { return m_output; }

public slots:
    void openUrl(const QUrl &url)
    {
        ++m_opened;
        auto *p = new QProcess(this);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("EDDY_TEST_LOGIN"), m_login);
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::MergedChannels);
        connect(p, &QProcess::finished, this, [this, p](int code, QProcess::ExitStatus status) {
            m_output += p->readAll();
            if (status == QProcess::NormalExit && code == 0)
                ++m_signedIn;
        });
        p->start(nodeProgram(), {providerScript("browser.mjs"), url.toString(QUrl::FullyEncoded)});
    }

private:
    QString m_login;
    int m_opened = 0;
    int m_signedIn = 0;
    QByteArray m_output;
};

} // namespace Eddy::Test
