#pragma once

#include "models/reviewfilter.h"

#include <QToolButton>

namespace Eddy {

class TaskFilterProxyModel;
class TaskTableModel;

// The task view's Filter button: Filter... (ReviewFilterDialog), Clear Filter, Save Filter...
// and Open Filter... (a small JSON file, ReviewFilter::toJson). Sets the proxy's review filter;
// a file that is not a filter is refused with what is wrong, the filter shown stays. GUI thread.
class ReviewFilterButton final : public QToolButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewFilterButton)

public:
    ReviewFilterButton(TaskTableModel *model, TaskFilterProxyModel *proxy, QWidget *parent = nullptr);

    void setFilter(const ReviewFilter &filter);
    // Result scalars the dialog offers ranges for after the varied parameters (the shown sweep's).
    void setResultNames(const QStringList &names) { m_resultNames = names; }
    ReviewFilter filter() const;
    // Each opens its dialog and returns at once (window-modal).
    void editFilter();
    void saveFilter();
    void openFilter();
    // Reads a filter file into the view; false + *error when it is not one (nothing changes).
    bool loadFilter(const QString &path, QString *error);

Q_SIGNALS:
    void filterChanged();

private:
    void showFilterState();

    TaskTableModel *m_model;
    TaskFilterProxyModel *m_proxy;
    QStringList m_resultNames;
};

} // namespace Eddy
