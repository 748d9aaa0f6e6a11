#include "app/mcp/discoverinfo.h"

#include "app/vocab/jsonfield.h"

namespace Eddy::Mcp {

using nlohmann::json;

DiscoverInfo DiscoverInfo::fromDiscoverResult(const json &result)
{
    DiscoverInfo info;
    info.era = Era::Modern;
    info.protocolVersion = QString::fromLatin1(kModernVersion);
    const json versions = result.value("supportedVersions", json::array());
    if (versions.is_array())
        for (const json &v : versions)
            if (v.is_string())
                info.supportedVersions << QString::fromStdString(v.get<std::string>());
    const json caps = result.value("capabilities", json::object());
    info.capabilities = caps.is_object() ? caps : json::object();
    const json meta = result.value("_meta", json::object());
    const json serverInfo = meta.is_object()
                                ? meta.value("io.modelcontextprotocol/serverInfo", json::object())
                                : json::object();
    info.serverName = Json::string(serverInfo, "name");
    info.serverVersion = Json::string(serverInfo, "version");
    info.instructions = Json::string(result, "instructions");
    const auto ttl = result.find("ttlMs");
    info.ttlMs = ttl != result.end() && ttl->is_number_integer() ? ttl->get<qint64>() : 0;
    info.fetchedAt = QDateTime::currentDateTimeUtc();
    return info;
}

DiscoverInfo DiscoverInfo::fromInitializeResult(const json &result, const QString &version)
{
    DiscoverInfo info;
    info.era = Era::Legacy;
    info.protocolVersion = version;
    info.supportedVersions = {version};
    const json caps = result.value("capabilities", json::object());
    info.capabilities = caps.is_object() ? caps : json::object();
    const json serverInfo = result.value("serverInfo", json::object());
    info.serverName = Json::string(serverInfo, "name");
    info.serverVersion = Json::string(serverInfo, "version");
    info.instructions = Json::string(result, "instructions");
    info.fetchedAt = QDateTime::currentDateTimeUtc();
    return info;
}

bool DiscoverInfo::offersTasks() const
{
    if (!capabilities.is_object())
        return false;
    if (era == Era::Legacy) {
        const auto tasks = capabilities.find("tasks");
        if (tasks == capabilities.end() || !tasks->is_object())
            return false;
        const auto requests = tasks->find("requests");
        if (requests == tasks->end() || !requests->is_object())
            return false;
        const auto tools = requests->find("tools");
        return tools != requests->end() && tools->is_object() && tools->contains("call");
    }
    const auto ext = capabilities.find("extensions");
    return ext != capabilities.end() && ext->is_object() && ext->contains(kTasksExtension);
}

} // namespace Eddy::Mcp
