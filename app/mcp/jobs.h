#pragma once

#include "app/mcp/discoverinfo.h"
#include "app/mcp/job.h"
#include "app/mcp/taskstate.h"
#include "app/mcp/tool.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace Eddy::Mcp {

// The result-carrying job types of Client. Tiny value holders on top of Job, kept together
// because each is a handful of lines (a deliberate exception to one class per file).

class DiscoverJob final : public Job
{
    Q_OBJECT
public:
    using Job::Job;
    const DiscoverInfo &info() const { return m_info; }
    bool offersTasks() const { return m_info.offersTasks(); }
    Era era() const { return m_info.era; }

private:
    friend class Client;
    DiscoverInfo m_info;
};

class ToolsJob final : public Job
{
    Q_OBJECT
public:
    using Job::Job;
    const std::vector<Tool> &tools() const { return m_tools; }
    // Tools dropped because their x-mcp-header annotations are invalid, with the reason.
    const QStringList &rejected() const { return m_rejected; }

private:
    friend class Client;
    std::vector<Tool> m_tools;
    QStringList m_rejected;
};

class CallJob final : public Job
{
    Q_OBJECT
public:
    enum class Kind { Error, Complete, Task };
    using Job::Job;
    Kind kind() const { return m_kind; }
    const nlohmann::json &callResult() const { return m_callResult; } // when Complete
    const TaskState &task() const { return m_task; }                   // when Task
    bool isToolError() const { return m_kind == Kind::Complete && m_callResult.value("isError", false); }

private:
    friend class Client;
    Kind m_kind = Kind::Error;
    nlohmann::json m_callResult;
    TaskState m_task;
};

class TaskJob final : public Job
{
    Q_OBJECT
public:
    using Job::Job;
    const TaskState &state() const { return m_state; }

private:
    friend class Client;
    TaskState m_state;
};

// tasks/update and tasks/cancel: an empty acknowledgement (legacy cancel also returns the task).
class AckJob final : public Job
{
    Q_OBJECT
public:
    using Job::Job;
    const TaskState &state() const { return m_state; } // legacy tasks/cancel only

private:
    friend class Client;
    TaskState m_state;
};

} // namespace Eddy::Mcp
