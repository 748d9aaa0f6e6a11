#include "server/slurmbackend.h"

#include "server/casefolder.h"
#include "server/foamtool.h"
#include "server/log.h"
#include "server/slurmconfig.h"
#include "server/slurmrest.h"
#include "server/taskmanager.h"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <pwd.h>
#include <unistd.h>
#include <vector>

namespace Eddy::Server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string shellQuote(const std::string &s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string jobName(const std::string &caseKey)
{
    return "eddy-" + caseKey.substr(0, 12);
}

std::string commentFor(const std::string &caseKey, int attempt)
{
    return "eddy:" + caseKey + ":" + std::to_string(attempt);
}

// How long a job must show FAILED, NODE_FAIL or PREEMPTED before it is taken as ended without
// a result: Slurm requeues a --requeue job from those, and squeue can show the state before the
// requeue.
constexpr std::int64_t kRequeueGraceMs = 5000;

bool isEnded(const std::string &state)
{
    return state == "COMPLETED" || state == "FAILED" || state == "CANCELLED" || state == "TIMEOUT"
           || state == "NODE_FAIL" || state == "OUT_OF_MEMORY" || state == "BOOT_FAIL"
           || state == "DEADLINE" || state == "PREEMPTED" || state == "SPECIAL_EXIT";
}

// Why a job that ended without a result did so, in words an engineer can act on.
std::string endedBecause(const std::string &state)
{
    if (state == "TIMEOUT")
        return "it ran past its time limit";
    if (state == "CANCELLED")
        return "it was cancelled outside Eddy (scancel or an administrator)";
    if (state == "NODE_FAIL" || state == "BOOT_FAIL")
        return "its compute node failed";
    if (state == "OUT_OF_MEMORY")
        return "it ran out of memory";
    if (state == "PREEMPTED")
        return "a higher-priority job preempted it";
    return "it ended " + state;
}

std::int64_t nowMs()
{
    return TaskManager::nowMs();
}

} // namespace

SlurmBackend::SlurmBackend(TaskManager &tasks, const ServerOptions &options)
    : m_tasks(tasks)
    , m_options(options)
{}

SlurmBackend::~SlurmBackend()
{
    stop();
}

bool SlurmBackend::start(std::string &error)
{
    std::error_code ec;
    m_caseDir = m_options.slurmCaseDir();
    fs::create_directories(m_caseDir, ec);
    if (ec || !fs::is_directory(m_caseDir)) {
        error = "cannot create the case folder '" + m_caseDir + "': " + ec.message()
                + "; pass a writable folder shared with the compute nodes as --case-dir";
        return false;
    }
    m_solver = m_options.slurmSolver;
    if (m_solver.empty()) {
        m_solver
            = (fs::read_symlink("/proc/self/exe", ec).parent_path() / "eddy-cfd-solve").string();
    }
    if (::access(m_solver.c_str(), X_OK) != 0) {
        error = "the solver '" + m_solver
                + "' is missing or not executable; install "
                  "eddy-cfd-solve next to eddy-cfd-server or pass --slurm-solver PATH";
        return false;
    }
    if (!m_store.open((fs::path(m_options.dataDir) / "tasks.sqlite").string(), error))
        return false;
    m_rest = !m_options.slurmRest.empty();
    std::string user = m_options.slurmUser;
    std::string warning; // the token is another user's
    if (m_rest) {
        if (const passwd *pw = user.empty() ? ::getpwuid(::geteuid()) : nullptr)
            user = pw->pw_name;
        auto rest = std::make_unique<SlurmRest>(
            m_options.slurmRest, m_options.slurmJwtFile, user, m_options.slurmRestTimeoutS);
        if (!rest->check(error)) {
            error = "cannot use the Slurm REST API at " + m_options.slurmRest + ": " + error;
            return false;
        }
        warning = rest->warning();
        m_api = std::move(rest);
    } else {
        m_api = std::make_unique<SlurmCliApi>(m_cli);
    }
    // One look at the cluster's configuration: is Slurm there, and where is its completion log.
    // With REST only, the Slurm tools may be missing here: slurm.conf itself then says.
    SlurmConfig config;
    std::string why, confWhy;
    if (!config.ask(m_cli, why) && !(m_rest && config.read(confWhy))) {
        if (!m_rest) {
            error = "cannot reach Slurm: " + why
                    + "; check that slurmctld runs and SLURM_CONF points at its slurm.conf";
            return false;
        }
        Log::warn("no job completion log: " + why + ", and " + confWhy
                  + "; a job Slurm forgets is resolved from its case folder only");
    }
    m_completions.setPath(config.compType == "jobcomp/filetxt" ? config.compLoc : std::string());
    if (config.compType != "jobcomp/filetxt") {
        Log::warn("Slurm's JobCompType is '" + config.compType
                  + "', not jobcomp/filetxt: a job Slurm forgets (MinJobAge " + config.minJobAge
                  + ") is resolved from its case folder only");
    }
    if (!warning.empty())
        Log::warn(warning);
    Log::info("slurm backend: cases in " + m_caseDir + ", solver " + m_solver
              + (m_rest ? ", REST API " + m_options.slurmRest + " as " + user
                              + (warning.empty() ? std::string()
                                                 : " with another user's token (see the warning)")
                              + ", answer time-out " + std::to_string(m_options.slurmRestTimeoutS)
                              + " s, /jobs every "
                        : std::string(", squeue every "))
              + std::to_string(m_options.slurmRefreshMs) + " ms, MinJobAge " + config.minJobAge
              + (m_completions.path().empty() ? "" : ", job completion log " + m_completions.path())
              + (config.source.empty() ? "" : " (from " + config.source + ")"));
    m_minuteStartMs = nowMs();
    m_callsAtMinute = m_api->calls();
    m_dispatcher = std::thread([this] { dispatchLoop(); });
    m_refresher = std::thread([this] { refreshLoop(); });
    return true;
}

