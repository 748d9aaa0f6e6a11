#pragma once

#include "app/vocab/records.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Eddy::Monitor {

// What became of a task, as an engineer reads it: the status plus whether a completed run is a
// tool error and whether it converged. One classification for the table, the sweep table, the
// plot, the status bar and the exports (colours live in models/outcomepalette). Pure; any thread.
enum class Outcome {
    Working,
    NeedsInput,
    Converged,    // completed, and the result (or the progress) says it converged
    Completed,    // completed successfully; nothing says whether it converged
    NotConverged, // completed, but stopped short of convergence (e.g. at the iteration limit)
    ToolError,    // completed with isError: true
    Failed,
    Cancelled,
    Expired,
    Lost
};

class OutcomeText final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::OutcomeText)

public:
    // The word shown in tables and the status bar ("Completed – not converged").
    static QString label(Outcome outcome);
    // A stable token for exports and scripts: "converged", "not_converged", "tool_error", ...
    static QString key(Outcome outcome);
};

// The `converged` boolean of a CallToolResult's structuredContent, if it has one. A cheap scan
// (no full parse): results can be large and the table classifies every stored task.
std::optional<bool> convergedOf(const QString &resultJson);

// The task's outcome. `converged` comes from convergedOf() of its result; when it is empty, a
// completed run whose last parsed iteration reached its limit counts as not converged.
Outcome outcomeOf(const Store::TaskRecord &task, std::optional<bool> converged,
                  bool reachedIterationLimit = false);
inline Outcome outcomeOf(const Store::TaskRecord &task)
{
    return outcomeOf(task, convergedOf(task.result));
}

// True for the outcomes that count as success (the only green ones).
inline bool isSuccess(Outcome o)
{
    return o == Outcome::Converged || o == Outcome::Completed;
}

} // namespace Eddy::Monitor
