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
};

} // namespace Eddy
