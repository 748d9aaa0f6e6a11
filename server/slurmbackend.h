#pragma once

// --backend slurm: every case is a Slurm batch job running eddy-cfd-solve in its case folder
// (server/casefolder.h). One dispatcher thread submits queued tasks with sbatch; one refresher
// thread asks Slurm about ALL live jobs with a single squeue (or REST /jobs call, --slurm-rest)
// per cycle (--slurm-refresh-ms) and turns what it sees, plus the case folders, into task states. tasks/get never calls Slurm.

#include "server/backend.h"
#include "server/serveroptions.h"
#include "server/slurmapi.h"
#include "server/slurmcli.h"
#include "server/slurmcompletions.h"
#include "server/slurmjobs.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace Eddy::Server {

class TaskManager;

class SlurmBackend final : public Backend
{
public:
    SlurmBackend(TaskManager &tasks, const ServerOptions &options);
    ~SlurmBackend() override;

    bool start(std::string &error) override;
    void stop() override;
    void beforeCancel(const std::string &id) override;
    void cancelled(const std::string &id, int attempt) override;
    void released(const std::string &id, int attempt) override;

private:
    struct Job
    {
        std::string jobId; // empty: lost between sbatch and the store; resolved from the folder
        int attempt = 0;
        std::string dir;
        bool retry = false; // the mesh question, if asked again, follows a repair
        bool sawRunning = false;
        int missing = 0; // refreshes in a row that squeue did not list the job
        // When squeue first showed the job ended in a state Slurm may still requeue it from (a
        // --requeue job killed by `scontrol requeue` or a node failure can show FAILED for a
        // moment before PENDING); 0 while it shows it live.
        std::int64_t endSeenMs = 0;
    };

    void dispatchLoop();
    void dispatch(const std::string &id);
    // Waits up to seconds; true when the server is stopping.
    bool pause(int seconds);
    enum class Claim { Submit, Found, Wait };
    // The shared-folder lock that keeps two replicas from submitting the same attempt.
    Claim claimSubmission(const std::string &id, Job &job);
    std::string findByComment(const std::string &comment, bool &ok);
    void refreshLoop();
    void refresh();
    // Settles a job that Slurm reports ended (state) or no longer lists (state empty) from its
    // case folder and the job completion log. True when the job needs no more watching.
    bool
    settle(const std::string &id, Job &job, const std::string &state, const std::string &reason);
    // A job whose id was never stored (the server died right after submitting and Slurm did not
    // answer at the next start): found by its comment in the first answer that lists it.
    void adopt(const std::string &id, Job &job, const SlurmApi::Jobs &jobs);
    // Ends released jobs (released()) that Slurm still runs well after their release; states:
    // this refresh's squeue, job id -> state.
    void endReleased(const std::map<std::string, std::string> &states);
    // Cancels a job once: a cancel that arrives while a refresh finds the same task no longer
    // working would otherwise end its job twice (two scancel or DELETE calls). False with why
    // when Slurm did not take it (it may then be tried again).
    bool cancelJob(const std::string &jobId, std::string &why);
    void writeStats(std::size_t liveJobs);

    TaskManager &m_tasks;
    const ServerOptions m_options;
    std::string m_caseDir;
    std::string m_solver;
    SlurmCli m_cli;                 // scontrol show config, and the CLI way of asking
    std::unique_ptr<SlurmApi> m_api; // submit, refresh, cancel: CLI or --slurm-rest
    bool m_rest = false;
    SlurmJobs m_store;

    std::mutex m_mutex;                // guards m_live and m_released
    std::map<std::string, Job> m_live; // task id -> its current job
    std::map<std::string, std::int64_t> m_released; // job id -> when released (ms), see released()
    std::set<std::string> m_cancelSent; // jobs cancelled and not yet seen ended, see cancelJob()

    SlurmCompletions m_completions; // the job completion log, when the cluster keeps one
    int m_failedRefreshes = 0;
    std::int64_t m_failingSinceMs = 0;
    std::uint64_t m_refreshes = 0;
    std::uint64_t m_callsAtMinute = 0;
    std::int64_t m_minuteStartMs = 0;

    std::atomic<bool> m_stopping{false};
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    std::thread m_dispatcher;
    std::thread m_refresher;
};

} // namespace Eddy::Server
