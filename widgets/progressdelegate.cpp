#include "widgets/progressdelegate.h"

#include "models/tasktablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QStyleOptionProgressBar>

namespace Eddy {

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
        const auto status = static_cast<Store::TaskStatus>(index.data(TaskTableModel::StatusRole).toInt());
        bar.palette.setColor(QPalette::Highlight, TaskTableModel::statusColor(status));
        bar.fontMetrics = option.fontMetrics;
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);
        return;
    }
    if (index.column() == TaskTableModel::StatusColumn) {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const QColor colour = index.data(Qt::DecorationRole).value<QColor>();
        item.features &= ~QStyleOptionViewItem::HasDecoration;
        item.icon = QIcon();
        const int d = option.fontMetrics.height() * 6 / 10;
        item.rect.adjust(d + 10, 0, 0, 0);
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
        const auto status = static_cast<Store::TaskStatus>(index.data(TaskTableModel::StatusRole).toInt());
        if (status == Store::TaskStatus::InputRequired) {
            // Waiting for a human: a diamond so it stands out even without colour vision.
            QPolygonF diamond{{dot.center().x(), dot.top()}, {dot.right(), dot.center().y()},
                              {dot.center().x(), dot.bottom()}, {dot.left(), dot.center().y()}};
            painter->drawPolygon(diamond);
        } else {
            painter->drawEllipse(dot);
        }
        painter->restore();
        painter->save();
        painter->setPen(colour);
        QFont f = option.font;
        f.setBold(true);
        painter->setFont(f);
        painter->drawText(item.rect, Qt::AlignVCenter | Qt::AlignLeft,
                          option.fontMetrics.elidedText(item.text, Qt::ElideRight, item.rect.width()));
        painter->restore();
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
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
