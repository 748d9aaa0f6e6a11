#pragma once

// The 2025-11-25 side of the MCP endpoint: initialize and sessions, tools/call with a task
// param or blocking, tasks/get|result|list|cancel, notifications, and the elicitation
// responses POSTed back. McpHandler hands it every message of a session (and the initialize
// that opens one) after its HTTP and JSON-RPC checks. Runs on request threads; it keeps no
// state of its own (sessions live in LegacySession, tasks in TaskManager).

#include "server/httpmessage.h"
#include "server/mcpcall.h"
#include "server/serveroptions.h"

#include <nlohmann/json.hpp>

namespace Eddy::Server {

class LegacySession;
class OpenStreams;
class StreamedCalls;
class TaskManager;

class LegacyMethods final
{
public:
    LegacyMethods(TaskManager &tasks, LegacySession &sessions, const ServerOptions &options,
                  OpenStreams &streams, StreamedCalls &streamed);

    // One message of a 2025-11-25 client: checks its session and MCP-Protocol-Version, then
    // answers it. body: the whole JSON-RPC message (a response to elicitation has no method).
    void handle(const HttpRequest &req, HttpResponse &res, const McpCall &call,
                const nlohmann::json &body);

private:
    void initialize(HttpResponse &res, const McpCall &call);
    void toolsCall(HttpResponse &res, const McpCall &call);
    void tasksResult(HttpResponse &res, const McpCall &call);
    void tasksList(HttpResponse &res, const McpCall &call);
    void tasksCancel(HttpResponse &res, const McpCall &call);

    TaskManager &m_tasks;
    LegacySession &m_sessions;
    const ServerOptions &m_options;
    OpenStreams &m_streams;
    StreamedCalls &m_streamed;
};

} // namespace Eddy::Server
