// Where bearer tokens live (docs/user-guide.md, "Where secrets live"), with real components: a
// real GNOME Keyring (gnome-keyring-daemon, unlocked with a known password) on a private D-Bus
// session bus this test starts, with HOME and the XDG folders in the test's temporary folder so
// that nothing touches the user's own keyring; the real eddyctl; the real eddy-cfd-server asking
// for the token (--token); real SQLite files, read back as bytes (the file and its WAL).
//  (a) eddyctl --token puts the token into the keyring, never into the database, and a later run
//      without --token reads it back from the keyring and is let in;
//  (b) a schema-9 file holding a plain token: after eddyctl opens it, the row holds only the
//      reference, the token is in the keyring and the requests still carry it;
//  (c) no session bus: eddyctl says once that it uses the owner-only file, which is 0600 and
//      holds the token; the database holds none.
#include "app/store/taskstore.h"
#include "tests/common/ctlprocess.h"
#include "tests/keychain/keyringsession.h"
#include "tests/common/testserver.h"

#include <QDBusConnection>
#include <QDBusError>
#include <QDBusVirtualObject>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Eddy;
using namespace Eddy::Test;

namespace {

// A Secret Service that owns its name on the bus and never answers a call.
class SilentService final : public QDBusVirtualObject
{
public:
    QString introspect(const QString &) const override { return {}; }
    bool handleMessage(const QDBusMessage &, const QDBusConnection &) override { return true; }
};

} // namespace

class tst_Keychain : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tokenGoesToTheKeyring();
    void migrationMovesPlainTokens();
    void noSessionBusUsesTheOwnerOnlyFile();
    void hangingSecretServiceFallsBackToTheFile();
    void cleanupTestCase();

private:
    TestServer m_server;
    QTemporaryDir m_dir;
    const QString m_token = QStringLiteral("kc-tok-7d1f0c2e9b5a4f63");
};

void tst_Keychain::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--token"), m_token}),
             qPrintable(m_server.errorString()));
}

void tst_Keychain::cleanupTestCase()
{
    m_server.terminate();
}

void tst_Keychain::tokenGoesToTheKeyring()
{
    KeyringSession keyring;
    QString error;
    QVERIFY2(keyring.start(&error), qPrintable(error));
    const QString db = m_dir.filePath(QStringLiteral("a.sqlite"));

    CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--token"), m_token,
                       QStringLiteral("discover"), m_server.url()},
                      s_wait, keyring.environment());
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(!r.err.contains("No Secret Service"), r.err.constData());

    QVERIFY2(keyring.secrets().contains(m_token.toUtf8()), keyring.secrets().constData());
    QVERIFY2(!databaseBytes(db).contains(m_token.toUtf8()), "the token is in the database file");
    const auto rows = query(db, QStringLiteral("SELECT token, token_ref FROM servers"), 10000);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0][0], QString());
    QVERIFY2(rows[0][1].startsWith(QLatin1String("keychain:")), qPrintable(rows[0][1]));

    // Without --token: the token comes back from the keyring, and the server lets it in.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("discover"), m_server.url()}, s_wait,
               keyring.environment());
    QVERIFY2(r.code == 0, r.err.constData() + r.out);
    QVERIFY2(!databaseBytes(db).contains(m_token.toUtf8()), "the token is in the database file");
    keyring.stop();
}

void tst_Keychain::migrationMovesPlainTokens()
{
    const QString db = m_dir.filePath(QStringLiteral("b.sqlite"));
    {
        // A file of schema 9: the server row holds the token itself, as Eddy kept it then.
        Store::TaskStore store; // no vault in this process: the token stays in the row
        QVERIFY2(store.open(db), qPrintable(store.lastError()));
        Store::ServerRecord rec;
        rec.url = m_server.url();
        rec.name = QStringLiteral("cfd");
        rec.token = m_token;
        QVERIFY(store.addServer(rec));
        QVERIFY2(store.database().exec(QStringLiteral("ALTER TABLE servers DROP COLUMN token_ref"))
                     && store.database().setUserVersion(9),
                 qPrintable(store.lastError()));
    }
    QVERIFY(databaseBytes(db).contains(m_token.toUtf8())); // what the migration has to move

    KeyringSession keyring;
    QString error;
    QVERIFY2(keyring.start(&error), qPrintable(error));
    // No --token: the request carries the token the database held.
    const CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("discover"), m_server.url()},
                            s_wait, keyring.environment());
    QVERIFY2(r.code == 0, r.err.constData() + r.out);
    QCOMPARE(query(db, QStringLiteral("SELECT user_version FROM pragma_user_version"), 10000)
                 .value(0).value(0),
             QString::number(Store::TaskStore::SchemaVersion));
    const auto rows = query(db, QStringLiteral("SELECT token, token_ref FROM servers"), 10000);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0][0], QString());
    QVERIFY2(rows[0][1].startsWith(QLatin1String("keychain:")), qPrintable(rows[0][1]));
    QVERIFY2(keyring.secrets().contains(m_token.toUtf8()), keyring.secrets().constData());
    QVERIFY2(!databaseBytes(db).contains(m_token.toUtf8()), "the token is still in the database file");

    // And a run after that still gets in with it.
    const CtlRun again = runCtl({QStringLiteral("--db"), db, QStringLiteral("discover"),
                                 m_server.url()},
                                s_wait, keyring.environment());
    QVERIFY2(again.code == 0, again.err.constData() + again.out);
    keyring.stop();
}

