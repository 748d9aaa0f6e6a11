// Batched job polling, end to end: the real eddyctl follows several jobs of the real
// eddy-cfd-server run with --no-tasks-extension (classic job tools only) through a job adapter
// with backoff. The jobs of one server are due on shared ticks of the adapter's interval, so the
// server sees about one get_cfd_case_status call per tick carrying every due job id, not one call
// per job: counted from the server's own debug log, one line per status call with how many ids
// it asked about. A job id the server no longer knows, in the middle of a batch, ends that job
// alone; the others finish with their results.
#include "tests/common/ctljobserver.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <sqlite3.h>

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::StatusCall;
using Eddy::Test::statusCalls;
using Eddy::Test::writeFile;

bool execSql(const QString &path, const QString &sql)
{
    sqlite3 *db = nullptr;
    bool ok
        = sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READWRITE, nullptr)
          == SQLITE_OK;
    if (ok) {
        sqlite3_busy_timeout(db, 10000);
        ok = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    sqlite3_close(db);
    return ok;
}

} // namespace

class tst_CtlJobBatch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void dueJobsShareOneStatusCallPerTick();

private:
    Eddy::Test::CtlJobServer m_ctl;
};

void tst_CtlJobBatch::initTestCase()
{
    // Two solver threads for six jobs: some run while others wait in the queue, so their status
    // answers change at different moments and their backoffs differ.
    const QString error = m_ctl.start(2);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void tst_CtlJobBatch::dueJobsShareOneStatusCallPerTick()
{
    // The proposed adapter, edited: poll every 500 ms, doubling while nothing changes, up to 4 s.
    Run r = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("show"), m_ctl.server.url()});
    QVERIFY2(r.code == 0, r.err.constData());
    QJsonObject a = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(a["status"].toObject()["batchArgument"].toString(), QStringLiteral("job_ids"));
    const qint64 tickMs = 500;
    a["poll"] = QJsonObject{{QStringLiteral("intervalMs"), tickMs},
                            {QStringLiteral("backoff"), 2.0},
                            {QStringLiteral("maxIntervalMs"), 4000}};
    const QString file = m_ctl.dir.filePath(QStringLiteral("adapter.json"));
    QVERIFY(writeFile(file, QJsonDocument(a).toJson()));
    r = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("set"), m_ctl.server.url(), file});
    QVERIFY2(r.code == 0, r.err.constData());

    // Seven jobs of different lengths, submitted one eddyctl call each (no waiting).
    const int jobs = 7;
    for (int i = 0; i < jobs; ++i) {
        r = m_ctl.run(
            {QStringLiteral("call"),
             m_ctl.server.url(),
             QStringLiteral("submit_cfd_case"),
             QStringLiteral("{\"case_name\": \"batch%1\", \"reynolds\": 100, \"grid\": 48, "
                            "\"max_iterations\": %2, \"tolerance\": 1e-14}")
                 .arg(i)
                 .arg(40000 + 15000 * i)});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job'")),
             jobs);
    // One job the server no longer knows (as after its expiry): answered "unknown" inside a batch.
    // The longest one: the shortest may already have ended, and been stored so by one of the
    // eddyctl calls above, before its id is changed here.
    const qint64 forgotten = m_ctl.scalar(QStringLiteral("SELECT MAX(id) FROM tasks WHERE "
                                                         "pattern = 'job'"));
    QVERIFY(execSql(m_ctl.db,
                    QStringLiteral("UPDATE tasks SET server_task_id = "
                                   "'job-the-server-forgot-0123456789' WHERE id = %1")
                        .arg(forgotten)));

    const qsizetype logFrom = m_ctl.server.standardError().size();
    r = m_ctl.run({QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());

    // Every other job finished with its result; the forgotten one ended alone.
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job' AND "
                                         "status = 'completed' AND result LIKE '%iterations%'")),
             jobs - 1);
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND status "
                                         "IN ('lost', 'expired')")
                              .arg(forgotten)),
             1);

    const QList<StatusCall> calls = statusCalls(m_ctl.server.standardError().mid(logFrom));
    QVERIFY2(calls.size() >= 3, qPrintable(QString::number(calls.size())));
    int polled = 0;
    int widest = 0;
    int split = 0; // calls less than half a tick after the one before: a tick asked twice
    for (qsizetype i = 0; i < calls.size(); ++i) {
        polled += calls[i].ids;
        widest = std::max(widest, calls[i].ids);
        if (i > 0 && calls[i].atMs - calls[i - 1].atMs < tickMs / 2)
            ++split;
    }
    const qint64 spanMs = calls.last().atMs - calls.first().atMs;
    const QString summary = QStringLiteral("%1 status calls asking %2 ids over %3 ms (%4 ticks), "
                                           "%5 less than half a tick apart, widest %6")
                                .arg(calls.size())
                                .arg(polled)
                                .arg(spanMs)
                                .arg(spanMs / tickMs + 1)
                                .arg(split)
                                .arg(widest);
    qInfo("%s", qPrintable(summary));
    // The jobs share ticks tickMs apart: one status call per tick, however many jobs were due on
    // it. (A tick sent late on a loaded machine may come close to the next: a few are allowed.)
    QVERIFY2(split * 10 <= calls.size(), qPrintable(summary));
    // Calls carry several ids. (Not necessarily every job: the jobs' intervals back off apart.)
    QVERIFY2(widest >= 2, qPrintable(summary));
    QVERIFY2(polled > calls.size(), qPrintable(summary));
}

QTEST_GUILESS_MAIN(tst_CtlJobBatch)
#include "tst_ctljobbatch.moc"
