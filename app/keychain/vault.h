#pragma once

#include "app/secret.h"

#include <QHash>
#include <QMutex>
#include <QString>

#include <functional>

namespace Eddy::Keychain {

// The vault of the window and eddyctl (app/secret.h): the Secret Service (GNOME Keyring,
// KWallet) through QtKeychain, service "Eddy", one item per key. Where no Secret Service
// answers (no session bus, none on it, or one that does not answer within the time limit) it
// says so once and keeps secrets in the owner-only (0600) token file instead, in its "secrets"
// object: the same file as Mcp::TokenStore's, never the database.
class Vault final : public SecretVault
{
public:
    using Tell = std::function<void(const QString &message)>;

    // file: the owner-only token file. tell: how the person hears what happens (once).
    Vault(QString file, Tell tell, int timeoutMs = 10000);

    QString put(const QString &key, const QString &value, QString *error) override;
    std::optional<QString> get(const QString &reference, QString *error) override;
    void remove(const QString &reference) override;
    void tell(const QString &message) override;

    QString filePath() const { return m_file; }
    // Whether the Secret Service took or gave the last secret (false once it did not answer).
    bool keychainUsable() const { return !m_keychainDown; }

    // The owner-only file of the fallback, one for every Eddy program of the user (the window,
    // its notifier and eddyctl): eddyctl's token file, ~/.local/share/Eddy/eddy/oauth-tokens.json.
    static QString defaultFile();

    static const QString &keychainPrefix();
    static const QString &filePrefix();

private:
    enum class Outcome { Ok, NotFound, Down };
    Outcome keychainWrite(const QString &key, const QString &value, QString *why);
    Outcome keychainRead(const QString &key, QString *value, QString *why);
    void keychainDelete(const QString &key);
    bool sessionBusReachable(QString *why) const;
    void keychainFailed(const QString &why);
    bool fileWrite(const QString &key, const QString *value, QString *error);
    std::optional<QString> fileRead(const QString &key) const;

    QString m_file;
    Tell m_tell;
    int m_timeoutMs;
    QRecursiveMutex m_mutex;
    bool m_keychainDown = false;
    QString m_downReason;
    QHash<QString, QString> m_cache; // reference -> secret, so a reread asks no one
    QStringList m_told;
};

} // namespace Eddy::Keychain
