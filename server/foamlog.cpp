#include "server/foamlog.h"

#include "server/cfdtool.h"
#include "server/foamtext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace Eddy::Server {

namespace {

using FoamText::numberAfter;
using FoamText::numberAt;
using FoamText::startsWith;
using FoamText::trim;

// Plain digits where they read well ("0.25", "12.5"), else e-notation.
std::string fixedOrSci(double v, int digits = 6)
{
    char buf[64];
    if (v != 0 && (std::fabs(v) < 1e-3 || std::fabs(v) >= 1e6))
        return CfdTool::sci(v, digits > 3 ? 2 : 1);
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

} // namespace

double FoamLog::Step::largestResidual() const
{
    double largest = kNone;
    for (const auto &[field, value] : residuals) {
        if (!std::isfinite(value))
            return std::numeric_limits<double>::infinity();
        if (std::isnan(largest) || value > largest)
            largest = value;
    }
    return largest;
}

void FoamLog::feed(std::string_view text)
{
    m_partial.append(text);
    std::size_t start = 0;
    for (std::size_t nl = m_partial.find('\n'); nl != std::string::npos;
         nl = m_partial.find('\n', start)) {
        line(std::string_view(m_partial).substr(start, nl - start));
        start = nl + 1;
    }
    m_partial.erase(0, start);
}

void FoamLog::finishStep()
{
    m_finished = m_current;
    m_hasFinished = true;
    keep(m_current);
}

void FoamLog::startStep(double time)
{
    m_current = Step();
    m_current.time = time;
    if (m_steps == 0)
        m_firstTime = time;
    ++m_steps;
}

void FoamLog::keep(const Step &step)
{
    if ((std::size_t(m_steps) - 1) % m_historyStride != 0)
        return;
    m_history.push_back(step);
    if (m_history.size() <= kMaxHistory)
        return;
    // Halve: keep every other point and sample half as often from now on.
    std::vector<Step> thinned;
    thinned.reserve(m_history.size() / 2 + 1);
    for (std::size_t i = 0; i < m_history.size(); i += 2)
        thinned.push_back(std::move(m_history[i]));
    m_history = std::move(thinned);
    m_historyStride *= 2;
}

void FoamLog::line(std::string_view raw)
{
    const std::string_view s = trim(raw);
    if (m_fatalNext) {
        if (!s.empty()) {
            m_fatal += ": " + std::string(s.substr(0, 300));
            m_fatalNext = false;
        }
        return;
    }
    if (startsWith(s, "Time = ")) {
        startStep(numberAt(s.substr(7)));
        return;
    }
    if (startsWith(s, "Courant Number mean:")) {
        m_current.courantMean = numberAfter(s, "mean:");
        m_current.courantMax = numberAfter(s, "max:");
        return;
    }
    if (const auto solving = s.find("Solving for "); solving != std::string_view::npos) {
        std::string_view rest = s.substr(solving + 12);
        const auto comma = rest.find(',');
        if (comma == std::string_view::npos)
            return;
        const std::string field(trim(rest.substr(0, comma)));
        const auto init = rest.find("Initial residual = ");
        if (init == std::string_view::npos)
            return;
        rest = rest.substr(init + 19);
        std::vector<std::pair<std::string, double>> values;
        if (!rest.empty() && rest.front() == '(') {
            // A coupled vector solve: "(1 0.5 0)" for x, y, z.
            static const char *const axes[] = {"x", "y", "z"};
            std::string_view inner = rest.substr(1, rest.find(')') - 1);
            for (int k = 0; k < 3 && !trim(inner).empty(); ++k) {
                std::size_t used = 0;
                const double v = numberAt(inner, &used);
                values.emplace_back(field + axes[k], v);
                inner = inner.substr(std::min(used, inner.size()));
            }
        } else {
            values.emplace_back(field, numberAt(rest));
        }
        for (auto &[name, value] : values) {
            bool seen = false;
            for (const auto &[known, v] : m_current.residuals)
                seen = seen || known == name;
            if (!seen)
                m_current.residuals.emplace_back(std::move(name), value);
        }
        return;
    }
    if (startsWith(s, "time step continuity errors")) {
        m_current.continuity = numberAfter(s, "sum local =");
        return;
    }
    if (startsWith(s, "ExecutionTime = ")) {
        m_current.executionSeconds = numberAt(s.substr(16));
        finishStep();
        return;
    }
    if (s == "End") {
        m_ended = true;
        return;
    }
    if (const auto at = s.find("solution converged in "); at != std::string_view::npos) {
        const double n = numberAt(s.substr(at + 22));
        if (std::isfinite(n))
            m_convergedIterations = int(n);
        return;
    }
    if (m_fatal.empty() && startsWith(s, "--> FOAM FATAL")) {
        m_fatal = std::string(s.substr(4));
        while (!m_fatal.empty() && (m_fatal.back() == ':' || m_fatal.back() == ' '))
            m_fatal.pop_back();
        m_fatalNext = true;
    }
}

const FoamLog::Step &FoamLog::latest() const
{
    return m_hasFinished ? m_finished : m_current;
}

std::string FoamLog::fieldList(const Step &step)
{
    if (step.residuals.empty())
        return {};
    std::string out = " (";
    for (std::size_t i = 0; i < step.residuals.size(); ++i) {
        if (i)
            out += ", ";
        out += step.residuals[i].first + " " + CfdTool::sci(step.residuals[i].second);
    }
    return out + ")";
}

std::string FoamLog::progress(bool steady, double endTime, double deltaT) const
{
    const Step &step = latest();
    if (std::isnan(step.time))
        return "starting";
    std::string out;
    if (steady) {
        const double dt = deltaT > 0 ? deltaT : 1.0;
        out = "iteration " + std::to_string(std::llround(step.time / dt));
        if (endTime > 0)
            out += " of " + std::to_string(std::llround(endTime / dt));
    } else {
        out = "time = " + fixedOrSci(step.time);
        if (endTime > 0) {
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.0f", std::clamp(100.0 * step.time / endTime, 0.0, 100.0));
            out += " of " + fixedOrSci(endTime) + " (" + pct + "%)";
        }
    }
    if (!step.residuals.empty())
        out += ", residual " + CfdTool::sci(step.largestResidual()) + fieldList(step);
    if (!steady && !std::isnan(step.courantMax))
        out += ", Courant max " + fixedOrSci(step.courantMax, 3);
    if (!std::isnan(step.continuity))
        out += ", continuity " + CfdTool::sci(step.continuity);
    if (!std::isnan(step.executionSeconds))
        out += ", execution " + fixedOrSci(step.executionSeconds, 3) + " s";
    return out;
}

} // namespace Eddy::Server
