// Adapted jobs in the whole window as tasks are (issue 16), on the real MainWindow offscreen
// against the real eddy-cfd-server run with --no-tasks-extension (its classic job tools are the
// only way to run a case), a second one with Tasks for comparison, and a real SQLite file:
// - a job whose mesh check asks puts its question in the inbox; answering it in the answer panel
//   goes through the adapter's answer tool, the job completes, and the answer is shown on it;
// - a running job's row has a residual chart with iteration x values taken from the status
//   tool's progress text, then its result; a sweep of jobs exports the same CSV columns as the
//   same sweep run as tasks;
// - closing the window, and SIGKILL of an `eddyctl call --wait`, mid-job: the window reopened
//   on the same file resumes both jobs to completion, and the server saw one submit per case.
#include "app/monitor/jobadapter.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

class tst_JobsGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void meshQuestionAnsweredInTheWindow();
    void chartAndExportAsForTasks();
    void closeOrKillMidJobThenResume();
    void cleanupTestCase();

private:
    bool openWindow();
    qint64 serverIdOf(const QString &url) const;
    // Submits the same two-case sweep (one case asks about its mesh) through `tool`.
    void submitSweep(qint64 serverId, const QString &tool);
    // Answers every question in the answer panel (repair, 7 smoothing passes) until `done`.
    int answerUntil(const std::function<bool()> &done, int timeoutMs);
    QList<qint64> tasksOfTool(const QString &tool) const;
    // The sweep export of `task`'s sweep as the results view has it, once both cases are in.
    void csvOf(qint64 task, QString *csv);
    qint64 scalar(const QString &sql) const { return Test::scalar(m_db, sql, 10000); }
    int submitsLogged() const
    {
        return int(m_jobServer.standardError().count(" submitted through submit_cfd_case"));
    }

    Test::TestServer m_jobServer;
    Test::TestServer m_taskServer;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_jobServerId = 0;
    qint64 m_taskServerId = 0;
    int m_casesSubmitted = 0; // job cases, for the server's submit count
};

void tst_JobsGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_jobsgui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(Test::ctlBin()), qPrintable(Test::ctlBin()));
    QVERIFY2(m_jobServer.start({QStringLiteral("--no-tasks-extension"),
                                QStringLiteral("--workers"),
                                QStringLiteral("4")}),
             qPrintable(m_jobServer.errorString()));
    QVERIFY2(m_taskServer.start({QStringLiteral("--workers"),
                                 QStringLiteral("2"),
                                 QStringLiteral("--poll-interval-ms"),
                                 QStringLiteral("200")}),
             qPrintable(m_taskServer.errorString()));
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    QVERIFY(openWindow());
    m_jobServerId = m_app->addServer(
        m_jobServer.url(), QStringLiteral("Job CFD"), {}, QStringLiteral("submit_cfd_case"));
    QVERIFY(m_jobServerId > 0);
    m_taskServerId = m_app->addServer(m_taskServer.url(), QStringLiteral("Task CFD"));
    QVERIFY(m_taskServerId > 0);

    // The adapter Eddy proposes, polling every 200 ms backing off to 1 s, stored as the Job
    // Adapter dialog stores it.
    EngineBridge *bridge = m_app->bridge();
    QSignalSpy ready(bridge, &EngineBridge::jobAdapterReady);
    bridge->requestJobAdapter(m_jobServerId);
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
    const auto view = ready.first().first().value<EngineBridge::JobAdapterView>();
    QVERIFY2(view.proposal && view.proposal->adapter, qPrintable(view.error));
    Monitor::JobAdapter adapter = *view.proposal->adapter;
    QCOMPARE(adapter.answerTool, QStringLiteral("answer_cfd_case"));
    adapter.pollIntervalMs = 200;
    adapter.maxPollIntervalMs = 1000;
    QSignalSpy stored(bridge, &EngineBridge::jobAdapterStored);
    bridge->setJobAdapter(m_jobServerId, adapter);
    QTRY_VERIFY_WITH_TIMEOUT(!stored.isEmpty(), 30000);
    QVERIFY2(stored.first().at(1).toBool(), qPrintable(stored.first().at(2).toString()));
}

