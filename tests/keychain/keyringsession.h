#pragma once

// A private D-Bus session bus with an unlocked GNOME Keyring on it, for the keychain tests.
#include "tests/common/ctlprocess.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

namespace Eddy::Test {


inline const CtlTimeouts s_wait{30000, 120000, 10000};

inline QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The database and its WAL and shared-memory files, as bytes: where a token must not be.
inline QByteArray databaseBytes(const QString &db)
{
    return fileBytes(db) + fileBytes(db + QStringLiteral("-wal")) + fileBytes(db + QStringLiteral("-shm"));
}

inline QString missing(const QString &program, const char *package)
{
    return QStringLiteral("%1 is not installed; install the Debian package %2 (.ci/install-deps "
                          "--tests)")
        .arg(program, QLatin1String(package));
}

// A private D-Bus session bus with an unlocked GNOME Keyring on it, in a folder of its own.
class KeyringSession
{
public:
    ~KeyringSession() { stop(); }

    // withKeyring false: the bus alone, for a Secret Service the test plays itself.
    bool start(QString *error, bool withKeyring = true)
    {
        for (const auto &[program, package] : {std::pair{"dbus-daemon", "dbus-daemon"},
                                               std::pair{"gnome-keyring-daemon", "gnome-keyring"},
                                               std::pair{"secret-tool", "libsecret-tools"}}) {
            if (QStandardPaths::findExecutable(QLatin1String(program)).isEmpty()) {
                *error = missing(QLatin1String(program), package);
                return false;
            }
        }
        const QString root = m_dir.path();
        for (const char *sub : {"home", "data", "config", "cache", "run", "bus"})
            QDir(root).mkpath(QLatin1String(sub));
        QFile::setPermissions(root + QStringLiteral("/run"), QFileDevice::ReadOwner
                                  | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // No service folders: nothing is started on demand, only what this test starts.
        const QString conf = root + QStringLiteral("/session.conf");
        QFile c(conf);
        if (!c.open(QIODevice::WriteOnly))
            return fail(error, QStringLiteral("cannot write %1").arg(conf));
        c.write(QStringLiteral(
                    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                    " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                    "<busconfig><type>session</type><listen>unix:dir=%1</listen>"
                    "<auth>EXTERNAL</auth><policy context=\"default\">"
                    "<allow send_destination=\"*\" eavesdrop=\"true\"/><allow eavesdrop=\"true\"/>"
                    "<allow own=\"*\"/></policy></busconfig>\n")
                    .arg(root + QStringLiteral("/bus"))
                    .toUtf8());
        c.close();
        m_bus.start(QStringLiteral("dbus-daemon"),
                    {QStringLiteral("--config-file=") + conf, QStringLiteral("--nofork"),
                     QStringLiteral("--print-address=1")});
        if (!m_bus.waitForStarted(30000))
            return fail(error, QStringLiteral("dbus-daemon did not start: ") + m_bus.errorString());
        while (!m_bus.canReadLine() && m_bus.state() == QProcess::Running)
            m_bus.waitForReadyRead(1000);
        m_address = QString::fromUtf8(m_bus.readLine()).trimmed();
        if (m_address.isEmpty())
            return fail(error, QStringLiteral("dbus-daemon printed no address: ")
                                   + QString::fromUtf8(m_bus.readAllStandardError()));

        if (!withKeyring)
            return true;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const auto mine = environment();
        for (auto it = mine.cbegin(); it != mine.cend(); ++it)
            env.insert(it.key(), it.value());
        m_keyring.setProcessEnvironment(env);
        // --unlock reads the password of the login keyring on stdin; the first run creates it.
        m_keyring.start(QStringLiteral("gnome-keyring-daemon"),
                        {QStringLiteral("--foreground"), QStringLiteral("--unlock"),
                         QStringLiteral("--components=secrets")});
        if (!m_keyring.waitForStarted(30000))
            return fail(error, QStringLiteral("gnome-keyring-daemon did not start: ")
                                   + m_keyring.errorString());
        m_keyring.write("test-keyring-password");
        m_keyring.waitForBytesWritten(30000); // no event loop runs here to write it later
        m_keyring.closeWriteChannel();
        // Ready once org.freedesktop.secrets takes an item (secret-tool exits 0 only then).
        QByteArray probeError;
        for (int i = 0; i < 600 && m_keyring.state() == QProcess::Running; ++i) {
            QProcess probe;
            probe.setProcessEnvironment(env);
            probe.start(QStringLiteral("secret-tool"),
                        {QStringLiteral("store"), QStringLiteral("--label=eddy-test"),
                         QStringLiteral("eddy-test"), QStringLiteral("ready")});
            probe.waitForStarted(30000);
            probe.write("probe");
            probe.waitForBytesWritten(30000);
            probe.closeWriteChannel();
            probe.waitForFinished(30000);
            if (probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
                return true;
            probeError = probe.readAllStandardError();
            QThread::msleep(100);
        }
        return fail(error, QStringLiteral("gnome-keyring-daemon did not come up on the bus (%1): %2 %3")
                               .arg(m_keyring.state() == QProcess::Running ? "running" : "exited",
                                    QString::fromUtf8(m_keyring.readAllStandardError()),
                                    QString::fromUtf8(probeError)));
    }

    void stop()
    {
        for (QProcess *p : {&m_keyring, &m_bus}) {
            if (p->state() == QProcess::NotRunning)
                continue;
            p->terminate();
            if (!p->waitForFinished(10000)) {
                p->kill();
                p->waitForFinished(10000);
            }
        }
    }

    // The variables eddyctl and secret-tool run with.
    QString address() const { return m_address; }

    QHash<QString, QString> environment() const
    {
        const QString root = m_dir.path();
        return {{QStringLiteral("HOME"), root + QStringLiteral("/home")},
                {QStringLiteral("XDG_DATA_HOME"), root + QStringLiteral("/data")},
                {QStringLiteral("XDG_CONFIG_HOME"), root + QStringLiteral("/config")},
                {QStringLiteral("XDG_CACHE_HOME"), root + QStringLiteral("/cache")},
                {QStringLiteral("XDG_RUNTIME_DIR"), root + QStringLiteral("/run")},
                {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_address}};
    }

    // Everything the keyring holds for the service "Eddy", as secret-tool prints it.
    QByteArray secrets() const
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const auto mine = environment();
        for (auto it = mine.cbegin(); it != mine.cend(); ++it)
            env.insert(it.key(), it.value());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("secret-tool"),
                {QStringLiteral("search"), QStringLiteral("--all"), QStringLiteral("--unlock"),
                 QStringLiteral("server"), QStringLiteral("Eddy")});
        p.waitForFinished(60000);
        return p.readAllStandardOutput() + p.readAllStandardError();
    }

private:
    static bool fail(QString *error, const QString &text)
    {
        *error = text;
        return false;
    }

    QTemporaryDir m_dir;
    QProcess m_bus;
    QProcess m_keyring;
    QString m_address;
};


} // namespace Eddy::Test
