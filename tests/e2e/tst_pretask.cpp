// Trouble before any task exists, through the real window (offscreen), the real engine on its
// thread and a real SQLite file, against a loopback MCP server that speaks the real wire but
// misbehaves on purpose (the reference server never asks before creating a task, nor resets):
// - a tools/call answered input_required (multi round trip): the question is in the inbox,
//   marked as asked before the task starts, naming the server, tool and arguments; answered in
//   the panel (nothing in the first 500 ms, Escape leaves it open), the call is sent again with
//   the server's requestState and the answer, and the task appears;
// - the same question left open survives a restart on the same database;
// - a server that resets every tools/call: each retry and then the deferral are visible in the
//   window (never a silent spinner), and no task row appears.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/hostile/hostileserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/schemaform.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>

#include <memory>

using namespace Eddy;
using Eddy::Test::HostileServer;
using Call = HostileServer::Call;
using nlohmann::json;

namespace {

const json kMeshSchema = {{"type", "object"},
                          {"properties", {{"cells", {{"type", "integer"}, {"title", "Cells"}}}}},
                          {"required", {"cells"}}};

json meshQuestion()
{
    return {{"mesh",
             {{"method", "elicitation/create"},
              {"params",
               {{"mode", "form"},
                {"message", "Which mesh size?"},
                {"requestedSchema", kMeshSchema}}}}}};
}

// What a rich-text label shows, as plain text.
QString shownText(const QLabel *label)
{
    return label ? QTextDocumentFragment::fromHtml(label->text()).toPlainText() : QString();
}

} // namespace

class tst_PreTask : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void questionBeforeTheTaskIsAnsweredInThePanel();
    void openQuestionSurvivesARestart();
    void resetForEverShowsRetriesThenNotSent();

private:
    static std::unique_ptr<Test::E2eWindow> startApp(const QString &db);
    void addServer(Test::E2eWindow &app, const QUrl &url);
    qint64 serverId(Test::E2eWindow &app) const;
    // The server: asks "mesh" on the first tools/call; the retry must carry the answer.
    void askFirst(HostileServer &server);
    void pickRow(int row);
    QString cell(int row, int column) const;
    QLabel *deliveryLabel() const;

    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    int m_db = 0;
    QStringList m_problems;
    QList<json> m_retries; // params of tools/calls that answered the question
};

std::unique_ptr<Test::E2eWindow> tst_PreTask::startApp(const QString &db)
{
    Test::E2eWindowOptions options;
    options.configureEngine = [](Monitor::Engine &engine) {
        engine.setCaseRetryPolicy(3, 300); // quick: 3 retries from 0.3 s
    };
    return Test::E2eWindow::open(db, options);
}

void tst_PreTask::addServer(Test::E2eWindow &app, const QUrl &url)
{
    MainWindow &w = *app.window();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentSession().has_value(), 30000);
    QVERIFY(
        app.addServer(url.toString(), QStringLiteral("Hostile CFD"), {}, QStringLiteral("sim")));
    QCOMPARE(w.serverModel()->rowCount(), 1);
}

qint64 tst_PreTask::serverId(Test::E2eWindow &app) const
{
    return app.window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
}

void tst_PreTask::askFirst(HostileServer &server)
{
    server.setFault([this](HostileServer &, const Call &c) {
        if (c.method != "tools/call")
            return false;
        const json params = c.body.value("params", json::object());
        if (!params.contains("inputResponses")) {
            c.socket->write(
                HostileServer::http(HostileServer::rpcResult(c.id,
                                                             {{"resultType", "input_required"},
                                                              {"inputRequests", meshQuestion()},
                                                              {"requestState", "state-42"}})));
            return true;
        }
        m_retries << params;
        if (params.value("requestState", json()) != json("state-42"))
            m_problems << QStringLiteral("requestState not echoed: %1")
                              .arg(QString::fromStdString(params.dump()));
        return false; // the task is created
    });
}

void tst_PreTask::pickRow(int row)
{
    QTableView *view = m_app->window()->inboxView();
    const QRect r = view->visualRect(view->model()->index(row, InboxModel::MessageColumn));
    QVERIFY(r.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
}

QString tst_PreTask::cell(int row, int column) const
{
    const InboxModel *inbox = m_app->window()->inboxModel();
    return inbox->index(row, column).data().toString();
}

QLabel *tst_PreTask::deliveryLabel() const
{
    return m_app->window()->findChild<QLabel *>(QStringLiteral("caseDelivery"));
}

void tst_PreTask::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_pretask"));
    QVERIFY(m_dir.isValid());
}

