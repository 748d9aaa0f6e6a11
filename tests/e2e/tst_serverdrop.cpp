// What a server removed by another process leaves behind in the running window (the real window
// offscreen, the real eddy-cfd-server, the real `eddyctl servers remove NAME` on the same SQLite
// file):
// - a streamed call (a tools/call answered as an SSE stream) still running there is ended: its
//   stream is closed (2025-11-25: after notifications/cancelled), its row ends lost saying so,
//   the engine is left with nothing in flight, and the row keeps that message after the window
//   closes;
// - the questions its tasks were waiting on are closed in the store by eddyctl's removal (every
//   process reads the same), and the task's history says why they went unanswered;
// - the window gives back all of the server's task leases in one transaction (the statements
//   its database connection runs, traced);
// - a question shown in the answer panel when its server is removed (by eddyctl, or in the
//   window keeping or deleting its tasks) is said to be closed because the server was removed,
//   and one whose task was cancelled (by eddyctl) because its task ended.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/engineprobe.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QAction>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

using namespace Eddy;
using Store::TaskStatus;

namespace {

constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};
constexpr int s_tasks = 3;

// The transaction statements and lease writes of one connection, in order (SQLITE_TRACE_STMT).
struct LeaseTrace
{
    std::vector<std::string> statements;
    static int onStatement(unsigned, void *self, void *stmt, void *)
    {
        const char *sql = sqlite3_sql(static_cast<sqlite3_stmt *>(stmt));
        const std::string text = sql ? sql : "";
        if (text.rfind("BEGIN", 0) == 0 || text.rfind("COMMIT", 0) == 0
            || text.rfind("ROLLBACK", 0) == 0 || text.find("DELETE FROM leases WHERE item") == 0)
            static_cast<LeaseTrace *>(self)->statements.push_back(text);
        return 0;
    }
};

} // namespace

class tst_ServerDrop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void streamedCallEndsWhenItsServerIsRemoved_data();
    void streamedCallEndsWhenItsServerIsRemoved();
    void questionsAndLeasesOfARemovedServer();
    void answerPanelSaysWhyItsQuestionClosed_data();
    void answerPanelSaysWhyItsQuestionClosed();

private:
    void openWindow(const QString &dbFile);
    Test::CtlRun ctl(const QStringList &args) const;
    bool listed(const QString &url) const;
    bool engineIdle() const;

    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::TestServer> m_server;
    std::unique_ptr<Test::E2eWindow> m_app;
};

void tst_ServerDrop::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serverdrop"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void tst_ServerDrop::cleanup()
{
    m_app.reset();
    m_server.reset();
    QSettings().clear();
}

void tst_ServerDrop::openWindow(const QString &dbFile)
{
    m_db = m_dir.filePath(dbFile);
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
}

Test::CtlRun tst_ServerDrop::ctl(const QStringList &args) const
{
    return Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args, s_ctl);
}

bool tst_ServerDrop::listed(const QString &url) const
{
    const ServerListModel *servers = m_app->window()->serverModel();
    for (int r = 0; r < servers->rowCount(); ++r) {
        if (servers->index(r).data(ServerListModel::UrlRole).toString() == url)
            return true;
    }
    return false;
}

bool tst_ServerDrop::engineIdle() const
{
    bool idle = false;
    m_app->onEngine([&idle](Monitor::Engine &engine) { idle = engine.isIdle(); });
    return idle;
}

void tst_ServerDrop::streamedCallEndsWhenItsServerIsRemoved_data()
{
    QTest::addColumn<QString>("era");
    QTest::addColumn<QByteArray>("serverSaw");
    // 2026-07-28: closing the stream is the cancellation.
    QTest::newRow("modern") << QString()
                            << QByteArray("client of its streamed tools/call disconnected");
    // 2025-11-25: a disconnect is not; the server is told first.
    QTest::newRow("legacy") << QStringLiteral("legacy")
                            << QByteArray("cancelled by notifications/cancelled");
}

