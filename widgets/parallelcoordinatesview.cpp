#include "widgets/parallelcoordinatesview.h"

#include "models/niceticks.h"
#include "models/outcomepalette.h"
#include "widgets/charttheme.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

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
    // Every paint covers the whole widget (the message on the base colour, or a picture of the
    // lines): no background fill first.
    setAttribute(Qt::WA_OpaquePaintEvent);
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
    ++m_generation;
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

ParallelCoordinatesView::LayerKey ParallelCoordinatesView::layerKey() const
{
    return {size(), devicePixelRatioF(), palette().cacheKey(), font(), m_generation};
}

QImage ParallelCoordinatesView::newLayer(QColor fill) const
{
    const qreal dpr = devicePixelRatioF();
    // Opaque pictures are copied, not blended, onto the widget.
    QImage image(size() * dpr, fill.alpha() == 255 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(fill);
    return image;
}

void ParallelCoordinatesView::buildLayers()
{
    m_layerKey = layerKey();
    m_dots.clear();
    ++m_layerBuilds;
    QList<const ParallelCoordinates::Line *> all;
    all.reserve(m_data.lines().size());
    for (const auto &line : m_data.lines())
        all << &line;
    const QColor base = palette().color(QPalette::Base);
    QSet<quint64> drawn;
    m_plain = newLayer(base);
    {
        QPainter p(&m_plain);
        paintLines(p, all, false, false, drawn);
    }
    drawn.clear();
    m_faint = newLayer(base);
    {
        QPainter p(&m_faint);
        paintLines(p, all, true, false, drawn);
    }
    m_shownLines.clear();
    m_axes = newLayer(Qt::transparent);
    QPainter p(&m_axes);
    p.setRenderHint(QPainter::Antialiasing);
    for (int a = 0; a < m_data.axes().size(); ++a)
        paintAxis(p, a);
    paintLegend(p);
}

void ParallelCoordinatesView::paintLines(QPainter &p, const QList<const ParallelCoordinates::Line *> &lines, bool faint,
                                         bool wide, QSet<quint64> &drawn)
{
    const QPalette pal = palette();
    const bool dark = ChartTheme::isDark(pal);
    const QColor base = pal.color(QPalette::Base);
    const auto &axes = m_data.axes();
    const int n = int(axes.size());
    QList<double> xs;
    for (int a = 0; a < n; ++a)
        xs << axisLine(a).x1();
    const double width = wide ? 2.6 : 1.6;
    // A faint line is its colour at 22 % over the background, drawn opaque: a translucent pen
    // costs the raster engine several times an opaque one.
    const auto colorOf = [&](Monitor::Outcome o) {
        QColor c = OutcomePalette::color(o, dark);
        if (!faint)
            return c;
        constexpr double alpha = 0.22;
        return QColor::fromRgbF(float(alpha * c.redF() + (1 - alpha) * base.redF()),
                                float(alpha * c.greenF() + (1 - alpha) * base.greenF()),
                                float(alpha * c.blueF() + (1 - alpha) * base.blueF()));
    };
    // A segment or dot that an earlier line of the same colour drew already (cases share their
    // parameters' values) is drawn once. Keys: axis, colour, quarter pixels.
    const auto key = [](int a, int color, double y1, double y2) {
        return (quint64(a) << 56) ^ (quint64(color) << 48) ^ (quint64(quint32(qRound(y1 * 4)) & 0xffffff) << 24)
               ^ quint64(quint32(qRound(y2 * 4)) & 0xffffff);
    };
    struct Dot
    {
        QPointF at;
        QRgb color;
    };
    QList<Dot> dots;
    QList<QLineF> run; // segments of one colour, drawn in one call
    QColor runColor;
    p.setRenderHint(QPainter::Antialiasing);
    const auto flush = [&] {
        if (run.isEmpty())
            return;
        p.setPen(QPen(runColor, width));
        p.drawLines(run);
        run.clear();
    };
    for (const ParallelCoordinates::Line *line : lines) {
        const QColor color = colorOf(line->outcome);
        if (color != runColor) {
            flush();
            runColor = color;
        }
        const int c = int(line->outcome);
        std::optional<QPointF> previous;
        for (int a = 0; a < n; ++a) {
            const std::optional<double> v = a < line->values.size() ? line->values.at(a) : std::nullopt;
            if (!v) {
                previous.reset(); // a gap where the case has no value
                continue;
            }
            const QPointF pt(xs.at(a), yOf(a, m_data.position(a, *v)));
            if (previous && !drawn.contains(key(a, c, previous->y(), pt.y()))) {
                drawn.insert(key(a, c, previous->y(), pt.y()));
                run << QLineF(*previous, pt);
            }
            // A dot on every value: a case with a value on one axis only (no result yet) shows too.
            if (!drawn.contains(key(a + 64, c, pt.y(), 0))) {
                drawn.insert(key(a + 64, c, pt.y(), 0));
                dots << Dot{pt, color.rgba()};
            }
            previous = pt;
        }
    }
    flush();
    // The dots: one small picture per colour, drawn antialiased once and copied.
    const qreal dpr = p.device()->devicePixelRatioF();
    const double radius = 2.5 + width / 2;
    const int side = int(std::ceil(2 * radius + 2));
    for (const Dot &dot : std::as_const(dots)) {
        const quint64 dotKey = (quint64(dot.color) << 1) | (wide ? 1 : 0);
        auto it = m_dots.find(dotKey);
        if (it == m_dots.end()) {
            QImage image(QSize(side, side) * dpr, QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(dpr);
            image.fill(Qt::transparent);
            QPainter dp(&image);
            dp.setRenderHint(QPainter::Antialiasing);
            dp.setPen(Qt::NoPen);
            dp.setBrush(QColor::fromRgba(dot.color));
            dp.drawEllipse(QPointF(side / 2.0, side / 2.0), radius, radius);
            dp.end();
            it = m_dots.insert(dotKey, image);
        }
        p.drawImage(QPointF(std::round((dot.at.x() - side / 2.0) * dpr) / dpr, std::round((dot.at.y() - side / 2.0) * dpr) / dpr),
                    *it);
    }
}

void ParallelCoordinatesView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    const auto &axes = m_data.axes();
    if (axes.size() < 2) {
        p.fillRect(rect(), pal.color(QPalette::Base));
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Parallel coordinates need at least two numeric varied parameters or "
                      "results: choose more results under Axes, or wait for results."));
        return;
    }
    if (!(layerKey() == m_layerKey))
        buildLayers();
    // Which cases stand out: the brushed ones, else the table's selection, else all. The others
    // are faint underneath.
    const bool brushing = m_data.hasBrush();
    const bool highlighting = brushing || !m_selected.isEmpty();
    if (highlighting) {
        const auto &lines = m_data.lines();
        QList<bool> want(lines.size());
        bool dropped = m_shownLines.size() != lines.size();
        for (qsizetype i = 0; i < lines.size(); ++i) {
            want[i] = brushing ? m_data.isBrushed(lines.at(i)) : m_selected.contains(lines.at(i).taskId);
            dropped = dropped || (m_shownLines.at(i) && !want.at(i));
        }
        if (dropped) {
            m_shown = m_faint.copy();
            m_shownLines = QList<bool>(lines.size());
            m_shownDrawn.clear();
        }
        QList<const ParallelCoordinates::Line *> added;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (want.at(i) && !m_shownLines.at(i)) {
                added << &lines.at(i);
                m_shownLines[i] = true;
            }
        }
        if (!added.isEmpty()) {
            QPainter shown(&m_shown);
            paintLines(shown, added, false, true, m_shownDrawn);
        }
    }
    p.drawImage(QPointF(0, 0), highlighting ? m_shown : m_plain);
    // Brushes are whole-pixel rectangles: without antialiasing the raster engine fills them
    // directly.
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int a = 0; a < axes.size(); ++a)
        paintBrush(p, a);
    p.setRenderHint(QPainter::Antialiasing);
    p.drawImage(QPointF(0, 0), m_axes);
    if (hasFocus() && m_current >= 0 && m_current < axes.size())
        paintFocus(p, m_current);
}

