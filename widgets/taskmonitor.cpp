#include "widgets/taskmonitor.h"

#include "models/outcomepalette.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "widgets/progressdelegate.h"
#include "widgets/reviewfilterbutton.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Eddy {

using Store::TaskStatus;

TaskMonitor::TaskMonitor(TaskTableModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new TaskFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_filter(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_cancel(new QToolButton(this))
    , m_rerun(new QToolButton(this))
    , m_filterButton(new ReviewFilterButton(model, m_proxy, this))
    , m_shown(new QLabel(this))
    , m_emptyHint(new QLabel(m_view)) // over the viewport, not in it: rows paint without widgets
{
    setObjectName(QStringLiteral("TaskMonitor"));
    m_proxy->setSourceModel(model);

    m_filter->setObjectName(QStringLiteral("statusFilter"));
    m_filter->addItem(tr("All Tasks"), int(StatusFilter::All));
    m_filter->addItem(tr("Running"), int(StatusFilter::Live));
    m_filter->addItem(tr("Needs Input"), int(StatusFilter::NeedsInput));
    m_filter->addItem(tr("Completed"), int(StatusFilter::Completed));
    m_filter->addItem(tr("Failed"), int(StatusFilter::Failed));
    m_filter->addItem(tr("Cancelled"), int(StatusFilter::Cancelled));
    m_filter->setToolTip(tr("Show tasks in this state"));
    connect(m_filter, &QComboBox::currentIndexChanged, this, [this] {
        setStatusFilter(static_cast<StatusFilter>(m_filter->currentData().toInt()));
    });

    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Search parameters, messages, servers... (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &t) { m_proxy->setSearchText(t); });
    auto *find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addAction(find);

    m_cancel->setObjectName(QStringLiteral("cancelTasks"));
    m_cancel->setText(tr("Cancel Tasks"));
    m_cancel->setToolTip(tr("Ask the server to cancel the selected tasks (Del)"));
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    m_cancel->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_cancel->setAutoRaise(true);
    connect(m_cancel, &QToolButton::clicked, this, &TaskMonitor::cancelSelected);
    auto *del = new QAction(this);
    del->setShortcut(QKeySequence::Delete);
    del->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(del, &QAction::triggered, this, &TaskMonitor::cancelSelected);
    m_view->addAction(del);

    m_rerun->setObjectName(QStringLiteral("rerunTasks"));
    m_rerun->setText(tr("Re-run"));
    m_rerun->setToolTip(tr("Submit the selected failed, cancelled or aborted cases again"));
    m_rerun->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    m_rerun->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rerun->setAutoRaise(true);
    connect(m_rerun, &QToolButton::clicked, this, [this] { Q_EMIT rerunRequested(selectedTaskIds()); });

    m_shown->setForegroundRole(QPalette::PlaceholderText);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_filterButton);
    bar->addWidget(m_rerun);
    bar->addWidget(m_cancel);
    bar->addWidget(m_shown);

    m_view->setObjectName(QStringLiteral("taskTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new ProgressDelegate(m_view));
    // "Parameterstudie 1 · Fall 6" in a narrow column keeps its end: "…studie 1 · Fall 6".
    m_view->setItemDelegateForColumn(TaskTableModel::CaseColumn, new ElideLeftDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(TaskTableModel::CaseColumn, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 10);
    QHeaderView *header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(true);
    header->setSectionsMovable(true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, &TaskMonitor::showHeaderMenu);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this, &TaskMonitor::syncVariedColumns);
    connect(m_model, &TaskTableModel::countsChanged, this, &TaskMonitor::syncPatternColumn);
    // The Notes column shows once a case has a note or tags; hidden again by the user, it stays.
    connect(m_model, &TaskTableModel::reviewsChanged, this, [this] {
        if (m_notesShown || !m_model->hasReviews())
            return;
        m_notesShown = true;
        m_view->setColumnHidden(TaskTableModel::NotesColumn, false);
    });
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, &TaskMonitor::shownRowsChanged);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TaskMonitor::shownRowsChanged);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TaskMonitor::shownRowsChanged);
    connect(header, &QHeaderView::sectionResized, this, [this](int column, int, int) {
        // Only a drag on the header's edge is the user's; the last section follows the view.
        if (!m_fitting && m_view->horizontalHeader()->underMouse())
            m_userSized.insert(column);
    });
    applyDefaultColumns();

    m_emptyHint->setObjectName(QStringLiteral("emptyHint"));
    m_emptyHint->setText(tr("No tasks in this session yet \u2014 File \u25B8 New Sweep\u2026 (Ctrl+N) or "
                            "Open Sweep\u2026"));
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setForegroundRole(QPalette::PlaceholderText);
    m_emptyHint->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_view->viewport()->installEventFilter(this);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TaskMonitor::updateEmptyHint);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TaskMonitor::scheduleFit);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TaskMonitor::scheduleFit);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TaskMonitor::scheduleFit);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (topLeft.column() <= TaskTableModel::VariedLastColumn
                    && bottomRight.column() >= TaskTableModel::CaseColumn)
                    scheduleFit(); // a case label or a varied value changed
            });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &TaskMonitor::updateEmptyHint);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TaskMonitor::updateEmptyHint);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TaskMonitor::checkPendingSweep);
    connect(m_view, &QTableView::customContextMenuRequested, this, &TaskMonitor::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateActions();
        Q_EMIT selectionChanged(selectedTaskIds());
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &idx) {
        Q_EMIT activated(idx.data(TaskTableModel::TaskIdRole).toLongLong());
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TaskMonitor::updateActions);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TaskMonitor::updateActions);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TaskMonitor::updateActions);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &TaskMonitor::updateActions);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TaskMonitor::updateActions);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    updateActions();
    updateEmptyHint();
}

