#pragma once

#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>

class QChart;
class QChartView;
class QComboBox;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
class QWidget;
class QXYSeries;

namespace Eddy {

class ChartTheme;
class SweepResultsModel;
struct SvgPlot;

// The sweep view's scalar-versus-parameter plot: the two pickers (a varied parameter for x, a
// result scalar for y), the chart with a marker series per outcome and lines through converged
// runs, another sweep drawn beside it, and the plot's SVG and PNG exports. Its widgets are the
// host's children, for the host to lay out. GUI thread.
class SweepScalarPlot final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepScalarPlot)

public:
    SweepScalarPlot(SweepResultsModel *model, QWidget *host);

    QComboBox *xCombo() const { return m_x; }
    QComboBox *yCombo() const { return m_y; }
    QChartView *chartView() const { return m_view; }
    // Points now plotted (all of them), and those drawn as not converged (hollow).
    QList<QPointF> plottedPoints() const { return m_plotted; }
    QList<QPointF> unconvergedPoints() const;
    // One scatter series per outcome present (named as in the legend, coloured and shaped by
    // OutcomePalette), and the lines: each joins a run of consecutive converged points along x.
    QList<QScatterSeries *> outcomeSeries() const { return m_outcomeSeries; }
    QList<QLineSeries *> lineSeries() const { return m_lines; }
    // Whether the y axis is logarithmic (residual-like scalars), and the plot's title text.
    bool isLogY() const { return m_logY; }
    QString title() const;
    // Chooses the plotted pair; false when the model has no such column.
    bool setPlot(const QString &parameter, const QString &scalar);
    // The choice is remembered per key (server and tool) in QSettings.
    void setPlotKey(const QString &key) { m_plotKey = key; }
    // Fills the pickers from the model's columns (keeping, remembering or guessing the choice);
    // replot() then draws it.
    void refreshChoices();
    void replot();

    // The other sweep drawn beside this one: the model that holds it (not owned), and which
    // sweep (0: none) under which name. setOverlay() draws nothing until the next replot().
    void setOverlayModel(SweepResultsModel *overlay);
    void setOverlay(qint64 sweepId, const QString &name);
    QList<QPointF> overlayPoints() const { return m_overlayPoints; }

    SvgPlot plot() const;
    bool exportSvg(const QString &path) const;
    bool exportPng(const QString &path);

private:
    static QString outcomeName(int outcome); // a Monitor::Outcome, as the legend names it
    void rebuildSeries(const QList<QPointF> &points, const QList<int> &outcomes);
    void applyMarkerStyle();
    void addOverlay(); // after rebuildSeries(): the chosen sweep's points and curve
    int decadesPerLabel(double decades) const; // on the log axis, for the plot's height
    // The y quantity's name upright on its axis while the axis is long enough for it, else both
    // names as the chart's title above the plot, "y vs x" (Qt Charts cuts an axis title to the
    // axis' length: "final_resi..." in the dock at 1280x800).
    void placeYTitle();
    void rememberChoice() const;
    QStringList rememberedChoice() const; // {x, y}, or empty

    SweepResultsModel *m_model;
    SweepResultsModel *m_overlay = nullptr;
    qint64 m_overlaySweep = 0;
    QString m_overlayName;
    QList<QPointF> m_overlayPoints;
    QList<QXYSeries *> m_overlaySeries;
    QComboBox *m_x;
    QComboBox *m_y;
    QChartView *m_view;
    QChart *m_chart;
    QList<QScatterSeries *> m_outcomeSeries; // in the order of the outcomes' legend
    QList<int> m_seriesOutcome;              // Monitor::Outcome of each of them
    QList<QLineSeries *> m_lines;
    QList<QPointF> m_plotted;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    QLogValueAxis *m_axisLogY;
    bool m_logY = false;
    double m_logDecades = 0;     // the plotted values' decades on the log axis
    int m_logDecadesPerLabel = 1; // its labels' spacing, for the plot's height
    bool m_userPickedY = false;
    bool m_yTitleOnTop = false; // placeYTitle(): the names are the chart's title
    ChartTheme *m_theme = nullptr;
    QString m_plotKey;
};

} // namespace Eddy
