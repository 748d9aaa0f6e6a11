#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Eddy::Mcp {

// Tokens between runs, keyed by issuer and resource, never in the database: an owner-only (0600)
// JSON file in the user's data folder holds each sign-in's details, and its access token, refresh
// token, client secret and DPoP private key go to the process's vault (app/secret.h: the Secret
// Service, else the owner-only file) as one item, the entry keeping its reference. Without a vault
// (tests) they are in the entry itself.
class TokenStore
{
public:
    struct Entry
    {
        QString issuer;
        QString resource;
        QString server;        // the MCP URL the token was got for
        QString accessToken;
        QString refreshToken;
        QString scope;
        QString tokenEndpoint;
        QString clientId;
        QString clientSecret;
        QString authMethod;
        qint64 expiresAt = 0;  // seconds since the epoch; 0 = not said
        QString tokenType;     // "DPoP" for a sender-constrained token, else bearer
        QString dpopKey;       // the private JWK the DPoP token is bound to (a secret)
    };

    explicit TokenStore(QString path = {});
    static QString defaultPath();
    QString path() const { return m_path; }

    std::optional<Entry> find(const QString &issuer, const QString &resource) const;
    std::optional<Entry> findForServer(const QString &server) const;
    // False with *error when the file cannot be written owner-only.
    bool save(const Entry &entry, QString *error);

private:
    QJsonObject read() const;
    QString m_path;
};

} // namespace Eddy::Mcp
