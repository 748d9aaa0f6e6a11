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
// not hold, is left to the sweep view). Only filterAcceptsRow/lessThan (and setSourceModel)
// are overridden. Sorting reads each row's sort value once and keeps it until the row changes
// (dataChanged) or rows come, go or move; a sort compares the kept values. The table's clock
// (TaskTableModel::clockTicked) repaints the shown rows' time columns without re-filtering or
// re-sorting: neither reads the clock. GUI thread.
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
    // For tests and benches: how many times filterAcceptsRow has judged a row. Qt re-judges the
    // rows a dataChanged names, whichever roles it names; this shows what a change costs.
    qint64 filterChecks() const { return m_filterChecks; }

    void setSourceModel(QAbstractItemModel *source) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    struct SortKey
    {
        QVariant value; // the sort column's TaskTableModel::SortRole
        qint64 taskId = 0;
        bool valid = false;
    };
    const SortKey &sortKey(const QModelIndex &source) const;
    void dropSortKeys();

    mutable QList<SortKey> m_sortKeys; // by source row, for m_sortKeysColumn
    mutable int m_sortKeysColumn = -1;
    mutable qint64 m_filterChecks = 0;
    QList<QMetaObject::Connection> m_sourceConnections;
    QSet<Store::TaskStatus> m_statuses;
    QStringList m_words;
    ReviewFilter m_review;
};

} // namespace Eddy
