#include "app/mcp/tokenstore.h"

#include "app/secret.h"

#include <QFile>
#include <QJsonDocument>
#include <QObject>
#include <QStandardPaths>

namespace Eddy::Mcp {

TokenStore::TokenStore(QString path) : m_path(path.isEmpty() ? defaultPath() : std::move(path)) {}

QString TokenStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/oauth-tokens.json");
}

QJsonObject TokenStore::read() const
{
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

static QString storeKey(const QString &issuer, const QString &resource)
{
    return issuer + QLatin1Char(' ') + resource;
}

static TokenStore::Entry entryFrom(const QJsonObject &o)
{
    TokenStore::Entry e;
    e.issuer = o[QLatin1String("issuer")].toString();
    e.resource = o[QLatin1String("resource")].toString();
    e.server = o[QLatin1String("server")].toString();
    e.accessToken = o[QLatin1String("access_token")].toString();
    e.refreshToken = o[QLatin1String("refresh_token")].toString();
    e.scope = o[QLatin1String("scope")].toString();
    e.tokenEndpoint = o[QLatin1String("token_endpoint")].toString();
    e.clientId = o[QLatin1String("client_id")].toString();
    e.clientSecret = o[QLatin1String("client_secret")].toString();
    e.authMethod = o[QLatin1String("token_endpoint_auth_method")].toString();
    e.expiresAt = qint64(o[QLatin1String("expires_at")].toDouble());
    e.tokenType = o[QLatin1String("token_type")].toString();
    e.dpopKey = o[QLatin1String("dpop_key")].toString();
    // The tokens themselves are in the vault (the keychain, or this file's "secrets"), one item
    // per issuer and resource; the entry names it.
    const QString ref = o[QLatin1String("secret_ref")].toString();
    if (!ref.isEmpty()) {
        if (SecretVault *vault = secretVault()) {
            QString error;
            if (const auto blob = vault->get(ref, &error)) {
                const QJsonObject s = QJsonDocument::fromJson(blob->toUtf8()).object();
                e.accessToken = s[QLatin1String("access_token")].toString();
                e.refreshToken = s[QLatin1String("refresh_token")].toString();
                e.clientSecret = s[QLatin1String("client_secret")].toString();
                e.dpopKey = s[QLatin1String("dpop_key")].toString();
            } else {
                vault->tell(error);
            }
        }
    }
    return e;
}

std::optional<TokenStore::Entry> TokenStore::find(const QString &issuer, const QString &resource) const
{
    const QJsonValue v = read().value(storeKey(issuer, resource));
    if (!v.isObject())
        return std::nullopt;
    return entryFrom(v.toObject());
}

std::optional<TokenStore::Entry> TokenStore::findForServer(const QString &server) const
{
    const QJsonObject all = read();
    for (auto it = all.begin(); it != all.end(); ++it) {
        if (it.key() == QLatin1String("secrets"))
            continue; // the vault's, when no Secret Service answers (app/keychain/vault.h)
        const QJsonObject o = it.value().toObject();
        if (o[QLatin1String("server")].toString() != server)
            continue;
        const Entry e = entryFrom(o);
        if (e.server == server && !e.accessToken.isEmpty())
            return e;
    }
    return std::nullopt;
}

bool TokenStore::save(const Entry &e, QString *error)
{
    QJsonObject entry{{QStringLiteral("issuer"), e.issuer},
                      {QStringLiteral("resource"), e.resource},
                      {QStringLiteral("server"), e.server},
                      {QStringLiteral("scope"), e.scope},
                      {QStringLiteral("token_endpoint"), e.tokenEndpoint},
                      {QStringLiteral("client_id"), e.clientId},
                      {QStringLiteral("token_endpoint_auth_method"), e.authMethod},
                      {QStringLiteral("expires_at"), double(e.expiresAt)},
                      {QStringLiteral("token_type"), e.tokenType}};
    QJsonObject secrets{{QStringLiteral("access_token"), e.accessToken},
                        {QStringLiteral("refresh_token"), e.refreshToken},
                        {QStringLiteral("client_secret"), e.clientSecret}};
    if (!e.dpopKey.isEmpty())
        secrets.insert(QStringLiteral("dpop_key"), e.dpopKey);
    QString ref;
    if (SecretVault *vault = secretVault()) {
        // Keyed by issuer and resource: a new token for the same pair replaces the old one.
        ref = vault->put(QStringLiteral("oauth ") + storeKey(e.issuer, e.resource),
                         QString::fromUtf8(QJsonDocument(secrets).toJson(QJsonDocument::Compact)),
                         error);
        if (ref.isEmpty())
            return false;
        entry.insert(QStringLiteral("secret_ref"), ref);
    } else {
        for (auto it = secrets.begin(); it != secrets.end(); ++it)
            entry.insert(it.key(), it.value());
    }
    QJsonObject all = read(); // after the vault, which may have written this file's "secrets"
    all.insert(storeKey(e.issuer, e.resource), entry);
    return writeOwnerOnlyJson(m_path, all, error);
}

} // namespace Eddy::Mcp
