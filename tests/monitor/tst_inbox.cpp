// The input inbox over a real SQLite file: a key is asked once, answered once, stays answered
// while the server's eventually consistent ack still lists it, and all that survives a restart.
#include "app/monitor/inputinbox.h"
#include "app/store/taskstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;
using json = nlohmann::json;

namespace {

json meshQuestion()
{
    return json::parse(R"({"method":"elicitation/create","params":{"mode":"form",
        "message":"12 cells fail the aspect ratio check. Repair or abort?",
        "requestedSchema":{"type":"object","properties":{
          "action":{"type":"string","enum":["repair","abort"],"oneOf":[{"const":"repair"},{"const":"abort"}]},
          "smoothing_passes":{"type":"integer","default":5,"minimum":1,"maximum":50}},
          "required":["action"]}}})");
}

qint64 makeTask(Store::TaskStore &store)
{
    Store::ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:1/mcp");
    Store::CaseRecord c;
    c.serverId = *store.addServer(s);
    c.tool = QStringLiteral("run_cfd_case");
    c.arguments = QStringLiteral("{}");
    c.idempotencyKey = QStringLiteral("k");
    store.journalCase(c);
    Store::TaskRecord t;
    t.serverId = c.serverId;
    t.tool = c.tool;
    t.serverTaskId = QStringLiteral("secret");
    t.status = Store::TaskStatus::InputRequired;
    return *store.recordTaskForCase(c.id, t);
}

} // namespace

class tst_Inbox : public QObject
{
    Q_OBJECT

private slots:
    void dedupAcrossPollsAndRestarts();
    void failedSendReopensQuestion();
    void rawPollsAskEachQuestionOnce();
    void answersFromValues();
};

void tst_Inbox::dedupAcrossPollsAndRestarts()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    qint64 task = 0;
    const json poll = {{"mesh_repair_1", meshQuestion()}, {"mesh_repair_2", meshQuestion()}};
    {
        Store::TaskStore store;
        QVERIFY(store.open(path));
        task = makeTask(store);
        Monitor::InputInbox inbox(store);
        QCOMPARE(inbox.observe(task, poll).size(), 2);
        QCOMPARE(inbox.observe(task, poll).size(), 0); // the next poll repeats the snapshot
        QCOMPARE(inbox.pending().size(), 2);
        QString error;
        const json answer = {{"action", "accept"}, {"content", {{"action", "repair"}, {"smoothing_passes", 5}}}};
        QVERIFY2(inbox.beginAnswer(task, QStringLiteral("mesh_repair_1"), answer, &error), qPrintable(error));
        QVERIFY(!inbox.beginAnswer(task, QStringLiteral("mesh_repair_1"), answer, &error)); // once
        QVERIFY2(error.contains(QStringLiteral("already answered")), qPrintable(error));
        inbox.answerSent(task, QStringLiteral("mesh_repair_1"), true);
        // Eventual consistency: the server still lists the answered key for a while.
        QCOMPARE(inbox.observe(task, poll).size(), 0);
        QCOMPARE(store.inputRequest(task, QStringLiteral("mesh_repair_1"))->state, Store::InputState::Answered);
        QVERIFY(!inbox.beginAnswer(task, QStringLiteral("nope"), answer, &error));
        QVERIFY(error.contains(QStringLiteral("no question")));
    }
    // Restart: nothing is asked again, the answer is still on record.
    Store::TaskStore store;
    QVERIFY(store.open(path));
    Monitor::InputInbox inbox(store);
    QCOMPARE(inbox.observe(task, poll).size(), 0);
    const auto rec = store.inputRequest(task, QStringLiteral("mesh_repair_1"));
    QCOMPARE(rec->state, Store::InputState::Answered);
    QVERIFY(rec->answer.contains(QStringLiteral("repair")));
    QVERIFY(rec->answeredAtMs);
    QCOMPARE(inbox.pending().size(), 1);
    QCOMPARE(inbox.pending().first().key, QStringLiteral("mesh_repair_2"));
    // A new key later in the task's life is new.
    QCOMPARE(inbox.observe(task, json{{"mesh_repair_3", meshQuestion()}}).size(), 1);
}

void tst_Inbox::failedSendReopensQuestion()
{
    Store::TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    const qint64 task = makeTask(store);
    Monitor::InputInbox inbox(store);
    QCOMPARE(inbox.observe(task, json{{"q", meshQuestion()}}).size(), 1);
    QString error;
    QVERIFY(inbox.beginAnswer(task, QStringLiteral("q"), json{{"action", "decline"}}, &error));
    QVERIFY(inbox.pending().isEmpty());
    QCOMPARE(store.answeringInputRequests().size(), 1); // resent after a crash
    inbox.answerSent(task, QStringLiteral("q"), false);
    QCOMPARE(inbox.pending().size(), 1);
    QVERIFY(!inbox.beginAnswer(task, QStringLiteral("q"), json{{"content", 1}}, &error)); // not an ElicitResult
    QVERIFY(inbox.beginAnswer(task, QStringLiteral("q"), json{{"action", "accept"}, {"content", {{"action", "abort"}}}}, &error));
}

