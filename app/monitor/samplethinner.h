#pragma once

#include "app/store/sampleretention.h"

namespace Eddy::Monitor {

class Engine;

// eddyctl samples thin over the engine's open database (Store::SampleRetention): what thinning
// would remove, and removing it. Never called by the engine itself. The engine's thread.
class SampleThinner final
{
public:
    // nullopt when the database is not open (or read-only, for thin()) or on error.
    static std::optional<Store::SampleThinning> plan(Engine &engine, qint64 finishedBeforeMs, int keepOneIn);
    static std::optional<qint64> thin(Engine &engine, qint64 finishedBeforeMs, int keepOneIn);
};

} // namespace Eddy::Monitor
