#include "server/sse.h"

namespace Eddy::Server {

void SseChannel::push(std::string payload)
{
    {
        const std::lock_guard lock(m_mutex);
        // A stalled reader must not grow memory without bound: keep the newest events.
        if (!payload.empty()) {
            if (m_queue.size() >= 1000)
                m_queue.pop_front();
            m_queue.push_back(std::move(payload));
        }
        m_changed = true;
    }
    m_cv.notify_all();
}

void SseChannel::close()
{
    {
        const std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_cv.notify_all();
}

bool SseChannel::isClosed() const
{
    const std::lock_guard lock(m_mutex);
    return m_closed;
}

std::deque<std::string> SseChannel::takeQueued()
{
    const std::lock_guard lock(m_mutex);
    std::deque<std::string> out;
    out.swap(m_queue);
    return out;
}

std::string SseChannel::taskNotification(const std::string &fragment) const
{
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":"
           + m_subscriptionIdJson + "}," + fragment + "}}";
}

std::deque<std::string> SseChannel::wait(std::chrono::milliseconds timeout, bool &changed)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait_for(lock, timeout, [this] { return m_changed || m_closed; });
    changed = m_changed;
    m_changed = false;
    std::deque<std::string> out;
    out.swap(m_queue);
    return out;
}

} // namespace Eddy::Server
