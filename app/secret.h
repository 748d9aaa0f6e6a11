#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <string_view>

namespace Eddy {

// Task ids and bearer tokens are secrets: anything that reaches a log, a window title or an error
// message shows at most this short prefix ("3f9a1c…"), never the whole value.
QString redactSecret(QStringView secret);
QString redactSecret(std::string_view secret);

// Where secrets are kept between runs: the static bearer tokens of servers (servers.token_ref
// in the database) and the OAuth tokens (Mcp::TokenStore). The database and the token file keep
// only the reference a vault hands back ("keychain:KEY", "file:KEY"), never the secret. The
// window and eddyctl install one (app/keychain/: the Secret Service through QtKeychain, else the
// owner-only token file); a process without one (unit tests, benchmarks) keeps secrets where it
// did before. Implementations are safe to call from any thread.
class SecretVault
{
public:
    virtual ~SecretVault() = default;
    // Keeps value under key (a name that says what it is, never the secret). Returns the
    // reference to keep in its place; empty with *error when nothing could keep it.
    virtual QString put(const QString &key, const QString &value, QString *error) = 0;
    // The secret a reference names; nullopt with *error when it cannot be read.
    virtual std::optional<QString> get(const QString &reference, QString *error) = 0;
    virtual void remove(const QString &reference) = 0;
    // Tells the person something about where secrets go, once (eddyctl: stderr; the window: its
    // log).
    virtual void tell(const QString &message) = 0;
};

// Writes all to the token file at path (made owner-only before a byte is written, then renamed
// over the old one); false with *error saying what failed.
bool writeOwnerOnlyJson(const QString &path, const QJsonObject &all, QString *error);

// The process's vault, or nullptr; set once at start, before any store or client is made.
SecretVault *secretVault();
void setSecretVault(SecretVault *vault);

} // namespace Eddy
