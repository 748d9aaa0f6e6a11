#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "widgets/firstrun.h"
#include "widgets/localserver.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Eddy;

// First run against the real eddy-cfd-server binary (EDDY_SERVER_BIN): with no server configured
// Eddy starts the bundled one on a free loopback port, adds it and discovers its tools; a later
// run brings it back on the same port; a missing binary is a clear error.
class tst_FirstRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void startsAndConnects();
    void restartsOnSamePort();
    void explicitServerSkipsLocal();
    void missingBinaryIsAnError();

private:
    QTemporaryDir m_dir;
    QString m_savedUrl;
};

void tst_FirstRun::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_firstrun"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(!LocalServer::findBinary().isEmpty(), "set EDDY_SERVER_BIN (ctest does)");
}

void tst_FirstRun::startsAndConnects()
{
    Monitor::Engine engine; // on the test thread: the core only needs an event loop
    QSignalSpy opened(&engine, &Monitor::Engine::opened);
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("eddy.sqlite"))));
    EngineBridge bridge(&engine);
    FirstRun firstRun(&bridge);
    firstRun.setDataDir(m_dir.filePath(QStringLiteral("server")));
    QSignalSpy ready(&firstRun, &FirstRun::serverReady);
    QSignalSpy servers(&bridge, &EngineBridge::serversReady);
    QSignalSpy tools(&engine, &Monitor::Engine::toolsChanged);

    EngineBridge::Snapshot empty;
    QVERIFY(firstRun.begin(empty, false));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    const QUrl url(ready.first().first().toString());
    QCOMPARE(url.host(), QStringLiteral("127.0.0.1"));
    QVERIFY(url.port() > 0);
    QCOMPARE(url.path(), QStringLiteral("/mcp"));
    QVERIFY(firstRun.server()->isRunning());
    QVERIFY(firstRun.server()->pid() > 0);

    // Added to the database and discovered: the tool list arrives from the real server.
    QTRY_VERIFY_WITH_TIMEOUT(!servers.isEmpty(), 30000);
    const auto list = servers.last().first().value<QList<Store::ServerRecord>>();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first().url, url.toString());
    QTRY_VERIFY_WITH_TIMEOUT(tools.count() >= 1, 60000);
    const auto stored = engine.catalogue().servers();
    QCOMPARE(stored.size(), 1);
    QVERIFY2(stored.first().tools.contains(QLatin1String("run_cfd_case")), qPrintable(stored.first().tools));
    QCOMPARE(QSettings().value(QStringLiteral("localServer/url")).toString(), url.toString());
    m_savedUrl = url.toString();

    // Quit with nothing running: the server stops.
    QVERIFY(firstRun.prepareQuit(nullptr, 0));
    QTRY_VERIFY_WITH_TIMEOUT(!firstRun.server()->isRunning(), 20000);
    engine.close();
}

void tst_FirstRun::restartsOnSamePort()
{
    QVERIFY(!m_savedUrl.isEmpty());
    Monitor::Engine engine;
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("eddy.sqlite"))));
    EngineBridge bridge(&engine);
    FirstRun firstRun(&bridge);
    firstRun.setDataDir(m_dir.filePath(QStringLiteral("server")));
    QSignalSpy ready(&firstRun, &FirstRun::serverReady);
    EngineBridge::Snapshot s;
    s.servers = engine.catalogue().servers();
    QCOMPARE(s.servers.size(), 1);
    QVERIFY(firstRun.begin(s, false));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    // The same URL, so tasks stored against it keep polling; no second server record.
    QCOMPARE(ready.first().first().toString(), m_savedUrl);
    QTest::qWait(200); // negative check: no second server record turns up late
    QCOMPARE(engine.catalogue().servers().size(), 1);
    firstRun.server()->stop();
    QVERIFY(!firstRun.server()->isRunning());
    engine.close();
}

void tst_FirstRun::explicitServerSkipsLocal()
{
    Monitor::Engine engine;
    QTemporaryDir dir;
    QVERIFY(engine.open(dir.filePath(QStringLiteral("other.sqlite"))));
    EngineBridge bridge(&engine);
    QSettings().remove(QStringLiteral("localServer/url"));
    FirstRun firstRun(&bridge);
    EngineBridge::Snapshot empty;
    QVERIFY(!firstRun.begin(empty, true)); // --server given: nothing bundled is started
    QVERIFY(!firstRun.server()->isRunning());
    engine.close();
}

void tst_FirstRun::missingBinaryIsAnError()
{
    LocalServer server;
    QSignalSpy failed(&server, &LocalServer::failed);
    QTemporaryDir dir;
    server.start(dir.filePath(QStringLiteral("no-such-server")), dir.filePath(QStringLiteral("data")));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QLatin1String("could not be started")), qPrintable(message));
    QVERIFY(!server.isRunning());
}

QTEST_MAIN(tst_FirstRun)
#include "tst_firstrun.moc"
