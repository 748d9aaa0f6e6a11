#pragma once

#include <QTest>
#include <QTimer>
#include <QWidget>

namespace Eddy::Test {

// Waits until the layout of `top` and the widgets under it has settled: no short single-shot
// timer under it is still to fire (a debounced column fit, a chart's range update, a preview),
// for a few turns of the event loop in a row (posted layout requests and queued fits run on
// those turns, and a fit may start another timer). A condition, not a fixed time: it returns
// after a few turns on an idle machine and when the work is done on a loaded one. Call it once
// what starts the layout work has happened (the data arrived, the theme changed).
[[nodiscard]] inline bool waitForLayout(const QWidget *top, int ms = 20000)
{
    int quietTurns = 0;
    return QTest::qWaitFor(
        [&] {
            bool pending = false;
            for (const QTimer *t : top->findChildren<QTimer *>())
                pending = pending || (t->isActive() && t->isSingleShot() && t->interval() <= 1000);
            quietTurns = pending ? 0 : quietTurns + 1;
            return quietTurns >= 3;
        },
        ms);
}

} // namespace Eddy::Test
