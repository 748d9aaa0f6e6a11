#pragma once

#include "app/vocab/outcome.h"
#include "app/monitor/sweepexport.h"
#include "app/vocab/records.h"
#include "models/casecomparison.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <optional>

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
        ValueRole, // the raw value (double, bool or string); invalid when absent
        OutcomeRole, // int(Monitor::Outcome)
        BaselineRole // bool: the row is the sweep's stored baseline (setReview())
    };

    // A plotted design point and whether its run converged.
    struct Point
    {
        QPointF at;
        Monitor::Outcome outcome = Monitor::Outcome::Completed;
        qint64 taskId = 0;
    };

    explicit SweepResultsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Shows a sweep: its id, varied parameter names, tasks (with results) and case positions.
    void setSweep(qint64 sweepId, const QStringList &variedNames, const QList<Store::TaskRecord> &tasks,
                  const QHash<qint64, int> &caseIndex);
    // The sweep's case records (every case, submitted or not): the CSV export lists them all,
    // each design point once with its latest attempt.
    void setCases(const QList<Store::CaseRecord> &cases)
    {
        m_cases = Monitor::SweepExport::latestAttempts(cases);
        Q_EMIT reviewChanged();
    }
    void clear();
    // The shown sweep's review as stored (its note, tags, marked baseline and pause): the
    // baseline's row says so in the Case column. reviewChanged() follows; a record of another
    // sweep is ignored.
    void setReview(const Store::SweepRecord &sweep);
    QString sweepNote() const { return m_review.note; }
    QStringList sweepTags() const { return m_review.tags; }
    bool isPaused() const { return m_review.isPaused(); }
    std::optional<qint64> baselineCase() const { return m_review.baselineCaseId; }
    // The task of the marked baseline's row (its design point's latest attempt), if shown.
    std::optional<qint64> baselineTask() const;
    // The sweep's design points (every case, sent or not), and those not sent yet (no task).
    int designPointCount() const { return std::max(int(m_cases.size()), int(m_rows.size())); }
    int unsentCount() const;
    // Updates or adds the sweep's tasks among these (others are ignored). A record without a
    // result keeps the result already shown (change sets carry no results). A row is a design
    // point: a later attempt of a case (a re-run) replaces the earlier one's row; a task of a
    // case not given to setSweep() is left out (the caller reloads the sweep, see knowsCase()).
    void updateTasks(const QList<Store::TaskRecord> &tasks);
    bool knowsCase(qint64 caseId) const { return m_caseIndex.contains(caseId); }

    qint64 sweepId() const { return m_sweepId; }
    QStringList parameterNames() const { return m_params; }
    QStringList scalarNames() const { return m_scalars; }
    int withResultsCount() const; // cases whose result has scalars
    int parameterColumn(const QString &name) const;
    int scalarColumn(const QString &name) const;
    // (parameter, scalar) per completed case where both are numbers, sorted by x.
    QList<QPointF> points(const QString &parameter, const QString &scalar) const;
    // The same with each point's outcome (converged, not converged, completed).
    QList<Point> outcomePoints(const QString &parameter, const QString &scalar) const;
    // Whether the parameter's values are all numbers (booleans and text are not).
    bool isNumericParameter(const QString &name) const;
    // Whether the scalar takes more than one value over the completed cases.
    bool scalarVaries(const QString &name) const;
    // Whether the scalar looks like a residual: all values positive and spanning > 2 decades.
    bool isLogScalar(const QString &name) const;
    // The sweep as CSV through the same code as `eddyctl export` (Monitor::SweepExport):
    // case order, outcome, is_error, every argument, every scalar of structuredContent.
    QString toCsv() const;
    // The answers given to each task's questions (task id -> text), exported as "answer".
    void setAnswers(const QHash<qint64, QString> &answers) { m_answers = answers; }

    // The row's case for a comparison: label, every argument (but Eddy's idempotency_key), every result scalar (none unless
    // the case completed without a tool error). And what else the compare view shows of it.
    CaseComparison::Case comparisonCase(int row) const;
    qint64 taskIdAt(int row) const { return row >= 0 && row < m_rows.size() ? m_rows.at(row).task.id : 0; }
    int rowOfTask(qint64 taskId) const { return m_byTask.value(taskId, -1); }
    int caseIndexAt(int row) const { return row >= 0 && row < m_rows.size() ? m_rows.at(row).caseIndex : -1; }
    Monitor::Outcome outcomeAt(int row) const
    {
        return row >= 0 && row < m_rows.size() ? m_rows.at(row).outcome : Monitor::Outcome::Working;
    }
    QString resultAt(int row) const { return row >= 0 && row < m_rows.size() ? m_rows.at(row).task.result : QString(); }
    QString answersOf(qint64 taskId) const { return m_answers.value(taskId); }
    QString caseLabelAt(int row) const;
    // The task ids of every row in case order: the sweep's first case first (the default
    // baseline, CaseComparison::pickBaseline()).
    QList<qint64> tasksInCaseOrder() const;

    // Flattens structuredContent to scalar fields: {"a":1,"b":{"x":2}} -> a=1, b.x=2.
    static QList<QPair<QString, QVariant>> scalarsOf(const QString &resultJson);

Q_SIGNALS:
    // Rows or values changed (the plot redraws).
    void resultsChanged();
    // The sweep's note, tags, baseline, pause or case count changed.
    void reviewChanged();

private:
    QHash<qint64, QString> m_answers;
    struct Row
    {
        Store::TaskRecord task;
        int caseIndex = -1;
        Monitor::Outcome outcome = Monitor::Outcome::Working;
        QHash<QString, QVariant> params;
        QHash<QString, QVariant> scalars;
    };

    void fill(Row &row, const Store::TaskRecord &task, bool keepResult);
    QStringList newScalarNames(const Row &row) const;
    QVariant cell(const Row &row, int column) const;
    QString valueName(int column) const; // the parameter or scalar a column shows, else empty

    int baselineRow() const;

    qint64 m_sweepId = 0;
    Store::SweepRecord m_review; // id 0: none known for the shown sweep
    QStringList m_params;
    QStringList m_scalars;
    QList<Row> m_rows;
    QHash<qint64, int> m_byTask;
    QHash<int, int> m_byCase; // case index -> row (the latest attempt's)
    QHash<qint64, int> m_caseIndex;
    QList<Store::CaseRecord> m_cases;
    QSet<QString> m_scientific; // columns shown in scientific notation (see displayOf())
};

} // namespace Eddy
