// eddy-cfd-server gives back the memory of a large case when it ends (found by bench/soak: with
// glibc's default mmap threshold the solver fields of every large case stayed in the worker
// threads' arenas, and the server's RSS grew with each long case it ran). Pairs of grid-512 cases
// on two workers; the server's VmRSS from /proc after the first pair and after five more.

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QFile>
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

} // namespace

class tst_ServerMemory : public QObject
{
    Q_OBJECT

private slots:
    void largeCasesGiveTheirMemoryBack();
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

QTEST_GUILESS_MAIN(tst_ServerMemory)
#include "tst_servermemory.moc"
