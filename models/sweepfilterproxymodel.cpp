#include "models/sweepfilterproxymodel.h"

#include "models/sweepresultsmodel.h"

namespace Eddy {

SweepFilterProxyModel::SweepFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
}

void SweepFilterProxyModel::setReviewFilter(const ReviewFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    invalidateFilter();
}

void SweepFilterProxyModel::setRowReview(std::function<RowReview(qint64)> lookup)
{
    m_lookup = std::move(lookup);
    invalidateFilter();
}

bool SweepFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const SweepResultsModel *>(sourceModel());
    if (!model || m_filter.isEmpty())
        return true;
    const QModelIndex first = model->index(sourceRow, 0, sourceParent);
    if (!m_filter.outcomes.isEmpty()
        && !m_filter.outcomes.contains(static_cast<Monitor::Outcome>(first.data(SweepResultsModel::OutcomeRole).toInt())))
        return false;
    for (auto it = m_filter.ranges.cbegin(); it != m_filter.ranges.cend(); ++it) {
        int column = model->parameterColumn(it.key());
        if (column < 0)
            column = model->scalarColumn(it.key());
        if (column < 0)
            continue; // not a parameter or result of this sweep
        const QVariant v = model->index(sourceRow, column, sourceParent).data(SweepResultsModel::ValueRole);
        bool ok = false;
        const double d = v.toDouble(&ok);
        if (!v.isValid() || v.typeId() == QMetaType::QString || !ok || !it->contains(d))
            return false;
    }
    const QStringList words = m_filter.words();
    if ((m_filter.tags.isEmpty() && words.isEmpty()) || !m_lookup)
        return true;
    const RowReview review = m_lookup(first.data(SweepResultsModel::TaskIdRole).toLongLong());
    for (const QString &t : m_filter.tags)
        if (!review.tags.contains(t))
            return false;
    for (const QString &w : words)
        if (!review.searchText.contains(w))
            return false;
    return true;
}

} // namespace Eddy
