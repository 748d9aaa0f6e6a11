#include "models/sweepresultsmodel.h"

#include "app/monitor/sweepexport.h"
#include "app/vocab/valuetext.h"
#include "models/outcomepalette.h"
#include "models/tasktablemodel.h"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace Eddy {

using json = nlohmann::json;

namespace {

QVariant scalarValue(const json &v)
{
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_number())
        return v.get<double>();
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return {};
}

void flatten(const json &value, const QString &prefix, QList<QPair<QString, QVariant>> &out, int depth)
{
    for (auto it = value.begin(); it != value.end(); ++it) {
        const QString name = prefix.isEmpty() ? QString::fromStdString(it.key())
                                              : prefix + QLatin1Char('.') + QString::fromStdString(it.key());
        if (it->is_object() && depth < 2)
            flatten(*it, name, out, depth + 1);
        else if (it->is_number() || it->is_boolean())
            out.append({name, scalarValue(*it)});
    }
}

// Whether %g would print the number in scientific notation (six significant digits).
bool printsScientific(double v)
{
    const double a = std::abs(v);
    return a != 0 && std::isfinite(a) && (a < 1e-4 || a >= 1e6);
}

// A column's numbers in one notation: %g alone mixes "9.971e-07" with "0.266733" and "35.4135"
// in one residual column, which reads as if the numbers were of different kinds. A column with
// any number %g prints in scientific notation prints them all so, to five significant digits,
// and right-aligned they line up.
QString displayOf(const QVariant &v, bool scientific)
{
    if (!v.isValid())
        return {};
    if (v.typeId() == QMetaType::Bool)
        return v.toBool() ? SweepResultsModel::tr("yes") : SweepResultsModel::tr("no");
    if (v.typeId() == QMetaType::Double)
        return scientific ? QString::number(v.toDouble(), 'e', 4) : formatValue(v.toDouble());
    return v.toString();
}

} // namespace

SweepResultsModel::SweepResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int SweepResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SweepResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_sweepId == 0 ? 0 : int(2 + m_params.size() + m_scalars.size());
}

int SweepResultsModel::parameterColumn(const QString &name) const
{
    const int i = int(m_params.indexOf(name));
    return i < 0 ? -1 : 1 + i;
}

int SweepResultsModel::scalarColumn(const QString &name) const
{
    const int i = int(m_scalars.indexOf(name));
    return i < 0 ? -1 : 2 + int(m_params.size()) + i;
}

QVariant SweepResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    const int p = int(m_params.size());
    if (role == Qt::DisplayRole) {
        if (section == 0)
            return tr("Case");
        if (section <= p)
            return m_params.at(section - 1);
        if (section == p + 1)
            return tr("Status");
        return m_scalars.at(section - p - 2);
    }
    if (role == Qt::ToolTipRole) {
        if (section >= 1 && section <= p)
            return tr("Varied parameter %1").arg(m_params.at(section - 1));
        if (section > p + 1)
            return tr("%1 from the result's structured content").arg(m_scalars.at(section - p - 2));
    }
    return {};
}

QString SweepResultsModel::valueName(int column) const
{
    const int p = int(m_params.size());
    if (column >= 1 && column <= p)
        return m_params.at(column - 1);
    if (column > p + 1 && column - p - 2 < m_scalars.size())
        return m_scalars.at(column - p - 2);
    return {};
}

QVariant SweepResultsModel::cell(const Row &row, int column) const
{
    const int p = int(m_params.size());
    if (column == 0)
        return row.caseIndex >= 0 ? QVariant(double(row.caseIndex + 1)) : QVariant(double(row.task.id));
    if (column <= p)
        return row.params.value(m_params.at(column - 1));
    if (column == p + 1)
        return Monitor::OutcomeText::label(row.outcome);
    return row.scalars.value(m_scalars.at(column - p - 2));
}

