#include "server/openstreams.h"

#include "server/pollstats.h"
#include "server/sse.h"
#include "server/taskmanager.h"

namespace Eddy::Server {

void OpenStreams::beginShutdown()
{
    m_shuttingDown = true;
    const std::lock_guard lock(m_mutex);
    for (const auto &channel : m_channels)
        channel->close();
}

void OpenStreams::add(const std::shared_ptr<SseChannel> &channel)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_channels.insert(channel).second)
            PollStats::streamOpened();
    }
    m_tasks.fanout().add(channel);
}

void OpenStreams::remove(const std::shared_ptr<SseChannel> &channel)
{
    m_tasks.fanout().remove(channel);
    const std::lock_guard lock(m_mutex);
    if (m_channels.erase(channel))
        PollStats::streamClosed();
}

} // namespace Eddy::Server
