#pragma once

#include "app/monitor/jobadapter.h"

#include <QCoreApplication>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

// Eddy's guess at a job adapter for a server that offers classic job-id tools instead of (or as
// well as) the Tasks extension. Pure: reads a tools/list array, does no I/O.
struct AdapterProposal
{
    std::optional<JobAdapter> adapter;   // empty when no submit + status family was found
    double confidence = 0;               // 0..1: how sure the guess is
    QStringList why;                     // one sentence per decision (and each doubt)
    QString reason;                      // when there is no adapter: why not, and what to do
};

class AdapterProposer final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::AdapterProposer)

public:
    // `tools`: the tools array of a tools/list result (name, description, inputSchema,
    // outputSchema?).
    static AdapterProposal propose(const nlohmann::json &tools);
};

} // namespace Eddy::Monitor
