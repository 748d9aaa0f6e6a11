#include "app/keychain/vault.h"

#include <qt6keychain/keychain.h>

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

namespace Eddy::Keychain {

namespace {
const QString s_service = QStringLiteral("Eddy");
const QString s_secrets = QStringLiteral("secrets");

QString tr(const char *text)
{
    return QCoreApplication::translate("Eddy::Keychain::Vault", text);
}

// Runs one QtKeychain job to its end or to the time limit, on this thread's event loop. A job
// that does not finish in time is left to delete itself if it ever does; nothing waits for it.
bool runJob(QKeychain::Job *job, int timeoutMs, QKeychain::Error *error, QString *errorString)
{
    job->setAutoDelete(true);
    QEventLoop loop;
    bool done = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&](QKeychain::Job *j) {
        done = true;
        *error = j->error();
        *errorString = j->errorString();
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->start();
    if (!done)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return done;
}
} // namespace

QString Vault::defaultFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/Eddy/eddy/oauth-tokens.json");
}

const QString &Vault::keychainPrefix()
{
    static const QString p = QStringLiteral("keychain:");
    return p;
}

const QString &Vault::filePrefix()
{
    static const QString p = QStringLiteral("file:");
    return p;
}

Vault::Vault(QString file, Tell tell, int timeoutMs)
    : m_file(std::move(file)), m_tell(std::move(tell)), m_timeoutMs(timeoutMs)
{
}

void Vault::tell(const QString &message)
{
    QMutexLocker lock(&m_mutex);
    if (m_told.contains(message))
        return;
    m_told.append(message);
    if (m_tell)
        m_tell(message);
}

bool Vault::sessionBusReachable(QString *why) const
{
    // Without a session bus QtKeychain's libsecret would try to autolaunch one; a headless login
    // node has none, and then the file is the answer at once.
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return true;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo::exists(runtime + QStringLiteral("/bus")))
        return true;
    *why = tr("there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
    return false;
}

void Vault::keychainFailed(const QString &why)
{
    if (m_keychainDown)
        return;
    m_keychainDown = true;
    m_downReason = why;
    tell(tr("No Secret Service answered (%1); tokens are kept in the owner-only file %2 "
            "instead, never in the database. Start a desktop session with GNOME Keyring or "
            "KWallet to keep them in the keychain.")
             .arg(why, m_file));
}

Vault::Outcome Vault::keychainWrite(const QString &key, const QString &value, QString *why)
{
    if (!sessionBusReachable(why))
        return Outcome::Down;
    auto *job = new QKeychain::WritePasswordJob(s_service);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->setTextData(value);
    QKeychain::Error error = QKeychain::NoError;
    QString text;
    if (!runJob(job, m_timeoutMs, &error, &text)) {
        *why = tr("the Secret Service did not answer within %1 s").arg(m_timeoutMs / 1000.0);
        return Outcome::Down;
    }
    if (error == QKeychain::NoError)
        return Outcome::Ok;
    *why = text;
    return Outcome::Down;
}

Vault::Outcome Vault::keychainRead(const QString &key, QString *value, QString *why)
{
    if (!sessionBusReachable(why))
        return Outcome::Down;
    auto *job = new QKeychain::ReadPasswordJob(s_service);
    job->setInsecureFallback(false);
    job->setKey(key);
    QKeychain::Error error = QKeychain::NoError;
    QString text;
    // The job deletes itself after finished: its data is read in the finished handler's wake,
    // before control returns to the event loop.
    QString data;
    QObject::connect(job, &QKeychain::Job::finished, job, [&data, job] { data = job->textData(); });
    if (!runJob(job, m_timeoutMs, &error, &text)) {
        *why = tr("the Secret Service did not answer within %1 s").arg(m_timeoutMs / 1000.0);
        return Outcome::Down;
    }
    if (error == QKeychain::NoError) {
        *value = data;
        return Outcome::Ok;
    }
    if (error == QKeychain::EntryNotFound) {
        *why = text;
        return Outcome::NotFound;
    }
    *why = text;
    return Outcome::Down;
}

