// eddyctl samples thin on a real database file: runs finished 100 days ago and 10 days ago, each
// with progress samples as polling stores them. A dry run counts and removes nothing; --yes
// thins only the old runs, keeping every tenth sample of each series and its first and last;
// results and answers are untouched; bad arguments say what to write.
#include "app/store/taskstore.h"
#include "tests/common/ctlprocess.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;

namespace {

Test::CtlRun runCtl(const QStringList &args)
{
    return Test::runCtl(args, {10000, 120000, 5000});
}

qint64 scalar(const QString &db, const QString &sql)
{
    return Test::scalar(db, sql, 10000);
}

} // namespace

class tst_CtlSamples : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void badArgumentsSayWhatToWrite();
    void dryRunCountsAndKeepsEverything();
    void yesThinsOnlyOldRuns();

private:
    QString db() const { return m_dir.filePath(QStringLiteral("year.sqlite")); }
    QTemporaryDir m_dir;
    qint64 m_oldTask = 0;
    qint64 m_newTask = 0;
};

void tst_CtlSamples::initTestCase()
{
    QVERIFY(m_dir.isValid());
    Store::TaskStore store;
    QVERIFY2(store.open(db()), qPrintable(store.lastError()));
    Store::ServerRecord server;
    server.url = QStringLiteral("http://127.0.0.1:9/mcp");
    const qint64 serverId = *store.addServer(server);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const qint64 age : {100LL, 10LL}) {
        Store::CaseRecord c;
        c.serverId = serverId;
        c.tool = QStringLiteral("run_cfd_case");
        c.arguments = QStringLiteral(R"({"reynolds":100})");
        c.idempotencyKey = QStringLiteral("thin-%1").arg(age);
        QList<Store::CaseRecord> cases{c};
        Store::SweepRecord sweep;
        sweep.serverId = serverId;
        sweep.tool = c.tool;
        sweep.spec = QStringLiteral("{}");
        QVERIFY(store.journalSweep(sweep, cases));
        Store::TaskRecord t;
        t.serverId = serverId;
        t.tool = c.tool;
        t.arguments = c.arguments;
        t.serverTaskId = QStringLiteral("srv-%1").arg(age);
        t.status = Store::TaskStatus::Completed;
        t.result = QStringLiteral(R"({"structuredContent":{"iterations":95}})");
        t.firstSeenAtMs = now - age * 86400000LL;
        t.updatedAtMs = t.firstSeenAtMs + 100000;
        t.finishedAtMs = t.updatedAtMs;
        QVERIFY(store.recordTaskForCase(cases[0].id, t));
        QList<Store::ProgressSample> samples;
        for (int i = 0; i < 95; ++i) {
            samples << Store::ProgressSample{t.id, t.firstSeenAtMs + i * 1000, QStringLiteral("iteration"), double(i), double(i)}
                    << Store::ProgressSample{t.id, t.firstSeenAtMs + i * 1000, QStringLiteral("residual.u"), double(i), 1.0 / (1 + i)};
        }
        QVERIFY(store.storeTaskUpdate(t, true, samples));
        QVERIFY(store.recordInputRequest(t.id, QStringLiteral("mesh"), QStringLiteral("{}")));
        QVERIFY(store.beginAnswer(t.id, QStringLiteral("mesh"), QStringLiteral(R"({"action":"decline"})"), QStringLiteral("ada")));
        QVERIFY(store.finishAnswer(t.id, QStringLiteral("mesh"), true));
        (age == 100 ? m_oldTask : m_newTask) = t.id;
    }
}

void tst_CtlSamples::badArgumentsSayWhatToWrite()
{
    Test::CtlRun r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("samples"), QStringLiteral("thin"),
                             QStringLiteral("--keep"), QStringLiteral("1-in-10")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--older-than 90d"), r.err.constData());
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("samples"), QStringLiteral("thin"),
                QStringLiteral("--older-than"), QStringLiteral("90d"), QStringLiteral("--keep"), QStringLiteral("1-in-1")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--keep 1-in-10"), r.err.constData());
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("samples"), QStringLiteral("--older-than"), QStringLiteral("90d")});
    QCOMPARE(r.code, 2);
    QCOMPARE(scalar(db(), QStringLiteral("SELECT COUNT(*) FROM progress_samples")), qint64(380));
}

void tst_CtlSamples::dryRunCountsAndKeepsEverything()
{
    const Test::CtlRun r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("samples"), QStringLiteral("thin"),
                                   QStringLiteral("--older-than"), QStringLiteral("90d"), QStringLiteral("--keep"),
                                   QStringLiteral("1-in-10")});
    QVERIFY2(r.code == 0, r.err.constData());
    // Per series of the old run: samples 1, 11, ..., 91 and the last (95) stay: 11 of 95.
    QVERIFY2(r.out.contains("1 run(s) finished before") && r.out.contains("hold 190 of the 380 progress samples"),
             r.out.constData());
    QVERIFY2(r.out.contains("removes 168.") && r.out.contains("Nothing was removed"), r.out.constData());
    QCOMPARE(scalar(db(), QStringLiteral("SELECT COUNT(*) FROM progress_samples")), qint64(380));
}

void tst_CtlSamples::yesThinsOnlyOldRuns()
{
    const Test::CtlRun r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("samples"), QStringLiteral("thin"),
                                   QStringLiteral("--older-than"), QStringLiteral("90d"), QStringLiteral("--keep"),
                                   QStringLiteral("1-in-10"), QStringLiteral("--yes")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("Removed 168 progress sample(s)."), r.out.constData());
    const QString count = QStringLiteral("SELECT COUNT(*) FROM progress_samples WHERE task_id=%1 AND series='%2'");
    QCOMPARE(scalar(db(), count.arg(m_oldTask).arg(QStringLiteral("iteration"))), qint64(11));
    QCOMPARE(scalar(db(), count.arg(m_oldTask).arg(QStringLiteral("residual.u"))), qint64(11));
    QCOMPARE(scalar(db(), count.arg(m_newTask).arg(QStringLiteral("iteration"))), qint64(95));
    // The first and the last sample of each series stay, so a chart keeps its whole span.
    QCOMPARE(scalar(db(), QStringLiteral("SELECT CAST(MIN(x) AS INTEGER) FROM progress_samples WHERE task_id=%1").arg(m_oldTask)), qint64(0));
    QCOMPARE(scalar(db(), QStringLiteral("SELECT CAST(MAX(x) AS INTEGER) FROM progress_samples WHERE task_id=%1").arg(m_oldTask)), qint64(94));
    QCOMPARE(scalar(db(), QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state='answered'")), qint64(2));
    QCOMPARE(scalar(db(), QStringLiteral("SELECT COUNT(*) FROM tasks WHERE result LIKE '%iterations%'")), qint64(2));
}

QTEST_GUILESS_MAIN(tst_CtlSamples)
#include "tst_ctlsamples.moc"