void tst_ServerDrop::streamedCallEndsWhenItsServerIsRemoved()
{
    QFETCH(QString, era);
    QFETCH(QByteArray, serverSaw);
    m_server = std::make_unique<Test::TestServer>();
    QVERIFY2(m_server->start({QStringLiteral("--no-tasks-extension"),
                              QStringLiteral("--stream-progress-ms"),
                              QStringLiteral("100"),
                              QStringLiteral("--sse-keep-alive-ms"),
                              QStringLiteral("300")}),
             qPrintable(m_server->errorString()));
    openWindow(QStringLiteral("streamed-%1.sqlite").arg(QTest::currentDataTag()));
    MainWindow &w = *m_app->window();
    const QString name = QStringLiteral("Streaming CFD");
    const qint64 serverId = m_app->addServer(m_server->url(), name);
    QVERIFY(serverId > 0);
    if (!era.isEmpty()) { // spoken to in that era, as the Servers dialog can set it
        Store::ServerRecord record = *w.serverModel()->server(serverId);
        record.era = era;
        record.token = QString(); // null: keep the stored one
        m_app->bridge()->updateServer(record);
        QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->server(serverId)->era, era, 10000);
    }
    // Endless: the tolerance is never reached within millions of iterations.
    m_app->bridge()->callOnce(serverId,
                              QStringLiteral("run_cfd_case"),
                              R"({"reynolds":100,"grid":32,"max_iterations":5000000,)"
                              R"("tolerance":1e-30})",
                              w.currentSession());
    TaskTableModel *tasks = w.taskModel();
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), 1, 30000);
    const qint64 taskId = tasks->taskIdAt(0);
    const auto cell = [&](int column, int role = Qt::DisplayRole) {
        return tasks->index(tasks->rowOf(taskId), column).data(role);
    };
    QCOMPARE(cell(0, TaskTableModel::PatternRole).toString(), QStringLiteral("streamed"));
    QTRY_VERIFY_WITH_TIMEOUT(cell(0, TaskTableModel::ProgressRole).toDouble() > 0, 60000);
    QVERIFY(!engineIdle()); // the call is on the wire

    const Test::CtlRun run = ctl({QStringLiteral("servers"), QStringLiteral("remove"), name});
    QVERIFY2(run.code == 0, run.err.constData());

    // The window ends the call: the server sees its stream close, the row is lost and says why.
    QTRY_VERIFY_WITH_TIMEOUT(!listed(m_server->url()), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_server->standardError().contains(serverSaw), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        cell(0, TaskTableModel::StatusRole).toInt(), int(TaskStatus::Lost), 10000);
    const QString said = QStringLiteral("its server was removed from Eddy, so Eddy closed the "
                                        "streamed call");
    QTRY_VERIFY_WITH_TIMEOUT(cell(TaskTableModel::MessageColumn).toString().contains(said), 10000);
    QVERIFY2(cell(TaskTableModel::MessageColumn).toString().startsWith(QLatin1String("ended at ")),
             qPrintable(cell(TaskTableModel::MessageColumn).toString()));
    // Nothing is left waiting for it.
    QTRY_VERIFY_WITH_TIMEOUT(engineIdle(), 10000);
    const QString stored
        = QStringLiteral("SELECT status, status_message FROM tasks WHERE id = %1").arg(taskId);
    QList<QStringList> row = Test::query(m_db, stored, 10000);
    QCOMPARE(row.value(0).value(0), QStringLiteral("lost"));
    QVERIFY2(row.value(0).value(1).contains(said), qPrintable(row.value(0).value(1)));

    // Closing the window leaves the row as it is (its stream had ended already).
    m_app.reset();
    row = Test::query(m_db, stored, 10000);
    QCOMPARE(row.value(0).value(0), QStringLiteral("lost"));
    QVERIFY2(row.value(0).value(1).contains(said), qPrintable(row.value(0).value(1)));
}

