// A server's address changed by another process on the same database while the window follows a
// task there: the real window (offscreen) holds a task of the real eddy-cfd-server that waits for
// its mesh question; the server stops and starts again on another port (its tasks are durable),
// and the real `eddyctl servers set NAME --url NEW` stores the new address. The running window
// lists the new URL, keeps the task and its lease, polls it at the new address (debug log: one
// line per tasks/get, task ids shortened), sends the answer there and sees the task complete,
// without a restart. The server asks for a token throughout, so the new client carries it too.
// Then the token: set wrong by eddyctl, the window's next call is refused by the server (401);
// set right again, the next call runs.
#include "app/keychain/vault.h"
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

namespace {

constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};
const QString s_name = QStringLiteral("Moving CFD");
const QString s_token = QStringLiteral("s3cret-token");

} // namespace

class tst_ServerEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void urlChangedElsewhereFollowsTheTask();
    void tokenChangedElsewhereIsUsedAtOnce(); // after the one above, on its window and server

private:
    bool listed(const QString &url) const;
    Test::CtlRun ctl(const QStringList &args) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Keychain::Vault> m_vault;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
};

void tst_ServerEdit::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serveredit"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    // The window and eddyctl keep the token where the programs do, in one vault (app/keychain):
    // here the owner-only file in the test's folder (no session bus), shared by both processes.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "");
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_dir.path()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("data"))));
    m_vault = std::make_unique<Keychain::Vault>(
        m_dir.filePath(QStringLiteral("data/Eddy/eddy/oauth-tokens.json")),
        [](const QString &message) { qInfo("%s", qPrintable(message)); });
    setSecretVault(m_vault.get());
    QVERIFY2(m_server.start({QStringLiteral("--token"),
                             s_token,
                             QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("200"),
                             QStringLiteral("--log-level"),
                             QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
}

void tst_ServerEdit::cleanupTestCase()
{
    m_app.reset();
    setSecretVault(nullptr);
    QSettings().clear();
}

Test::CtlRun tst_ServerEdit::ctl(const QStringList &args) const
{
    return Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args, s_ctl);
}

bool tst_ServerEdit::listed(const QString &url) const
{
    const ServerListModel *servers = m_app->window()->serverModel();
    for (int r = 0; r < servers->rowCount(); ++r) {
        if (servers->index(r).data(ServerListModel::UrlRole).toString() == url)
            return true;
    }
    return false;
}

void tst_ServerEdit::urlChangedElsewhereFollowsTheTask()
{
    m_db = m_dir.filePath(QStringLiteral("edit.sqlite"));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    const QString oldUrl = m_server.url();
    const qint64 serverId = m_app->addServer(oldUrl, s_name, s_token);
    QVERIFY(serverId > 0);
    m_serverId = serverId;

    // A case whose mesh check asks: the task waits for its answer for as long as it takes.
    m_app->bridge()->callOnce(serverId,
                              QStringLiteral("run_cfd_case"),
                              R"({"case_name":"moving","reynolds":100,"grid":16,)"
                              R"("max_iterations":200,"force_mesh_defect":true})",
                              w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(TaskStatus::InputRequired), 1, 60000);
    const qint64 taskId = w.taskModel()->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong();
    QVERIFY(taskId > 0);
    QString serverTaskId;
    m_app->onEngine([&](Monitor::Engine &e) {
        if (const auto t = e.catalogue().task(taskId))
            serverTaskId = t->serverTaskId;
    });
    QVERIFY(serverTaskId.size() > 6);
    const QByteArray logId = (serverTaskId.left(6) + QStringLiteral("…")).toUtf8();
    QTRY_VERIFY_WITH_TIMEOUT(m_server.standardError().count("tasks/get " + logId) >= 2, 30000);
    const QString lease
        = QStringLiteral("SELECT COUNT(*) FROM leases WHERE item = 'task:%1'").arg(taskId);
    QCOMPARE(Test::scalar(m_db, lease, 10000), qint64(1));

    // The server moves: stopped (its tasks are stored) and started again on another port; the
    // old port is held meanwhile, so the new one differs, and then refuses connections.
    const quint16 oldPort = m_server.port();
    QVERIFY(m_server.terminate());
    QTcpServer holder;
    const bool held = holder.listen(QHostAddress::LocalHost, oldPort);
    const qsizetype logBefore = m_server.standardError().size();
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    holder.close();
    QVERIFY2(m_server.port() != oldPort, held ? "the old port was held" : "not held");
    const QString newUrl = m_server.url();

    // Another process stores the new address.
    const Test::CtlRun run = ctl({QStringLiteral("servers"),
                                  QStringLiteral("set"),
                                  s_name,
                                  QStringLiteral("--url"),
                                  newUrl});
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.out.contains("now has URL"), run.out.constData());
    QTRY_VERIFY_WITH_TIMEOUT(listed(newUrl), 10000);
    QVERIFY(!listed(oldUrl));

    // The window polls the task at the new address (with the token: no 401 there), still
    // holding its lease; the row is the same task, still waiting.
    const auto newLog = [&] {
        return m_server.standardError().mid(logBefore);
    };
    QTRY_VERIFY_WITH_TIMEOUT(newLog().count("tasks/get " + logId) >= 2, 30000);
    QCOMPARE(Test::scalar(m_db, lease, 10000), qint64(1));
    QCOMPARE(w.taskModel()->rowCount(), 1);
    QCOMPARE(int(w.taskModel()->task(taskId)->status), int(TaskStatus::InputRequired));

    // Its question is answered from the window: the answer goes to the new address and the task
    // completes there.
    const auto rows = Test::query(
        m_db,
        QStringLiteral("SELECT key FROM input_requests WHERE task_id = %1").arg(taskId),
        5000);
    QCOMPARE(rows.size(), 1);
    m_app->bridge()->answerInput(taskId,
                                 rows[0][0],
                                 QByteArrayLiteral("{\"action\":\"accept\",\"content\":{\"action\":"
                                                   "\"repair\",\"smoothing_passes\":3}}"),
                                 QStringLiteral("tester"));
    QTRY_COMPARE_WITH_TIMEOUT(
        int(w.taskModel()->task(taskId)->status), int(TaskStatus::Completed), 60000);
    QVERIFY(newLog().contains("tasks/update " + logId));
    QCOMPARE(Test::query(
                 m_db, QStringLiteral("SELECT status FROM tasks WHERE id = %1").arg(taskId), 10000)
                 .value(0)
                 .value(0),
             QStringLiteral("completed"));
}

