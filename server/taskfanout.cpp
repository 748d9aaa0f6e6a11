#include "server/taskfanout.h"

#include "server/sse.h"

#include <algorithm>

namespace Eddy::Server {

void TaskFanout::add(const std::shared_ptr<SseChannel> &channel)
{
    const std::lock_guard lock(m_mutex);
    m_channels.push_back(channel);
}

void TaskFanout::remove(const std::shared_ptr<SseChannel> &channel)
{
    const std::lock_guard lock(m_mutex);
    std::erase_if(m_channels, [&](const std::weak_ptr<SseChannel> &w) {
        const auto c = w.lock();
        return !c || c == channel;
    });
}

void TaskFanout::notify(const std::string &id)
{
    // The lock is taken before the task's state is read: two threads notifying the same task (a
    // worker's "working" and the janitor's or a cancel's terminal state) then push in the order
    // they read, so a listener never sees "working" after "completed".
    const std::lock_guard lock(m_mutex);
    std::string fragment;
    std::string owner;
    if (!m_render(id, fragment, owner))
        return;
    for (auto it = m_channels.begin(); it != m_channels.end();) {
        const auto channel = it->lock();
        if (!channel) {
            it = m_channels.erase(it);
            continue;
        }
        ++it;
        if (!channel->wants(id) || channel->tokenHash() != owner)
            continue;
        channel->push(channel->subscriptionIdJson().empty() ? std::string() : channel->taskNotification(fragment));
    }
}

bool TaskFanout::catchUp(SseChannel &channel, std::size_t count, std::string &out)
{
    const std::lock_guard lock(m_mutex);
    // What was queued came from changes read before this lock: it goes first, and the states
    // read below are as new or newer.
    for (const std::string &event : channel.takeQueued())
        out += SseChannel::frame(event);
    std::string fragment;
    std::string owner;
    for (; count > 0 && channel.catchingUp(); --count) {
        fragment.clear();
        if (m_render(channel.takeNextToCatchUp(), fragment, owner) && owner == channel.tokenHash())
            out += SseChannel::frame(channel.taskNotification(fragment));
    }
    return channel.catchingUp();
}

} // namespace Eddy::Server