void SlurmBackend::stop()
{
    {
        const std::lock_guard lock(m_wakeMutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_dispatcher.joinable())
        m_dispatcher.join();
    if (m_refresher.joinable())
        m_refresher.join();
}

void SlurmBackend::dispatchLoop()
{
    std::string id;
    while (m_tasks.nextQueued(id))
        dispatch(id);
}

std::string SlurmBackend::findByComment(const std::string &comment, bool &ok)
{
    SlurmApi::Jobs jobs;
    std::string why;
    ok = m_api->jobs(jobs, why);
    for (const auto &[jobId, job] : jobs)
        if (job.comment == comment)
            return jobId;
    return {};
}

void SlurmBackend::dispatch(const std::string &id)
{
    TaskRecord record;
    if (!m_tasks.claim(id, record))
        return;
    const std::string key = CaseFolder::caseKey(id);
    Job job;
    job.attempt = int(record.repairs.size());
    job.retry = !record.repairs.empty();
    job.dir = (fs::path(m_caseDir) / key).string();
    const std::string comment = commentFor(key, job.attempt);
    const std::string shortId = Log::redact(id);
    bool submitted = false; // by this replica, in this call
    const auto track = [&](const std::string &message) {
        {
            const std::lock_guard lock(m_mutex);
            m_live[id] = job;
        }
        if (m_tasks.report(id, message) || submitted)
            return; // a job submitted here and no longer wanted is ended by the next refresh
        // Cancelled, answered or settled elsewhere meanwhile: whoever did so owns the job.
        const std::lock_guard lock(m_mutex);
        const auto it = m_live.find(id);
        if (it != m_live.end() && it->second.attempt == job.attempt)
            m_live.erase(it);
    };
    const auto fail = [&](const std::string &why) {
        Log::error("task " + shortId + ": " + why);
        m_tasks.finish(
            id,
            job.attempt,
            TaskStatus::Failed,
            nullptr,
            {{"code", -32603}, {"message", "The case could not be run on Slurm: " + why}},
            "not submitted to Slurm: " + why);
    };

    std::string stored, error;
    const bool known = m_store.find(id, job.attempt, stored);
    if (known && !stored.empty()) {
        job.jobId = stored;
        Log::info("task " + shortId + " follows its Slurm job " + stored + " again");
        track("following Slurm job " + stored + " again after a server restart");
        return;
    }
    if (known) {
        // Submitted before a crash that came before the job id was stored: find it by comment.
        bool ok = false;
        job.jobId = findByComment(comment, ok);
        if (!ok) {
            // Slurm does not answer: better wait than risk a second job for the same attempt.
            track("waiting for Slurm to answer before resubmitting");
            Log::warn("task " + shortId + ": squeue failed; the job is looked for next cycle");
            return;
        }
        if (!job.jobId.empty()) {
            m_store.setJob(id, job.attempt, job.jobId, error);
            Log::info("task " + shortId + ": found Slurm job " + job.jobId
                      + " by its comment after a restart; not submitting again");
            track("following Slurm job " + job.jobId + " found after a server restart");
            return;
        }
        const json earlier
            = CaseFolder::readJson((fs::path(job.dir) / CaseFolder::kCaseFile).string());
        if (fs::exists(fs::path(job.dir) / CaseFolder::kProgressFile) && !earlier.is_discarded()
            && earlier.value("attempt", -1) == job.attempt) {
            // The job ran and Slurm has forgotten it: settle it from the folder, no resubmission.
            track("resolving a job Slurm no longer lists");
            return;
        }
    }

    std::error_code ec;
    fs::create_directories(job.dir, ec);
    // Replicas share the case folder: only the one that creates this attempt's lock submits.
    switch (claimSubmission(id, job)) {
    case Claim::Submit:
        break;
    case Claim::Found:
        track("following Slurm job " + job.jobId + " submitted by another replica");
        return;
    case Claim::Wait:
        track("waiting: another replica is submitting this case");
        return;
    }
    if (job.attempt > 0) {
        // A new attempt after a mesh answer starts clean; the earlier attempt left no checkpoint.
        for (const char *name :
             {CaseFolder::kCheckpointFile, CaseFolder::kResultFile, CaseFolder::kErrorFile})
            fs::remove(fs::path(job.dir) / name, ec);
    }
    json spec = {{"attempt", job.attempt},
                 {"arguments", record.arguments},
                 {"repairs", record.repairs},
                 {"checkpoint_interval_ms", m_options.checkpointIntervalMs}};
    const bool foam = FoamTool::isFoamTask(record.arguments);
    if (foam) {
        // The OpenFOAM case beside the job folders, as DATA_DIR/openfoam/KEY is locally; every
        // attempt of the task continues in it (FoamRunner's own state file says how far it got).
        const fs::path cases = m_options.openfoamCases;
        spec["openfoam"]
            = {{"case_folder", (fs::path(m_caseDir) / "openfoam" / key).string()},
               {"cases_root", cases.empty() ? std::string() : fs::absolute(cases, ec).string()}};
    }
    const std::string script = "#!/bin/sh\n# eddy-cfd-server case " + key + ", attempt "
                               + std::to_string(job.attempt) + "\nexec " + shellQuote(m_solver)
                               + " " + shellQuote(job.dir) + "\n";
    const std::string scriptPath = (fs::path(job.dir) / "job.sh").string();
    if (!CaseFolder::writeAtomically(
            (fs::path(job.dir) / CaseFolder::kCaseFile).string(), spec.dump(), error)
        || !CaseFolder::writeAtomically(scriptPath, script, error)) {
        fail("cannot write the case folder (" + error + "); check --case-dir");
        return;
    }
    fs::permissions(scriptPath, fs::perms::owner_all, ec);
    if (!m_store.intend(id, job.attempt, error)) {
        fail("cannot store the submission (" + error + "); check the disk under --data-dir");
        return;
    }
    const SlurmApi::Submission submission{jobName(key),
                                          comment,
                                          m_options.slurmPartition,
                                          job.dir,
                                          scriptPath,
                                          script,
                                          job.dir + "/slurm-%j.out",
                                          foam ? record.arguments.value("processors", 1) : 1};
    SlurmApi::Submitted r = m_api->submit(submission);
    // Slurm not reached, nothing went out (slurmrestd down or restarting): try again until it
    // answers, the count and the time in the task's message; a cancel or a stop ends the wait.
    const std::int64_t since = nowMs();
    for (int tries = 1; r.jobId.empty() && r.retryable; ++tries) {
        const int seconds = std::min(tries, 3);
        if (!m_tasks.report(id,
                            "not submitted yet: Slurm is not answering (" + r.why + "; "
                                + std::to_string(tries) + (tries == 1 ? " try in " : " tries in ")
                                + std::to_string((nowMs() - since) / 1000) + " s); trying again in "
                                + std::to_string(seconds) + " s")
            || pause(seconds))
            return; // a stop leaves the task working: the next start submits it (intent row)
        r = m_api->submit(submission);
    }
    if (r.jobId.empty() && r.unsure) {
        // The job may exist: look for it by its comment before anything else.
        bool ok = false;
        r.jobId = findByComment(comment, ok);
        if (r.jobId.empty()) {
            // Each refresh looks for it by comment (adopt()); the intent row makes the next
            // start do so, too.
            Log::warn("task " + shortId + ": " + r.why
                      + "; its job is looked for by its comment, never submitted again");
            track("waiting: " + r.why);
            return;
        }
    }
    if (r.jobId.empty()) {
        fail(r.why
             + ". Check --slurm-partition and that slurmctld runs, then rerun "
               "the case");
        return;
    }
    const std::string jobId = r.jobId;
    if (!m_store.setJob(id, job.attempt, jobId, error))
        Log::error("task " + shortId + ": cannot store Slurm job id " + jobId + ": " + error);
    job.jobId = jobId;
    submitted = true;
    Log::info("task " + shortId + " submitted as Slurm job " + jobId + " (attempt "
              + std::to_string(job.attempt) + ")");
    track("queued (Slurm job submitted)");
}

bool SlurmBackend::pause(int seconds)
{
    std::unique_lock lock(m_wakeMutex);
    return m_wake.wait_for(
        lock, std::chrono::seconds(seconds), [this] { return m_stopping.load(); });
}

void SlurmBackend::beforeCancel(const std::string &id)
{
    Job job;
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_live.find(id);
        if (it == m_live.end())
            return;
        job = it->second;
    }
    const json done = CaseFolder::readJson((fs::path(job.dir) / CaseFolder::kResultFile).string());
    if (!done.is_discarded() && done.value("attempt", -1) == job.attempt)
        settle(id, job, "COMPLETED", {});
}

