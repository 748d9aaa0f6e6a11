#include "widgets/sweeprowactions.h"

#include "app/vocab/outcome.h"
#include "models/sweepresultsmodel.h"

#include <QItemSelectionModel>
#include <QMenu>
#include <QTableView>

#include <algorithm>

namespace Eddy {

namespace {

// As TaskMonitor::isRerunnable(), read from the sweep table's outcome.
bool isRerunnable(Monitor::Outcome o)
{
    switch (o) {
    case Monitor::Outcome::ToolError:
    case Monitor::Outcome::Failed:
    case Monitor::Outcome::Cancelled:
    case Monitor::Outcome::Expired:
    case Monitor::Outcome::Lost: return true;
    default: return false;
    }
}

} // namespace

SweepRowActions::SweepRowActions(QTableView *table, QMenu *reviewMenu, QObject *parent)
    : QObject(parent)
    , m_table(table)
{
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, &SweepRowActions::showContextMenu);
    reviewMenu->addSeparator();
    addRerunActions(reviewMenu);
}

QList<qint64> SweepRowActions::selectedTasks() const
{
    QList<qint64> out;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &i : std::as_const(rows))
        out << i.data(SweepResultsModel::TaskIdRole).toLongLong();
    return out;
}

bool SweepRowActions::anySelected(bool withUnconverged) const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return std::any_of(rows.cbegin(), rows.cend(), [withUnconverged](const QModelIndex &i) {
        const auto o = Monitor::Outcome(i.data(SweepResultsModel::OutcomeRole).toInt());
        return isRerunnable(o) || (withUnconverged && o == Monitor::Outcome::NotConverged);
    });
}

void SweepRowActions::addRerunActions(QMenu *menu)
{
    QAction *rerun = menu->addAction(tr("Re-run Selected"));
    rerun->setObjectName(QStringLiteral("sweepRerun"));
    rerun->setToolTip(tr("Submit the selected failed, cancelled or aborted cases again; each joins its sweep"));
    connect(rerun, &QAction::triggered, this, [this] { Q_EMIT rerunRequested(selectedTasks()); });
    QAction *failed = menu->addAction(tr("Re-run Failed and Unconverged"));
    failed->setObjectName(QStringLiteral("sweepRerunFailed"));
    failed->setToolTip(tr("Submit again the selected cases that failed or did not converge; each joins its sweep"));
    connect(failed, &QAction::triggered, this, [this] { Q_EMIT rerunFailedRequested(selectedTasks()); });
    // Enabled for what is selected when the menu opens (the Review menu outlives a selection).
    const auto update = [this, rerun, failed] {
        rerun->setEnabled(anySelected(false));
        failed->setEnabled(anySelected(true));
    };
    update();
    connect(menu, &QMenu::aboutToShow, this, update);
}

void SweepRowActions::showContextMenu(const QPoint &pos)
{
    const QModelIndex idx = m_table->indexAt(pos);
    const qint64 taskId = idx.data(SweepResultsModel::TaskIdRole).toLongLong();
    if (!idx.isValid() || taskId <= 0)
        return;
    QMenu menu(m_table);
    menu.setToolTipsVisible(true);
    QAction *baseline = menu.addAction(tr("Mark as Baseline"));
    baseline->setObjectName(QStringLiteral("markBaseline"));
    baseline->setToolTip(tr("Compare the sweep's other cases against this one"));
    connect(baseline, &QAction::triggered, this, [this, taskId] { Q_EMIT baselineRequested(taskId); });
    menu.addSeparator();
    addRerunActions(&menu);
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace Eddy
