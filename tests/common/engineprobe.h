#pragma once

#include "app/monitor/engine.h"

namespace Eddy::Monitor {

// The engine's own database connection, for the tests and benches that must watch that very
// connection (a statement trace, the integrity check it ran at open, what it still follows).
// Everything else reads through Engine::catalogue() or opens the file with a store of its own.
struct EngineProbe
{
    static Store::TaskStore &store(Engine &engine) { return engine.store(); }
};

} // namespace Eddy::Monitor
