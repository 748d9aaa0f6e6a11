#include "widgets/progressdelegate.h"

#include "models/outcomepalette.h"
#include "models/tasktablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QStyleOptionProgressBar>

namespace Eddy {

namespace {

bool isDark(const QStyleOptionViewItem &option)
{
    return option.palette.color(QPalette::Base).lightness() < option.palette.color(QPalette::Text).lightness();
}

} // namespace

ProgressDelegate::ProgressDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

void ProgressDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
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