void tst_ServerEdit::tokenChangedElsewhereIsUsedAtOnce()
{
    QVERIFY(m_app && m_serverId > 0);
    MainWindow &w = *m_app->window();
    const auto lastCase = [this] {
        return Test::query(
                   m_db,
                   QStringLiteral("SELECT state, error FROM cases ORDER BY id DESC LIMIT 1"),
                   10000)
            .value(0);
    };
    const auto callAndWait = [&](int reynolds) {
        const int before
            = int(Test::scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM cases"), 10000));
        m_app->bridge()->callOnce(
            m_serverId,
            QStringLiteral("run_cfd_case"),
            QStringLiteral(R"({"reynolds":%1,"grid":16,"max_iterations":200})")
                .arg(reynolds)
                .toUtf8(),
            w.currentSession());
        QTRY_VERIFY_WITH_TIMEOUT(
            Test::scalar(m_db,
                         QStringLiteral("SELECT COUNT(*) FROM cases WHERE id > %1 AND state IN "
                                        "('submitted','completed','rejected')")
                             .arg(before),
                         10000)
                > 0,
            60000);
    };

    // A wrong token: the window's next call carries it, and the server refuses it.
    Test::CtlRun run = ctl({QStringLiteral("--token"),
                            QStringLiteral("wrong-token"),
                            QStringLiteral("servers"),
                            QStringLiteral("set"),
                            s_name});
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.out.contains("a new token"), run.out.constData());
    m_app->onEngine([](Monitor::Engine &e) { e.checkSharedChanges(); }); // what eddyctl wrote
    callAndWait(200);
    QStringList last = lastCase();
    QCOMPARE(last.value(0), QStringLiteral("rejected"));
    QVERIFY2(last.value(1).contains(QLatin1String("HTTP 401")), qPrintable(last.value(1)));

    // The right one again: the next call runs and completes.
    run = ctl({QStringLiteral("--token"),
               s_token,
               QStringLiteral("servers"),
               QStringLiteral("set"),
               s_name});
    QVERIFY2(run.code == 0, run.err.constData());
    m_app->onEngine([](Monitor::Engine &e) { e.checkSharedChanges(); });
    callAndWait(300);
    last = lastCase();
    QVERIFY2(last.value(0) != QLatin1String("rejected"), qPrintable(last.value(1)));
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 2, 60000);
}

QTEST_MAIN(tst_ServerEdit)
#include "tst_serveredit.moc"
