// The window against a Slurm-backed server: the real MainWindow (offscreen) builds a 12-case sweep
// in the sweep editor and submits it to eddy-cfd-server --backend slurm on a private single-node
// Slurm (slurm-cluster.sh). Six cases force a mesh defect: their questions cross the job boundary
// (the job ends, the answer in the panel submits the next attempt). Every case completes with
// its result, and the job completion log has exactly one job per attempt.
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "tests/slurm/slurmtool.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/taskmonitor.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

class tst_SlurmGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sweepThroughSlurmFromTheWindow();
    void cleanupTestCase();

private:
    int eddyJobsInJobcomp() const;

    QTemporaryDir m_cluster;
    QTemporaryDir m_dir;
    bool m_started = false;
    Test::TestServer m_server;
    std::unique_ptr<Test::E2eWindow> m_app;
};

int tst_SlurmGui::eddyJobsInJobcomp() const
{
    QFile f(m_cluster.filePath(QStringLiteral("jobcomp.log")));
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count("Name=eddy-")) : 0;
}

void tst_SlurmGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_slurmgui"));
    QSettings().clear();
    QVERIFY(m_cluster.isValid() && m_dir.isValid());
    int code = -1;
    const QByteArray out = Eddy::Test::Slurm::startCluster(m_cluster.path(), code);
    m_started = true;
    QVERIFY2(code == 0, out.constData());
    QVERIFY2(m_server.start({QStringLiteral("--backend"),
                             QStringLiteral("slurm"),
                             QStringLiteral("--case-dir"),
                             m_dir.filePath(QStringLiteral("cases")),
                             QStringLiteral("--slurm-refresh-ms"),
                             QStringLiteral("300"),
                             QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("250"),
                             QStringLiteral("--checkpoint-interval-ms"),
                             QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
}

void tst_SlurmGui::sweepThroughSlurmFromTheWindow()
{
    Test::E2eWindowOptions options;
    options.size = {}; // the window's own size, as for a user
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Cluster CFD")) > 0);
    QCOMPARE(w.serverModel()->rowCount(), 1);

    // Six Reynolds numbers x forced mesh defect = 12 cases on a 16 x 16 grid, four at a time.
    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    QTRY_VERIFY_WITH_TIMEOUT(editor->setCurrentTool(QStringLiteral("run_cfd_case")), 10000);
    auto *grid = qobject_cast<QSpinBox *>(editor->form()->editor("grid"));
    QVERIFY(grid);
    grid->setValue(16);
    auto *iterations = qobject_cast<QSpinBox *>(editor->form()->editor("max_iterations"));
    QVERIFY(iterations);
    iterations->setValue(300);
    auto *name = qobject_cast<QLineEdit *>(editor->form()->editor("case_name"));
    QVERIFY(name);
    name->setText(QStringLiteral("slurm-gui"));
    editor->setVaried(
        QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 200, 400, 700, 1000, 1500"));
    editor->setVaried(QStringLiteral("force_mesh_defect"),
                      SweepEditor::VaryKind::List,
                      QStringLiteral("false, true"));
    editor->setConcurrency(4);
    QCOMPARE(editor->updatePreview(), 12);
    QVERIFY2(editor->problemText().isEmpty(), qPrintable(editor->problemText()));
    const int jobsBefore = eddyJobsInJobcomp();
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    QVERIFY(submit);
    submit->click();

    // The questions arrive after their jobs ended; each is answered in the panel (repair).
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 12, 60000);
    AnswerPanel *panel = w.answerPanel();
    int answered = 0;
    QElapsedTimer timer;
    timer.start();
    while (w.taskModel()->statusCounts().value(TaskStatus::Completed) < 12
           && timer.elapsed() < 240000) {
        QVERIFY(!w.currentDialog());
        if (w.inboxModel()->pendingCount() > 0 && !panel->hasQuestion())
            w.answerNext();
        if (panel->hasQuestion() && !panel->isGuarded()) {
            QCOMPARE(panel->context().serverName, QStringLiteral("Cluster CFD"));
            QVERIFY(panel->context().caseLabel.contains(QLatin1String("force_mesh_defect = yes")));
            auto *action = qobject_cast<QComboBox *>(panel->form()->editor("action"));
            QVERIFY(action);
            action->setCurrentIndex(
                action->findText(QStringLiteral("Repair the mesh and continue")));
            QVERIFY(action->currentIndex() >= 0);
            panel->findChild<QPushButton *>(QStringLiteral("accept"))->click();
            QVERIFY(!panel->hasQuestion());
            ++answered;
        }
        QTest::qWait(50); // the poll step of this answering loop: events run between its looks
    }
    QCOMPARE(w.taskModel()->statusCounts().value(TaskStatus::Completed), 12);
    QVERIFY2(answered >= 6, qPrintable(QString::number(answered)));
    QCOMPARE(w.inboxModel()->pendingCount(), 0);

    // A case's result, computed in a Slurm job, shows in the result view.
    w.monitor()->selectTask(w.taskModel()->taskIdAt(0));
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);

    // Its residuals, parsed from the job's progress file through the server's statusMessage, are
    // charted against the iteration.
    ResidualChart *chart = w.chart();
    QTRY_VERIFY_WITH_TIMEOUT(!chart->series().isEmpty(), 20000);
    for (SampleSeriesModel *series : chart->series()) {
        QVERIFY2(!series->points().empty(), qPrintable(series->series()));
        for (const QPointF &pt : series->points())
            QVERIFY2(pt.x() >= 0 && pt.x() <= 300,
                     qPrintable(QStringLiteral("%1: x = %2").arg(series->series()).arg(pt.x())));
    }

    // One Slurm job per attempt: twelve first attempts and one more per answered question.
    QTRY_VERIFY_WITH_TIMEOUT(eddyJobsInJobcomp() - jobsBefore >= 12 + answered, 30000);
    QTest::qWait(1000); // negative check: no further job turns up late
    QCOMPARE(eddyJobsInJobcomp() - jobsBefore, 12 + answered);
}

void tst_SlurmGui::cleanupTestCase()
{
    m_app.reset();
    m_server.terminate();
    if (m_started)
        Eddy::Test::Slurm::stopCluster(m_cluster.path());
}

QTEST_MAIN(tst_SlurmGui)
#include "tst_slurmgui.moc"
