// Two people on one team server (issue 28): eddy-cfd-server --oauth-issuer against the real
// OpenID provider (oidc-provider, tests/auth/provider) on loopback. Alice's window (offscreen,
// built as eddy's main() builds it, with its sign-in settings) is given the server without a
// token: the 401 sends it through discovery, registration, PKCE and the system browser (the
// browser hook starts browser.mjs, which posts her name at the provider's login and consent
// forms) to its loopback listener and a token; her sweep of two cases completes. Bob signs in
// with the real eddyctl in his own data folder (EDDY_BROWSER, the same browser as bob) and is
// handed alice's task id: importing, cancelling, answering, watching it and asking for its
// result answer him exactly as for a task id nobody issued, and alice's task stays completed
// with its result.
#include "app/mcp/oauth.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/oidcprovider.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;
using namespace Eddy::Test;

namespace {

// The claims of a JWT, unverified (the server verified it; this only reads whose it is).
QJsonObject claimsOf(const QString &jwt)
{
    const QStringList parts = jwt.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    return QJsonDocument::fromJson(QByteArray::fromBase64(parts[1].toLatin1(), QByteArray::Base64UrlEncoding))
        .object();
}

// Same length and alphabet as a real id, never issued.
QString unknownLike(const QString &id)
{
    QString other = id;
    for (QChar &c : other)
        c = c == QLatin1Char('f') ? QLatin1Char('0') : QLatin1Char('f');
    return other;
}

CtlRun ctl(const QStringList &args, const QHash<QString, QString> &env)
{
    return runCtl(args, CtlTimeouts{30000, 240000, 10000}, env);
}

} // namespace

class tst_TeamSignIn : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aliceSignsInThroughTheWindow();
    void bobMeetsAnUnknownTask();
    void cleanupTestCase();

private:
    // Bob's eddyctl transcript for one task id handed to him (exit codes and output, with the
    // id and the folder masked).
    QByteArray bobHandedId(const QString &taskId, const QString &name);

    OidcProvider m_provider;
    TestServer m_server;
    QTemporaryDir m_dir;
    QHash<QString, QString> m_bobEnv;
    QStringList m_aliceTasks;
    QString m_aliceToken;
    QList<nlohmann::json> m_aliceSeen; // tasks/get of her tasks, with her token, before bob
};

void tst_TeamSignIn::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_teamsignin"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(m_provider.start(error), qPrintable(error));
    QVERIFY2(m_server.start({QStringLiteral("--oauth-issuer"), m_provider.issuer(), QStringLiteral("--oauth-scopes"),
                             QStringLiteral("cfd:run"), QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(m_server.errorString() + QString::fromUtf8(m_server.standardError())));
    // No session bus and folders of his own: bob's tokens go to the owner-only file there (the
    // keyring is tests/keychain's subject), never to the user's own keychain.
    QDir().mkpath(m_dir.filePath(QStringLiteral("bob-runtime")));
    m_bobEnv = {{QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("bob-data"))},
                {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString()},
                {QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("bob-runtime"))},
                {QStringLiteral("EDDY_BROWSER"), browserCommand()},
                {QStringLiteral("EDDY_TEST_LOGIN"), QStringLiteral("bob")},
                {QStringLiteral("EDDY_SIGNIN_TIMEOUT_S"), QStringLiteral("120")}};
}

