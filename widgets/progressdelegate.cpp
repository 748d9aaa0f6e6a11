#include "widgets/progressdelegate.h"

#include "models/outcomepalette.h"
#include "models/tasktablemodel.h"

#include <QApplication>
#include <QPaintDevice>
#include <QPainter>
#include <QPixmap>
#include <QStyleOptionProgressBar>

#include <cmath>
#include <optional>

namespace Eddy {

namespace {

bool isDark(const QStyleOptionViewItem &option)
{
    return option.palette.color(QPalette::Base).lightness() < option.palette.color(QPalette::Text).lightness();
}

enum CellKind { PlainCell = 1, ProgressCell, StatusCell };

// The key of a cell that QStyledItemDelegate paints from this style option (after
// initStyleOption), or none when the option holds what the key does not (a decoration, a check
// box, a font or brush of the cell's own): such cells are painted directly.
std::optional<CellPictureCache::Key> plainKey(const QStyleOptionViewItem &item, const QStyleOptionViewItem &option)
{
    if (item.features & (QStyleOptionViewItem::HasDecoration | QStyleOptionViewItem::HasCheckIndicator))
        return std::nullopt;
    if (item.font != option.font || item.palette.brush(QPalette::Text).style() != Qt::SolidPattern)
        return std::nullopt;
    const Qt::BrushStyle bg = item.backgroundBrush.style();
    if (bg != Qt::NoBrush && bg != Qt::SolidPattern)
        return std::nullopt;
    CellPictureCache::Key key;
    key.kind = PlainCell;
    key.text = item.text;
    key.size = option.rect.size();
    key.state = uint(item.state);
    key.features = uint(item.features);
    key.alignment = int(item.displayAlignment);
    key.elide = int(item.textElideMode);
    key.direction = int(item.direction);
    key.foreground = item.palette.color(QPalette::Text).rgba();
    key.background = bg == Qt::NoBrush ? 0 : (item.backgroundBrush.color().rgba() | 1u << 24);
    return key;
}

} // namespace

CellPictureCache::CellPictureCache(int maxKiB)
    : m_pictures(maxKiB)
{
}

void CellPictureCache::setEnabled(bool on)
{
    m_enabled = on;
    m_pictures.clear();
}

size_t qHash(const CellPictureCache::Key &key, size_t seed)
{
    return qHashMulti(seed, key.kind, key.extra, key.text, key.size.width(), key.size.height(), key.state,
                      key.features, key.alignment, key.elide, key.direction, key.foreground, key.background);
}

void CellPictureCache::paint(QPainter *painter, const QStyleOptionViewItem &option, const Key &key,
                             const std::function<void(QPainter *)> &draw)
{
    QPaintDevice *device = painter->device();
    const int type = device ? device->devType() : 0;
    const qreal dpr = device ? device->devicePixelRatioF() : 1.0;
    const QTransform t = painter->deviceTransform();
    const QBrush base = option.palette.brush(QPalette::Base);
    // A picture matches the cell pixel for pixel only on a raster device at a whole device
    // pixel ratio, moved by whole pixels, over a plain background.
    const bool exact = m_enabled && (type == QInternal::Widget || type == QInternal::Pixmap || type == QInternal::Image)
                       && dpr == std::floor(dpr) && dpr >= 1 && t.type() <= QTransform::TxScale && t.m11() == dpr
                       && t.m22() == dpr && t.dx() == std::floor(t.dx()) && t.dy() == std::floor(t.dy())
                       && base.style() == Qt::SolidPattern && painter->compositionMode() == QPainter::CompositionMode_SourceOver
                       && painter->opacity() == 1.0 && !option.rect.isEmpty();
    if (!exact) {
        draw(painter);
        return;
    }
    const void *style = option.widget ? option.widget->style() : QApplication::style();
    if (option.font != m_font || option.palette.cacheKey() != m_palette || style != m_style || dpr != m_dpr) {
        m_pictures.clear();
        m_font = option.font;
        m_palette = option.palette.cacheKey();
        m_style = style;
        m_dpr = dpr;
    }
    if (const QPixmap *picture = m_pictures.object(key)) {
        painter->drawPixmap(option.rect.topLeft(), *picture);
        return;
    }
    auto *picture = new QPixmap(option.rect.size() * dpr);
    picture->setDevicePixelRatio(dpr);
    picture->fill(base.color()); // the viewport's own background under the cell
    {
        QPainter p(picture);
        p.setFont(painter->font());
        p.setPen(painter->pen());
        p.setBrush(painter->brush());
        p.setRenderHints(painter->renderHints());
        p.setLayoutDirection(painter->layoutDirection());
        p.translate(-option.rect.topLeft());
        // What the view paints under every cell before its delegate (alternate rows).
        QStyle *s = option.widget ? option.widget->style() : QApplication::style();
        s->drawPrimitive(QStyle::PE_PanelItemViewRow, &option, &p, option.widget);
        draw(&p);
    }
    painter->drawPixmap(option.rect.topLeft(), *picture);
    const qint64 kib = qint64(picture->width()) * picture->height() * 4 / 1024 + 1;
    m_pictures.insert(key, picture, kib);
}

ProgressDelegate::ProgressDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

void ProgressDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const auto draw = [&](QPainter *p) { paintCell(p, option, index); };
    const int column = index.column();
    if (column == TaskTableModel::ProgressColumn || column == TaskTableModel::StatusColumn) {
        // What these paths read: the text, the outcome's colour (and marker), the bar's length,
        // the state and the row's features; the rest comes from the view (font, palette).
        const auto outcome = static_cast<Monitor::Outcome>(index.data(TaskTableModel::OutcomeRole).toInt());
        CellPictureCache::Key key;
        key.kind = column == TaskTableModel::ProgressColumn ? ProgressCell : StatusCell;
        key.text = index.data().toString();
        key.size = option.rect.size();
        key.state = uint(option.state);
        key.features = uint(option.features);
        key.direction = int(option.direction);
        key.foreground = OutcomePalette::color(outcome, isDark(option)).rgba();
        if (column == TaskTableModel::ProgressColumn) {
            const double fraction = index.data(TaskTableModel::ProgressRole).toDouble();
            key.extra = fraction < 0 ? -1 : qRound(fraction * 1000);
        } else {
            key.extra = int(outcome); // the marker's shape
        }
        if (index.data(Qt::BackgroundRole).isValid()) {
            paintCell(painter, option, index);
            return;
        }
        m_pictures.paint(painter, option, key, draw);
        return;
    }
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    if (const auto key = plainKey(item, option))
        m_pictures.paint(painter, option, *key, draw);
    else
        paintCell(painter, option, index);
}

void ElideLeftDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const auto draw = [&](QPainter *p) { QStyledItemDelegate::paint(p, option, index); };
    if (const auto key = plainKey(item, option))
        m_pictures.paint(painter, option, *key, draw);
    else
        draw(painter);
}

void ProgressDelegate::paintCell(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (index.column() == TaskTableModel::ProgressColumn) {
        const double fraction = index.data(TaskTableModel::ProgressRole).toDouble();
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        item.text.clear();
        QStyle *style = option.widget ? option.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, option.widget); // selection background
        if (fraction < 0)
            return;
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(3, 3, -3, -3);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = qRound(fraction * 1000);
        bar.text = index.data().toString();
        bar.textVisible = true;
        bar.textAlignment = Qt::AlignCenter;
        bar.state = option.state | QStyle::State_Horizontal;
        bar.palette = option.palette;
        const auto outcome = static_cast<Monitor::Outcome>(index.data(TaskTableModel::OutcomeRole).toInt());
        bar.palette.setColor(QPalette::Highlight, OutcomePalette::color(outcome, isDark(option)));
        bar.fontMetrics = option.fontMetrics;
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);
        return;
    }
    if (index.column() == TaskTableModel::StatusColumn) {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const auto outcome = static_cast<Monitor::Outcome>(index.data(TaskTableModel::OutcomeRole).toInt());
        const QColor colour = OutcomePalette::color(outcome, isDark(option));
        item.features &= ~QStyleOptionViewItem::HasDecoration;
        item.icon = QIcon();
        const int d = option.fontMetrics.height() * 6 / 10;
        item.rect.adjust(statusIndent(option.fontMetrics), 0, 0, 0);
        QStyle *style = option.widget ? option.widget->style() : QApplication::style();
        // Background over the whole cell, then the dot, then the text beside it.
        QStyleOptionViewItem bg = option;
        initStyleOption(&bg, index);
        bg.text.clear();
        bg.features &= ~QStyleOptionViewItem::HasDecoration;
        bg.icon = QIcon();
        style->drawControl(QStyle::CE_ItemViewItem, &bg, painter, option.widget);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        const QRectF dot(option.rect.left() + 6, option.rect.center().y() - d / 2.0, d, d);
        // Shapes as well as colours, so outcomes read without colour vision.
        switch (OutcomePalette::marker(outcome)) {
        case OutcomePalette::Marker::Diamond:
            painter->drawPolygon(QPolygonF{{dot.center().x(), dot.top()}, {dot.right(), dot.center().y()},
                                           {dot.center().x(), dot.bottom()}, {dot.left(), dot.center().y()}});
            break;
        case OutcomePalette::Marker::Ring:
            painter->setPen(QPen(colour, 2));
            painter->setBrush(Qt::NoBrush);
            painter->drawEllipse(dot.adjusted(1, 1, -1, -1));
            break;
        case OutcomePalette::Marker::Cross:
            painter->setPen(QPen(colour, 2.2, Qt::SolidLine, Qt::RoundCap));
            painter->drawLine(dot.topLeft() + QPointF(1, 1), dot.bottomRight() - QPointF(1, 1));
            painter->drawLine(dot.topRight() + QPointF(-1, 1), dot.bottomLeft() + QPointF(1, -1));
            break;
        case OutcomePalette::Marker::Square:
            painter->drawRect(dot.adjusted(1, 1, -1, -1));
            break;
        case OutcomePalette::Marker::Dot:
            painter->drawEllipse(dot);
            break;
        }
        painter->restore();
        painter->save();
        // On the selection the text takes the highlight's text colour (green on blue does not
        // read); the marker keeps the outcome's colour and shape.
        painter->setPen(option.state & QStyle::State_Selected ? option.palette.color(QPalette::HighlightedText)
                                                              : colour);
        QFont f = option.font;
        f.setBold(true);
        painter->setFont(f);
        painter->drawText(item.rect, Qt::AlignVCenter | Qt::AlignLeft,
                          QFontMetrics(f).elidedText(item.text, Qt::ElideRight, item.rect.width()));
        painter->restore();
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

int ProgressDelegate::statusIndent(const QFontMetrics &metrics)
{
    return metrics.height() * 6 / 10 + 10; // the marker and the gaps around it
}

QSize ProgressDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == TaskTableModel::ProgressColumn)
        s.setWidth(std::max(s.width(), 110));
    if (index.column() == TaskTableModel::StatusColumn)
        s.setWidth(s.width() + option.fontMetrics.height());
    return s;
}

} // namespace Eddy
