#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "widgets/progressdelegate.h"
#include "widgets/taskmonitor.h"

#include <QComboBox>
#include <QProxyStyle>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace Eddy;
using Store::TaskRecord;
using Store::TaskStatus;

// The task monitor widget: status filter, search, sorting by header, multi-select cancel that
// asks only for live tasks, and the progress column painted by the delegate.
class tst_TaskMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void filterBySatus();
    void search();
    void sortByHeader();
    void sortFollowsChangedRows();
    void fitFollowsTheFont();
    void cancelOnlyLiveSelected();
    void paintsWithoutWidgets();
    void repaintCopiesCellsPainted();
    void pictureIsTheCellPainted();

private:
    static TaskRecord task(qint64 id, TaskStatus status, double re);
    TaskTableModel *m_model = nullptr;
    TaskMonitor *m_monitor = nullptr;
};

TaskRecord tst_TaskMonitor::task(qint64 id, TaskStatus status, double re)
{
    TaskRecord t;
    t.id = id;
    t.serverId = 1;
    t.sweepId = 1;
    t.caseId = 10 + id;
    t.tool = QStringLiteral("run_cfd_case");
    t.arguments = QStringLiteral(R"({"reynolds":%1,"grid":16})").arg(re);
    t.status = status;
    t.statusMessage = QStringLiteral("iteration %1 of 500").arg(id * 50);
    t.firstSeenAtMs = 1'800'000'000'000 - id * 1000;
    return t;
}

void tst_TaskMonitor::init()
{
    m_model = new TaskTableModel;
    m_model->setSweepInfo(1, QStringLiteral("Sweep 1"), {QStringLiteral("reynolds")});
    for (int i = 0; i < 6; ++i)
        m_model->setCaseIndex(11 + i, i);
    m_model->setTasks({task(1, TaskStatus::Working, 100), task(2, TaskStatus::InputRequired, 200),
                       task(3, TaskStatus::Completed, 400), task(4, TaskStatus::Failed, 800),
                       task(5, TaskStatus::Working, 1600), task(6, TaskStatus::Cancelled, 3200)});
    m_monitor = new TaskMonitor(m_model);
    m_monitor->setConfirmCancel(false);
    m_monitor->resize(1200, 400);
    m_monitor->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_monitor));
}

void tst_TaskMonitor::cleanup()
{
    delete m_monitor;
    delete m_model;
}

void tst_TaskMonitor::filterBySatus()
{
    QTableView *view = m_monitor->view();
    QCOMPARE(view->model()->rowCount(), 6);
    auto *combo = m_monitor->findChild<QComboBox *>(QStringLiteral("statusFilter"));
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(int(TaskMonitor::StatusFilter::Live)));
    QCOMPARE(view->model()->rowCount(), 3); // working + needs input
    m_monitor->setStatusFilter(TaskMonitor::StatusFilter::Failed);
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(combo->currentData().toInt(), int(TaskMonitor::StatusFilter::Failed));
    // A live update moves a task between filters without a reset.
    m_monitor->setStatusFilter(TaskMonitor::StatusFilter::Completed);
    QCOMPARE(view->model()->rowCount(), 1);
    m_model->applyTasks({task(5, TaskStatus::Completed, 1600)});
    QCOMPARE(view->model()->rowCount(), 2);
}

void tst_TaskMonitor::search()
{
    QLineEdit *search = m_monitor->findChild<QLineEdit *>(QStringLiteral("search"));
    QVERIFY(search);
    QTest::keyClicks(search, QStringLiteral("reynolds = 1600"));
    QCOMPARE(m_monitor->view()->model()->rowCount(), 1);
    search->clear();
    QTest::keyClicks(search, QStringLiteral("needs input"));
    QCOMPARE(m_monitor->view()->model()->rowCount(), 1);
    QCOMPARE(m_monitor->view()->model()->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 2);
}

void tst_TaskMonitor::sortByHeader()
{
    QTableView *view = m_monitor->view();
    QHeaderView *header = view->horizontalHeader();
    const auto firstId = [&] { return view->model()->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(); };
    QCOMPARE(firstId(), 1); // case order
    view->setColumnHidden(TaskTableModel::AgeColumn, false); // hidden by default; the header menu shows it
    const int x = header->sectionViewportPosition(TaskTableModel::AgeColumn) + 5;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    const Qt::SortOrder first = header->sortIndicatorOrder();
    QCOMPARE(header->sortIndicatorSection(), int(TaskTableModel::AgeColumn));
    QCOMPARE(firstId(), first == Qt::AscendingOrder ? 6 : 1); // seen earliest = oldest
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(firstId(), first == Qt::AscendingOrder ? 1 : 6);
}

