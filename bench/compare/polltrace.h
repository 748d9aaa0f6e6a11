// Per-task poll times for bench_compare discipline, read from eddy-cfd-server's debug log: at
// --log-level debug the server writes one line per tasks/get ("HH:MM:SS.mmm eddy.server debug:
// tasks/get abcdef…", UTC, the id cut to its first six characters), in both eras.
//
// Polls per implied poll are taken from the gaps between each task's consecutive polls inside
// the window: Σ (polls − 1) over Σ (last − first) / interval. Counting every poll in the window
// against window / interval depends on where the edges fall: the engine puts all tasks of one
// interval on a few lattice slots (the 10 parked tasks share one), so an edge a few milliseconds
// either side of a slot adds or drops a poll for all of them at once, ±8 % at 2,000 ms. A gap
// longer than one interval before a task's first poll or after its last still counts against
// it, so a task that stops being polled inside the window lowers the ratio. A task that ends in
// the window is measured up to its end; one whose interval changes is left out and counted (the
// log does not say which poll brought the new interval).
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace Bench {

struct TracedTask
{
    QString serverTaskId;  // used only to match the server's redacted id; never printed
    qint64 intervalMs = 0; // the interval the server asks of this task (clamped like the engine)
    // When the task ended inside the window (its stored finish time): it is measured up to then.
    std::optional<qint64> endedAtMs;
    bool intervalChanged = false; // its interval at the window's end was another one
    std::vector<qint64> pollsMs;  // epoch ms of each tasks/get the server logged in the window
};

struct TraceSummary
{
    qint64 polls = 0;      // tasks/get logged for these tasks inside the window
    double gaps = 0;       // Σ (polls − 1) over tasks with two polls or more
    double gapImplied = 0; // Σ (covered span / interval), long edge gaps included
    int tasksUnderTwo = 0; // tasks with fewer than two polls in the window
    int ended = 0;         // tasks that ended inside the window (measured while live)
    int changed = 0;       // tasks whose interval changed (left out: a transition)
    int ambiguous = 0;     // tasks whose six-character prefix another task shares
    double ratio() const { return gapImplied > 0 ? gaps / gapImplied : 0; }
};

// Fills each task's pollsMs from the server log for [fromMs, toMs] (epoch ms; the log's
// time-of-day stamps are placed on the day of fromMs, one day later when that is nearer).
void readServerPolls(const QByteArray &serverLog,
                     qint64 fromMs,
                     qint64 toMs,
                     std::vector<TracedTask> &tasks);

TraceSummary summarize(const std::vector<TracedTask> &tasks, qint64 fromMs, qint64 toMs);

// One line per task for --trace-polls: interval, polls, first and last poll from the window's
// edges, smallest / mean / largest gap (no task id: they are bearer secrets).
void printTrace(const char *label,
                const std::vector<TracedTask> &tasks,
                qint64 fromMs,
                qint64 toMs);

} // namespace Bench
