#pragma once

#include <QList>
#include <QString>

namespace Eddy {

// Ticks for a linear axis at a step a reader can count in: 1, 2 or 5 x 10^n. Values are exact
// multiples of the step (computed as k x step, not summed, so 0.3 stays 0.3), and labels carry
// just the digits the step needs: 0.25 steps print "0.25", 0.5 steps "1.5", 200 steps "1400".
// Very large or small values use e-notation. Plain data; any thread.
struct NiceTicks
{
    double step = 0;
    int decimals = 0; // digits after the point (of the mantissa, when scientific)
    bool scientific = false;
    QList<double> values; // every multiple of step within [from, to], ascending

    // Ticks for [from, to] with about approxCount intervals; empty for a bad range.
    static NiceTicks forRange(double from, double to, int approxCount = 5);

    bool isValid() const { return step > 0; }
    // A tick value as text, to the step's precision ("-0" prints as "0").
    QString label(double value) const;
    // The same format for QValueAxis::setLabelFormat ("%.2f", "%.1e").
    QString printfFormat() const;
};

} // namespace Eddy
