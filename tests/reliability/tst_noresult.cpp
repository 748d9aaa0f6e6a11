// "Completed with an empty result": a `completed` task state without its result must never be
// taken as the end. The real trigger: a case re-sent with its idempotency key after a kill gets
// the existing task back as a CreateTaskResult, which (by the spec) carries no result; a kill
// before the result was fetched left the task stored `completed` with nothing in it, and nothing
// fetched it again. Here: the real eddy-cfd-server for that path, and a scripted loopback peer
// (HostileServer) for a server that says `completed` before it sends the result.
#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "app/net/httpclient.h"
#include "tests/common/testserver.h"
#include "tests/hostile/hostileserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;
using Eddy::Test::HostileServer;
using Eddy::Test::TestServer;
using nlohmann::json;

class tst_NoResult : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void resentCaseAfterCompletionFetchesTheResult();
    void storedCompletedWithoutResultIsFetchedOnOpen();
    void completedWithoutResultIsAskedAgain();
    void givesUpWithAClearError();

private:
    // Runs one single call on a fresh engine over `db` and returns the finished task.
    Store::TaskRecord runOnce(const QString &db, const QUrl &url, const QByteArray &args,
                              const QString &tool = QStringLiteral("run_cfd_case"));

    TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_NoResult::initTestCase()
{
    QVERIFY(Net::initGlobal());
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
}

Store::TaskRecord tst_NoResult::runOnce(const QString &db, const QUrl &url, const QByteArray &args,
                                        const QString &tool)
{
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QSignalSpy rejected(&engine, &Monitor::Engine::submissionRejected);
    QSignalSpy caseRejected(&engine, &Monitor::Engine::caseRejected);
    if (!engine.open(db))
        return {};
    const qint64 sid = engine.addServer(url.toString());
    if (sid <= 0)
        return {};
    engine.callOnce(sid, tool, args, std::nullopt);
    if (!QTest::qWaitFor([&] { return finished.size() + rejected.size() + caseRejected.size() > 0; }, 120000)
        || !rejected.isEmpty() || !caseRejected.isEmpty())
        return {};
    const qint64 id = finished.first().at(0).value<Store::TaskRecord>().id;
    return engine.catalogue().task(id).value_or(Store::TaskRecord{});
}

void tst_NoResult::resentCaseAfterCompletionFetchesTheResult()
{
    // The iteration-limit case of the crash suite, sent with a fixed key; it runs to its end.
    const QByteArray args = R"({"reynolds":100,"grid":32,"max_iterations":1500,"tolerance":1e-12,
                                "idempotency_key":"no-result-resend-1"})";
    const Store::TaskRecord first = runOnce(m_dir.filePath(QStringLiteral("first.sqlite")), m_server.url(), args);
    QCOMPARE(first.status, Store::TaskStatus::Completed);
    QVERIFY(first.statusMessage.contains(QStringLiteral("iteration limit")));
    QVERIFY(!first.result.isEmpty());

    // A client that lost its reply sends the same case again: the server answers with the
    // existing, already completed task and no result (CreateTaskResult never carries one).
    const Store::TaskRecord again = runOnce(m_dir.filePath(QStringLiteral("again.sqlite")), m_server.url(), args);
    QCOMPARE(again.serverTaskId, first.serverTaskId); // the server did not run it twice
    QCOMPARE(again.status, Store::TaskStatus::Completed);
    QVERIFY2(!again.result.isEmpty(), "the result of a re-sent, already completed case was never fetched");
    const json got = json::parse(again.result.toStdString()).value("structuredContent", json());
    QVERIFY(got.is_object());
    QVERIFY(got == json::parse(first.result.toStdString()).value("structuredContent", json()));
}

void tst_NoResult::storedCompletedWithoutResultIsFetchedOnOpen()
{
    // What a kill between storing that payload-less `completed` and fetching its result leaves.
    const QString db = m_dir.filePath(QStringLiteral("killed.sqlite"));
    const QByteArray args = R"({"reynolds":100,"grid":32,"max_iterations":1500,"tolerance":1e-12,
                                "idempotency_key":"no-result-killed-1"})";
    Store::TaskRecord t = runOnce(db, m_server.url(), args);
    QCOMPARE(t.status, Store::TaskStatus::Completed);
    QVERIFY(!t.result.isEmpty());
    const QString expected = t.result;
    {
        Store::TaskStore store;
        QVERIFY(store.open(db));
        t.result.clear();
        t.isToolError = false;
        QVERIFY(store.storeTaskUpdate(t, false, {}));
        QVERIFY(store.task(t.id)->result.isEmpty());
    }
    Monitor::Engine engine;
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);
    QVERIFY(engine.open(db));
    QCOMPARE(engine.liveTaskCount(), 1); // not taken as finished
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    const auto stored = engine.catalogue().task(t.id);
    QVERIFY(stored);
    QCOMPARE(stored->status, Store::TaskStatus::Completed);
    QCOMPARE(stored->result, expected);
    QVERIFY(stored->error.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(engine.isIdle(), 30000);
    {
        Store::TaskStore store; // the same file, through a connection of the test's own
        QVERIFY(store.open(db));
        QVERIFY(store.liveTasks().isEmpty());
    }
}

void tst_NoResult::completedWithoutResultIsAskedAgain()
{
    HostileServer server;
    QVERIFY(server.listen());
    // Polls 2 and 3 say `completed` with no result; poll 4 brings it.
    server.setFault([](HostileServer &s, const HostileServer::Call &c) {
        if (c.method != "tasks/get" || c.count < 2)
            return false;
        json m = s.normalAnswer(c);
        m["result"]["status"] = "completed";
        m["result"].erase("pollIntervalMs");
        if (c.count < 4)
            m["result"].erase("result");
        else
            m["result"]["result"] = {{"content", {{{"type", "text"}, {"text", "the late result"}}}}};
        c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
        return true;
    });
    const Store::TaskRecord t = runOnce(m_dir.filePath(QStringLiteral("late.sqlite")), server.url(), R"({"n":1})", QStringLiteral("sim"));
    QCOMPARE(t.status, Store::TaskStatus::Completed);
    QVERIFY2(t.result.contains(QStringLiteral("the late result")), qPrintable(t.result));
    QVERIFY(t.error.isEmpty());
    QCOMPARE(server.count("tasks/get"), 4);
}

void tst_NoResult::givesUpWithAClearError()
{
    HostileServer server;
    QVERIFY(server.listen());
    server.setFault([](HostileServer &s, const HostileServer::Call &c) {
        if (c.method != "tasks/get")
            return false;
        json m = s.normalAnswer(c);
        m["result"]["status"] = "completed";
        m["result"].erase("pollIntervalMs");
        m["result"].erase("result");
        c.socket->write(HostileServer::http(QByteArray::fromStdString(m.dump())));
        return true;
    });
    const Store::TaskRecord t = runOnce(m_dir.filePath(QStringLiteral("never.sqlite")), server.url(), R"({"n":1})", QStringLiteral("sim"));
    QCOMPARE(t.status, Store::TaskStatus::Completed);
    QVERIFY(t.result.isEmpty());
    QVERIFY2(t.error.contains(QStringLiteral("the server said completed but sent no result")), qPrintable(t.error));
    QCOMPARE(server.count("tasks/get"), 6); // the first answer and 5 more tries, then no more
}

QTEST_GUILESS_MAIN(tst_NoResult)
#include "tst_noresult.moc"