void tst_JobsGui::cleanupTestCase()
{
    m_app.reset();
}

bool tst_JobsGui::openWindow()
{
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    return bool(m_app);
}

qint64 tst_JobsGui::serverIdOf(const QString &url) const
{
    for (const Store::ServerRecord &s : m_app->window()->serverModel()->servers())
        if (s.url == url)
            return s.id;
    return 0;
}

QList<qint64> tst_JobsGui::tasksOfTool(const QString &tool) const
{
    QList<qint64> ids;
    TaskTableModel *m = m_app->window()->taskModel();
    for (int r = 0; r < m->rowCount(); ++r)
        if (const Store::TaskRecord *t = m->task(m->taskIdAt(r)); t && t->tool == tool)
            ids << t->id;
    return ids;
}

void tst_JobsGui::submitSweep(qint64 serverId, const QString &tool)
{
    const QByteArray spec = QStringLiteral(R"({"tool": "%1",
        "fixed": {"grid": 16, "max_iterations": 200},
        "vary": {"reynolds": {"list": [150]}, "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 2})")
                                .arg(tool)
                                .toUtf8();
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
}

int tst_JobsGui::answerUntil(const std::function<bool()> &done, int timeoutMs)
{
    MainWindow &w = *m_app->window();
    AnswerPanel *panel = w.answerPanel();
    int answered = 0;
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs) {
        if (w.inboxModel()->pendingCount() > 0 && !panel->hasQuestion())
            w.answerNext();
        if (panel->hasQuestion() && !panel->isGuarded()) {
            auto *action = qobject_cast<QComboBox *>(panel->form()->editor("action"));
            auto *passes = qobject_cast<QSpinBox *>(panel->form()->editor("smoothing_passes"));
            if (!action || !passes)
                return -1;
            action->setCurrentIndex(
                action->findText(QStringLiteral("Repair the mesh and continue")));
            passes->setValue(7);
            panel->findChild<QPushButton *>(QStringLiteral("accept"))->click();
            ++answered;
        }
        QTest::qWait(50); // the poll step of this answering loop: events run between its looks
    }
    return answered;
}

void tst_JobsGui::csvOf(qint64 task, QString *csv)
{
    MainWindow &w = *m_app->window();
    w.monitor()->selectTask(task);
    SweepResultsModel *model = w.sweepResults()->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->sweepId() > 0
                                 && model->sweepId() == w.taskModel()->task(task)->sweepId
                                 && model->withResultsCount() == 2,
                             20000);
    QTRY_VERIFY_WITH_TIMEOUT(model->toCsv().contains(QLatin1String("smoothing_passes\"\":7")),
                             20000);
    *csv = model->toCsv();
}

void tst_JobsGui::meshQuestionAnsweredInTheWindow()
{
    MainWindow &w = *m_app->window();
    submitSweep(m_jobServerId, QStringLiteral("submit_cfd_case"));
    m_casesSubmitted += 2;
    QTRY_COMPARE_WITH_TIMEOUT(tasksOfTool(QStringLiteral("submit_cfd_case")).size(), 2, 30000);
    // The defective case's question reaches the inbox, as a task's does.
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 60000);
    const qint64 asking = w.inboxModel()->request(w.inboxModel()->firstPendingRow())->taskId;
    QCOMPARE(w.taskModel()->task(asking)->pattern, Eddy::Pattern::Job);
    QCOMPARE(w.taskModel()
                 ->index(w.taskModel()->rowOf(asking), 0)
                 .data(TaskTableModel::StatusRole)
                 .toInt(),
             int(TaskStatus::InputRequired));

    const auto bothDone = [this] {
        const QList<qint64> ids = tasksOfTool(QStringLiteral("submit_cfd_case"));
        TaskTableModel *m = m_app->window()->taskModel();
        return ids.size() == 2 && std::all_of(ids.begin(), ids.end(), [m](qint64 id) {
                   return m->task(id)->status == TaskStatus::Completed;
               });
    };
    QCOMPARE(answerUntil(bothDone, 90000), 1);
    QVERIFY(bothDone());
    // The answer went through answer_cfd_case: the server has no other way to take one here.
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE task_id = %1 AND "
                                   "state = 'answered'")
                        .arg(asking)),
             1);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id = %1 AND status = "
                                   "'completed' AND result LIKE '%\"iterations\":200%'")
                        .arg(asking)),
             1);

    // The answer given is shown on the job, as on a task: the detail and the inbox tooltip.
    const QString who = MainWindow::localUserName();
    const auto shows = [&](const QString &text) {
        return text.contains(QLatin1String("Repair the mesh and continue"))
               && text.contains(QLatin1String("Smoothing passes: 7")) && text.contains(who);
    };
    w.monitor()->selectTask(asking);
    QTRY_VERIFY_WITH_TIMEOUT(shows(w.resultView()->answersText()), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);
}

