// Reviewing past runs in the real window (offscreen) against the real eddy-cfd-server and a real
// SQLite file, as an engineer does it:
// - tags and a note on two cases through the table's context menu; the Notes column, the task
//   detail and an eddyctl note from another process show in the open window;
// - the Filter button: a tag, a range and words narrow the table and the status bar counts; the
//   filter is saved, cleared and opened again; a file that is not a filter is refused;
// - Re-run Failed and Unconverged re-runs the unconverged cases, which join their sweep (same
//   case index) and keep their tags;
// - a sweep's own note and tags: edited from the sweep view's Review menu, shown above its table,
//   and an eddyctl edit of them shows in the open window;
// - the stored baseline (eddyctl baseline) is marked in the sweep table and is the compare
//   window's baseline; one chosen in the compare window is stored;
// - Pause Sweep Submission holds a re-run back, through a restart of Eddy; Resume sends it, once
//   (the server's own task list);
// - a sweep none of whose cases was sent yet is paused and resumed from the sweep view (chosen in
//   its header), through a restart; each case is sent once.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/sweeptable.h"
#include "tests/common/testserver.h"
#include "widgets/compareview.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/reviewfilterbutton.h"
#include "widgets/reviewfilterdialog.h"
#include "widgets/sweepresultsview.h"
#include "models/sweepresultsmodel.h"
#include <QSortFilterProxyModel>
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <nlohmann/json.hpp>

using namespace Eddy;
using json = nlohmann::json;

namespace {

// Two design points that stop short of convergence (30 iterations) and two that converge.
const QByteArray kSpec = R"({"tool": "run_cfd_case", "fixed": {"grid": 8},
    "vary": {"max_iterations": {"list": [30, 20000]}, "reynolds": {"list": [100, 200]}},
    "concurrency": 4})";

qint64 scalar(const QString &db, const QString &sql)
{
    return Test::scalar(db, sql, 10000);
}

} // namespace

class tst_ReviewRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tagAndNoteCases();
    void sweepNoteAndTagsAboveItsTable();
    void storedBaselineMarkedAndCompared();
    void filterSaveAndOpen();
    void rerunFailedAndUnconvergedJoinsSweep();
    void pauseSurvivesRestartAndResumeSendsOnce();
    void pauseBeforeAnyCaseIsSent();
    void cleanupTestCase();

private:
    MainWindow *window() const { return m_app->window(); }
    TaskTableModel *tasks() const { return window()->taskModel(); }
    // Selects these tasks in the table and picks `action` from the context menu of the first.
    void pickFromMenu(const QList<qint64> &taskIds, const QString &action);
    // Waits for the input dialog `objectName` and answers it with `text`.
    void answerInputDialog(const QString &objectName, const QString &text);
    ReviewFilterDialog *openFilterDialog();
    // Shows this sweep in the sweep view by its header's chooser.
    void chooseSweep(qint64 sweepId);
    // Triggers the sweep view's Review menu action named so (failing when missing or disabled);
    // its text as shown when the menu opened.
    QString pickFromReviewMenu(const QString &action);
    QString reviewLine() const;
    QString sweepSummary() const; // the sweep view's header: how far the sweep got
    QList<qint64> unconverged() const;
    bool allFinished() const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_sweepId = 0;
    QList<qint64> m_tagged;
};

