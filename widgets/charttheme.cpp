#include "widgets/charttheme.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegend>
#include <QPalette>

namespace Eddy {

namespace {

// `amount` of the way from `from` to `to`.
QColor blend(const QColor &from, const QColor &to, double amount)
{
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * amount),
                            float(from.greenF() + (to.greenF() - from.greenF()) * amount),
                            float(from.blueF() + (to.blueF() - from.blueF()) * amount));
}

} // namespace

ChartTheme::ChartTheme(QChartView *view)
    : QObject(view)
    , m_view(view)
{
    view->installEventFilter(this);
}

ChartTheme *ChartTheme::follow(QChartView *view)
{
    auto *theme = new ChartTheme(view);
    theme->apply();
    return theme;
}

bool ChartTheme::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

bool ChartTheme::isDark() const
{
    return isDark(m_view->palette());
}

bool ChartTheme::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::PaletteChange)
        apply();
    return QObject::eventFilter(watched, event);
}

void ChartTheme::apply()
{
    QChart *chart = m_view->chart();
    const QPalette palette = m_view->palette();
    const bool dark = isDark(palette);
    // Qt's theme for the series' colours (bright on dark); it resets every series' pen, so it is
    // set only when it changes.
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme)
        chart->setTheme(theme);
    // The outcome colours keep their contrast against the palette's base (OutcomePalette).
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    chart->legend()->setBrush(Qt::NoBrush);
    chart->legend()->setPen(Qt::NoPen);
    for (QAbstractAxis *axis : chart->axes())
        styleAxis(axis, palette);
    Q_EMIT applied(dark);
}

void ChartTheme::styleAxis(QAbstractAxis *axis, const QPalette &palette) const
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    axis->setLabelsBrush(text);
    axis->setTitleBrush(text);
    axis->setLinePen(QPen(blend(base, text, 0.45), 1));
    axis->setGridLineColor(blend(base, text, 0.2));
    // Minor lines are a hint of scale, not content: barely above the background.
    axis->setMinorGridLineColor(blend(base, text, 0.08));
    axis->setShadesVisible(false);
}

} // namespace Eddy
