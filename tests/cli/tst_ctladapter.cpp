// Job-id tools as tasks, end to end: the real eddyctl against the real eddy-cfd-server run with
// --no-tasks-extension, so its classic job tools (submit_cfd_case, get_cfd_case_status,
// answer_cfd_case, cancel_cfd_case, get_cfd_result) are the only way to run a long case.
// eddyctl proposes the adapter, stores an edited one, follows jobs through it (results, a mesh
// question answered from --answers, kill -9 while the job runs then watch, batched status polls),
// and names the pattern "job" in tasks --json; the job id is never printed.
#include "tests/common/ctljobserver.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTest>

namespace {

using Run = Eddy::Test::CtlRun;
using Eddy::Test::ctlBin;
using Eddy::Test::writeFile;

} // namespace

class tst_CtlAdapter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void proposeEditAndStore();
    void callWaitPrintsTheResultTool();
    void meshQuestionAnsweredThroughTheAnswerTool();
    void killNineThenWatchFinishes();
    void cancelGoesThroughTheCancelTool();

private:
    void checkNoJobIdIn(const QByteArray &text);

    Eddy::Test::CtlJobServer m_ctl;
};

void tst_CtlAdapter::initTestCase()
{
    const QString error = m_ctl.start(4);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(writeFile(m_ctl.dir.filePath(QStringLiteral("answers.json")),
                      R"({"action": "repair", "smoothing_passes": 5})"));
}

void tst_CtlAdapter::checkNoJobIdIn(const QByteArray &text)
{
    const QList<QStringList> ids = Eddy::Test::query(
        m_ctl.db, QStringLiteral("SELECT server_task_id FROM tasks WHERE pattern = 'job'"), 10000);
    QVERIFY(!ids.isEmpty());
    for (const QStringList &row : ids)
        QVERIFY2(!row[0].isEmpty() && !text.contains(row[0].toUtf8()), "a job id was printed");
}

void tst_CtlAdapter::proposeEditAndStore()
{
    Run r = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("show"), m_ctl.server.url()});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("proposed"), r.err.constData());
    QJsonObject a = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(a["submit"].toObject()["tool"].toString(), QStringLiteral("submit_cfd_case"));
    QCOMPARE(a["submit"].toObject()["jobIdPointer"].toString(), QStringLiteral("/job_id"));
    QJsonObject status = a["status"].toObject();
    QCOMPARE(status["tool"].toString(), QStringLiteral("get_cfd_case_status"));
    QCOMPARE(status["idArgument"].toString(), QStringLiteral("job_id"));
    QCOMPARE(status["batchArgument"].toString(), QStringLiteral("job_ids"));
    QCOMPARE(a["resultTool"].toString(), QStringLiteral("get_cfd_result"));
    QCOMPARE(a["cancelTool"].toString(), QStringLiteral("cancel_cfd_case"));
    QCOMPARE(a["answerTool"].toString(), QStringLiteral("answer_cfd_case"));

    // A broken edit is refused with what to fix, and nothing is stored.
    QJsonObject broken = a;
    status["states"] = QJsonObject{{QStringLiteral("running"), QStringLiteral("busy")}};
    broken["status"] = status;
    const QString brokenFile = m_ctl.dir.filePath(QStringLiteral("broken.json"));
    QVERIFY(writeFile(brokenFile, QJsonDocument(broken).toJson()));
    r = m_ctl.run(
        {QStringLiteral("adapter"), QStringLiteral("set"), m_ctl.server.url(), brokenFile});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("\"busy\"") && r.err.contains("nothing was stored"), r.err.constData());
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM job_adapters")), 0);

    // The engineer's edit: poll every 200 ms, backing off to 1 s.
    a["poll"] = QJsonObject{{QStringLiteral("intervalMs"), 200},
                            {QStringLiteral("backoff"), 1.5},
                            {QStringLiteral("maxIntervalMs"), 1000}};
    const QString file = m_ctl.dir.filePath(QStringLiteral("adapter.json"));
    QVERIFY(writeFile(file, QJsonDocument(a).toJson()));
    r = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("set"), m_ctl.server.url(), file});
    QVERIFY2(r.code == 0, r.err.constData());
    r = m_ctl.run({QStringLiteral("adapter"), QStringLiteral("show"), m_ctl.server.url()});
    QVERIFY2(r.code == 0 && r.err.contains("stored"), r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out).object()["poll"].toObject()["intervalMs"].toInt(), 200);
}

