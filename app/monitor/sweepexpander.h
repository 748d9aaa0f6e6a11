#pragma once

#include "app/monitor/sweepspec.h"

#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace Eddy::Monitor {

// Turns a SweepSpec into the argument objects of its cases (grid product or Latin hypercube)
// and checks every case against the tool's inputSchema before anything is sent. Pure; any thread.
class SweepExpander final
{
public:
    // Hard limit so a typo (step 0.0001) cannot journal millions of cases.
    static constexpr int MaxCases = 100000;

    // The argument objects, in a stable order; nullopt with *errors naming every unknown key or
    // schema violation (at most a few per problem kind).
    static std::optional<std::vector<nlohmann::json>> expand(const SweepSpec &spec,
                                                             const nlohmann::json &inputSchema,
                                                             QStringList *errors);
    // Latin hypercube: n points in [0,1)^dims, one per stratum on every axis; deterministic in seed.
    static std::vector<std::vector<double>> latinHypercube(int n, int dims, quint64 seed);
};

} // namespace Eddy::Monitor
