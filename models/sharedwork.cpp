#include "models/sharedwork.h"
#include "models/tasktablemodel.h"

namespace Eddy {

SharedWorkFollower::SharedWorkFollower(EngineBridge *bridge,
                                       TaskTableModel *tasks,
                                       std::function<std::optional<qint64>()> session,
                                       QObject *parent)
    : QObject(parent)
    , m_bridge(bridge)
    , m_tasks(tasks)
    , m_session(std::move(session))
{
    connect(bridge, &EngineBridge::sharedWork, this, &SharedWorkFollower::onWork);
}

void SharedWorkFollower::onWork(const EngineBridge::SharedWork &work)
{
    const std::optional<qint64> session = m_session();
    if (work.reload) { // the engine missed changes: read the shown session again
        m_bridge->requestSnapshot(session);
        return;
    }
    QList<qint64> adoptSweeps;
    QList<qint64> adoptCases;
    for (const Store::SweepRecord &sweep : work.sweeps) {
        if (session && sweep.sessionId && *sweep.sessionId != *session)
            continue; // another study's: listed there and under All sessions
        m_tasks->acceptSweep(sweep.id);
        m_bridge->requestSweep(sweep.id); // its label, varied parameters and case numbers
        if (session && !sweep.sessionId)
            adoptSweeps << sweep.id;
    }
    for (const Store::CaseRecord &call : work.calls) {
        m_tasks->acceptCase(call.id);
        if (session)
            adoptCases << call.id;
    }
    if (!work.sweeps.isEmpty() || !work.calls.isEmpty())
        m_bridge->requestServers(); // eddyctl may have added the server they run on
    if (session && (!adoptSweeps.isEmpty() || !adoptCases.isEmpty()))
        m_bridge->adoptSharedWork(*session, adoptSweeps, adoptCases);
}

} // namespace Eddy
