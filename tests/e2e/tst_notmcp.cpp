#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTranslator>

#include <memory>

using namespace Eddy;

// A URL that answers HTTP but is no MCP server, in a language whose translation of the account
// shares no word with the English one (issue 14, item 5): the real window (offscreen) with
// Eddy's German translation, against a real HTTP server on loopback that is a web site. The
// reference server cannot be one: at a wrong path it answers a JSON-RPC error.
class tst_NotMcp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void webPageIsNotAnMcpServerInGerman();
    void cleanupTestCase();

private:
    QTemporaryDir m_dir;
    QThread m_thread;
    Monitor::Engine *m_engine = nullptr;
    std::unique_ptr<EngineBridge> m_bridge;
    std::unique_ptr<MainWindow> m_window;
};

// Every 404 page a web site gives to a JSON-RPC POST (as https://example.org/ would).
class WebSite final : public QTcpServer
{
public:
    WebSite()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->setProperty("in", s->property("in").toByteArray() + s->readAll());
                    const QByteArray in = s->property("in").toByteArray();
                    const qsizetype end = in.indexOf("\r\n\r\n");
                    if (end < 0 || s->property("answered").toBool())
                        return;
                    qsizetype length = 0;
                    for (const QByteArray &line : in.left(end).split('\n')) {
                        if (line.toLower().startsWith("content-length:"))
                            length = line.mid(15).trimmed().toLongLong();
                    }
                    if (in.size() < end + 4 + length)
                        return;
                    s->setProperty("answered", true);
                    const QByteArray page = "<!doctype html><html><body><h1>Nicht gefunden</h1></body></html>";
                    s->write("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: "
                             + QByteArray::number(page.size()) + "\r\nConnection: close\r\n\r\n" + page);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
};

// The account of a not-MCP URL worded as a translator may word it: fully German, its four
// placeholders in their own order, not one English word kept. (The lead translates the real
// string once for all; this stands in for it.)
class GermanNotMcp final : public QTranslator
{
public:
    QString translate(const char *context, const char *, const char *, int) const override
    {
        if (qstrcmp(context, "Eddy::Mcp::NotMcp") == 0)
            return QStringLiteral("%1 antwortete, ist aber kein MCP-Server (HTTP %2 auf POST %3 für "
                                  "%4): Prüfen Sie den Pfad der URL, z. B. /mcp.");
        return {};
    }
    bool isEmpty() const override { return false; }
};

void tst_NotMcp::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_notmcp"));
    QSettings().clear();
    installUiTranslations(qApp, QStringLiteral("de"));
    qApp->installTranslator(new GermanNotMcp(/* searched first */));
    QVERIFY(m_dir.isValid());
    m_thread.start();
    m_engine = new Monitor::Engine;
    m_engine->moveToThread(&m_thread);
    m_bridge = std::make_unique<EngineBridge>(m_engine);
    m_window = std::make_unique<MainWindow>(m_bridge.get());
    QSignalSpy opened(m_engine, &Monitor::Engine::opened);
    QSignalSpy loaded(m_window.get(), &MainWindow::snapshotLoaded);
    const QString db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [engine, db] { engine->open(db); });
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
    QVERIFY(opened.first().first().toBool());
    m_window->start();
    m_window->resize(1280, 800);
    m_window->show();
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() >= 1, 30000);
}

void tst_NotMcp::webPageIsNotAnMcpServerInGerman()
{
    WebSite site;
    QVERIFY(site.listen(QHostAddress::LocalHost, 0));
    const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(site.serverPort());
    m_bridge->addServer(url, QStringLiteral("Webseite"), QString());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->serverModel()->rowCount(), 1, 30000);
    const QModelIndex index = m_window->serverModel()->index(0);
    const QString expected = QStringLiteral("http://127.0.0.1:%1 antwortete, ist aber kein MCP-Server (HTTP 404 "
                                            "auf POST / für ")
                                 .arg(site.serverPort());
    QTRY_VERIFY2_WITH_TIMEOUT(index.data(ServerListModel::MessageRole).toString().startsWith(expected),
                              qPrintable(index.data(ServerListModel::MessageRole).toString()), 60000);
    const QString message = index.data(ServerListModel::MessageRole).toString();
    QVERIFY2(!message.contains(QLatin1String("not as an MCP server")), qPrintable(message));
    QCOMPARE(index.data(ServerListModel::StateRole).toInt(), int(ServerListModel::State::Unreachable));
    // Still told apart from a server that is down: in the tooltip and in the status bar.
    const QString tip = index.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(ServerListModel::tr("Not an MCP server")), qPrintable(tip));
    QVERIFY2(!tip.contains(ServerListModel::stateText(ServerListModel::State::Unreachable)), qPrintable(tip));
    auto *activity = m_window->findChild<QLabel *>(QStringLiteral("serverActivity"));
    QVERIFY(activity);
    QTRY_COMPARE_WITH_TIMEOUT(activity->text(),
                              ServerListModel::tr("%1 is not an MCP server: %2").arg(QStringLiteral("Webseite"), message),
                              10000);
}

void tst_NotMcp::cleanupTestCase()
{
    if (m_window)
        m_window->close();
    m_window.reset();
    m_bridge.reset();
    if (m_engine) {
        Monitor::Engine *engine = m_engine;
        QMetaObject::invokeMethod(engine, [engine] {
            engine->close();
            delete engine;
        }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

QTEST_MAIN(tst_NotMcp)
#include "tst_notmcp.moc"
