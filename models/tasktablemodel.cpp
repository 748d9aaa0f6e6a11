#include "models/tasktablemodel.h"

#include "models/outcomepalette.h"
#include "app/monitor/progressparser.h"
#include "app/vocab/valuetext.h"

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

// An argument as the user reads it: booleans in the UI's language (exports keep true/false).
QString valueText(const nlohmann::json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return formatValue(v.get<double>());
    if (v.is_boolean())
        return v.get<bool>() ? TaskTableModel::tr("yes") : TaskTableModel::tr("no");
    return QString::fromStdString(v.dump());
}

} // namespace

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
    if (section >= VariedColumn && section <= VariedLastColumn) {
        if (role == Qt::DisplayRole)
            return variedName(section);
        if (role == Qt::ToolTipRole && !variedName(section).isEmpty())
            return tr("Varied parameter %1 of the shown sweeps").arg(variedName(section));
        return {};
    }
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
        case PatternColumn: return tr("Pattern");
        case NotesColumn: return tr("Notes");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ResidualColumn: return tr("Latest overall residual parsed from the status messages");
        case ParametersColumn: return tr("The varied parameters' values; every argument is in the row's tooltip");
        case EtaColumn: return tr("Estimated time left at the recent iteration rate");
        case ExpiresColumn: return tr("When the server may forget the task (its TTL); results are stored as soon as they arrive");
        case PatternColumn: return tr("How the server runs the call: an MCP task, a streamed call or a job followed through the server's job adapter");
        case NotesColumn: return tr("Your tags and note on the case (Edit Note..., Edit Tags... in its context menu)");
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
    names.insert(PatternRole, "pattern");
    names.insert(NoteRole, "note");
    names.insert(TagsRole, "tags");
    names.insert(CaseIdRole, "caseId");
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

QString TaskTableModel::patternText(Pattern pattern)
{
    switch (pattern) {
    case Pattern::Streamed: return tr("Streamed call");
    case Pattern::Job: return tr("Job");
    case Pattern::Task: break;
    }
    return tr("Task");
}

QString TaskTableModel::patternToolTip(Pattern pattern)
{
    switch (pattern) {
    case Pattern::Streamed:
        return tr("A streamed tools/call: progress arrives on the call's open connection. The run "
                  "lives as long as that connection: if it is lost, the run cannot be followed "
                  "again (Re-run starts it anew). Cancel closes the stream.");
    case Pattern::Job:
        return tr("A job followed through the server's job adapter: Eddy polls its status tool, "
                  "fetches the result with its result tool and resumes it after a restart.");
    case Pattern::Task: break;
    }
    return tr("An MCP task: the server keeps it, Eddy polls it and resumes it after a restart "
              "while the server remembers it.");
}

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
        QStringList lines;
        row.args.clear();
        for (auto it = args.begin(); it != args.end(); ++it) {
            if (it.key() == "idempotency_key")
                continue;
            const QString name = QString::fromStdString(it.key());
            lines << tr("%1 = %2").arg(name, valueText(*it));
            if (it->is_number())
                row.args.insert(name, it->get<double>());
            else if (it->is_boolean())
                row.args.insert(name, it->get<bool>());
            else if (it->is_string())
                row.args.insert(name, QString::fromStdString(it->get<std::string>()));
        }
        row.allArguments = lines.join(QLatin1Char('\n'));
    }
    row.messageResidual.reset();
    if (!row.progress.residual && !row.task.statusMessage.isEmpty()) {
        static const Monitor::ProgressParser parser;
        for (const Store::ProgressSample &sample : parser.parse(row.task.statusMessage, row.task.tool, 0)) {
            if (sample.series == Monitor::ProgressParser::Residual)
                row.messageResidual = sample.y;
        }
        if (row.messageResidual && !row.storedResidualAsked) {
            row.storedResidualAsked = true;
            if (m_residualsWanted.isEmpty()) {
                // One request for all the rows a paint or a sort derives in this turn.
                auto *self = const_cast<TaskTableModel *>(this);
                QMetaObject::invokeMethod(self, [self] {
                    Q_EMIT self->storedResidualsNeeded(std::exchange(self->m_residualsWanted, {}));
                }, Qt::QueuedConnection);
            }
            m_residualsWanted << row.task.id;
        }
    }
    row.parameters = parts.join(QStringLiteral(", "));
    const CaseReview review = row.task.caseId ? m_reviews.value(*row.task.caseId) : CaseReview();
    // Eddy's task number, never the server's task id (a bearer secret).
    row.search = QStringList{caseLabel(row.task.id), row.parameters, row.allArguments, row.task.tool,
                             row.task.statusMessage, m_serverNames.value(row.task.serverId),
                             Monitor::OutcomeText::label(row.outcome), patternText(row.task.pattern),
                             QString::number(row.task.id), review.note, review.tags.join(QLatin1Char(' '))}
                     .join(QLatin1Char(' '))
                     .toLower();
    row.derived = true;
}

std::optional<double> TaskTableModel::residualOf(const Row &row) const
{
    return row.progress.residual ? row.progress.residual : row.messageResidual;
}

