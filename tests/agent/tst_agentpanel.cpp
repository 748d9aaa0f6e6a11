// The Agent panel offscreen: a prompt typed and sent shows the streamed answer, a tool card with
// its task number and the final text; the stop button is live only during a turn; an
// unconfigured endpoint shows an error in the chat and leaves the panel usable.
#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "models/agentchatmodel.h"
#include "tests/agent/scriptedmodel.h"
#include "widgets/agentpanel.h"

#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Eddy;
using nlohmann::json;
using Test::ScriptedModel;

class tst_AgentPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void chatShowsStreamAndCards();
    void unconfiguredShowsError();

private:
    QTemporaryDir m_dir;
};

void tst_AgentPanel::initTestCase()
{
    Net::initGlobal();
    QVERIFY(m_dir.isValid());
    // Settings of this test stay in its own folder.
    QStandardPaths::setTestModeEnabled(true);
    qunsetenv("EDDY_AGENT_URL");
}

void tst_AgentPanel::chatShowsStreamAndCards()
{
    Monitor::Engine engine;
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("panel.sqlite"))));
    Agent::Agent agent(&engine); // as app/main.cpp builds it (here on the engine's thread too)
    agent.setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
    ScriptedModel model;
    QVERIFY(model.listen());
    model.push([](const json &) {
        ScriptedModel::Reply r;
        r.content = QStringLiteral("Let me look.");
        r.toolCalls = json::array({ScriptedModel::call("list_tasks", {{"scope", "all"}})});
        return r;
    });
    model.push([](const json &) {
        ScriptedModel::Reply r;
        r.content = QStringLiteral("There are no tasks yet.");
        return r;
    });
    AgentPanel panel(&agent);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    Agent::AgentSettings s;
    s.baseUrl = model.baseUrl();
    panel.setSettings(s);
    QSignalSpy opened(&panel, &AgentPanel::conversationOpened);
    panel.openConversation(QStringLiteral("panel chat"));
    QTRY_COMPARE(opened.size(), 1);
    panel.show();

    auto *prompt = panel.findChild<QPlainTextEdit *>();
    QPushButton *send = nullptr;
    QPushButton *stop = nullptr;
    for (auto *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("Send"))
            send = b;
        if (b->text() == QLatin1String("Stop"))
            stop = b;
    }
    QVERIFY(prompt && send && stop);
    QVERIFY(!stop->isEnabled());
    QSignalSpy finished(&panel, &AgentPanel::turnFinished);
    prompt->setPlainText(QStringLiteral("What is running?"));
    QTest::mouseClick(send, Qt::LeftButton);
    QVERIFY(stop->isEnabled());
    QVERIFY(!send->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(!stop->isEnabled());
    QVERIFY(send->isEnabled());
    QVERIFY(prompt->toPlainText().isEmpty());

    QStringList rows;
    AgentChatModel *chat = panel.model();
    int cards = 0;
    for (int i = 0; i < chat->rowCount(); ++i) {
        rows << chat->index(i).data().toString();
        cards += chat->item(i).kind == AgentChatModel::Kind::ToolCard;
    }
    QCOMPARE(rows.first(), QStringLiteral("You: What is running?"));
    QCOMPARE(cards, 1);
    QVERIFY2(rows.contains(QStringLiteral("Agent: Let me look.")), qPrintable(rows.join('\n')));
    QVERIFY2(!rows.filter(QStringLiteral("[tool] list_tasks: 0 task")).isEmpty(), qPrintable(rows.join('\n')));
    QCOMPARE(rows.last(), QStringLiteral("Agent: There are no tasks yet."));

    // Reopening the conversation shows the stored history.
    QSignalSpy reset(chat, &QAbstractItemModel::modelReset);
    panel.openConversation(QStringLiteral("panel chat"));
    QTRY_COMPARE(reset.size(), 1);
    QCOMPARE(chat->index(0).data().toString(), QStringLiteral("You: What is running?"));
    QCOMPARE(chat->index(chat->rowCount() - 1).data().toString(), QStringLiteral("Agent: There are no tasks yet."));
}

void tst_AgentPanel::unconfiguredShowsError()
{
    Monitor::Engine engine;
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("panel2.sqlite"))));
    Agent::Agent agent(&engine);
    agent.setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
    AgentPanel panel(&agent);
    panel.setSettings(Agent::AgentSettings());
    QSignalSpy finished(&panel, &AgentPanel::turnFinished);
    panel.send(QStringLiteral("hello"));
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
    const AgentChatModel *chat = panel.model();
    QCOMPARE(chat->item(chat->rowCount() - 1).kind, AgentChatModel::Kind::Error);
    QVERIFY(chat->item(chat->rowCount() - 1).text.contains(QStringLiteral("No model endpoint")));
    QVERIFY(!panel.isBusy());
}

QTEST_MAIN(tst_AgentPanel)
#include "tst_agentpanel.moc"
