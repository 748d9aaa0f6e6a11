#include "app/monitor/engine.h"

// The engine's named reads: what the agent, eddyctl and the GUI's bridge may ask of the store.
// Each runs on the engine's thread (the store's one connection lives there) and answers empty
// when the database is not open.

namespace Eddy::Monitor {

QList<Store::ServerRecord> Engine::servers(bool withRetired)
{
    return m_store.isOpen() ? m_store.servers(withRetired) : QList<Store::ServerRecord>{};
}

std::optional<Store::ServerUse> Engine::serverUse(qint64 serverId)
{
    return m_store.isOpen() ? m_store.serverUse(serverId) : std::nullopt;
}

std::optional<Store::ServerRecord> Engine::server(qint64 serverId)
{
    return m_store.isOpen() ? m_store.server(serverId) : std::nullopt;
}

QStringList Engine::serverTaskIds()
{
    return m_store.isOpen() ? m_store.serverTaskIds() : QStringList{};
}

std::optional<Store::TaskRecord> Engine::task(qint64 taskId)
{
    return m_store.isOpen() ? m_store.task(taskId) : std::nullopt;
}

QList<Store::TaskRecord> Engine::tasks(const Store::TaskQuery &query)
{
    return m_store.isOpen() ? m_store.tasks(query) : QList<Store::TaskRecord>{};
}

QList<Store::TaskEventRecord> Engine::taskEvents(qint64 taskId)
{
    return m_store.isOpen() ? m_store.taskEvents(taskId) : QList<Store::TaskEventRecord>{};
}

QList<Store::ProgressSample> Engine::progressSamples(qint64 taskId)
{
    // Samples stored but not yet sent out as changes go out first, as for a snapshot: a reader
    // that replaces its series with this read and appends the changes it is sent would otherwise
    // get those samples twice (the residual chart did, on a row selected while its case ran).
    flushChanges();
    return m_store.isOpen() ? m_store.progressSamples(taskId) : QList<Store::ProgressSample>{};
}

std::optional<Store::ProgressSample> Engine::latestSample(qint64 taskId, const QString &series)
{
    return m_store.isOpen() ? m_store.latestSample(taskId, series) : std::nullopt;
}

std::optional<Store::InputRequestRecord> Engine::inputRequest(qint64 taskId, const QString &key)
{
    return m_store.isOpen() ? m_store.inputRequest(taskId, key) : std::nullopt;
}

QList<Store::InputRequestRecord> Engine::inputRequests(qint64 taskId)
{
    return m_store.isOpen() ? m_store.inputRequests(taskId) : QList<Store::InputRequestRecord>{};
}

QList<Store::InputRequestRecord> Engine::pendingInputRequests()
{
    return m_store.isOpen() ? m_store.pendingInputRequests() : QList<Store::InputRequestRecord>{};
}

QList<Store::InputRequestRecord> Engine::answeredInputRequests()
{
    return m_store.isOpen() ? m_store.answeredInputRequests() : QList<Store::InputRequestRecord>{};
}

QList<Store::SweepRecord> Engine::sweeps()
{
    return m_store.isOpen() ? m_store.sweeps() : QList<Store::SweepRecord>{};
}

std::optional<Store::SweepRecord> Engine::sweep(qint64 sweepId)
{
    return m_store.isOpen() ? m_store.sweep(sweepId) : std::nullopt;
}

QList<Store::CaseRecord> Engine::cases(std::optional<qint64> sweepId)
{
    return m_store.isOpen() ? m_store.cases(sweepId) : QList<Store::CaseRecord>{};
}

std::optional<Store::CaseRecord> Engine::caseRecord(qint64 caseId)
{
    return m_store.isOpen() ? m_store.caseRecord(caseId) : std::nullopt;
}

QList<qint64> Engine::childTaskIds(qint64 caseId)
{
    return m_store.isOpen() ? m_store.childTaskIds(caseId) : QList<qint64>{};
}

std::optional<qint64> Engine::parentTaskId(const Store::CaseRecord &c)
{
    return m_store.isOpen() ? m_store.parentTaskId(c) : std::nullopt;
}

QList<Store::SessionRecord> Engine::sessions()
{
    return m_store.isOpen() ? m_store.sessions() : QList<Store::SessionRecord>{};
}

std::optional<Store::SessionRecord> Engine::sessionByName(const QString &name)
{
    return m_store.isOpen() ? m_store.sessionByName(name) : std::nullopt;
}

QList<QString> Engine::sessionNamesOfTask(qint64 taskId)
{
    return m_store.isOpen() ? m_store.sessionNamesOfTask(taskId) : QList<QString>{};
}

std::optional<qint64> Engine::createSessionOfKind(const QString &name, const QString &kind)
{
    return m_store.createSession(name, kind);
}

bool Engine::attachTask(qint64 sessionId, qint64 taskId)
{
    return m_store.attachTask(sessionId, taskId);
}

int Engine::attachTasksQuietly(qint64 sessionId, const Store::TaskQuery &query)
{
    return m_store.attachTasks(sessionId, query);
}

QList<Store::AgentMessageRecord> Engine::agentMessages(qint64 sessionId)
{
    return m_store.isOpen() ? m_store.agentMessages(sessionId) : QList<Store::AgentMessageRecord>{};
}

bool Engine::addAgentMessage(Store::AgentMessageRecord &message)
{
    return m_store.addAgentMessage(message);
}

bool Engine::compactAgentMessages(qint64 sessionId,
                                  Store::AgentMessageRecord &summary,
                                  QList<Store::AgentMessageRecord> &keep)
{
    return m_store.compactAgentMessages(sessionId, summary, keep);
}

QList<SweepExport::Row> Engine::exportRows(qint64 sweepId)
{
    return m_store.isOpen() ? SweepExport::rows(m_store, sweepId) : QList<SweepExport::Row>{};
}

} // namespace Eddy::Monitor
