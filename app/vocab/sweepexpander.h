#pragma once

#include "app/vocab/sweepspec.h"

#include <QList>
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

    // One problem of a spec's own arguments, tied to the argument it concerns.
    struct Problem
    {
        QString key;      // the argument named in the file ("max_iteration")
        QString argument; // the tool's argument to fix it in ("max_iterations"); empty if none
        QString text;     // the sentence: which key, what value, what the tool expects
    };
    // The spec's fixed values and varied names against the tool's inputSchema, key by key: an
    // argument the tool does not have (with the likeliest one meant), a fixed value of the wrong
    // type or out of range (with what the tool expects), Eddy's own idempotency_key. The one
    // check behind eddyctl's submit and the window's Open Sweep; expand() runs it first.
    static QList<Problem> checkArguments(const SweepSpec &spec, const nlohmann::json &inputSchema);
    // What a property's schema accepts, in words: "an integer from 8 to 1024".
    static QString expects(const nlohmann::json &propertySchema);

    // The argument objects, in a stable order; nullopt with *errors naming every unknown key or
    // schema violation (at most a few per problem kind).
    static std::optional<std::vector<nlohmann::json>> expand(const SweepSpec &spec,
                                                             const nlohmann::json &inputSchema,
                                                             QStringList *errors);
    // Latin hypercube: n points in [0,1)^dims, one per stratum on every axis; deterministic in seed.
    static std::vector<std::vector<double>> latinHypercube(int n, int dims, quint64 seed);
};

} // namespace Eddy::Monitor