void Vault::keychainDelete(const QString &key)
{
    QString why;
    if (m_keychainDown || !sessionBusReachable(&why))
        return;
    auto *job = new QKeychain::DeletePasswordJob(s_service);
    job->setInsecureFallback(false);
    job->setKey(key);
    QKeychain::Error error = QKeychain::NoError;
    QString text;
    if (!runJob(job, m_timeoutMs, &error, &text))
        keychainFailed(tr("the Secret Service did not answer within %1 s").arg(m_timeoutMs / 1000.0));
}

bool Vault::fileWrite(const QString &key, const QString *value, QString *error)
{
    QJsonObject all;
    {
        QFile in(m_file);
        if (in.open(QIODevice::ReadOnly))
            all = QJsonDocument::fromJson(in.readAll()).object();
    }
    QJsonObject secrets = all.value(s_secrets).toObject();
    if (value)
        secrets.insert(key, *value);
    else if (!secrets.contains(key))
        return true;
    else
        secrets.remove(key);
    all.insert(s_secrets, secrets);
    return writeOwnerOnlyJson(m_file, all, error);
}

std::optional<QString> Vault::fileRead(const QString &key) const
{
    QFile in(m_file);
    if (!in.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonValue v = QJsonDocument::fromJson(in.readAll()).object().value(s_secrets)
                             .toObject().value(key);
    if (!v.isString())
        return std::nullopt;
    return v.toString();
}

QString Vault::put(const QString &key, const QString &value, QString *error)
{
    QMutexLocker lock(&m_mutex);
    if (!m_keychainDown) {
        QString why;
        if (keychainWrite(key, value, &why) == Outcome::Ok) {
            const QString ref = keychainPrefix() + key;
            m_cache.insert(ref, value);
            fileWrite(key, nullptr, nullptr); // an older copy in the file goes
            return ref;
        }
        keychainFailed(why);
    }
    if (!fileWrite(key, &value, error))
        return {};
    const QString ref = filePrefix() + key;
    m_cache.insert(ref, value);
    return ref;
}

std::optional<QString> Vault::get(const QString &reference, QString *error)
{
    QMutexLocker lock(&m_mutex);
    if (const auto it = m_cache.constFind(reference); it != m_cache.constEnd())
        return *it;
    if (reference.startsWith(filePrefix())) {
        const auto v = fileRead(reference.mid(filePrefix().size()));
        if (v)
            m_cache.insert(reference, *v);
        else if (error)
            *error = tr("The token file %1 holds no secret \"%2\".")
                         .arg(m_file, reference.mid(filePrefix().size()));
        return v;
    }
    if (!reference.startsWith(keychainPrefix())) {
        if (error)
            *error = tr("\"%1\" names no place where Eddy keeps secrets.").arg(reference);
        return std::nullopt;
    }
    const QString key = reference.mid(keychainPrefix().size());
    if (m_keychainDown) {
        if (error)
            *error = tr("The secret \"%1\" is in the keychain, and the Secret Service does not "
                        "answer here (%2).")
                         .arg(key, m_downReason);
        return std::nullopt;
    }
    QString value, why;
    switch (keychainRead(key, &value, &why)) {
    case Outcome::Ok:
        m_cache.insert(reference, value);
        return value;
    case Outcome::NotFound:
        if (error)
            *error = tr("The keychain holds no secret \"%1\"; give the token again.").arg(key);
        return std::nullopt;
    case Outcome::Down:
        keychainFailed(why);
        if (error)
            *error = tr("The secret \"%1\" is in the keychain, and the Secret Service does not "
                        "answer here (%2).")
                         .arg(key, why);
        return std::nullopt;
    }
    return std::nullopt;
}

void Vault::remove(const QString &reference)
{
    QMutexLocker lock(&m_mutex);
    m_cache.remove(reference);
    if (reference.startsWith(filePrefix()))
        fileWrite(reference.mid(filePrefix().size()), nullptr, nullptr);
    else if (reference.startsWith(keychainPrefix()))
        keychainDelete(reference.mid(keychainPrefix().size()));
}

} // namespace Eddy::Keychain
