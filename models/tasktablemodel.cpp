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

namespace {

QString valueText(const nlohmann::json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return QString::number(v.get<double>(), 'g', 6);
    return QString::fromStdString(v.dump());
}

} // namespace

std::optional<double> TaskTableModel::Progress::fraction() const
{
    if (iteration && maxIterations && *maxIterations > 0)
        return std::clamp(*iteration / *maxIterations, 0.0, 1.0);
    if (percent)
        return std::clamp(*percent / 100.0, 0.0, 1.0);
    return std::nullopt;
}

std::optional<qint64> TaskTableModel::Progress::etaMs() const
{
    if (!iteration || !maxIterations || lastAtMs <= firstAtMs)
        return std::nullopt;
    const double done = *iteration - firstIteration;
    if (done <= 0)
        return std::nullopt;
    const double rate = done / double(lastAtMs - firstAtMs); // iterations per ms
    const double left = std::max(0.0, *maxIterations - *iteration);
    return static_cast<qint64>(left / rate);
}

TaskTableModel::TaskTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

TaskTableModel::~TaskTableModel() = default;

int TaskTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TaskTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TaskTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case CaseColumn: return tr("Case");
        case ParametersColumn: return tr("Parameters");
        case StatusColumn: return tr("Status");
        case MessageColumn: return tr("Status Message");
        case ProgressColumn: return tr("Progress");
        case ResidualColumn: return tr("Residual");
        case EtaColumn: return tr("ETA");
        case AgeColumn: return tr("Age");
        case ServerColumn: return tr("Server");
        case ExpiresColumn: return tr("Expires In");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ResidualColumn: return tr("Latest overall residual parsed from the status message");
        case EtaColumn: return tr("Estimated time left at the recent iteration rate");
        case ExpiresColumn: return tr("When the server may forget the task (its TTL); results are stored as soon as they arrive");
        default: return {};
        }
    }
    return {};
}

QHash<int, QByteArray> TaskTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(TaskIdRole, "taskId");
    names.insert(StatusRole, "status");
    names.insert(ProgressRole, "progress");
    names.insert(ResidualRole, "residual");
    names.insert(EtaMsRole, "etaMs");
    names.insert(AgeMsRole, "ageMs");
    names.insert(ExpiresInMsRole, "expiresInMs");
    names.insert(CancelRequestedRole, "cancelRequested");
    names.insert(IsLiveRole, "isLive");
    names.insert(IsToolErrorRole, "isToolError");
    names.insert(OutcomeRole, "outcome");
    names.insert(SweepIdRole, "sweepId");
    names.insert(ServerIdRole, "serverId");
    names.insert(SortRole, "sort");
    names.insert(SearchTextRole, "searchText");
    return names;
}

qint64 TaskTableModel::now() const
{
    return m_fixedNow ? m_fixedNow : QDateTime::currentMSecsSinceEpoch();
}

namespace {

Monitor::Outcome outcomeOfStatus(TaskStatus status, bool toolError)
{
    Store::TaskRecord t;
    t.status = status;
    t.isToolError = toolError;
    return Monitor::outcomeOf(t, std::nullopt);
}

} // namespace

QString TaskTableModel::statusText(TaskStatus status, bool toolError)
{
    // The status alone (filters, the attach dialog); rows show their outcome (OutcomeText).
    switch (status) {
    case TaskStatus::Working: return tr("Working");
    case TaskStatus::InputRequired: return tr("Needs input");
    case TaskStatus::Completed: return toolError ? tr("Tool error") : tr("Completed");
    case TaskStatus::Failed: return tr("Failed");
    case TaskStatus::Cancelled: return tr("Cancelled");
    case TaskStatus::Expired: return tr("Expired");
    case TaskStatus::Lost: return tr("Lost");
    }
    return {};
}

QColor TaskTableModel::statusColor(TaskStatus status)
{
    return OutcomePalette::color(outcomeOfStatus(status, false));
}

Monitor::Outcome TaskTableModel::outcome(qint64 taskId) const
{
    const int r = rowOf(taskId);
    return r < 0 ? Monitor::Outcome::Lost : m_rows[r].outcome;
}

void TaskTableModel::takeConvergence(Row &row, const Store::TaskRecord &task)
{
    if (!task.result.isEmpty())
        row.converged = Monitor::convergedOf(task.result);
    else if (task.converged)
        row.converged = task.converged;
    else if (task.isLive())
        row.converged.reset();
}

