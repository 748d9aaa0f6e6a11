#include "app/mcp/listen.h"

#include "app/secret.h"

#include <QLoggingCategory>

#include <utility>

Q_DECLARE_LOGGING_CATEGORY(lcMcp)

namespace Eddy::Mcp {

using nlohmann::json;

Listen::Listen(std::vector<std::string> taskIds, QObject *parent)
    : QObject(parent), m_requested(std::move(taskIds))
{
}

Listen::~Listen()
{
    m_closed = true;
    if (const auto target = std::exchange(m_abortTarget, {}).lock())
        target->abort();
}

void Listen::close()
{
    if (m_closed)
        return;
    if (const auto target = std::exchange(m_abortTarget, {}).lock())
        target->abort();
    finish(Error::aborted());
}

void Listen::finish(const Error &error)
{
    if (m_closed)
        return;
    m_closed = true;
    m_abortTarget.reset();
    emit closed(error);
}

void Listen::handleMessage(const json &message)
{
    if (m_closed)
        return;
    const std::string method = message.value("method", "");
    json params = message.value("params", json::object());
    if (!params.is_object())
        return;
    // Tolerate a missing subscriptionId (the extension's examples omit it), reject a foreign one.
    if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) {
        const auto sub = meta->find("io.modelcontextprotocol/subscriptionId");
        if (sub != meta->end() && !m_requestId.is_null() && *sub != m_requestId
            && !(sub->is_string() && sub->get<std::string>() == m_requestId.dump()))
            return;
    }
    if (method == "notifications/subscriptions/acknowledged") {
        m_accepted.clear();
        const json notifications = params.value("notifications", json::object());
        const json ids = notifications.is_object() ? notifications.value("taskIds", json::array())
                                                   : json::array();
        if (ids.is_array())
            for (const json &id : ids)
                if (id.is_string())
                    m_accepted.push_back(id.get<std::string>());
        emit acknowledged(m_accepted);
        return;
    }
    if (method == "notifications/tasks" || method == "notifications/tasks/status") {
        params.erase("_meta");
        QString why;
        const TaskState state = TaskState::parse(params, Era::Modern,
                                                 TaskState::Source::Notification, &why);
        if (!state.isValid()) {
            qCWarning(lcMcp) << "ignoring a malformed task notification:" << why;
            return;
        }
        if (!isNewer(state))
            return;
        emit taskNotification(state);
    }
}

bool Listen::isNewer(const TaskState &state)
{
    Delivered &last = m_delivered[state.taskId];
    // A terminal task never changes again; an older update arriving late is stale (seen from
    // eddy-cfd-server under load: "working" computed before "completed" but written after it).
    const bool stale = last.terminal
                       || (last.lastUpdatedAt.isValid() && state.lastUpdatedAt.isValid()
                           && state.lastUpdatedAt < last.lastUpdatedAt);
    if (stale) {
        qCDebug(lcMcp) << "dropping a stale push for task" << redactSecret(std::string_view(state.taskId))
                       << toString(state.status);
        return false;
    }
    if (state.lastUpdatedAt.isValid())
        last.lastUpdatedAt = state.lastUpdatedAt;
    last.terminal = state.isTerminal();
    return true;
}

} // namespace Eddy::Mcp
