#pragma once

// What tst_serverprotocol (the MCP contract) and tst_serverhttp (the HTTP transport under it)
// share: the server under test, a client for it, and well-formed 2026 messages as JSON or as
// the raw bytes of a whole HTTP request.

#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <QtTest>

#include <memory>
#include <string>
#include <vector>

namespace Eddy::Test {

// The *_httplib ctest registrations set EDDY_SERVER_EXTRA_ARGS="--http-engine httplib": the
// same suite then runs against the cpp-httplib front end, and every protocol assertion must
// hold there too.
inline QStringList withExtraServerArgs(QStringList args)
{
    return args + qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").split(' ', Qt::SkipEmptyParts);
}

// True when the server runs the httplib front end, whose transport (request-line parsing,
// header limits, chunked bodies, pipelining) is httplib's own, not HttpServer's.
inline bool httplibEngine()
{
    return qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").contains("httplib");
}

class ProtocolFixture
{
protected:
    using json = nlohmann::json;

    // Starts the shared server (one worker); false with the reason in m_server.errorString().
    bool startServer()
    {
        // httplib answers some malformed requests only when its read times out (5 s by
        // default); a shorter request timeout lets those rows finish sooner. epoll answers
        // them at once.
        QStringList args{"--workers", "1"};
        if (httplibEngine())
            args << "--request-timeout-ms" << "2000";
        if (!m_server.start(withExtraServerArgs(args)))
            return false;
        m_client = std::make_unique<McpTestClient>(m_server.url());
        return true;
    }

    std::vector<std::string> std2026(const std::string &method, const json &params) const
    {
        return m_client->headersFor(method, params);
    }
    static std::string message(const std::string &method, const json &params, json id = 7)
    {
        return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
    }
    // One whole HTTP request for a well-formed 2026 message, as raw bytes.
    std::string rawRequest(const std::string &method, json params, int id, bool close = false) const
    {
        params["_meta"] = McpTestClient::meta();
        const std::string body = message(method, params, id);
        std::string bytes = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        for (const std::string &h : std2026(method, params))
            bytes += h + "\r\n";
        return bytes + "Content-Length: " + std::to_string(body.size()) + "\r\n"
               + (close ? "Connection: close\r\n" : "") + "\r\n" + body;
    }

    // The parked task the poll tests read (created on first use).
    const std::string &pollTask()
    {
        if (m_pollTask.empty())
            m_pollTask = m_client->createTask(
                {{"reynolds", 100}, {"grid", 16}, {"force_mesh_defect", true}});
        return m_pollTask;
    }

    // A tasks/get poll of pollTask() as raw bytes: the request line with version, then lines
    // (the Host header or none), then the poll's own headers and body.
    std::string pollBytes(const std::string &version, const std::string &lines)
    {
        const std::string &task = pollTask();
        const std::string body
            = message("tasks/get", {{"taskId", task}, {"_meta", McpTestClient::meta()}});
        return "POST /mcp " + version + "\r\n" + lines
               + "Content-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                 "Mcp-Method: tasks/get\r\nMcp-Name: "
               + task + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }

    TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
    std::string m_pollTask;
};

} // namespace Eddy::Test
