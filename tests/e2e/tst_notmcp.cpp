#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/net/website.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
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
    std::unique_ptr<Test::E2eWindow> m_app;
    MainWindow *m_window = nullptr; // m_app's
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
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")));
    QVERIFY(m_app);
    m_window = m_app->window();
}

void tst_NotMcp::webPageIsNotAnMcpServerInGerman()
{
    Test::WebSite site("Nicht gefunden");
    QVERIFY(site.listen());
    m_app->bridge()->addServer(site.url(), QStringLiteral("Webseite"), QString());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->serverModel()->rowCount(), 1, 30000);
    const QModelIndex index = m_window->serverModel()->index(0);
    const QString expected = QStringLiteral("http://127.0.0.1:%1 antwortete, ist aber kein MCP-Server (HTTP 404 "
                                            "auf POST / für ")
                                 .arg(site.port());
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
    m_app.reset();
}

QTEST_MAIN(tst_NotMcp)
#include "tst_notmcp.moc"
