// Task ids and bearer tokens are secrets (docs/design.md): a real flow against the real server
// started with --token and --log-level debug — the GUI main window (offscreen) running a sweep
// with mesh questions answered in the dialog, and eddyctl with debug logging — then every log
// (Qt messages of this process, eddyctl stdout/stderr, the server's log file) and every top-level
// window title seen during the run is searched for each server task id and the token. Then the
// same after an OAuth sign-in: the window signs in at a real OpenID provider through its browser
// hook and runs a sweep, and neither the access token nor the refresh token is in the SQLite file
// (raw bytes, with its WAL), a log, a window title or a CSV, JSON or HTML export.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/oidcprovider.h"
#include "tests/common/testserver.h"
#include "tests/reliability/ctlsupport.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/schemaform.h"
#include "widgets/taskmonitor.h"

#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QLoggingCategory>
#include <QMutex>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace Eddy;
using namespace Eddy::Test;

namespace {

QMutex s_logMutex;
QByteArray s_log; // every Qt message of this process, whatever its category or level
QtMessageHandler s_previous = nullptr;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        QMutexLocker lock(&s_logMutex);
        s_log += QByteArray(context.category ? context.category : "") + ": " + message.toUtf8() + '\n';
    }
    if (s_previous && type != QtDebugMsg)
        s_previous(type, context, message);
}

} // namespace

class tst_Secrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void guiFlowLogsNoSecret();
    void eddyctlPrintsNoSecret();
    void nothingAnywhereHoldsASecret();
    void oauthTokensStayInTheTokenFile();
    void cleanupTestCase();

private:
    void collectTitles();

    TestServer m_server;
    QTemporaryDir m_dir;
    QByteArray m_token;
    QSet<QString> m_titles;
    QByteArray m_ctlOutput;
    int m_ctlRuns = 0;
};

