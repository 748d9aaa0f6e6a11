#pragma once

// Ghia, Ghia & Shin (1982): the lid-driven cavity's published centreline velocities, the
// solver's validation target and the sample points of a case's result (server/solver/).

#include <vector>

namespace Eddy::Solver {

struct GhiaTable
{
    std::vector<double> y, u; // vertical centreline
    std::vector<double> x, v; // horizontal centreline
};

// Re = 100, 400, 1000 (tables I and II as published); returns false for other values.
bool ghiaReference(int reynolds, GhiaTable &out);

} // namespace Eddy::Solver