void tst_Inbox::rawPollsAskEachQuestionOnce()
{
    // Polls as the SAX reader delivers them: the exact text; a repeat costs no parse and no
    // query, a changed text is parsed and every key goes through the store's dedup.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    const std::string q = meshQuestion().dump();
    const Mcp::RawJson first = Mcp::RawJson::fromText("{\"mesh_repair_1\":" + q + "}");
    const Mcp::RawJson spaced = Mcp::RawJson::fromText("{ \"mesh_repair_1\" : " + q + " }");
    const Mcp::RawJson two = Mcp::RawJson::fromText("{\"mesh_repair_1\":" + q + ",\"mesh_repair_2\":" + q + "}");
    qint64 task = 0;
    {
        Store::TaskStore store;
        QVERIFY(store.open(path));
        task = makeTask(store);
        Monitor::InputInbox inbox(store);
        const auto asked = inbox.observe(task, first);
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().key, QStringLiteral("mesh_repair_1"));
        QVERIFY(json::parse(asked.first().request.toStdString()) == meshQuestion());
        QCOMPARE(asked.first().request, QString::fromStdString(q)); // stored as before: the tree's dump
        for (int poll = 0; poll < 3; ++poll)
            QCOMPARE(inbox.observe(task, first).size(), 0);
        QCOMPARE(inbox.observe(task, spaced).size(), 0); // other bytes, same question
        QCOMPARE(inbox.observe(task, Mcp::RawJson(json{{"mesh_repair_1", meshQuestion()}})).size(), 0);
        const auto second = inbox.observe(task, two);
        QCOMPARE(second.size(), 1);
        QCOMPARE(second.first().key, QStringLiteral("mesh_repair_2"));
        QCOMPARE(inbox.observe(task, two).size(), 0);
        QCOMPARE(inbox.observe(task, Mcp::RawJson()).size(), 0);
        QCOMPARE(inbox.pending().size(), 2);
        QString error;
        QVERIFY2(inbox.beginAnswer(task, QStringLiteral("mesh_repair_1"), json{{"action", "decline"}}, &error),
                 qPrintable(error));
        inbox.answerSent(task, QStringLiteral("mesh_repair_1"), true);
        // The server still lists the answered question for a while: not asked again.
        inbox.forget(task);
        QCOMPARE(inbox.observe(task, first).size(), 0);
        QCOMPARE(inbox.pending().size(), 1);
    }
    // Restart: the inbox remembers nothing, the store everything.
    Store::TaskStore store;
    QVERIFY(store.open(path));
    Monitor::InputInbox inbox(store);
    QCOMPARE(inbox.observe(task, two).size(), 0);
    QCOMPARE(store.inputRequest(task, QStringLiteral("mesh_repair_1"))->state, Store::InputState::Answered);
    const Mcp::RawJson third = Mcp::RawJson::fromText("{\"mesh_repair_3\":" + q + "}");
    QCOMPARE(inbox.observe(task, third).size(), 1);
    QCOMPARE(inbox.observe(task, third).size(), 0);
    QCOMPARE(store.inputRequests(task).size(), 3);
}

void tst_Inbox::answersFromValues()
{
    QString error;
    json a = Monitor::InputInbox::answerFromValues(meshQuestion(), json{{"action", "repair"}, {"unrelated", 1}}, &error);
    QVERIFY(a["action"] == "accept");
    QVERIFY(a["content"]["action"] == "repair");
    QVERIFY(a["content"]["smoothing_passes"] == 5); // default filled
    QVERIFY(!a["content"].contains("unrelated"));
    a = Monitor::InputInbox::answerFromValues(meshQuestion(), json{{"action", "retry"}}, &error);
    QVERIFY(a.is_null());
    QVERIFY2(error.contains(QStringLiteral("action")), qPrintable(error));
    a = Monitor::InputInbox::answerFromValues(meshQuestion(), json::object(), &error);
    QVERIFY(a.is_null());
    QVERIFY2(error.contains(QStringLiteral("missing")), qPrintable(error));
    a = Monitor::InputInbox::answerFromValues(meshQuestion(), json{{"action", "abort"}, {"smoothing_passes", 99}}, &error);
    QVERIFY(a.is_null()); // above the maximum
    const json url = {{"method", "elicitation/create"}, {"params", {{"mode", "url"}, {"message", "log in"}, {"url", "https://x"}}}};
    QVERIFY(Monitor::InputInbox::answerFromValues(url, json::object(), &error)["action"] == "decline");
}

QTEST_GUILESS_MAIN(tst_Inbox)
#include "tst_inbox.moc"
