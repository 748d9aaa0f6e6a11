#include "app/secret.h"

#include <atomic>

namespace Eddy {

namespace {
constexpr qsizetype kShownChars = 6;
std::atomic<SecretVault *> s_vault{nullptr};
} // namespace

SecretVault *secretVault()
{
    return s_vault.load();
}

void setSecretVault(SecretVault *vault)
{
    s_vault.store(vault);
}

QString redactSecret(QStringView secret)
{
    if (secret.isEmpty())
        return QStringLiteral("(none)");
    // Short secrets would be revealed almost whole by a prefix: show nothing of them.
    if (secret.size() <= 2 * kShownChars)
        return QStringLiteral("…");
    return secret.left(kShownChars).toString() + QChar(0x2026);
}

QString redactSecret(std::string_view secret)
{
    return redactSecret(QString::fromUtf8(secret.data(), qsizetype(secret.size())));
}

} // namespace Eddy
