#pragma once

// Renders a task for the wire: the 2026 DetailedTask and the 2025-11-25 flat Task.

#include "server/taskrecord.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace Eddy::Server {

class TaskJson final
{
public:
    static std::string isoTime(std::int64_t epochMs);
    // DetailedTask (2026-07-28): result carries its own resultType "complete".
    static nlohmann::json detailed(const TaskRecord &r, int pollIntervalMs);
    // Task (2025-11-25): ttl / pollInterval, no result.
    static nlohmann::json legacy(const TaskRecord &r, int pollIntervalMs);
    // JSON text of an object without its outer braces, to splice into larger objects.
    static std::string fragment(const nlohmann::json &object);
    static std::string dump(const nlohmann::json &j);
};

} // namespace Eddy::Server