void ParallelCoordinatesView::paintBrush(QPainter &p, int a)
{
    const QPalette pal = palette();
    const auto &axis = m_data.axes().at(a);
    if (!axis.brush)
        return;
    // The brush under the axis line.
    const QLineF line = axisLine(a);
    const double y0 = yOf(a, m_data.position(a, axis.brush->second));
    const double y1 = yOf(a, m_data.position(a, axis.brush->first));
    const QRect band = QRectF(line.x1() - 8, y0 - 2, 16, std::max(4.0, y1 - y0 + 4)).toRect();
    // Copied from a picture of the tallest band: filling a translucent rectangle costs the
    // raster engine a round through its thread pool on every paint.
    const qreal dpr = devicePixelRatioF();
    const QSize full(band.width() + 1, height() + 1);
    if (m_band.size() != full * dpr || m_bandPalette != palette().cacheKey()) {
        m_band = QImage(full * dpr, QImage::Format_ARGB32_Premultiplied);
        m_band.setDevicePixelRatio(dpr);
        m_bandPalette = palette().cacheKey();
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlphaF(0.35);
        m_band.fill(fill);
    }
    p.drawImage(QRectF(band.topLeft(), QSizeF(band.width() + 1, band.height() + 1)), m_band,
                QRectF(QPointF(0, 0), QSizeF(band.width() + 1, band.height() + 1) * dpr));
    p.setPen(QPen(pal.color(QPalette::Highlight), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(band);
}

void ParallelCoordinatesView::paintFocus(QPainter &p, int a) const
{
    const QPalette pal = palette();
    const QLineF line = axisLine(a);
    const int n = int(m_data.axes().size());
    const double spacing = n > 1 ? plotArea().width() / (n - 1) : plotArea().width();
    p.setPen(QPen(pal.color(QPalette::Text), 2.5));
    p.drawLine(line);
    p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DashLine));
    p.drawRect(QRectF(line.x1() - spacing / 2 + 2, 1, spacing - 4, fontMetrics().height() * 1.5 + 2));
}

void ParallelCoordinatesView::paintAxis(QPainter &p, int a) const
{
    const QPalette pal = palette();
    const auto &axis = m_data.axes().at(a);
    const QLineF line = axisLine(a);
    const QFontMetrics fm = fontMetrics();
    const int n = int(m_data.axes().size());
    const double spacing = n > 1 ? plotArea().width() / (n - 1) : plotArea().width();
    p.setPen(QPen(pal.color(QPalette::Text), 1.2));
    p.drawLine(line);
    // Its name on top (parameters in bold), elided to the space between axes.
    QFont nameFont = font();
    nameFont.setBold(axis.parameter);
    p.setFont(nameFont);
    const QString name = QFontMetrics(nameFont).elidedText(
        axis.log ? tr("%1 (log)").arg(axis.name) : axis.name, Qt::ElideMiddle, int(spacing - 8));
    p.drawText(QRectF(line.x1() - spacing / 2, 2, spacing, fm.height() * 1.5), Qt::AlignHCenter | Qt::AlignVCenter, name);
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