void SlurmBackend::cancelled(const std::string &id, int attempt)
{
    Job job;
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_live.find(id);
        if (it != m_live.end()) {
            job = it->second;
            m_live.erase(it);
        }
    }
    // A replica that took the task over only for this cancel does not follow its job: the
    // shared store knows it. (A job still being submitted elsewhere is ended by its submitter.)
    if (job.jobId.empty())
        m_store.find(id, attempt, job.jobId);
    if (job.jobId.empty())
        return;
    std::string why;
    if (cancelJob(job.jobId, why)) {
        Log::info("task " + Log::redact(id) + ": " + (m_rest ? "REST cancel of job " : "scancel ")
                  + job.jobId);
        return;
    }
    // Slurm not answering (slurmrestd down): the job would run on. endReleased() ends it at the
    // first refresh Slurm answers, if it still runs then (0: no grace left).
    Log::warn("task " + Log::redact(id) + ": " + why + "; the job is cancelled when Slurm answers");
    const std::lock_guard lock(m_mutex);
    m_released[job.jobId] = 0;
}

bool SlurmBackend::cancelJob(const std::string &jobId, std::string &why)
{
    {
        const std::lock_guard lock(m_mutex);
        if (!m_cancelSent.insert(jobId).second)
            return true; // another path has just ended it
    }
    if (m_api->cancel(jobId, why))
        return true;
    const std::lock_guard lock(m_mutex);
    m_cancelSent.erase(jobId);
    return false;
}

