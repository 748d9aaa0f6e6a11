#pragma once

#include "models/reviewfilter.h"

#include <QSortFilterProxyModel>
#include <QStringList>

#include <functional>

namespace Eddy {

// Sorting and filtering of a sweep's design-point table (SweepResultsModel) by the same
// ReviewFilter as the task table: a range per varied parameter and per result scalar (a row
// without a number there is left out; a name the sweep does not have is ignored), outcomes,
// and the tags and words of each row's task, which the task table knows (setRowReview()).
// Only filterAcceptsRow is overridden. GUI thread.
class SweepFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepFilterProxyModel)

public:
    explicit SweepFilterProxyModel(QObject *parent = nullptr);

    void setReviewFilter(const ReviewFilter &filter);
    const ReviewFilter &reviewFilter() const { return m_filter; }
    // A task's tags and its lower-case search text (name, arguments, note), by task id.
    struct RowReview
    {
        QStringList tags;
        QString searchText;
    };
    void setRowReview(std::function<RowReview(qint64 taskId)> lookup);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    ReviewFilter m_filter;
    std::function<RowReview(qint64)> m_lookup;
};

} // namespace Eddy
