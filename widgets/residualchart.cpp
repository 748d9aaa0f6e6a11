#include "widgets/residualchart.h"

#include "models/sampleseriesmodel.h"
#include "models/svgplot.h"
#include "widgets/charttheme.h"
#include "widgets/filedialog.h"
#include "widgets/niceaxis.h"
#include "app/vocab/valuetext.h"

#include <QChart>
#include <QChartView>
#include <QCollator>
#include <QFile>
#include <QGraphicsLayout>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStackedLayout>
#include <QTextStream>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Eddy {

namespace {

// Keys and wheel on the chart: zoom and pan without a toolbar trip.
class ChartView final : public QChartView
{
public:
    ChartView(QChart *chart, ResidualChart *owner)
        : QChartView(chart)
        , m_owner(owner)
    {
        setRubberBand(QChartView::HorizontalRubberBand);
        setRenderHint(QPainter::Antialiasing);
        setFocusPolicy(Qt::StrongFocus);
    }

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: m_owner->zoomBy(0.5); return;
        case Qt::Key_Minus: m_owner->zoomBy(2.0); return;
        case Qt::Key_Left: m_owner->panBy(-0.1); return;
        case Qt::Key_Right: m_owner->panBy(0.1); return;
        case Qt::Key_0:
        case Qt::Key_Home: m_owner->resetZoom(); return;
        default: QChartView::keyPressEvent(event);
        }
    }
    void wheelEvent(QWheelEvent *event) override
    {
        const double steps = event->angleDelta().y() / 120.0;
        if (event->modifiers() & Qt::ControlModifier)
            m_owner->zoomBy(std::pow(0.8, steps));
        else
            m_owner->panBy(-0.1 * steps);
        event->accept();
    }
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::RightButton) {
            m_owner->resetZoom(); // right click: back to everything
            event->accept();
            return;
        }
        QChartView::mouseReleaseEvent(event);
    }

private:
    ResidualChart *m_owner;
};

const char *const s_taskProperty = "eddyTask";   // on each line: its task
const char *const s_fieldProperty = "eddyField"; // and its field ("" for the residual)
const char *const s_caseProperty = "eddyCase";   // and its case label, in full

// Several cases at once: a colour per case, distinct in both themes (Okabe and Ito's
// colour-blind-safe set, lightened for the dark background).
QColor caseColour(int i, bool dark)
{
    static const QRgb light[] = {0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7, 0x8c6d00, 0x56b4e9, 0x7a4fa0, 0x555555};
    static const QRgb darker[] = {0x5ca4f0, 0xf5a623, 0x4cc38a, 0xe59cc8, 0xe0c341, 0x8fd3ff, 0xc08af0, 0xc8c8c8};
    const int n = int(std::size(light));
    return QColor(dark ? darker[i % n] : light[i % n]);
}

// ... and a line style per field: the residual solid, the fields' own dashes.
Qt::PenStyle fieldStyle(const QString &field)
{
    if (field.isEmpty())
        return Qt::SolidLine;
    if (field == QLatin1String("u"))
        return Qt::DashLine;
    if (field == QLatin1String("v"))
        return Qt::DotLine;
    if (field == QStringLiteral("ω") || field == QLatin1String("omega"))
        return Qt::DashDotLine;
    return Qt::DashDotDotLine;
}

// What tells the labels apart: without the leading " · " parts they all share ("Sweep 2 · case
// 5", "Sweep 2 · case 6" -> "case 5", "case 6").
QStringList distinguishing(const QStringList &labels)
{
    const QString separator = QStringLiteral(" · ");
    QList<QStringList> parts;
    for (const QString &label : labels)
        parts << label.split(separator);
    int common = 0;
    const auto shared = [&](int i) {
        for (const QStringList &p : parts) {
            if (p.size() <= i + 1 || p.at(i) != parts.first().at(i))
                return false;
        }
        return true;
    };
    while (labels.size() > 1 && shared(common))
        ++common;
    QStringList out;
    for (const QStringList &p : parts)
        out << p.mid(common).join(separator);
    return out;
}

} // namespace

