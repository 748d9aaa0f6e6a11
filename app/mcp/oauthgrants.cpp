#include "app/mcp/oauthgrants.h"

#include "app/mcp/client.h"
#include "app/mcp/oauth.h"
#include "app/net/httprequest.h"
#include "app/secret.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUrl>

#include <rhonabwy.h>

#include <memory>

namespace Eddy::Mcp {

namespace {

struct JwkDeleter { void operator()(jwk_t *k) const { r_jwk_free(k); } };
struct JwtDeleter { void operator()(jwt_t *t) const { r_jwt_free(t); } };
struct CharDeleter { void operator()(char *p) const { r_free(p); } };

// The algorithm a private key signs with: the JWK's own "alg", else the usual one for its type.
QByteArray signingAlgorithm(jwk_t *key)
{
    if (const char *alg = r_jwk_get_property_str(key, "alg"); alg && *alg)
        return alg;
    unsigned int bits = 0;
    const int type = r_jwk_key_type(key, &bits, R_FLAG_IGNORE_REMOTE);
    if (!(type & R_KEY_TYPE_PRIVATE))
        return {};
    if (type & R_KEY_TYPE_RSA)
        return "RS256";
    if (type & R_KEY_TYPE_EDDSA)
        return "EdDSA";
    if (type & R_KEY_TYPE_EC) {
        const QByteArray curve = r_jwk_get_property_str(key, "crv");
        if (curve == "P-256")
            return "ES256";
        if (curve == "P-384")
            return "ES384";
        if (curve == "P-521")
            return "ES512";
    }
    return {};
}

QString randomId()
{
    QByteArray raw(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), raw.size() / 4);
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

namespace Grants {

QString clientAssertion(const QString &keyFile, const QString &clientId, const QString &audience,
                        QString *error, qint64 now)
{
    QFile file(keyFile);
    if (keyFile.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate(
                     "Eddy::Mcp::OAuth",
                     "Eddy cannot read the private key file \"%1\" (--oauth-private-key): %2. Give "
                     "the file holding the client's private key (PEM or JWK), readable by you.")
                     .arg(keyFile, file.errorString());
        return {};
    }
    const QByteArray data = file.readAll().trimmed();
    jwk_t *raw = nullptr;
    if (r_jwk_init(&raw) != RHN_OK) {
        *error = QCoreApplication::translate(
            "Eddy::Mcp::OAuth", "Eddy could not set up signing (out of memory); run the command again.");
        return {};
    }
    std::unique_ptr<jwk_t, JwkDeleter> key(raw);
    const bool json = data.startsWith('{');
    const int imported = json ? r_jwk_import_from_json_str(key.get(), data.constData())
                              : r_jwk_import_from_pem_der(key.get(), R_X509_TYPE_PRIVKEY, R_FORMAT_PEM,
                                                          reinterpret_cast<const unsigned char *>(data.constData()),
                                                          size_t(data.size()));
    const QByteArray alg = imported == RHN_OK ? signingAlgorithm(key.get()) : QByteArray();
    if (alg.isEmpty() || r_str_to_jwa_alg(alg.constData()) == R_JWA_ALG_UNKNOWN) {
        *error = QCoreApplication::translate(
                     "Eddy::Mcp::OAuth",
                     "The file \"%1\" (--oauth-private-key) holds no private key Eddy can sign with; "
                     "give the client's private key (EC P-256, P-384 or P-521, RSA or Ed25519) as "
                     "PEM or JWK, the one whose public key is registered for client %2.")
                     .arg(keyFile, clientId);
        return {};
    }

    jwt_t *rawJwt = nullptr;
    if (r_jwt_init(&rawJwt) != RHN_OK) {
        *error = QCoreApplication::translate(
            "Eddy::Mcp::OAuth", "Eddy could not set up signing (out of memory); run the command again.");
        return {};
    }
    std::unique_ptr<jwt_t, JwtDeleter> jwt(rawJwt);
    if (now <= 0)
        now = QDateTime::currentSecsSinceEpoch();
    const QByteArray id = clientId.toUtf8();
    r_jwt_set_header_str_value(jwt.get(), "typ", "JWT");
    r_jwt_set_claim_str_value(jwt.get(), "iss", id.constData());
    r_jwt_set_claim_str_value(jwt.get(), "sub", id.constData());
    r_jwt_set_claim_str_value(jwt.get(), "aud", audience.toUtf8().constData());
    r_jwt_set_claim_str_value(jwt.get(), "jti", randomId().toLatin1().constData());
    r_jwt_set_claim_int_value(jwt.get(), "iat", now);
    r_jwt_set_claim_int_value(jwt.get(), "exp", now + kAssertionLifetimeS);
    r_jwt_set_sign_alg(jwt.get(), r_str_to_jwa_alg(alg.constData()));
    std::unique_ptr<char, CharDeleter> signed_(r_jwt_serialize_signed(jwt.get(), key.get(), R_FLAG_IGNORE_REMOTE));
    if (!signed_) {
        *error = QCoreApplication::translate(
                     "Eddy::Mcp::OAuth",
                     "Eddy could not sign the client assertion with the key in \"%1\" (%2); give "
                     "the client's private key as PEM or JWK.")
                     .arg(keyFile, QString::fromLatin1(alg));
        return {};
    }
    return QString::fromLatin1(signed_.get());
}

QString readTokenFile(const QString &file, const QString &option, QString *error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate(
                     "Eddy::Mcp::OAuth",
                     "Eddy cannot read the token file \"%1\" (%2): %3. Give a file you can read "
                     "that holds the token.")
                     .arg(file, option, f.errorString());
        return {};
    }
    const QString token = QString::fromUtf8(f.read(1024 * 1024)).trimmed();
    if (token.isEmpty() || token.count(QLatin1Char('.')) != 2) {
        *error = QCoreApplication::translate(
                     "Eddy::Mcp::OAuth",
                     "The file \"%1\" (%2) holds no JWT; write the token, as the platform or "
                     "identity provider issued it, into the file.")
                     .arg(file, option);
        return {};
    }
    return token;
}

} // namespace Grants

bool OAuth::addClientAuth(const QString &clientId, const QString &audience,
                          QList<std::pair<QString, QString>> *form, QString *error) const
{
    if (!clientId.isEmpty()) // a workload may have none: its token says who it is
        form->append({QStringLiteral("client_id"), clientId});
    if (m_settings->privateKeyFile.isEmpty())
        return true;
    const QString assertion = Grants::clientAssertion(m_settings->privateKeyFile, clientId, audience, error);
    if (assertion.isEmpty())
        return false;
    form->append({QStringLiteral("client_assertion_type"), QString::fromLatin1(Grants::kClientAssertionType)});
    form->append({QStringLiteral("client_assertion"), assertion});
    return true;
}

QString OAuth::grantRefused(const QString &issuer, const QString &error, const QString &said) const
{
    if (error != QLatin1String("invalid_grant") && error != QLatin1String("unauthorized_client"))
        return {};
    if (!m_settings->workloadTokenFile.isEmpty())
        return tr("The authorization server %1 refused the workload token in \"%2\" "
                  "(--oauth-workload-token) (%3%4): it may have expired or name another audience. "
                  "Have the platform write a fresh token for the audience %1 into the file, or ask "
                  "the server's administrator to trust the workload's issuer.")
            .arg(issuer, m_settings->workloadTokenFile, error, said);
    if (!m_settings->idTokenFile.isEmpty())
        return tr("The authorization server %1 refused the ID-JAG from %2 (%3%4). Sign in to the "
                  "identity provider afresh, write the new ID token into the --oauth-id-token file "
                  "and run the command again; if it repeats, ask the server's administrator "
                  "whether %1 trusts that identity provider.")
            .arg(issuer, m_settings->idpTokenUrl.toString(), error, said);
    return {};
}

// The client_credentials grant as it comes (form), or the JWT bearer grant (RFC 7523 §2.1) with
// the workload identity token (SEP-1933) as the assertion, or (SEP-990) the ID-JAG the enterprise
// identity provider gives for the person's ID token in a token exchange (RFC 8693) whose
// audience is the authorization server (issuer) and resource the MCP server.
void OAuth::unattendedGrant(const QString &issuer, QList<std::pair<QString, QString>> form)
{
    if (m_settings->workloadTokenFile.isEmpty() && m_settings->idTokenFile.isEmpty()) {
        requestToken(std::move(form));
        return;
    }
    form[0].second = QString::fromLatin1(Grants::kJwtBearerGrant);
    QString error;
    if (!m_settings->workloadTokenFile.isEmpty()) {
        const QString token = Grants::readTokenFile(m_settings->workloadTokenFile,
                                                    QStringLiteral("--oauth-workload-token"), &error);
        if (token.isEmpty()) {
            finish(error);
            return;
        }
        form.append({QStringLiteral("assertion"), token});
        requestToken(std::move(form));
        return;
    }
    if (!m_settings->idpTokenUrl.isValid() || m_settings->idpTokenUrl.isRelative()) {
        finish(tr("Signing in with an ID token (--oauth-id-token) needs the enterprise identity "
                  "provider's token endpoint: pass --oauth-idp-token-url URL."));
        return;
    }
    const QString idToken = Grants::readTokenFile(m_settings->idTokenFile, QStringLiteral("--oauth-id-token"), &error);
    if (idToken.isEmpty()) {
        finish(error);
        return;
    }
    QString resource;
    QString scope;
    for (const auto &[name, value] : form) {
        if (name == QLatin1String("resource"))
            resource = value;
        else if (name == QLatin1String("scope"))
            scope = value;
    }
    QList<std::pair<QString, QString>> exchange{
        {QStringLiteral("grant_type"), QString::fromLatin1(Grants::kTokenExchangeGrant)},
        {QStringLiteral("requested_token_type"), QString::fromLatin1(Grants::kIdJagType)},
        {QStringLiteral("subject_token"), idToken},
        {QStringLiteral("subject_token_type"), QString::fromLatin1(Grants::kIdTokenType)},
        {QStringLiteral("audience"), issuer},
        {QStringLiteral("resource"), resource}};
    if (!scope.isEmpty())
        exchange.append({QStringLiteral("scope"), scope});
    if (!m_settings->idpClientId.isEmpty())
        exchange.append({QStringLiteral("client_id"), m_settings->idpClientId});
    if (!m_settings->idpClientSecret.isEmpty())
        exchange.append({QStringLiteral("client_secret"), m_settings->idpClientSecret});
    Net::HttpRequest request;
    request.url = m_settings->idpTokenUrl;
    request.headers = {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/x-www-form-urlencoded")},
                       {QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")}};
    request.body = OAuth::formEncode(exchange);
    const QString idp = m_settings->idpTokenUrl.toString();
    qCInfo(lcMcp).noquote() << "authorization: exchanging the ID token at" << idp << "for an ID-JAG for" << issuer;
    fetch(request, [this, form = std::move(form), idp](int status, const QByteArray &body,
                                                       const QString &transport) mutable {
        if (!m_flow)
            return;
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        const QString jag = o.value(QLatin1String("access_token")).toString();
        const QString type = o.value(QLatin1String("issued_token_type")).toString();
        if (!transport.isEmpty()) {
            finish(tr("The identity provider %1 could not be reached for the token exchange (%2); "
                      "check --oauth-idp-token-url and the network, and run the command again.")
                       .arg(idp, transport));
            return;
        }
        if (status != 200 || jag.isEmpty() || type != QLatin1String(Grants::kIdJagType)) {
            const QString said = o.value(QLatin1String("error_description")).toString();
            const QString error = o.value(QLatin1String("error")).toString();
            finish(tr("The identity provider %1 gave no ID-JAG for your ID token (%2%3); sign in "
                      "to it afresh, write the new ID token into the --oauth-id-token file and run "
                      "the command again.")
                       .arg(idp, error.isEmpty() ? tr("HTTP %1").arg(status) : error,
                            said.isEmpty() ? QString() : QStringLiteral(": ") + said));
            return;
        }
        qCInfo(lcMcp).noquote() << "authorization: got an ID-JAG" << redactSecret(jag) << "from" << idp;
        form.append({QStringLiteral("assertion"), jag});
        requestToken(std::move(form));
    });
}

} // namespace Eddy::Mcp
