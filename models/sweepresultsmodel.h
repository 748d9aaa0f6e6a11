#pragma once

#include "app/store/records.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QVariant>

namespace Eddy {

// One sweep as a design-point table: a row per case with its varied parameters, its status and
// the scalar fields of its result's structuredContent (numbers and booleans; nested objects of
// scalars become "vortex_centre.x"). Columns for scalars appear as the first results arrive.
// Sort through a QSortFilterProxyModel on SortRole (numbers sort as numbers). GUI thread.
class SweepResultsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepResultsModel)

public:
    enum Role {
        TaskIdRole = Qt::UserRole + 1,
        SortRole,  // double for numbers and booleans, else the text
        ValueRole  // the raw value (double, bool or string); invalid when absent
    };

    explicit SweepResultsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Shows a sweep: its id, varied parameter names, tasks (with results) and case positions.
    void setSweep(qint64 sweepId, const QStringList &variedNames, const QList<Store::TaskRecord> &tasks,
                  const QHash<qint64, int> &caseIndex);
    void clear();
    // Updates or adds the sweep's tasks among these (others are ignored). A record without a
    // result keeps the result already shown (change sets carry no results).
    void updateTasks(const QList<Store::TaskRecord> &tasks);

    qint64 sweepId() const { return m_sweepId; }
    QStringList parameterNames() const { return m_params; }
    QStringList scalarNames() const { return m_scalars; }
    int withResultsCount() const; // cases whose result has scalars
    int parameterColumn(const QString &name) const;
    int scalarColumn(const QString &name) const;
    // (parameter, scalar) per completed case where both are numbers, sorted by x.
    QList<QPointF> points(const QString &parameter, const QString &scalar) const;
    // The whole table as CSV (RFC 4180 quoting, full precision, a header row).
    QString toCsv() const;
    // The answers given to each task's questions (task id -> text), exported as "answer".
    void setAnswers(const QHash<qint64, QString> &answers) { m_answers = answers; }

    // Flattens structuredContent to scalar fields: {"a":1,"b":{"x":2}} -> a=1, b.x=2.
    static QList<QPair<QString, QVariant>> scalarsOf(const QString &resultJson);

Q_SIGNALS:
    // Rows or values changed (the plot redraws).
    void resultsChanged();

private:
    QHash<qint64, QString> m_answers;
    struct Row
    {
        Store::TaskRecord task;
        int caseIndex = -1;
        QHash<QString, QVariant> params;
        QHash<QString, QVariant> scalars;
    };

    void fill(Row &row, const Store::TaskRecord &task, bool keepResult);
    QStringList newScalarNames(const Row &row) const;
    QVariant cell(const Row &row, int column) const;

    qint64 m_sweepId = 0;
    QStringList m_params;
    QStringList m_scalars;
    QList<Row> m_rows;
    QHash<qint64, int> m_byTask;
    QHash<qint64, int> m_caseIndex;
};

} // namespace Eddy