void tst_TeamSignIn::aliceSignsInThroughTheWindow()
{
    const QString tokenFile = m_dir.filePath(QStringLiteral("alice-tokens.json"));
    SystemBrowser browser(QStringLiteral("alice"), tokenFile);
    const QString db = m_dir.filePath(QStringLiteral("alice.sqlite"));
    E2eWindowOptions options;
    options.waitForSession = true;
    auto app = E2eWindow::open(db, options);
    QVERIFY(app);
    MainWindow *window = app->window();

    // The server without a token, as a person adds it: its tools are listed only after the
    // 401 took the window through the browser to a token.
    const qint64 serverId = app->addServer(m_server.url(), QStringLiteral("Team CFD"));
    QVERIFY2(serverId > 0, browser.output().constData());
    QCOMPARE(browser.opened(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(browser.signedIn(), 1, 30000);
    const auto stored = Mcp::TokenStore(tokenFile).findForServer(m_server.url());
    QVERIFY(stored.has_value());
    m_aliceToken = stored->accessToken;
    QCOMPARE(claimsOf(m_aliceToken).value(QStringLiteral("sub")).toString(), QStringLiteral("alice"));
    QCOMPARE(claimsOf(m_aliceToken).value(QStringLiteral("aud")).toString(), m_server.url());
    QVERIFY(!stored->refreshToken.isEmpty());

    app->bridge()->submitSweep(serverId, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 12, "max_iterations": 60},
        "vary": {"reynolds": {"list": [100, 400]}},
        "concurrency": 2})", window->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(window->taskModel()->rowCount(), 2, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(window->taskModel()->statusCounts().value(Store::TaskStatus::Completed), 2, 240000);
    QCOMPARE(browser.opened(), 1); // one sign-in for the whole run
    QTRY_COMPARE_WITH_TIMEOUT(query(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE length(server_task_id) >= 16"),
                                    20000)
                                  .value(0)
                                  .value(0),
                              QStringLiteral("2"), 30000);
    app.reset();

    for (const QStringList &row : query(db, QStringLiteral("SELECT server_task_id FROM tasks ORDER BY id"), 20000))
        m_aliceTasks << row[0];
    QCOMPARE(m_aliceTasks.size(), 2);
    McpTestClient alice(m_server.url());
    alice.setToken(m_aliceToken.toStdString());
    for (const QString &id : m_aliceTasks) {
        const HttpReply r = alice.getTask(id.toStdString());
        QCOMPARE(r.status, 200L);
        QCOMPARE(r.result().value("status", ""), std::string("completed"));
        m_aliceSeen << r.result();
    }
}

QByteArray tst_TeamSignIn::bobHandedId(const QString &taskId, const QString &name)
{
    const QString folder = m_dir.filePath(name);
    QDir().mkpath(folder);
    const QString db = folder + QStringLiteral("/bob.sqlite");
    const QString handles = folder + QStringLiteral("/handed.jsonl");
    const QByteArray endpoint = QCryptographicHash::hash(
                                    QJsonDocument(QJsonObject{{QStringLiteral("transport"), QStringLiteral("streamable-http")},
                                                              {QStringLiteral("url"), m_server.url()}})
                                        .toJson(QJsonDocument::Compact),
                                    QCryptographicHash::Sha256)
                                    .toHex();
    QFile f(handles);
    if (!f.open(QIODevice::WriteOnly))
        return "cannot write " + handles.toUtf8();
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("endpointId"), QStringLiteral("eddy:v1:sha256:") + QString::fromLatin1(endpoint)},
                                      {QStringLiteral("generation"), QStringLiteral("v2")},
                                      {QStringLiteral("originalOperation"), QStringLiteral("tools/call")},
                                      {QStringLiteral("taskId"), taskId}})
                .toJson(QJsonDocument::Compact)
            + '\n');
    f.close();

    const QList<QStringList> steps{
        {QStringLiteral("handles"), QStringLiteral("import"), handles, QStringLiteral("--server"), m_server.url()},
        {QStringLiteral("cancel"), QStringLiteral("1")},
        {QStringLiteral("answer"), QStringLiteral("1"), QStringLiteral("mesh"), QStringLiteral(R"({"action": "repair"})")},
        {QStringLiteral("watch"), QStringLiteral("--until-done")},
        {QStringLiteral("tasks")},
        {QStringLiteral("result"), QStringLiteral("1")},
        {QStringLiteral("result"), QStringLiteral("1"), QStringLiteral("--json")},
    };
    QByteArray transcript;
    for (const QStringList &args : steps) {
        const CtlRun r = ctl(QStringList{QStringLiteral("--db"), db} + args, m_bobEnv);
        transcript += "$ " + args.mid(0, 2).join(QLatin1Char(' ')).toUtf8() + " -> " + QByteArray::number(r.code)
                      + '\n' + r.out + r.err;
    }
    transcript.replace(folder.toUtf8(), "<FOLDER>");
    transcript.replace(taskId.toUtf8(), "<ID>");
    return transcript;
}