QVariant SweepResultsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= columnCount())
        return {};
    const Row &row = m_rows.at(index.row());
    const QVariant v = cell(row, index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0)
            return index.row() == baselineRow() ? tr("%1 \u2605 baseline").arg(caseLabelAt(index.row()))
                                                : caseLabelAt(index.row());
        return displayOf(v, m_scientific.contains(valueName(index.column())));
    case Qt::ToolTipRole:
        if (index.column() == 0 && index.row() == baselineRow())
            return tr("The sweep's baseline: Compare measures the other cases against it. Change it with "
                      "Mark as Baseline or the Baseline choice of the compare window.");
        return v.typeId() == QMetaType::Double ? formatValueExact(v.toDouble())
                                                : displayOf(v, false);
    case Qt::TextAlignmentRole:
        return int((v.typeId() == QMetaType::Double && index.column() > 0 ? Qt::AlignRight : Qt::AlignLeft)
                   | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == int(m_params.size()) + 1)
            return OutcomePalette::color(row.outcome);
        return {};
    case Qt::FontRole:
        if (index.column() == 0 && index.row() == baselineRow()) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case TaskIdRole: return row.task.id;
    case OutcomeRole: return int(row.outcome);
    case BaselineRole: return index.row() == baselineRow();
    case SortRole:
        if (v.typeId() == QMetaType::Bool)
            return v.toBool() ? 1.0 : 0.0;
        return v;
    case ValueRole: return v;
    default: return {};
    }
}

QList<QPair<QString, QVariant>> SweepResultsModel::scalarsOf(const QString &resultJson)
{
    QList<QPair<QString, QVariant>> out;
    const json result = json::parse(resultJson.toStdString(), nullptr, false);
    if (!result.is_object())
        return out;
    auto it = result.find("structuredContent");
    if (it == result.end() || !it->is_object())
        return out;
    flatten(*it, QString(), out, 0);
    return out;
}

void SweepResultsModel::fill(Row &row, const Store::TaskRecord &task, bool keepResult)
{
    const QString oldResult = row.task.result;
    row.task = task;
    if (keepResult && task.result.isEmpty())
        row.task.result = oldResult;
    row.outcome = Monitor::outcomeOf(row.task);
    if (task.caseId)
        row.caseIndex = m_caseIndex.value(*task.caseId, -1);
    row.params.clear();
    const json args = json::parse(task.arguments.toStdString(), nullptr, false);
    if (args.is_object()) {
        for (const QString &name : std::as_const(m_params)) {
            auto a = args.find(name.toStdString());
            if (a != args.end())
                row.params.insert(name, a->is_primitive() ? scalarValue(*a) : QVariant(QString::fromStdString(a->dump())));
        }
    }
    row.scalars.clear();
    // Only finished, successful results count: a tool error's content is not a design point.
    if (row.task.status == Store::TaskStatus::Completed && !row.task.isToolError) {
        for (const auto &[name, value] : scalarsOf(row.task.result)) {
            if (!m_params.contains(name)) // already a column of its own
                row.scalars.insert(name, value);
        }
    }
    for (const QHash<QString, QVariant> *values : {&row.params, &row.scalars}) {
        for (auto it = values->begin(); it != values->end(); ++it) {
            if (it->typeId() == QMetaType::Double && printsScientific(it->toDouble()))
                m_scientific.insert(it.key());
        }
    }
}

QStringList SweepResultsModel::newScalarNames(const Row &row) const
{
    QStringList names;
    for (const auto &[name, value] : scalarsOf(row.task.result)) {
        if (row.scalars.contains(name) && !m_scalars.contains(name) && !names.contains(name))
            names << name;
    }
    return names;
}

void SweepResultsModel::setSweep(qint64 sweepId, const QStringList &variedNames, const QList<Store::TaskRecord> &tasks,
                                 const QHash<qint64, int> &caseIndex)
{
    beginResetModel();
    if (sweepId != m_sweepId)
        m_review = {};
    m_sweepId = sweepId;
    m_params = variedNames;
    m_scalars.clear();
    m_scientific.clear();
    m_caseIndex = caseIndex;
    m_rows.clear();
    m_byTask.clear();
    m_byCase.clear();
    for (const auto &t : tasks) {
        if (t.sweepId != sweepId)
            continue;
        Row row;
        fill(row, t, false);
        if (row.caseIndex >= 0) {
            // One row per design point: the latest attempt (highest task number) of the case.
            if (const int r = m_byCase.value(row.caseIndex, -1); r >= 0) {
                if (m_rows.at(r).task.id < t.id) {
                    m_byTask.remove(m_rows.at(r).task.id);
                    m_byTask.insert(t.id, r);
                    m_rows[r] = row;
                }
                continue;
            }
            m_byCase.insert(row.caseIndex, int(m_rows.size()));
        }
        m_byTask.insert(t.id, int(m_rows.size()));
        m_rows << row;
    }
    for (const Row &row : std::as_const(m_rows))
        m_scalars << newScalarNames(row);
    endResetModel();
    Q_EMIT resultsChanged();
}

