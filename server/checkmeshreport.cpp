#include "server/checkmeshreport.h"

#include "server/foamtext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace Eddy::Server {

using nlohmann::json;

namespace {

using FoamText::numberAfter;
using FoamText::trim;

// The first whole number in s, or -1.
long long firstCount(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] >= '0' && s[i] <= '9')
            return std::strtoll(std::string(s.substr(i, 20)).c_str(), nullptr, 10);
    }
    return -1;
}

// "Max skewness = 8.2, 11 highly ..." -> "Max skewness"; "Zero or negative cell volume
// detected." -> "Zero or negative cell volume detected".
std::string checkName(std::string_view line)
{
    const auto cut = line.find_first_of("0123456789=:,(.<");
    return std::string(trim(line.substr(0, cut)));
}

std::string fmt(double v, const char *format)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

double numberOf(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : CheckMeshReport::kNone;
}

} // namespace

CheckMeshReport CheckMeshReport::parse(std::string_view log)
{
    CheckMeshReport r;
    std::size_t start = 0;
    while (start < log.size()) {
        std::size_t end = log.find('\n', start);
        if (end == std::string_view::npos)
            end = log.size();
        const std::string_view s = trim(log.substr(start, end - start));
        start = end + 1;
        if (s.rfind("cells:", 0) == 0 && r.cells < 0) {
            r.cells = firstCount(s);
        } else if (s.rfind("Mesh non-orthogonality Max:", 0) == 0) {
            r.maxNonOrthogonality = numberAfter(s, "Max:");
            r.averageNonOrthogonality = numberAfter(s, "average:");
        } else if (s.rfind("*Number of severely non-orthogonal", 0) == 0) {
            const auto colon = s.rfind(':');
            if (colon != std::string_view::npos)
                r.severelyNonOrthogonalFaces = firstCount(s.substr(colon));
        } else if (s.rfind("Max skewness =", 0) == 0 || s.rfind("***Max skewness =", 0) == 0) {
            r.maxSkewness = numberAfter(s, "=");
            const auto comma = s.find(',');
            if (comma != std::string_view::npos)
                r.highlySkewFaces = std::max(0LL, firstCount(s.substr(comma)));
        } else if (s == "Mesh OK.") {
            r.ok = true;
            r.complete = true;
        } else if (s.rfind("Failed ", 0) == 0 && s.find("mesh check") != std::string_view::npos) {
            r.failedChecks = int(std::max(0LL, firstCount(s)));
            r.complete = true;
        }
        if (s.rfind("***", 0) == 0) {
            const std::string_view body = trim(s.substr(s.find_first_not_of('*')));
            r.failures.push_back({checkName(body), std::string(body.substr(0, 300))});
        }
    }
    if (r.ok)
        r.failures.clear(); // "***" lines of an OK mesh are warnings checkMesh did not count
    return r;
}

std::string CheckMeshReport::summary() const
{
    std::string checks;
    for (const Failure &f : failures)
        checks += (checks.empty() ? "" : ", ") + f.check;
    std::string out = ok ? std::string("checkMesh passed")
                         : "checkMesh failed " + std::to_string(failedChecks)
                               + (failedChecks == 1 ? " check" : " checks")
                               + (checks.empty() ? "" : " (" + checks + ")");
    if (cells >= 0)
        out += " on " + std::to_string(cells) + " cells";
    std::string numbers;
    if (std::isfinite(maxNonOrthogonality)) {
        numbers = "max non-orthogonality " + fmt(maxNonOrthogonality, "%.1f") + " (average "
                  + fmt(averageNonOrthogonality, "%.1f") + ", "
                  + std::to_string(severelyNonOrthogonalFaces)
                  + " severely non-orthogonal faces)";
    }
    if (std::isfinite(maxSkewness)) {
        numbers += (numbers.empty() ? "" : ", ") + std::string("max skewness ")
                   + fmt(maxSkewness, "%.3g") + " (" + std::to_string(highlySkewFaces)
                   + " highly skew faces)";
    }
    if (!numbers.empty())
        out += ": " + numbers;
    return out + ".";
}

json CheckMeshReport::toJson() const
{
    json failed = json::array();
    for (const Failure &f : failures)
        failed.push_back({{"check", f.check}, {"line", f.line}});
    return {{"ok", ok},
            {"failed_checks", failedChecks},
            {"cells", cells},
            {"max_non_orthogonality", number(maxNonOrthogonality)},
            {"average_non_orthogonality", number(averageNonOrthogonality)},
            {"severely_non_orthogonal_faces", severelyNonOrthogonalFaces},
            {"max_skewness", number(maxSkewness)},
            {"highly_skew_faces", highlySkewFaces},
            {"failures", failed}};
}

CheckMeshReport CheckMeshReport::fromJson(const json &j)
{
    CheckMeshReport r;
    if (!j.is_object())
        return r;
    r.complete = true;
    r.ok = j.value("ok", false);
    r.failedChecks = j.value("failed_checks", 0);
    r.cells = j.value("cells", -1LL);
    r.maxNonOrthogonality = numberOf(j, "max_non_orthogonality");
    r.averageNonOrthogonality = numberOf(j, "average_non_orthogonality");
    r.severelyNonOrthogonalFaces = j.value("severely_non_orthogonal_faces", 0LL);
    r.maxSkewness = numberOf(j, "max_skewness");
    r.highlySkewFaces = j.value("highly_skew_faces", 0LL);
    if (const auto it = j.find("failures"); it != j.end() && it->is_array()) {
        for (const json &f : *it)
            if (f.is_object())
                r.failures.push_back({f.value("check", ""), f.value("line", "")});
    }
    return r;
}

} // namespace Eddy::Server
