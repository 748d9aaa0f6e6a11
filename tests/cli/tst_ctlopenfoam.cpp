// An OpenFOAM sweep through the real eddyctl against the real eddy-cfd-server and real OpenFOAM
// (Debian: openfoam, openfoam-examples): three cavity cases varying `set` (nu, and in one case a
// vertex that makes checkMesh fail); `eddyctl watch` reports that case's question with
// checkMesh's numbers, `eddyctl answer` changes its mesh, and all three complete, their
// residuals stored as one progress series per OpenFOAM field.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;

Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 60000, 5000});
}

const QString kBadVertices
    = QStringLiteral("((0 0 0) (1 0 0) (9 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (9 1 0.1) (0 1 0.1))");
const QString kGoodVertices
    = QStringLiteral("((0 0 0) (1 0 0) (1 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (1 1 0.1) (0 1 0.1))");

QByteArray sweepSpec()
{
    const QString nu = QStringLiteral("constant/transportProperties:nu");
    const QJsonArray sets{QJsonObject{{nu, 0.01}}, QJsonObject{{nu, 0.02}},
                          QJsonObject{{nu, 0.01}, {QStringLiteral("system/blockMeshDict:vertices"), kBadVertices}}};
    const QJsonObject spec{{QStringLiteral("tool"), QStringLiteral("run_openfoam_case")},
                           {QStringLiteral("fixed"), QJsonObject{{QStringLiteral("template"), QStringLiteral("cavity")},
                                                                 {QStringLiteral("end_time"), 0.1}}},
                           {QStringLiteral("vary"), QJsonObject{{QStringLiteral("set"), QJsonObject{{QStringLiteral("list"), sets}}}}},
                           {QStringLiteral("mode"), QStringLiteral("grid")},
                           {QStringLiteral("concurrency"), 3}};
    return QJsonDocument(spec).toJson();
}

// The form values `eddyctl answer` sends: change the mesh back to the square cavity.
QString changeMesh()
{
    const QJsonObject mesh{{QStringLiteral("system/blockMeshDict:vertices"), kGoodVertices}};
    const QJsonObject values{{QStringLiteral("action"), QStringLiteral("change_mesh")},
                             {QStringLiteral("mesh_set"), QString::fromUtf8(QJsonDocument(mesh).toJson(QJsonDocument::Compact))}};
    return QString::fromUtf8(QJsonDocument(values).toJson(QJsonDocument::Compact));
}

} // namespace

class tst_CtlOpenFoam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sweepWithMeshQuestionAnswered();

private:
    TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_CtlOpenFoam::initTestCase()
{
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty(),
             "OpenFOAM is not installed; this test needs it: apt-get install openfoam openfoam-examples");
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
}

void tst_CtlOpenFoam::sweepWithMeshQuestionAnswered()
{
    const QString db = m_dir.filePath(QStringLiteral("sweep.sqlite"));
    const QString spec = m_dir.filePath(QStringLiteral("nu.json"));
    QVERIFY(Eddy::Test::writeFile(spec, sweepSpec()));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("3 case(s) submitted, 0 rejected"), r.out.constData());

    // The watch reports the question; nothing answers it for the engineer.
    QProcess watch;
    watch.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY(watch.waitForStarted(10000));
    QByteArray err;
    QRegularExpressionMatch asked;
    const QRegularExpression askedRe(QStringLiteral("task (\\d+) asks \\((mesh_repair_\\d+)\\): (.*)"));
    QDeadlineTimer deadline(60000);
    while (!asked.hasMatch() && !deadline.hasExpired() && watch.state() == QProcess::Running) {
        watch.waitForReadyRead(500);
        err += watch.readAllStandardError();
        asked = askedRe.match(QString::fromUtf8(err));
    }
    QVERIFY2(asked.hasMatch(), err.constData());
    const QString message = asked.captured(3);
    for (const char *finding : {"failed 1 check (Max skewness) on 400 cells", "max non-orthogonality 82.7",
                                "507 severely non-orthogonal faces", "max skewness 8.23"})
        QVERIFY2(message.contains(QLatin1String(finding)), qPrintable(message));

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("answer"), asked.captured(1), asked.captured(2), changeMesh()});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(watch.waitForFinished(60000), err.constData());
    err += watch.readAllStandardError();
    QCOMPARE(watch.exitCode(), 0);
    QVERIFY2(err.contains("all tasks finished"), err.constData());

    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("tasks"), QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 3);
    for (const QJsonValue &v : tasks) {
        const QJsonObject t = v.toObject();
        QCOMPARE(t.value("status").toString(), QStringLiteral("completed"));
        QCOMPARE(t.value("isError").toBool(true), false);
        QVERIFY2(t.value("statusMessage").toString().startsWith(QStringLiteral("reached the end time: time = 0.1 of 0.1 (100%)")),
                 qPrintable(t.value("statusMessage").toString()));
    }
    // The answered case ran on the changed mesh: checkMesh passed it, and its log says why.
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("result"), asked.captured(1)});
    QCOMPARE(r.code, 0);
    const QJsonObject s = QJsonDocument::fromJson(r.out).object().value("structuredContent").toObject();
    QVERIFY2(s.value("mesh").toObject().value("ok").toBool(), r.out.constData());
    QFile answerLog(s.value("case_folder").toString() + QStringLiteral("/log.answer"));
    QVERIFY(answerLog.open(QIODevice::ReadOnly));
    QVERIFY(answerLog.readAll().contains("answer 1: change_mesh"));
    // Eddy charts each OpenFOAM field as its own series, from the statusMessage.
    const QList<QStringList> series = Eddy::Test::query(db, QStringLiteral("SELECT DISTINCT series FROM progress_samples"), 10000);
    QStringList names;
    for (const QStringList &row : series)
        names << row.value(0);
    for (const char *name : {"residual.Ux", "residual.Uy", "residual.p", "time"})
        QVERIFY2(names.contains(QLatin1String(name)), qPrintable(names.join(',')));
}

QTEST_GUILESS_MAIN(tst_CtlOpenFoam)
#include "tst_ctlopenfoam.moc"
