#include "models/parallelcoordinates.h"

#include "models/sweepresultsmodel.h"

#include <algorithm>
#include <cmath>

namespace Eddy {

namespace {

std::optional<double> numberOf(const QVariant &v)
{
    if (!v.isValid())
        return std::nullopt;
    if (v.typeId() == QMetaType::Bool)
        return v.toBool() ? 1.0 : 0.0;
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || !std::isfinite(d) || v.typeId() == QMetaType::QString)
        return std::nullopt;
    return d;
}

} // namespace

bool ParallelCoordinates::spansDecades(const QList<double> &values)
{
    if (values.isEmpty())
        return false;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return *lo > 0 && *hi / *lo > 100.0;
}

void ParallelCoordinates::setData(const QStringList &parameters, const QStringList &scalars,
                                  const QList<Line> &lines)
{
    m_axes.clear();
    m_lines = lines;
    const QStringList names = parameters + scalars;
    for (int a = 0; a < names.size(); ++a) {
        Axis axis;
        axis.name = names.at(a);
        axis.parameter = a < parameters.size();
        QList<double> values;
        for (const Line &line : lines)
            if (a < line.values.size() && line.values.at(a))
                values << *line.values.at(a);
        axis.log = spansDecades(values);
        if (!values.isEmpty()) {
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            axis.min = *lo;
            axis.max = *hi;
        }
        if (axis.log) {
            axis.min = std::pow(10.0, std::floor(std::log10(axis.min)));
            axis.max = std::pow(10.0, std::ceil(std::log10(axis.max)));
        } else if (axis.max == axis.min) {
            // One value: the line crosses the axis in its middle.
            const double pad = axis.min == 0 ? 1.0 : std::abs(axis.min) * 0.1;
            axis.min -= pad;
            axis.max += pad;
        }
        m_axes << axis;
    }
}

ParallelCoordinates ParallelCoordinates::fromModel(const SweepResultsModel &model, const QStringList &scalars)
{
    QStringList parameters;
    for (const QString &p : model.parameterNames())
        if (model.isNumericParameter(p))
            parameters << p;
    QList<Line> lines;
    for (int r = 0; r < model.rowCount(); ++r) {
        Line line;
        line.taskId = model.taskIdAt(r);
        line.label = model.caseLabelAt(r);
        line.outcome = model.outcomeAt(r);
        for (const QString &p : std::as_const(parameters))
            line.values << numberOf(model.index(r, model.parameterColumn(p)).data(SweepResultsModel::ValueRole));
        for (const QString &s : scalars) {
            const int column = model.scalarColumn(s);
            line.values << (column < 0 ? std::nullopt
                                       : numberOf(model.index(r, column).data(SweepResultsModel::ValueRole)));
        }
        lines << line;
    }
    ParallelCoordinates pc;
    pc.setData(parameters, scalars, lines);
    return pc;
}

QStringList ParallelCoordinates::defaultScalars(const SweepResultsModel &model)
{
    QStringList out;
    for (const QString &s : model.scalarNames()) {
        const int column = model.scalarColumn(s);
        bool numeric = column >= 0;
        for (int r = 0; numeric && r < model.rowCount(); ++r) {
            const QVariant v = model.index(r, column).data(SweepResultsModel::ValueRole);
            numeric = !v.isValid() || (v.typeId() != QMetaType::QString && v.typeId() != QMetaType::Bool);
        }
        if (numeric && model.scalarVaries(s))
            out << s;
    }
    return out;
}

int ParallelCoordinates::axisOf(const QString &name) const
{
    for (int a = 0; a < m_axes.size(); ++a)
        if (m_axes.at(a).name == name)
            return a;
    return -1;
}

double ParallelCoordinates::position(int axis, double value) const
{
    const Axis &a = m_axes.at(axis);
    double p = 0.5;
    if (a.log && value > 0)
        p = (std::log10(value) - std::log10(a.min)) / (std::log10(a.max) - std::log10(a.min));
    else if (a.log)
        p = 0;
    else if (a.max > a.min)
        p = (value - a.min) / (a.max - a.min);
    return std::clamp(p, 0.0, 1.0);
}

double ParallelCoordinates::valueAt(int axis, double position) const
{
    const Axis &a = m_axes.at(axis);
    if (a.log)
        return std::pow(10.0, std::log10(a.min) + position * (std::log10(a.max) - std::log10(a.min)));
    return a.min + position * (a.max - a.min);
}

void ParallelCoordinates::setBrush(int axis, double fromPosition, double toPosition)
{
    if (axis < 0 || axis >= m_axes.size())
        return;
    const double lo = std::clamp(std::min(fromPosition, toPosition), 0.0, 1.0);
    const double hi = std::clamp(std::max(fromPosition, toPosition), 0.0, 1.0);
    setBrushValues(axis, valueAt(axis, lo), valueAt(axis, hi));
}

void ParallelCoordinates::setBrushValues(int axis, double low, double high)
{
    if (axis < 0 || axis >= m_axes.size())
        return;
    m_axes[axis].brush = std::make_pair(std::min(low, high), std::max(low, high));
}

void ParallelCoordinates::clearBrush(int axis)
{
    if (axis >= 0 && axis < m_axes.size())
        m_axes[axis].brush.reset();
}

void ParallelCoordinates::clearBrushes()
{
    for (Axis &a : m_axes)
        a.brush.reset();
}

bool ParallelCoordinates::hasBrush() const
{
    return std::any_of(m_axes.begin(), m_axes.end(), [](const Axis &a) { return a.brush.has_value(); });
}

bool ParallelCoordinates::isBrushed(const Line &line) const
{
    for (int a = 0; a < m_axes.size(); ++a) {
        const auto &brush = m_axes.at(a).brush;
        if (!brush)
            continue;
        const std::optional<double> v = a < line.values.size() ? line.values.at(a) : std::nullopt;
        // A relative slack: a brush dragged to a value's own pixel keeps it.
        const double slack = 1e-9 * std::max({std::abs(brush->first), std::abs(brush->second), 1e-300});
        if (!v || *v < brush->first - slack || *v > brush->second + slack)
            return false;
    }
    return true;
}

QSet<qint64> ParallelCoordinates::brushed() const
{
    QSet<qint64> out;
    for (const Line &line : m_lines)
        if (isBrushed(line))
            out.insert(line.taskId);
    return out;
}

} // namespace Eddy
