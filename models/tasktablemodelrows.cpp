#include "models/tasktablemodel.h"
#include "models/outcomepalette.h"

#include <QColor>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

namespace Eddy {

using Store::TaskStatus;

bool TaskTableModel::accepts(const Store::TaskRecord &task) const
{
    if (m_allSessions)
        return true;
    if (task.sweepId && m_sessionSweeps.contains(*task.sweepId))
        return true;
    return task.caseId && m_sessionCases.contains(*task.caseId);
}

void TaskTableModel::count(TaskStatus status, int delta)
{
    m_counts[status] += delta;
}

void TaskTableModel::countPattern(Pattern pattern, int delta)
{
    if (pattern != Pattern::Task)
        m_otherPatternRows += delta;
}

void TaskTableModel::clearAccepted()
{
    m_sessionSweeps.clear();
    m_sessionCases.clear();
}

void TaskTableModel::appendRow(const Store::TaskRecord &task)
{
    const int r = static_cast<int>(m_rows.size());
    Row row;
    row.task = task;
    takeConvergence(row, task);
    row.task.result.clear(); // results are fetched on demand; 10,000 rows must stay small
    m_outcomeCounts[row.outcome] += 1;
    refreshOutcome(row);
    m_index.insert(task.id, r);
    if (task.caseId)
        m_caseRow.insert(*task.caseId, r);
    count(task.status, 1);
    countPattern(task.pattern, 1);
    m_rows.push_back(std::move(row));
}

void TaskTableModel::setTasks(const QList<Store::TaskRecord> &tasks)
{
    ++m_generation;
    noteVaried({}); // the listed tasks' sweeps name the varied columns anew
    m_pendingSource.clear();
    m_pendingOrder.clear();
    m_pendingNext = 0;
    // Positions in tasks, first occurrence of each id; records are not copied here.
    QList<qsizetype> order;
    order.reserve(tasks.size());
    QSet<qint64> seen;
    seen.reserve(tasks.size());
    for (qsizetype i = 0; i < tasks.size(); ++i) {
        const Store::TaskRecord &t = tasks[i];
        if (seen.contains(t.id))
            continue;
        seen.insert(t.id);
        order << i;
        noteListed(t);
    }
    const bool paged = order.size() > 2 * qsizetype(m_pageSize);
    if (paged) {
        // Newest first: what an engineer looks for after a restart is listed first.
        std::stable_sort(order.begin(), order.end(), [&tasks](qsizetype a, qsizetype b) {
            const Store::TaskRecord &x = tasks[a];
            const Store::TaskRecord &y = tasks[b];
            return x.firstSeenAtMs != y.firstSeenAtMs ? x.firstSeenAtMs > y.firstSeenAtMs : x.id > y.id;
        });
    }
    m_listingChunks = false;
    beginResetModel();
    clearRows();
    const qsizetype firstPage = paged ? m_pageSize : order.size();
    m_rows.reserve(order.size());
    for (qsizetype i = 0; i < firstPage; ++i)
        appendRow(tasks[order[i]]);
    if (paged) {
        m_pendingSource = tasks;
        m_pendingOrder = std::move(order);
        m_pendingNext = firstPage;
    }
    endResetModel();
    Q_EMIT countsChanged();
    if (!paged) {
        Q_EMIT allTasksListed();
        return;
    }
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(this, [this, generation] { listNextPage(generation); }, Qt::QueuedConnection);
}

void TaskTableModel::listNextPage(quint64 generation)
{
    if (generation != m_generation || !isListing())
        return; // a newer setTasks replaced this list
    const qsizetype end = std::min(m_pendingNext + m_pageSize, m_pendingOrder.size());
    QList<const Store::TaskRecord *> page;
    page.reserve(end - m_pendingNext);
    for (qsizetype i = m_pendingNext; i < end; ++i)
        page << &m_pendingSource[m_pendingOrder[i]];
    m_pendingNext = end;
    appendListed(page);
    if (!isListing()) {
        m_pendingSource.clear();
        m_pendingOrder.clear();
        m_pendingNext = 0;
        Q_EMIT allTasksListed();
        return;
    }
    QMetaObject::invokeMethod(this, [this, generation] { listNextPage(generation); }, Qt::QueuedConnection);
}

void TaskTableModel::noteListed(const Store::TaskRecord &t)
{
    if (t.sweepId) {
        m_sessionSweeps.insert(*t.sweepId);
        if (m_varied.size() < MaxVariedColumns) {
            auto sw = m_sweeps.constFind(*t.sweepId);
            if (sw != m_sweeps.constEnd())
                noteVaried(sw->varied);
        }
        if (!m_sweeps.contains(*t.sweepId) && !m_askedSweeps.contains(*t.sweepId)) {
            m_askedSweeps.insert(*t.sweepId);
            Q_EMIT sweepInfoNeeded(*t.sweepId);
        }
    }
    if (t.caseId)
        m_sessionCases.insert(*t.caseId);
}

void TaskTableModel::clearRows()
{
    m_rows.clear();
    m_index.clear();
    m_caseRow.clear();
    m_counts.clear();
    m_outcomeCounts.clear();
    m_otherPatternRows = 0;
}

void TaskTableModel::appendListed(const QList<const Store::TaskRecord *> &tasks)
{
    // A task a change set already listed is newer than its snapshot copy; a task twice in the
    // list is listed once.
    QList<const Store::TaskRecord *> fresh;
    QSet<qint64> ids;
    for (const Store::TaskRecord *t : tasks) {
        if (!m_index.contains(t->id) && !ids.contains(t->id)) {
            ids.insert(t->id);
            fresh << t;
        }
    }
    if (fresh.isEmpty())
        return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(fresh.size()) - 1);
    for (const Store::TaskRecord *t : fresh)
        appendRow(*t);
    endInsertRows();
    Q_EMIT countsChanged();
}