void SweepResultsModel::clear()
{
    beginResetModel();
    m_sweepId = 0;
    m_params.clear();
    m_scalars.clear();
    m_scientific.clear();
    m_rows.clear();
    m_byTask.clear();
    m_byCase.clear();
    m_caseIndex.clear();
    m_cases.clear();
    m_review = {};
    endResetModel();
    Q_EMIT resultsChanged();
    Q_EMIT reviewChanged();
}

void SweepResultsModel::setReview(const Store::SweepRecord &sweep)
{
    if (sweep.id != m_sweepId || m_sweepId == 0)
        return;
    const int before = baselineRow();
    m_review = sweep;
    const int after = baselineRow();
    for (int r : {before, after})
        if (r >= 0 && before != after)
            Q_EMIT dataChanged(index(r, 0), index(r, 0));
    Q_EMIT reviewChanged();
}

int SweepResultsModel::baselineRow() const
{
    if (!m_review.baselineCaseId)
        return -1;
    const int caseIndex = m_caseIndex.value(*m_review.baselineCaseId, -1);
    if (caseIndex >= 0)
        return m_byCase.value(caseIndex, -1);
    for (int r = 0; r < m_rows.size(); ++r)
        if (m_rows.at(r).task.caseId == m_review.baselineCaseId)
            return r;
    return -1;
}

std::optional<qint64> SweepResultsModel::baselineTask() const
{
    const int r = baselineRow();
    return r < 0 ? std::nullopt : std::optional<qint64>(m_rows.at(r).task.id);
}

int SweepResultsModel::unsentCount() const
{
    // A case sent since the sweep was read has its row by now (updateTasks()).
    return int(std::count_if(m_cases.cbegin(), m_cases.cend(), [this](const Store::CaseRecord &c) {
        return !c.taskId && !m_byCase.contains(c.index);
    }));
}

void SweepResultsModel::updateTasks(const QList<Store::TaskRecord> &tasks)
{
    if (m_sweepId == 0)
        return;
    bool changed = false;
    const qsizetype scientificBefore = m_scientific.size();
    for (const auto &t : tasks) {
        if (t.sweepId != m_sweepId)
            continue;
        if (t.caseId && !m_caseIndex.contains(*t.caseId))
            continue; // a case journalled after setSweep() (a re-run): the sweep is reloaded
        int r = m_byTask.value(t.id, -1);
        bool sameTask = r >= 0;
        const int caseIndex = t.caseId ? m_caseIndex.value(*t.caseId) : -1;
        if (r < 0 && caseIndex >= 0) {
            r = m_byCase.value(caseIndex, -1);
            if (r >= 0 && m_rows.at(r).task.id > t.id)
                continue; // an earlier attempt of a case shown by a later one
        }
        changed = true;
        Row row = sameTask ? m_rows.at(r) : Row{};
        fill(row, t, sameTask);
        if (r >= 0 && !sameTask) { // a new attempt takes over its case's row
            m_byTask.remove(m_rows.at(r).task.id);
            m_byTask.insert(t.id, r);
        }
        if (r < 0 && caseIndex >= 0)
            m_byCase.insert(caseIndex, int(m_rows.size()));
        const QStringList added = newScalarNames(row);
        if (!added.isEmpty()) {
            // A new scalar column: a reset is simplest and happens once per field.
            beginResetModel();
            m_scalars << added;
            if (r < 0) {
                m_byTask.insert(t.id, int(m_rows.size()));
                m_rows << row;
            } else {
                m_rows[r] = row;
            }
            endResetModel();
        } else if (r < 0) {
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
            m_byTask.insert(t.id, int(m_rows.size()));
            m_rows << row;
            endInsertRows();
        } else {
            m_rows[r] = row;
            Q_EMIT dataChanged(index(r, 0), index(r, columnCount() - 1));
        }
    }
    if (m_scientific.size() != scientificBefore && !m_rows.isEmpty()) // a column changed notation
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
    if (changed)
        Q_EMIT resultsChanged();
}

int SweepResultsModel::withResultsCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(), [](const Row &r) { return !r.scalars.isEmpty(); }));
}

QList<SweepResultsModel::Point> SweepResultsModel::outcomePoints(const QString &parameter, const QString &scalar) const
{
    QList<Point> out;
    for (const Row &row : m_rows) {
        const QVariant x = row.params.value(parameter);
        QVariant y = row.scalars.value(scalar);
        if (y.typeId() == QMetaType::Bool)
            y = y.toBool() ? 1.0 : 0.0;
        if (x.typeId() != QMetaType::Double || y.typeId() != QMetaType::Double)
            continue;
        out.append({QPointF(x.toDouble(), y.toDouble()), row.outcome, row.task.id});
    }
    std::sort(out.begin(), out.end(), [](const Point &a, const Point &b) {
        return a.at.x() < b.at.x() || (a.at.x() == b.at.x() && a.at.y() < b.at.y());
    });
    return out;
}

