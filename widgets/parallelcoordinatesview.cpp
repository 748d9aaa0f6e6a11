#include "widgets/parallelcoordinatesview.h"

#include "models/niceticks.h"
#include "models/outcomepalette.h"
#include "widgets/charttheme.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace Eddy {

namespace {

constexpr double s_grab = 12;        // px either side of an axis a drag starts a brush
constexpr double s_band = 0.2;       // a keyboard brush's first height, of the axis
constexpr double s_keyStep = 0.05;   // how far Up/Down move it

} // namespace

ParallelCoordinatesView::ParallelCoordinatesView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("parallelCoordinates"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    setToolTip(tr("Drag along an axis to select the cases in that range; brushes on several axes "
                  "select the cases inside all of them. Click an axis to clear its brush."));
}

void ParallelCoordinatesView::setData(const ParallelCoordinates &data)
{
    QHash<QString, std::pair<double, double>> kept;
    for (const auto &axis : m_data.axes())
        if (axis.brush)
            kept.insert(axis.name, *axis.brush);
    m_data = data;
    for (auto it = kept.begin(); it != kept.end(); ++it)
        m_data.setBrushValues(m_data.axisOf(it.key()), it->first, it->second);
    m_current = std::clamp(m_current, 0, std::max(0, int(m_data.axes().size()) - 1));
    update();
}

void ParallelCoordinatesView::setSelected(const QSet<qint64> &taskIds)
{
    m_selected = taskIds;
    m_data.clearBrushes();
    update();
}

QSize ParallelCoordinatesView::sizeHint() const
{
    return {std::max(3, int(m_data.axes().size())) * 150, 420};
}

QSize ParallelCoordinatesView::minimumSizeHint() const
{
    return {300, 200};
}

QRectF ParallelCoordinatesView::plotArea() const
{
    const double line = fontMetrics().height();
    // Room above for the axis names and below for the legend; beside for the tick labels.
    return QRectF(rect()).adjusted(70, 2 * line + 8, -70, -(2.5 * line + 8));
}

QLineF ParallelCoordinatesView::axisLine(int axis) const
{
    const QRectF area = plotArea();
    const int n = int(m_data.axes().size());
    const double x = n <= 1 ? area.center().x() : area.left() + axis * area.width() / (n - 1);
    return {x, area.top(), x, area.bottom()};
}

double ParallelCoordinatesView::yOf(int, double position) const
{
    const QRectF area = plotArea();
    return area.bottom() - position * area.height();
}

double ParallelCoordinatesView::positionOf(int, double y) const
{
    const QRectF area = plotArea();
    return std::clamp((area.bottom() - y) / area.height(), 0.0, 1.0);
}

int ParallelCoordinatesView::axisAt(const QPointF &point) const
{
    for (int a = 0; a < m_data.axes().size(); ++a) {
        const QLineF l = axisLine(a);
        if (std::abs(point.x() - l.x1()) <= s_grab && point.y() >= l.y1() - s_grab && point.y() <= l.y2() + s_grab)
            return a;
    }
    return -1;
}

void ParallelCoordinatesView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const bool dark = ChartTheme::isDark(pal);
    const auto &axes = m_data.axes();
    if (axes.size() < 2) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Parallel coordinates need at least two numeric varied parameters or "
                      "results: choose more results under Axes, or wait for results."));
        return;
    }
    // Which cases stand out: the brushed ones, else the table's selection, else all.
    const bool brushing = m_data.hasBrush();
    const bool highlighting = brushing || !m_selected.isEmpty();
    const auto standsOut = [&](const ParallelCoordinates::Line &line) {
        return brushing ? m_data.isBrushed(line) : m_selected.contains(line.taskId);
    };
    // Faint lines first, the ones that stand out on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto &line : m_data.lines()) {
            const bool out = !highlighting || standsOut(line);
            if ((pass == 1) != out)
                continue;
            QColor color = OutcomePalette::color(line.outcome, dark);
            if (!out)
                color.setAlphaF(0.22);
            p.setPen(QPen(color, out && highlighting ? 2.6 : 1.6));
            QPainterPath path;
            bool open = false;
            for (int a = 0; a < axes.size(); ++a) {
                const std::optional<double> v = a < line.values.size() ? line.values.at(a) : std::nullopt;
                if (!v) {
                    open = false; // a gap where the case has no value
                    continue;
                }
                const QPointF pt(axisLine(a).x1(), yOf(a, m_data.position(a, *v)));
                if (open)
                    path.lineTo(pt);
                else
                    path.moveTo(pt);
                open = true;
            }
            p.drawPath(path);
            // A dot on every value: a case with a value on one axis only (no result yet) shows too.
            p.setBrush(color);
            for (int a = 0; a < axes.size(); ++a)
                if (a < line.values.size() && line.values.at(a))
                    p.drawEllipse(QPointF(axisLine(a).x1(), yOf(a, m_data.position(a, *line.values.at(a)))), 2.5, 2.5);
            p.setBrush(Qt::NoBrush);
        }
    }
    for (int a = 0; a < axes.size(); ++a)
        paintAxis(p, a);
    paintLegend(p);
}

