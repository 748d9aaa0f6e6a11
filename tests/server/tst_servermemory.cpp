// eddy-cfd-server gives back the memory of a large case when it ends (found by bench/soak: with
// glibc's default mmap threshold the solver fields of every large case stayed in the worker
// threads' arenas, and the server's RSS grew with each long case it ran). Pairs of grid-512 cases
// on two workers; the server's VmRSS from /proc after the first pair and after five more.
//
// It also does not hold every finished case's result for the task's whole ttlMs (found by
// bench/soak: about 10 MB an hour at a few hundred finished cases an hour): after
// --results-in-memory-ms the result is read from the store, byte for byte the same.
//
// And an open listen stream holds no copy of the states it sent when it opened (found by
// bench/soak: a client that reopened its stream over 9,700 tasks, each waiting with its mesh
// question, cost the server tens of MB for as long as each stream stayed open).

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using nlohmann::json;
using Eddy::Test::McpTestClient;

namespace {

constexpr int kPairs = 8;

qint64 rssKb(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// A number from the server's --stats-file, -1 while the file or the field is missing.
qint64 statOf(const QString &path, const char *field)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const json stats = json::parse(f.readAll().toStdString(), nullptr, false);
    return stats.is_object() && stats.contains(field) && stats[field].is_number_integer() ? stats[field].get<qint64>() : -1;
}

// Creates `count` tasks that each stop at their mesh question (a few KB each, the soak's case)
// and waits until the first and the last ask it; empty on a failure.
std::vector<std::string> createAskingTasks(McpTestClient &client, int count)
{
    std::vector<std::string> ids;
    for (int i = 0; i < count; ++i) {
        ids.push_back(client.createTask({{"grid", 8}, {"max_iterations", 200}, {"reynolds", 1 + i}, {"force_mesh_defect", true}}));
        if (ids.back().empty())
            return {};
    }
    for (const std::string &id : {ids.front(), ids.back()})
        if (client.waitForTask(id, [](const json &t) { return t.value("status", "") != "working"; }, 120000).value("status", "")
            != "input_required")
            return {};
    return ids;
}

// Opens a subscriptions/listen stream (request id n) on every task of `ids`.
void listenTo(McpTestClient &client, const std::vector<std::string> &ids, Eddy::Test::SseReader &reader, int n)
{
    const json params = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", ids}}}};
    reader.start(client.url(), json{{"jsonrpc", "2.0"}, {"id", n}, {"method", "subscriptions/listen"}, {"params", params}}.dump(),
                 client.headersFor("subscriptions/listen", params));
}

// The questions a stream has delivered so far.
int questionsIn(const Eddy::Test::SseReader &reader)
{
    int questions = 0;
    for (const json &e : reader.events())
        questions += e.value("method", "") == "notifications/tasks" && e["params"].value("status", "") == "input_required";
    return questions;
}

} // namespace

class tst_ServerMemory : public QObject
{
    Q_OBJECT

private slots:
    void largeCasesGiveTheirMemoryBack();
    void finishedResultsAreReadFromTheStore();
    void restartLeavesFinishedResultsInTheStore();
    void openStreamsHoldNoCopyOfTheirTasks();
    void streamsOnManyThreadsShareOneArena();
    void statsCountOpenStreamsWithTheirThreads();
};

