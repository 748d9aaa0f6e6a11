#pragma once

// The SSE responses open on the MCP endpoint (subscriptions/listen, streamed tools/call,
// 2025-11-25 tasks/result and blocking tools/call): each is registered with the task fanout
// while it is open, and all are closed together at shutdown. Any thread.

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

namespace Eddy::Server {

class SseChannel;
class TaskManager;

class OpenStreams final
{
public:
    explicit OpenStreams(TaskManager &tasks) : m_tasks(tasks) {}

    // Registers channel here and with the task fanout.
    void add(const std::shared_ptr<SseChannel> &channel);
    void remove(const std::shared_ptr<SseChannel> &channel);
    // Closes every open channel and makes shuttingDown() true, so no new stream starts.
    void beginShutdown();
    bool shuttingDown() const { return m_shuttingDown; }

private:
    TaskManager &m_tasks;
    std::atomic<bool> m_shuttingDown{false};
    std::mutex m_mutex; // guards m_channels
    std::set<std::shared_ptr<SseChannel>> m_channels;
};

} // namespace Eddy::Server
