#include "widgets/sweepscalarplot.h"

#include "models/outcomepalette.h"
#include "models/svgplot.h"
#include "models/sweepresultsmodel.h"
#include "widgets/charttheme.h"
#include "widgets/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QUrl>
#include <QValueAxis>

#include <cmath>

namespace Eddy {

namespace {

using Monitor::Outcome;

// The legend's order: success first, then what an engineer must look at.
constexpr Outcome s_outcomeOrder[] = {Outcome::Converged,
                                      Outcome::Completed,
                                      Outcome::NotConverged,
                                      Outcome::ToolError,
                                      Outcome::Failed,
                                      Outcome::Cancelled,
                                      Outcome::Expired,
                                      Outcome::Lost,
                                      Outcome::Working,
                                      Outcome::NeedsInput};

bool joinable(Outcome o)
{
    return o == Outcome::Converged || o == Outcome::Completed;
}

} // namespace

SweepScalarPlot::SweepScalarPlot(SweepResultsModel *model, QWidget *host)
    : QObject(host)
    , m_model(model)
    , m_x(new QComboBox(host))
    , m_y(new QComboBox(host))
    , m_view(new QChartView(host))
    , m_chart(new QChart)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
    , m_axisLogY(new QLogValueAxis(this))
{
    m_x->setObjectName(QStringLiteral("plotX"));
    m_y->setObjectName(QStringLiteral("plotY"));
    m_x->setToolTip(tr("Varied parameter on the x axis"));
    m_y->setToolTip(tr("Result scalar on the y axis"));
    m_x->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_y->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_x, &QComboBox::currentIndexChanged, this, &SweepScalarPlot::replot);
    connect(m_y, &QComboBox::currentIndexChanged, this, &SweepScalarPlot::replot);
    connect(m_y, &QComboBox::activated, this, [this] {
        m_userPickedY = true;
        rememberChoice();
    });
    connect(m_x, &QComboBox::activated, this, &SweepScalarPlot::rememberChoice);

    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    keepTicksNice(m_axisX);
    keepTicksNice(m_axisY);
    m_axisLogY->setBase(10);
    m_axisLogY->setLabelFormat(QStringLiteral("%.0e"));
    m_axisLogY->setMinorTickCount(0); // decade lines only: the plot is small
    // Beside the plot, not under it: the dock is short, and the y axis needs the height for its
    // title and labels.
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setChart(m_chart);
    // A taller or shorter plot labels more or fewer decades (see decadesPerLabel()), and may
    // have room for the y title upright or not.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        if (m_logY && m_logDecades > 0 && decadesPerLabel(m_logDecades) != m_logDecadesPerLabel)
            QMetaObject::invokeMethod(this, &SweepScalarPlot::replot, Qt::QueuedConnection);
        else
            QMetaObject::invokeMethod(this, &SweepScalarPlot::placeYTitle, Qt::QueuedConnection);
    });
    m_theme = ChartTheme::follow(m_view);
    connect(m_theme, &ChartTheme::applied, this, [this] {
        applyMarkerStyle();
        placeYTitle(); // Qt's theme reset the title's font
    });
    applyMarkerStyle();
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(100); // the dock may be small at 1280x800; Enlarge Plot gives room
}

