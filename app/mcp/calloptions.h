#pragma once

#include <QByteArray>

#include <nlohmann/json.hpp>

#include <functional>

namespace Eddy::Mcp {

// Per-call hooks for tools/call.
struct CallOptions
{
    using Reply = std::function<void(nlohmann::json inputResponses)>;
    // MRTR input_required before any task exists: called with the inputRequests object; call
    // `reply` (once, any time later, on the client's thread) with an object of responses keyed
    // like the requests. Without a handler an input_required answer ends the call with an error.
    std::function<void(const nlohmann::json &inputRequests, Reply reply)> inputHandler;
    // Called with every input_required answer before inputHandler (or before the immediate
    // retry when it has no inputRequests): the requestState (null when the server sent none)
    // and the inputRequests (null when none), so the caller can journal the round trip.
    std::function<void(const nlohmann::json &requestState, const nlohmann::json &inputRequests)>
        onInputRequired;
    // Resumes a round trip journalled earlier (e.g. before a crash): the first request already
    // carries this requestState (echoed unchanged) and these inputResponses. Null = a fresh call.
    nlohmann::json resumeRequestState;
    nlohmann::json resumeInputResponses;
    // notifications/progress and notifications/message from an SSE response of this call.
    std::function<void(const nlohmann::json &notification)> onNotification;
    // A call that cannot become a task (the server or the tool has no Tasks support) whose answer
    // is an SSE stream: called once when the stream opens, before its first notification. Such
    // a call has no total timeout: its stream ends it when it goes silent for streamIdleMs (SSE
    // comments count as activity); the answer's first byte must still come within the timeout.
    std::function<void()> onStreamOpened;
    int streamIdleMs = 300000;
    QByteArray traceparent; // put in _meta.traceparent when set
    int timeoutMs = 0;      // 0 = the server config's timeout
};

} // namespace Eddy::Mcp