ResidualChart::ResidualChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_x(new QValueAxis(this))
    , m_y(new QLogValueAxis(this))
    , m_placeholder(new QLabel(this))
    , m_rangeTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("ResidualChart"));
    m_view = new ChartView(m_chart, this);
    m_chart->setAnimationOptions(QChart::NoAnimation); // live data: animations only lag
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // The legend's default 9 px padding on each side gave its one line of names 40 px; at the
    // chart's minimum height (1280x800, a question open) that left the plot 62 px, and the upright
    // y title is cut to the plot's height ("Residu..." in German). Unpadded: 22 px, an 80 px plot.
    m_chart->legend()->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_x->setTitleText(tr("Iteration"));
    keepTicksNice(m_x); // iterations at 1/2/5 x 10^n, also after a zoom or pan
    m_y->setTitleText(tr("Residual"));
    m_y->setLabelFormat(QStringLiteral("%.0e"));
    m_y->setBase(10);
    m_y->setMinorTickCount(-1);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    connect(m_x, &QValueAxis::rangeChanged, this, &ResidualChart::onXRangeChanged);
    // A taller or shorter plot fits more or fewer decade labels.
    connect(m_chart, &QChart::plotAreaChanged, this, [this](const QRectF &area) {
        if (std::abs(area.height() - m_laidOutHeight) >= 8) {
            m_laidOutHeight = area.height();
            scheduleRanges();
        }
    });

    m_rangeTimer->setSingleShot(true);
    m_rangeTimer->setInterval(100);
    connect(m_rangeTimer, &QTimer::timeout, this, &ResidualChart::updateRanges);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setText(tr("Select a task to see its residuals.\nSelect several to compare them."));

    auto *tools = new QHBoxLayout;
    tools->setContentsMargins(0, 0, 0, 0);
    const auto addTool = [&](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        tools->addWidget(b);
        return b;
    };
    addTool(tr("Reset Zoom"), tr("Show every iteration (Home, or right click)"), &ResidualChart::resetZoom);
    tools->addStretch(1);
    // One button for the three exports: three labelled buttons made the dock (and with it the
    // window) wider than a 1280 px screen in German.
    auto *exports = new QToolButton(this);
    exports->setObjectName(QStringLiteral("exportChart"));
    exports->setText(tr("Export"));
    exports->setToolTip(tr("Save the chart as an image or a vector drawing, or its samples as CSV"));
    exports->setAutoRaise(true);
    exports->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exports);
    const auto addExport = [&](const QString &text, const QString &tip, auto slot) {
        QAction *a = menu->addAction(text, this, slot);
        a->setToolTip(tip);
    };
    addExport(tr("Export PNG..."), tr("Save the chart as an image"), &ResidualChart::exportPngInteractive);
    addExport(tr("Export SVG..."), tr("Save the chart as a vector drawing of the shown points"),
              &ResidualChart::exportSvgInteractive);
    addExport(tr("Export CSV..."), tr("Save every sample of the shown series"), &ResidualChart::exportCsvInteractive);
    menu->setToolTipsVisible(true);
    exports->setMenu(menu);
    tools->addWidget(exports);

    auto *stack = new QStackedLayout;
    stack->setStackingMode(QStackedLayout::StackAll);
    stack->addWidget(m_placeholder);
    stack->addWidget(m_view);
    stack->setCurrentWidget(m_placeholder);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(tools);
    layout->addLayout(stack, 1);
    // Axis titles and tick labels need this much; below it the dock shrinks the result pane
    // instead (at 1280x800 the chart was squeezed to 40 px and its labels to "..."). No more:
    // while a question is answered the inbox below takes the height it needs. Less than this left
    // German tick labels elided to "..." at 1280x800. Without series only the placeholder's
    // lines under the tools need room: the result dock below takes the rest (a waiting case's
    // "Answer: ..." was cut there while this said it had no residuals).
    m_tools = tools;
    m_theme = ChartTheme::follow(m_view);
    connect(m_theme, &ChartTheme::applied, this, &ResidualChart::styleLines); // Qt's theme reset the pens
    setSeries({});
}