void tst_PreTask::init()
{
    QSettings().clear();
    m_problems.clear();
    m_retries.clear();
}

void tst_PreTask::cleanup()
{
    m_app.reset();
}

void tst_PreTask::questionBeforeTheTaskIsAnsweredInThePanel()
{
    HostileServer server;
    askFirst(server);
    QVERIFY(server.listen());
    m_app = startApp(m_dir.filePath(QStringLiteral("p%1.sqlite").arg(++m_db)));
    QVERIFY(m_app);
    addServer(*m_app, server.url());
    MainWindow &w = *m_app->window();
    m_app->bridge()->callOnce(
        serverId(*m_app), QStringLiteral("sim"), R"({"n": 7})", w.currentSession());

    // The question is in the inbox though no task exists, saying so and naming the tool.
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 30000);
    QCOMPARE(w.taskModel()->rowCount(), 0);
    QCOMPARE(server.count("tools/call"), 1);
    QCOMPARE(cell(0, InboxModel::MessageColumn), QStringLiteral("Which mesh size?"));
    QVERIFY2(cell(0, InboxModel::CaseColumn).contains(QLatin1String("before the task starts"))
                 && cell(0, InboxModel::CaseColumn).contains(QLatin1String("sim")),
             qPrintable(cell(0, InboxModel::CaseColumn)));
    QCOMPARE(cell(0, InboxModel::ServerColumn), QStringLiteral("Hostile CFD"));

    // Picked in the list, it is in the panel with the server, tool and arguments; no Abort.
    AnswerPanel *panel = w.answerPanel();
    pickRow(0);
    QVERIFY(panel->hasQuestion());
    auto *who = panel->findChild<QLabel *>(QStringLiteral("whoIsAsking"));
    QVERIFY(who);
    for (const char *part : {"Hostile CFD", "sim", "\"n\":7", "before the task starts"})
        QVERIFY2(shownText(who).contains(QLatin1String(part)),
                 qPrintable(part + QStringLiteral(" not in: ") + shownText(who)));
    QVERIFY(!panel->findChild<QPushButton *>(QStringLiteral("abort"))->isVisible());
    auto *cells = qobject_cast<QLineEdit *>(panel->form()->editor("cells"));
    QVERIFY(cells);
    cells->setText(QStringLiteral("48"));
    // Within the first 500 ms nothing answers; Escape leaves it open.
    auto *accept = panel->findChild<QPushButton *>(QStringLiteral("accept"));
    accept->click();
    QTest::keyClick(panel, Qt::Key_Escape);
    QTest::keyClick(&w, Qt::Key_Escape);
    QTest::qWait(800); // negative check: none of these answers, also once the guard has ended
    QVERIFY(panel->hasQuestion());
    QCOMPARE(w.inboxModel()->pendingCount(), 1);
    QCOMPARE(server.count("tools/call"), 1);

    QTRY_VERIFY_WITH_TIMEOUT(accept->isEnabled(), 5000);
    accept->click();
    // The call goes again with the server's requestState and the answer; the task appears.
    QTRY_COMPARE_WITH_TIMEOUT(server.count("tools/call"), 2, 30000);
    QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
    QCOMPARE(m_retries.size(), 1);
    QVERIFY2(m_retries[0].value("inputResponses", json())
                 == (json{{"mesh", {{"action", "accept"}, {"content", {{"cells", 48}}}}}}),
             m_retries[0].dump().c_str());
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 1, 30000);
    QCOMPARE(w.inboxModel()->pendingCount(), 0);
    QVERIFY(!panel->hasQuestion());
    QVERIFY2(panel->noteText().contains(QLatin1String("Answer sent")),
             qPrintable(panel->noteText()));
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(w.taskModel()->taskIdAt(0))->status),
                              int(Store::TaskStatus::Completed),
                              30000);
}