void tst_TeamSignIn::bobMeetsAnUnknownTask()
{
    QVERIFY(!m_aliceTasks.isEmpty());
    // Bob signs in with eddyctl's own sign-in, in his own data folder.
    const CtlRun signIn = ctl({QStringLiteral("--db"), m_dir.filePath(QStringLiteral("bob-tools.sqlite")),
                               QStringLiteral("tools"), m_server.url()},
                              m_bobEnv);
    QVERIFY2(signIn.code == 0, signIn.err.constData());
    QVERIFY2(signIn.err.contains("the server asks you to sign in"), signIn.err.constData());
    QVERIFY(signIn.out.contains("run_cfd_case"));
    // His token file, wherever eddyctl keeps it under his data folder: the token is his. Without
    // a Secret Service (no session bus here) eddyctl's vault keeps the tokens in the same file,
    // under "secrets", and the entry names them by its secret_ref ("file:KEY").
    QString bobSub;
    QDirIterator files(m_bobEnv.value(QStringLiteral("XDG_DATA_HOME")), {QStringLiteral("oauth-tokens.json")},
                       QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile f(files.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject all = QJsonDocument::fromJson(f.readAll()).object();
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject entry = it.value().toObject();
            if (entry.value(QStringLiteral("server")).toString() != m_server.url())
                continue;
            QString token = entry.value(QStringLiteral("access_token")).toString();
            const QString ref = entry.value(QStringLiteral("secret_ref")).toString();
            if (ref.startsWith(QStringLiteral("file:"))) {
                const QString blob = all.value(QStringLiteral("secrets")).toObject().value(ref.mid(5)).toString();
                token = QJsonDocument::fromJson(blob.toUtf8()).object().value(QStringLiteral("access_token")).toString();
            }
            if (!token.isEmpty())
                bobSub = claimsOf(token).value(QStringLiteral("sub")).toString();
        }
    }
    QCOMPARE(bobSub, QStringLiteral("bob"));

    const QString aliceId = m_aliceTasks.first();
    const QByteArray handed = bobHandedId(aliceId, QStringLiteral("bob-handed"));
    const QByteArray unknown = bobHandedId(unknownLike(aliceId), QStringLiteral("bob-unknown"));
    // The server really answered bob (his token is good), and said it knows no such task.
    QVERIFY2(unknown.contains("the server does not know this task"), unknown.constData());
    QVERIFY2(!handed.contains("completed"), handed.constData());
    qInfo("bob's eddyctl with alice's task id:\n%s", handed.constData());
    if (handed != unknown)
        qWarning("and with an id nobody issued:\n%s", unknown.constData());
    QCOMPARE(handed, unknown);
    // Bob signed in once: every later command used his stored token.
    QCOMPARE(handed.count("the server asks you to sign in"), 0);

    // Alice's tasks are unharmed: completed, with the very result she saw before.
    McpTestClient alice(m_server.url());
    alice.setToken(m_aliceToken.toStdString());
    for (int i = 0; i < m_aliceTasks.size(); ++i) {
        const HttpReply r = alice.getTask(m_aliceTasks[i].toStdString());
        QCOMPARE(r.status, 200L);
        QCOMPARE(r.result().value("status", ""), std::string("completed"));
        QCOMPARE(r.result().dump(), m_aliceSeen[i].dump());
    }
}

void tst_TeamSignIn::cleanupTestCase()
{
    QVERIFY(m_server.terminate());
}

QTEST_MAIN(tst_TeamSignIn)
#include "tst_teamsignin.moc"
