#pragma once

#include "app/monitor/sweepexport.h"
#include "app/vocab/records.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Eddy::Store {
class TaskStore;
}

namespace Eddy::Monitor {

// What the engine stored, read only: the one door through which the agent, eddyctl and the GUI's
// bridge read servers, tasks, questions, sweeps, sessions and the agent's messages. Plain records
// out; empty (or nullopt) when the database is not open. Lives with the engine, on its thread
// (the store's one connection lives there).
class Catalogue final
{
    Q_DISABLE_COPY_MOVE(Catalogue)

public:
    // beforeSamples runs before progressSamples() reads (the engine sends out the samples it
    // stored but has not reported yet, so a reader never gets one twice).
    Catalogue(Store::TaskStore &store, std::function<void()> beforeSamples);

    QList<Store::ServerRecord> servers(bool withRetired = false) const; // removed ones on request
    std::optional<Store::ServerRecord> server(qint64 serverId) const;
    // Stored tasks of a server, and how many of them still run.
    std::optional<Store::ServerUse> serverUse(qint64 serverId) const;
    QStringList serverTaskIds() const; // every server task id stored: what a transcript must not hold

    std::optional<Store::TaskRecord> task(qint64 taskId) const;
    QList<Store::TaskRecord> tasks(const Store::TaskQuery &query = {}) const;
    QList<Store::TaskEventRecord> taskEvents(qint64 taskId) const;
    QList<Store::ProgressSample> progressSamples(qint64 taskId) const;
    std::optional<Store::ProgressSample> latestSample(qint64 taskId, const QString &series) const;

    std::optional<Store::InputRequestRecord> inputRequest(qint64 taskId, const QString &key) const;
    QList<Store::InputRequestRecord> inputRequests(qint64 taskId) const;
    QList<Store::InputRequestRecord> pendingInputRequests() const;
    QList<Store::InputRequestRecord> answeredInputRequests() const;

    QList<Store::SweepRecord> sweeps() const;
    std::optional<Store::SweepRecord> sweep(qint64 sweepId) const;
    QList<Store::CaseRecord> cases(std::optional<qint64> sweepId) const;
    std::optional<Store::CaseRecord> caseRecord(qint64 caseId) const;
    // Lineage of a relaunch (see TaskStore::childTaskIds/parentTaskId).
    QList<qint64> childTaskIds(qint64 caseId) const;
    std::optional<qint64> parentTaskId(const Store::CaseRecord &c) const;
    // A sweep's export rows (SweepExport::rows).
    QList<SweepExport::Row> exportRows(qint64 sweepId) const;

    QList<Store::SessionRecord> sessions() const;
    std::optional<Store::SessionRecord> sessionByName(const QString &name) const;
    QList<QString> sessionNamesOfTask(qint64 taskId) const;
    // withCompacted: the messages a summary replaced as well.
    QList<Store::AgentMessageRecord> agentMessages(qint64 sessionId, bool withCompacted = false) const;

private:
    Store::TaskStore &m_store;
    std::function<void()> m_beforeSamples;
};

} // namespace Eddy::Monitor