void tst_ServerMemory::largeCasesGiveTheirMemoryBack()
{
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "2"}), qPrintable(server.errorString()));
    McpTestClient client(server.url());
    qint64 afterFirst = -1;
    QList<qint64> rss;
    for (int pair = 0; pair < kPairs; ++pair) {
        // Two at once: one on each worker thread (each thread has its own malloc arena).
        const json args = {{"grid", 512}, {"max_iterations", 200}, {"tolerance", 1e-15}};
        json a = args, b = args;
        a["reynolds"] = 1000 + pair;
        b["reynolds"] = 2000 + pair;
        const std::string ta = client.createTask(a), tb = client.createTask(b);
        QVERIFY(!ta.empty() && !tb.empty());
        QCOMPARE(client.waitForTask(ta, McpTestClient::isTerminal, 120000).value("status", ""), std::string("completed"));
        QCOMPARE(client.waitForTask(tb, McpTestClient::isTerminal, 120000).value("status", ""), std::string("completed"));
        rss << rssKb(server.pid());
        if (pair == 0)
            afterFirst = rss.last();
    }
    QVERIFY(afterFirst > 0);
    // Each finished case keeps its record (a few KB) until it expires; its fields (two 2 MB
    // arrays and more per case) must be gone.
    const qint64 grown = rss.last() - afterFirst;
    QStringList shown;
    for (qint64 kb : rss)
        shown << QString::number(kb / 1024.0, 'f', 1);
    qInfo("RSS after each pair (MB): %s", qPrintable(shown.join(QStringLiteral(", "))));
    QVERIFY2(grown <= 8 * 1024,
             qPrintable(QStringLiteral("the server grew by %1 MB over %2 more pairs of grid-512 cases (RSS after "
                                       "each pair, MB: %3)")
                            .arg(grown / 1024.0, 0, 'f', 1)
                            .arg(kPairs - 1)
                            .arg(shown.join(QStringLiteral(", ")))));
}

void tst_ServerMemory::finishedResultsAreReadFromTheStore()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "2", "--results-in-memory-ms", "3000", "--stats-file", stats}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    std::vector<std::string> ids;
    for (int i = 0; i < 4; ++i) {
        ids.push_back(client.createTask({{"grid", 16}, {"max_iterations", 300}, {"reynolds", 100 + 50 * i}}));
        QVERIFY(!ids.back().empty());
    }
    std::vector<json> seen;
    for (const std::string &id : ids) {
        const json task = client.waitForTask(id, McpTestClient::isTerminal, 120000);
        QCOMPARE(task.value("status", ""), std::string("completed"));
        QVERIFY2(task.contains("result") && !task["result"].value("content", json::array()).empty(),
                 task.dump().c_str());
        seen.push_back(task);
    }
    // Held while fresh, then given up: the stats file is written once a second.
    QTRY_VERIFY_WITH_TIMEOUT(statOf(stats, "results_in_memory") > 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(statOf(stats, "results_in_memory"), qint64(0), 20000);
    QCOMPARE(statOf(stats, "completed"), qint64(4));
    // Read back from the store: the same answer, byte for byte.
    for (size_t i = 0; i < ids.size(); ++i) {
        const json again = client.getTask(ids[i]).result();
        QCOMPARE(again.dump(), seen[i].dump());
    }
    // And after a restart, when every finished task is loaded from the store.
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    McpTestClient after(server.url());
    for (size_t i = 0; i < ids.size(); ++i)
        QCOMPARE(after.getTask(ids[i]).result().dump(), seen[i].dump());
}

