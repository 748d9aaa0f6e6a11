#pragma once

#include "app/vocab/records.h"
#include "models/reviewfilter.h"

#include <QSet>
#include <QSortFilterProxyModel>
#include <QStringList>

namespace Eddy {

// Sorting and filtering of the task table: a status filter, a search over case, arguments,
// tool, message, server, note and tags (every word must match), and a review filter (ranges of
// varied parameters, outcomes, tags, words; a range of a result scalar, which the table does
// not hold, is left to the sweep view). Only filterAcceptsRow/lessThan are overridden. GUI
// thread.
class TaskFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskFilterProxyModel)

public:
    explicit TaskFilterProxyModel(QObject *parent = nullptr);

    // Empty = every status.
    void setStatusFilter(const QSet<Store::TaskStatus> &statuses);
    QSet<Store::TaskStatus> statusFilter() const { return m_statuses; }
    void setSearchText(const QString &text);
    QString searchText() const { return m_words.join(QLatin1Char(' ')); }
    void setReviewFilter(const ReviewFilter &filter);
    const ReviewFilter &reviewFilter() const { return m_review; }
    // Some filter hides rows (the status bar then counts the rows shown).
    bool isFiltering() const { return !m_statuses.isEmpty() || !m_words.isEmpty() || !m_review.isEmpty(); }
    // How many shown rows have each outcome.
    QHash<Monitor::Outcome, int> shownOutcomeCounts() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QSet<Store::TaskStatus> m_statuses;
    QStringList m_words;
    ReviewFilter m_review;
};

} // namespace Eddy
