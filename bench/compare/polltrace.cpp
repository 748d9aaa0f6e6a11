#include "polltrace.h"

#include <QHash>
#include <QList>

#include <algorithm>
#include <cstdio>

namespace Bench {

namespace {

constexpr qint64 kDayMs = 24LL * 3600 * 1000;

// "HH:MM:SS.mmm" at the start of a line: ms of the day, or -1.
qint64 msOfDay(const QByteArray &line)
{
    if (line.size() < 12 || line[2] != ':' || line[5] != ':' || line[8] != '.')
        return -1;
    bool ok[4] = {};
    const int h = line.mid(0, 2).toInt(&ok[0]);
    const int m = line.mid(3, 2).toInt(&ok[1]);
    const int s = line.mid(6, 2).toInt(&ok[2]);
    const int ms = line.mid(9, 3).toInt(&ok[3]);
    if (!(ok[0] && ok[1] && ok[2] && ok[3]))
        return -1;
    return ((h * 60LL + m) * 60 + s) * 1000 + ms;
}

} // namespace

void readServerPolls(const QByteArray &serverLog,
                     qint64 fromMs,
                     qint64 toMs,
                     std::vector<TracedTask> &tasks)
{
    static const QByteArray marker("eddy.server debug: tasks/get ");
    QHash<QByteArray, QList<int>> byPrefix; // the server's redaction: the first six bytes
    for (int i = 0; i < int(tasks.size()); ++i) {
        tasks[i].pollsMs.clear();
        byPrefix[tasks[i].serverTaskId.toUtf8().left(6)] << i;
    }
    const qint64 day = fromMs - fromMs % kDayMs;
    for (const QByteArray &line : serverLog.split('\n')) {
        const int at = line.indexOf(marker);
        if (at < 0)
            continue;
        qint64 t = msOfDay(line);
        if (t < 0)
            continue;
        t += day;
        if (t < fromMs - kDayMs / 2) // the window crossed midnight (UTC)
            t += kDayMs;
        if (t < fromMs || t > toMs)
            continue;
        const auto it = byPrefix.constFind(line.mid(at + marker.size(), 6));
        if (it == byPrefix.constEnd())
            continue;
        for (const int i : *it) // a shared prefix: each of its tasks gets the poll (flagged)
            tasks[size_t(i)].pollsMs.push_back(t);
    }
}

TraceSummary summarize(const std::vector<TracedTask> &tasks, qint64 fromMs, qint64 toMs)
{
    TraceSummary s;
    QHash<QByteArray, int> prefixes;
    for (const TracedTask &t : tasks)
        ++prefixes[t.serverTaskId.toUtf8().left(6)];
    for (const TracedTask &t : tasks) {
        s.ambiguous += prefixes.value(t.serverTaskId.toUtf8().left(6)) > 1 ? 1 : 0;
        s.polls += qint64(t.pollsMs.size());
        s.ended += t.endedAtMs ? 1 : 0;
        if (t.intervalChanged) {
            // Its gaps belong to two intervals, and the log does not say which poll brought
            // the new one.
            ++s.changed;
            continue;
        }
        if (t.intervalMs <= 0)
            continue;
        const double interval = double(t.intervalMs);
        const double window = double(std::clamp(t.endedAtMs.value_or(toMs), fromMs, toMs) - fromMs);
        if (t.pollsMs.size() < 2) {
            // Not a gap to measure: a task polled at most once in a window of many intervals is
            // all shortfall (the window minus the one interval it may have been due in).
            ++s.tasksUnderTwo;
            s.gapImplied += std::max(0.0, window / interval - 1.0);
            continue;
        }
        const double first = double(t.pollsMs.front() - fromMs);
        const double last = double(t.pollsMs.back() - fromMs);
        // Edge gaps up to one interval are where the window happened to open and close; beyond
        // that they are time the task went unpolled.
        const double span = (last - first) + std::max(0.0, first - interval)
                            + std::max(0.0, (window - last) - interval);
        s.gaps += double(t.pollsMs.size() - 1);
        s.gapImplied += span / interval;
    }
    return s;
}

void printTrace(const char *label, const std::vector<TracedTask> &tasks, qint64 fromMs, qint64 toMs)
{
    int n = 0;
    for (const TracedTask &t : tasks) {
        ++n;
        if (t.pollsMs.empty()) {
            std::printf("  %s task %2d: interval %5lld ms, no poll in the window\n",
                        label,
                        n,
                        static_cast<long long>(t.intervalMs));
            continue;
        }
        qint64 lo = 0, hi = 0;
        for (size_t i = 1; i < t.pollsMs.size(); ++i) {
            const qint64 g = t.pollsMs[i] - t.pollsMs[i - 1];
            lo = i == 1 ? g : std::min(lo, g);
            hi = std::max(hi, g);
        }
        const double mean = t.pollsMs.size() > 1 ? double(t.pollsMs.back() - t.pollsMs.front())
                                                       / double(t.pollsMs.size() - 1)
                                                 : 0;
        const qint64 until = std::clamp(t.endedAtMs.value_or(toMs), fromMs, toMs);
        std::printf("  %s task %2d: interval %5lld ms%s, %3zu polls (its time in the window "
                    "implies %.1f), first +%lld ms, last %lld ms before the %s, gaps %lld / %.1f "
                    "/ %lld ms\n",
                    label,
                    n,
                    static_cast<long long>(t.intervalMs),
                    t.intervalChanged ? " (changed in the window)" : "",
                    t.pollsMs.size(),
                    double(until - fromMs) / double(t.intervalMs),
                    static_cast<long long>(t.pollsMs.front() - fromMs),
                    static_cast<long long>(until - t.pollsMs.back()),
                    t.endedAtMs ? "task ended" : "end",
                    static_cast<long long>(lo),
                    mean,
                    static_cast<long long>(hi));
    }
    std::fflush(stdout);
}

} // namespace Bench
