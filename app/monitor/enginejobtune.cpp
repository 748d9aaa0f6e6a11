// A job adapter stored while its jobs are live (eddyctl adapter set in another process, the
// Job Adapter dialog): the live jobs move to the new poll settings at once, so an interval or
// batch size changed for a long sweep takes effect without restarting Eddy.
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"

namespace Eddy::Monitor {

void Engine::retuneJobs(qint64 serverId)
{
    m_jobAdapters.remove(serverId); // read again from the store on the next use
    int moved = 0;
    for (const Store::TaskRecord &t : std::as_const(m_live)) {
        if (t.serverId != serverId || !isJob(t.id))
            continue;
        // No adapter any more (or an invalid one): the next poll reports the job as no longer
        // followable (pollJobs), so its ticks stay as they were.
        if (const std::optional<PollScheduler::Ticks> ticks = jobTicks(t)) {
            m_scheduler->setTicks(t.id, *ticks);
            ++moved;
        }
    }
    if (moved > 0) {
        qCInfo(lcMonitor,
               "server %lld: job adapter changed; %d live job(s) follow it now",
               serverId,
               moved);
        armPollTimer();
    }
}

} // namespace Eddy::Monitor
