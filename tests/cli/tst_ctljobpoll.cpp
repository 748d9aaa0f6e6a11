// How jobs are followed, end to end: the real eddyctl against the real eddy-cfd-server run with
// --no-tasks-extension (classic job tools only), on a real SQLite file.
// - A sweep of jobs ends with every job ended by the adapter's status call: no job id goes on a
//   subscriptions/listen stream (that stream is for MCP tasks; the reference server would answer
//   for job ids too and end the jobs by push). Seen from both sides: the server's debug log says
//   how many ids each listen carried, and eddyctl's monitor debug log how each task ended.
// - `eddyctl adapter set` in another process retunes the status calls of the jobs a running
//   `eddyctl watch` already follows: the spacing of the status calls in the server's log follows
//   the new interval without a restart.
#include "tests/common/ctljobserver.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::writeFile;

// When (ms of the day, made monotonic past midnight) the server logged each status call.
QList<qint64> statusCallTimes(const QByteArray &log)
{
    QList<qint64> out;
    for (const Eddy::Test::StatusCall &call : Eddy::Test::statusCalls(log))
        out.append(call.atMs);
    return out;
}

// The median gap between consecutive calls (0 with fewer than two).
qint64 medianGap(const QList<qint64> &times)
{
    QList<qint64> gaps;
    for (qsizetype i = 1; i < times.size(); ++i)
        gaps << times[i] - times[i - 1];
    if (gaps.isEmpty())
        return 0;
    std::sort(gaps.begin(), gaps.end());
    return gaps[gaps.size() / 2];
}

QString gapsText(const QList<qint64> &times)
{
    QStringList parts;
    for (qsizetype i = 1; i < times.size(); ++i)
        parts << QString::number(times[i] - times[i - 1]);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class tst_CtlJobPoll : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sweepOfJobsEndsByStatusCallsOnly();
    void adapterSetRetunesLiveJobs();

private:
    // Stores the proposed adapter with the given poll settings.
    void setAdapter(qint64 intervalMs, double backoff, qint64 maxIntervalMs);

    Eddy::Test::CtlJobServer m_ctl;
    QJsonObject m_proposed;
};

void tst_CtlJobPoll::initTestCase()
{
    const QString error = m_ctl.start(3);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const Run r
        = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("show"), m_ctl.server.url()});
    QVERIFY2(r.code == 0, r.err.constData());
    m_proposed = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(m_proposed["status"].toObject()["tool"].toString(),
             QStringLiteral("get_cfd_case_status"));
}

void tst_CtlJobPoll::setAdapter(qint64 intervalMs, double backoff, qint64 maxIntervalMs)
{
    QJsonObject a = m_proposed;
    a["poll"] = QJsonObject{{QStringLiteral("intervalMs"), intervalMs},
                            {QStringLiteral("backoff"), backoff},
                            {QStringLiteral("maxIntervalMs"), maxIntervalMs}};
    const QString file = m_ctl.dir.filePath(QStringLiteral("adapter.json"));
    QVERIFY(writeFile(file, QJsonDocument(a).toJson()));
    const Run r
        = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("set"), m_ctl.server.url(), file});
    QVERIFY2(r.code == 0, r.err.constData());
}

