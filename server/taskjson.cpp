#include "server/taskjson.h"

#include <ctime>

namespace Eddy::Server {

using nlohmann::json;

std::string TaskJson::isoTime(std::int64_t epochMs)
{
    const std::time_t seconds = std::time_t(epochMs / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[40];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03dZ", int(epochMs % 1000));
    return buf;
}

json TaskJson::detailed(const TaskRecord &r, int pollIntervalMs)
{
    json j = {{"taskId", r.id},
              {"status", statusName(r.status)},
              {"createdAt", isoTime(r.createdMs)},
              {"lastUpdatedAt", isoTime(r.updatedMs)},
              {"ttlMs", r.ttlMs}};
    if (!r.statusMessage.empty())
        j["statusMessage"] = r.statusMessage;
    if (!isTerminal(r.status))
        j["pollIntervalMs"] = pollIntervalMs;
    if (r.status == TaskStatus::InputRequired)
        j["inputRequests"] = r.inputRequests.is_object() ? r.inputRequests : json::object();
    if (r.status == TaskStatus::Completed) {
        json result = r.result.is_object() ? r.result : json{{"content", json::array()}};
        // The ext-tasks requester validates this as a 2026 CallToolResult (protocol doc §6.1).
        result["resultType"] = "complete";
        j["result"] = std::move(result);
    }
    if (r.status == TaskStatus::Failed)
        j["error"] = r.error.is_object() ? r.error
                                         : json{{"code", -32603}, {"message", r.statusMessage}};
    return j;
}

json TaskJson::legacy(const TaskRecord &r, int pollIntervalMs)
{
    json j = {{"taskId", r.id},
              {"status", statusName(r.status)},
              {"createdAt", isoTime(r.createdMs)},
              {"lastUpdatedAt", isoTime(r.updatedMs)},
              {"ttl", r.ttlMs}};
    if (!r.statusMessage.empty())
        j["statusMessage"] = r.statusMessage;
    if (!isTerminal(r.status))
        j["pollInterval"] = pollIntervalMs;
    return j;
}

std::string TaskJson::dump(const json &j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string TaskJson::fragment(const json &object)
{
    std::string s = dump(object);
    if (s.size() >= 2)
        return s.substr(1, s.size() - 2);
    return {};
}

} // namespace Eddy::Server
