#pragma once

#include <QObject>

class QMenu;
class QPoint;
class QTableView;

namespace Eddy {

// What the sweep table offers for its selected rows, in its context menu and in the sweep
// view's Review menu: Mark as Baseline (the row under the pointer), Re-run Selected and Re-run
// Failed and Unconverged. The rows selected there may come from brushing the parallel
// coordinates; the re-runs go through the window's re-run, so each joins its sweep at its case
// index. GUI thread.
class SweepRowActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepRowActions)

public:
    // `table` shows a SweepResultsModel (through a proxy); the two re-run actions are added to
    // `reviewMenu`.
    SweepRowActions(QTableView *table, QMenu *reviewMenu, QObject *parent);

    // The tasks of the selected rows, in the table's order.
    QList<qint64> selectedTasks() const;

Q_SIGNALS:
    void baselineRequested(qint64 taskId);
    // Re-run Selected: the selected cases that failed, were cancelled, expired, lost or ended
    // with a tool error.
    void rerunRequested(const QList<qint64> &taskIds);
    // Re-run Failed and Unconverged: those and the selected cases that did not converge.
    void rerunFailedRequested(const QList<qint64> &taskIds);

private:
    void showContextMenu(const QPoint &pos);
    void addRerunActions(QMenu *menu);
    // Whether any selected row's outcome is one the action re-runs.
    bool anySelected(bool withUnconverged) const;

    QTableView *m_table;
};

} // namespace Eddy
