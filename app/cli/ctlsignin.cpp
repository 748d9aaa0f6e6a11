// Signing in to a server that asks for MCP authorization (docs/eddyctl.md, "Signing in"):
// eddyctl prints the authorization URL and opens it in a browser, unless --no-browser; a
// loopback listener (Mcp::OAuth) takes the redirect. --client-credentials (with a secret or
// --oauth-private-key), --oauth-workload-token and --oauth-id-token sign in unattended.
#include "app/cli/ctl.h"
#include "app/mcp/client.h"
#include "app/mcp/oauth.h"

#include <QProcess>

namespace Eddy::Cli {

void Ctl::setUpSignIn()
{
    auto settings = std::make_shared<Mcp::OAuthSettings>();
    settings->clientId = m_oauthClientId;
    // A secret never on the command line, where every user's ps can read it.
    // A private key signs a client assertion instead (private_key_jwt; app/mcp/oauthgrants.h).
    settings->privateKeyFile = m_oauthPrivateKey;
    if (m_oauthPrivateKey.isEmpty())
        settings->clientSecret = qEnvironmentVariable("EDDY_OAUTH_CLIENT_SECRET");
    settings->workloadTokenFile = m_oauthWorkloadToken;
    settings->idTokenFile = m_oauthIdToken;
    settings->idpTokenUrl = QUrl(m_oauthIdpTokenUrl);
    settings->idpClientId = m_oauthIdpClientId;
    settings->idpClientSecret = qEnvironmentVariable("EDDY_OAUTH_IDP_CLIENT_SECRET");
    settings->clientMetadataUrl = QUrl(m_oauthClientMetadataUrl.isEmpty()
                                           ? qEnvironmentVariable("EDDY_OAUTH_CLIENT_METADATA_URL")
                                           : m_oauthClientMetadataUrl);
    settings->clientCredentials = m_clientCredentials;
    bool ok = false;
    if (const int s = qEnvironmentVariableIntValue("EDDY_SIGNIN_TIMEOUT_S", &ok); ok && s > 0)
        settings->signInTimeoutMs = s * 1000;
    const bool noBrowser = m_noBrowser;
    settings->openAuthorizationUrl = [this, noBrowser](const QUrl &url) {
        const QString text = url.toString(QUrl::FullyEncoded);
        m_err << "eddyctl: the server asks you to sign in. Open this address in a browser and "
                 "finish signing in there; eddyctl waits:\n  "
              << text << Qt::endl;
        if (noBrowser)
            return;
        const QString custom = qEnvironmentVariable("EDDY_BROWSER");
        QStringList command = custom.isEmpty() ? QStringList{QStringLiteral("xdg-open")}
                                               : QProcess::splitCommand(custom);
        const QString program = command.takeFirst();
        if (!QProcess::startDetached(program, command << text))
            m_err << "eddyctl: could not start " << program
                  << "; open the address above yourself." << Qt::endl;
    };
    Mcp::Client::setOAuthSettings(std::move(settings));
}

} // namespace Eddy::Cli
