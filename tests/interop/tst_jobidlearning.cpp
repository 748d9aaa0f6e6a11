// A job-id server in another naming style, end to end: the real eddyctl against
// tests/interop/sdk-job-server.mjs (the official server SDK on loopback), whose tools have no
// output schemas and whose submit answer carries the id only as {"job": {"id": ...}} and as
// "queued as job sim-..." in its text. The engineer stores the adapter exactly as Eddy proposes
// it; the first `call --wait` learns where the id is, follows the job to its result tool's answer
// and stores what it learned, so later calls read the id there directly. The id is never printed.
#include "tests/common/ctlprocess.h"
#include "tests/common/nodeserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = Eddy::Test::CtlRun;

QString writeTemp(const QTemporaryDir &dir, const QString &name, const QByteArray &data)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
        return {};
    return path;
}

} // namespace

class tst_JobIdLearning : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void proposalAsIsFollowsTheFirstJob();

private:
    Run ctl(const QStringList &args)
    {
        return Eddy::Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args,
                                  {10000, 120000, 5000});
    }
    QJsonObject storedSubmit();
    void checkNoJobIdIn(const QByteArray &text);

    Eddy::Test::NodeServer m_server{QStringLiteral("sdk-job-server.mjs"),
                                    QStringLiteral("@modelcontextprotocol/server")};
    QTemporaryDir m_dir;
    QString m_url;
    QString m_db;
};

void tst_JobIdLearning::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    m_url = m_server.start();
    QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.error()));
}

QJsonObject tst_JobIdLearning::storedSubmit()
{
    const Run r = ctl({QStringLiteral("adapter"), QStringLiteral("show"), m_url});
    if (r.code != 0 || !r.err.contains("stored"))
        qWarning("adapter show: %d %s", r.code, r.err.constData());
    return QJsonDocument::fromJson(r.out).object()[QStringLiteral("submit")].toObject();
}

void tst_JobIdLearning::checkNoJobIdIn(const QByteArray &text)
{
    const QList<QStringList> ids = Eddy::Test::query(
        m_db, QStringLiteral("SELECT server_task_id FROM tasks WHERE pattern = 'job'"), 10000);
    QVERIFY(!ids.isEmpty());
    for (const QStringList &row : ids)
        QVERIFY2(!row[0].isEmpty() && !text.contains(row[0].toUtf8()), "a job id was printed");
}

void tst_JobIdLearning::proposalAsIsFollowsTheFirstJob()
{
    // The proposal names the tools, and says it will learn where the id is.
    Run r = ctl({QStringLiteral("adapter"), QStringLiteral("show"), m_url});
    QVERIFY2(r.code == 0 && r.err.contains("proposed"), r.err.constData());
    const QJsonObject proposal = QJsonDocument::fromJson(r.out).object();
    const QJsonObject submit = proposal[QStringLiteral("submit")].toObject();
    QCOMPARE(submit[QStringLiteral("tool")].toString(), QStringLiteral("startSimulation"));
    QCOMPARE(proposal[QStringLiteral("status")].toObject()[QStringLiteral("tool")].toString(),
             QStringLiteral("simulationStatus"));
    QCOMPARE(proposal[QStringLiteral("resultTool")].toString(), QStringLiteral("simulationResult"));
    QCOMPARE(submit[QStringLiteral("learnJobId")].toBool(), true);
    QVERIFY2(r.err.contains("stores where"), r.err.constData());

    // Stored unedited, except for a quicker poll so the test does not wait five seconds a step.
    QJsonObject adapter = proposal;
    adapter[QStringLiteral("poll")] = QJsonObject{{QStringLiteral("intervalMs"), 200},
                                                  {QStringLiteral("backoff"), 1.2},
                                                  {QStringLiteral("maxIntervalMs"), 500}};
    const QString file = writeTemp(m_dir, QStringLiteral("adapter.json"),
                                   QJsonDocument(adapter).toJson());
    QVERIFY(!file.isEmpty());
    r = ctl({QStringLiteral("adapter"), QStringLiteral("set"), m_url, file});
    QVERIFY2(r.code == 0, r.err.constData());

    // The first call follows the job to the result tool's answer, not the submit's.
    r = ctl({QStringLiteral("call"), m_url, QStringLiteral("startSimulation"),
             QStringLiteral(R"({"case_name": "first", "steps": 4})"), QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    QJsonObject result = QJsonDocument::fromJson(r.out).object();
    QVERIFY2(r.out.contains("simulation-result-ok"), r.out.constData());
    QCOMPARE(result[QStringLiteral("structuredContent")].toObject()[QStringLiteral("steps")].toInt(),
             4);
    checkNoJobIdIn(r.out + r.err);

    // What it learned is stored: the id's place in structuredContent, and no more guessing.
    const QJsonObject learned = storedSubmit();
    QCOMPARE(learned[QStringLiteral("jobIdPointer")].toString(), QStringLiteral("/job/id"));
    QVERIFY(!learned.contains(QStringLiteral("learnJobId")));

    // The second call reads the id where the first one found it.
    r = ctl({QStringLiteral("call"), m_url, QStringLiteral("startSimulation"),
             QStringLiteral(R"({"case_name": "second", "steps": 3})"), QStringLiteral("--wait")});
    QVERIFY2(r.code == 0, r.err.constData());
    result = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(result[QStringLiteral("structuredContent")].toObject()[QStringLiteral("caseName")]
                 .toString(),
             QStringLiteral("second"));

    r = ctl({QStringLiteral("--json"), QStringLiteral("tasks")});
    QVERIFY2(r.code == 0, r.err.constData());
    int jobs = 0;
    for (const QJsonValue &row : QJsonDocument::fromJson(r.out).array()) {
        const QJsonObject t = row.toObject();
        QCOMPARE(t[QStringLiteral("pattern")].toString(), QStringLiteral("job"));
        QCOMPARE(t[QStringLiteral("status")].toString(), QStringLiteral("completed"));
        ++jobs;
    }
    QCOMPARE(jobs, 2);
    checkNoJobIdIn(r.out + r.err);
}

QTEST_GUILESS_MAIN(tst_JobIdLearning)
#include "tst_jobidlearning.moc"
