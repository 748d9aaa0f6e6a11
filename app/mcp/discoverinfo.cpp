#include "app/mcp/discoverinfo.h"

namespace Eddy::Mcp {

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
