#pragma once

#include "app/vocab/records.h"

#include <QSet>
#include <QSortFilterProxyModel>
#include <QStringList>

namespace Eddy {

// Sorting and filtering of the task table: a status filter plus a search over case, parameters,
// tool, message and server (every word must match). Only filterAcceptsRow/lessThan are
// overridden. GUI thread.
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

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QSet<Store::TaskStatus> m_statuses;
    QStringList m_words;
};

} // namespace Eddy