void SlurmBackend::released(const std::string &id, int attempt)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_live.find(id);
    if (it == m_live.end() || it->second.attempt != attempt)
        return;
    // Normally the job has ended or the replica that took the cancel has ended it; one it could
    // not find (submitted here at that moment) or left running (it died) is ended here, later.
    if (!it->second.jobId.empty())
        m_released[it->second.jobId] = nowMs();
    m_live.erase(it);
}

void SlurmBackend::endReleased(const std::map<std::string, std::string> &states)
{
    std::vector<std::pair<std::string, bool>> stale; // job id, cancelled here unheard (time 0)
    {
        const std::lock_guard lock(m_mutex);
        const std::int64_t grace = std::max<std::int64_t>(10000, 3 * m_options.slurmRefreshMs);
        for (auto it = m_released.begin(); it != m_released.end();) {
            const auto seen = states.find(it->first);
            if (seen == states.end() || isEnded(seen->second) || seen->second == "COMPLETING") {
                it = m_released.erase(it);
            } else if (nowMs() - it->second >= grace) {
                stale.emplace_back(it->first, it->second == 0);
                it = m_released.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const auto &[jobId, unheard] : stale) {
        Log::info((m_rest ? "REST cancel of job " : "scancel ") + jobId
                  + (unheard ? ": its task was cancelled while Slurm did not answer"
                             : ": its task ended on another replica")
                  + " and the job still runs");
        std::string why;
        if (!cancelJob(jobId, why))
            Log::warn(why);
    }
}

void SlurmBackend::refreshLoop()
{
    std::unique_lock wait(m_wakeMutex);
    while (!m_stopping) {
        m_wake.wait_for(wait, std::chrono::milliseconds(m_options.slurmRefreshMs), [this] {
            return m_stopping.load();
        });
        if (m_stopping)
            break;
        wait.unlock();
        // Replicas: what others stored first, so that no job they ended reads as a failure here
        // and listeners here hear of their answers and cancels within one cycle.
        m_tasks.catchUp();
        refresh();
        wait.lock();
    }
}

void SlurmBackend::refresh()
{
    std::map<std::string, Job> live;
    bool released = false;
    {
        const std::lock_guard lock(m_mutex);
        live = m_live;
        released = !m_released.empty();
    }
    if (!live.empty() || released) {
        ++m_refreshes;
        // ONE call for every live job, whatever their number: state, reason, id.
        SlurmApi::Jobs jobs;
        std::string why;
        if (!m_api->jobs(jobs, why)) {
            if (m_failedRefreshes++ == 0)
                m_failingSinceMs = nowMs();
            if (m_failedRefreshes == 3)
                Log::warn("Slurm does not answer: " + why);
            // Each call is bounded by its time-out; the message counts them and says since when.
            const std::string since = std::to_string((nowMs() - m_failingSinceMs) / 1000);
            if (m_failedRefreshes >= 3)
                for (const auto &[id, job] : live)
                    m_tasks.report(id,
                                   "Slurm is not answering (" + why + "; "
                                       + std::to_string(m_failedRefreshes) + " tries in " + since
                                       + " s); the case's state shows again when it does");
        } else {
            m_failedRefreshes = 0;
            std::map<std::string, std::pair<std::string, std::string>> seen;
            for (const auto &[jobId, j] : jobs)
                seen[jobId] = {j.state, j.reason};
            {
                // A cancelled job is forgotten here once Slurm shows it ended or gone.
                const std::lock_guard lock(m_mutex);
                for (auto it = m_cancelSent.begin(); it != m_cancelSent.end();) {
                    const auto state = seen.find(*it);
                    if (state == seen.end() || isEnded(state->second.first))
                        it = m_cancelSent.erase(it);
                    else
                        ++it;
                }
            }
            if (released) {
                std::map<std::string, std::string> states;
                for (const auto &[jobId, stateAndReason] : seen)
                    states[jobId] = stateAndReason.first;
                endReleased(states);
            }
            std::vector<std::string> done;
            std::vector<std::string> orphans; // live jobs of tasks no longer working (purged)
            for (auto &[id, job] : live) {
                if (job.jobId.empty())
                    adopt(id, job, jobs);
                const auto it = job.jobId.empty() ? seen.end() : seen.find(job.jobId);
                bool finished = false;
                if (it == seen.end()) {
                    finished = settle(id, job, {}, {});
                } else {
                    const auto &[state, reason] = it->second;
                    const std::string folder = job.dir;
                    job.missing = 0;
                    if (!isEnded(state))
                        job.endSeenMs = 0;
                    if (isEnded(state)) {
                        // A state Slurm may requeue from counts once it has held for a while.
                        const bool mayRequeue = state == "FAILED" || state == "NODE_FAIL" || state == "PREEMPTED";
                        if (mayRequeue && job.endSeenMs == 0)
                            job.endSeenMs = nowMs();
                        if (!mayRequeue || nowMs() - job.endSeenMs >= kRequeueGraceMs)
                            finished = settle(id, job, state, reason);
                    } else if (state == "PENDING" || state == "REQUEUED" || state == "REQUEUE_HOLD"
                               || state == "REQUEUE_FED") {
                        const bool requeued = job.sawRunning || state != "PENDING";
                        finished = !m_tasks.report(
                            id,
                            requeued ? "requeued by Slurm (" + reason
                                           + "); it resumes from its checkpoint"
                                     : "queued (Slurm job pending: " + reason + ")");
                    } else if (state == "RUNNING" || state == "COMPLETING") {
                        job.sawRunning = true;
                        std::string line = CaseFolder::lastLine(
                            (fs::path(folder) / CaseFolder::kProgressFile).string());
                        finished = !m_tasks.report(
                            id, line.empty() ? "starting (Slurm job running)" : line);
                    } else {
                        finished = !m_tasks.report(id, "Slurm job " + state + " (" + reason + ")");
                    }
                }
                if (finished)
                    done.push_back(id);
                if (finished && it != seen.end() && !isEnded(it->second.first))
                    orphans.push_back(job.jobId);
            }
            for (const std::string &jobId : orphans) {
                Log::info((m_rest ? "REST cancel of job " : "scancel ") + jobId
                          + ": its task is no longer waiting for it");
                std::string why;
                if (!cancelJob(jobId, why))
                    Log::warn(why);
            }
            const std::lock_guard lock(m_mutex);
            for (const auto &[id, job] : live) {
                const auto it = m_live.find(id);
                // Cancelled or resubmitted meanwhile: not for this refresh to update.
                if (it == m_live.end() || it->second.attempt != job.attempt
                    || (it->second.jobId != job.jobId && !it->second.jobId.empty()))
                    continue;
                it->second.jobId = job.jobId; // adopt() may have found it
                if (std::find(done.begin(), done.end(), id) != done.end())
                    m_live.erase(it);
                else {
                    it->second.sawRunning = job.sawRunning;
                    it->second.missing = job.missing;
                    it->second.endSeenMs = job.endSeenMs;
                }
            }
        }
    }
    writeStats(live.size());
}

void SlurmBackend::adopt(const std::string &id, Job &job, const SlurmApi::Jobs &jobs)
{
    const std::string comment = commentFor(CaseFolder::caseKey(id), job.attempt);
    for (const auto &[jobId, listed] : jobs) {
        if (listed.comment != comment)
            continue;
        job.jobId = jobId;
        std::string error;
        if (!m_store.setJob(id, job.attempt, jobId, error))
            Log::error("task " + Log::redact(id) + ": cannot store Slurm job id " + jobId + ": "
                       + error);
        Log::info("task " + Log::redact(id) + ": found Slurm job " + jobId
                  + " by its comment once Slurm answered; not submitting again");
        return;
    }
}

bool SlurmBackend::settle(const std::string &id,
                          Job &job,
                          const std::string &state,
                          const std::string &reason)
{
    const auto file = [&](const char *name) {
        return (fs::path(job.dir) / name).string();
    };
    const auto mine = [&](const json &j) {
        return !j.is_discarded() && j.value("attempt", -1) == job.attempt;
    };
    const json result = CaseFolder::readJson(file(CaseFolder::kResultFile));
    if (mine(result) && result.contains("result")) {
        m_tasks.finish(id,
                       job.attempt,
                       TaskStatus::Completed,
                       result["result"],
                       nullptr,
                       result.value("message", std::string("completed")));
        return true;
    }
    const json question = CaseFolder::readJson(file(CaseFolder::kQuestionFile));
    if (mine(question) && question.contains("question")) {
        // run_openfoam_case: checkMesh's findings, asked as the job put them.
        m_tasks.askAboutFoamMesh(
            id, job.attempt, question["question"], question.value("summary", std::string()));
        return true;
    }
    if (mine(question)) {
        m_tasks.askAboutMesh(id,
                             job.attempt,
                             CaseFolder::qualityFromJson(question.value("quality", json())),
                             job.retry);
        return true;
    }
    const json failure = CaseFolder::readJson(file(CaseFolder::kErrorFile));
    if (mine(failure)) {
        const std::string message = failure.value("message", std::string("The solver failed"));
        m_tasks.finish(id,
                       job.attempt,
                       TaskStatus::Failed,
                       nullptr,
                       {{"code", -32603}, {"message", message}},
                       "solver failed: " + message);
        return true;
    }
    const std::string log = job.jobId.empty() ? std::string("the case folder")
                                              : "slurm-" + job.jobId + ".out in the case folder";
    std::string why;
    if (!state.empty()) {
        why = "Slurm job " + job.jobId + " ended without a result: " + endedBecause(state)
              + (reason.empty() || reason == "None" ? "" : " (" + reason + ")") + "; see " + log;
    } else {
        SlurmCompletions::Completion c;
        if (m_completions.lookUp(job.jobId, jobName(fs::path(job.dir).filename().string()), c)) {
            why = "Slurm job " + job.jobId + " ended without a result: " + endedBecause(c.state)
                  + ", exit code " + c.exitCode + " (from the job completion log); see " + log;
        } else {
            // squeue may miss a job for a moment (controller restart): give it two more cycles.
            if (++job.missing < 3)
                return false;
            why = (job.jobId.empty() ? std::string("the Slurm job of this case was lost before its "
                                                   "id was stored")
                                     : "Slurm no longer lists job " + job.jobId)
                  + ", "
                  + (m_completions.path().empty() ? "no job completion log is configured"
                                                  : "the job completion log has no record of it")
                  + " and the case folder has no result, so the outcome is unknown. Rerun the "
                    "case (and set JobCompType=jobcomp/filetxt so that Slurm keeps a record)";
        }
    }
    if (why.empty())
        why = "Slurm job " + job.jobId + " ended without a result; see " + log;
    Log::warn("task " + Log::redact(id) + ": " + why);
    m_tasks.finish(id,
                   job.attempt,
                   TaskStatus::Failed,
                   nullptr,
                   {{"code", -32603}, {"message", why}},
                   "failed on Slurm: " + why);
    return true;
}

void SlurmBackend::writeStats(std::size_t liveJobs)
{
    const std::int64_t now = nowMs();
    if (now - m_minuteStartMs >= 60000) {
        Log::info("slurm: " + std::to_string(m_api->calls() - m_callsAtMinute)
                  + (m_rest ? " REST" : " command-line") + " calls in the last minute, "
                  + std::to_string(liveJobs) + " live jobs");
        m_minuteStartMs = now;
        m_callsAtMinute = m_api->calls();
    }
    if (m_options.slurmStatsFile.empty())
        return;
    json stats = {{"calls", m_cli.calls() + (m_rest ? m_api->calls() : 0)},
                  {"cli_calls", m_cli.calls()},
                  {"refreshes", m_refreshes},
                  {"live_jobs", liveJobs},
                  {"time_ms", now}};
    stats.update(m_api->counters());
    std::string error;
    CaseFolder::writeAtomically(m_options.slurmStatsFile, stats.dump() + "\n", error);
}

} // namespace Eddy::Server

namespace Eddy::Server {

SlurmBackend::Claim SlurmBackend::claimSubmission(const std::string &id, Job &job)
{
    // O_CREAT|O_EXCL is atomic on a local file system and on NFSv3+: exactly one replica wins.
    const std::string lock
        = (fs::path(job.dir) / ("submit-" + std::to_string(job.attempt) + ".lock")).string();
    for (int round = 0; round < 2; ++round) {
        const int fd = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            ::close(fd);
            return Claim::Submit;
        }
        if (errno != EEXIST)
            return Claim::Submit; // no lock possible: behave as a single server would
        // The winner stores the job id in the shared store right after sbatch (~40 ms).
        for (int i = 0; i < 50 && !m_stopping; ++i) {
            std::string stored;
            if (m_store.find(id, job.attempt, stored) && !stored.empty()) {
                job.jobId = stored;
                return Claim::Found;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        bool ok = false;
        job.jobId = findByComment(commentFor(CaseFolder::caseKey(id), job.attempt), ok);
        if (!ok)
            return Claim::Wait;
        if (!job.jobId.empty()) {
            std::string error;
            m_store.setJob(id, job.attempt, job.jobId, error);
            return Claim::Found;
        }
        // 10 s and no job: the lock's owner died before sbatch. Break the stale lock once.
        Log::warn("task " + Log::redact(id) + ": a stale submission lock; submitting here");
        std::error_code ec;
        fs::remove(lock, ec);
    }
    return Claim::Wait;
}

} // namespace Eddy::Server