bool TaskTableModel::refreshOutcome(Row &row)
{
    const Progress &p = row.progress;
    const bool atLimit = p.iteration && p.maxIterations && *p.maxIterations > 0 && *p.iteration >= *p.maxIterations;
    const Monitor::Outcome o = Monitor::outcomeOf(row.task, row.converged, atLimit);
    if (o == row.outcome)
        return false;
    m_outcomeCounts[row.outcome] -= 1;
    m_outcomeCounts[o] += 1;
    row.outcome = o;
    return true;
}

QString TaskTableModel::durationText(qint64 ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < 1000)
        return tr("%1 ms").arg(ms); // sub-second steps (a quick answer) must not read "0 s"
    const qint64 s = ms / 1000;
    if (s < 60)
        return tr("%1 s").arg(s);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    if (s < 86400)
        return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString TaskTableModel::caseLabel(qint64 taskId) const
{
    const int r = rowOf(taskId);
    if (r < 0)
        return {};
    const Store::TaskRecord &t = m_rows[r].task;
    if (t.sweepId && t.caseId && m_caseIndex.contains(*t.caseId)) {
        const QString sweep = m_sweeps.value(*t.sweepId).label;
        const int index = m_caseIndex.value(*t.caseId) + 1;
        return sweep.isEmpty() ? tr("Case %1").arg(index) : tr("%1 · case %2").arg(sweep).arg(index);
    }
    if (t.sweepId && m_sweeps.contains(*t.sweepId))
        return tr("%1 · task %2").arg(m_sweeps.value(*t.sweepId).label).arg(t.id);
    return tr("Task %1").arg(t.id);
}

QString TaskTableModel::parametersText(qint64 taskId) const
{
    const int r = rowOf(taskId);
    return r < 0 ? QString() : derived(r).parameters;
}

const TaskTableModel::Row &TaskTableModel::derived(int row) const
{
    const Row &r = m_rows[row];
    if (!r.derived)
        fillDerived(r);
    return r;
}

void TaskTableModel::fillDerived(const Row &row) const
{
    const auto args = nlohmann::json::parse(row.task.arguments.toStdString(), nullptr, false);
    QStringList parts;
    if (args.is_object()) {
        QStringList names;
        if (row.task.sweepId && m_sweeps.contains(*row.task.sweepId))
            names = m_sweeps.value(*row.task.sweepId).varied;
        if (names.isEmpty()) {
            for (auto it = args.begin(); it != args.end(); ++it) {
                if (it.key() != "idempotency_key")
                    names << QString::fromStdString(it.key());
            }
        }
        for (const QString &n : names) {
            auto it = args.find(n.toStdString());
            if (it != args.end())
                parts << tr("%1 = %2").arg(n, valueText(*it));
        }
    }
    row.parameters = parts.join(QStringLiteral(", "));
    row.search = QStringList{row.parameters, row.task.tool, row.task.statusMessage,
                             m_serverNames.value(row.task.serverId), Monitor::OutcomeText::label(row.outcome),
                             QString::number(row.task.id)}
                     .join(QLatin1Char(' '))
                     .toLower();
    row.derived = true;
}

QVariant TaskTableModel::display(const Row &row, int column) const
{
    const Store::TaskRecord &t = row.task;
    switch (column) {
    case CaseColumn: return caseLabel(t.id);
    case ParametersColumn: return row.parameters;
    case StatusColumn: {
        QString s = Monitor::OutcomeText::label(row.outcome);
        if (t.cancelRequested && t.isLive())
            s = tr("%1 (cancel requested)").arg(s);
        return s;
    }
    case MessageColumn: return t.statusMessage;
    case ProgressColumn: {
        // A completed run is done, whether it converged early or used its whole budget; a tool
        // error is not a finished run (its bar keeps the progress it had, in the error colour).
        if (t.status == TaskStatus::Completed && !t.isToolError)
            return tr("100 %");
        auto f = row.progress.fraction();
        return f ? tr("%1 %").arg(qRound(*f * 100)) : QString();
    }
    case ResidualColumn:
        return row.progress.residual ? QString::number(*row.progress.residual, 'e', 2) : QString();
    case EtaColumn: {
        if (!t.isLive())
            return QString();
        auto eta = row.progress.etaMs();
        if (!eta)
            return QString();
        // The rate is from the last sample; time since then is already spent.
        return durationText(std::max<qint64>(0, *eta - (now() - row.progress.lastAtMs)));
    }
    case AgeColumn: return durationText(now() - t.firstSeenAtMs);
    case ServerColumn: return m_serverNames.value(t.serverId, tr("Server %1").arg(t.serverId));
    case ExpiresColumn: {
        if (!t.isLive())
            return QString();
        auto at = t.expiresAtMs();
        if (!at)
            return tr("never");
        const qint64 left = *at - now();
        return left <= 0 ? tr("expired") : durationText(left);
    }
    default: return {};
    }
}

