#pragma once

// run_cfd_case as a streamed tools/call (--no-tasks-extension), for both eras: the case runs as
// an ordinary task in TaskManager, and the call's SSE response carries its progress and its
// result. Holds the registry of 2025-11-25 streamed calls, so that notifications/cancelled can
// cancel one. Runs on request threads; the registry has its own mutex.

#include "server/httpmessage.h"
#include "server/mcpcall.h"
#include "server/serveroptions.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace Eddy::Server {

class LegacySession;
class OpenStreams;
class SseChannel;
class StreamSink;
class TaskManager;

class StreamedCalls final
{
public:
    StreamedCalls(TaskManager &tasks, LegacySession &sessions, const ServerOptions &options,
                  OpenStreams &streams);
    ~StreamedCalls();

    // Answers call (a run_cfd_case tools/call) with the SSE stream of its run; legacy: a
    // 2025-11-25 session's call, else a 2026-07-28 one.
    void run(HttpResponse &res, const McpCall &call, bool legacy);
    // A 2025-11-25 notifications/cancelled for a streamed call: cancels its case.
    bool cancel(const std::string &sessionId, const std::string &tokenHash,
                const nlohmann::json &requestId);

private:
    struct Run;
    bool step(Run &run, SseChannel &channel, StreamSink &sink);

    TaskManager &m_tasks;
    LegacySession &m_sessions;
    const ServerOptions &m_options;
    OpenStreams &m_streams;

    // 2025-11-25 streamed calls: session id + '\n' + request id JSON -> the call.
    std::mutex m_mutex;
    std::map<std::string, std::weak_ptr<Run>> m_calls;
};

} // namespace Eddy::Server