TaskMonitor::~TaskMonitor() = default;

void TaskMonitor::setStatusFilter(StatusFilter filter)
{
    QSet<TaskStatus> s;
    switch (filter) {
    case StatusFilter::All: break;
    case StatusFilter::Live: s = {TaskStatus::Working, TaskStatus::InputRequired}; break;
    case StatusFilter::NeedsInput: s = {TaskStatus::InputRequired}; break;
    case StatusFilter::Completed: s = {TaskStatus::Completed}; break;
    case StatusFilter::Failed: s = {TaskStatus::Failed, TaskStatus::Expired, TaskStatus::Lost}; break;
    case StatusFilter::Cancelled: s = {TaskStatus::Cancelled}; break;
    }
    m_proxy->setStatusFilter(s);
    const int i = m_filter->findData(int(filter));
    if (i != m_filter->currentIndex()) {
        const QSignalBlocker block(m_filter);
        m_filter->setCurrentIndex(i);
    }
    updateActions();
}

TaskMonitor::StatusFilter TaskMonitor::statusFilter() const
{
    return static_cast<StatusFilter>(m_filter->currentData().toInt());
}

void TaskMonitor::setSearchText(const QString &text)
{
    m_search->setText(text);
}

QList<qint64> TaskMonitor::selectedTaskIds() const
{
    QList<qint64> ids;
    for (const QModelIndex &idx : m_view->selectionModel()->selectedRows())
        ids << idx.data(TaskTableModel::TaskIdRole).toLongLong();
    std::sort(ids.begin(), ids.end());
    return ids;
}

void TaskMonitor::selectTask(qint64 taskId)
{
    const int row = m_model->rowOf(taskId);
    if (row < 0)
        return;
    const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!idx.isValid())
        return;
    // Through the selection model: the view's setCurrentIndex() applies the keys held down,
    // and with Ctrl (Ctrl+I, Answer Next Question) it toggled the row just selected off again.
    m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect
                                                       | QItemSelectionModel::Rows);
    m_view->scrollTo(idx);
}

void TaskMonitor::selectTasks(const QList<qint64> &taskIds)
{
    QItemSelection selection;
    QModelIndex first;
    for (qint64 id : taskIds) {
        const int row = m_model->rowOf(id);
        const QModelIndex idx = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
        if (!idx.isValid())
            continue;
        selection.select(idx, idx);
        if (!first.isValid())
            first = idx;
    }
    if (!first.isValid())
        return;
    QItemSelectionModel *model = m_view->selectionModel();
    model->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    model->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
}