void SweepScalarPlot::refreshChoices()
{
    const QString keepX = m_x->currentText();
    const QString keepY = m_y->currentText();
    const QStringList params = m_model->parameterNames();
    const QStringList scalars = m_model->scalarNames();
    // What the user chose last time for this server and tool, when this sweep has it.
    const QStringList remembered = rememberedChoice();
    const bool useRemembered = remembered.size() == 2 && params.contains(remembered[0])
                               && scalars.contains(remembered[1]);
    QStringList oldX, oldY;
    for (int i = 0; i < m_x->count(); ++i)
        oldX << m_x->itemText(i);
    for (int i = 0; i < m_y->count(); ++i)
        oldY << m_y->itemText(i);
    {
        const QSignalBlocker bx(m_x);
        const QSignalBlocker by(m_y);
        if (oldX != params) {
            m_x->clear();
            m_x->addItems(params);
            // A useful first choice: the first numeric varied parameter (not a yes/no switch).
            int pick = int(params.indexOf(useRemembered ? remembered[0] : keepX));
            for (int i = 0; pick < 0 && i < params.size(); ++i) {
                if (m_model->isNumericParameter(params[i]))
                    pick = i;
            }
            m_x->setCurrentIndex(std::max(0, pick));
        }
        if (useRemembered && m_y->currentText() != remembered[1]) {
            m_y->clear();
            m_y->addItems(scalars);
            m_y->setCurrentIndex(int(scalars.indexOf(remembered[1])));
            m_userPickedY = true;
        } else if (oldY != scalars || !m_model->scalarVaries(m_y->currentText())) {
            m_y->clear();
            m_y->addItems(scalars);
            // A useful first choice: the final residual if it varies, else the first scalar that
            // varies over the cases, else the first.
            int pick = int(scalars.indexOf(keepY));
            if (pick >= 0 && !m_model->scalarVaries(keepY) && !m_userPickedY)
                pick = -1;
            if (pick < 0 && m_model->scalarVaries(QStringLiteral("final_residual")))
                pick = int(scalars.indexOf(QStringLiteral("final_residual")));
            for (int i = 0; pick < 0 && i < scalars.size(); ++i) {
                if (m_model->scalarVaries(scalars[i]))
                    pick = i;
            }
            if (pick < 0)
                pick = int(scalars.indexOf(QStringLiteral("final_residual")));
            m_y->setCurrentIndex(std::max(0, pick));
        }
    }
}

QList<QPointF> SweepScalarPlot::unconvergedPoints() const
{
    const int i = int(m_seriesOutcome.indexOf(int(Monitor::Outcome::NotConverged)));
    return i < 0 ? QList<QPointF>() : m_outcomeSeries.at(i)->points();
}

QString SweepScalarPlot::title() const
{
    return m_chart->title();
}

bool SweepScalarPlot::setPlot(const QString &parameter, const QString &scalar)
{
    const int x = m_x->findText(parameter);
    const int y = m_y->findText(scalar);
    if (x < 0 || y < 0)
        return false;
    m_x->setCurrentIndex(x);
    m_y->setCurrentIndex(y);
    m_userPickedY = true;
    replot();
    return true;
}

QString SweepScalarPlot::outcomeName(int outcome)
{
    switch (Outcome(outcome)) {
    case Outcome::Converged:
        return tr("Converged");
    case Outcome::NotConverged:
        return tr("Not converged");
    default:
        return OutcomePalette::label(Outcome(outcome));
    }
}

void SweepScalarPlot::applyMarkerStyle()
{
    const QColor background = m_view->palette().color(QPalette::Base);
    for (int i = 0; i < m_outcomeSeries.size(); ++i) {
        QScatterSeries *series = m_outcomeSeries.at(i);
        const auto outcome = Outcome(m_seriesOutcome.at(i));
        const QColor color = OutcomePalette::color(outcome, m_theme->isDark());
        series->setMarkerSize(9);
        series->setPen(QPen(color, 1));
        series->setBrush(color);
        switch (OutcomePalette::marker(outcome)) {
        case OutcomePalette::Marker::Dot:
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            break;
        case OutcomePalette::Marker::Ring: // hollow: not a result to trust
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            series->setMarkerSize(11);
            series->setBrush(background);
            series->setPen(QPen(color, 2.5));
            break;
        case OutcomePalette::Marker::Diamond:
            series->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
            break;
        case OutcomePalette::Marker::Cross:
            series->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
            series->setMarkerSize(11);
            break;
        case OutcomePalette::Marker::Square:
            series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            break;
        }
        // The legend draws the series' own look unless told (a hollow ring stays hollow).
        for (QLegendMarker *marker : m_chart->legend()->markers(series)) {
            marker->setPen(series->pen());
            marker->setBrush(series->brush());
        }
    }
    for (QLineSeries *line : std::as_const(m_lines))
        line->setPen(QPen(OutcomePalette::color(Outcome::Converged, m_theme->isDark()), 1.5));
    // The other sweep in the palette's link colour (blue in light and dark), dashed, squares.
    const QColor overlay = m_view->palette().color(QPalette::Link);
    for (QXYSeries *series : std::as_const(m_overlaySeries)) {
        if (auto *marks = qobject_cast<QScatterSeries *>(series)) {
            marks->setColor(overlay);
            marks->setBorderColor(overlay);
        } else {
            series->setPen(QPen(overlay, 1.5, Qt::DashLine));
        }
    }
}