ResidualChart::~ResidualChart() = default;

void ResidualChart::setPlaceholder(const QString &text)
{
    m_placeholder->setText(text);
}

QList<SampleSeriesModel *> ResidualChart::series() const
{
    QList<SampleSeriesModel *> out;
    for (const auto &m : m_models) {
        if (m)
            out << m;
    }
    return out;
}

void ResidualChart::setSeries(const QList<SampleSeriesModel *> &shown, const QHash<qint64, QString> &caseLabels)
{
    m_chart->removeAllSeries(); // also drops the connections made with the series as context
    m_models.clear();
    m_zoomed = false;
    // Several cases in the table's order ("case 2" after "case 1"), each case's fields together.
    QList<SampleSeriesModel *> models = shown;
    QCollator collator;
    collator.setNumericMode(true);
    std::stable_sort(models.begin(), models.end(), [&](const SampleSeriesModel *a, const SampleSeriesModel *b) {
        if (a->taskId() == b->taskId())
            return false;
        const int order = collator.compare(caseLabels.value(a->taskId()), caseLabels.value(b->taskId()));
        return order != 0 ? order < 0 : a->taskId() < b->taskId();
    });
    const bool several = !models.isEmpty() && models.first()->taskId() != models.last()->taskId();
    for (SampleSeriesModel *model : models) {
        model->setPositiveOnly(true);
        model->setXRange(std::nan(""), std::nan(""));
        auto *line = new QLineSeries;
        line->setUseOpenGL(false);
        const QString field = model->series().section(QLatin1Char('.'), 1);
        const QString name = field.isEmpty() ? tr("residual") : field;
        const QString caseLabel = caseLabels.value(model->taskId(), tr("Task %1").arg(model->taskId()));
        // Several cases: "Sweep 2 · case 5 · u", told apart in the legend by colour and style.
        line->setName(several ? tr("%1 · %2").arg(caseLabel, name) : name);
        line->setProperty(s_taskProperty, model->taskId());
        line->setProperty(s_fieldProperty, field);
        line->setProperty(s_caseProperty, caseLabel);
        // One replace() per change, not QVXYModelMapper: on a model reset (every zoom re-decimates)
        // the mapper clears the series and appends point by point, each append relaying out the
        // whole line: 11 s per zoom at 2,000 shown points. replace() is one update.
        const auto sync = [line, model] {
            line->replace(QList<QPointF>(model->shownPoints().begin(), model->shownPoints().end()));
            // A line of one point draws nothing: show the point and its value.
            const bool single = model->shownPoints().size() == 1;
            line->setPointsVisible(single);
            line->setPointLabelsVisible(single);
        };
        line->setPointLabelsFormat(QStringLiteral("@yPoint"));
        line->setPointLabelsClipping(false);
        sync();
        connect(model, &QAbstractItemModel::rowsInserted, line, sync);
        connect(model, &QAbstractItemModel::modelReset, line, sync);
        // Hovering a line names it (the legend names only the cases when there are several).
        connect(line, &QLineSeries::hovered, line, [line](const QPointF &, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), line->name());
        });
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        connect(model, &QAbstractItemModel::rowsInserted, this, &ResidualChart::scheduleRanges);
        connect(model, &QAbstractItemModel::modelReset, this, &ResidualChart::scheduleRanges);
        m_models << model;
    }
    styleLines();
    m_chart->legend()->setVisible(!models.isEmpty());
    m_view->setVisible(!models.isEmpty());
    m_placeholder->setVisible(models.isEmpty());
    setMinimumHeight(models.isEmpty() ? m_tools->sizeHint().height() + 4 * fontMetrics().lineSpacing() : 180);
    updateRanges();
}

