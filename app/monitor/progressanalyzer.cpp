#include "app/monitor/progressanalyzer.h"
#include "app/monitor/progressparser.h"

#include <cmath>
#include <vector>

namespace Eddy::Monitor {

QString ProgressAnalyzer::toString(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Converging: return QStringLiteral("converging");
    case Verdict::Stalled: return QStringLiteral("stalled");
    case Verdict::Diverging: return QStringLiteral("diverging");
    case Verdict::Unknown: break;
    }
    return QStringLiteral("unknown");
}

ProgressAnalyzer::Estimate ProgressAnalyzer::analyse(const QList<Store::ProgressSample> &samples)
{
    Estimate e;
    // Latest iteration, its limit, and the first iteration sample for the rate.
    const Store::ProgressSample *firstIt = nullptr;
    const Store::ProgressSample *lastIt = nullptr;
    std::optional<double> maxIt;
    std::optional<double> percent;
    const Store::ProgressSample *firstPct = nullptr;
    const Store::ProgressSample *lastPct = nullptr;
    std::vector<std::pair<double, double>> residuals; // (x, log10 y)
    bool blewUp = false;
    for (const Store::ProgressSample &s : samples) {
        if (s.series == ProgressParser::Iteration) {
            if (!firstIt)
                firstIt = &s;
            lastIt = &s;
        } else if (s.series == ProgressParser::MaxIterations) {
            maxIt = s.y;
        } else if (s.series == ProgressParser::Percent) {
            if (!firstPct)
                firstPct = &s;
            lastPct = &s;
            percent = s.y;
        } else if (s.series == ProgressParser::Residual) {
            e.residual = s.y;
            if (!std::isfinite(s.y)) {
                blewUp = true;
            } else if (s.y > 0) {
                // A repeated message (same x) adds nothing to the trend.
                if (residuals.empty() || residuals.back().first != s.x)
                    residuals.emplace_back(s.x, std::log10(s.y));
            }
        }
    }
    if (lastIt && maxIt && *maxIt > 0)
        e.fraction = std::clamp(lastIt->y / *maxIt, 0.0, 1.0);
    else if (percent)
        e.fraction = std::clamp(*percent / 100.0, 0.0, 1.0);

    if (lastIt && maxIt && firstIt && lastIt->atMs > firstIt->atMs && lastIt->y > firstIt->y) {
        const double rate = (lastIt->y - firstIt->y) / double(lastIt->atMs - firstIt->atMs); // it/ms
        e.etaMs = qint64(std::max(0.0, (*maxIt - lastIt->y) / rate));
    } else if (lastPct && firstPct && lastPct->atMs > firstPct->atMs && lastPct->y > firstPct->y) {
        const double rate = (lastPct->y - firstPct->y) / double(lastPct->atMs - firstPct->atMs);
        e.etaMs = qint64(std::max(0.0, (100.0 - lastPct->y) / rate));
    }

    if (blewUp) {
        e.verdict = Verdict::Diverging;
        return e;
    }
    if (residuals.size() >= 3) {
        const size_t n = std::min<size_t>(residuals.size(), WindowSamples);
        const auto begin = residuals.end() - qsizetype(n);
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (auto it = begin; it != residuals.end(); ++it) {
            sx += it->first;
            sy += it->second;
            sxx += it->first * it->first;
            sxy += it->first * it->second;
        }
        const double denom = double(n) * sxx - sx * sx;
        if (denom > 0) {
            const double slope = (double(n) * sxy - sx * sy) / denom * 1000.0; // decades / 1000 x
            e.slope = slope;
            if (slope < -StallSlope)
                e.verdict = Verdict::Converging;
            else if (slope > StallSlope)
                e.verdict = Verdict::Diverging;
            else
                e.verdict = Verdict::Stalled;
        }
    }
    return e;
}

} // namespace Eddy::Monitor
