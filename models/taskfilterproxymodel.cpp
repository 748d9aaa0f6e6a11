#include "models/taskfilterproxymodel.h"

#include "models/tasktablemodel.h"

namespace Eddy {

TaskFilterProxyModel::TaskFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(TaskTableModel::SortRole);
    // A task that finishes must leave a "working" filter at once; Qt re-checks only the rows
    // named in dataChanged, so this stays cheap with thousands of rows.
    setDynamicSortFilter(true);
}

void TaskFilterProxyModel::setStatusFilter(const QSet<Store::TaskStatus> &statuses)
{
    if (statuses == m_statuses)
        return;
    m_statuses = statuses;
    invalidateFilter();
}

void TaskFilterProxyModel::setSearchText(const QString &text)
{
    const QStringList words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

void TaskFilterProxyModel::setReviewFilter(const ReviewFilter &filter)
{
    if (filter == m_review)
        return;
    m_review = filter;
    invalidateFilter();
}

QHash<Monitor::Outcome, int> TaskFilterProxyModel::shownOutcomeCounts() const
{
    QHash<Monitor::Outcome, int> counts;
    for (int r = 0; r < rowCount(); ++r)
        counts[static_cast<Monitor::Outcome>(index(r, 0).data(TaskTableModel::OutcomeRole).toInt())] += 1;
    return counts;
}

bool TaskFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_review.isEmpty()) {
        if (!m_review.outcomes.isEmpty()
            && !m_review.outcomes.contains(static_cast<Monitor::Outcome>(idx.data(TaskTableModel::OutcomeRole).toInt())))
            return false;
        if (!m_review.tags.isEmpty()) {
            const QStringList tags = idx.data(TaskTableModel::TagsRole).toStringList();
            for (const QString &t : m_review.tags)
                if (!tags.contains(t))
                    return false;
        }
        const auto *model = qobject_cast<const TaskTableModel *>(sourceModel());
        for (auto it = m_review.ranges.cbegin(); model && it != m_review.ranges.cend(); ++it) {
            if (!model->rangeNames().contains(it.key()))
                continue; // a result scalar: the sweep view filters on it
            const auto v = model->numericArgument(sourceRow, it.key());
            if (!v || !it->contains(*v))
                return false;
        }
        const QStringList words = m_review.words();
        if (!words.isEmpty()) {
            const QString text = idx.data(TaskTableModel::SearchTextRole).toString();
            for (const QString &w : words)
                if (!text.contains(w))
                    return false;
        }
    }
    if (!m_statuses.isEmpty()) {
        const auto status = static_cast<Store::TaskStatus>(idx.data(TaskTableModel::StatusRole).toInt());
        if (!m_statuses.contains(status))
            return false;
    }
    if (!m_words.isEmpty()) {
        const QString text = idx.data(TaskTableModel::SearchTextRole).toString();
        for (const QString &w : m_words) {
            if (!text.contains(w))
                return false;
        }
    }
    return true;
}

bool TaskFilterProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(TaskTableModel::SortRole);
    const QVariant r = right.data(TaskTableModel::SortRole);
    // One comparison, not two: sorting 100,000 rows calls this ~1.7 million times.
    const QPartialOrdering order = QVariant::compare(l, r);
    const int c = order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
    if (c != 0)
        return c < 0;
    // Ties keep a stable, predictable order: by task number.
    return left.data(TaskTableModel::TaskIdRole).toLongLong() < right.data(TaskTableModel::TaskIdRole).toLongLong();
}

} // namespace Eddy
