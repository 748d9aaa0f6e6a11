#include "app/monitor/progressanalyzer.h"
#include "app/monitor/progressparser.h"

#include <algorithm>
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

void ProgressRate::add(const Store::ProgressSample &s)
{
    if (s.series == ProgressParser::Iteration) {
        if (!m_firstIt)
            m_firstIt = Point{s.atMs, s.y};
        m_lastIt = Point{s.atMs, s.y};
    } else if (s.series == ProgressParser::MaxIterations) {
        m_maxIt = s.y;
    } else if (s.series == ProgressParser::Percent) {
        if (!m_firstPct)
            m_firstPct = Point{s.atMs, s.y};
        m_lastPct = Point{s.atMs, s.y};
    }
}

std::optional<double> ProgressRate::fraction() const
{
    if (m_lastIt && m_maxIt && *m_maxIt > 0)
        return std::clamp(m_lastIt->value / *m_maxIt, 0.0, 1.0);
    if (m_lastPct)
        return std::clamp(m_lastPct->value / 100.0, 0.0, 1.0);
    return std::nullopt;
}

std::optional<qint64> ProgressRate::etaMs() const
{
    const auto left = [](const Point &first, const Point &last, double target) {
        const double rate = (last.value - first.value) / double(last.atMs - first.atMs); // per ms
        return qint64(std::max(0.0, (target - last.value) / rate));
    };
    if (m_lastIt && m_maxIt && m_lastIt->atMs > m_firstIt->atMs && m_lastIt->value > m_firstIt->value)
        return left(*m_firstIt, *m_lastIt, *m_maxIt);
    if (m_lastPct && m_lastPct->atMs > m_firstPct->atMs && m_lastPct->value > m_firstPct->value)
        return left(*m_firstPct, *m_lastPct, 100.0);
    return std::nullopt;
}

qint64 ProgressRate::lastAtMs() const
{
    if (m_lastIt && m_maxIt && m_lastIt->atMs > m_firstIt->atMs && m_lastIt->value > m_firstIt->value)
        return m_lastIt->atMs;
    return m_lastPct ? m_lastPct->atMs : (m_lastIt ? m_lastIt->atMs : 0);
}

ProgressAnalyzer::Estimate ProgressAnalyzer::analyse(const QList<Store::ProgressSample> &samples)
{
    Estimate e;
    ProgressRate rate;
    std::vector<std::pair<double, double>> residuals; // (x, log10 y)
    bool blewUp = false;
    for (const Store::ProgressSample &s : samples) {
        rate.add(s);
        if (s.series == ProgressParser::Residual) {
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
    e.fraction = rate.fraction();
    e.etaMs = rate.etaMs();

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
