#include "app/monitor/samplethinner.h"

#include "app/monitor/engine.h"

namespace Eddy::Monitor {

std::optional<Store::SampleThinning> SampleThinner::plan(Engine &engine, qint64 finishedBeforeMs, int keepOneIn)
{
    if (!engine.isOpen())
        return std::nullopt;
    return Store::SampleRetention::plan(engine.store(), finishedBeforeMs, keepOneIn);
}

std::optional<qint64> SampleThinner::thin(Engine &engine, qint64 finishedBeforeMs, int keepOneIn)
{
    if (!engine.isOpen() || engine.isReadOnly())
        return std::nullopt;
    return Store::SampleRetention::thin(engine.store(), finishedBeforeMs, keepOneIn);
}

} // namespace Eddy::Monitor
