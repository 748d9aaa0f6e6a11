#pragma once

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QMenu;
class QScatterSeries;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace Eddy {

class CompareView;
class ParallelCoordinatesPanel;
class SweepResultsModel;
class SweepRowActions;
class SweepScalarPlot;
struct SvgPlot;

// A sweep's design-point table (sortable; CSV export) beside a scalar-vs-parameter plot: pick a
// varied parameter (x) and a result scalar (y); one point per completed case. Both follow the
// model, so they fill in as cases finish. Export the plot as PNG or SVG. The plot itself is a
// SweepScalarPlot; the view lays out its widgets and forwards its API. GUI thread.
class SweepResultsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepResultsView)

public:
    explicit SweepResultsView(SweepResultsModel *model, QWidget *parent = nullptr);

    SweepResultsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QComboBox *xCombo() const;
    QComboBox *yCombo() const;
    // Points now plotted (all of them), and those drawn as not converged (hollow).
    QList<QPointF> plottedPoints() const;
    QList<QPointF> unconvergedPoints() const;
    // One scatter series per outcome present (named as in the legend, coloured and shaped by
    // OutcomePalette), and the lines: each joins a run of consecutive converged points along x.
    QList<QScatterSeries *> outcomeSeries() const;
    QList<QLineSeries *> lineSeries() const;
    // Whether the y axis is logarithmic (residual-like scalars), and the plot's title text.
    bool isLogY() const;
    QString plotTitle() const;
    // Chooses the plotted pair; false when the model has no such column.
    bool setPlot(const QString &parameter, const QString &scalar);
    // The plot's choice is remembered per key (server and tool) in QSettings: set it before the
    // model shows the sweep.
    void setPlotKey(const QString &key);
    // Shows the plot in a large resizable window of its own (and back when that closes).
    void enlargePlot();
    QChartView *chartView() const;

    // The tasks of the rows selected in the table, in the table's order.
    QList<qint64> selectedTasks() const;
    // Compare: the selected cases (one: against its baseline) in the compare window.
    void compareSelected();
    CompareView *compareView() const { return m_compare; }
    // Another sweep of the same tool drawn on the plot beside this one ("the same Reynolds range
    // on two grids"): the sweeps offered (id, name), the model that holds the one chosen (not
    // owned; filled by whoever answers overlayRequested()), and what is drawn of it.
    void setOverlayChoices(const QList<QPair<qint64, QString>> &sweeps);
    void setOverlayModel(SweepResultsModel *overlay);
    qint64 overlaySweep() const { return m_overlaySweep; }
    void chooseOverlay(qint64 sweepId); // 0: none
    QList<QPointF> overlayPoints() const;
    QString overlayName() const;
    // The sweep's parallel coordinates, tied to the table's selection.
    void showParallelCoordinates();
    ParallelCoordinatesPanel *parallelCoordinates() const { return m_parallel; }

    // The sweeps the header's chooser offers (id, name), e.g. the session's: choosing one asks for
    // it (sweepChosen()), also one none of whose cases was sent yet.
    void setSweepChoices(const QList<QPair<qint64, QString>> &sweeps);
    QComboBox *sweepChooser() const { return m_sweepChooser; }
    // The header's line with the shown sweep's note and tags (hidden when it has none).
    QLabel *reviewLine() const { return m_reviewLine; }

    bool exportCsv(const QString &path) const;
    SvgPlot plot() const;
    bool exportSvg(const QString &path) const;
    bool exportPng(const QString &path);

Q_SIGNALS:
    void taskActivated(qint64 taskId);
    // The stored results of this sweep are wanted for the overlay (0: none).
    void overlayRequested(qint64 sweepId);
    // Mark as Baseline in the table's context menu: the row's task's case becomes its sweep's
    // baseline (the reference the sweep's cases are compared against).
    void baselineRequested(qint64 taskId);
    // Re-run Selected and Re-run Failed and Unconverged (context menu, Review menu): the selected
    // cases to submit again, each into its sweep (see SweepRowActions).
    void rerunRequested(const QList<qint64> &taskIds);
    void rerunFailedRequested(const QList<qint64> &taskIds);
    // The header's chooser: show this sweep.
    void sweepChosen(qint64 sweepId);
    // Review menu: Edit Sweep Note..., Edit Sweep Tags..., Pause/Resume Sweep Submission of the
    // sweep shown.
    void sweepNoteRequested(qint64 sweepId);
    void sweepTagsRequested(qint64 sweepId);
    void pauseRequested(qint64 sweepId, bool paused);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void refreshChoices();
    void refreshHeader(); // the chooser, the summary and the review line
    void addSweepActions(QMenu *reviewMenu);
    void fillOverlayMenu();
    void exportInteractive(const QString &kind);

    SweepResultsModel *m_model;
    CompareView *m_compare = nullptr;
    ParallelCoordinatesPanel *m_parallel = nullptr;
    SweepRowActions *m_rows = nullptr;
    QMenu *m_overlayMenu = nullptr; // Review > Overlay Sweep
    QList<QPair<qint64, QString>> m_overlayChoices;
    qint64 m_overlaySweep = 0;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_summary;
    QComboBox *m_sweepChooser;
    QLabel *m_reviewLine;
    SweepScalarPlot *m_plot;
    QSplitter *m_split = nullptr;
    bool m_splitShared = false; // the table and the plot got their shares of the width
};

} // namespace Eddy