void ResidualChart::styleLines()
{
    const QList<QAbstractSeries *> all = m_chart->series();
    QList<qint64> tasks;
    QStringList labels;
    for (QAbstractSeries *s : all) {
        const qint64 task = s->property(s_taskProperty).toLongLong();
        if (!tasks.contains(task)) {
            tasks << task;
            labels << s->property(s_caseProperty).toString();
        }
    }
    const bool several = tasks.size() > 1;
    const QStringList shortLabels = distinguishing(labels);
    const bool dark = m_theme->isDark();
    QList<qint64> named; // the tasks that have their legend entry
    for (QAbstractSeries *s : all) {
        auto *line = qobject_cast<QLineSeries *>(s);
        if (!line)
            continue;
        const QString field = line->property(s_fieldProperty).toString();
        const int task = int(tasks.indexOf(line->property(s_taskProperty).toLongLong()));
        QPen pen = line->pen();
        pen.setWidthF(field.isEmpty() ? 2.2 : 1.4);
        if (several) {
            // One colour per case, one style per field: a legend entry per case, named by what
            // tells the cases apart (eight entries of case and field were all cut to "#...").
            pen.setColor(caseColour(task, dark));
            pen.setStyle(fieldStyle(field));
        }
        line->setPen(pen);
        const QList<QLegendMarker *> markers = m_chart->legend()->markers(line);
        if (markers.isEmpty())
            continue;
        QLegendMarker *marker = markers.first();
        if (!several) {
            marker->setVisible(true);
            marker->setLabel(line->name());
            continue;
        }
        const bool first = !named.contains(tasks.at(task));
        marker->setVisible(first);
        if (!first)
            continue;
        named << tasks.at(task);
        marker->setLabel(shortLabels.at(task));
        marker->setBrush(pen.color());
        // Hovering the entry names the case in full and the fields' styles.
        if (marker->property(s_caseProperty).isNull()) {
            connect(marker, &QLegendMarker::hovered, marker, [marker](bool state) {
                if (state)
                    QToolTip::showText(QCursor::pos(), tr("%1: residual solid, u dashed, v dotted, ω dash-dotted")
                                                           .arg(marker->property(s_caseProperty).toString()));
            });
        }
        marker->setProperty(s_caseProperty, labels.at(task));
    }
}

void ResidualChart::scheduleRanges()
{
    if (!m_rangeTimer->isActive())
        m_rangeTimer->start();
}

void ResidualChart::updateRanges()
{
    double xmin = std::numeric_limits<double>::infinity();
    double xmax = -xmin;
    double ymin = xmin;
    double ymax = -xmin;
    for (const auto &m : m_models) {
        if (!m || m->shownPoints().empty())
            continue;
        xmin = std::min(xmin, m->minX());
        xmax = std::max(xmax, m->maxX());
        ymin = std::min(ymin, m->minY());
        ymax = std::max(ymax, m->maxY());
    }
    if (!std::isfinite(xmin)) {
        xmin = 0;
        xmax = 100;
        ymin = 1e-6;
        ymax = 1;
    }
    if (xmax <= xmin) { // one iteration: centre it
        xmin = std::max(0.0, xmin - 1);
        xmax = xmin + 2;
    }
    // Whole decades on the log axis read best; a label on every decade only while each gets the
    // height of its text (Qt Charts elides crowded labels to "...", which reads as nothing).
    int loExp = int(std::floor(std::log10(std::max(ymin, 1e-300))));
    int hiExp = int(std::ceil(std::log10(std::max(ymax, 1e-300))));
    if (hiExp <= loExp)
        hiExp = loExp + 1;
    // (Before the first layout the plot has no real height yet: assume a common one.)
    const double plotHeight = m_chart->plotArea().height() >= 60 ? m_chart->plotArea().height() : 200.0;
    const double labelHeight = QFontMetricsF(m_y->labelsFont()).height() * 1.5;
    const int step = std::clamp(int(std::ceil(double(hiExp - loExp) * labelHeight / plotHeight)), 1, 6);
    loExp = int(std::floor(double(loExp) / step)) * step;
    hiExp = int(std::ceil(double(hiExp) / step)) * step;
    m_settingRange = true;
    if (!m_zoomed)
        setNiceRange(m_x, xmin, xmax);
    // Qt's automatic minor ticks number base - 2 per label (10^6 for a base of 10^6): only the
    // decade axis gets them.
    m_y->setMinorTickCount(step == 1 ? -1 : 0);
    m_y->setBase(std::pow(10.0, step));
    m_y->setRange(std::pow(10.0, loExp), std::pow(10.0, hiExp));
    m_settingRange = false;
}