void tst_ServerDrop::questionsAndLeasesOfARemovedServer()
{
    m_server = std::make_unique<Test::TestServer>();
    QVERIFY2(m_server->start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server->errorString()));
    openWindow(QStringLiteral("questions.sqlite"));
    MainWindow &w = *m_app->window();
    const QString name = QStringLiteral("Asking CFD");
    const qint64 serverId = m_app->addServer(m_server->url(), name);
    QVERIFY(serverId > 0);
    // Cases whose mesh check asks: each task waits for its answer, polled by the window.
    for (int i = 0; i < s_tasks; ++i)
        m_app->bridge()->callOnce(serverId,
                                  QStringLiteral("run_cfd_case"),
                                  QStringLiteral(R"({"reynolds":%1,"grid":16,"max_iterations":200,)"
                                                 R"("force_mesh_defect":true})")
                                      .arg(100 + i)
                                      .toUtf8(),
                                  w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(TaskStatus::InputRequired), s_tasks, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), s_tasks, 30000);
    const QString pending
        = QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state = 'pending'");
    QCOMPARE(Test::scalar(m_db, pending, 10000), qint64(s_tasks));
    const QString leases = QStringLiteral("SELECT COUNT(*) FROM leases WHERE item LIKE 'task:%'");
    QCOMPARE(Test::scalar(m_db, leases, 10000), qint64(s_tasks));

    // From here on, what the window's connection runs about transactions and leases.
    auto trace = std::make_shared<LeaseTrace>();
    m_app->onEngine([trace](Monitor::Engine &e) {
        sqlite3_trace_v2(Monitor::EngineProbe::store(e).database().handle(),
                         SQLITE_TRACE_STMT,
                         &LeaseTrace::onStatement,
                         trace.get());
    });

    const Test::CtlRun run = ctl({QStringLiteral("servers"), QStringLiteral("remove"), name});
    QVERIFY2(run.code == 0, run.err.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!listed(m_server->url()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(TaskStatus::Lost), s_tasks, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(Test::scalar(m_db, leases, 10000), qint64(0), 10000);
    std::vector<std::string> statements;
    m_app->onEngine([trace, &statements](Monitor::Engine &e) {
        sqlite3_trace_v2(Monitor::EngineProbe::store(e).database().handle(), 0, nullptr, nullptr);
        statements = trace->statements;
    });

    // Every lease was given back between one BEGIN and its COMMIT.
    int released = 0;
    int inBlock = -1; // releases in the open transaction, -1 outside one
    int largestBlock = 0;
    for (const std::string &s : statements) {
        if (s.rfind("BEGIN", 0) == 0) {
            inBlock = 0;
        } else if (s.rfind("COMMIT", 0) == 0 || s.rfind("ROLLBACK", 0) == 0) {
            largestBlock = std::max(largestBlock, inBlock);
            inBlock = -1;
        } else {
            ++released;
            QVERIFY2(inBlock >= 0, "a lease was given back in a commit of its own");
            ++inBlock;
        }
    }
    QCOMPARE(released, s_tasks);
    QCOMPARE(largestBlock, s_tasks);

    // The questions were closed by the removal itself: nobody lists them as waiting.
    QCOMPARE(Test::scalar(m_db, pending, 10000), qint64(0));
    QCOMPARE(Test::scalar(m_db,
                          QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state = "
                                         "'closed' AND answered_at IS NOT NULL"),
                          10000),
             qint64(s_tasks));
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 0, 10000);
    // A task's history says why its question went unanswered.
    QList<Store::InputRequestRecord> asked;
    const qint64 taskId = w.taskModel()->taskIdAt(0);
    m_app->onEngine([&](Monitor::Engine &e) { asked = e.catalogue().inputRequests(taskId); });
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0].state, Store::InputState::Closed);
    const QString history = InboxModel::answerText(asked[0]);
    QVERIFY2(history.contains(QLatin1String("closed when its server was removed")),
             qPrintable(history));
}