// A restarted server does not read the results of its finished tasks (found by bench/soak: it
// read every one, a field picture and a report of about 17 KB each, and dropped them a second
// later; the holes they left between the records read with them raised the memory it kept after
// each trim by 0.5 MB more with every restart of an hour's history). They are read from the
// store when asked for, byte for byte as before.
void tst_ServerMemory::restartLeavesFinishedResultsInTheStore()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "2", "--results-in-memory-ms", "1000", "--stats-file", stats, "--log-level", "info"}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    std::vector<std::string> ids;
    for (int i = 0; i < 6; ++i) {
        ids.push_back(client.createTask({{"grid", 16}, {"max_iterations", 300}, {"reynolds", 100 + 25 * i}}));
        QVERIFY(!ids.back().empty());
    }
    std::vector<json> seen;
    for (const std::string &id : ids) {
        const json task = client.waitForTask(id, McpTestClient::isTerminal, 120000);
        QCOMPARE(task.value("status", ""), std::string("completed"));
        seen.push_back(task);
    }
    // Stored and dropped from memory: the janitor's rule that the restart now applies at once.
    QTRY_VERIFY_WITH_TIMEOUT(statOf(stats, "completed") == 6 && statOf(stats, "results_in_memory") == 0, 20000);
    QVERIFY(QFile::remove(stats));
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    // The load says how many finished tasks it left in the store (the janitor would have dropped
    // their results a second later, so the stats file alone cannot tell the two apart).
    QTRY_VERIFY_WITH_TIMEOUT(statOf(stats, "completed") == 6, 10000);
    const QByteArray log = server.standardError();
    const qsizetype loaded = log.lastIndexOf("loaded ");
    QVERIFY2(loaded >= 0 && log.mid(loaded, 200).contains("6 finished with their results left in the database"),
             log.mid(loaded, 200).constData());
    QCOMPARE(statOf(stats, "results_in_memory"), qint64(0));
    McpTestClient after(server.url());
    for (size_t i = 0; i < ids.size(); ++i)
        QCOMPARE(after.getTask(ids[i]).result().dump(), seen[i].dump());
}

void tst_ServerMemory::openStreamsHoldNoCopyOfTheirTasks()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "2", "--stats-file", stats}), qPrintable(server.errorString()));
    McpTestClient client(server.url());
    // Tasks that wait on their mesh question: a few KB each, the soak's case.
    constexpr int kTasks = 1500;
    const std::vector<std::string> ids = createAskingTasks(client, kTasks);
    QCOMPARE(int(ids.size()), kTasks);
    // One stream read to its end first: whatever the server allocates once for streams is then
    // in the baseline, and its length is what one stream would hold if it kept a copy.
    Eddy::Test::SseReader first;
    listenTo(client, ids, first, 0);
    QTRY_COMPARE_WITH_TIMEOUT(questionsIn(first), kTasks, 60000);
    const qint64 streamKb = qint64(first.rawText().size()) / 1024;
    // The heap in use (the stats file, once a second), not RSS: each stream's thread keeps
    // freed memory in its own malloc arena, which RSS counts and the janitor trims each minute.
    const auto heapKbAfterNextWrite = [&] {
        const qint64 since = statOf(stats, "now_ms");
        return QTest::qWaitFor([&] { return statOf(stats, "now_ms") > since; }, 10000) ? statOf(stats, "heap_in_use_kb")
                                                                                        : qint64(-1);
    };
    const qint64 before = heapKbAfterNextWrite();
    QVERIFY(before > 0);

    constexpr int kStreams = 8;
    std::vector<std::unique_ptr<Eddy::Test::SseReader>> readers;
    for (int i = 1; i <= kStreams; ++i) {
        readers.push_back(std::make_unique<Eddy::Test::SseReader>());
        listenTo(client, ids, *readers.back(), i);
    }
    for (const auto &r : readers)
        QTRY_COMPARE_WITH_TIMEOUT(questionsIn(*r), kTasks, 60000);
    const qint64 after = heapKbAfterNextWrite();
    QVERIFY(after > 0);
    const qint64 grown = after - before;
    qInfo("one stream's catch-up: %lld KB; %d more open streams: heap in use %+lld KB", streamKb, kStreams, grown);
    // A copy per stream would add kStreams * streamKb; what each stream keeps is the ids it
    // carries (a few hundred bytes each).
    QVERIFY2(grown < kStreams * streamKb / 3,
             qPrintable(QStringLiteral("%1 open streams over %2 waiting tasks grew the server by %3 MB; one stream's "
                                       "catch-up is %4 MB")
                            .arg(kStreams).arg(kTasks).arg(grown / 1024.0, 0, 'f', 1).arg(streamKb / 1024.0, 0, 'f', 1)));
    for (const auto &r : readers)
        r->requestStop();
    first.stop();
}