QVariant TaskTableModel::sortValue(const Row &row, int column) const
{
    const Store::TaskRecord &t = row.task;
    switch (column) {
    case CaseColumn: {
        // Sweep first, then case index, so cases sort in sweep order.
        const qint64 sweep = t.sweepId.value_or(0);
        const qint64 index = t.caseId && m_caseIndex.contains(*t.caseId) ? m_caseIndex.value(*t.caseId) : t.id;
        return sweep * 100000000 + index;
    }
    case ParametersColumn: return row.parameters;
    case StatusColumn: return int(row.outcome);
    case MessageColumn: return t.statusMessage;
    case ProgressColumn: return t.status == TaskStatus::Completed ? 1.0 : row.progress.fraction().value_or(-1.0);
    case ResidualColumn: return row.progress.residual.value_or(1e300);
    case EtaColumn: return double(row.progress.etaMs().value_or(std::numeric_limits<qint64>::max()));
    case AgeColumn: return t.firstSeenAtMs; // older first = larger age
    case ServerColumn: return m_serverNames.value(t.serverId);
    case ExpiresColumn: return double(t.expiresAtMs().value_or(std::numeric_limits<qint64>::max()));
    default: return {};
    }
}

QVariant TaskTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const bool needsTexts = role == SearchTextRole
                            || (index.column() == ParametersColumn
                                && (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == SortRole));
    const Row &row = needsTexts ? derived(index.row()) : m_rows[index.row()];
    const Store::TaskRecord &t = row.task;
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn || index.column() == ParametersColumn)
            return display(row, index.column());
        if (index.column() == StatusColumn && t.status == TaskStatus::Failed && !t.error.isEmpty())
            return tr("Failed: %1").arg(t.error);
        return {};
    case Qt::DecorationRole:
        if (index.column() == StatusColumn)
            return OutcomePalette::color(row.outcome);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn)
            return OutcomePalette::color(row.outcome);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ResidualColumn || index.column() == EtaColumn || index.column() == AgeColumn
            || index.column() == ExpiresColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case TaskIdRole: return t.id;
    case StatusRole: return int(t.status);
    case ProgressRole:
        return t.status == TaskStatus::Completed && !t.isToolError ? 1.0 : row.progress.fraction().value_or(-1.0);
    case ResidualRole: return row.progress.residual ? QVariant(*row.progress.residual) : QVariant();
    case EtaMsRole: {
        auto eta = row.progress.etaMs();
        return eta && t.isLive() ? QVariant(*eta) : QVariant();
    }
    case AgeMsRole: return now() - t.firstSeenAtMs;
    case ExpiresInMsRole: {
        auto at = t.expiresAtMs();
        return at ? QVariant(*at - now()) : QVariant();
    }
    case CancelRequestedRole: return t.cancelRequested;
    case IsLiveRole: return t.isLive();
    case IsToolErrorRole: return t.isToolError;
    case OutcomeRole: return int(row.outcome);
    case SweepIdRole: return t.sweepId ? QVariant(*t.sweepId) : QVariant();
    case ServerIdRole: return t.serverId;
    case SortRole: return sortValue(row, index.column());
    case SearchTextRole: return row.search;
    default: return {};
    }
}

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
    m_rows.push_back(std::move(row));
}

void TaskTableModel::setTasks(const QList<Store::TaskRecord> &tasks)
{
    ++m_generation;
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
        if (s.series == QLatin1String("iteration")) {
            if (!p.iteration || p.firstAtMs == 0) {
                p.firstAtMs = s.atMs;
                p.firstIteration = s.y;
            }
            p.iteration = s.y;
            p.lastAtMs = std::max(p.lastAtMs, s.atMs);
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
    if (m_rows.isEmpty())
        return;
    // One range for every row: views repaint only what is visible.
    Q_EMIT dataChanged(index(0, EtaColumn), index(rowCount() - 1, ExpiresColumn),
                       {Qt::DisplayRole, AgeMsRole, EtaMsRole, ExpiresInMsRole, SortRole});
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
    QList<int> changed;
    for (int r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].task.sweepId == sweepId) {
            m_rows[r].derived = false;
            changed << r;
        }
    }
    emitRowsChanged(changed, CaseColumn, ParametersColumn);
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

} // namespace Eddy