void tst_CtlJobPoll::sweepOfJobsEndsByStatusCallsOnly()
{
    setAdapter(300, 1.5, 1200);
    if (QTest::currentTestFailed())
        return;
    // Six jobs of different lengths, as one sweep of the submit tool.
    const QString spec = m_ctl.dir.filePath(QStringLiteral("sweep.json"));
    QVERIFY(writeFile(spec, R"({
        "tool": "submit_cfd_case",
        "fixed": {"reynolds": 100, "grid": 32, "tolerance": 1e-14},
        "vary": {"max_iterations": {"list": [2000, 6000, 12000, 20000, 30000, 45000]}},
        "mode": "grid",
        "concurrency": 6
    })"));
    const qsizetype logFrom = m_ctl.server.standardError().size();
    Run r
        = m_ctl.run({QStringLiteral("sweep"), QStringLiteral("submit"), m_ctl.server.url(), spec});
    QVERIFY2(r.code == 0, r.err.constData());
    const int jobs = 6;
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job'")),
             jobs);

    // eddyctl says how each task ended (push or poll) at debug level.
    QProcess watch;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_LOGGING_RULES"),
               QStringLiteral("eddy.*.info=false\neddy.monitor.debug=true"));
    watch.setProcessEnvironment(env);
    watch.start(Eddy::Test::ctlBin(),
                m_ctl.withDb({QStringLiteral("watch"), QStringLiteral("--until-done")}));
    QVERIFY(watch.waitForStarted(10000));
    watch.closeWriteChannel();
    QVERIFY2(watch.waitForFinished(240000), "eddyctl watch did not finish");
    const QByteArray err = watch.readAllStandardError();
    QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
    QVERIFY2(watch.exitCode() == 0, err.constData());

    // Every job completed with its result tool's answer...
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job' AND "
                                         "status = 'completed' AND result LIKE '%iterations%'")),
             jobs);
    // ...each ended by the adapter's status call, none by a push...
    const qsizetype byPoll = err.count("ended by poll");
    const qsizetype byPush = err.count("ended by push");
    QVERIFY2(byPush == 0 && byPoll == jobs,
             qPrintable(QStringLiteral("%1 ended by poll, %2 by push").arg(byPoll).arg(byPush)));
    // ...and no listen stream carried a job id (this server has no MCP tasks: every id is a job's).
    const QString log = QString::fromUtf8(m_ctl.server.standardError().mid(logFrom));
    static const QRegularExpression listen(
        QStringLiteral("subscriptions/listen for ([1-9]\\d*) task\\(s\\)"));
    const QRegularExpressionMatch m = listen.match(log);
    QVERIFY2(!m.hasMatch(), qPrintable(m.captured(0)));
    QVERIFY(!statusCallTimes(m_ctl.server.standardError().mid(logFrom)).isEmpty());
}

void tst_CtlJobPoll::adapterSetRetunesLiveJobs()
{
    // Status calls every 3 s, without backoff.
    const qint64 oldMs = 3000;
    const qint64 newMs = 400;
    setAdapter(oldMs, 1.0, oldMs);
    if (QTest::currentTestFailed())
        return;
    // Two jobs that would run for minutes.
    QStringList tasks;
    for (int i = 0; i < 2; ++i) {
        const Run r = m_ctl.run(
            {QStringLiteral("call"),
             m_ctl.server.url(),
             QStringLiteral("submit_cfd_case"),
             QStringLiteral("{\"case_name\": \"long%1\", \"reynolds\": 400, \"grid\": 64, "
                            "\"max_iterations\": 10000000, \"tolerance\": 1e-14}")
                 .arg(i)});
        QVERIFY2(r.code == 0, r.err.constData());
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^task (\\d+) working"))
                                              .match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), r.out.constData());
        tasks << m.captured(1);
    }

    const qsizetype logFrom = m_ctl.server.standardError().size();
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(),
                m_ctl.withDb({QStringLiteral("watch"), QStringLiteral("--until-done")}));
    QVERIFY(watch.waitForStarted(10000));
    watch.closeWriteChannel();
    const auto callsSince = [this](qsizetype from) {
        return statusCallTimes(m_ctl.server.standardError().mid(from));
    };
    // The old interval is in force: a few calls about oldMs apart.
    QTRY_VERIFY_WITH_TIMEOUT(callsSince(logFrom).size() >= 4, 60000);
    const QList<qint64> before = callsSince(logFrom);

    // Another process stores the adapter with a shorter interval while watch runs.
    setAdapter(newMs, 1.0, newMs);
    if (QTest::currentTestFailed()) {
        watch.kill();
        watch.waitForFinished(5000);
        return;
    }
    const qsizetype changedAt = m_ctl.server.standardError().size();
    QTRY_VERIFY_WITH_TIMEOUT(callsSince(changedAt).size() >= 8, 60000);
    const QList<qint64> after = callsSince(changedAt).mid(1); // the first may be an old tick's

    // Stop the jobs; watch sees them cancelled and ends.
    for (const QString &task : std::as_const(tasks)) {
        const Run r = m_ctl.run({QStringLiteral("cancel"), task});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    QVERIFY2(watch.waitForFinished(120000), "eddyctl watch did not finish");
    QVERIFY2(watch.exitCode() == 0, watch.readAllStandardError().constData());

    const QString summary
        = QStringLiteral("before: %1 | after: %2").arg(gapsText(before), gapsText(after));
    qInfo("%s", qPrintable(summary));
    QVERIFY2(medianGap(before) >= (oldMs + newMs) / 2, qPrintable(summary));
    QVERIFY2(medianGap(after) < (oldMs + newMs) / 2, qPrintable(summary));
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id IN (%1) AND status = "
                                         "'cancelled'")
                              .arg(tasks.join(QLatin1Char(',')))),
             2);
}

QTEST_GUILESS_MAIN(tst_CtlJobPoll)
#include "tst_ctljobpoll.moc"
