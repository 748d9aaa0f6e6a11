// The window reads a server's token back from a real GNOME Keyring (private D-Bus session bus,
// tests/keychain/keyringsession.h): eddyctl --token puts it there, the window opens the same
// database (with the vault the program installs, app/keychain) and is let in by the real server
// (--token): the server's tools are listed. The database never holds the token.
#include "app/keychain/vault.h"
#include "app/secret.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "tests/keychain/keyringsession.h"
#include "models/enginebridge.h"
#include "models/tasktablemodel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using namespace Eddy::Test;
using Store::TaskStatus;

class tst_KeychainWindow : public QObject
{
    Q_OBJECT

private slots:
    void windowReadsTheTokenFromTheKeyring();
};

void tst_KeychainWindow::windowReadsTheTokenFromTheKeyring()
{
    const QString token = QStringLiteral("kcw-tok-3e8d5b7a1c9f4d20");
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--token"), token}), qPrintable(server.errorString()));
    KeyringSession keyring;
    QString error;
    QVERIFY2(keyring.start(&error), qPrintable(error));
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("w.sqlite"));
    const CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("--token"), token,
                             QStringLiteral("discover"), server.url()},
                            s_wait, keyring.environment());
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(keyring.secrets().contains(token.toUtf8()), "the token is not in the keyring");
    QVERIFY2(!databaseBytes(db).contains(token.toUtf8()), "the token is in the database file");

    // This process is the window: on the keyring's bus, with the vault eddy's main() installs.
    const auto env = keyring.environment();
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        qputenv(it.key().toUtf8().constData(), it.value().toUtf8());
    QStringList told;
    auto vault = std::make_unique<Keychain::Vault>(Keychain::Vault::defaultFile(),
                                                   [&told](const QString &m) { told << m; });
    setSecretVault(vault.get());
    {
        auto app = E2eWindow::open(db);
        QVERIFY(app);
        const qint64 serverId = app->addServer(server.url(), QString(), QString());
        QVERIFY(serverId > 0);
        // A short case from the window: the server takes it (and the task completes) only if the
        // keyring's token went with the requests.
        MainWindow &w = *app->window();
        app->bridge()->callOnce(serverId, QStringLiteral("run_cfd_case"),
                                R"({"reynolds":100,"grid":12,"max_iterations":60})",
                                w.currentSession());
        QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 1,
                                  120000);
    }
    setSecretVault(nullptr);
    QVERIFY2(told.isEmpty(), qPrintable(told.join(QLatin1Char('\n'))));
    QVERIFY2(!databaseBytes(db).contains(token.toUtf8()), "the token is in the database file");
    keyring.stop();
    server.terminate();
}

QTEST_MAIN(tst_KeychainWindow)
#include "tst_keychainwindow.moc"
