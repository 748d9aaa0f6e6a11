#pragma once

// A CavitySolver's whole state as bytes (mesh, fields, residual history), with an FNV-1a check
// sum, for resuming a case after a server restart. read() accepts only a snapshot of the same
// case, checked field by field, so a resumed run repeats an uninterrupted one bit for bit. No Qt,
// no I/O. Used by CavitySolver::checkpoint() and restore().

#include "server/solver/cavitysolver.h"

#include <cstdint>
#include <vector>

namespace Eddy::Solver {

class Snapshot final
{
public:
    Snapshot() = delete;

    static std::vector<std::uint8_t> write(const CavitySolver::Impl &state);
    // False on a snapshot of another case (grid, Reynolds number, lid velocity) or a damaged
    // one; `state` is then untouched.
    static bool read(const std::vector<std::uint8_t> &snapshot, CavitySolver::Impl &state);
};

} // namespace Eddy::Solver
