// The index check of a database that grows for months (docs/performance.md, "A year of
// sweeps"): every statement the store runs for the window's and the report's hot reads (a
// sweep's cases and tasks, a task's samples, events and questions, the live tasks, the open and
// answered questions, a session's tasks, the cases left to send) is captured as SQLite runs it
// (sqlite3_trace_v2), and its EXPLAIN QUERY PLAN must not scan a table that grows with the
// history: each is a SEARCH through an index, so its cost follows what it returns, not the year.
#include "app/store/database.h"
#include "app/store/taskstore.h"

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace Eddy;
using namespace Eddy::Store;

namespace {

int traceStatement(unsigned type, void *context, void *, void *sql)
{
    if (type == SQLITE_TRACE_STMT) {
        const QString text = QString::fromUtf8(static_cast<const char *>(sql)).simplified();
        if (!text.startsWith(QLatin1String("--")))
            static_cast<QSet<QString> *>(context)->insert(text);
    }
    return 0;
}

// The tables that grow with every sweep run (the others hold a row per server, session or sweep).
const QRegularExpression s_growingScan(
    QStringLiteral("^SCAN (tasks|cases|progress_samples|task_events|input_requests|session_tasks|change_log)\\b(?!.*USING (COVERING )?INDEX)"));

} // namespace

class tst_QueryPlan : public QObject
{
    Q_OBJECT

private slots:
    void hotReadsSearchThroughIndexes();
};

void tst_QueryPlan::hotReadsSearchThroughIndexes()
{
    QTemporaryDir dir;
    TaskStore store;
    QVERIFY2(store.open(dir.filePath(QStringLiteral("plan.sqlite"))), qPrintable(store.lastError()));
    ServerRecord server;
    server.url = QStringLiteral("http://127.0.0.1:9/mcp");
    const qint64 serverId = *store.addServer(server);
    const qint64 session = *store.createSession(QStringLiteral("study"));
    SweepRecord sweep;
    sweep.serverId = serverId;
    sweep.sessionId = session;
    sweep.tool = QStringLiteral("run_cfd_case");
    sweep.spec = QStringLiteral(R"({"vary":{"reynolds":{"list":[100,400]}}})");
    QList<CaseRecord> cases;
    for (int i = 0; i < 2; ++i) {
        CaseRecord c;
        c.serverId = serverId;
        c.index = i;
        c.tool = sweep.tool;
        c.arguments = QStringLiteral(R"({"reynolds":%1})").arg(100 + 300 * i);
        c.idempotencyKey = QStringLiteral("plan-%1").arg(i);
        cases << c;
    }
    QVERIFY(store.journalSweep(sweep, cases));
    TaskRecord t;
    t.serverId = serverId;
    t.tool = sweep.tool;
    t.arguments = cases[0].arguments;
    t.serverTaskId = QStringLiteral("secret-0");
    t.sweepId = sweep.id;
    t.firstSeenAtMs = 1000;
    t.updatedAtMs = 1000;
    QVERIFY(store.recordTaskForCase(cases[0].id, t));
    QVERIFY(store.storeTaskUpdate(t, true, {ProgressSample{t.id, 1000, QStringLiteral("residual.u"), 1, 0.5}}));
    QVERIFY(store.recordInputRequest(t.id, QStringLiteral("mesh"), QStringLiteral(R"({"method":"elicitation/create"})")));
    QVERIFY(store.beginAnswer(t.id, QStringLiteral("mesh"), QStringLiteral(R"({"action":"decline"})"), QStringLiteral("ada")));
    QVERIFY(store.finishAnswer(t.id, QStringLiteral("mesh"), true));

    // The hot reads, as the window, the report and a restart make them.
    QSet<QString> statements;
    sqlite3 *db = store.database().handle();
    QVERIFY(db);
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, traceStatement, &statements);
    QCOMPARE(store.cases(sweep.id).size(), 2);
    TaskQuery bySweep;
    bySweep.sweepId = sweep.id;
    QCOMPARE(store.tasks(bySweep).size(), 1);
    TaskQuery bySession;
    bySession.sessionId = session;
    store.tasks(bySession);
    QVERIFY(store.task(t.id));
    store.liveTasks();
    QCOMPARE(store.progressSamples(t.id).size(), 1);
    QVERIFY(store.latestSample(t.id, QStringLiteral("residual.u")));
    QCOMPARE(store.inputRequests(t.id).size(), 1);
    store.pendingInputRequests();
    store.answeredInputRequests();
    store.taskEvents(t.id);
    store.unsubmittedCases();
    sqlite3_trace_v2(db, 0, nullptr, nullptr);
    QVERIFY(statements.size() >= 8);

    QStringList scans;
    for (const QString &sql : std::as_const(statements)) {
        if (!sql.startsWith(QLatin1String("SELECT"), Qt::CaseInsensitive))
            continue;
        sqlite3_stmt *plan = nullptr;
        const QByteArray text = "EXPLAIN QUERY PLAN " + sql.toUtf8();
        QVERIFY2(sqlite3_prepare_v2(db, text.constData(), -1, &plan, nullptr) == SQLITE_OK, qPrintable(sql));
        // A scan along the rowid that a LIMIT stops (the newest N answered questions) reads N
        // rows, not the year: allowed when no sort follows it.
        const bool newestFirst = sql.contains(QLatin1String("ORDER BY id DESC LIMIT"));
        QStringList details;
        while (sqlite3_step(plan) == SQLITE_ROW)
            details << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(plan, 3)));
        const bool sortsAfter = details.filter(QStringLiteral("TEMP B-TREE FOR ORDER BY")).size() > 1;
        for (const QString &detail : std::as_const(details)) {
            if (s_growingScan.match(detail).hasMatch() && !(newestFirst && !sortsAfter))
                scans << detail + QStringLiteral("  <-  ") + sql;
        }
        sqlite3_finalize(plan);
    }
    QVERIFY2(scans.isEmpty(), qPrintable(scans.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_QueryPlan)
#include "tst_queryplan.moc"