void tst_Keychain::noSessionBusUsesTheOwnerOnlyFile()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QDir(home.path()).mkpath(QStringLiteral("run"));
    const QHash<QString, QString> env{
        {QStringLiteral("HOME"), home.path()},
        {QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data"))},
        {QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config"))},
        {QStringLiteral("XDG_RUNTIME_DIR"), home.filePath(QStringLiteral("run"))}, // no bus in it
        {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString()},
        {QStringLiteral("DISPLAY"), QString()}};
    const QString db = m_dir.filePath(QStringLiteral("c.sqlite"));
    CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--token"), m_token,
                       QStringLiteral("discover"), m_server.url()},
                      s_wait, env);
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.err.count("No Secret Service answered"), 1); // said once
    const QString file = home.filePath(QStringLiteral("data/Eddy/eddy/oauth-tokens.json"));
    QVERIFY2(r.err.contains(file.toUtf8()), r.err.constData());
    QVERIFY2(fileBytes(file).contains(m_token.toUtf8()), qPrintable(file));
    QCOMPARE(QFileInfo(file).permissions(),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser
                 | QFileDevice::WriteUser);
    QVERIFY2(!databaseBytes(db).contains(m_token.toUtf8()), "the token is in the database file");
    const auto rows = query(db, QStringLiteral("SELECT token, token_ref FROM servers"), 10000);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0][0], QString());
    QVERIFY2(rows[0][1].startsWith(QLatin1String("file:")), qPrintable(rows[0][1]));

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("discover"), m_server.url()}, s_wait, env);
    QVERIFY2(r.code == 0, r.err.constData() + r.out);
}

// A Secret Service that takes the call and never answers: eddyctl gives up after its time limit,
// says so once, keeps the token in the owner-only file and finishes its command.
void tst_Keychain::hangingSecretServiceFallsBackToTheFile()
{
    KeyringSession bus;
    QString error;
    QVERIFY2(bus.start(&error, false), qPrintable(error));
    SilentService silent;
    {
        QDBusConnection c = QDBusConnection::connectToBus(bus.address(), QStringLiteral("silent"));
        QVERIFY2(c.isConnected(), qPrintable(c.lastError().message()));
        QVERIFY(c.registerVirtualObject(QStringLiteral("/"), &silent, QDBusConnection::SubPath));
        QVERIFY(c.registerService(QStringLiteral("org.freedesktop.secrets")));
    }
    const QString db = m_dir.filePath(QStringLiteral("d.sqlite"));
    const auto env = bus.environment();
    const CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--token"), m_token,
                             QStringLiteral("discover"), m_server.url()},
                            s_wait, env);
    QDBusConnection::disconnectFromBus(QStringLiteral("silent"));
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.err.count("No Secret Service answered"), 1);
    QVERIFY2(r.err.contains("did not answer within"), r.err.constData());
    const QString file = env.value(QStringLiteral("XDG_DATA_HOME"))
                         + QStringLiteral("/Eddy/eddy/oauth-tokens.json");
    QVERIFY2(fileBytes(file).contains(m_token.toUtf8()), qPrintable(file));
    QVERIFY2(!databaseBytes(db).contains(m_token.toUtf8()), "the token is in the database file");
    bus.stop();
}

QTEST_GUILESS_MAIN(tst_Keychain)
#include "tst_keychain.moc"