void tst_JobsGui::chartAndExportAsForTasks()
{
    MainWindow &w = *m_app->window();
    // The same sweep as tasks, for its CSV.
    submitSweep(m_taskServerId, QStringLiteral("run_cfd_case"));
    QTRY_COMPARE_WITH_TIMEOUT(tasksOfTool(QStringLiteral("run_cfd_case")).size(), 2, 30000);
    const auto bothDone = [this] {
        const QList<qint64> ids = tasksOfTool(QStringLiteral("run_cfd_case"));
        TaskTableModel *m = m_app->window()->taskModel();
        return ids.size() == 2 && std::all_of(ids.begin(), ids.end(), [m](qint64 id) {
                   return m->task(id)->status == TaskStatus::Completed;
               });
    };
    QCOMPARE(answerUntil(bothDone, 90000), 1);
    QVERIFY(bothDone());
    QString taskCsv;
    csvOf(tasksOfTool(QStringLiteral("run_cfd_case")).first(), &taskCsv);
    if (QTest::currentTestFailed())
        return;
    QString jobCsv;
    csvOf(tasksOfTool(QStringLiteral("submit_cfd_case")).first(), &jobCsv);
    if (QTest::currentTestFailed())
        return;
    const QString taskHeader = taskCsv.section(QLatin1Char('\n'), 0, 0);
    const QString jobHeader = jobCsv.section(QLatin1Char('\n'), 0, 0);
    QCOMPARE(jobHeader, taskHeader);
    QVERIFY2(jobHeader.endsWith(QLatin1String(",answer,note,tags")), qPrintable(jobHeader));
    QCOMPARE(jobCsv.count(QLatin1Char('\n')), taskCsv.count(QLatin1Char('\n')));

    // A long job's chart while it runs: iterations on x, from the status tool's message.
    m_app->bridge()->callOnce(m_jobServerId,
                              QStringLiteral("submit_cfd_case"),
                              R"({"reynolds": 100, "grid": 64, "max_iterations": 200000,
                                  "tolerance": 1e-30, "case_name": "charted"})",
                              w.currentSession());
    ++m_casesSubmitted;
    qint64 job = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (qint64 id : tasksOfTool(QStringLiteral("submit_cfd_case")))
                if (w.taskModel()->task(id)->isLive())
                    job = id;
            return job > 0;
        }(),
        30000);
    w.monitor()->selectTask(job);
    ResidualChart *chart = w.chart();
    const auto runningPoints = [&] {
        const Store::TaskRecord *t = w.taskModel()->task(job);
        if (!t || !t->isLive() || chart->series().isEmpty())
            return false;
        for (SampleSeriesModel *s : chart->series())
            if (s->taskId() != job || s->points().size() < 2)
                return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(runningPoints(), 60000);
    const TaskTableModel::Progress *p = w.taskModel()->progress(job);
    QVERIFY(p && p->iteration);
    for (SampleSeriesModel *s : chart->series()) {
        double last = 0;
        for (const QPointF &pt : s->points()) {
            QVERIFY2(pt.x() >= 1 && pt.x() <= 200000 && pt.x() == std::floor(pt.x())
                         && pt.x() > last,
                     qPrintable(QStringLiteral("%1: x = %2").arg(s->series()).arg(pt.x(), 0, 'f')));
            last = pt.x();
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->task(job)->status, TaskStatus::Completed, 90000);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!chart->series().isEmpty()
                                 && chart->series().first()->points().back().x() == 200000,
                             20000);
}

