#pragma once

// Private to the Engine sources: the helpers and the server link its parts share.

#include "app/monitor/engine.h"
#include "app/monitor/serverlinks.h"
#include "app/monitor/isotime.h"
#include "app/vocab/outcome.h"
#include "app/monitor/log.h"
#include "app/vocab/schemavalidator.h"
#include "app/vocab/sweepexpander.h"

#include "app/mcp/client.h"
#include "app/mcp/tracecontext.h"
#include "app/net/httpclient.h"
#include "app/secret.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QUuid>

#include <chrono>

namespace Eddy::Monitor {

using json = nlohmann::json;

namespace {

inline qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

inline qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The server does not know the task (any more): -32602 on tasks/* whose message says so, the
// same in both eras ("Failed to retrieve task: Task not found", "... Task has expired", "Unknown
// task"). Any other -32602 on tasks/* (a malformed request, a gateway that rewrote it) says
// nothing about the task, which must not be given up for it.
inline bool isUnknownTask(const Mcp::Error &e)
{
    if (!e.isTaskGone())
        return false;
    const QString said = e.serverMessage().toLower();
    static const char *const phrases[] = {"not found", "expired", "unknown task", "no such task",
                                          "does not exist"};
    return std::any_of(std::begin(phrases), std::end(phrases),
                       [&said](const char *p) { return said.contains(QLatin1String(p)); });
}

// The message for a -32602 on tasks/* that is not the unknown-task error.
inline QString invalidParamsMessage(const Mcp::Error &e)
{
    return QStringLiteral("The server rejected %1 with -32602 (\"%2\") without saying the task is "
                          "unknown; the task is kept and polled again with backoff. If this goes "
                          "on, check the server's logs or any gateway between Eddy and the server.")
        .arg(e.method(), e.serverMessage().left(200));
}

inline Store::TaskStatus fromMcp(Mcp::TaskStatus s)
{
    switch (s) {
    case Mcp::TaskStatus::Working: return Store::TaskStatus::Working;
    case Mcp::TaskStatus::InputRequired: return Store::TaskStatus::InputRequired;
    case Mcp::TaskStatus::Completed: return Store::TaskStatus::Completed;
    case Mcp::TaskStatus::Failed: return Store::TaskStatus::Failed;
    case Mcp::TaskStatus::Cancelled: return Store::TaskStatus::Cancelled;
    }
    return Store::TaskStatus::Working;
}

inline QString isoTime(const QDateTime &t)
{
    return isoTimeUtc(t);
}

inline QString errorJson(const Mcp::Error &e)
{
    json j{{"message", e.message().toStdString()}};
    if (e.code() != 0)
        j["code"] = e.code();
    if (!e.data().is_null())
        j["data"] = e.data();
    return QString::fromStdString(j.dump());
}

// The inputSchema of the named tool, or null; *offered collects every tool name for the message.
inline json toolSchema(const json &tools, const QString &name, QStringList *offered)
{
    json schema;
    for (const json &t : tools) {
        const std::string toolName = t.value("name", std::string());
        offered->append(QString::fromStdString(toolName));
        if (toolName == name.toStdString())
            schema = t.value("inputSchema", json::object());
    }
    return schema;
}

inline json toolsToJson(const std::vector<Mcp::Tool> &tools)
{
    json out = json::array();
    for (const Mcp::Tool &t : tools) {
        json j{{"name", t.name.toStdString()}, {"inputSchema", t.inputSchema}};
        if (!t.title.isEmpty())
            j["title"] = t.title.toStdString();
        if (!t.description.isEmpty())
            j["description"] = t.description.toStdString();
        if (!t.annotations.is_null())
            j["annotations"] = t.annotations;
        if (!t.outputSchema.is_null())
            j["outputSchema"] = t.outputSchema;
        out.push_back(std::move(j));
    }
    return out;
}

inline json discoveryToJson(const Mcp::DiscoverInfo &d)
{
    json versions = json::array();
    for (const QString &v : d.supportedVersions)
        versions.push_back(v.toStdString());
    return json{{"era", Mcp::eraToString(d.era).toStdString()},
                {"serverName", d.serverName.toStdString()},
                {"serverVersion", d.serverVersion.toStdString()},
                {"protocolVersion", d.protocolVersion.toStdString()},
                {"supportedVersions", versions},
                {"capabilities", d.capabilities},
                {"instructions", d.instructions.toStdString()},
                {"offersTasks", d.offersTasks()}};
}

inline void fillFromState(Store::TaskRecord &t, const Mcp::TaskState &st)
{
    t.status = fromMcp(st.status);
    if (st.statusMessage)
        t.statusMessage = *st.statusMessage;
    if (st.createdAt.isValid())
        t.createdAt = isoTime(st.createdAt);
    if (st.lastUpdatedAt.isValid())
        t.lastUpdatedAt = isoTime(st.lastUpdatedAt);
    t.ttlMs = st.ttlMs;
    if (st.pollIntervalMs)
        t.pollIntervalMs = st.pollIntervalMs;
    if (!st.result.is_null()) {
        t.result = QString::fromStdString(st.result.dump());
        t.isToolError = st.isToolError();
    }
    if (!st.error.is_null())
        t.error = QString::fromStdString(st.error.dump());
}

// A case's row as it was sent (server, sweep, tool, arguments, trace), before the server's answer.
inline Store::TaskRecord taskOfCase(const Store::CaseRecord &c)
{
    Store::TaskRecord t;
    t.serverId = c.serverId;
    t.sweepId = c.sweepId;
    t.tool = c.tool;
    t.arguments = c.arguments;
    t.traceparent = c.traceparent;
    return t;
}

constexpr int s_singleCallConcurrency = 16;
// A `completed` reply without its result is asked again this many times (with backoff)
// before the task is stored completed with an error instead.
constexpr int s_noResultTries = 5;
constexpr qint64 s_noResultFirstDelayMs = 250;
// An answer the server cannot take before a poll (Mcp::Error::wantsPollFirst) waits this many
// seconds, one try a second, for a poll to bring its question's current key.
constexpr int s_pollFirstAnswerTries = 60;

} // namespace


} // namespace Eddy::Monitor
