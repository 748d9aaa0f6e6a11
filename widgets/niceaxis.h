#pragma once

class QValueAxis;

namespace Eddy {

// Keeps a chart axis on NiceTicks: ticks at 1/2/5 x 10^n anchored on a multiple of the step, and
// labels to the step's precision, now and after every range change (zoom, pan, new data).
void keepTicksNice(QValueAxis *axis, int approxCount = 5);

// Sets an axis' range without a moment of a step meant for another range: Qt Charts lays the
// labels out on every setter, and the old step over a range a million times wider would make a
// million labels. Use it for every range change a kept-nice axis gets from code.
void setNiceRange(QValueAxis *axis, double min, double max);

} // namespace Eddy