void tst_CtlAdapter::callWaitPrintsTheResultTool()
{
    Run r = m_ctl.run({QStringLiteral("call"),
                       m_ctl.server.url(),
                       QStringLiteral("submit_cfd_case"),
                       QStringLiteral("{\"reynolds\": 100, \"grid\": 16, \"max_iterations\": 200}"),
                       QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject result = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(result["structuredContent"].toObject()["iterations"].toInt(), 200);
    QCOMPARE(result["isError"].toBool(), false);
    checkNoJobIdIn(r.out + r.err);

    r = m_ctl.run({QStringLiteral("--json"), QStringLiteral("tasks")});
    QVERIFY2(r.code == 0, r.err.constData());
    bool sawJob = false;
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    for (const QJsonValue &row : rows) {
        const QJsonObject t = row.toObject();
        if (t["tool"].toString() == QLatin1String("submit_cfd_case")) {
            QCOMPARE(t["pattern"].toString(), QStringLiteral("job"));
            QCOMPARE(t["status"].toString(), QStringLiteral("completed"));
            sawJob = true;
        }
    }
    QVERIFY2(sawJob, r.out.constData());
    checkNoJobIdIn(r.out + r.err);
}

void tst_CtlAdapter::meshQuestionAnsweredThroughTheAnswerTool()
{
    Run r = m_ctl.run({QStringLiteral("call"),
                       m_ctl.server.url(),
                       QStringLiteral("submit_cfd_case"),
                       QStringLiteral("{\"reynolds\": 100, \"grid\": 16, \"max_iterations\": 200, "
                                      "\"force_mesh_defect\": true}"),
                       QStringLiteral("--wait"),
                       QStringLiteral("--answers"),
                       m_ctl.dir.filePath(QStringLiteral("answers.json"))});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out)
                 .object()["structuredContent"]
                 .toObject()["iterations"]
                 .toInt(),
             200);
    // The question was stored once and answered from the file, through answer_cfd_case.
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM input_requests i JOIN tasks t ON "
                                         "t.id = i.task_id WHERE t.pattern = 'job' AND i.state = "
                                         "'answered'")),
             1);
    checkNoJobIdIn(r.out + r.err);
}

void tst_CtlAdapter::killNineThenWatchFinishes()
{
    // A case of several seconds (a tolerance it never reaches, many iterations), so the kill
    // lands while the job runs on the server, not after it.
    const qsizetype logFrom = m_ctl.server.standardError().size();
    QProcess p;
    p.start(ctlBin(),
            m_ctl.withDb({QStringLiteral("call"),
                          m_ctl.server.url(),
                          QStringLiteral("submit_cfd_case"),
                          QStringLiteral("{\"case_name\": \"killed\", \"reynolds\": 100, "
                                         "\"grid\": 48, \"max_iterations\": 600000, "
                                         "\"tolerance\": 1e-14}"),
                          QStringLiteral("--wait")}));
    QVERIFY(p.waitForStarted(10000));
    // Killed once a status answer of the running job was stored (not just the submit).
    const QString polled = QStringLiteral("SELECT id FROM tasks WHERE pattern = 'job' AND "
                                          "arguments LIKE '%killed%' AND status = 'working' AND "
                                          "status_message <> 'submitted'");
    QTRY_VERIFY_WITH_TIMEOUT(m_ctl.scalar(polled) > 0, 60000);
    p.kill(); // SIGKILL mid-job
    QVERIFY(p.waitForFinished(10000));
    const qint64 killedAtMs = QDateTime::currentMSecsSinceEpoch();
    // What the killed process left: the job live in the store.
    const qint64 taskId = m_ctl.scalar(polled);
    QVERIFY2(taskId > 0, "the job was not live in the store when eddyctl was killed");

    const Run r = m_ctl.run({QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND status = "
                                         "'completed' AND result LIKE '%iterations%'")
                              .arg(taskId)),
             1);
    // The restarted eddyctl found the job still running (it stored its progress after the kill)
    // and followed it to its end...
    QVERIFY(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM task_events WHERE task_id = %1 AND "
                                        "status = 'working' AND at > %2")
                             .arg(taskId)
                             .arg(killedAtMs))
            > 0);
    // ...without submitting it again: the server received one submit.
    const QByteArray log = m_ctl.server.standardError().mid(logFrom);
    QCOMPARE(log.count("submitted through submit_cfd_case"), qsizetype(1));
    QCOMPARE(log.count("re-used through submit_cfd_case"), qsizetype(0));
    checkNoJobIdIn(r.out + r.err);
}

void tst_CtlAdapter::cancelGoesThroughTheCancelTool()
{
    // A job that would run for minutes; call without --wait returns once its id is stored.
    Run r = m_ctl.run({QStringLiteral("call"),
                       m_ctl.server.url(),
                       QStringLiteral("submit_cfd_case"),
                       QStringLiteral("{\"reynolds\": 400, \"grid\": 64, \"max_iterations\": "
                                      "10000000, \"tolerance\": 1e-14}")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^task (\\d+) working"))
                                          .match(QString::fromUtf8(r.out));
    QVERIFY2(m.hasMatch(), r.out.constData());
    const QString task = m.captured(1);

    // The server has no tasks/cancel (--no-tasks-extension): only cancel_cfd_case can stop it.
    r = m_ctl.run({QStringLiteral("cancel"), task});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("cancel requested"), r.out.constData());
    checkNoJobIdIn(r.out + r.err);

    r = m_ctl.run({QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(m_ctl.scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND pattern = "
                                         "'job' AND status = 'cancelled'")
                              .arg(task)),
             1);
    checkNoJobIdIn(r.out + r.err);
}

QTEST_GUILESS_MAIN(tst_CtlAdapter)
#include "tst_ctladapter.moc"