void ResidualChart::onXRangeChanged(double from, double to)
{
    if (m_settingRange)
        return;
    // A user zoom or pan: refine the decimation to what is visible.
    m_zoomed = true;
    for (const auto &m : m_models) {
        if (m)
            m->setXRange(from, to);
    }
}

void ResidualChart::resetZoom()
{
    m_zoomed = false;
    for (const auto &m : m_models) {
        if (m)
            m->setXRange(std::nan(""), std::nan(""));
    }
    updateRanges();
}

void ResidualChart::zoomBy(double factor)
{
    const double mid = (m_x->min() + m_x->max()) / 2;
    const double half = (m_x->max() - m_x->min()) / 2 * factor;
    setNiceRange(m_x, mid - half, mid + half);
}

void ResidualChart::panBy(double fraction)
{
    const double d = (m_x->max() - m_x->min()) * fraction;
    setNiceRange(m_x, m_x->min() + d, m_x->max() + d);
}

void ResidualChart::refresh()
{
    for (const auto &m : m_models) {
        if (m)
            m->setXRange(m_zoomed ? m_x->min() : std::nan(""), m_zoomed ? m_x->max() : std::nan(""));
    }
    updateRanges();
    m_view->viewport()->repaint();
}

bool ResidualChart::exportPng(const QString &path)
{
    const QPixmap pixmap = m_view->grab();
    return pixmap.save(path, "PNG");
}

bool ResidualChart::exportCsv(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QTextStream out(&file);
    out << "task,series,x,y\n";
    for (const auto &m : m_models) {
        if (!m)
            continue;
        for (const QPointF &p : m->points())
            out << m->taskId() << ',' << m->series() << ',' << formatValueExact(p.x()) << ','
                << formatValueExact(p.y()) << '\n';
    }
    return file.error() == QFile::NoError;
}

QString ResidualChart::toSvg() const
{
    SvgPlot plot;
    plot.xLabel = m_x->titleText();
    plot.yLabel = m_y->titleText();
    plot.logY = true;
    plot.size = QSize(std::max(640, m_view->width()), std::max(400, m_view->height()));
    if (m_theme->isDark()) {
        plot.background = m_view->palette().color(QPalette::Base);
        plot.foreground = m_view->palette().color(QPalette::Text);
    }
    const QList<QAbstractSeries *> lines = m_chart->series();
    int i = 0;
    for (const auto &m : m_models) {
        auto *line = i < lines.size() ? qobject_cast<QLineSeries *>(lines.at(i)) : nullptr;
        ++i;
        if (!m)
            continue;
        plot.series << SvgPlot::Series{line ? line->name() : m->series(), line ? line->color() : QColor(Qt::black),
                                       m->shownPoints()};
    }
    return plot.toSvg();
}

bool ResidualChart::exportSvg(const QString &path) const
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(toSvg().toUtf8()) >= 0 && file.commit();
}

void ResidualChart::exportSvgInteractive()
{
    const QString path = saveFileName(this, tr("Export Chart"),
                                                      tr("residuals.svg"), tr("SVG drawings (*.svg)"));
    if (!path.isEmpty() && !exportSvg(path))
        QMessageBox::warning(this, tr("Export Chart"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

void ResidualChart::exportPngInteractive()
{
    const QString path = saveFileName(this, tr("Export Chart"), tr("residuals.png"),
                                                      tr("PNG images (*.png)"));
    if (!path.isEmpty() && !exportPng(path))
        QMessageBox::warning(this, tr("Export Chart"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

void ResidualChart::exportCsvInteractive()
{
    const QString path = saveFileName(this, tr("Export Samples"), tr("residuals.csv"),
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty() && !exportCsv(path))
        QMessageBox::warning(this, tr("Export Samples"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

} // namespace Eddy
