#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace Eddy {

class ParallelCoordinatesView;
class SweepResultsModel;

// The sweep's parallel coordinates in a window of their own, tied to the sweep table: brushing
// axes selects the brushed cases in the table, and selecting rows in the table highlights their
// lines. Axes: the numeric varied parameters and the results chosen under Axes (by default every
// numeric result that varies). Follows the model as cases finish. GUI thread.
class ParallelCoordinatesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParallelCoordinatesPanel)

public:
    ParallelCoordinatesPanel(SweepResultsModel *model, QTableView *table, QWidget *parent = nullptr);

    ParallelCoordinatesView *view() const { return m_view; }
    QToolButton *axesButton() const { return m_axes; }
    QStringList chosenScalars() const { return m_scalars; }
    void setChosenScalars(const QStringList &scalars);

private:
    void rebuild();
    void fillAxesMenu();
    void selectInTable(const QSet<qint64> &taskIds);
    void tableSelectionChanged();

    SweepResultsModel *m_model;
    QTableView *m_table;
    ParallelCoordinatesView *m_view;
    QToolButton *m_axes;
    QLabel *m_status;
    QStringList m_scalars;
    bool m_userChose = false; // the scalars were chosen under Axes: keep them
    bool m_syncing = false;   // selecting in the table from a brush
};

} // namespace Eddy