void tst_ServerDrop::answerPanelSaysWhyItsQuestionClosed_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<QString>("reason");
    const QString removed = QStringLiteral("is closed: its server was removed from Eddy.");
    QTest::newRow("eddyctl removes the server") << QStringLiteral("eddyctl") << removed;
    QTest::newRow("window removes it, keeping tasks") << QStringLiteral("removeKeepTasks") << removed;
    QTest::newRow("window removes it with its tasks") << QStringLiteral("removeDeleteTasks") << removed;
    QTest::newRow("eddyctl cancels the task")
        << QStringLiteral("cancel")
        << QStringLiteral("is closed: its case was cancelled before an answer was given.");
}

void tst_ServerDrop::answerPanelSaysWhyItsQuestionClosed()
{
    QFETCH(QString, how);
    QFETCH(QString, reason);
    m_server = std::make_unique<Test::TestServer>();
    QVERIFY2(m_server->start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server->errorString()));
    openWindow(QStringLiteral("panel-%1.sqlite").arg(how));
    MainWindow &w = *m_app->window();
    const QString name = QStringLiteral("Meshing CFD");
    const qint64 serverId = m_app->addServer(m_server->url(), name);
    QVERIFY(serverId > 0);
    // A case whose mesh check asks; the engineer picks its question in the inbox.
    m_app->bridge()->callOnce(serverId,
                              QStringLiteral("run_cfd_case"),
                              R"({"reynolds":100,"grid":16,"max_iterations":200,)"
                              R"("force_mesh_defect":true})",
                              w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 60000);
    QTableView *inbox = w.inboxView();
    const int row = w.inboxModel()->firstPendingRow();
    const qint64 taskId = w.inboxModel()->request(row)->taskId;
    const QRect cell = inbox->visualRect(w.inboxModel()->index(row, InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    AnswerPanel *panel = w.answerPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->hasQuestion() && panel->taskId() == taskId, 10000);

    if (how == QLatin1String("eddyctl")) {
        const Test::CtlRun run = ctl({QStringLiteral("servers"), QStringLiteral("remove"), name});
        QVERIFY2(run.code == 0, run.err.constData());
    } else if (how == QLatin1String("cancel")) {
        const Test::CtlRun run = ctl({QStringLiteral("cancel"), QString::number(taskId)});
        QVERIFY2(run.code == 0, run.err.constData());
    } else { // Server > Remove Server... on the selected server, as tst_serverremove does
        auto *list = w.findChild<QListView *>(QStringLiteral("servers"));
        QVERIFY(list);
        list->setCurrentIndex(w.serverModel()->index(w.serverModel()->rowOf(serverId)));
        w.findChild<QAction *>(QStringLiteral("removeServer"))->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (box = w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm"))) && box->isVisible(),
            10000);
        auto *button = box->findChild<QPushButton *>(how);
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
    }
    // The panel no longer offers the question, and says why, naming the case it was for.
    QTRY_VERIFY_WITH_TIMEOUT(!panel->hasQuestion(), 30000);
    QTRY_VERIFY2_WITH_TIMEOUT(panel->noteText().contains(reason), qPrintable(panel->noteText()), 10000);
    // ... and keeps saying it once the window has read everything again.
    if (how != QLatin1String("cancel"))
        QTRY_VERIFY_WITH_TIMEOUT(!listed(m_server->url()), 10000);
    QTest::qWait(500); // negative check: a later read does not take the note away
    QVERIFY2(panel->noteText().contains(reason), qPrintable(panel->noteText()));
    QVERIFY2(panel->noteText().startsWith(QLatin1String("This question of ")), qPrintable(panel->noteText()));
}

QTEST_MAIN(tst_ServerDrop)
#include "tst_serverdrop.moc"