void TaskTableModel::beginListing()
{
    ++m_generation; // drops the pages of an earlier setTasks
    noteVaried({});
    m_pendingSource.clear();
    m_pendingOrder.clear();
    m_pendingNext = 0;
    m_listingChunks = true;
    beginResetModel();
    clearRows();
    endResetModel();
    Q_EMIT countsChanged();
}

void TaskTableModel::addListed(const QList<Store::TaskRecord> &tasks)
{
    QList<const Store::TaskRecord *> chunk;
    chunk.reserve(tasks.size());
    for (const Store::TaskRecord &t : tasks) {
        noteListed(t);
        chunk << &t;
    }
    appendListed(chunk);
}

void TaskTableModel::endListing()
{
    if (!m_listingChunks)
        return;
    m_listingChunks = false;
    Q_EMIT allTasksListed();
}

void TaskTableModel::setCaseIndexes(const QHash<qint64, int> &caseIndex)
{
    // A case keeps its position in its sweep: only cases not known yet change anything, and the
    // first load takes the hash as is (shared, not copied: 100,000 cases in no time).
    if (m_caseIndex.isEmpty()) {
        m_caseIndex = caseIndex;
    } else {
        bool added = false;
        for (auto it = caseIndex.begin(); it != caseIndex.end(); ++it) {
            if (!m_caseIndex.contains(it.key())) {
                m_caseIndex.insert(it.key(), it.value());
                added = true;
            }
        }
        if (!added)
            return;
    }
    if (!m_rows.isEmpty() && !caseIndex.isEmpty())
        Q_EMIT dataChanged(index(0, CaseColumn), index(rowCount() - 1, CaseColumn));
}