void SweepScalarPlot::rebuildSeries(const QList<QPointF> &points, const QList<int> &outcomes)
{
    for (QAbstractSeries *series : m_chart->series()) {
        m_chart->removeSeries(series);
        delete series;
    }
    m_outcomeSeries.clear();
    m_seriesOutcome.clear();
    m_lines.clear();
    m_overlaySeries.clear(); // deleted with the others; addOverlay() draws them again
    QAbstractAxis *axisY = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    const auto add = [&](QXYSeries *series) {
        m_chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(axisY);
    };
    // Lines first, under the points. Only consecutive points (along the sorted x) of one
    // successful outcome are joined: a line through an unconverged or failed point, or from a
    // converged to an unconverged one, would read as one curve of trustworthy results. When an x
    // value repeats (another varied parameter), points of several curves interleave: no lines.
    bool distinctX = true;
    for (int i = 1; i < points.size(); ++i)
        distinctX = distinctX && points.at(i).x() != points.at(i - 1).x();
    for (int i = 0; distinctX && i < points.size();) {
        int j = i + 1;
        while (j < points.size() && outcomes.at(j) == outcomes.at(i))
            ++j;
        if (j - i >= 2 && joinable(Outcome(outcomes.at(i)))) {
            auto *line = new QLineSeries;
            line->replace(points.mid(i, j - i));
            add(line);
            m_chart->legend()->markers(line).first()->setVisible(false);
            m_lines << line;
        }
        i = j;
    }
    for (Outcome outcome : s_outcomeOrder) {
        QList<QPointF> mine;
        for (int i = 0; i < points.size(); ++i) {
            if (outcomes.at(i) == int(outcome))
                mine << points.at(i);
        }
        if (mine.isEmpty())
            continue;
        auto *series = new QScatterSeries;
        series->setName(outcomeName(int(outcome)));
        series->replace(mine);
        add(series);
        m_outcomeSeries << series;
        m_seriesOutcome << int(outcome);
    }
    applyMarkerStyle();
}

