// eddyctl against servers that misbehave before a task exists, or ask before starting: the real
// eddyctl binary (as a person runs it) and a real SQLite file, the server a real HTTP server on
// loopback (tests/hostile/hostileserver.h) because eddy-cfd-server never does these things.
// - a tools/call answered input_required (multi round trip): answered from --answers; refused
//   with a clear message when nothing can answer, the question journalled, and `watch` resumes
//   the round trip with the server's requestState;
// - eddyctl killed while the answered retry is on the wire: `watch` resends it from the journal;
// - a server that resets every tools/call: a message per attempt, a clear end, the case kept
//   for `watch`, which sends it again with the same idempotency key;
// - tasks/get answering about another task for ever: `call --wait` ends on its own;
// - one case of a sweep answered at once with a tool error: `sweep submit` counts it as failed
//   (text and --json), names the case on stderr and exits 1; the answer stays stored.
#include "tests/common/ctlprocess.h"
#include "tests/hostile/hostileserver.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::HostileServer;
using nlohmann::json;
using Call = HostileServer::Call;

namespace {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

// Runs eddyctl while this thread's event loop keeps serving the hostile server.
Run runCtl(const QStringList &args, const QHash<QString, QString> &env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(Eddy::Test::ctlBin(), args);
    Run r;
    if (!p.waitForStarted(10000))
        return r;
    p.closeWriteChannel();
    (void)QTest::qWaitFor([&p] { return p.state() == QProcess::NotRunning; }, 120000);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

const json kMeshSchema = {{"type", "object"},
                          {"properties", {{"cells", {{"type", "integer"}}}}},
                          {"required", {"cells"}}};

json meshQuestion()
{
    return {{"mesh", {{"method", "elicitation/create"},
                      {"params", {{"mode", "form"}, {"message", "Which mesh?"}, {"requestedSchema", kMeshSchema}}}}}};
}

// The tool takes an idempotency key, so Eddy puts one in every call.
json keyedTools()
{
    return json::array({{{"name", "sim"},
                         {"inputSchema", {{"type", "object"},
                                          {"properties", {{"n", {{"type", "integer"}}},
                                                          {"idempotency_key", {{"type", "string"}}}}}}}}});
}

} // namespace

class tst_CtlHostile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void inputRequiredBeforeTheTaskAnsweredFromFile();
    void inputRequiredWithNothingToAnswerThenWatchResumes();
    void killedDuringTheRoundTripResumesWithTheJournalledAnswer();
    void resetOnEveryCallEndsAndWatchSendsItAgain();
    void tasksGetAboutAnotherTaskEnds();
    void sweepCaseAnsweredWithToolErrorIsCounted();

private:
    QTemporaryDir m_dir;
    QString m_answers;
};

void tst_CtlHostile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_answers = m_dir.filePath(QStringLiteral("answers.json"));
    QFile f(m_answers);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"cells": 48})");
}

void tst_CtlHostile::inputRequiredBeforeTheTaskAnsweredFromFile()
{
    HostileServer server;
    QVERIFY(server.listen());
    const std::string state = R"({"nonce":"a1","step":1} \u00e9)";
    QStringList problems;
    server.setFault([&](HostileServer &s, const Call &c) {
        if (c.method != "tools/call")
            return false;
        const json params = c.body.value("params", json::object());
        if (c.count == 1) {
            s.firstCallId = c.id;
            c.socket->write(HostileServer::http(HostileServer::rpcResult(
                c.id, {{"resultType", "input_required"}, {"inputRequests", meshQuestion()}, {"requestState", state}})));
            return true;
        }
        if (params.value("requestState", json()) != json(state))
            problems << QStringLiteral("requestState not echoed: %1").arg(QString::fromStdString(params.dump()));
        if (c.id == s.firstCallId)
            problems << QStringLiteral("the retry reused the id");
        if (params.value("inputResponses", json()) != json{{"mesh", {{"action", "accept"}, {"content", {{"cells", 48}}}}}})
            problems << QStringLiteral("wrong inputResponses: %1").arg(QString::fromStdString(params.dump()));
        return false;
    });
    const QString db = m_dir.filePath(QStringLiteral("file.sqlite"));
    const Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url().toString(), QStringLiteral("sim"),
                          QStringLiteral(R"({"n":1})"), QStringLiteral("--wait"), QStringLiteral("--answers"), m_answers});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QCOMPARE(server.count("tools/call"), 2);
    QVERIFY(r.out.contains(QStringLiteral("hostile result")));
    QVERIFY2(r.err.contains(QStringLiteral("answered \"mesh\"")), qPrintable(r.err));
    QCOMPARE(Eddy::Test::query(db, QStringLiteral("SELECT pending_input FROM cases"), 5000).value(0).value(0), QString());
}

