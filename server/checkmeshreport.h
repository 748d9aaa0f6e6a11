#pragma once

// What checkMesh found, read from its log: the cell count, non-orthogonality, skewness and the
// checks it failed ("***" lines, "Failed N mesh checks."). Pure; any thread.

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace Eddy::Server {

struct CheckMeshReport
{
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    bool complete = false;       // the log has checkMesh's verdict ("Mesh OK." or "Failed N")
    bool ok = false;             // "Mesh OK."
    int failedChecks = 0;        // "Failed N mesh checks."
    long long cells = -1;
    double maxNonOrthogonality = kNone;
    double averageNonOrthogonality = kNone;
    long long severelyNonOrthogonalFaces = 0; // "*Number of severely non-orthogonal ... faces: N"
    double maxSkewness = kNone;
    long long highlySkewFaces = 0;
    // Each failed check: its name ("Max skewness") and checkMesh's own line.
    struct Failure
    {
        std::string check;
        std::string line;
    };
    std::vector<Failure> failures;

    static CheckMeshReport parse(std::string_view log);

    // "checkMesh failed 1 check (Max skewness) on 400 cells: max non-orthogonality 82.7
    // (average 70.0, 507 severely non-orthogonal faces), max skewness 8.23 (11 highly skew
    // faces)."
    std::string summary() const;
    nlohmann::json toJson() const;
    static CheckMeshReport fromJson(const nlohmann::json &j);
};

} // namespace Eddy::Server