void tst_ReviewRuns::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_reviewruns"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200"),
                             QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(m_server.errorString()));
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    m_app = Test::E2eWindow::open(m_db);
    QVERIFY(m_app);
    QVERIFY(QTest::qWaitForWindowExposed(window()));
    QTRY_VERIFY_WITH_TIMEOUT(window()->currentSession().has_value(), 30000);
    const qint64 serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(serverId > 0);
    m_app->bridge()->submitSweep(serverId, kSpec, window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(tasks()->rowCount(), 4, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(allFinished(),
                             120000);
    m_sweepId = tasks()->task(tasks()->taskIds().first())->sweepId.value_or(0);
    QVERIFY(m_sweepId > 0);
    QCOMPARE(unconverged().size(), 2);
}

bool tst_ReviewRuns::allFinished() const
{
    const QList<qint64> ids = tasks()->taskIds();
    return std::none_of(ids.cbegin(), ids.cend(), [this](qint64 id) { return tasks()->task(id)->isLive(); });
}

QList<qint64> tst_ReviewRuns::unconverged() const
{
    QList<qint64> out;
    for (qint64 id : tasks()->taskIds())
        if (tasks()->outcome(id) == Monitor::Outcome::NotConverged)
            out << id;
    std::sort(out.begin(), out.end());
    return out;
}

void tst_ReviewRuns::pickFromMenu(const QList<qint64> &taskIds, const QString &action)
{
    TaskMonitor *monitor = window()->monitor();
    monitor->selectTasks(taskIds);
    QTableView *view = monitor->view();
    const QModelIndex at = monitor->proxy()->mapFromSource(tasks()->index(tasks()->rowOf(taskIds.first()), 0));
    QVERIFY(at.isValid());
    bool picked = false;
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, this, [&] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        poll.stop();
        for (QAction *a : menu->actions()) {
            if (a->objectName() == action && a->isEnabled()) {
                picked = true;
                menu->close();
                a->trigger();
                return;
            }
        }
        menu->close();
    });
    poll.start();
    Q_EMIT view->customContextMenuRequested(view->visualRect(at).center());
    QVERIFY2(picked, qPrintable(action));
}

void tst_ReviewRuns::answerInputDialog(const QString &objectName, const QString &text)
{
    QInputDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = window()->findChild<QInputDialog *>(objectName)) && dialog->isVisible(), 10000);
    dialog->setTextValue(text);
    dialog->accept();
}

ReviewFilterDialog *tst_ReviewRuns::openFilterDialog()
{
    window()->monitor()->filterButton()->editFilter();
    ReviewFilterDialog *dialog = nullptr;
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window()->findChild<ReviewFilterDialog *>()) && dialog->isVisible(), 10000);
    }();
    return dialog;
}

void tst_ReviewRuns::chooseSweep(qint64 sweepId)
{
    auto *chooser = window()->sweepResults()->findChild<QComboBox *>(QStringLiteral("sweepChooser"));
    QVERIFY2(chooser, "the sweep view has no sweep chooser");
    QTRY_VERIFY_WITH_TIMEOUT(chooser->isVisible() && chooser->findData(sweepId) >= 0, 30000);
    const int i = chooser->findData(sweepId);
    chooser->setCurrentIndex(i);
    Q_EMIT chooser->activated(i);
    QTRY_COMPARE_WITH_TIMEOUT(window()->sweepResults()->model()->sweepId(), sweepId, 10000);
}

QString tst_ReviewRuns::pickFromReviewMenu(const QString &action)
{
    auto *button = window()->sweepResults()->findChild<QToolButton *>(QStringLiteral("sweepReview"));
    if (!button || !button->menu())
        return QStringLiteral("<no Review menu>");
    QMenu *menu = button->menu();
    Q_EMIT menu->aboutToShow();
    for (QAction *a : menu->actions()) {
        if (a->objectName() != action)
            continue;
        if (!a->isEnabled())
            return QStringLiteral("<disabled>");
        const QString text = a->text();
        a->trigger();
        return text;
    }
    return QStringLiteral("<no %1>").arg(action);
}

QString tst_ReviewRuns::reviewLine() const
{
    const auto *line = window()->sweepResults()->findChild<QLabel *>(QStringLiteral("sweepReviewLine"));
    return line && line->isVisible() ? line->toolTip() : QString();
}

QString tst_ReviewRuns::sweepSummary() const
{
    const auto *summary = window()->sweepResults()->findChild<QLabel *>(QStringLiteral("sweepSummary"));
    return summary ? summary->text() : QString();
}