void SweepScalarPlot::replot()
{
    const auto all = m_model->outcomePoints(m_x->currentText(), m_y->currentText());
    QList<QPointF> pts;
    QList<int> outcomes;
    bool onlySuccess = true;
    for (const auto &p : all) {
        pts << p.at;
        outcomes << int(p.outcome);
        onlySuccess = onlySuccess && joinable(p.outcome);
    }
    const bool logY = m_model->isLogScalar(m_y->currentText()) && !pts.isEmpty();
    if (logY != m_logY) {
        // Swap the vertical axis: log for residual-like scalars (positive, > 2 decades).
        QAbstractAxis *from = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
        QAbstractAxis *to = logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
        for (QAbstractSeries *series : m_chart->series())
            series->detachAxis(from);
        from->setVisible(false); // else its title and labels linger in the chart's corner
        m_chart->removeAxis(from);
        from->setParent(this); // removeAxis hands ownership back; keep it for a later swap
        m_chart->addAxis(to, Qt::AlignLeft);
        to->setVisible(true);
        m_theme->apply(); // the axis kept the look of the theme it last had
        m_logY = logY;
    }
    // Nothing to plot: no axes either. An empty 0..1 frame says nothing, and in the short dock
    // Qt Charts cut its labels to "...", which looked broken.
    m_axisX->setVisible(!pts.isEmpty());
    if (!m_logY)
        m_axisY->setVisible(!pts.isEmpty());
    m_plotted = pts;
    rebuildSeries(pts, outcomes);
    addOverlay();
    // The key matters once anything but a good result is drawn, or another sweep.
    m_chart->legend()->setVisible(!onlySuccess || !m_overlaySeries.isEmpty());
    m_axisX->setTitleText(m_yTitleOnTop ? QString() : m_x->currentText());
    m_axisY->setTitleText(m_yTitleOnTop ? QString() : m_y->currentText());
    m_axisLogY->setTitleText(m_yTitleOnTop ? QString() : m_y->currentText());
    if (pts.isEmpty()) {
        setNiceRange(m_axisX, 0, 1);
        setNiceRange(m_axisY, 0, 1);
        QString title;
        if (m_model->sweepId()) {
            title = m_model->withResultsCount() == 0
                        ? tr("No completed case yet.")
                        : tr("No numeric values of %1 against %2: choose other columns.")
                              .arg(m_y->currentText(), m_x->currentText());
        }
        m_yTitleOnTop = false;
        m_chart->setTitle(title);
        return;
    }
    if (!m_yTitleOnTop)
        m_chart->setTitle(QString());
    double x0 = pts.first().x(), x1 = x0, y0 = pts.first().y(), y1 = y0;
    for (const QPointF &p : pts + m_overlayPoints) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    const double padX = x1 > x0 ? (x1 - x0) * 0.05 : std::max(1.0, std::abs(x0) * 0.1);
    setNiceRange(m_axisX, x0 - padX, x1 + padX);
    if (m_logY) {
        // A label every k decades, as many as the plot's height can hold: Qt Charts cuts labels
        // closer than their own height to "...", and in the dock a residual spanning ten
        // decades would leave none legible.
        const double lo = std::floor(std::log10(y0));
        const double hi = std::ceil(std::log10(y1));
        m_logDecades = hi - lo;
        const int k = decadesPerLabel(m_logDecades);
        m_logDecadesPerLabel = k;
        m_axisLogY->setBase(std::pow(10.0, k));
        const double from = std::floor(lo / k) * k;
        const double to = std::max(std::ceil(hi / k) * k, from + k);
        m_axisLogY->setRange(std::pow(10.0, from), std::pow(10.0, to));
    } else {
        const double padY = y1 > y0 ? (y1 - y0) * 0.08 : std::max(1e-12, std::abs(y0) * 0.1);
        setNiceRange(m_axisY, y0 - padY, y1 + padY);
    }
    placeYTitle();
}

void SweepScalarPlot::placeYTitle()
{
    if (m_plotted.isEmpty())
        return;
    const QString x = m_x->currentText();
    const QString y = m_y->currentText();
    QAbstractAxis *axis = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    // Above the plot the names take the x title's row: the plot keeps its height either way, so
    // its height says whether the y name fits upright (a few pixels' slack against flip-flop).
    const double length = m_chart->plotArea().height();
    const double needed = QFontMetricsF(axis->titleFont()).horizontalAdvance(y) + (m_yTitleOnTop ? 14 : 8);
    // (Before the first layout there is no plot yet: keep the names on the axes.)
    const bool onTop = length > 0 && needed > length;
    m_yTitleOnTop = onTop;
    m_chart->setTitleFont(axis->titleFont()); // names, not a headline: no more height than needed
    m_axisX->setTitleText(onTop ? QString() : x);
    m_axisY->setTitleText(onTop ? QString() : y);
    m_axisLogY->setTitleText(onTop ? QString() : y);
    m_chart->setTitle(onTop ? tr("%1 vs %2").arg(y, x) : QString());
}

int SweepScalarPlot::decadesPerLabel(double decades) const
{
    const double height = m_chart->plotArea().height();
    // Qt Charts gives each label the axis height over the number of labels, less a padding
    // of a few pixels above and below.
    const double perLabel = QFontMetricsF(m_axisLogY->labelsFont()).height() + 8;
    int k = 1;
    while (height > 0 && (decades / k + 1) * perLabel > height && k < decades)
        ++k;
    return k;
}

