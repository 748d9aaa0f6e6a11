#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include "app/mcp/dpop.h"
#include "app/mcp/tokenstore.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Eddy::Net {
class HttpClient;
class HttpReply;
class LoopbackListener;
struct HttpRequest;
} // namespace Eddy::Net

namespace Eddy::Mcp {

// MCP authorization (2026-07-28, OAuth 2.1) for one server, the client side: what a 401 or a
// 403 insufficient_scope asks for, from discovery to a token (docs/interop.md, "Authorization").
// Eddy, eddyctl and the agent share it through Mcp::Client; none of it logs a token, a refresh
// token, an authorization code or a PKCE verifier.

// The parameters of a "WWW-Authenticate: Bearer ..." challenge (RFC 6750 §3, RFC 9728 §5.1).
struct BearerChallenge
{
    QUrl resourceMetadata;
    QString scope;
    QString error;            // "invalid_token", "insufficient_scope", ...
    QString errorDescription;
    static BearerChallenge parse(QByteArrayView header);
};

// How this process signs in; set once (Client::setOAuthSettings) by eddyctl or the window.
struct OAuthSettings
{
    QString clientId;          // pre-registered at the authorization server: used first
    QString clientSecret;      // with clientId, for a confidential client
    QUrl clientMetadataUrl;    // Eddy's Client ID Metadata Document, where the team hosts it
    bool clientCredentials = false; // unattended: the client_credentials grant, no browser
    // private_key_jwt (RFC 7523 §2.2): the client authenticates with an assertion signed with
    // this private key (PEM or JWK file) instead of a secret (app/mcp/oauthgrants.h).
    QString privateKeyFile;
    // Unattended, the JWT bearer grant (RFC 7523 §2.1) instead of client_credentials: the
    // workload identity token in this file (SEP-1933) ...
    QString workloadTokenFile;
    // ... or (SEP-990) the ID-JAG the enterprise identity provider's token endpoint gives for the
    // person's ID token in this file (RFC 8693 token exchange), Eddy known there by idpClientId.
    QString idTokenFile;
    QUrl idpTokenUrl;
    QString idpClientId;
    QString idpClientSecret;
    bool unattended() const
    {
        return clientCredentials || !workloadTokenFile.isEmpty() || !idTokenFile.isEmpty();
    }
    QString clientName = QStringLiteral("Eddy");
    // Shows the authorization URL to the person (eddyctl prints it and starts the browser).
    std::function<void(const QUrl &url)> openAuthorizationUrl;
    int signInTimeoutMs = 5 * 60 * 1000;
    QString tokenFile;         // empty: TokenStore::defaultPath()
    // Sign-ins (or refreshes) one server may ask for in one run before Eddy stops and says why:
    // a server that answers every new token with another insufficient_scope gets no more.
    int maxAuthorizations = 3;
};

class OAuth final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OAuth)

public:
    // Empty error: a new access token is ready (accessToken()). Otherwise a sentence that says
    // what happened and what to do.
    using Done = std::function<void(const QString &error)>;

    OAuth(Net::HttpClient *http, QUrl serverUrl, bool verifyTls,
          std::shared_ptr<const OAuthSettings> settings, QObject *parent = nullptr);
    ~OAuth() override;

    // The token kept from an earlier run for this server, if any.
    QByteArray storedAccessToken() const;
    QByteArray accessToken() const { return m_accessToken; }

    // The server answered httpStatus (401 or 403) with this WWW-Authenticate header: get a token
    // that answers it. Calls while one runs wait for the same outcome. A DPoP use_dpop_nonce
    // refusal with a DPoP-Nonce (dpopNonce) other than the one the request carried (sentNonce)
    // only adopts the nonce: the request goes again.
    void authorize(int httpStatus, const QByteArray &wwwAuthenticate, Done done,
                   const QByteArray &dpopNonce = {}, const QByteArray &sentNonce = {});
    // The MCP server's DPoP nonce that sign() puts in proofs now (empty: none).
    QByteArray resourceNonce() const { return m_dpop.rsNonce; }
    // Puts accessToken on a request to the MCP server: "Authorization: DPoP" with a fresh proof
    // for a DPoP-bound token, else "Authorization: Bearer".
    void sign(Net::HttpRequest &request, const QByteArray &accessToken) const { m_dpop.sign(request, accessToken); }

    // S256 (RFC 7636 §4.2) of a verifier; public for the tests.
    static QByteArray codeChallenge(const QByteArray &verifier);
    // An application/x-www-form-urlencoded body (token and registration requests).
    static QByteArray formEncode(const QList<std::pair<QString, QString>> &form);
    // Whether the protected resource metadata's resource may stand for the server URL (same
    // origin, its path a prefix of the server's).
    static bool resourceCovers(const QUrl &resource, const QUrl &server);

private:
    struct Flow;
    using Reply = std::function<void(int status, const QByteArray &body, const QString &transportError)>;

    void fetch(Net::HttpRequest request, Reply then);
    void getJson(std::vector<QUrl> candidates, std::function<void(const QJsonObject &, const QUrl &)> then,
                 std::function<void()> none);
    void finish(const QString &error);
    void discoverResource();
    void discoverIssuer();
    void chooseClient();
    void refresh(const TokenStore::Entry &entry);
    void clientCredentials();
    // oauthgrants.cpp: the grant an unattended sign-in asks for (client_credentials or the JWT
    // bearer grant); the client_id and, for private_key_jwt, the client assertion of a token
    // request without Basic authentication; what a refused JWT bearer grant means (empty: not one).
    void unattendedGrant(const QString &issuer, QList<std::pair<QString, QString>> form);
    bool addClientAuth(const QString &clientId, const QString &audience,
                       QList<std::pair<QString, QString>> *form, QString *error) const;
    QString grantRefused(const QString &issuer, const QString &error, const QString &said) const;
    void startAuthorization();
    void onCallback(const QString &code, const QString &state, const QString &iss,
                    const QString &error, const QString &errorDescription);
    void requestToken(QList<std::pair<QString, QString>> form);
    QString tokenError(int status, const QByteArray &body) const;
    QString chooseAuthMethod(const QString &registered) const;

    Net::HttpClient *m_http;
    QUrl m_serverUrl;
    bool m_verifyTls;
    std::shared_ptr<const OAuthSettings> m_settings;
    TokenStore m_store;
    QByteArray m_accessToken;
    QString m_grantedScope;
    int m_authorizations = 0;
    std::unique_ptr<Flow> m_flow;
    DpopState m_dpop;
    std::vector<Done> m_waiting;
};

} // namespace Eddy::Mcp
