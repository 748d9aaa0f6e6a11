#pragma once

#include <QHash>
#include <QList>
#include <QPointer>
#include <QWidget>

class QChart;
class QChartView;
class QLogValueAxis;
class QValueAxis;
class QLabel;
class QLayout;
class QTimer;
class QToolButton;

namespace Eddy {

class ChartTheme;
class SampleSeriesModel;

// The live residual chart: every series model handed to it (one per task and field) drawn on a
// log y axis against iteration, several tasks overlaid, rubber-band zoom, wheel/arrow pan,
// export to PNG and CSV. It reads SampleSeriesModels through QVXYModelMapper and owns no data;
// zooming asks the models to re-decimate the visible window. GUI thread.
class ResidualChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResidualChart)

public:
    explicit ResidualChart(QWidget *parent = nullptr);
    ~ResidualChart() override;

    // Shows these series (not owned); an empty list shows the placeholder text. Several tasks'
    // series are named by the task's case label (`caseLabels`, else "Task N") and field, one
    // colour per case and one line style per field; the legend lists the cases.
    void setSeries(const QList<SampleSeriesModel *> &models, const QHash<qint64, QString> &caseLabels = {});
    QList<SampleSeriesModel *> series() const;
    void setPlaceholder(const QString &text);
    QChart *chart() const { return m_chart; }
    QChartView *chartView() const { return m_view; }

    void resetZoom();
    void zoomBy(double factor);
    void panBy(double fraction);
    bool exportPng(const QString &path);
    bool exportCsv(const QString &path) const;
    // The chart as SVG, drawn from the series data as shown (after downsampling).
    QString toSvg() const;
    bool exportSvg(const QString &path) const;

    // Redraws everything now (bench: a full redraw of the shown points).
    void refresh();

private:
    void scheduleRanges();
    void updateRanges();
    void onXRangeChanged(double from, double to);
    void exportPngInteractive();
    void exportCsvInteractive();
    void exportSvgInteractive();
    // Pens and legend entries of the shown lines, for one task or several (see setSeries()).
    void styleLines();

    QChartView *m_view;
    QChart *m_chart;
    QValueAxis *m_x;
    QLogValueAxis *m_y;
    double m_laidOutHeight = 0; // plot height the y labels were last spaced for
    QLabel *m_placeholder;
    QLayout *m_tools; // the row of buttons over the chart
    QTimer *m_rangeTimer;
    QList<QPointer<SampleSeriesModel>> m_models;
    bool m_zoomed = false;
    bool m_settingRange = false;
    ChartTheme *m_theme;
};

} // namespace Eddy
