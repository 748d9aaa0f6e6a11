#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace Eddy::Net {
struct HttpRequest;
}

namespace Eddy::Mcp {

// DPoP (RFC 9449; the MCP DPoP extension, SEP-1932): one ES256 key pair that sender-constrains an
// access token, and the proofs it signs (rhonabwy). OAuth makes one for a new token when the
// authorization server lists ES256 in dpop_signing_alg_values_supported, keeps its private JWK
// with the token (TokenStore: the vault, else the owner-only token file) and signs every token
// request and every request that presents the token with it. The private key never reaches a
// log, the database or a proof; a proof carries the public JWK only.
class DpopKey
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Mcp::DpopKey)

public:
    ~DpopKey();
    DpopKey(const DpopKey &) = delete;
    DpopKey &operator=(const DpopKey &) = delete;

    // A new P-256 key pair; nullptr with *error when rhonabwy cannot make one.
    static std::unique_ptr<DpopKey> generate(QString *error);
    // The key kept with a token (privateJwk()); nullptr with *error when it does not parse.
    static std::unique_ptr<DpopKey> fromPrivateJwk(QByteArrayView json, QString *error);

    QByteArray privateJwk() const; // a secret: for TokenStore only
    QByteArray publicJwk() const;  // {"kty":"EC","crv":"P-256","x":..,"y":..}

    // A fresh proof (compact JWS, typ dpop+jwt, alg ES256, the public JWK in its header) for one
    // request: a new jti, htm, htu (the URL without query and fragment), iat, and nonce and ath
    // (base64url SHA-256 of accessToken) when given. Empty when signing fails.
    QByteArray proof(QByteArrayView method, const QUrl &url, QByteArrayView accessToken = {},
                     QByteArrayView nonce = {}) const;

    // htu of a request URL (RFC 9449 §4.2): without query and fragment.
    static QString htu(const QUrl &url);
    // ath (RFC 9449 §4.2): base64url, unpadded, of the SHA-256 of the access token.
    static QByteArray ath(QByteArrayView accessToken);
    // Whether authorization server metadata offers DPoP with ES256, the one algorithm Eddy signs.
    static bool offeredBy(const QJsonObject &metadata);

private:
    struct Keys;
    explicit DpopKey(std::unique_ptr<Keys> keys);
    std::unique_ptr<Keys> m_keys;
};

// The DPoP state of one server's sign-in (OAuth owns it): the key of the current token, whether
// the token is DPoP-bound, and the nonces the authorization and resource servers asked for.
struct DpopState
{
    std::unique_ptr<DpopKey> key;
    bool bound = false;          // the token was issued as token_type DPoP
    QByteArray asNonce;          // the authorization server's DPoP-Nonce (RFC 9449 §8)
    QByteArray rsNonce;          // the MCP server's (§9)
    qint64 nonceWindowStart = 0; // new nonces adopted in the current minute
    int nonceChanges = 0;

    static constexpr int kMaxNonceChangesPerMinute = 10;
    // The MCP server refused a request that carried the nonce sent (empty: none) with
    // use_dpop_nonce and offered nonce: true when a retry with it is due (it is adopted, or another
    // request in flight adopted it already). False when the request carried that very nonce (a
    // second refusal) or the server changes it more often than kMaxNonceChangesPerMinute (it would
    // never end).
    bool adoptResourceNonce(const QByteArray &nonce, const QByteArray &sent);
    // The key kept with a stored token (TokenStore::Entry::tokenType, ::dpopKey).
    void restore(const QString &tokenType, const QString &privateJwk);
    // Puts the token on a request to the MCP server: Authorization: DPoP plus a fresh proof when
    // bound, else the bearer token.
    void sign(Net::HttpRequest &request, const QByteArray &accessToken) const;
};

} // namespace Eddy::Mcp
