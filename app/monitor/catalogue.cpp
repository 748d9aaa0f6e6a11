#include "app/monitor/catalogue.h"

#include "app/store/taskstore.h"

namespace Eddy::Monitor {

Catalogue::Catalogue(Store::TaskStore &store, std::function<void()> beforeSamples)
    : m_store(store)
    , m_beforeSamples(std::move(beforeSamples))
{
}

QList<Store::ServerRecord> Catalogue::servers(bool withRetired) const
{
    return m_store.isOpen() ? m_store.servers(withRetired) : QList<Store::ServerRecord>{};
}

std::optional<Store::ServerRecord> Catalogue::server(qint64 serverId) const
{
    return m_store.isOpen() ? m_store.server(serverId) : std::nullopt;
}

std::optional<Store::ServerUse> Catalogue::serverUse(qint64 serverId) const
{
    return m_store.isOpen() ? m_store.serverUse(serverId) : std::nullopt;
}

QStringList Catalogue::serverTaskIds() const
{
    return m_store.isOpen() ? m_store.serverTaskIds() : QStringList{};
}

std::optional<Store::TaskRecord> Catalogue::task(qint64 taskId) const
{
    return m_store.isOpen() ? m_store.task(taskId) : std::nullopt;
}

QList<Store::TaskRecord> Catalogue::tasks(const Store::TaskQuery &query) const
{
    return m_store.isOpen() ? m_store.tasks(query) : QList<Store::TaskRecord>{};
}

QList<Store::TaskEventRecord> Catalogue::taskEvents(qint64 taskId) const
{
    return m_store.isOpen() ? m_store.taskEvents(taskId) : QList<Store::TaskEventRecord>{};
}

QList<Store::ProgressSample> Catalogue::progressSamples(qint64 taskId) const
{
    // Samples stored but not yet sent out as changes go out first, as for a snapshot: a reader
    // that replaces its series with this read and appends the changes it is sent would otherwise
    // get those samples twice (the residual chart did, on a row selected while its case ran).
    if (m_beforeSamples)
        m_beforeSamples();
    return m_store.isOpen() ? m_store.progressSamples(taskId) : QList<Store::ProgressSample>{};
}

std::optional<Store::ProgressSample> Catalogue::latestSample(qint64 taskId,
                                                             const QString &series) const
{
    return m_store.isOpen() ? m_store.latestSample(taskId, series) : std::nullopt;
}

std::optional<Store::InputRequestRecord> Catalogue::inputRequest(qint64 taskId,
                                                                 const QString &key) const
{
    return m_store.isOpen() ? m_store.inputRequest(taskId, key) : std::nullopt;
}

QList<Store::InputRequestRecord> Catalogue::inputRequests(qint64 taskId) const
{
    return m_store.isOpen() ? m_store.inputRequests(taskId) : QList<Store::InputRequestRecord>{};
}

QList<Store::InputRequestRecord> Catalogue::pendingInputRequests() const
{
    return m_store.isOpen() ? m_store.pendingInputRequests() : QList<Store::InputRequestRecord>{};
}

QList<Store::InputRequestRecord> Catalogue::answeredInputRequests() const
{
    return m_store.isOpen() ? m_store.answeredInputRequests() : QList<Store::InputRequestRecord>{};
}

QList<Store::SweepRecord> Catalogue::sweeps() const
{
    return m_store.isOpen() ? m_store.sweeps() : QList<Store::SweepRecord>{};
}

std::optional<Store::SweepRecord> Catalogue::sweep(qint64 sweepId) const
{
    return m_store.isOpen() ? m_store.sweep(sweepId) : std::nullopt;
}

QList<Store::CaseRecord> Catalogue::cases(std::optional<qint64> sweepId) const
{
    return m_store.isOpen() ? m_store.cases(sweepId) : QList<Store::CaseRecord>{};
}

std::optional<Store::CaseRecord> Catalogue::caseRecord(qint64 caseId) const
{
    return m_store.isOpen() ? m_store.caseRecord(caseId) : std::nullopt;
}

QList<qint64> Catalogue::childTaskIds(qint64 caseId) const
{
    return m_store.isOpen() ? m_store.childTaskIds(caseId) : QList<qint64>{};
}

std::optional<qint64> Catalogue::parentTaskId(const Store::CaseRecord &c) const
{
    return m_store.isOpen() ? m_store.parentTaskId(c) : std::nullopt;
}

QList<SweepExport::Row> Catalogue::exportRows(qint64 sweepId) const
{
    return m_store.isOpen() ? SweepExport::rows(m_store, sweepId) : QList<SweepExport::Row>{};
}

QList<Store::SessionRecord> Catalogue::sessions() const
{
    return m_store.isOpen() ? m_store.sessions() : QList<Store::SessionRecord>{};
}

std::optional<Store::SessionRecord> Catalogue::sessionByName(const QString &name) const
{
    return m_store.isOpen() ? m_store.sessionByName(name) : std::nullopt;
}

QList<QString> Catalogue::sessionNamesOfTask(qint64 taskId) const
{
    return m_store.isOpen() ? m_store.sessionNamesOfTask(taskId) : QList<QString>{};
}

QList<Store::AgentMessageRecord> Catalogue::agentMessages(qint64 sessionId,
                                                          bool withCompacted) const
{
    return m_store.isOpen() ? m_store.agentMessages(sessionId, withCompacted)
                            : QList<Store::AgentMessageRecord>{};
}

} // namespace Eddy::Monitor