void ParallelCoordinatesView::paintAxis(QPainter &p, int a) const
{
    const QPalette pal = palette();
    const auto &axis = m_data.axes().at(a);
    const QLineF line = axisLine(a);
    const QFontMetrics fm = fontMetrics();
    const int n = int(m_data.axes().size());
    const double spacing = n > 1 ? plotArea().width() / (n - 1) : plotArea().width();
    // The brush under the axis line.
    if (axis.brush) {
        const double y0 = yOf(a, m_data.position(a, axis.brush->second));
        const double y1 = yOf(a, m_data.position(a, axis.brush->first));
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlphaF(0.35);
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.setBrush(fill);
        p.drawRect(QRectF(line.x1() - 8, y0 - 2, 16, std::max(4.0, y1 - y0 + 4)));
        p.setBrush(Qt::NoBrush);
    }
    p.setPen(QPen(pal.color(QPalette::Text), a == m_current && hasFocus() ? 2.5 : 1.2));
    p.drawLine(line);
    // Its name on top (parameters in bold), elided to the space between axes.
    QFont nameFont = font();
    nameFont.setBold(axis.parameter);
    p.setFont(nameFont);
    const QString name = QFontMetrics(nameFont).elidedText(
        axis.log ? tr("%1 (log)").arg(axis.name) : axis.name, Qt::ElideMiddle, int(spacing - 8));
    p.drawText(QRectF(line.x1() - spacing / 2, 2, spacing, fm.height() * 1.5), Qt::AlignHCenter | Qt::AlignVCenter, name);
    if (a == m_current && hasFocus()) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawRect(QRectF(line.x1() - spacing / 2 + 2, 1, spacing - 4, fm.height() * 1.5 + 2));
    }
    p.setFont(font());
    // Ticks: labels to the left of the axis (the first axis' fit in the margin), spaced at least
    // a label's height and a half apart.
    p.setPen(pal.color(QPalette::Text));
    const double minGap = fm.height() * 1.5;
    QList<std::pair<double, QString>> ticks;
    if (axis.log) {
        const int lo = int(std::round(std::log10(axis.min)));
        const int hi = int(std::round(std::log10(axis.max)));
        int every = 1;
        while ((hi - lo) / every * minGap > plotArea().height() && every < hi - lo)
            ++every;
        for (int k = lo; k <= hi; k += every)
            ticks.append({std::pow(10.0, k), QStringLiteral("1e%1").arg(k)});
    } else {
        const int count = std::max(2, int(plotArea().height() / (minGap * 1.6)));
        const NiceTicks nice = NiceTicks::forRange(axis.min, axis.max, std::min(count, 6));
        for (double v : nice.values)
            ticks.append({v, nice.label(v)});
    }
    for (const auto &[value, text] : ticks) {
        const double y = yOf(a, m_data.position(a, value));
        p.drawLine(QPointF(line.x1() - 4, y), QPointF(line.x1(), y));
        const QRectF box(line.x1() - 66, y - fm.height() / 2.0, 60, fm.height());
        p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideLeft, 60));
    }
}