QList<QPointF> SweepResultsModel::points(const QString &parameter, const QString &scalar) const
{
    QList<QPointF> out;
    for (const Point &p : outcomePoints(parameter, scalar))
        out << p.at;
    return out;
}

bool SweepResultsModel::isNumericParameter(const QString &name) const
{
    bool any = false;
    for (const Row &row : m_rows) {
        const QVariant v = row.params.value(name);
        if (!v.isValid())
            continue;
        if (v.typeId() != QMetaType::Double)
            return false;
        any = true;
    }
    return any;
}

bool SweepResultsModel::scalarVaries(const QString &name) const
{
    std::optional<QVariant> first;
    for (const Row &row : m_rows) {
        const QVariant v = row.scalars.value(name);
        if (!v.isValid())
            continue;
        if (!first)
            first = v;
        else if (*first != v)
            return true;
    }
    return false;
}

bool SweepResultsModel::isLogScalar(const QString &name) const
{
    double lo = 0, hi = 0;
    bool any = false;
    for (const Row &row : m_rows) {
        const QVariant v = row.scalars.value(name);
        if (!v.isValid())
            continue;
        if (v.typeId() != QMetaType::Double || !(v.toDouble() > 0))
            return false;
        const double d = v.toDouble();
        lo = any ? std::min(lo, d) : d;
        hi = any ? std::max(hi, d) : d;
        any = true;
    }
    return any && hi / lo > 100.0;
}

QString SweepResultsModel::toCsv() const
{
    // Each case with its latest attempt (the highest task number among its tasks).
    QHash<qint64, const Row *> latest;
    for (const Row &row : m_rows) {
        if (!row.task.caseId)
            continue;
        const Row *&have = latest[*row.task.caseId];
        if (!have || have->task.id < row.task.id)
            have = &row;
    }
    QList<Monitor::SweepExport::Row> rows;
    if (!m_cases.isEmpty()) {
        for (const Store::CaseRecord &c : m_cases) {
            Monitor::SweepExport::Row r{c, std::nullopt, {}};
            if (const Row *row = latest.value(c.id)) {
                r.task = row->task;
                r.answer = m_answers.value(row->task.id);
            }
            rows << r;
        }
    } else {
        for (const Row &row : m_rows) {
            Store::CaseRecord c;
            c.id = row.task.caseId.value_or(0);
            c.index = row.caseIndex >= 0 ? row.caseIndex : int(rows.size());
            c.arguments = row.task.arguments;
            rows << Monitor::SweepExport::Row{c, row.task, m_answers.value(row.task.id)};
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.c.index < b.c.index; });
    return Monitor::SweepExport::csv(rows, m_params);
}

QString SweepResultsModel::caseLabelAt(int r) const
{
    if (r < 0 || r >= m_rows.size())
        return {};
    const Row &row = m_rows.at(r);
    return row.caseIndex >= 0 ? tr("Case %1").arg(row.caseIndex + 1) : tr("Task %1").arg(row.task.id);
}

CaseComparison::Case SweepResultsModel::comparisonCase(int r) const
{
    CaseComparison::Case c;
    if (r < 0 || r >= m_rows.size())
        return c;
    const Row &row = m_rows.at(r);
    c.taskId = row.task.id;
    c.label = caseLabelAt(r);
    const json args = json::parse(row.task.arguments.toStdString(), nullptr, false);
    if (args.is_object()) {
        for (auto it = args.begin(); it != args.end(); ++it)
            if (it.key() != "idempotency_key") // Eddy's own, different in every call
                c.arguments.insert(QString::fromStdString(it.key()),
                               it->is_primitive() ? scalarValue(*it) : QVariant(QString::fromStdString(it->dump())));
    }
    c.scalars = row.scalars;
    return c;
}

QList<qint64> SweepResultsModel::tasksInCaseOrder() const
{
    QList<QPair<int, qint64>> order;
    for (const Row &row : m_rows)
        order.append({row.caseIndex < 0 ? std::numeric_limits<int>::max() : row.caseIndex, row.task.id});
    std::sort(order.begin(), order.end());
    QList<qint64> out;
    for (const auto &o : std::as_const(order))
        out << o.second;
    return out;
}

} // namespace Eddy
