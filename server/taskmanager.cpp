#include "server/taskmanager.h"

#include "server/backend.h"
#include "server/cfdtool.h"
#include "server/foamtool.h"
#include "server/log.h"
#include "server/pollstats.h"
#include "server/replicaids.h"
#include "server/secrets.h"
#include "server/solver/cavitysolver.h"
#include "server/sse.h"
#include "server/taskstore.h"

#include <algorithm>
#include <chrono>
#include <malloc.h>
#include <set>

namespace Eddy::Server {

using nlohmann::json;

namespace {

// A case within 10x of its tolerance or in its last 10% of iterations is about to end (its
// rendering asks for quicker polls, HeldTasks::render).
constexpr double kNearEndResidualFactor = 10.0;
constexpr double kNearEndIterationShare = 0.9;

} // namespace

TaskManager::TaskManager(TaskStore &store, const ServerOptions &options)
    : m_store(store)
    , m_options(options)
    , m_held(store, m_options.pollIntervalMs)
    , m_replicas(m_held,
                 store,
                 [this](const std::string &id, int released) {
                     if (released >= 0 && m_backend)
                         m_backend->released(id, released);
                     notify(id);
                 })
    , m_foamCases(m_options)
    , m_answers(m_foamCases)
    , m_fanout([this](const std::string &id, std::string &fragment, std::string &owner) {
        return renderForFanout(id, fragment, owner);
    })
{}

TaskManager::~TaskManager()
{
    shutdown();
}

bool TaskManager::start(std::string &error)
{
    m_startedMs = nowMs();
    std::string warnings;
    // Finished tasks past --results-in-memory-ms are held cold from the start: the janitor
    // would drop their results within a second anyway.
    const std::int64_t coldBefore = nowMs() - m_options.resultsInMemoryMs;
    std::vector<TaskRecord> records = m_store.loadAll(warnings, coldBefore);
    if (!warnings.empty())
        Log::warn(warnings);
    const std::int64_t now = nowMs();
    int resumed = 0, purged = 0, cold = 0;
    {
        const std::unique_lock lock(m_held.mutex);
        for (TaskRecord &r : records) {
            if (r.createdMs + r.ttlMs <= now) {
                m_store.remove(r.id);
                ++purged;
                continue;
            }
            if (r.status == TaskStatus::Working)
                ++resumed;
            m_replicas.saw(r.seq);
            const bool withoutResult = isTerminal(r.status) && r.updatedMs < coldBefore;
            cold += withoutResult ? 1 : 0;
            m_held.insertLoaded(std::move(r), withoutResult);
        }
    }
    Log::info("loaded " + std::to_string(m_held.tasks.size()) + " tasks (" + std::to_string(resumed)
              + " to resume, " + std::to_string(purged) + " expired and purged, " + std::to_string(cold)
              + " finished with their results left in the database)");
    if (m_backend && !m_backend->start(error))
        return false;
    try {
        for (int i = 0; !m_backend && i < m_options.workers; ++i)
            m_workers.emplace_back([this] { workerLoop(); });
        m_janitor = std::thread([this] { janitorLoop(); });
    } catch (const std::system_error &e) {
        error = std::string("cannot start worker threads: ") + e.what();
        return false;
    }
    return true;
}

void TaskManager::shutdown()
{
    if (m_stopping.exchange(true))
        return;
    {
        const std::unique_lock lock(m_held.mutex);
        m_held.queueCv.notify_all();
    }
    {
        const std::lock_guard lock(m_janitorMutex);
        m_janitorCv.notify_all();
    }
    for (std::thread &t : m_workers)
        if (t.joinable())
            t.join();
    if (m_janitor.joinable())
        m_janitor.join();
    if (m_backend)
        m_backend->stop();
}

bool TaskManager::persist(const std::string &id)
{
    TaskRecord stored;
    {
        const std::lock_guard persistLock(m_persistMutex);
        TaskRecord copy;
        {
            const std::shared_lock lock(m_held.mutex);
            const auto it = m_held.tasks.find(id);
            if (it == m_held.tasks.end())
                return true; // purged meanwhile: do not bring the row back
            copy = m_held.recordOf(*it->second);
        }
        std::string error;
        std::int64_t seq = 0;
        switch (m_store.save(copy, seq, error)) {
        case TaskStore::Saved::Yes: {
            const std::unique_lock lock(m_held.mutex);
            const auto it = m_held.tasks.find(id);
            if (it != m_held.tasks.end() && it->second->record.seq < seq) {
                it->second->record.seq = seq;
                m_held.markStored(*it->second, copy);
            }
            return true;
        }
        case TaskStore::Saved::Failed:
            Log::error("cannot store task " + Log::redact(id) + ": " + error);
            return true;
        case TaskStore::Saved::Conflict:
            if (!m_store.load(id, stored))
                return false;
            break;
        }
    }
    // Another replica got there first (its answer, cancel or outcome): its state stands.
    Log::info("task " + Log::redact(id) + " was changed by another replica; taking its state");
    m_replicas.applyStored(std::move(stored));
    return false;
}

void TaskManager::notify(const std::string &id)
{
    m_fanout.notify(id);
}

bool TaskManager::renderForFanout(const std::string &id, std::string &fragment, std::string &owner) const
{
    const std::shared_lock lock(m_held.mutex);
    const auto it = m_held.tasks.find(id);
    if (it == m_held.tasks.end())
        return false;
    m_held.appendFragment(*it->second, fragment);
    owner = it->second->record.tokenHash;
    return true;
}

bool TaskManager::create(const json &arguments, const std::string &tokenHash, bool legacy,
                         std::int64_t ttlMs, Snapshot &out, bool &existing, std::string &error)
{
    existing = false;
    const std::string key = arguments.value("idempotency_key", std::string());
    if (!key.empty() && m_replicas.ids())
        m_replicas.adoptByKey(tokenHash, key);
    auto e = std::make_shared<Entry>();
    // Held for the whole creation: a concurrent call with the same idempotency key must not
    // hand out this task's id before its row is committed.
    const std::lock_guard persistLock(m_persistMutex);
    {
        const std::unique_lock lock(m_held.mutex);
        if (!key.empty()) {
            const auto slot = m_held.idempotency.find(HeldTasks::slotOf(tokenHash, key));
            if (slot != m_held.idempotency.end()) {
                const auto it = m_held.tasks.find(slot->second);
                if (it != m_held.tasks.end() && !HeldTasks::isExpired(*it->second, nowMs())) {
                    existing = true;
                    out.record = m_held.recordOf(*it->second);
                    out.pollIntervalMs = it->second->pollIntervalMs;
                    return true;
                }
            }
        }
        TaskRecord &r = e->record;
        r.id = m_replicas.ids() ? m_replicas.ids()->mint() : Secrets::randomId();
        if (r.id.empty()) {
            error = "the server could not draw a random task id; try again";
            return false;
        }
        r.tokenHash = tokenHash;
        r.idempotencyKey = key;
        r.legacy = legacy;
        r.status = TaskStatus::Working;
        r.statusMessage = "queued";
        r.createdMs = r.updatedMs = nowMs();
        r.ttlMs = ttlMs;
        r.arguments = arguments;
        m_held.tasks[r.id] = e;
        if (!key.empty())
            m_held.idempotency[HeldTasks::slotOf(tokenHash, key)] = r.id;
        m_held.render(*e);
    }
    // Durable before anyone hears of the id: the reply goes out only after this commit.
    std::string why;
    TaskRecord copy;
    {
        {
            const std::shared_lock lock(m_held.mutex);
            copy = e->record;
        }
        std::int64_t seq = 0;
        if (m_store.save(copy, seq, why) != TaskStore::Saved::Yes) {
            const std::unique_lock lock(m_held.mutex);
            m_held.erase(copy.id);
            error = "the server could not store the task (" + why
                    + "); check the disk under --data-dir and retry";
            return false;
        }
        const std::unique_lock lock(m_held.mutex);
        e->record.seq = seq;
    }
    {
        const std::unique_lock lock(m_held.mutex);
        m_held.enqueue(e);
        out.record = m_held.recordOf(*e);
        out.pollIntervalMs = e->pollIntervalMs;
    }
    Log::info("task " + Log::redact(copy.id) + " created (" + copy.arguments.value("case_name", "")
              + (copy.arguments.contains("grid")
                     ? ", grid " + std::to_string(copy.arguments.value("grid", 0))
                     : ", " + copy.arguments.value("tool", std::string()))
              + ")");
    return true;
}

bool TaskManager::appendDetail(std::string_view id, const std::string &tokenHash,
                               std::string &out) const
{
    const std::shared_lock lock(m_held.mutex);
    const EntryPtr *e = m_held.lookupVisible(id, tokenHash);
    if (!e)
        return false;
    m_held.appendFragment(**e, out);
    return true;
}

[[gnu::hot]] bool TaskManager::shareDetail(std::string_view id,
                              const std::string &tokenHash,
                              std::string &out,
                              std::shared_ptr<const std::string> &shared) const
{
    const std::shared_lock lock(m_held.mutex);
    const EntryPtr *e = m_held.lookupVisible(id, tokenHash);
    if (!e)
        return false;
    if ((*e)->cold || ((*e)->queued && (*e)->placeholderAt != std::string::npos))
        m_held.appendFragment(**e, out); // read from the store, or the queue position spliced in
    else
        shared = (*e)->fragment;
    return true;
}

bool TaskManager::visible(std::string_view id, const std::string &tokenHash) const
{
    const std::shared_lock lock(m_held.mutex);
    return m_held.lookupVisible(id, tokenHash) != nullptr;
}

bool TaskManager::snapshot(const std::string &id, const std::string &tokenHash,
                           Snapshot &out) const
{
    const std::shared_lock lock(m_held.mutex);
    const EntryPtr e = m_held.findVisible(id, tokenHash);
    if (!e)
        return false;
    out.record = m_held.recordOf(*e);
    out.pollIntervalMs = e->pollIntervalMs;
    out.iteration = e->iteration;
    out.queued = e->queued;
    return true;
}

std::vector<TaskManager::Snapshot> TaskManager::list(const std::string &tokenHash,
                                                     bool legacyOnly) const
{
    std::vector<Snapshot> out;
    const std::shared_lock lock(m_held.mutex);
    const std::int64_t now = nowMs();
    for (const auto &[id, e] : m_held.tasks) {
        if (e->record.tokenHash != tokenHash || HeldTasks::isExpired(*e, now))
            continue;
        if (legacyOnly && !e->record.legacy)
            continue;
        out.push_back({m_held.recordOf(*e, false), e->pollIntervalMs}); // a list shows no results
    }
    std::sort(out.begin(), out.end(), [](const Snapshot &a, const Snapshot &b) {
        return a.record.createdMs != b.record.createdMs ? a.record.createdMs < b.record.createdMs
                                                        : a.record.id < b.record.id;
    });
    return out;
}

TaskManager::CancelOutcome
TaskManager::cancel(const std::string &id, const std::string &tokenHash, Snapshot &after)
{
    catchUp(); // answered, cancelled or finished on another replica meanwhile?
    CancelOutcome outcome = CancelOutcome::Unknown;
    // A conflict means another replica changed the task meanwhile: decide again on its state.
    for (int round = 0; round < 3; ++round) {
        int attempt = -1; // the working attempt whose job the cancel ends, if any
        outcome = cancelHeld(id, tokenHash, after, attempt);
        if (outcome != CancelOutcome::Cancelled)
            return outcome;
        if (!persist(id))
            continue;
        notify(id);
        if (m_backend && attempt >= 0)
            m_backend->cancelled(id, attempt);
        return outcome;
    }
    return outcome;
}

TaskManager::CancelOutcome TaskManager::cancelHeld(const std::string &id,
                                                   const std::string &tokenHash,
                                                   Snapshot &after,
                                                   int &attempt)
{
    if (m_backend) {
        bool visible = false;
        {
            const std::shared_lock lock(m_held.mutex);
            visible = m_held.findVisible(id, tokenHash) != nullptr;
        }
        if (visible)
            m_backend->beforeCancel(id);
    }
    {
        const std::unique_lock lock(m_held.mutex);
        const EntryPtr e = m_held.findVisible(id, tokenHash);
        if (!e)
            return CancelOutcome::Unknown;
        if (isTerminal(e->record.status)) {
            after = {e->record, e->pollIntervalMs};
            return CancelOutcome::AlreadyTerminal;
        }
        if (e->record.status == TaskStatus::Working)
            attempt = int(e->record.repairs.size());
        // Marked terminal at once; a running solver notices the flag between iterations.
        e->stop = true;
        m_held.dequeue(*e); // before the message: it writes the queue position into it
        e->record.status = TaskStatus::Cancelled;
        e->record.statusMessage = "cancelled by request";
        e->record.inputRequests = nullptr;
        e->record.updatedMs = nowMs();
        m_held.render(*e);
        after = {e->record, e->pollIntervalMs};
    }
    Log::info("task " + Log::redact(id) + " cancelled");
    return CancelOutcome::Cancelled;
}

void TaskManager::removeStaleFoamCaseDirs() const
{
    std::set<std::string> owners;
    {
        const std::shared_lock lock(m_held.mutex);
        for (const auto &[id, e] : m_held.tasks)
            if (FoamTool::isFoamTask(e->record.arguments))
                owners.insert(id);
    }
    m_foamCases.removeStale(owners, m_startedMs);
}

void TaskManager::workerLoop()
{
    std::string id;
    while (nextQueued(id))
        runCase(id);
}

void TaskManager::janitorLoop()
{
    // Small TTLs (tests) need prompt purges; big ones need no more than one sweep a second.
    const auto period = std::chrono::milliseconds(
        std::clamp<std::int64_t>(m_options.ttlMs / 10, 20, 1000));
    removeStaleFoamCaseDirs();
    auto nextTrim = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    std::unique_lock wait(m_janitorMutex);
    while (!m_stopping) {
        m_janitorCv.wait_for(wait, period, [this] { return m_stopping.load(); });
        if (m_stopping)
            break;
        std::vector<std::string> expired;
        // OpenFOAM case folders to remove now; a running case's worker removes its own once
        // its solver has stopped (runCase).
        std::vector<std::string> folders;
        {
            const std::unique_lock lock(m_held.mutex);
            const std::int64_t now = nowMs();
            for (const auto &[id, e] : m_held.tasks) {
                if (!HeldTasks::isExpired(*e, now)) {
                    if (e->stored && !e->cold
                        && now - e->record.updatedMs >= m_options.resultsInMemoryMs)
                        m_held.cool(*e);
                    continue;
                }
                expired.push_back(id);
                if (!e->running && FoamTool::isFoamTask(e->record.arguments))
                    folders.push_back(id);
            }
            for (const std::string &id : expired)
                m_held.erase(id);
        }
        for (const std::string &id : expired) {
            const std::lock_guard persistLock(m_persistMutex);
            m_store.remove(id);
            Log::debug("task " + Log::redact(id) + " purged: its ttlMs has passed");
        }
        for (const std::string &id : folders)
            m_foamCases.remove(id);
        // Free pages go back to the system once a minute: what requests and cases freed leaves
        // holes between live blocks in each thread's arena, and the RSS crept (bench/soak).
        if (const auto now = std::chrono::steady_clock::now(); now >= nextTrim) {
            malloc_trim(0);
            PollStats::afterTrim();
            nextTrim = now + std::chrono::minutes(1);
        }
    }
}

void TaskManager::runCase(const std::string &id)
{
    EntryPtr e;
    json arguments;
    std::vector<int> repairs;
    {
        const std::unique_lock lock(m_held.mutex);
        const auto it = m_held.tasks.find(id);
        if (it == m_held.tasks.end() || it->second->record.status != TaskStatus::Working)
            return;
        e = it->second;
        e->running = true;
        arguments = e->record.arguments;
        repairs = e->record.repairs;
        e->record.statusMessage = "starting";
        e->record.updatedMs = nowMs();
        m_held.render(*e);
    }
    notify(id);
    if (FoamTool::isFoamTask(arguments)) {
        runFoamCase(e, arguments);
        // Expired while it ran: the janitor left the folder to this worker, whose solver has
        // stopped now.
        bool forgotten = false;
        {
            const std::shared_lock lock(m_held.mutex);
            const auto it = m_held.tasks.find(id);
            forgotten = it == m_held.tasks.end() || it->second != e;
        }
        if (forgotten)
            m_foamCases.remove(id);
        return;
    }
    const std::string shortId = Log::redact(id);
    try {
        Solver::CavitySolver solver(CfdTool::caseParams(arguments));
        const std::vector<std::uint8_t> blob = m_store.loadCheckpoint(id);
        const bool restored = !blob.empty() && solver.restore(blob);
        if (restored) {
            Log::info("task " + shortId + " resumes from its checkpoint at iteration "
                      + std::to_string(solver.iteration()));
        } else {
            for (int passes : repairs)
                solver.repairMesh(passes);
            // A forced defect is reported once; after a repair the real check decides.
            const bool force = arguments.value("force_mesh_defect", false) && repairs.empty();
            const Solver::MeshQuality quality = solver.checkMesh(force);
            if (!quality.ok) {
                askAboutMesh(e, quality, !repairs.empty());
                return;
            }
        }
        const int cells = arguments.value("grid", 64) * arguments.value("grid", 64);
        const int reportEvery = std::clamp(2000000 / std::max(cells, 1), 1, 100);
        const double tolerance = arguments.value("tolerance", 1e-6);
        auto lastCheckpoint = std::chrono::steady_clock::now();
        const auto checkpointEvery = std::chrono::milliseconds(m_options.checkpointIntervalMs);
        const auto outcome = solver.run(
            [&](const Solver::Progress &p) {
                if (e->stop || m_stopping)
                    return false;
                const std::string message = CfdTool::progressMessage(p);
                const std::int64_t now = nowMs();
                if (!progress(e, message, p.iteration,
                              p.residual <= tolerance * kNearEndResidualFactor
                                  || p.iteration >= kNearEndIterationShare * p.maxIterations))
                    return false;
                if (std::chrono::steady_clock::now() - lastCheckpoint >= checkpointEvery) {
                    m_store.saveCheckpoint(id, solver.checkpoint(), message, now);
                    lastCheckpoint = std::chrono::steady_clock::now();
                    Log::debug("task " + shortId + " checkpoint at iteration "
                               + std::to_string(p.iteration));
                }
                return true;
            },
            reportEvery);
        if (outcome == Solver::CavitySolver::Outcome::Stopped) {
            if (m_stopping && !e->stop) {
                std::string message;
                {
                    const std::shared_lock lock(m_held.mutex);
                    message = e->record.statusMessage;
                }
                m_store.saveCheckpoint(id, solver.checkpoint(), message, nowMs());
                Log::info("task " + shortId + " checkpointed for shutdown at iteration "
                          + std::to_string(solver.iteration()));
            }
            const std::unique_lock lock(m_held.mutex);
            e->running = false;
            return;
        }
        const Solver::CaseResult r = solver.result();
        const std::string message
            = CfdTool::finalMessage(r, arguments.value("max_iterations", 20000));
        finish(e, TaskStatus::Completed, CfdTool::result(arguments, r), nullptr, message);
    } catch (const std::exception &ex) {
        finish(e, TaskStatus::Failed, nullptr,
               {{"code", -32603}, {"message", std::string("The solver failed: ") + ex.what()}},
               std::string("solver failed: ") + ex.what());
    }
}

bool TaskManager::progress(const EntryPtr &e, const std::string &message, int iteration,
                           bool nearEnd)
{
    const std::int64_t now = nowMs();
    bool announce = false;
    std::string id;
    {
        const std::unique_lock lock(m_held.mutex);
        if (isTerminal(e->record.status))
            return false;
        id = e->record.id;
        e->record.statusMessage = message;
        e->record.updatedMs = now;
        e->iteration = iteration;
        e->nearEnd = nearEnd;
        m_held.render(*e);
        // Listeners hear about progress at most once per poll interval.
        if (now - e->lastNotifyMs >= m_options.pollIntervalMs) {
            e->lastNotifyMs = now;
            announce = true;
        }
    }
    if (announce)
        notify(id);
    return true;
}

void TaskManager::finish(const EntryPtr &e,
                         TaskStatus status,
                         json result,
                         json error,
                         const std::string &message,
                         int attempt)
{
    std::string id;
    {
        const std::unique_lock lock(m_held.mutex);
        if (!HeldTasks::attemptStands(*e, attempt))
            return;
        TaskRecord &r = e->record;
        id = r.id;
        r.status = status;
        r.result = std::move(result);
        r.error = std::move(error);
        r.inputRequests = nullptr;
        r.statusMessage = message;
        r.updatedMs = nowMs();
        m_held.render(*e);
    }
    Log::info("task " + Log::redact(id) + " " + statusName(status) + ": " + message);
    persist(id);
    notify(id);
}

void TaskManager::runFoamCase(const EntryPtr &e, const json &arguments)
{
    std::string id;
    int attempt = 0;
    {
        const std::shared_lock lock(m_held.mutex);
        id = e->record.id;
        attempt = int(e->record.repairs.size());
    }
    FoamRunner::Hooks hooks;
    hooks.stopRequested = [&] {
        return e->stop.load() || m_stopping.load();
    };
    hooks.report = [&](const std::string &message) {
        progress(e, message);
    };
    FoamCases::Run run = m_foamCases.run(id, arguments, std::move(hooks));
    switch (run.end) {
    case FoamCases::Run::End::Failed:
        finish(e, TaskStatus::Failed, nullptr, std::move(run.error), run.message, attempt);
        return;
    case FoamCases::Run::End::Stopped: {
        if (m_stopping && !e->stop)
            Log::info("task " + Log::redact(id)
                      + " stopped for shutdown; it resumes from its "
                        "latest written time");
        const std::unique_lock lock(m_held.mutex);
        e->running = false;
        return;
    }
    case FoamCases::Run::End::Question:
        ask(e, std::move(run.result), FoamRunner::kQuestionMessage, run.message, attempt);
        return;
    case FoamCases::Run::End::Finished:
        break;
    }
    json error = nullptr;
    TaskStatus status = TaskStatus::Completed;
    legacyToolError(e, run.result, status, error);
    finish(e, status, std::move(run.result), std::move(error), run.message, attempt);
}

void TaskManager::legacyToolError(const EntryPtr &e,
                                  const json &result,
                                  TaskStatus &status,
                                  json &error) const
{
    {
        const std::shared_lock lock(m_held.mutex);
        if (!e->record.legacy)
            return;
    }
    if (status != TaskStatus::Completed || !result.is_object() || !result.value("isError", false))
        return;
    status = TaskStatus::Failed;
    const json &content = result.value("content", json::array());
    error = {{"code", -32603},
             {"message",
              content.is_array() && !content.empty() && content[0].is_object()
                  ? content[0].value("text", "")
                  : std::string()}};
}

void TaskManager::askAboutMesh(const EntryPtr &e,
                               const Solver::MeshQuality &quality,
                               bool retry,
                               int attempt)
{
    ask(e,
        CfdTool::meshQuestion(quality, retry),
        "waiting for input: the mesh failed its "
            + (quality.metric.empty() ? std::string("quality") : quality.metric) + " check",
        quality.description,
        attempt);
}

void TaskManager::ask(const EntryPtr &e,
                      json question,
                      const std::string &message,
                      const std::string &finding,
                      int attempt)
{
    std::string id;
    {
        const std::unique_lock lock(m_held.mutex);
        if (!HeldTasks::attemptStands(*e, attempt))
            return;
        id = e->record.id;
        MeshAnswers::ask(e->record, std::move(question), message, nowMs());
        m_held.render(*e);
    }
    Log::info("task " + Log::redact(id) + " asks about its mesh: " + finding);
    persist(id);
    notify(id);
}

bool TaskManager::update(const std::string &id,
                         const std::string &tokenHash,
                         const json &inputResponses)
{
    catchUp(); // the question may have been asked, or answered, on another replica
    // A conflict means another replica changed the task meanwhile: apply to its state again.
    for (int round = 0; round < 3; ++round) {
        bool changed = false;
        if (!applyAnswer(id, tokenHash, inputResponses, changed))
            return false;
        if (!changed)
            return true;
        if (persist(id)) {
            notify(id);
            return true;
        }
    }
    return true;
}

bool TaskManager::applyAnswer(const std::string &id,
                              const std::string &tokenHash,
                              const json &inputResponses,
                              bool &changed)
{
    const std::unique_lock lock(m_held.mutex);
    const EntryPtr e = m_held.findVisible(id, tokenHash);
    if (!e)
        return false;
    switch (m_answers.apply(e->record, inputResponses, nowMs())) {
    case MeshAnswers::Verdict::Unchanged:
        break;
    case MeshAnswers::Verdict::Queue:
        changed = true;
        m_held.enqueue(e);
        break;
    case MeshAnswers::Verdict::Ended:
        changed = true;
        m_held.render(*e);
        break;
    }
    return true;
}

// The door for a Backend (server/backend.h): the calls a backend that runs cases elsewhere
// (Slurm) uses to claim queued tasks and report their progress, questions and outcome.

bool TaskManager::report(const std::string &id, const std::string &message)
{
    {
        const std::unique_lock lock(m_held.mutex);
        const auto it = m_held.tasks.find(id);
        if (it == m_held.tasks.end() || it->second->record.status != TaskStatus::Working)
            return false;
        Entry &e = *it->second;
        if (e.record.statusMessage == message || e.queued)
            return true;
        e.record.statusMessage = message;
        e.record.updatedMs = nowMs();
        m_held.render(e);
    }
    notify(id);
    return true;
}

void TaskManager::askAboutMesh(const std::string &id,
                               int attempt,
                               const Solver::MeshQuality &quality,
                               bool retry)
{
    catchUp(); // answered or cancelled on another replica: that state wins
    if (const EntryPtr e = m_held.held(id))
        askAboutMesh(e, quality, retry, attempt);
}

void TaskManager::askAboutFoamMesh(const std::string &id,
                                   int attempt,
                                   json question,
                                   const std::string &summary)
{
    catchUp(); // answered or cancelled on another replica: that state wins
    if (const EntryPtr e = m_held.held(id))
        ask(e, std::move(question), FoamRunner::kQuestionMessage, summary, attempt);
}

void TaskManager::finish(const std::string &id,
                         int attempt,
                         TaskStatus status,
                         json result,
                         json error,
                         const std::string &message)
{
    catchUp(); // cancelled on another replica: a job ended by its scancel is no failure
    const EntryPtr e = m_held.held(id);
    if (!e)
        return;
    legacyToolError(e, result, status, error);
    finish(e, status, std::move(result), std::move(error), message, attempt);
}

} // namespace Eddy::Server