void tst_CtlHostile::inputRequiredWithNothingToAnswerThenWatchResumes()
{
    HostileServer server;
    server.tools = keyedTools();
    QVERIFY(server.listen());
    const std::string state = "opaque-state-7";
    QStringList keys;
    QStringList problems;
    server.setFault([&](HostileServer &, const Call &c) {
        if (c.method != "tools/call")
            return false;
        const json params = c.body.value("params", json::object());
        keys << QString::fromStdString(params.value("arguments", json::object()).value("idempotency_key", std::string()));
        if (!params.contains("inputResponses")) {
            c.socket->write(HostileServer::http(HostileServer::rpcResult(
                c.id, {{"resultType", "input_required"}, {"inputRequests", meshQuestion()}, {"requestState", state}})));
            return true;
        }
        if (params.value("requestState", json()) != json(state))
            problems << QStringLiteral("requestState not echoed: %1").arg(QString::fromStdString(params.dump()));
        return false;
    });
    const QString db = m_dir.filePath(QStringLiteral("resume.sqlite"));
    // No terminal and no --answers: a clear refusal, the question kept with its case.
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url().toString(), QStringLiteral("sim"),
                    QStringLiteral(R"({"n":2})"), QStringLiteral("--wait")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QStringLiteral("asks before starting")) && r.err.contains(QStringLiteral("Which mesh?"))
                 && r.err.contains(QStringLiteral("--answers")),
             qPrintable(r.err));
    const auto journal = Eddy::Test::query(db, QStringLiteral("SELECT state, pending_input FROM cases"), 5000);
    QCOMPARE(journal.size(), 1);
    QCOMPARE(journal[0][0], QStringLiteral("sent"));
    QVERIFY2(journal[0][1].contains(QStringLiteral("opaque-state-7")) && journal[0][1].contains(QStringLiteral("Which mesh?")),
             qPrintable(journal[0][1]));
    QCOMPARE(server.count("tools/call"), 1);

    // watch answers from the file and resumes the round trip: one more tools/call, carrying the
    // journalled requestState and the answer, with the same idempotency key.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done"),
                QStringLiteral("--answers"), m_answers});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QCOMPARE(server.count("tools/call"), 2);
    QCOMPARE(keys.size(), 2);
    QVERIFY(!keys[0].isEmpty());
    QCOMPARE(keys[1], keys[0]);
    const auto tasks = Eddy::Test::query(db, QStringLiteral("SELECT status FROM tasks"), 5000);
    QCOMPARE(tasks.size(), 1);
    QCOMPARE(tasks[0][0], QStringLiteral("completed"));
}