void ParallelCoordinatesView::paintLegend(QPainter &p) const
{
    QList<Monitor::Outcome> present;
    for (const auto &line : m_data.lines())
        if (!present.contains(line.outcome))
            present << line.outcome;
    std::sort(present.begin(), present.end());
    const QFontMetrics fm = fontMetrics();
    const bool dark = ChartTheme::isDark(palette());
    double x = plotArea().left();
    const double y = height() - fm.height() - 6;
    for (Monitor::Outcome o : std::as_const(present)) {
        p.setPen(QPen(OutcomePalette::color(o, dark), 3));
        p.drawLine(QPointF(x, y + fm.height() / 2.0), QPointF(x + 18, y + fm.height() / 2.0));
        p.setPen(palette().color(QPalette::Text));
        const QString label = OutcomePalette::label(o);
        p.drawText(QPointF(x + 24, y + fm.ascent()), label);
        x += 24 + fm.horizontalAdvance(label) + 18;
    }
}

void ParallelCoordinatesView::brushChanged()
{
    update();
    Q_EMIT brushed(m_data.hasBrush() ? m_data.brushed() : QSet<qint64>());
}

void ParallelCoordinatesView::mousePressEvent(QMouseEvent *event)
{
    const int a = axisAt(event->position());
    if (event->button() != Qt::LeftButton || a < 0) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_current = a;
    m_dragAxis = a;
    m_dragFrom = positionOf(a, event->position().y());
    m_dragged = false;
    update();
}

void ParallelCoordinatesView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragAxis < 0)
        return;
    const double to = positionOf(m_dragAxis, event->position().y());
    if (!m_dragged && std::abs(yOf(m_dragAxis, to) - yOf(m_dragAxis, m_dragFrom)) < 3)
        return;
    m_dragged = true;
    m_data.setBrush(m_dragAxis, m_dragFrom, to);
    brushChanged();
}

void ParallelCoordinatesView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragAxis < 0)
        return;
    if (!m_dragged) // a click: this axis' brush goes
        m_data.clearBrush(m_dragAxis);
    else
        m_data.setBrush(m_dragAxis, m_dragFrom, positionOf(m_dragAxis, event->position().y()));
    m_dragAxis = -1;
    brushChanged();
}

std::pair<double, double> ParallelCoordinatesView::brushPositions(int a) const
{
    const auto &brush = m_data.axes().at(a).brush;
    if (!brush)
        return {0.5 - s_band / 2, 0.5 + s_band / 2};
    return {m_data.position(a, brush->first), m_data.position(a, brush->second)};
}

void ParallelCoordinatesView::keyPressEvent(QKeyEvent *event)
{
    const int n = int(m_data.axes().size());
    if (n == 0) {
        QWidget::keyPressEvent(event);
        return;
    }
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
        m_current = std::clamp(m_current + (event->key() == Qt::Key_Left ? -1 : 1), 0, n - 1);
        update();
        return;
    case Qt::Key_Up:
    case Qt::Key_Down: {
        const double sign = event->key() == Qt::Key_Up ? 1 : -1;
        auto [lo, hi] = brushPositions(m_current);
        if (!m_data.axes().at(m_current).brush) {
            // The first key press puts a band in the middle of the axis.
        } else if (shift) {
            lo = std::clamp(lo - sign * s_keyStep / 2, 0.0, 1.0);
            hi = std::clamp(hi + sign * s_keyStep / 2, lo, 1.0);
        } else {
            const double move = std::clamp(sign * s_keyStep, -lo, 1.0 - hi);
            lo += move;
            hi += move;
        }
        m_data.setBrush(m_current, lo, hi);
        brushChanged();
        return;
    }
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        m_data.clearBrush(m_current);
        brushChanged();
        return;
    case Qt::Key_Escape:
        if (m_data.hasBrush()) {
            m_data.clearBrushes();
            brushChanged();
            return;
        }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

void ParallelCoordinatesView::focusInEvent(QFocusEvent *event)
{
    QWidget::focusInEvent(event);
    update();
}

void ParallelCoordinatesView::focusOutEvent(QFocusEvent *event)
{
    QWidget::focusOutEvent(event);
    update();
}

} // namespace Eddy
