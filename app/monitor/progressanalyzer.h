#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QString>

#include <optional>

namespace Eddy::Monitor {

// The one progress/ETA rule, fed a task's samples in the order stored (the task table folds them
// in as they arrive; ProgressAnalyzer::analyse reads a whole history): the fraction done is the
// iteration over its limit, else the percentage; the time left is what remains at the rate from
// the first to the latest iteration sample (else percentage sample). Pure; any thread.
class ProgressRate final
{
public:
    void add(const Store::ProgressSample &sample); // other series than iteration/limit/% are ignored
    std::optional<double> fraction() const;        // 0..1
    std::optional<qint64> etaMs() const;           // at lastAtMs()
    qint64 lastAtMs() const;                       // when the latest sample behind etaMs() was taken

private:
    struct Point
    {
        qint64 atMs = 0;
        double value = 0;
    };
    std::optional<Point> m_firstIt, m_lastIt, m_firstPct, m_lastPct;
    std::optional<double> m_maxIt;
};

// From a task's samples: fraction done, ETA (ProgressRate) and a convergence verdict (rule in
// docs/sweeps.md). Pure; any thread.
class ProgressAnalyzer final
{
public:
    enum class Verdict { Unknown, Converging, Stalled, Diverging };

    struct Estimate
    {
        std::optional<double> fraction;   // 0..1
        std::optional<qint64> etaMs;      // time left at the recent rate
        Verdict verdict = Verdict::Unknown;
        std::optional<double> residual;   // latest overall residual
        std::optional<double> slope;      // decades of residual per 1000 iterations (window)
    };

    // Window of the verdict: the last WindowSamples residual samples.
    static constexpr int WindowSamples = 8;
    // |slope| below this many decades per 1000 iterations counts as stalled.
    static constexpr double StallSlope = 0.02;

    static Estimate analyse(const QList<Store::ProgressSample> &samples);
    static QString toString(Verdict verdict);
};

} // namespace Eddy::Monitor