void TaskTableModel::applyTasks(const QList<Store::TaskRecord> &tasks)
{
    // Rows whose identity columns (case, parameters) changed, and rows where only the status
    // side did: a status tick must not name the case column, or a view sorted by case (the
    // default) re-sorts and re-lays out on every update.
    QList<int> changedAll;
    QList<int> changedStatus;
    QList<Row> added;
    bool countsDirty = false;
    for (const auto &t : tasks) {
        const int r = m_index.value(t.id, -1);
        if (r >= 0) {
            Row &row = m_rows[r];
            if (row.task.status != t.status) {
                count(row.task.status, -1);
                count(t.status, 1);
                countsDirty = true;
            }
            if (row.task.pattern != t.pattern) {
                countPattern(row.task.pattern, -1);
                countPattern(t.pattern, 1);
                countsDirty = true;
            }
            const bool identity = row.task.arguments != t.arguments || row.task.sweepId != t.sweepId
                                  || row.task.caseId != t.caseId || row.task.serverId != t.serverId;
            row.task = t;
            takeConvergence(row, t);
            row.task.result.clear();
            if (refreshOutcome(row))
                countsDirty = true;
            row.derived = false; // the status and message are part of the search text
            row.parameters.clear();
            row.search.clear();
            (identity ? changedAll : changedStatus) << r;
            continue;
        }
        if (!accepts(t))
            continue;
        // The same task twice in one batch: keep the latest.
        auto dup = std::find_if(added.begin(), added.end(), [&](const Row &a) { return a.task.id == t.id; });
        Row row;
        row.task = t;
        takeConvergence(row, t);
        row.task.result.clear();
        if (dup != added.end()) {
            *dup = std::move(row);
        } else {
            added.push_back(std::move(row));
        }
    }
    emitRowsChanged(changedAll, 0, ColumnCount - 1);
    emitRowsChanged(changedStatus, StatusColumn, ColumnCount - 1);
    if (!added.isEmpty()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        for (auto &row : added) {
            m_index.insert(row.task.id, static_cast<int>(m_rows.size()));
            if (row.task.caseId)
                m_caseRow.insert(*row.task.caseId, static_cast<int>(m_rows.size()));
            count(row.task.status, 1);
            countPattern(row.task.pattern, 1);
            m_outcomeCounts[row.outcome] += 1;
            refreshOutcome(row);
            if (row.task.sweepId && !m_sweeps.contains(*row.task.sweepId)
                && !m_askedSweeps.contains(*row.task.sweepId)) {
                m_askedSweeps.insert(*row.task.sweepId);
                Q_EMIT sweepInfoNeeded(*row.task.sweepId);
            }
            m_rows.push_back(std::move(row));
        }
        endInsertRows();
        countsDirty = true;
    }
    if (countsDirty)
        Q_EMIT countsChanged();
}

void TaskTableModel::applySamples(const QList<Store::ProgressSample> &samples)
{
    QList<int> changed;
    for (const auto &s : samples) {
        const int r = m_index.value(s.taskId, -1);
        if (r < 0)
            continue;
        Progress &p = m_rows[r].progress;
        p.rate.add(s);
        if (s.series == QLatin1String("iteration")) {
            p.iteration = s.y;
        } else if (s.series == QLatin1String("max_iterations")) {
            p.maxIterations = s.y;
        } else if (s.series == QLatin1String("percent")) {
            p.percent = s.y;
        } else if (s.series == QLatin1String("residual")) {
            p.residual = s.y;
        } else if (s.series == QLatin1String("queue_position")) {
            p.queuePosition = s.y;
        } else {
            continue;
        }
        changed << r;
    }
    bool outcomes = false;
    for (int r : std::as_const(changed)) {
        if (refreshOutcome(m_rows[r])) {
            outcomes = true;
            emitRowsChanged({r}, StatusColumn, StatusColumn);
        }
    }
    emitRowsChanged(changed, ProgressColumn, EtaColumn);
    if (outcomes)
        Q_EMIT countsChanged();
}

void TaskTableModel::applyStoredResiduals(const QList<Store::ProgressSample> &samples)
{
    QList<int> changed;
    for (const auto &s : samples) {
        const int r = m_index.value(s.taskId, -1);
        // A row that got a residual since it asked has a newer one.
        if (r < 0 || m_rows[r].progress.residual)
            continue;
        m_rows[r].progress.residual = s.y;
        changed << r;
    }
    emitRowsChanged(changed, ResidualColumn, ResidualColumn);
}

void TaskTableModel::applyChanges(const QList<Store::TaskRecord> &tasks, const QList<Store::ProgressSample> &samples)
{
    m_deferChanges = true;
    applyTasks(tasks);
    applySamples(samples);
    m_deferChanges = false;
    // A row named as a whole needs no status-side range as well.
    if (!m_pendingAll.isEmpty() && !m_pendingStatus.isEmpty()) {
        const QSet<int> whole(m_pendingAll.begin(), m_pendingAll.end());
        m_pendingStatus.removeIf([&](int r) { return whole.contains(r); });
    }
    // Samples name Progress..ETA, inside the status side: one range covers both.
    emitRowsChanged(std::exchange(m_pendingAll, {}), 0, ColumnCount - 1);
    emitRowsChanged(std::exchange(m_pendingStatus, {}), StatusColumn, ColumnCount - 1);
}

void TaskTableModel::tick()
{
    if (!m_rows.isEmpty())
        Q_EMIT clockTicked();
}