void tst_ReviewRuns::tagAndNoteCases()
{
    m_tagged = unconverged();
    pickFromMenu(m_tagged, QStringLiteral("editTags"));
    answerInputDialog(QStringLiteral("tagsDialog"), QStringLiteral("suspect mesh-study"));
    for (qint64 id : m_tagged)
        QTRY_COMPARE_WITH_TIMEOUT(tasks()->caseTags(*tasks()->task(id)->caseId),
                                  QStringList({QStringLiteral("mesh-study"), QStringLiteral("suspect")}), 10000);
    pickFromMenu({m_tagged.first()}, QStringLiteral("editNote"));
    answerInputDialog(QStringLiteral("noteDialog"), QStringLiteral("check the lid corner"));
    const qint64 noted = m_tagged.first();
    QTRY_COMPARE_WITH_TIMEOUT(tasks()->caseNote(*tasks()->task(noted)->caseId), QStringLiteral("check the lid corner"),
                              10000);
    // Stored, shown in the Notes column (now visible) and in the task's detail.
    QCOMPARE(scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE tags LIKE '%suspect%'")), qint64(2));
    QVERIFY(!window()->monitor()->view()->isColumnHidden(TaskTableModel::NotesColumn));
    QCOMPARE(tasks()->index(tasks()->rowOf(noted), TaskTableModel::NotesColumn).data().toString(),
             QStringLiteral("[mesh-study, suspect] check the lid corner"));
    window()->monitor()->selectTask(noted);
    QTRY_VERIFY_WITH_TIMEOUT(window()->resultView()->reviewText().contains(QStringLiteral("check the lid corner")),
                             10000);
    QVERIFY(window()->resultView()->reviewText().contains(QStringLiteral("Tags: mesh-study, suspect.")));

    // Another process's note appears in the open window, as every other change does.
    qint64 other = 0;
    for (qint64 id : tasks()->taskIds())
        if (!m_tagged.contains(id))
            other = id;
    const auto r = Test::runCtl({QStringLiteral("--db"), m_db, QStringLiteral("note"), QString::number(other),
                                 QStringLiteral("converged fine")},
                                {10000, 60000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    QTRY_COMPARE_WITH_TIMEOUT(tasks()->caseNote(*tasks()->task(other)->caseId), QStringLiteral("converged fine"), 10000);
    // Its detail, loaded afresh, shows it too.
    window()->monitor()->selectTask(other);
    QTRY_VERIFY_WITH_TIMEOUT(window()->resultView()->reviewText().contains(QStringLiteral("converged fine")), 10000);
}

// The sweep's own note and tags: edited from the sweep view's Review menu, stored, shown above the
// sweep's table; eddyctl's edits of them (another process) show in the open window.
void tst_ReviewRuns::sweepNoteAndTagsAboveItsTable()
{
    window()->monitor()->selectTask(tasks()->taskIds().first());
    QTRY_COMPARE_WITH_TIMEOUT(window()->sweepResults()->model()->sweepId(), m_sweepId, 10000);
    QVERIFY(reviewLine().isEmpty()); // nothing noted yet: no line
    QCOMPARE(pickFromReviewMenu(QStringLiteral("editSweepNote")), QStringLiteral("Edit Sweep Note..."));
    answerInputDialog(QStringLiteral("sweepNoteDialog"), QStringLiteral("coarse grid, two iteration limits"));
    QTRY_COMPARE_WITH_TIMEOUT(Test::query(m_db, QStringLiteral("SELECT note FROM sweeps WHERE id=%1").arg(m_sweepId), 10000)
                                  .value(0).value(0),
                              QStringLiteral("coarse grid, two iteration limits"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(reviewLine().contains(QStringLiteral("Note: coarse grid, two iteration limits")), 10000);
    QCOMPARE(pickFromReviewMenu(QStringLiteral("editSweepTags")), QStringLiteral("Edit Sweep Tags..."));
    answerInputDialog(QStringLiteral("sweepTagsDialog"), QStringLiteral("mesh-study, coarse"));
    QTRY_VERIFY_WITH_TIMEOUT(reviewLine().contains(QStringLiteral("Tags: coarse, mesh-study")), 10000);
    QCOMPARE(scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM sweeps WHERE id=%1 AND tags LIKE '%coarse%' "
                                         "AND tags LIKE '%mesh-study%'").arg(m_sweepId)),
             qint64(1));

    // Another process edits them: the open window follows.
    auto r = Test::runCtl({QStringLiteral("--db"), m_db, QStringLiteral("note"), QStringLiteral("sweep"),
                           QString::number(m_sweepId), QStringLiteral("lid speed checked")},
                          {10000, 60000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    r = Test::runCtl({QStringLiteral("--db"), m_db, QStringLiteral("tag"), QStringLiteral("sweep"),
                      QString::number(m_sweepId), QStringLiteral("+validated"), QStringLiteral("-coarse")},
                     {10000, 60000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    QTRY_VERIFY_WITH_TIMEOUT(reviewLine().contains(QStringLiteral("Note: lid speed checked")), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(reviewLine().contains(QStringLiteral("Tags: mesh-study, validated")), 10000);
}

// The baseline stored by eddyctl is marked in the sweep table and is what Compare measures
// against; choosing another in the compare window stores it (eddyctl and the report see it).
void tst_ReviewRuns::storedBaselineMarkedAndCompared()
{
    SweepResultsView *view = window()->sweepResults();
    SweepResultsModel *model = view->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 10000);
    const QList<qint64> order = model->tasksInCaseOrder();
    QCOMPARE(order.size(), 4);
    const qint64 marked = order.at(2); // not the sweep's first case, the default baseline
    const auto r = Test::runCtl({QStringLiteral("--db"), m_db, QStringLiteral("baseline"), QString::number(m_sweepId),
                                 QString::number(marked)},
                                {10000, 60000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto caseLabel = [view](qint64 task) {
        const QAbstractItemModel *table = view->table()->model();
        return table->index(Test::sweepTableRow(view, task), 0).data().toString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(caseLabel(marked).contains(QStringLiteral("baseline")), 10000);
    const QAbstractItemModel *table = view->table()->model();
    QVERIFY(!table->index(Test::sweepTableRow(view, marked), 0).data(Qt::ToolTipRole).toString().isEmpty());
    for (qint64 other : order)
        if (other != marked)
            QVERIFY2(!caseLabel(other).contains(QStringLiteral("baseline")), qPrintable(caseLabel(other)));

    // One case compared: against the stored baseline, not the sweep's first case.
    window()->sweepResultsDock()->raise();
    QTRY_VERIFY(view->table()->isVisible());
    Test::selectSweepRows(view, {order.at(1)});
    auto *compareButton = view->findChild<QToolButton *>(QStringLiteral("compareCases"));
    QVERIFY(compareButton && compareButton->isEnabled());
    QTest::mouseClick(compareButton, Qt::LeftButton);
    CompareView *compare = view->compareView();
    QTRY_VERIFY(compare->isVisible());
    QCOMPARE(compare->baseline(), marked);
    QVERIFY(compare->cases().contains(order.at(1)));

    // The engineer chooses the other case as the baseline there: stored, and marked in the table.
    QComboBox *combo = compare->baselineCombo();
    const int i = combo->findData(order.at(1));
    QVERIFY(i >= 0);
    combo->setCurrentIndex(i);
    Q_EMIT combo->activated(i);
    const qint64 chosenCase = *tasks()->task(order.at(1))->caseId;
    QTRY_COMPARE_WITH_TIMEOUT(scalar(m_db, QStringLiteral("SELECT baseline_case_id FROM sweeps WHERE id=%1").arg(m_sweepId)),
                              chosenCase, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(caseLabel(order.at(1)).contains(QStringLiteral("baseline")), 10000);
    QVERIFY(!caseLabel(marked).contains(QStringLiteral("baseline")));
    QCOMPARE(compare->baseline(), order.at(1));
    compare->close();
}

void tst_ReviewRuns::filterSaveAndOpen()
{
    TaskMonitor *monitor = window()->monitor();
    const QString before = window()->statusCountsText();
    QVERIFY2(before.contains(QStringLiteral("Not converged 2")), qPrintable(before));
    ReviewFilterDialog *dialog = openFilterDialog();
    QVERIFY(dialog);
    auto *suspect = dialog->findChild<QCheckBox *>(QStringLiteral("tag_suspect"));
    QVERIFY(suspect);
    suspect->setChecked(true);
    dialog->accept();
    QTRY_COMPARE(monitor->proxy()->rowCount(), 2);
    // The status bar counts only what the filter shows.
    QTRY_VERIFY(window()->statusCountsText().contains(QStringLiteral("Done 0")));
    QVERIFY(window()->statusCountsText().contains(QStringLiteral("Not converged 2")));
    QCOMPARE(monitor->filterButton()->text(), QStringLiteral("Filtered"));
    // The sweep table follows the same filter.
    QTRY_COMPARE_WITH_TIMEOUT(window()->sweepResults()->model()->rowCount(), 4, 10000);
    QTRY_COMPARE(window()->sweepResults()->proxy()->rowCount(), 2);

    // A range on a varied parameter, and words over the note; the shown sweep's results are
    // offered too.
    dialog = openFilterDialog();
    QVERIFY(dialog->findChild<QLineEdit *>(QStringLiteral("rangeMax_final_residual")));
    auto *min = dialog->findChild<QLineEdit *>(QStringLiteral("rangeMin_reynolds"));
    QVERIFY(min);
    min->setText(QStringLiteral("abc"));
    dialog->accept(); // refused: not a number
    QVERIFY(dialog->isVisible());
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("filterError"))->text().contains(QStringLiteral("reynolds")));
    min->setText(QStringLiteral("150"));
    dialog->accept();
    QTRY_COMPARE(monitor->proxy()->rowCount(), 1);
    dialog = openFilterDialog();
    dialog->findChild<QLineEdit *>(QStringLiteral("rangeMin_reynolds"))->clear();
    dialog->findChild<QLineEdit *>(QStringLiteral("filterText"))->setText(QStringLiteral("lid corner"));
    dialog->accept();
    QTRY_COMPARE(monitor->proxy()->rowCount(), 1);
    QCOMPARE(monitor->proxy()->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(), m_tagged.first());
    const ReviewFilter shown = monitor->filterButton()->filter();

    // Saved, cleared, opened again.
    const QString path = m_dir.filePath(QStringLiteral("suspect.eddyfilter.json"));
    monitor->filterButton()->saveFilter();
    Test::chooseInFileDialog(window(), QStringLiteral("saveFilterDialog"), path);
    QTRY_VERIFY(QFile::exists(path));
    monitor->filterButton()->setFilter({});
    QTRY_COMPARE(monitor->proxy()->rowCount(), 4);
    monitor->filterButton()->openFilter();
    Test::chooseInFileDialog(window(), QStringLiteral("openFilterDialog"), path);
    QTRY_COMPARE(monitor->proxy()->rowCount(), 1);
    QCOMPARE(monitor->filterButton()->filter(), shown);

    // A file that is not a filter: refused with what is wrong; the filter shown stays.
    const QString bad = m_dir.filePath(QStringLiteral("notafilter.json"));
    QVERIFY(Test::writeFile(bad, R"({"tool": "run_cfd_case"})"));
    monitor->filterButton()->openFilter();
    Test::chooseInFileDialog(window(), QStringLiteral("openFilterDialog"), bad);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = window()->findChild<QMessageBox *>(QStringLiteral("filterFileError"))) && box->isVisible(),
                             10000);
    QVERIFY2(box->text().contains(QStringLiteral("not an Eddy filter")), qPrintable(box->text()));
    box->accept();
    QCOMPARE(monitor->filterButton()->filter(), shown);
    monitor->filterButton()->setFilter({});
    QTRY_COMPARE(monitor->proxy()->rowCount(), 4);
    QTRY_COMPARE(window()->sweepResults()->proxy()->rowCount(), 4);
}

void tst_ReviewRuns::rerunFailedAndUnconvergedJoinsSweep()
{
    const QList<qint64> all = tasks()->taskIds();
    pickFromMenu(all, QStringLiteral("rerunFailed"));
    QTRY_COMPARE_WITH_TIMEOUT(tasks()->rowCount(), 6, 60000);
    for (qint64 parent : m_tagged) {
        const Store::TaskRecord *p = tasks()->task(parent);
        const qint64 parentIndex = scalar(m_db, QStringLiteral("SELECT idx FROM cases WHERE id=%1").arg(*p->caseId));
        const qint64 child = scalar(m_db, QStringLiteral("SELECT task_id FROM cases WHERE parent_case_id=%1").arg(*p->caseId));
        QVERIFY(child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(tasks()->task(child), 30000);
        const Store::TaskRecord *c = tasks()->task(child);
        QCOMPARE(c->sweepId, std::optional<qint64>(m_sweepId)); // joins its sweep
        QCOMPARE(scalar(m_db, QStringLiteral("SELECT idx FROM cases WHERE id=%1").arg(*c->caseId)), parentIndex);
        QTRY_COMPARE_WITH_TIMEOUT(tasks()->caseTags(*c->caseId),
                                  QStringList({QStringLiteral("mesh-study"), QStringLiteral("suspect")}), 10000);
    }
    QTRY_VERIFY_WITH_TIMEOUT(allFinished(),
                             120000);
}

void tst_ReviewRuns::pauseSurvivesRestartAndResumeSendsOnce()
{
    const QString serverDb = m_server.dataDir() + QStringLiteral("/tasks.sqlite");
    const qint64 serverTasks = scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks"));
    QCOMPARE(serverTasks, qint64(6));
    // The latest unconverged attempts.
    QList<qint64> latest = unconverged();
    latest = latest.mid(latest.size() - 2);
    pickFromMenu({latest.first()}, QStringLiteral("pauseSweep"));
    QTRY_VERIFY_WITH_TIMEOUT(window()->monitor()->isSweepPaused(m_sweepId), 10000);
    QVERIFY(scalar(m_db, QStringLiteral("SELECT paused_at FROM sweeps WHERE id=%1").arg(m_sweepId)) > 0);
    pickFromMenu(latest, QStringLiteral("rerunFailed"));
    QTRY_COMPARE_WITH_TIMEOUT(scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM cases WHERE sweep_id=%1").arg(m_sweepId)),
                              qint64(8), 10000);
    m_app->onEngine([](Monitor::Engine &) {}); // the engine has done what it does on journalling
    const QString held = QStringLiteral("SELECT COUNT(*) FROM cases WHERE sweep_id=%1 AND state='pending' "
                                        "AND attempts=0").arg(m_sweepId);
    QCOMPARE(scalar(m_db, held), qint64(2));

    // Eddy restarts: the pause was journalled, so opening the database sends nothing.
    m_app.reset();
    m_app = Test::E2eWindow::open(m_db);
    QVERIFY(m_app);
    m_app->onEngine([](Monitor::Engine &) {}); // open() has queued (and would have sent) every unsent case
    QCOMPARE(scalar(m_db, held), qint64(2));
    QTRY_VERIFY_WITH_TIMEOUT(tasks()->rowCount() == 6, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(window()->monitor()->isSweepPaused(m_sweepId), 10000);
    QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks")), serverTasks);

    // Resume: each held case is sent once.
    pickFromMenu({latest.first()}, QStringLiteral("pauseSweep")); // now "Resume Sweep Submission"
    QTRY_COMPARE_WITH_TIMEOUT(tasks()->rowCount(), 8, 60000);
    QCOMPARE(scalar(m_db, held), qint64(0));
    QVERIFY(!window()->monitor()->isSweepPaused(m_sweepId));
    QTRY_VERIFY_WITH_TIMEOUT(allFinished(),
                             120000);
    QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks")), serverTasks + 2);
    for (const QStringList &row : Test::query(m_db, QStringLiteral("SELECT idempotency_key FROM cases WHERE sweep_id=%1")
                                                        .arg(m_sweepId), 10000))
        QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(row.value(0))),
                 qint64(1));
}

// A sweep none of whose cases was sent (its server is down): chosen in the sweep view's header,
// paused from its Review menu, still paused after a restart of Eddy; once its server is back,
// Resume sends each case once (the server's own task list).
void tst_ReviewRuns::pauseBeforeAnyCaseIsSent()
{
    Test::TestServer later;
    QVERIFY2(later.start({QStringLiteral("--workers"), QStringLiteral("2")}), qPrintable(later.errorString()));
    const quint16 port = later.port();
    const qint64 serverId = m_app->addServer(later.url(), QStringLiteral("Later CFD"));
    QVERIFY(serverId > 0);
    QVERIFY(later.terminate());
    const qint64 sweepsBefore = scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM sweeps"));
    m_app->bridge()->submitSweep(serverId, R"({"tool": "run_cfd_case", "fixed": {"grid": 8, "max_iterations": 40},
        "vary": {"reynolds": {"list": [100, 200, 300]}}, "concurrency": 3})",
                                 window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM sweeps")), sweepsBefore + 1, 10000);
    const qint64 sweep = scalar(m_db, QStringLiteral("SELECT MAX(id) FROM sweeps"));
    const QString unsent = QStringLiteral("SELECT COUNT(*) FROM cases WHERE sweep_id=%1 AND task_id IS NULL").arg(sweep);
    QCOMPARE(scalar(m_db, unsent), qint64(3));

    // No case has a row in the task table; the sweep view shows the sweep all the same.
    chooseSweep(sweep);
    QTRY_VERIFY_WITH_TIMEOUT(sweepSummary().contains(QStringLiteral("3 not sent yet")), 10000);
    QCOMPARE(pickFromReviewMenu(QStringLiteral("pauseSweepSubmission")), QStringLiteral("Pause Sweep Submission"));
    QTRY_VERIFY_WITH_TIMEOUT(scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM sweeps WHERE id=%1 AND paused_at IS NOT NULL")
                                              .arg(sweep)) == 1,
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(sweepSummary().contains(QStringLiteral("submission paused")), 10000);

    // Eddy restarts, and the server comes back on its address: nothing is sent while paused.
    m_app.reset();
    m_app = Test::E2eWindow::open(m_db);
    QVERIFY(m_app);
    QVERIFY2(later.start({QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--port"), QString::number(port)},
                         later.dataDir()),
             qPrintable(later.errorString()));
    QCOMPARE(later.port(), port);
    const QString serverDb = later.dataDir() + QStringLiteral("/tasks.sqlite");
    chooseSweep(sweep);
    QTRY_VERIFY_WITH_TIMEOUT(sweepSummary().contains(QStringLiteral("submission paused")), 10000);
    m_app->bridge()->refreshServer(serverId); // the engine hears the server is back
    QTest::qWait(1500); // negative check: the engine, which knows the server is back, sends nothing while paused
    m_app->onEngine([](Monitor::Engine &) {});
    QCOMPARE(scalar(m_db, unsent), qint64(3));

    // Resume from the sweep view: each case is sent once.
    QCOMPARE(pickFromReviewMenu(QStringLiteral("pauseSweepSubmission")), QStringLiteral("Resume Sweep Submission"));
    QTRY_COMPARE_WITH_TIMEOUT(scalar(m_db, unsent), qint64(0), 90000);
    QTRY_VERIFY_WITH_TIMEOUT(!sweepSummary().contains(QStringLiteral("submission paused")), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->sweepResults()->model()->rowCount(), 3, 30000);
    QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(3));
    for (const QStringList &row : Test::query(m_db, QStringLiteral("SELECT idempotency_key FROM cases WHERE sweep_id=%1")
                                                        .arg(sweep), 10000))
        QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(row.value(0))),
                 qint64(1));
}

void tst_ReviewRuns::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_ReviewRuns)
#include "tst_reviewruns.moc"
