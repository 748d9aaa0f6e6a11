#include "app/secret.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QObject>
#include <QSaveFile>

#include <atomic>

namespace Eddy {

namespace {
constexpr qsizetype kShownChars = 6;
std::atomic<SecretVault *> s_vault{nullptr};
} // namespace

bool writeOwnerOnlyJson(const QString &path, const QJsonObject &all, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    // Owner-only before a byte is written: QSaveFile writes a new file and renames it over.
    bool ok = f.open(QIODevice::WriteOnly)
              && f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    ok = ok && f.write(QJsonDocument(all).toJson(QJsonDocument::Indented)) >= 0 && f.commit();
    if (!ok && error)
        *error = QObject::tr("Cannot write the token file %1: %2.").arg(path, f.errorString());
    return ok;
}

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
