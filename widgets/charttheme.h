#pragma once

#include <QObject>

class QAbstractAxis;
class QChartView;
class QPalette;

namespace Eddy {

// The one look of every chart in the window, taken from the palette its view shows (the
// application's, light or dark): background, axis lines, tick labels and titles, grid, legend and
// chart title. Qt Charts' own themes style only the axes a chart holds when the theme is set, and
// an axis added later keeps whatever look it had: the dark theme drew such axes' labels dark grey
// on dark grey, and a chart nobody themed stayed white. Attached to a chart view it styles the
// chart now and whenever the palette changes; code that adds an axis later calls apply(). GUI
// thread; owned by the view.
class ChartTheme final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartTheme)

public:
    // Styles `view`'s chart now and on every palette change.
    static ChartTheme *follow(QChartView *view);
    static bool isDark(const QPalette &palette);

    bool isDark() const;
    // Styles the chart again, every axis it holds included.
    void apply();

Q_SIGNALS:
    // The chart has just been styled (series colours come from Qt's light or dark theme: a chart
    // that styles its series itself does it again here).
    void applied(bool dark);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit ChartTheme(QChartView *view);
    void styleAxis(QAbstractAxis *axis, const QPalette &palette) const;

    QChartView *m_view;
};

} // namespace Eddy
