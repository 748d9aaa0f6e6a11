#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

// End to end through the widgets: the real eddy-cfd-server, a 6-case sweep built in the sweep
// editor, the mesh questions answered in the answer panel beside the inbox, every case completed and its
// result shown; then Eddy "restarts" (new engine and window on the same database) and
// everything is still there.
class tst_GuiFlow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sweepThroughWidgets();
    void restartKeepsEverything();
    void cleanupTestCase();

private:
    std::unique_ptr<Test::E2eWindow> startApp();

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    int m_questionsAnswered = 0;
};

std::unique_ptr<Test::E2eWindow> tst_GuiFlow::startApp()
{
    Test::E2eWindowOptions options;
    options.size = QSize(); // the window's own size
    return Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
}

void tst_GuiFlow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_guiflow"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200"), QStringLiteral("--workers"),
                             QStringLiteral("3")}),
             qPrintable(m_server.errorString()));
}

void tst_GuiFlow::sweepThroughWidgets()
{
    m_app = startApp();
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QSignalSpy changes(m_app->bridge(), &EngineBridge::changesReady);
    // First run with no sessions: Eddy makes one and shows it.
    QTRY_VERIFY_WITH_TIMEOUT(w.currentSession().has_value(), 30000);

    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
    QCOMPARE(w.serverModel()->rowCount(), 1);

    // Build the sweep in the editor: reynolds x forced mesh defect = 6 cases on a 16x16 grid.
    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    QTRY_VERIFY_WITH_TIMEOUT(editor->setCurrentTool(QStringLiteral("run_cfd_case")), 10000);
    QVERIFY(!editor->form()->editor("idempotency_key")); // Eddy sets the keys itself
    auto *grid = qobject_cast<QSpinBox *>(editor->form()->editor("grid"));
    QVERIFY(grid);
    grid->setValue(16);
    auto *iterations = qobject_cast<QSpinBox *>(editor->form()->editor("max_iterations"));
    QVERIFY(iterations); // bounded with a default: a spin box
    iterations->setValue(300);
    auto *name = qobject_cast<QLineEdit *>(editor->form()->editor("case_name"));
    QVERIFY(name);
    name->setText(QStringLiteral("e2e"));
    editor->setVaried(QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 200, 400"));
    editor->setVaried(QStringLiteral("force_mesh_defect"), SweepEditor::VaryKind::List, QStringLiteral("false, true"));
    editor->setConcurrency(3);
    QCOMPARE(editor->updatePreview(), 6);
    QVERIFY2(editor->problemText().isEmpty(), qPrintable(editor->problemText()));
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    QVERIFY(submit);
    submit->click();

    // Every mesh question waits in the inbox and is answered in the panel beside it: it says who
    // asks; choose repair and accept. Nothing pops up by itself.
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 6, 60000);
    QElapsedTimer timer;
    timer.start();
    AnswerPanel *panel = w.answerPanel();
    while (w.taskModel()->statusCounts().value(TaskStatus::Completed) < 6 && timer.elapsed() < 100000) {
        QVERIFY(!w.currentDialog());
        if (w.inboxModel()->pendingCount() > 0 && !panel->hasQuestion())
            w.answerNext(); // Ctrl+I
        if (panel->hasQuestion() && !panel->isGuarded()) {
            QCOMPARE(panel->context().serverName, QStringLiteral("Test CFD"));
            QVERIFY(panel->context().caseLabel.contains(QLatin1String("force_mesh_defect = yes")));
            QVERIFY(panel->context().sweep.startsWith(QLatin1String("Sweep ")));
            QCOMPARE(w.monitor()->selectedTaskIds(), QList<qint64>{panel->taskId()}); // its case in view
            auto *action = qobject_cast<QComboBox *>(panel->form()->editor("action"));
            QVERIFY(action);
            action->setCurrentIndex(action->findText(QStringLiteral("Repair the mesh and continue")));
            QVERIFY(action->currentIndex() >= 0);
            panel->findChild<QPushButton *>(QStringLiteral("accept"))->click();
            QVERIFY(!panel->hasQuestion());
            ++m_questionsAnswered;
        }
        QTest::qWait(50); // the poll step of this answering loop: events run between its looks
    }
    QCOMPARE(w.taskModel()->statusCounts().value(TaskStatus::Completed), 6);
    // Three cases force a defect; the server may ask a case again after a repair ("still fails").
    QVERIFY2(m_questionsAnswered >= 3, qPrintable(QString::number(m_questionsAnswered)));
    // The window hears of each finish and each question once, in a change set from the bridge
    // (its one door into the engine).
    QHash<qint64, int> finishes;
    QSet<QPair<qint64, QString>> questions;
    for (const QList<QVariant> &args : std::as_const(changes)) {
        const auto c = args.first().value<Monitor::ChangeSet>();
        for (qint64 id : c.finished)
            ++finishes[id];
        for (const auto &r : c.inputs)
            questions.insert({r.taskId, r.key});
    }
    QCOMPARE(finishes.size(), 6);
    for (auto it = finishes.cbegin(); it != finishes.cend(); ++it)
        QVERIFY2(it.value() == 1, qPrintable(QStringLiteral("task %1 finished %2 times").arg(it.key()).arg(it.value())));
    QVERIFY2(questions.size() >= m_questionsAnswered, qPrintable(QString::number(questions.size())));
    QCOMPARE(w.inboxModel()->pendingCount(), 0);
    QCOMPARE(w.inboxModel()->rowCount(), m_questionsAnswered); // answered ones stay as the record
    // 300 iterations on 16 x 16 cells stop short of the default tolerance: done, not converged.
    QVERIFY2(w.statusCountsText().contains(QLatin1String("Not converged 6")), qPrintable(w.statusCountsText()));
    QVERIFY(!w.windowTitle().contains(QLatin1String("secret")));

    // Results: select a case; the result view shows the structured result, the chart residuals.
    w.monitor()->selectTask(w.taskModel()->taskIdAt(0));
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);
    QVERIFY(!w.resultView()->tree()->findItems(QStringLiteral("vortex_centre"), Qt::MatchExactly).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!w.chart()->series().isEmpty(), 20000);
    // Its centreline profiles are offered as plots.
    QVERIFY(w.resultView()->curveNames().contains(QStringLiteral("u_centreline")));

    // The sweep's results table: a row per case with parameters and result scalars, and a
    // point per completed case in the scalar-vs-parameter plot.
    SweepResultsView *results = w.sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->rowCount(), 6, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->withResultsCount(), 6, 20000);
    QCOMPARE(results->model()->parameterNames().size(), 2);
    QVERIFY(results->model()->parameterNames().contains(QStringLiteral("reynolds")));
    QVERIFY(results->model()->parameterNames().contains(QStringLiteral("force_mesh_defect")));
    QVERIFY(results->setPlot(QStringLiteral("reynolds"), QStringLiteral("iterations")));
    QCOMPARE(results->plottedPoints().size(), 6);
    QCOMPARE(results->model()->toCsv().count(QLatin1Char('\n')), 7);

    // Relaunch a case with an edit (monitor action -> editor -> Run Once): lineage is kept.
    QList<qint64> before;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        before << w.taskModel()->taskIdAt(r);
    const qint64 original = before.first();
    Q_EMIT w.monitor()->relaunchRequested(original);
    SweepEditor *again = w.sweepEditor();
    auto *caseName = qobject_cast<QLineEdit *>(again->form()->editor("case_name"));
    QVERIFY(caseName);
    caseName->setText(QStringLiteral("e2e-relaunch"));
    QWidget *defectEditor = again->form()->editor("force_mesh_defect");
    auto *defect = qobject_cast<QCheckBox *>(defectEditor);
    if (!defect && defectEditor)
        defect = defectEditor->findChild<QCheckBox *>();
    QVERIFY(defect);
    defect->setChecked(false); // no mesh question for the relaunch
    again->findChild<QPushButton *>(QStringLiteral("runOnce"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 7, 60000);
    qint64 relaunched = 0;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        if (!before.contains(w.taskModel()->taskIdAt(r)))
            relaunched = w.taskModel()->taskIdAt(r);
    QVERIFY(relaunched > 0);
    QTRY_COMPARE_WITH_TIMEOUT(int(w.taskModel()->task(relaunched)->status), int(TaskStatus::Completed), 100000);
    w.monitor()->selectTask(relaunched);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->lineageText(), QStringLiteral("Relaunched from #%1.").arg(original), 20000);
    w.monitor()->selectTask(original);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->lineageText(), QStringLiteral("Relaunched as #%1.").arg(relaunched), 20000);
    m_app.reset();
}

