#pragma once

#include <QStyledItemDelegate>

namespace Eddy {

// Paints the task table's progress column as a native progress bar (QStyleOptionProgressBar,
// never a real widget in paint()) and the status column's colour as a round dot. GUI thread.
class ProgressDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProgressDelegate)

public:
    explicit ProgressDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // Where the status text starts in its cell: after the outcome's marker.
    static int statusIndent(const QFontMetrics &metrics);
};

// Elides its column's text on the left: a case label keeps its case number ("…studie 1 · Fall 6")
// in a narrow column. For the Case columns of the task table and the inbox.
class ElideLeftDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElideLeftDelegate)

public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideLeft;
    }
};

} // namespace Eddy
