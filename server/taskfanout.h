#pragma once

// The fan-out of task changes to open SSE streams, and the state of every subscribed task that a
// new subscriptions/listen stream sends after its acknowledgement. One lock orders both: a
// change is read and queued under it, and a stream's catch-up takes what is queued and reads the
// next tasks under it, so a listener never sees a task's state followed by an older one.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Eddy::Server {

class SseChannel;

class TaskFanout final
{
public:
    // Appends task `id`'s rendered DetailedTask members to fragment and names its owner's token
    // hash; false when no such task is held. Called under the fan-out's lock.
    using Render = std::function<bool(const std::string &id, std::string &fragment, std::string &owner)>;

    explicit TaskFanout(Render render)
        : m_render(std::move(render))
    {}

    void add(const std::shared_ptr<SseChannel> &channel);
    void remove(const std::shared_ptr<SseChannel> &channel);
    // Task `id` changed: every stream that wants it (with the task's token) gets its new state.
    void notify(const std::string &id);
    // Appends to out, as SSE frames, what is queued on the channel and then the state of up to
    // `count` more of its tasks that it has not been sent since it opened. False once every task
    // has been sent: a stream of 10,000 tasks is rendered a batch at a time as it is written,
    // never held whole.
    bool catchUp(SseChannel &channel, std::size_t count, std::string &out);

private:
    Render m_render;
    std::mutex m_mutex;
    std::vector<std::weak_ptr<SseChannel>> m_channels;
};

} // namespace Eddy::Server