// Each open stream has a thread of its own on the server. With glibc's default, a thread that
// allocates while another holds the arena's lock gets an arena of its own, which keeps the pages
// its freed chunks leave partly used: in the soak the server's RSS lows rose 1 MB per 10-minute
// lifetime with its heap in use flat. The server keeps one arena (M_ARENA_MAX), whatever runs
// at once.
void tst_ServerMemory::streamsOnManyThreadsShareOneArena()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--workers", "2", "--stats-file", stats}), qPrintable(server.errorString()));
    McpTestClient client(server.url());
    constexpr int kTasks = 300;
    const std::vector<std::string> ids = createAskingTasks(client, kTasks);
    QCOMPARE(int(ids.size()), kTasks);
    // Sixteen streams opened at once: each renders its catch-up of 300 questions on its own
    // thread at the same time as the others.
    constexpr int kStreams = 16;
    std::vector<std::unique_ptr<Eddy::Test::SseReader>> readers;
    for (int i = 0; i < kStreams; ++i) {
        readers.push_back(std::make_unique<Eddy::Test::SseReader>());
        listenTo(client, ids, *readers.back(), i);
    }
    for (const auto &r : readers)
        QTRY_COMPARE_WITH_TIMEOUT(questionsIn(*r), kTasks, 60000);
    // The stats file is written once a second: read it after the catch-ups.
    const qint64 since = statOf(stats, "now_ms");
    QVERIFY(QTest::qWaitFor([&] { return statOf(stats, "now_ms") > since; }, 10000));
    const qint64 arenas = statOf(stats, "malloc_arenas");
    qInfo("%d streams caught up at once: %lld malloc arena(s)", kStreams, arenas);
    QCOMPARE(arenas, qint64(1));
    for (const auto &r : readers)
        r->requestStop();
}

// The soak judges the server's threads other than its open streams' (each holds one while it
// is open) and its RSS above its heap in use; both come from one write of the stats file, so a
// stream opened or memory freed between two readings cannot make a low of its own.
void tst_ServerMemory::statsCountOpenStreamsWithTheirThreads()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    Eddy::Test::TestServer server;
    // A stream learns that its client left at its next write: a keep-alive comment a second.
    QVERIFY2(server.start({"--workers", "2", "--stats-file", stats, "--sse-keep-alive-ms", "1000"}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const std::vector<std::string> ids = createAskingTasks(client, 4);
    QCOMPARE(int(ids.size()), 4);
    QTRY_COMPARE_WITH_TIMEOUT(statOf(stats, "open_streams"), qint64(0), 10000);
    const qint64 idleThreads = statOf(stats, "threads");
    QVERIFY2(idleThreads > 0, "the stats file has no thread count");
    constexpr int kStreams = 3;
    std::vector<std::unique_ptr<Eddy::Test::SseReader>> readers;
    for (int i = 0; i < kStreams; ++i) {
        readers.push_back(std::make_unique<Eddy::Test::SseReader>());
        listenTo(client, ids, *readers.back(), i);
    }
    for (const auto &r : readers)
        QTRY_COMPARE_WITH_TIMEOUT(questionsIn(*r), 4, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(statOf(stats, "open_streams"), qint64(kStreams), 10000);
    const qint64 busyThreads = statOf(stats, "threads");
    qInfo("threads: %lld idle, %lld with %d streams open", idleThreads, busyThreads, kStreams);
    QVERIFY(busyThreads >= idleThreads + kStreams - 1);
    const qint64 rss = statOf(stats, "rss_kb");
    const qint64 heap = statOf(stats, "heap_in_use_kb");
    QVERIFY2(rss > 0 && heap > 0 && rss > heap, qPrintable(QStringLiteral("rss %1 KB, heap %2 KB").arg(rss).arg(heap)));
    for (const auto &r : readers)
        r->requestStop();
    readers.clear();
    QTRY_COMPARE_WITH_TIMEOUT(statOf(stats, "open_streams"), qint64(0), 20000);
}

QTEST_GUILESS_MAIN(tst_ServerMemory)
#include "tst_servermemory.moc"
