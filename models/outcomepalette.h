#pragma once

#include "app/vocab/outcome.h"

#include <QColor>
#include <QString>

namespace Eddy {

// The one palette of task outcomes: colour (light and dark theme), marker and label, used by
// the task table and its delegate, the sweep table and plot, the status bar and the timeline.
// Green is success only; a run that stopped short of convergence is amber, a tool error red.
class OutcomePalette final
{
public:
    using Outcome = Monitor::Outcome;
    enum class Marker { Dot, Diamond, Ring, Cross, Square };

    static QColor color(Outcome outcome, bool dark);
    // The colour for the application's current palette (dark when its window is dark).
    static QColor color(Outcome outcome);
    static Marker marker(Outcome outcome);
    static QString label(Outcome outcome) { return Monitor::OutcomeText::label(outcome); }
    static bool isDarkPalette();
};

} // namespace Eddy
