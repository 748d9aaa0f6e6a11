#pragma once

#include "app/store/records.h"

#include <QList>
#include <QString>

#include <optional>

namespace Eddy::Monitor {

// From a task's samples: fraction done, ETA and a convergence verdict (rule in docs/sweeps.md).
// Pure; any thread.
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