void tst_GuiFlow::restartKeepsEverything()
{
    m_app.reset(); // the first run, if it stopped early
    m_app = startApp();
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->rowCount(), 7, 30000); // 6 sweep cases + 1 relaunch
    QCOMPARE(w.taskModel()->statusCounts().value(TaskStatus::Completed), 7);
    QCOMPARE(w.serverModel()->rowCount(), 1);
    QCOMPARE(w.inboxModel()->pendingCount(), 0); // answered questions stay answered
    QVERIFY(w.currentSession().has_value());
    // Results came from the database, not the server: stop the server and look again.
    m_server.kill();
    w.monitor()->selectTask(w.taskModel()->taskIdAt(5));
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);
    QVERIFY(!w.resultView()->tree()->findItems(QStringLiteral("u_centreline"), Qt::MatchExactly).isEmpty());
    QVERIFY(w.taskModel()->index(0, TaskTableModel::CaseColumn).data().toString().startsWith(QLatin1String("Sweep")));
    // Lineage survives the restart.
    qint64 newest = 0;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        newest = std::max(newest, w.taskModel()->taskIdAt(r));
    w.monitor()->selectTask(newest);
    QTRY_VERIFY_WITH_TIMEOUT(w.resultView()->lineageText().startsWith(QLatin1String("Relaunched from #")), 20000);
    m_app.reset();
}

void tst_GuiFlow::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_GuiFlow)
#include "tst_guiflow.moc"
