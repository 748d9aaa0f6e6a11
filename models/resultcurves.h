#pragma once

#include <QList>
#include <QPointF>
#include <QString>

#include <vector>

namespace Eddy {

// The numeric arrays of a tool result's structuredContent as plottable curves:
//  - an object holding two numeric arrays of equal length ({"y": [...], "u": [...]}) is one curve,
//    its position-like array ("x", "y", "t", "time", "iteration", "s", else the first) on x;
//  - an array of {"x": n, "y": n} objects is one curve;
//  - any other array of numbers is one curve over its index;
//  - structuredContent.reference.<name> is not a curve of its own but the reference points of
//    the curve <name> (when the result has one).
// Arrays shorter than two points are left out. Pure data; any thread.
struct ResultCurve
{
    QString name;   // path in the structured content: "u_centreline", "history.residual"
    QString xLabel; // "y", "index", ...
    QString yLabel;
    std::vector<QPointF> points;
    // Reference data for this curve (docs/sweeps.md): structuredContent.reference.<name> in the
    // same shape, drawn as markers over the curve; the source names where it comes from.
    std::vector<QPointF> reference;
    QString referenceSource;
};

QList<ResultCurve> resultCurves(const QString &resultJson);

// The curve an engineer looks at first: one with reference data over it, else a profile (a
// position on x), else a series over its index; never one that is only a straight line over its
// index ("residual_history.iteration": 1, 2, 3, ...) while another curve exists. -1 when empty.
int preferredCurve(const QList<ResultCurve> &curves);

} // namespace Eddy