SvgPlot SweepScalarPlot::plot() const
{
    SvgPlot plot;
    plot.title = m_model->sweepId() ? tr("Sweep %1").arg(m_model->sweepId()) : QString();
    plot.xLabel = m_x->currentText();
    plot.yLabel = m_y->currentText();
    if (m_theme->isDark()) {
        plot.background = m_view->palette().color(QPalette::Base);
        plot.foreground = m_view->palette().color(QPalette::Text);
    }
    plot.logY = m_logY;
    // As on screen: the joined runs (no legend entry of their own), then a marker series per
    // outcome with no line.
    for (QLineSeries *line : m_lines) {
        const QList<QPointF> pts = line->points();
        plot.series << SvgPlot::Series{QString(), line->pen().color(), {pts.begin(), pts.end()}};
    }
    for (int i = 0; i < m_outcomeSeries.size(); ++i) {
        const QList<QPointF> pts = m_outcomeSeries.at(i)->points();
        SvgPlot::Series s{m_outcomeSeries.at(i)->name(),
                          OutcomePalette::color(Outcome(m_seriesOutcome.at(i)), m_theme->isDark()),
                          {pts.begin(), pts.end()},
                          true};
        s.line = false;
        plot.series << s;
    }
    return plot;
}

bool SweepScalarPlot::exportSvg(const QString &path) const
{
    return plot().save(path);
}

bool SweepScalarPlot::exportPng(const QString &path)
{
    return m_view->grab().save(path, "PNG");
}

QStringList SweepScalarPlot::rememberedChoice() const
{
    if (m_plotKey.isEmpty())
        return {};
    return QSettings()
        .value(QStringLiteral("sweepPlot/") + QString::fromLatin1(QUrl::toPercentEncoding(m_plotKey)))
        .toStringList();
}

void SweepScalarPlot::rememberChoice() const
{
    if (m_plotKey.isEmpty() || m_x->currentText().isEmpty() || m_y->currentText().isEmpty())
        return;
    QSettings().setValue(QStringLiteral("sweepPlot/") + QString::fromLatin1(QUrl::toPercentEncoding(m_plotKey)),
                         QStringList{m_x->currentText(), m_y->currentText()});
}

void SweepScalarPlot::setOverlayModel(SweepResultsModel *overlay)
{
    m_overlay = overlay;
    connect(m_overlay, &SweepResultsModel::resultsChanged, this, &SweepScalarPlot::replot);
    connect(m_overlay, &QAbstractItemModel::modelReset, this, &SweepScalarPlot::replot);
}

void SweepScalarPlot::setOverlay(qint64 sweepId, const QString &name)
{
    m_overlaySweep = sweepId;
    m_overlayName = name;
}

void SweepScalarPlot::addOverlay()
{
    m_overlayPoints.clear();
    m_overlaySeries.clear();
    if (!m_overlay || !m_overlaySweep || m_overlay->sweepId() != m_overlaySweep)
        return;
    QList<QPointF> joined; // the converged and completed ones make the curve
    for (const auto &p : m_overlay->outcomePoints(m_x->currentText(), m_y->currentText())) {
        if (m_logY && p.at.y() <= 0)
            continue; // nothing of it fits a log axis
        m_overlayPoints << p.at;
        if (joinable(p.outcome))
            joined << p.at;
    }
    if (m_overlayPoints.isEmpty())
        return;
    QAbstractAxis *axisY = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    auto *line = new QLineSeries;
    line->replace(joined);
    auto *marks = new QScatterSeries;
    marks->replace(m_overlayPoints);
    marks->setName(m_overlayName);
    marks->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    marks->setMarkerSize(8);
    for (QXYSeries *series : {static_cast<QXYSeries *>(line), static_cast<QXYSeries *>(marks)}) {
        m_chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(axisY);
        m_overlaySeries << series;
    }
    m_chart->legend()->markers(line).first()->setVisible(false);
    applyMarkerStyle();
}

} // namespace Eddy