// The proxy keeps each row's sort value: a row whose message changes, and a row that comes,
// sort by their new values.
void tst_TaskMonitor::sortFollowsChangedRows()
{
    QTableView *view = m_monitor->view();
    view->sortByColumn(TaskTableModel::MessageColumn, Qt::AscendingOrder);
    const auto idAt = [&](int r) { return view->model()->index(r, 0).data(TaskTableModel::TaskIdRole).toLongLong(); };
    QCOMPARE(idAt(3), 5); // "iteration 250 of 500" among "iteration 100 ..." to "iteration 50 ..."
    TaskRecord t = task(5, TaskStatus::Working, 1600);
    t.statusMessage = QStringLiteral("a message that sorts first");
    m_model->applyChanges({t}, {});
    QCOMPARE(idAt(0), 5);
    t.statusMessage = QStringLiteral("the message that sorts last");
    m_model->applyChanges({t}, {});
    QCOMPARE(idAt(5), 5);
    view->sortByColumn(TaskTableModel::MessageColumn, Qt::DescendingOrder);
    QCOMPARE(idAt(0), 5);
    TaskRecord added = task(7, TaskStatus::Working, 6400);
    added.statusMessage = QStringLiteral("we sort between the last and the others");
    m_model->applyChanges({added}, {});
    QCOMPARE(view->model()->rowCount(), 7);
    QCOMPARE(idAt(0), 7);
    QCOMPARE(idAt(1), 5);
}

// The Case column fits its labels as measured in the view's font; widths measured before are
// kept for the next fit until the font changes. After a font change the column is as wide as
// a new monitor's in that font.
void tst_TaskMonitor::fitFollowsTheFont()
{
    const QString label = QStringLiteral("A sweep with a long name, to be read in full in its column");
    m_model->setSweepInfo(1, label, {QStringLiteral("reynolds")});
    m_monitor->resize(3000, 400);
    const auto fit = [&](TaskMonitor *monitor, Qt::SortOrder order) {
        monitor->view()->sortByColumn(TaskTableModel::MessageColumn, order); // a fit follows
        QCoreApplication::sendPostedEvents(monitor, QEvent::MetaCall); // run the queued fit now
        return monitor->view()->horizontalHeader()->sectionSize(TaskTableModel::CaseColumn);
    };
    const int small = fit(m_monitor, Qt::AscendingOrder);
    QVERIFY(small > QFontMetrics(m_monitor->view()->font()).horizontalAdvance(label));
    QFont big = m_monitor->view()->font();
    big.setPointSizeF(big.pointSizeF() * 2);
    m_monitor->view()->setFont(big);
    const int changed = fit(m_monitor, Qt::DescendingOrder);

    TaskMonitor fresh(m_model);
    fresh.view()->setFont(big);
    fresh.resize(3000, 400);
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    QCOMPARE(changed, fit(&fresh, Qt::DescendingOrder));
    QVERIFY(changed > small);
}

void tst_TaskMonitor::cancelOnlyLiveSelected()
{
    QSignalSpy cancel(m_monitor, &TaskMonitor::cancelRequested);
    auto *button = m_monitor->findChild<QToolButton *>(QStringLiteral("cancelTasks"));
    QVERIFY(button);
    QVERIFY(!button->isEnabled()); // nothing selected
    m_monitor->view()->selectAll();
    QVERIFY(button->isEnabled());
    button->click();
    QCOMPARE(cancel.count(), 1);
    QCOMPARE(cancel.first().first().value<QList<qint64>>(), (QList<qint64>{1, 2, 5}));
    // Once the engine reports "cancel requested", the same tasks are not asked twice.
    TaskRecord t1 = task(1, TaskStatus::Working, 100);
    t1.cancelRequested = true;
    m_model->applyTasks({t1});
    QCOMPARE(m_model->index(0, TaskTableModel::StatusColumn).data().toString(), QStringLiteral("Working (cancel requested)"));
    m_monitor->cancelSelected();
    QCOMPARE(cancel.count(), 2);
    QCOMPARE(cancel.last().first().value<QList<qint64>>(), (QList<qint64>{2, 5}));
    // Only finished tasks selected: nothing to cancel.
    m_monitor->selectTask(3);
    QVERIFY(!button->isEnabled());
    m_monitor->cancelSelected();
    QCOMPARE(cancel.count(), 2);
}

