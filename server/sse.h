#pragma once

// One open SSE response (a subscriptions/listen stream or a legacy tasks/result): a queue of
// ready-made events filled by TaskManager threads and drained by the HTTP thread that owns
// the stream. Also formats SSE frames.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <string>

namespace Eddy::Server {

class SseChannel final
{
public:
    // taskIds: tasks whose changes this stream wants. subscriptionIdJson: the listen request's
    // id as JSON, so changes arrive as notifications/tasks; empty: changes only wake the stream.
    SseChannel(std::set<std::string> taskIds, std::string tokenHash,
               std::string subscriptionIdJson = {})
        : m_taskIds(std::move(taskIds))
        , m_tokenHash(std::move(tokenHash))
        , m_subscriptionIdJson(std::move(subscriptionIdJson))
    {}
    const std::string &subscriptionIdJson() const { return m_subscriptionIdJson; }

    const std::set<std::string> &taskIds() const { return m_taskIds; }
    const std::string &tokenHash() const { return m_tokenHash; }
    bool wants(const std::string &taskId) const { return m_taskIds.count(taskId) != 0; }

    // Called by TaskManager on a change of a wanted task; payload may be empty (wake only).
    void push(std::string payload);
    // Takes what is queued without waiting (TaskFanout::catchUp).
    std::deque<std::string> takeQueued();
    // A notifications/tasks message for this stream around a task's DetailedTask members.
    std::string taskNotification(const std::string &fragment) const;
    // The catch-up of a listen stream: every wanted task's state, sent once after the
    // acknowledgement, a batch at a time (TaskFanout::catchUp). Used by the stream's own
    // thread only.
    void beginCatchUp() { m_catchUp = m_taskIds.begin(); m_catchingUp = true; }
    bool catchingUp() const { return m_catchingUp && m_catchUp != m_taskIds.end(); }
    const std::string &takeNextToCatchUp() { return *m_catchUp++; }
    // Ends the stream (server shutdown).
    void close();
    bool isClosed() const;

    // Waits up to timeout for payloads; returns them (possibly none). changed tells whether a
    // push (even an empty one) happened.
    std::deque<std::string> wait(std::chrono::milliseconds timeout, bool &changed);

    static std::string frame(const std::string &json) { return "event: message\ndata: " + json + "\n\n"; }
    static std::string keepAlive() { return ": keep-alive\n\n"; }

private:
    const std::set<std::string> m_taskIds;
    const std::string m_tokenHash;
    const std::string m_subscriptionIdJson;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::string> m_queue;
    bool m_changed = false;
    bool m_closed = false;
    std::set<std::string>::const_iterator m_catchUp;
    bool m_catchingUp = false;
};

} // namespace Eddy::Server