void TaskMonitor::cancelSelected()
{
    const auto stillLive = [this](const QList<qint64> &ids) {
        QList<qint64> out;
        for (qint64 id : ids) {
            const Store::TaskRecord *t = m_model->task(id);
            if (t && t->isLive() && !t->cancelRequested)
                out << id;
        }
        return out;
    };
    QList<qint64> live = stillLive(selectedTaskIds());
    if (live.isEmpty())
        return;
    // Always asked, one task or many: Del sits beside the arrow keys and a cancel is final.
    if (m_confirmCancel) {
        const auto question = [](qsizetype n) {
            return tr("Ask the server to cancel %n running task(s)? Results already computed "
                      "are lost.",
                      nullptr, static_cast<int>(n));
        };
        QMessageBox box(QMessageBox::Question, tr("Cancel Tasks"), question(live.size()),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setObjectName(QStringLiteral("cancelConfirm"));
        box.setDefaultButton(QMessageBox::No);
        // A case that finishes while the box is open has nothing left to lose: the box counts
        // only the cases still running, and goes when none is.
        const auto follow = [&box, &live, &stillLive, &question] {
            const QList<qint64> now = stillLive(live);
            if (now.isEmpty())
                box.done(QMessageBox::No);
            else if (now.size() != live.size())
                box.setText(question(now.size()));
        };
        connect(m_model, &QAbstractItemModel::dataChanged, &box, follow);
        connect(m_model, &QAbstractItemModel::modelReset, &box, follow);
        connect(m_model, &QAbstractItemModel::rowsRemoved, &box, follow);
        if (box.exec() != QMessageBox::Yes)
            return;
        live = stillLive(live);
        if (live.isEmpty())
            return;
    }
    Q_EMIT cancelRequested(live);
}

bool TaskMonitor::isRerunnable(const Store::TaskRecord &task)
{
    // Everything that did not produce a result: failed, cancelled, expired, lost, and a case that
    // completed with a tool error (e.g. aborted at its mesh check).
    switch (task.status) {
    case TaskStatus::Failed:
    case TaskStatus::Cancelled:
    case TaskStatus::Expired:
    case TaskStatus::Lost: return true;
    case TaskStatus::Completed: return task.isToolError;
    default: return false;
    }
}

bool TaskMonitor::isFailedOrUnconverged(qint64 taskId) const
{
    const Store::TaskRecord *t = m_model->task(taskId);
    return t && (isRerunnable(*t) || m_model->outcome(taskId) == Monitor::Outcome::NotConverged);
}

void TaskMonitor::setSweepPaused(qint64 sweepId, bool paused)
{
    if (paused)
        m_pausedSweeps.insert(sweepId);
    else
        m_pausedSweeps.remove(sweepId);
}

QHash<Monitor::Outcome, int> TaskMonitor::shownOutcomeCounts() const
{
    // The status filter and the search narrow the table only; a review filter narrows the counts.
    return m_proxy->reviewFilter().isEmpty() ? m_model->outcomeCounts() : m_proxy->shownOutcomeCounts();
}

void TaskMonitor::updateActions()
{
    bool anyLive = false;
    bool anyRerun = false;
    for (qint64 id : selectedTaskIds()) {
        const Store::TaskRecord *t = m_model->task(id);
        if (!t)
            continue;
        anyLive = anyLive || (t->isLive() && !t->cancelRequested);
        anyRerun = anyRerun || isRerunnable(*t);
    }
    m_cancel->setEnabled(anyLive);
    m_rerun->setEnabled(anyRerun);
    m_shown->setText(tr("%1 of %2").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

void TaskMonitor::showContextMenu(const QPoint &pos)
{
    const QModelIndex idx = m_view->indexAt(pos);
    if (!idx.isValid())
        return;
    QMenu menu(this);
    QAction *cancel = menu.addAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("Cancel"));
    cancel->setEnabled(m_cancel->isEnabled());
    connect(cancel, &QAction::triggered, this, &TaskMonitor::cancelSelected);
    QAction *rerun = menu.addAction(tr("Re-run"));
    rerun->setEnabled(m_rerun->isEnabled());
    connect(rerun, &QAction::triggered, this, [this] { Q_EMIT rerunRequested(selectedTaskIds()); });
    const QList<qint64> selected = selectedTaskIds();
    QAction *rerunFailed = menu.addAction(tr("Re-run Failed and Unconverged"));
    rerunFailed->setObjectName(QStringLiteral("rerunFailed"));
    rerunFailed->setToolTip(tr("Submit again the selected cases that failed or did not converge; each joins its sweep"));
    rerunFailed->setEnabled(std::any_of(selected.cbegin(), selected.cend(),
                                        [this](qint64 t) { return isFailedOrUnconverged(t); }));
    connect(rerunFailed, &QAction::triggered, this, [this, selected] { Q_EMIT rerunFailedRequested(selected); });
    const qint64 id = idx.data(TaskTableModel::TaskIdRole).toLongLong();
    QAction *relaunch = menu.addAction(tr("Relaunch with Edits..."));
    connect(relaunch, &QAction::triggered, this, [this, id] { Q_EMIT relaunchRequested(id); });
    menu.addSeparator();
    const bool hasCase = idx.data(TaskTableModel::CaseIdRole).isValid();
    QAction *note = menu.addAction(tr("Edit Note..."));
    note->setObjectName(QStringLiteral("editNote"));
    note->setEnabled(hasCase);
    connect(note, &QAction::triggered, this, [this, selected] { Q_EMIT noteRequested(selected); });
    QAction *tags = menu.addAction(tr("Edit Tags..."));
    tags->setObjectName(QStringLiteral("editTags"));
    tags->setEnabled(hasCase);
    connect(tags, &QAction::triggered, this, [this, selected] { Q_EMIT tagsRequested(selected); });
    const QVariant sweep = idx.data(TaskTableModel::SweepIdRole);
    if (sweep.isValid()) {
        const qint64 sweepId = sweep.toLongLong();
        const bool paused = m_pausedSweeps.contains(sweepId);
        QAction *pause = menu.addAction(paused ? tr("Resume Sweep Submission") : tr("Pause Sweep Submission"));
        pause->setObjectName(QStringLiteral("pauseSweep"));
        pause->setToolTip(paused ? tr("Send the sweep's cases that were held back")
                                 : tr("Hold back the sweep's cases that have not been sent yet, also after a restart"));
        connect(pause, &QAction::triggered, this, [this, sweepId, paused] { Q_EMIT pauseRequested(sweepId, !paused); });
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QByteArray TaskMonitor::saveState() const
{
    return m_view->horizontalHeader()->saveState();
}

void TaskMonitor::restoreState(const QByteArray &state)
{
    // A layout saved with another set of columns is not applied: the defaults fit the window.
    QHeaderView *header = m_view->horizontalHeader();
    if (!state.isEmpty() && (!header->restoreState(state) || header->count() != TaskTableModel::ColumnCount))
        applyDefaultColumns();
    syncVariedColumns();
}

static bool TaskTableModelColumnIsVaried(int column)
{
    return column >= TaskTableModel::VariedColumn && column <= TaskTableModel::VariedLastColumn;
}

bool TaskMonitor::shownByDefault(int column)
{
    switch (column) {
    case TaskTableModel::ParametersColumn: // the varied columns and the tooltip say it all
    case TaskTableModel::MessageColumn:
    case TaskTableModel::AgeColumn:
    case TaskTableModel::ServerColumn:
    case TaskTableModel::ExpiresColumn:
    case TaskTableModel::NotesColumn: // shown once a case has a note or tags
    case TaskTableModel::PatternColumn: return false; // shown once a row is not a task
    default: return true;
    }
}

void TaskMonitor::applyDefaultColumns()
{
    QHeaderView *header = m_view->horizontalHeader();
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    m_userSized.clear();
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    const auto width = [&](int column, int ems) {
        // Never narrower than the header's own text (German headers are longer).
        m_defaultWidth.insert(column, std::max(ems * em, headerTextWidth(header, column)));
        m_view->setColumnWidth(column, m_defaultWidth.value(column));
    };
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
        header->moveSection(header->visualIndex(c), c);
        m_view->setColumnHidden(c, !shownByDefault(c));
    }
    width(TaskTableModel::CaseColumn, MinCaseEms);
    for (int c = TaskTableModel::VariedColumn; c <= TaskTableModel::VariedLastColumn; ++c)
        width(c, 5);
    width(TaskTableModel::ParametersColumn, 14);
    // The longest outcome a row shows, in the language shown, in bold (as the delegate paints
    // it) beside its dot.
    QFont bold = m_view->font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    int status = headerTextWidth(header, TaskTableModel::StatusColumn);
    for (int o = 0; o <= int(Monitor::Outcome::Lost); ++o)
        status = std::max(status, boldMetrics.horizontalAdvance(
                                      OutcomePalette::label(static_cast<Monitor::Outcome>(o)))
                                      + ProgressDelegate::statusIndent(m_view->fontMetrics())
                                      + em / 2);
    m_defaultWidth.insert(TaskTableModel::StatusColumn, status);
    m_view->setColumnWidth(TaskTableModel::StatusColumn, status);
    width(TaskTableModel::MessageColumn, 16);
    width(TaskTableModel::ProgressColumn, 7);
    width(TaskTableModel::ResidualColumn, 7);
    width(TaskTableModel::EtaColumn, 6);
    width(TaskTableModel::AgeColumn, 5);
    width(TaskTableModel::ServerColumn, 7);
    width(TaskTableModel::ExpiresColumn, 6);
    width(TaskTableModel::PatternColumn, 7);
    width(TaskTableModel::NotesColumn, 14);
    m_notesShown = false;
    syncVariedColumns();
    m_patternShown = false;
    syncPatternColumn();
    scheduleFit();
}

void TaskMonitor::syncPatternColumn()
{
    if (m_patternShown || m_model->otherPatternRows() == 0)
        return;
    m_patternShown = true;
    m_view->setColumnHidden(TaskTableModel::PatternColumn, false);
}

void TaskMonitor::syncVariedColumns()
{
    QHeaderView *header = m_view->horizontalHeader();
    for (int c = TaskTableModel::VariedColumn; c <= TaskTableModel::VariedLastColumn; ++c) {
        const bool named = !m_model->variedName(c).isEmpty();
        m_view->setColumnHidden(c, !named);
        if (named && header->sectionSize(c) < headerTextWidth(header, c) && !m_userSized.contains(c)) {
            const QScopedValueRollback<bool> fitting(m_fitting, true);
            header->resizeSection(c, headerTextWidth(header, c)); // fitColumns() may narrow it
        }
    }
    scheduleFit();
}

int TaskMonitor::headerTextWidth(const QHeaderView *header, int column)
{
    const QString text = header->model()
                             ? header->model()->headerData(column, Qt::Horizontal).toString()
                             : QString();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    return header->fontMetrics().horizontalAdvance(text) + 2 * margin + 4;
}

void TaskMonitor::scheduleFit()
{
    if (m_fitQueued)
        return;
    m_fitQueued = true;
    QMetaObject::invokeMethod(this, [this] {
        m_fitQueued = false;
        fitColumns();
    }, Qt::QueuedConnection);
}

int TaskMonitor::caseLabelWidth() const
{
    // The rows in view (a screenful): labels differ in their sweep and case number only, and
    // measuring 100,000 rows would stall the GUI.
    const int first = std::max(0, m_view->rowAt(0));
    const int rows = std::max(1, m_view->viewport()->height() / std::max(1, m_view->rowHeight(first)) + 1);
    int widest = 0;
    for (int r = first; r < std::min(m_proxy->rowCount(), first + rows); ++r)
        widest = std::max(widest, textWidth(m_proxy->index(r, TaskTableModel::CaseColumn).data().toString()));
    // The item's text margins on both sides, as the style pads it.
    const int margin = m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1;
    return widest + 2 * margin + 8;
}

int TaskMonitor::textWidth(const QString &text) const
{
    if (m_textWidths.size() > 20000)
        m_textWidths.clear();
    auto it = m_textWidths.constFind(text);
    if (it == m_textWidths.constEnd())
        it = m_textWidths.insert(text, QFontMetrics(m_view->font()).horizontalAdvance(text));
    return *it;
}

void TaskMonitor::fitColumns()
{
    // The widths kept are in the view's font: checked once a fit, not once a text (a font's
    // key is a string built anew each time).
    if (m_view->font() != m_textWidthFont) {
        m_textWidths.clear();
        m_textWidthFont = m_view->font();
    }
    QHeaderView *header = m_view->horizontalHeader();
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    const int caseColumn = TaskTableModel::CaseColumn;
    // What every other shown column takes at its own width (the stretched last one at its
    // default, not at what it stretched to).
    int lastVisual = -1;
    for (int v = header->count() - 1; v >= 0 && lastVisual < 0; --v) {
        if (!header->isSectionHidden(header->logicalIndex(v)))
            lastVisual = v;
    }
    const auto widthOf = [&](int c) {
        if (header->visualIndex(c) == lastVisual)
            return m_defaultWidth.value(c, headerTextWidth(header, c));
        return header->sectionSize(c);
    };
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    // The key columns read in full in the language shown (a layout saved in another language
    // may have them narrower).
    for (int c : {int(TaskTableModel::StatusColumn), int(TaskTableModel::ProgressColumn),
                  int(TaskTableModel::ResidualColumn), int(TaskTableModel::EtaColumn)}) {
        if (!m_userSized.contains(c) && header->visualIndex(c) != lastVisual
            && header->sectionSize(c) < m_defaultWidth.value(c))
            header->resizeSection(c, m_defaultWidth.value(c));
    }
    const QFontMetrics fm(m_view->font());
    const int margin = m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1;
    struct Varied
    {
        int column;
        int full;  // its name in full
        int least; // its values in full, the name cut down to VariedCapEms at most
    };
    QList<Varied> varied;
    int others = 0;
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
        if (c == caseColumn || header->isSectionHidden(c))
            continue;
        const bool isVaried = c >= TaskTableModel::VariedColumn && c <= TaskTableModel::VariedLastColumn;
        if (!isVaried || m_userSized.contains(c)) {
            others += widthOf(c);
            continue;
        }
        int values = 0;
        for (int r = 0; r < std::min(m_proxy->rowCount(), 200); ++r)
            values = std::max(values, textWidth(m_proxy->index(r, c).data().toString()));
        const int full = std::max(5 * em, headerTextWidth(header, c));
        const int least = std::min(full, std::max(values + 2 * margin + 2, VariedCapEms * em));
        varied.push_back({c, full, least});
        others += full;
    }
    const int room = m_view->viewport()->width();
    const int caseMin = MinCaseEms * em;
    const int caseFull = std::max(caseMin, caseLabelWidth());
    // Too little room for the case in full: first the varied names give what they can spare,
    // then the case label is elided on the left.
    int over = others + caseFull - room;
    for (Varied &v : varied) {
        const int give = std::clamp(over, 0, v.full - v.least);
        header->resizeSection(v.column, v.full - give);
        over -= give;
    }
    if (!m_userSized.contains(caseColumn))
        header->resizeSection(caseColumn, std::max(caseMin, caseFull - std::max(0, over)));
}

void TaskMonitor::showHeaderMenu(const QPoint &pos)
{
    QHeaderView *header = m_view->horizontalHeader();
    QMenu menu(this);
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
        if (TaskTableModelColumnIsVaried(c) || c == TaskTableModel::CaseColumn)
            continue; // the case always shows; varied columns follow the shown sweeps
        QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!header->isSectionHidden(c));
        connect(a, &QAction::toggled, this, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
    }
    menu.addSeparator();
    QAction *reset = menu.addAction(tr("Default Columns"));
    connect(reset, &QAction::triggered, this, &TaskMonitor::applyDefaultColumns);
    menu.exec(header->mapToGlobal(pos));
}

void TaskMonitor::selectSweepWhenListed(qint64 sweepId)
{
    m_pendingSweep = sweepId;
    checkPendingSweep();
}

void TaskMonitor::checkPendingSweep()
{
    if (!m_pendingSweep)
        return;
    // The first of its rows in the shown order (case 1 when sorted by case).
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex idx = m_proxy->index(r, 0);
        if (idx.data(TaskTableModel::SweepIdRole).toLongLong() != *m_pendingSweep)
            continue;
        m_pendingSweep.reset();
        // After the insertion has settled in the view.
        const qint64 taskId = idx.data(TaskTableModel::TaskIdRole).toLongLong();
        QMetaObject::invokeMethod(this, [this, taskId] { selectTask(taskId); }, Qt::QueuedConnection);
        return;
    }
}

void TaskMonitor::updateEmptyHint()
{
    m_emptyHint->setVisible(m_model->rowCount() == 0);
    m_emptyHint->setGeometry(m_view->viewport()->geometry().adjusted(16, 16, -16, -16));
    m_emptyHint->raise();
}

bool TaskMonitor::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        updateEmptyHint();
        scheduleFit();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Eddy
