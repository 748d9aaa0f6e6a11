#pragma once

// The 2026-07-28 methods of the MCP endpoint: server/discover, tools/list, tools/call,
// tasks/get|update|cancel, subscriptions/listen, the empty prompt and resource lists, and the
// answers to methods this version does not have. McpHandler hands it each request after
// checking its envelope (HTTP, JSON-RPC, _meta, headers, version). Runs on request threads;
// its only state is the conformance fixtures' task table (--conformance-fixtures).

#include "server/httpmessage.h"
#include "server/mcpcall.h"
#include "server/serveroptions.h"

#include <memory>

namespace Eddy::Server {

namespace ConformanceFixtures {
class TaskTable;
}
class OpenStreams;
class StreamedCalls;
class TaskManager;

class ModernMethods final
{
public:
    ModernMethods(TaskManager &tasks, const ServerOptions &options, OpenStreams &streams,
                  StreamedCalls &streamed);
    ~ModernMethods();

    // Answers one 2026-07-28 request (with an id) whose envelope McpHandler has checked.
    void handle(const HttpRequest &req, HttpResponse &res, const McpCall &call);

private:
    void discover(HttpResponse &res, const McpCall &call);
    void toolsList(HttpResponse &res, const McpCall &call);
    void toolsCall(HttpResponse &res, const McpCall &call, const HttpRequest &req);
    void fixtureCall(HttpResponse &res, const McpCall &call, const HttpRequest &req);
    void emptyList(HttpResponse &res, const McpCall &call);
    void tasksGet(HttpResponse &res, const McpCall &call);
    void tasksUpdate(HttpResponse &res, const McpCall &call);
    void tasksCancel(HttpResponse &res, const McpCall &call);
    void listen(HttpResponse &res, const McpCall &call);
    // The call declares the Tasks extension; false after answering 400.
    bool requireTasks(HttpResponse &res, const McpCall &call);

    TaskManager &m_tasks;
    const ServerOptions &m_options;
    OpenStreams &m_streams;
    StreamedCalls &m_streamed;
    // --conformance-fixtures only: the suite's fixture tasks, apart from run_cfd_case's.
    std::unique_ptr<ConformanceFixtures::TaskTable> m_fixtureTasks;
};

} // namespace Eddy::Server