void tst_CtlHostile::killedDuringTheRoundTripResumesWithTheJournalledAnswer()
{
    // eddyctl is killed (SIGKILL) while the answered retry is on the wire: the next watch sends
    // the round trip again from the journal, answer included, without asking anyone.
    HostileServer server;
    server.tools = keyedTools();
    QVERIFY(server.listen());
    const std::string state = "round-1-state";
    QStringList problems;
    server.setFault([&](HostileServer &, const Call &c) {
        if (c.method != "tools/call")
            return false;
        const json params = c.body.value("params", json::object());
        if (c.count == 1) {
            c.socket->write(HostileServer::http(HostileServer::rpcResult(
                c.id, {{"resultType", "input_required"}, {"inputRequests", meshQuestion()}, {"requestState", state}})));
            return true;
        }
        if (params.value("requestState", json()) != json(state)
            || params.value("inputResponses", json()).value("mesh", json()).value("content", json()) != json{{"cells", 48}})
            problems << QString::fromStdString(params.dump());
        return c.count == 2; // the first retry is never answered
    });
    const QString db = m_dir.filePath(QStringLiteral("killed.sqlite"));
    QProcess p;
    p.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("call"), server.url().toString(),
                                   QStringLiteral("sim"), QStringLiteral(R"({"n":5})"), QStringLiteral("--wait"),
                                   QStringLiteral("--answers"), m_answers});
    QVERIFY(p.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(server.count("tools/call") == 2, 60000);
    p.kill();
    QVERIFY(p.waitForFinished(10000));
    const QString journal = Eddy::Test::query(db, QStringLiteral("SELECT pending_input FROM cases"), 5000).value(0).value(0);
    QVERIFY2(journal.contains(QStringLiteral("round-1-state")) && journal.contains(QStringLiteral("48")), qPrintable(journal));

    const Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("asks before starting")), qPrintable(r.err)); // not asked again
    QCOMPARE(server.count("tools/call"), 3);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QCOMPARE(Eddy::Test::query(db, QStringLiteral("SELECT status FROM tasks"), 5000).value(0).value(0), QStringLiteral("completed"));
}

void tst_CtlHostile::resetOnEveryCallEndsAndWatchSendsItAgain()
{
    HostileServer server;
    server.tools = keyedTools();
    QVERIFY(server.listen());
    bool broken = true;
    QStringList keys;
    server.setFault([&](HostileServer &, const Call &c) {
        if (c.method != "tools/call")
            return false;
        keys << QString::fromStdString(c.body["params"]["arguments"].value("idempotency_key", std::string()));
        if (!broken)
            return false;
        c.socket->abort();
        return true;
    });
    const QString db = m_dir.filePath(QStringLiteral("reset.sqlite"));
    const QHash<QString, QString> quick{{QStringLiteral("EDDY_CALL_RETRIES"), QStringLiteral("3")},
                                        {QStringLiteral("EDDY_CALL_RETRY_BASE_MS"), QStringLiteral("100")}};
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url().toString(), QStringLiteral("sim"),
                    QStringLiteral(R"({"n":3})"), QStringLiteral("--wait")},
                   quick);
    QCOMPARE(r.code, 1);
    for (const char *phrase : {"retry 1 of 3", "retry 2 of 3", "retry 3 of 3", "kept unsent", "eddyctl watch"})
        QVERIFY2(r.err.contains(QLatin1String(phrase)), qPrintable(QStringLiteral("no \"%1\" in:\n%2").arg(QLatin1String(phrase), r.err)));
    // The first try and 3 retries; an attempt whose connection dropped may also have been
    // re-sent once at once by the client (idempotent), so between 4 and 8, and then no more.
    const int sent = server.count("tools/call");
    QVERIFY2(sent >= 4 && sent <= 8, qPrintable(QString::number(sent)));
    QCOMPARE(Eddy::Test::query(db, QStringLiteral("SELECT state FROM cases"), 5000).value(0).value(0), QStringLiteral("sent"));

    broken = false;
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")}, quick);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(server.count("tools/call"), sent + 1);
    QCOMPARE(keys.size(), sent + 1);
    for (const QString &k : std::as_const(keys))
        QCOMPARE(k, keys.first());
    QCOMPARE(Eddy::Test::query(db, QStringLiteral("SELECT status FROM tasks"), 5000).value(0).value(0), QStringLiteral("completed"));
}

void tst_CtlHostile::tasksGetAboutAnotherTaskEnds()
{
    HostileServer server;
    QVERIFY(server.listen());
    server.setFault([](HostileServer &s, const Call &c) {
        if (c.method != "tasks/get")
            return false;
        json m = s.normalAnswer(c);
        m["result"]["taskId"] = "someone-else";
        m["result"]["status"] = "working";
        c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
        return true;
    });
    const QString db = m_dir.filePath(QStringLiteral("wrongid.sqlite"));
    const Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("call"), server.url().toString(), QStringLiteral("sim"),
                          QStringLiteral(R"({"n":4})"), QStringLiteral("--wait")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QStringLiteral("ended lost")), qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("unreliable")) || r.err.contains(QStringLiteral("unreliable")),
             qPrintable(r.out + r.err));
    QVERIFY(server.count("tasks/get") <= 10); // bounded: no busy loop
    QVERIFY(!r.err.contains(QString::fromStdString(server.taskId)));
}

