#pragma once

#include "app/vocab/outcome.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy {

class SweepResultsModel;

// The data and brushing of a parallel-coordinates plot, apart from its painting: one axis per
// varied parameter and chosen result scalar (logarithmic when its values are positive and span
// more than two decades), one line per case with its outcome, and a brushed range per axis.
// A case is brushed when it lies inside the range of every brushed axis (AND). Positions are
// 0 (bottom) .. 1 (top) along an axis. Plain value; any thread.
class ParallelCoordinates final
{
public:
    struct Axis
    {
        QString name;
        bool parameter = false;
        bool log = false;
        double min = 0;
        double max = 1;
        std::optional<std::pair<double, double>> brush; // value range, low..high
    };

    struct Line
    {
        qint64 taskId = 0;
        QString label;
        Monitor::Outcome outcome = Monitor::Outcome::Completed;
        QList<std::optional<double>> values; // one per axis; none when the case lacks it
    };

    // Axes for `parameters` then `scalars` (in that order) over `lines` (values in that order).
    void setData(const QStringList &parameters, const QStringList &scalars, const QList<Line> &lines);
    // From a sweep table: its numeric varied parameters and these scalars (numbers and booleans).
    static ParallelCoordinates fromModel(const SweepResultsModel &model, const QStringList &scalars);
    // The scalars worth an axis by default: numeric ones that vary over the cases.
    static QStringList defaultScalars(const SweepResultsModel &model);
    // Whether values call for a log axis: all positive, spanning more than two decades.
    static bool spansDecades(const QList<double> &values);

    const QList<Axis> &axes() const { return m_axes; }
    const QList<Line> &lines() const { return m_lines; }
    int axisOf(const QString &name) const;

    double position(int axis, double value) const; // 0..1 (clamped)
    double valueAt(int axis, double position) const;

    // Brushes the axis between two positions (either order); clearBrush() removes it.
    void setBrush(int axis, double fromPosition, double toPosition);
    void setBrushValues(int axis, double low, double high);
    void clearBrush(int axis);
    void clearBrushes();
    bool hasBrush() const;
    // The cases inside every brush (AND); every case when nothing is brushed.
    QSet<qint64> brushed() const;
    bool isBrushed(const Line &line) const;

private:
    QList<Axis> m_axes;
    QList<Line> m_lines;
};

} // namespace Eddy