void tst_Secrets::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_secrets"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    // Every eddy category at debug: the most talkative configuration must still be clean.
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*=true"));
    s_previous = qInstallMessageHandler(captureMessage);
    m_token = QByteArray::number(QRandomGenerator::global()->generate64(), 16)
              + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    QVERIFY2(m_server.start({QStringLiteral("--token"), QString::fromLatin1(m_token),
                             QStringLiteral("--log-level"), QStringLiteral("debug"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("200"),
                             QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(m_server.errorString()));
}

void tst_Secrets::collectTitles()
{
    for (QWidget *w : QApplication::topLevelWidgets())
        m_titles.insert(w->windowTitle());
}

void tst_Secrets::guiFlowLogsNoSecret()
{
    QTimer titles;
    connect(&titles, &QTimer::timeout, this, &tst_Secrets::collectTitles);
    titles.start(20);

    const QString db = m_dir.filePath(QStringLiteral("gui.sqlite"));
    Test::E2eWindowOptions options;
    options.size = QSize();
    options.beforeStart = [](Test::E2eWindow &app) {
        app.window()->setOpenDialogsAutomatically(true); // the pop-up's title is collected too
    };
    auto app = Test::E2eWindow::open(db, options);
    QVERIFY(app);
    MainWindow *window = app->window();
    EngineBridge *bridge = app->bridge();
    QTRY_VERIFY_WITH_TIMEOUT(window->currentSession().has_value(), 30000);

    QVERIFY(
        app->addServer(m_server.url(), QStringLiteral("Secret CFD"), QString::fromLatin1(m_token)));
    QCOMPARE(window->serverModel()->rowCount(), 1);
    const qint64 serverId = window->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    bridge->submitSweep(serverId, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 12, "max_iterations": 60},
        "vary": {"reynolds": {"list": [100, 400]}, "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 4})", window->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(window->taskModel()->rowCount(), 4, 60000);

    // Answer the mesh questions in the dialog (its title is collected too), open each case.
    QDeadlineTimer deadline(240000);
    int answered = 0;
    while (window->taskModel()->statusCounts().value(Store::TaskStatus::Completed) < 4
           && !deadline.hasExpired()) {
        if (ElicitationDialog *d = window->currentDialog(); d && d->isVisible() && !d->panel()->isGuarded()) {
            collectTitles();
            auto *action = qobject_cast<QComboBox *>(d->form()->editor("action"));
            QVERIFY(action);
            action->setCurrentIndex(action->findText(QStringLiteral("Repair the mesh and continue")));
            d->findChild<QPushButton *>(QStringLiteral("accept"))->click();
            ++answered;
        }
        QTest::qWait(50); // the poll step of this answering loop: events run between its looks
    }
    QCOMPARE(window->taskModel()->statusCounts().value(Store::TaskStatus::Completed), 4);
    QVERIFY(answered >= 2);
    for (int row = 0; row < window->taskModel()->rowCount(); ++row) {
        window->monitor()->selectTask(window->taskModel()->taskIdAt(row));
        QTest::qWait(100); // negative check: a title the selection brings, secret or not, has shown by now
        collectTitles();
    }
    // The client really knew the server's ids (so the searches below can find a leak).
    QTRY_COMPARE_WITH_TIMEOUT(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE "
                                                        "length(server_task_id) >= 16")),
                              qint64(4), 30000);

    titles.stop();
    app.reset();
    QVERIFY(m_titles.size() >= 2); // the main window and the question dialog at least
}

void tst_Secrets::eddyctlPrintsNoSecret()
{
    const QString db = m_dir.filePath(QStringLiteral("ctl.sqlite"));
    const QString answers = m_dir.filePath(QStringLiteral("answers.json"));
    QVERIFY(writeFile(answers, R"({"action": "repair"})"));
    qputenv("QT_LOGGING_RULES", "eddy.*=true"); // eddyctl at its most talkative
    const QString url = m_server.url();
    const QString token = QString::fromLatin1(m_token);
    const QList<QStringList> commands{
        {QStringLiteral("discover"), url, QStringLiteral("--token"), token},
        {QStringLiteral("tools"), url, QStringLiteral("--token"), token},
        {QStringLiteral("call"), url, QStringLiteral("run_cfd_case"),
         QStringLiteral(R"({"reynolds": 100, "grid": 12, "max_iterations": 60, "force_mesh_defect": true})"),
         QStringLiteral("--token"), token, QStringLiteral("--wait"), QStringLiteral("--answers"), answers},
        {QStringLiteral("call"), url, QStringLiteral("run_cfd_case"),
         QStringLiteral(R"({"reynolds": 400, "grid": 12, "max_iterations": 60})"),
         QStringLiteral("--token"), token, QStringLiteral("--json")},
        {QStringLiteral("watch"), QStringLiteral("--until-done")},
        {QStringLiteral("tasks"), QStringLiteral("--json")},
        {QStringLiteral("tasks")},
        {QStringLiteral("result"), QStringLiteral("1")},
        {QStringLiteral("result"), QStringLiteral("2"), QStringLiteral("--json")},
        {QStringLiteral("sessions")},
    };
    // No session bus, and a data folder of the test's own: the token goes to the owner-only file
    // there (tests/keychain covers the keyring), never to this user's keychain or data folder.
    const QHash<QString, QString> env{
        {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString()},
        {QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path()},
        {QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data"))}};
    for (const QStringList &args : commands) {
        const CtlRun r = Eddy::Test::runCtl(QStringList{QStringLiteral("--db"), db} + args,
                                            CtlTimeouts{30000, 240000, 10000}, env);
        QVERIFY2(r.code == 0, qPrintable(args.first() + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        m_ctlOutput += r.out + r.err;
        ++m_ctlRuns;
    }
    // A wrong token: the refusal must not echo either token.
    const CtlRun refused = Eddy::Test::runCtl(
        {QStringLiteral("--db"), m_dir.filePath(QStringLiteral("refused.sqlite")),
         QStringLiteral("tools"), url, QStringLiteral("--token"), QStringLiteral("wrong-") + token.left(8)},
        CtlTimeouts{30000, 240000, 10000}, env);
    QVERIFY(refused.code != 0);
    m_ctlOutput += refused.out + refused.err;
    qunsetenv("QT_LOGGING_RULES");
    QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status = 'completed' "
                                       "AND length(server_task_id) >= 16")),
             qint64(2));
    // eddyctl's database holds no token, in the file or its WAL.
    for (const QString &path : {db, db + QStringLiteral("-wal")}) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            QVERIFY2(!f.readAll().contains(m_token), qPrintable(path + QStringLiteral(" holds the token")));
    }
}

void tst_Secrets::nothingAnywhereHoldsASecret()
{
    // The secrets, read from the server's own database: non-trivial and all of them.
    const auto ids = query(m_server.dataDir() + QStringLiteral("/tasks.sqlite"),
                           QStringLiteral("SELECT id FROM tasks"));
    QCOMPARE(ids.size(), 6); // 4 from the GUI sweep, 2 from eddyctl
    QList<QByteArray> secrets{m_token};
    for (const QStringList &row : ids) {
        QVERIFY2(row[0].size() >= 16, "a server task id is too short to be a secret");
        secrets << row[0].toUtf8();
    }
    QVERIFY(m_token.size() >= 16);

    QByteArray serverLog;
    QDirIterator files(m_server.dataDir(), {QStringLiteral("*.log")}, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile f(files.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        serverLog += f.readAll();
    }
    QByteArray clientLog;
    {
        QMutexLocker lock(&s_logMutex);
        clientLog = s_log;
    }
    // The logs are real: each channel said something about the run.
    QVERIFY(serverLog.size() > 200);
    QVERIFY(clientLog.contains("eddy."));
    QVERIFY(m_ctlOutput.size() > 200);
    const QByteArray titles = QStringList(m_titles.values()).join(QLatin1Char('\n')).toUtf8();
    qInfo("searched %lld bytes of server log, %lld of client log, %lld of eddyctl output (%d runs) "
          "and %lld window titles for %lld secrets",
          qint64(serverLog.size()), qint64(clientLog.size()), qint64(m_ctlOutput.size()), m_ctlRuns,
          qint64(m_titles.size()), qint64(secrets.size()));
    for (const QByteArray &secret : secrets) {
        const QByteArray shown = secret.left(6) + "…";
        QVERIFY2(!serverLog.contains(secret), ("the server log holds " + shown).constData());
        QVERIFY2(!clientLog.contains(secret), ("a client log message holds " + shown).constData());
        QVERIFY2(!m_ctlOutput.contains(secret), ("eddyctl printed " + shown).constData());
        QVERIFY2(!titles.contains(secret), ("a window title holds " + shown).constData());
    }
}

void tst_Secrets::oauthTokensStayInTheTokenFile()
{
    OidcProvider provider;
    QString error;
    QVERIFY2(provider.start(error), qPrintable(error));
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--oauth-issuer"), provider.issuer(), QStringLiteral("--oauth-scopes"),
                           QStringLiteral("cfd:run"), QStringLiteral("--log-level"), QStringLiteral("debug"),
                           QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(server.errorString() + QString::fromUtf8(server.standardError())));
    const QString tokenFile = m_dir.filePath(QStringLiteral("oauth-tokens.json"));
    const QString db = m_dir.filePath(QStringLiteral("oauth.sqlite"));
    const auto rawDatabase = [&db] {
        QByteArray bytes;
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
            QFile f(db + suffix);
            if (f.open(QIODevice::ReadOnly))
                bytes += f.readAll();
        }
        return bytes;
    };
    {
        QMutexLocker lock(&s_logMutex);
        s_log.clear();
    }
    m_titles.clear();
    QTimer titles;
    connect(&titles, &QTimer::timeout, this, &tst_Secrets::collectTitles);
    titles.start(20);

    SystemBrowser browser(QStringLiteral("alice"), tokenFile);
    QByteArray database;
    {
        auto app = Test::E2eWindow::open(db);
        QVERIFY(app);
        MainWindow *window = app->window();
        QTRY_VERIFY_WITH_TIMEOUT(window->currentSession().has_value(), 30000);
        // No token given: the window signs in through the browser.
        const qint64 serverId = app->addServer(server.url(), QStringLiteral("Team CFD"));
        QVERIFY2(serverId > 0, browser.output().constData());
        QTRY_COMPARE_WITH_TIMEOUT(browser.signedIn(), 1, 30000);
        app->bridge()->submitSweep(serverId, R"({"tool": "run_cfd_case",
            "fixed": {"grid": 12, "max_iterations": 60},
            "vary": {"reynolds": {"list": [100, 400]}}, "concurrency": 2})",
                                   window->currentSession());
        QTRY_COMPARE_WITH_TIMEOUT(window->taskModel()->rowCount(), 2, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(window->taskModel()->statusCounts().value(Store::TaskStatus::Completed), 2,
                                  240000);
        for (int row = 0; row < window->taskModel()->rowCount(); ++row) {
            window->monitor()->selectTask(window->taskModel()->taskIdAt(row));
            QTest::qWait(100); // negative check: a title the selection brings, secret or not, has shown by now
            collectTitles();
        }
        database = rawDatabase(); // with the window's WAL
    }
    titles.stop();
    database += rawDatabase();

    // The tokens the sign-in got, from Eddy's owner-only token file (their only place).
    const auto stored = Mcp::TokenStore(tokenFile).findForServer(server.url());
    QVERIFY(stored.has_value());
    const QByteArray access = stored->accessToken.toUtf8();
    const QByteArray refresh = stored->refreshToken.toUtf8();
    QVERIFY(access.count('.') == 2 && access.size() > 100);
    QVERIFY(refresh.size() >= 16);
    const QByteArray signature = access.mid(access.lastIndexOf('.') + 1);
    QVERIFY(signature.size() >= 32);

    // The exports of the sweep: CSV, JSON, HTML report.
    const QList<QStringList> sweeps = query(db, QStringLiteral("SELECT id FROM sweeps"));
    QCOMPARE(sweeps.size(), 1);
    QByteArray exports;
    QByteArray ctlOutput;
    for (const QString &format : {QStringLiteral("csv"), QStringLiteral("json")}) {
        const CtlRun r = runCtl({QStringLiteral("--db"), db, QStringLiteral("export"), sweeps[0][0],
                                 QStringLiteral("--format"), format});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("reynolds"));
        exports += r.out;
        ctlOutput += r.err;
    }
    const QString html = m_dir.filePath(QStringLiteral("oauth-report.html"));
    const CtlRun report = runCtl({QStringLiteral("--db"), db, QStringLiteral("report"), sweeps[0][0],
                                  QStringLiteral("-o"), html});
    QVERIFY2(report.code == 0, report.err.constData());
    QFile htmlFile(html);
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    exports += htmlFile.readAll();

    QByteArray logs = server.standardError() + browser.output() + ctlOutput + report.err;
    QDirIterator files(server.dataDir(), {QStringLiteral("*.log")}, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile f(files.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        logs += f.readAll();
    }
    {
        QMutexLocker lock(&s_logMutex);
        logs += s_log;
        QVERIFY(s_log.contains("authorization: got a token")); // the client log saw the sign-in
    }
    const QByteArray titleText = QStringList(m_titles.values()).join(QLatin1Char('\n')).toUtf8();
    QVERIFY(database.size() > 4096);
    QVERIFY(!m_titles.isEmpty());
    qInfo("searched %lld bytes of database, %lld of logs, %lld of exports and %lld window titles for "
          "the access token and the refresh token",
          qint64(database.size()), qint64(logs.size()), qint64(exports.size()), qint64(m_titles.size()));
    // Whole, and any 24 characters of the signature or the refresh token (a log shows at most a
    // token's first 6).
    QList<std::pair<QByteArray, QByteArray>> pieces{{"the access token", access}};
    for (const auto &[name, secret] : {std::pair{QByteArray("its signature"), signature},
                                       std::pair{QByteArray("the refresh token"), refresh}}) {
        for (qsizetype at = 0; at + 24 <= secret.size(); at += 4)
            pieces.append({name + " (from character " + QByteArray::number(at) + ")", secret.mid(at, 24)});
        pieces.append({name, secret.right(24)});
    }
    for (const auto &[name, secret] : pieces) {
        QVERIFY2(!database.contains(secret), ("the database holds " + name).constData());
        QVERIFY2(!logs.contains(secret), ("a log holds " + name).constData());
        QVERIFY2(!titleText.contains(secret), ("a window title holds " + name).constData());
        QVERIFY2(!exports.contains(secret), ("an export holds " + name).constData());
    }
    QVERIFY(server.terminate());
}

void tst_Secrets::cleanupTestCase()
{
    qInstallMessageHandler(s_previous);
}

QTEST_MAIN(tst_Secrets)
#include "tst_secrets.moc"