void tst_JobsGui::closeOrKillMidJobThenResume()
{
    MainWindow &w = *m_app->window();
    const QString long1 = QStringLiteral(
        R"({"reynolds": 100, "grid": 64, "max_iterations": 300000, "tolerance": 1e-30,
            "case_name": "%1"})");
    // One job from the window ...
    m_app->bridge()->callOnce(m_jobServerId,
                              QStringLiteral("submit_cfd_case"),
                              long1.arg(QStringLiteral("from-window")).toUtf8(),
                              w.currentSession());
    ++m_casesSubmitted;
    // ... and one from eddyctl on the same file, killed with SIGKILL mid-job.
    QProcess ctl;
    ctl.start(Test::ctlBin(),
              {QStringLiteral("--db"),
               m_db,
               QStringLiteral("call"),
               m_jobServer.url(),
               QStringLiteral("submit_cfd_case"),
               long1.arg(QStringLiteral("from-ctl")),
               QStringLiteral("--wait")});
    QVERIFY(ctl.waitForStarted(10000));
    ++m_casesSubmitted;
    const QString working = QStringLiteral(
        "SELECT COUNT(*) FROM tasks WHERE pattern = 'job' AND status = 'working' AND "
        "status_message LIKE '%iteration%' AND arguments LIKE '%from-%'");
    QTRY_COMPARE_WITH_TIMEOUT(scalar(working), 2, 60000);
    ctl.kill();
    QVERIFY(ctl.waitForFinished(10000));
    const qint64 fromCtl = scalar(QStringLiteral(
        "SELECT id FROM tasks WHERE pattern = 'job' AND arguments LIKE '%from-ctl%'"));
    const qint64 fromWindow = scalar(QStringLiteral(
        "SELECT id FROM tasks WHERE pattern = 'job' AND arguments LIKE '%from-window%'"));
    QVERIFY(fromCtl > 0 && fromWindow > 0);

    // The window closes mid-job and opens again on the same file.
    m_app.reset();
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE id IN (%1, %2) AND status = "
                                   "'working'")
                        .arg(fromCtl)
                        .arg(fromWindow)),
             2);
    QVERIFY(openWindow());
    MainWindow &again = *m_app->window();
    TaskTableModel *tasks = again.taskModel();
    // Both complete with their whole run; the window shows the one its session holds (eddyctl
    // files its calls under a session of its own) as completed with its result.
    const QString done
        = QStringLiteral(
              "SELECT COUNT(*) FROM tasks WHERE id IN (%1, %2) AND status = 'completed' AND result "
              "LIKE '%\"iterations\":300000%'")
              .arg(fromCtl)
              .arg(fromWindow);
    QTRY_COMPARE_WITH_TIMEOUT(scalar(done), 2, 90000);
    qint64 shown = 0;
    QTRY_VERIFY_WITH_TIMEOUT((shown = tasks->task(fromWindow) ? fromWindow
                                      : tasks->task(fromCtl)  ? fromCtl
                                                              : 0)
                                 > 0,
                             30000);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->task(shown)->status, TaskStatus::Completed, 30000);
    again.monitor()->selectTask(shown);
    QTRY_COMPARE_WITH_TIMEOUT(again.resultView()->outcome(), ResultView::Outcome::Success, 20000);

    // Nothing ran twice: one new job per case on the server (a repeated submit with the same
    // idempotency key is answered with the job it already has, logged as "re-used").
    QTest::qWait(500); // negative check: no late second submit turns up
    QCOMPARE(submitsLogged(), m_casesSubmitted);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job'")),
             qint64(m_casesSubmitted));
}

QTEST_MAIN(tst_JobsGui)
#include "tst_jobsgui.moc"
