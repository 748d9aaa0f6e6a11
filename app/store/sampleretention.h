#pragma once

#include <QtGlobal>

#include <optional>

namespace Eddy::Store {

class TaskStore;

// What thinning the progress samples of old runs would do: runs finished before the cutoff,
// their samples, how many of those would go, and every sample stored.
struct SampleThinning
{
    qint64 runs = 0;
    qint64 samples = 0;
    qint64 removable = 0;
    qint64 total = 0;
};

// Thinning the progress samples of old runs, only ever on the engineer's word (eddyctl samples
// thin; docs/performance.md, "A year of sweeps"): of the runs finished before finishedBeforeMs,
// each series keeps every keepOneIn-th sample in stored order, and its first and last. Results
// (with their residual histories), events and questions are never touched. The store's thread.
class SampleRetention final
{
public:
    // What thin() would remove; nullopt on error (the store's lastError()).
    static std::optional<SampleThinning> plan(TaskStore &store, qint64 finishedBeforeMs, int keepOneIn);
    // Removes it in one transaction; how many samples went, nullopt on error.
    static std::optional<qint64> thin(TaskStore &store, qint64 finishedBeforeMs, int keepOneIn);
};

} // namespace Eddy::Store