void TaskTableModel::emitRowsChanged(QList<int> rows, int firstColumn, int lastColumn)
{
    if (rows.isEmpty())
        return;
    if (m_deferChanges) {
        (firstColumn == 0 ? m_pendingAll : m_pendingStatus) << rows;
        return;
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    int start = rows.first();
    int prev = start;
    for (int i = 1; i <= rows.size(); ++i) {
        if (i < rows.size() && rows[i] == prev + 1) {
            prev = rows[i];
            continue;
        }
        Q_EMIT dataChanged(index(start, firstColumn), index(prev, lastColumn));
        if (i < rows.size())
            start = prev = rows[i];
    }
}

void TaskTableModel::setServerNames(const QHash<qint64, QString> &names)
{
    m_serverNames = names;
    for (auto &row : m_rows)
        row.derived = false; // the server name is part of the search text
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, ServerColumn), index(rowCount() - 1, ServerColumn));
}

void TaskTableModel::setSweepInfo(qint64 sweepId, const QString &label, const QStringList &variedNames)
{
    m_sweeps.insert(sweepId, {label, variedNames});
    if (m_rows.isEmpty() || m_sessionSweeps.contains(sweepId))
        noteVaried(variedNames);
    QList<int> changed;
    for (int r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].task.sweepId == sweepId) {
            m_rows[r].derived = false;
            changed << r;
        }
    }
    emitRowsChanged(changed, CaseColumn, ParametersColumn);
}

void TaskTableModel::noteVaried(const QStringList &names)
{
    if (names.isEmpty()) {
        if (m_varied.isEmpty())
            return;
        m_varied.clear();
    } else {
        const qsizetype before = m_varied.size();
        for (const QString &n : names) {
            if (m_varied.size() < MaxVariedColumns && !m_varied.contains(n))
                m_varied << n;
        }
        if (m_varied.size() == before)
            return;
    }
    Q_EMIT headerDataChanged(Qt::Horizontal, VariedColumn, VariedLastColumn);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, VariedColumn), index(rowCount() - 1, VariedLastColumn));
}

QString TaskTableModel::variedName(int column) const
{
    const int i = column - VariedColumn;
    return i >= 0 && i < m_varied.size() ? m_varied.at(i) : QString();
}

void TaskTableModel::setCaseIndex(qint64 caseId, int index)
{
    m_caseIndex.insert(caseId, index);
    const int r = m_caseRow.value(caseId, -1);
    if (r >= 0)
        emitRowsChanged({r}, CaseColumn, CaseColumn);
}

const Store::TaskRecord *TaskTableModel::task(qint64 taskId) const
{
    const int r = rowOf(taskId);
    return r < 0 ? nullptr : &m_rows[r].task;
}

const TaskTableModel::Progress *TaskTableModel::progress(qint64 taskId) const
{
    const int r = rowOf(taskId);
    return r < 0 ? nullptr : &m_rows[r].progress;
}

qint64 TaskTableModel::taskIdAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].task.id : 0;
}

QList<qint64> TaskTableModel::taskIds() const
{
    QList<qint64> ids;
    ids.reserve(m_rows.size());
    for (const auto &r : m_rows)
        ids << r.task.id;
    return ids;
}

void TaskTableModel::setCaseReviews(const QList<Store::CaseRecord> &cases)
{
    QList<int> changed;
    for (const Store::CaseRecord &c : cases) {
        if (c.note.isEmpty() && c.tags.isEmpty())
            m_reviews.remove(c.id);
        else
            m_reviews.insert(c.id, {c.note, c.tags});
        const int r = m_caseRow.value(c.id, -1);
        if (r < 0 || r >= m_rows.size())
            continue;
        m_rows[r].derived = false; // the note and tags are part of the search text
        m_rows[r].search.clear();
        changed << r;
    }
    emitRowsChanged(changed, 0, ColumnCount - 1);
    Q_EMIT reviewsChanged();
}

QStringList TaskTableModel::allTags() const
{
    QStringList out;
    for (const CaseReview &r : m_reviews)
        for (const QString &t : r.tags)
            if (!out.contains(t))
                out << t;
    out.sort();
    return out;
}

std::optional<double> TaskTableModel::numericArgument(int row, const QString &name) const
{
    if (row < 0 || row >= m_rows.size())
        return std::nullopt;
    const QVariant v = derived(row).args.value(name);
    if (v.typeId() != QMetaType::Double)
        return std::nullopt;
    return v.toDouble();
}

} // namespace Eddy