void tst_PreTask::openQuestionSurvivesARestart()
{
    HostileServer server;
    askFirst(server);
    QVERIFY(server.listen());
    const QString db = m_dir.filePath(QStringLiteral("p%1.sqlite").arg(++m_db));
    m_app = startApp(db);
    QVERIFY(m_app);
    addServer(*m_app, server.url());
    m_app->bridge()->callOnce(
        serverId(*m_app), QStringLiteral("sim"), R"({"n": 8})", m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->inboxModel()->pendingCount(), 1, 30000);
    m_app.reset();

    // Reopened on the same database: the journalled question is asked again, in the inbox.
    m_app = startApp(db);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 30000);
    QVERIFY2(cell(0, InboxModel::CaseColumn).contains(QLatin1String("before the task starts")),
             qPrintable(cell(0, InboxModel::CaseColumn)));
    QCOMPARE(w.taskModel()->rowCount(), 0);
    AnswerPanel *panel = w.answerPanel();
    pickRow(0);
    QVERIFY(panel->hasQuestion());
    QVERIFY2(shownText(panel->findChild<QLabel *>(QStringLiteral("whoIsAsking")))
                 .contains(QLatin1String("\"n\":8")),
             qPrintable(shownText(panel->findChild<QLabel *>(QStringLiteral("whoIsAsking")))));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded(), 5000);
    auto *cells = qobject_cast<QLineEdit *>(panel->form()->editor("cells"));
    QVERIFY(cells);
    QTest::keyClicks(cells, QStringLiteral("12"));
    panel->findChild<QPushButton *>(QStringLiteral("accept"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(server.count("tools/call"), 2, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 1, 30000);
    QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
    QCOMPARE(m_retries.size(), 1);
    QVERIFY2(m_retries[0].value("inputResponses", json())
                 == (json{{"mesh", {{"action", "accept"}, {"content", {{"cells", 12}}}}}}),
             m_retries[0].dump().c_str());
}

void tst_PreTask::resetForEverShowsRetriesThenNotSent()
{
    HostileServer server;
    server.setFault([](HostileServer &, const Call &c) {
        if (c.method != "tools/call")
            return false;
        c.socket->abort();
        return true;
    });
    QVERIFY(server.listen());
    m_app = startApp(m_dir.filePath(QStringLiteral("p%1.sqlite").arg(++m_db)));
    QVERIFY(m_app);
    addServer(*m_app, server.url());
    MainWindow &w = *m_app->window();
    m_app->bridge()->callOnce(
        serverId(*m_app), QStringLiteral("sim"), R"({"n": 9})", w.currentSession());

    // Each attempt is visible in the window while no task row exists...
    QStringList seen;
    const auto shown = [&] {
        QLabel *l = deliveryLabel();
        const QString text = l && l->isVisible() ? l->text() : QString();
        if (!text.isEmpty() && (seen.isEmpty() || seen.last() != text))
            seen << text;
        return text;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(shown().contains(QLatin1String("retry 1 of 3")),
                              qPrintable(seen.join(QLatin1Char('\n'))),
                              30000);
    QVERIFY2(shown().contains(QLatin1String("sim")), qPrintable(shown()));
    QTRY_VERIFY2_WITH_TIMEOUT(shown().contains(QLatin1String("retry 2 of 3")),
                              qPrintable(seen.join(QLatin1Char('\n'))),
                              30000);
    QCOMPARE(w.taskModel()->rowCount(), 0);
    // ... then the clear end: not sent, and what happens to it.
    QTRY_VERIFY2_WITH_TIMEOUT(shown().contains(QLatin1String("not sent")),
                              qPrintable(seen.join(QLatin1Char('\n'))),
                              60000);
    QVERIFY2(shown().contains(QLatin1String("sent again")), qPrintable(shown()));
    QVERIFY2(deliveryLabel()->toolTip().contains(QLatin1String("not sent")),
             qPrintable(deliveryLabel()->toolTip()));
    const int sent = server.count("tools/call");
    QVERIFY2(sent >= 4 && sent <= 8, qPrintable(QString::number(sent)));
    QCOMPARE(w.taskModel()->rowCount(), 0);
    // It stays in view (no timeout hides it).
    QTest::qWait(1500); // negative check: no timeout hides it within this time
    QVERIFY(shown().contains(QLatin1String("not sent")));
}

QTEST_MAIN(tst_PreTask)
#include "tst_pretask.moc"
