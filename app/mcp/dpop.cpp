#include "app/mcp/dpop.h"

#include "app/net/httprequest.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <rhonabwy.h>

namespace Eddy::Mcp {

namespace {

void initRhonabwy()
{
    static const bool once = [] {
        r_global_init();
        return true;
    }();
    Q_UNUSED(once);
}

// A rhonabwy string, freed with r_free.
QByteArray takeString(char *text)
{
    if (!text)
        return {};
    QByteArray out(text);
    r_free(text);
    return out;
}

QByteArray base64Url(const QByteArray &raw)
{
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

struct DpopKey::Keys
{
    jwk_t *privateKey = nullptr;
    jwk_t *publicKey = nullptr;
    QByteArray publicJson;
    ~Keys()
    {
        r_jwk_free(privateKey);
        r_jwk_free(publicKey);
    }
};

DpopKey::DpopKey(std::unique_ptr<Keys> keys) : m_keys(std::move(keys)) {}
DpopKey::~DpopKey() = default;

// Only the members RFC 7638 names for an EC key: no kid or private part reaches a proof.
static QByteArray publicMembers(jwk_t *publicKey)
{
    const QJsonObject all = QJsonDocument::fromJson(takeString(r_jwk_export_to_json_str(publicKey, 0))).object();
    QJsonObject out;
    for (const char *name : {"crv", "kty", "x", "y"})
        out.insert(QLatin1String(name), all.value(QLatin1String(name)));
    return QJsonDocument(out).toJson(QJsonDocument::Compact);
}

std::unique_ptr<DpopKey> DpopKey::generate(QString *error)
{
    initRhonabwy();
    auto keys = std::make_unique<Keys>();
    if (r_jwk_init(&keys->privateKey) != RHN_OK || r_jwk_init(&keys->publicKey) != RHN_OK
        || r_jwk_generate_key_pair(keys->privateKey, keys->publicKey, R_KEY_TYPE_EC, 256, nullptr) != RHN_OK) {
        if (error)
            *error = tr("Eddy could not make a DPoP key pair (ES256) for the sign-in; check that "
                        "librhonabwy and GnuTLS are installed intact.");
        return nullptr;
    }
    keys->publicJson = publicMembers(keys->publicKey);
    return std::unique_ptr<DpopKey>(new DpopKey(std::move(keys)));
}

std::unique_ptr<DpopKey> DpopKey::fromPrivateJwk(QByteArrayView json, QString *error)
{
    initRhonabwy();
    auto keys = std::make_unique<Keys>();
    const QByteArray text = json.toByteArray();
    if (r_jwk_init(&keys->privateKey) != RHN_OK || r_jwk_init(&keys->publicKey) != RHN_OK
        || r_jwk_import_from_json_str(keys->privateKey, text.constData()) != RHN_OK
        || r_jwk_is_valid(keys->privateKey) != RHN_OK
        || r_jwk_extract_pubkey(keys->privateKey, keys->publicKey, R_FLAG_IGNORE_REMOTE) != RHN_OK) {
        if (error)
            *error = tr("The DPoP key kept with the token cannot be read; Eddy signs in again.");
        return nullptr;
    }
    keys->publicJson = publicMembers(keys->publicKey);
    return std::unique_ptr<DpopKey>(new DpopKey(std::move(keys)));
}

QByteArray DpopKey::privateJwk() const
{
    return takeString(r_jwk_export_to_json_str(m_keys->privateKey, 0));
}

QByteArray DpopKey::publicJwk() const
{
    return m_keys->publicJson;
}

QString DpopKey::htu(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo).toString(QUrl::FullyEncoded);
}

QByteArray DpopKey::ath(QByteArrayView accessToken)
{
    return base64Url(QCryptographicHash::hash(accessToken, QCryptographicHash::Sha256));
}

bool DpopKey::offeredBy(const QJsonObject &metadata)
{
    const QJsonArray algs = metadata.value(QLatin1String("dpop_signing_alg_values_supported")).toArray();
    return algs.contains(QJsonValue(QStringLiteral("ES256")));
}

QByteArray DpopKey::proof(QByteArrayView method, const QUrl &url, QByteArrayView accessToken,
                          QByteArrayView nonce) const
{
    QByteArray jti(16, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(jti.data()), 4);
    QJsonObject claims{{QStringLiteral("jti"), QString::fromLatin1(base64Url(jti))},
                       {QStringLiteral("htm"), QString::fromLatin1(method.toByteArray())},
                       {QStringLiteral("htu"), htu(url)},
                       {QStringLiteral("iat"), QJsonValue(qint64(QDateTime::currentSecsSinceEpoch()))}};
    if (!nonce.isEmpty())
        claims.insert(QStringLiteral("nonce"), QString::fromLatin1(nonce.toByteArray()));
    if (!accessToken.isEmpty())
        claims.insert(QStringLiteral("ath"), QString::fromLatin1(ath(accessToken)));
    const QJsonObject header{
        {QStringLiteral("typ"), QStringLiteral("dpop+jwt")},
        {QStringLiteral("alg"), QStringLiteral("ES256")},
        {QStringLiteral("jwk"), QJsonDocument::fromJson(m_keys->publicJson).object()}};
    const QByteArray headerJson = QJsonDocument(header).toJson(QJsonDocument::Compact);
    const QByteArray payload = QJsonDocument(claims).toJson(QJsonDocument::Compact);

    jws_t *jws = nullptr;
    QByteArray out;
    if (r_jws_init(&jws) == RHN_OK && r_jws_set_full_header_json_str(jws, headerJson.constData()) == RHN_OK
        && r_jws_set_alg(jws, R_JWA_ALG_ES256) == RHN_OK
        && r_jws_set_payload(jws, reinterpret_cast<const unsigned char *>(payload.constData()),
                             size_t(payload.size())) == RHN_OK)
        out = takeString(r_jws_serialize(jws, m_keys->privateKey, R_FLAG_IGNORE_REMOTE));
    r_jws_free(jws);
    return out;
}

// ---- DpopState -------------------------------------------------------------------------------

bool DpopState::adoptResourceNonce(const QByteArray &nonce, const QByteArray &sent)
{
    if (nonce.isEmpty() || nonce == sent)
        return false;
    if (nonce == rsNonce)
        return true; // sent before another request in flight adopted it
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - nonceWindowStart > 60 * 1000) {
        nonceWindowStart = now;
        nonceChanges = 0;
    }
    if (++nonceChanges > kMaxNonceChangesPerMinute)
        return false;
    rsNonce = nonce;
    return true;
}

void DpopState::restore(const QString &tokenType, const QString &privateJwk)
{
    key = privateJwk.isEmpty() ? nullptr : DpopKey::fromPrivateJwk(privateJwk.toUtf8(), nullptr);
    bound = key && tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0;
}

void DpopState::sign(Net::HttpRequest &request, const QByteArray &accessToken) const
{
    if (!bound || !key || accessToken.isEmpty()) {
        request.bearerToken = accessToken;
        return;
    }
    using Method = Net::HttpRequest::Method;
    const QByteArrayView method = request.method == Method::Get      ? QByteArrayView("GET")
                                  : request.method == Method::Delete ? QByteArrayView("DELETE")
                                                                     : QByteArrayView("POST");
    request.bearerToken.clear();
    request.headers.append({QByteArrayLiteral("Authorization"), "DPoP " + accessToken});
    request.headers.append({QByteArrayLiteral("DPoP"), key->proof(method, request.url, accessToken, rsNonce)});
    // A re-sent request would carry the same proof (the same jti), which a server may refuse as
    // a replay: no poll lane.
    request.mayRepeat = false;
}

} // namespace Eddy::Mcp
