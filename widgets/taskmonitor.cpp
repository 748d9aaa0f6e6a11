#include "widgets/taskmonitor.h"

#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "widgets/progressdelegate.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

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
    , m_shown(new QLabel(this))
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
    bar->addWidget(m_rerun);
    bar->addWidget(m_cancel);
    bar->addWidget(m_shown);

    m_view->setObjectName(QStringLiteral("taskTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new ProgressDelegate(m_view));
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
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(TaskTableModel::MessageColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(TaskTableModel::CaseColumn, 130);
    m_view->setColumnWidth(TaskTableModel::ParametersColumn, 200);
    m_view->setColumnWidth(TaskTableModel::StatusColumn, 130);
    m_view->setColumnWidth(TaskTableModel::ProgressColumn, 120);
    m_view->setColumnWidth(TaskTableModel::ResidualColumn, 80);
    m_view->setColumnWidth(TaskTableModel::EtaColumn, 80);
    m_view->setColumnWidth(TaskTableModel::AgeColumn, 80);
    m_view->setColumnWidth(TaskTableModel::ServerColumn, 110);
    m_view->setColumnWidth(TaskTableModel::ExpiresColumn, 90);
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
    m_view->selectionModel()->select(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx);
}

void TaskMonitor::cancelSelected()
{
    QList<qint64> live;
    for (qint64 id : selectedTaskIds()) {
        const Store::TaskRecord *t = m_model->task(id);
        if (t && t->isLive() && !t->cancelRequested)
            live << id;
    }
    if (live.isEmpty())
        return;
    // Always asked, one task or many: Del sits beside the arrow keys and a cancel is final.
    if (m_confirmCancel) {
        QMessageBox box(QMessageBox::Question, tr("Cancel Tasks"),
                        tr("Ask the server to cancel %n running task(s)? Results already computed "
                           "are lost.",
                           nullptr, static_cast<int>(live.size())),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setObjectName(QStringLiteral("cancelConfirm"));
        box.setDefaultButton(QMessageBox::No);
        if (box.exec() != QMessageBox::Yes)
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
    const qint64 id = idx.data(TaskTableModel::TaskIdRole).toLongLong();
    QAction *relaunch = menu.addAction(tr("Relaunch with Edits..."));
    connect(relaunch, &QAction::triggered, this, [this, id] { Q_EMIT relaunchRequested(id); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QByteArray TaskMonitor::saveState() const
{
    return m_view->horizontalHeader()->saveState();
}

void TaskMonitor::restoreState(const QByteArray &state)
{
    if (!state.isEmpty())
        m_view->horizontalHeader()->restoreState(state);
}

} // namespace Eddy