QVariant TaskTableModel::variedValue(const Row &row, int column, bool forSort) const
{
    const QVariant v = row.args.value(variedName(column));
    if (forSort || !v.isValid())
        return v;
    if (v.typeId() == QMetaType::Double)
        return formatValue(v.toDouble());
    if (v.typeId() == QMetaType::Bool)
        return v.toBool() ? tr("yes") : tr("no");
    return v;
}

QString TaskTableModel::argumentsText(qint64 taskId) const
{
    const int r = rowOf(taskId);
    return r < 0 ? QString() : derived(r).allArguments;
}

QVariant TaskTableModel::display(const Row &row, int column) const
{
    const Store::TaskRecord &t = row.task;
    switch (column) {
    case VariedColumn + 0:
    case VariedColumn + 1:
    case VariedColumn + 2:
    case VariedColumn + 3: return variedValue(row, column, false);
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
    case ResidualColumn: {
        const auto residual = residualOf(row);
        return residual ? QString::number(*residual, 'e', 2) : QString();
    }
    case EtaColumn: {
        if (!t.isLive())
            return QString();
        auto eta = row.progress.etaMs();
        if (!eta)
            return QString();
        // The rate is from the last sample; time since then is already spent.
        return durationText(std::max<qint64>(0, *eta - (now() - row.progress.rate.lastAtMs())));
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
    case PatternColumn: return patternText(t.pattern);
    case NotesColumn: return notesText(t);
    default: return {};
    }
}

QString TaskTableModel::notesText(const Store::TaskRecord &t) const
{
    if (!t.caseId)
        return {};
    const CaseReview review = m_reviews.value(*t.caseId);
    if (review.tags.isEmpty())
        return review.note;
    const QString tags = tr("[%1]").arg(review.tags.join(QStringLiteral(", ")));
    return review.note.isEmpty() ? tags : tr("%1 %2").arg(tags, review.note);
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
    case VariedColumn + 0:
    case VariedColumn + 1:
    case VariedColumn + 2:
    case VariedColumn + 3: return variedValue(row, column, true);
    case StatusColumn: return int(row.outcome);
    case MessageColumn: return t.statusMessage;
    case ProgressColumn: return t.status == TaskStatus::Completed ? 1.0 : row.progress.fraction().value_or(-1.0);
    case ResidualColumn: return residualOf(row).value_or(1e300);
    case EtaColumn: return double(row.progress.etaMs().value_or(std::numeric_limits<qint64>::max()));
    case AgeColumn: return t.firstSeenAtMs; // older first = larger age
    case ServerColumn: return m_serverNames.value(t.serverId);
    case ExpiresColumn: return double(t.expiresAtMs().value_or(std::numeric_limits<qint64>::max()));
    case PatternColumn: return patternText(t.pattern);
    case NotesColumn: return notesText(t);
    default: return {};
    }
}

QVariant TaskTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int column = index.column();
    const bool derivedColumn = column == ParametersColumn || column == ResidualColumn
                               || (column >= VariedColumn && column <= VariedLastColumn);
    const bool needsTexts = role == SearchTextRole || role == ResidualRole
                            || (role == Qt::ToolTipRole && column == CaseColumn)
                            || (role == Qt::TextAlignmentRole && derivedColumn)
                            || (derivedColumn
                                && (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == SortRole));
    const Row &row = needsTexts ? derived(index.row()) : m_rows[index.row()];
    const Store::TaskRecord &t = row.task;
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn)
            return display(row, index.column());
        if (index.column() == CaseColumn) // the label in full (a narrow column elides it)
            return tr("%1\n%2").arg(caseLabel(t.id), row.allArguments);
        if (index.column() == ParametersColumn
            || (index.column() >= VariedColumn && index.column() <= VariedLastColumn))
            return row.allArguments; // fixed and varied: the columns show only what varies
        if (index.column() == StatusColumn && t.status == TaskStatus::Failed && !t.error.isEmpty())
            return tr("Failed: %1").arg(t.error);
        if (index.column() == PatternColumn)
            return patternToolTip(t.pattern);
        if (index.column() == NotesColumn)
            return notesText(t);
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
            || index.column() == ExpiresColumn
            || (index.column() >= VariedColumn && index.column() <= VariedLastColumn
                && row.args.value(variedName(index.column())).typeId() == QMetaType::Double))
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case TaskIdRole: return t.id;
    case StatusRole: return int(t.status);
    case ProgressRole:
        return t.status == TaskStatus::Completed && !t.isToolError ? 1.0 : row.progress.fraction().value_or(-1.0);
    case ResidualRole: {
        const auto residual = residualOf(row);
        return residual ? QVariant(*residual) : QVariant();
    }
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
    case PatternRole: return patternName(t.pattern);
    case NoteRole: return t.caseId ? m_reviews.value(*t.caseId).note : QString();
    case TagsRole: return t.caseId ? m_reviews.value(*t.caseId).tags : QStringList();
    case CaseIdRole: return t.caseId ? QVariant(*t.caseId) : QVariant();
    default: return {};
    }
}

} // namespace Eddy