void tst_CtlHostile::sweepCaseAnsweredWithToolErrorIsCounted()
{
    // The reference server never answers a call that passed the schema check with a tool
    // error; this one does for n = 2, and gives the other cases a task each.
    HostileServer server;
    server.tools = keyedTools();
    QVERIFY(server.listen());
    const std::string why = "n = 2 puts the inlet inside the obstacle; move it upstream";
    server.setFault([&why](HostileServer &s, const Call &c) {
        const json params = c.body.value("params", json::object());
        if (c.method == "tasks/get") { // about the task asked for, so polls stay sane
            json m = s.normalAnswer(c);
            m["result"]["taskId"] = params.value("taskId", s.taskId);
            c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
            return true;
        }
        if (c.method != "tools/call")
            return false;
        if (params.value("arguments", json::object()).value("n", 0) == 2) {
            c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, HostileServer::toolError(why))));
            return true;
        }
        json t = s.task("working");
        t["taskId"] = s.taskId + "-" + std::to_string(c.count);
        t["resultType"] = "task";
        c.socket->write(HostileServer::http(HostileServer::rpcResult(c.id, t)));
        return true;
    });
    const QString spec = m_dir.filePath(QStringLiteral("toolerror.json"));
    QVERIFY(Eddy::Test::writeFile(spec, R"({"tool": "sim", "vary": {"n": {"list": [1, 2, 3]}}, "concurrency": 1})"));

    const QString db = m_dir.filePath(QStringLiteral("toolerror.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"),
                    server.url().toString(), spec});
    QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1\n%2%3").arg(r.code).arg(r.out, r.err)));
    QVERIFY2(r.out.contains(QStringLiteral("sweep 1: 2 case(s) submitted, 0 rejected, 1 failed at once")),
             qPrintable(r.out));
    QVERIFY2(r.err.contains(QStringLiteral("case 2 of sweep 1 failed at once"))
                 && r.err.contains(QString::fromStdString(why)) && r.err.contains(QStringLiteral("eddyctl result")),
             qPrintable(r.err));
    QVERIFY(!r.err.contains(QString::fromStdString(server.taskId)));
    QCOMPARE(server.count("tools/call"), 3); // answered: not sent again
    // Nothing lost: the answer is stored as the case's finished task, the others have theirs.
    const auto rows = Eddy::Test::query(
        db, QStringLiteral("SELECT c.idx, c.state, t.status, t.is_tool_error, t.result FROM cases c "
                           "JOIN tasks t ON t.id = c.task_id ORDER BY c.idx"),
        5000);
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[1].mid(0, 4), (QStringList{QStringLiteral("1"), QStringLiteral("completed"),
                                             QStringLiteral("completed"), QStringLiteral("1")}));
    QVERIFY2(rows[1][4].contains(QString::fromStdString(why)), qPrintable(rows[1][4]));
    QCOMPARE(rows[0][1], QStringLiteral("submitted"));
    QCOMPARE(rows[2][1], QStringLiteral("submitted"));

    // --json carries the same count.
    const QString jsonDb = m_dir.filePath(QStringLiteral("toolerror-json.sqlite"));
    r = runCtl({QStringLiteral("--db"), jsonDb, QStringLiteral("--json"), QStringLiteral("sweep"),
                QStringLiteral("submit"), server.url().toString(), spec});
    QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1\n%2%3").arg(r.code).arg(r.out, r.err)));
    const QJsonObject summary = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
    QVERIFY2(!summary.isEmpty(), qPrintable(r.out));
    QCOMPARE(summary.value(QStringLiteral("cases")).toInt(), 3);
    QCOMPARE(summary.value(QStringLiteral("rejected")).toInt(), 0);
    QCOMPARE(summary.value(QStringLiteral("unsent")).toInt(), 0);
    QCOMPARE(summary.value(QStringLiteral("toolErrors")).toInt(-1), 1);
    QVERIFY2(r.err.contains(QStringLiteral("case 2 of sweep 1 failed at once")), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(tst_CtlHostile)
#include "tst_ctlhostile.moc"