void tst_TaskMonitor::paintsWithoutWidgets()
{
    Store::ProgressSample a{1, 1000, QStringLiteral("iteration"), 0, 250};
    Store::ProgressSample b{1, 1000, QStringLiteral("max_iterations"), 0, 500};
    m_model->applySamples({a, b});
    QCOMPARE(m_model->index(0, TaskTableModel::ProgressColumn).data().toString(), QStringLiteral("50 %"));
    const QImage image = m_monitor->view()->viewport()->grab().toImage();
    QVERIFY(!image.isNull());
    // The delegate paints a bar, not a child widget.
    QVERIFY(m_monitor->view()->viewport()->findChildren<QWidget *>().isEmpty());
}

namespace {

// Counts the cells the style draws (text cells and progress bars).
class CountingStyle final : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;
    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget) const override
    {
        if (element == CE_ItemViewItem || element == CE_ProgressBar)
            ++drawn;
        QProxyStyle::drawControl(element, option, painter, widget);
    }
    mutable int drawn = 0;
};

} // namespace

void tst_TaskMonitor::repaintCopiesCellsPainted()
{
    // A sort or a filter repaints the rows in view; cells painted before are copied, not
    // laid out and drawn by the style again. A changed cell is painted anew.
    QTableView *view = m_monitor->view();
    auto *style = new CountingStyle(QStringLiteral("Fusion"));
    style->setParent(view);
    view->setStyle(style);
    view->viewport()->repaint();
    QVERIFY(style->drawn > 0);
    const QImage before = view->viewport()->grab().toImage();
    style->drawn = 0;
    view->viewport()->repaint();
    QCOMPARE(style->drawn, 0);
    view->sortByColumn(TaskTableModel::CaseColumn, Qt::DescendingOrder);
    view->sortByColumn(TaskTableModel::CaseColumn, Qt::AscendingOrder);
    view->viewport()->repaint();
    QCOMPARE(style->drawn, 0);
    QCOMPARE(view->viewport()->grab().toImage(), before);

    m_model->applySamples({Store::ProgressSample{1, 1000, QStringLiteral("iteration"), 0, 250},
                           Store::ProgressSample{1, 1000, QStringLiteral("max_iterations"), 0, 500}});
    view->viewport()->repaint();
    QVERIFY(style->drawn > 0); // task 1's bar (and its message) changed
    QVERIFY(view->viewport()->grab().toImage() != before);
}

void tst_TaskMonitor::pictureIsTheCellPainted()
{
    // The pictures are the same pixels as the cells painted directly: plain and alternate
    // rows, a selected row, the status markers, bars and left-elided case labels.
    QTableView *view = m_monitor->view();
    m_model->applySamples({Store::ProgressSample{1, 1000, QStringLiteral("iteration"), 0, 250},
                           Store::ProgressSample{1, 1000, QStringLiteral("max_iterations"), 0, 500}});
    m_monitor->selectTasks({2, 5});
    view->horizontalHeader()->resizeSection(TaskTableModel::CaseColumn, 60); // elided
    QTRY_COMPARE(view->horizontalHeader()->sectionSize(TaskTableModel::CaseColumn), 60);
    auto *progress = qobject_cast<ProgressDelegate *>(view->itemDelegate());
    auto *caseLabels = qobject_cast<ElideLeftDelegate *>(view->itemDelegateForColumn(TaskTableModel::CaseColumn));
    QVERIFY(progress && caseLabels);
    progress->pictures().setEnabled(false);
    caseLabels->pictures().setEnabled(false);
    const QImage direct = view->viewport()->grab().toImage();
    progress->pictures().setEnabled(true);
    caseLabels->pictures().setEnabled(true);
    const QImage first = view->viewport()->grab().toImage(); // painted into pictures
    QVERIFY(progress->pictures().size() > 0 && caseLabels->pictures().size() > 0);
    const QImage copied = view->viewport()->grab().toImage(); // copied from them
    QCOMPARE(first, direct);
    QCOMPARE(copied, direct);
}

QTEST_MAIN(tst_TaskMonitor)
#include "tst_taskmonitor.moc"
