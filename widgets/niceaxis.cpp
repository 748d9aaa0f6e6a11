#include "widgets/niceaxis.h"

#include "models/niceticks.h"

#include <QValueAxis>

namespace Eddy {

namespace {

const char *const s_approxProperty = "eddyNiceTicks";

void applyNiceTicks(QValueAxis *axis, int approxCount)
{
    const NiceTicks ticks = NiceTicks::forRange(axis->min(), axis->max(), approxCount);
    // Fixed (a handful of ticks) while anchor and step change, so no intermediate state pairs
    // a step with a range it was not made for.
    axis->setTickType(QValueAxis::TicksFixed);
    if (!ticks.isValid() || ticks.values.isEmpty())
        return;
    axis->setTickAnchor(ticks.values.first());
    axis->setTickInterval(ticks.step);
    axis->setLabelFormat(ticks.printfFormat());
    axis->setTickType(QValueAxis::TicksDynamic);
}

} // namespace

void keepTicksNice(QValueAxis *axis, int approxCount)
{
    axis->setProperty(s_approxProperty, approxCount);
    applyNiceTicks(axis, approxCount);
    QObject::connect(axis, &QValueAxis::rangeChanged, axis, [axis, approxCount] { applyNiceTicks(axis, approxCount); });
}

void setNiceRange(QValueAxis *axis, double min, double max)
{
    if (axis->min() == min && axis->max() == max)
        return;
    if (axis->property(s_approxProperty).isValid())
        axis->setTickType(QValueAxis::TicksFixed); // rangeChanged makes the ticks nice again
    axis->setRange(min, max);
}

} // namespace Eddy
