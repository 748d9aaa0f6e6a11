#include "server/taskmanager.h"

#include "server/backend.h"
#include "server/cfdtool.h"
#include "server/foamtool.h"
#include "server/log.h"
#include "server/replicaids.h"
#include "server/secrets.h"
#include "server/solver/cavitysolver.h"
#include "server/sse.h"
#include "server/taskjson.h"
#include "server/taskstore.h"

#include <algorithm>
#include <chrono>
#include <malloc.h>

namespace Eddy::Server {

using nlohmann::json;

namespace {

constexpr int kQueuedPollFactor = 3; // waiting cases need polling less often
// A case within 10x of its tolerance or in its last 10% of iterations is about to end: a
// quarter of the interval lets clients see the result sooner.
constexpr int kNearEndPollDivisor = 4;
constexpr double kNearEndResidualFactor = 10.0;
constexpr double kNearEndIterationShare = 0.9;

std::string idempotencySlot(const std::string &tokenHash, const std::string &key)
{
    return tokenHash + '\n' + key;
}

} // namespace

TaskManager::TaskManager(TaskStore &store, const ServerOptions &options)
    : m_store(store), m_options(options)
    , m_fanout([this](const std::string &id, std::string &fragment, std::string &owner) {
        return renderForFanout(id, fragment, owner);
    })
{}

TaskManager::~TaskManager()
{
    shutdown();
}

[[gnu::hot]] std::int64_t TaskManager::nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool TaskManager::start(std::string &error)
{
    m_startedMs = nowMs();
    std::string warnings;
    std::vector<TaskRecord> records = m_store.loadAll(warnings);
    if (!warnings.empty())
        Log::warn(warnings);
    const std::int64_t now = nowMs();
    int resumed = 0, purged = 0;
    {
        const std::unique_lock lock(m_mutex);
        for (TaskRecord &r : records) {
            if (r.createdMs + r.ttlMs <= now) {
                m_store.remove(r.id);
                ++purged;
                continue;
            }
            if (r.status == TaskStatus::Working)
                ++resumed;
            m_seenSeq = std::max(m_seenSeq, r.seq);
            insertLoaded(std::move(r));
        }
    }
    Log::info("loaded " + std::to_string(m_tasks.size()) + " tasks (" + std::to_string(resumed)
              + " to resume, " + std::to_string(purged) + " expired and purged)");
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
        const std::unique_lock lock(m_mutex);
        m_queueCv.notify_all();
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

bool TaskManager::isExpired(const Entry &e, std::int64_t now) const
{
    return e.record.createdMs + e.record.ttlMs <= now;
}

[[gnu::hot]] const TaskManager::EntryPtr *TaskManager::lookupVisible(std::string_view id,
                                                        const std::string &tokenHash) const
{
    const auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return nullptr;
    // Per-task ownership check: a task answers only the token that created it, and looks
    // exactly like an unknown task to anyone else.
    if (!Secrets::constantTimeEquals(it->second->record.tokenHash, tokenHash))
        return nullptr;
    if (isExpired(*it->second, nowMs()))
        return nullptr;
    return &it->second;
}

TaskManager::EntryPtr TaskManager::findVisible(const std::string &id,
                                               const std::string &tokenHash) const
{
    const EntryPtr *e = lookupVisible(id, tokenHash);
    return e ? *e : nullptr;
}

TaskManager::EntryPtr TaskManager::held(const std::string &id) const
{
    const std::shared_lock lock(m_mutex);
    const auto it = m_tasks.find(id);
    return it == m_tasks.end() ? nullptr : it->second;
}

void TaskManager::render(Entry &e)
{
    static const std::string placeholder = "queued, position #";
    if (e.cold) {
        e.cold = false;
        loadResult(e.record);
    }
    e.placeholderAt = std::string::npos;
    if (e.record.status == TaskStatus::Working && e.queued) {
        e.pollIntervalMs = m_options.pollIntervalMs * kQueuedPollFactor;
        e.record.statusMessage = placeholder;
    } else if (e.record.status == TaskStatus::Working && e.nearEnd) {
        e.pollIntervalMs = std::max(10, m_options.pollIntervalMs / kNearEndPollDivisor);
    } else {
        e.pollIntervalMs = m_options.pollIntervalMs;
    }
    e.fragment = std::make_shared<const std::string>(
        TaskJson::fragment(TaskJson::detailed(e.record, e.pollIntervalMs)));
    if (e.record.status == TaskStatus::Working && e.queued) {
        const auto at = e.fragment->find(placeholder);
        if (at != std::string::npos)
            e.placeholderAt = at + placeholder.size() - 1;
    }
}

std::size_t TaskManager::queuePosition(const Entry &e) const
{
    std::size_t sum = 0;
    for (std::uint64_t i = e.ticket; i > 0 && i < m_ticketTree.size(); i -= i & (~i + 1))
        sum += std::size_t(m_ticketTree[i]);
    return sum;
}

void TaskManager::appendFragment(const Entry &e, std::string &out) const
{
    if (e.cold) {
        out += TaskJson::fragment(TaskJson::detailed(recordOf(e), e.pollIntervalMs));
        return;
    }
    const std::string &fragment = *e.fragment;
    if (!e.queued || e.placeholderAt == std::string::npos) {
        out += fragment;
        return;
    }
    out.append(fragment, 0, e.placeholderAt);
    out += std::to_string(queuePosition(e));
    out.append(fragment, e.placeholderAt + 1, std::string::npos);
}

TaskRecord TaskManager::recordOf(const Entry &e, bool withResult) const
{
    TaskRecord r = e.record;
    if (e.cold && withResult)
        loadResult(r);
    if (e.queued)
        r.statusMessage = "queued, position " + std::to_string(queuePosition(e));
    return r;
}

void TaskManager::bitAdd(std::uint64_t ticket, int delta)
{
    for (std::uint64_t i = ticket; i < m_ticketTree.size(); i += i & (~i + 1))
        m_ticketTree[i] += delta;
}

void TaskManager::enqueue(const EntryPtr &e)
{
    if (m_queue.empty()) {
        // Start numbering afresh whenever the queue drains, so the tree stays small.
        std::fill(m_ticketTree.begin(), m_ticketTree.end(), 0);
        m_nextTicket = 0;
    }
    if (m_nextTicket + 1 >= m_ticketTree.size()) {
        m_ticketTree.assign(std::max<std::size_t>(1024, m_ticketTree.size() * 2), 0);
        for (const std::string &id : m_queue)
            if (const auto it = m_tasks.find(id); it != m_tasks.end() && it->second->queued)
                bitAdd(it->second->ticket, 1);
    }
    e->queued = true;
    e->ticket = ++m_nextTicket;
    bitAdd(e->ticket, 1);
    m_queue.push_back(e->record.id);
    render(*e);
    m_queueCv.notify_one();
}

void TaskManager::unqueue(Entry &e)
{
    if (!e.queued)
        return;
    bitAdd(e.ticket, -1);
    e.queued = false;
    e.record.statusMessage = "queued, position " + std::to_string(m_queue.size());
}

void TaskManager::eraseLocked(const std::string &id)
{
    const auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    const TaskRecord &r = it->second->record;
    if (!r.idempotencyKey.empty()) {
        const auto slot = m_idempotency.find(idempotencySlot(r.tokenHash, r.idempotencyKey));
        if (slot != m_idempotency.end() && slot->second == id)
            m_idempotency.erase(slot);
    }
    it->second->stop = true;
    if (it->second->queued) {
        unqueue(*it->second);
        m_queue.erase(std::remove(m_queue.begin(), m_queue.end(), id), m_queue.end());
    }
    m_tasks.erase(it);
}

bool TaskManager::persist(const std::string &id)
{
    TaskRecord stored;
    {
        const std::lock_guard persistLock(m_persistMutex);
        TaskRecord copy;
        {
            const std::shared_lock lock(m_mutex);
            const auto it = m_tasks.find(id);
            if (it == m_tasks.end())
                return true; // purged meanwhile: do not bring the row back
            copy = recordOf(*it->second);
        }
        std::string error;
        std::int64_t seq = 0;
        switch (m_store.save(copy, seq, error)) {
        case TaskStore::Saved::Yes: {
            const std::unique_lock lock(m_mutex);
            const auto it = m_tasks.find(id);
            if (it != m_tasks.end() && it->second->record.seq < seq) {
                it->second->record.seq = seq;
                markStored(*it->second, copy);
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
    applyStored(std::move(stored));
    return false;
}

void TaskManager::notify(const std::string &id)
{
    m_fanout.notify(id);
}

bool TaskManager::renderForFanout(const std::string &id, std::string &fragment, std::string &owner) const
{
    const std::shared_lock lock(m_mutex);
    const auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return false;
    appendFragment(*it->second, fragment);
    owner = it->second->record.tokenHash;
    return true;
}

bool TaskManager::create(const json &arguments, const std::string &tokenHash, bool legacy,
                         std::int64_t ttlMs, Snapshot &out, bool &existing, std::string &error)
{
    existing = false;
    const std::string key = arguments.value("idempotency_key", std::string());
    if (!key.empty() && m_replicaIds)
        adoptByKey(tokenHash, key);
    auto e = std::make_shared<Entry>();
    // Held for the whole creation: a concurrent call with the same idempotency key must not
    // hand out this task's id before its row is committed.
    const std::lock_guard persistLock(m_persistMutex);
    {
        const std::unique_lock lock(m_mutex);
        if (!key.empty()) {
            const auto slot = m_idempotency.find(idempotencySlot(tokenHash, key));
            if (slot != m_idempotency.end()) {
                const auto it = m_tasks.find(slot->second);
                if (it != m_tasks.end() && !isExpired(*it->second, nowMs())) {
                    existing = true;
                    out.record = recordOf(*it->second);
                    out.pollIntervalMs = it->second->pollIntervalMs;
                    return true;
                }
            }
        }
        TaskRecord &r = e->record;
        r.id = m_replicaIds ? m_replicaIds->mint() : Secrets::randomId();
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
        m_tasks[r.id] = e;
        if (!key.empty())
            m_idempotency[idempotencySlot(tokenHash, key)] = r.id;
        render(*e);
    }
    // Durable before anyone hears of the id: the reply goes out only after this commit.
    std::string why;
    TaskRecord copy;
    {
        {
            const std::shared_lock lock(m_mutex);
            copy = e->record;
        }
        std::int64_t seq = 0;
        if (m_store.save(copy, seq, why) != TaskStore::Saved::Yes) {
            const std::unique_lock lock(m_mutex);
            eraseLocked(copy.id);
            error = "the server could not store the task (" + why
                    + "); check the disk under --data-dir and retry";
            return false;
        }
        const std::unique_lock lock(m_mutex);
        e->record.seq = seq;
    }
    {
        const std::unique_lock lock(m_mutex);
        enqueue(e);
        out.record = recordOf(*e);
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
    const std::shared_lock lock(m_mutex);
    const EntryPtr *e = lookupVisible(id, tokenHash);
    if (!e)
        return false;
    appendFragment(**e, out);
    return true;
}

[[gnu::hot]] bool TaskManager::shareDetail(std::string_view id,
                              const std::string &tokenHash,
                              std::string &out,
                              std::shared_ptr<const std::string> &shared) const
{
    const std::shared_lock lock(m_mutex);
    const EntryPtr *e = lookupVisible(id, tokenHash);
    if (!e)
        return false;
    if ((*e)->cold || ((*e)->queued && (*e)->placeholderAt != std::string::npos))
        appendFragment(**e, out); // read from the store, or the queue position spliced in
    else
        shared = (*e)->fragment;
    return true;
}

bool TaskManager::visible(std::string_view id, const std::string &tokenHash) const
{
    const std::shared_lock lock(m_mutex);
    return lookupVisible(id, tokenHash) != nullptr;
}

bool TaskManager::snapshot(const std::string &id, const std::string &tokenHash,
                           Snapshot &out) const
{
    const std::shared_lock lock(m_mutex);
    const EntryPtr e = findVisible(id, tokenHash);
    if (!e)
        return false;
    out.record = recordOf(*e);
    out.pollIntervalMs = e->pollIntervalMs;
    out.iteration = e->iteration;
    out.queued = e->queued;
    return true;
}

std::vector<TaskManager::Snapshot> TaskManager::list(const std::string &tokenHash,
                                                     bool legacyOnly) const
{
    std::vector<Snapshot> out;
    const std::shared_lock lock(m_mutex);
    const std::int64_t now = nowMs();
    for (const auto &[id, e] : m_tasks) {
        if (e->record.tokenHash != tokenHash || isExpired(*e, now))
            continue;
        if (legacyOnly && !e->record.legacy)
            continue;
        out.push_back({recordOf(*e, false), e->pollIntervalMs}); // a list shows no results
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
            const std::shared_lock lock(m_mutex);
            visible = findVisible(id, tokenHash) != nullptr;
        }
        if (visible)
            m_backend->beforeCancel(id);
    }
    {
        const std::unique_lock lock(m_mutex);
        const EntryPtr e = findVisible(id, tokenHash);
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
        if (e->queued) { // before the message: unqueue() writes the queue position into it
            unqueue(*e);
            m_queue.erase(std::remove(m_queue.begin(), m_queue.end(), id), m_queue.end());
        }
        e->record.status = TaskStatus::Cancelled;
        e->record.statusMessage = "cancelled by request";
        e->record.inputRequests = nullptr;
        e->record.updatedMs = nowMs();
        render(*e);
        after = {e->record, e->pollIntervalMs};
    }
    Log::info("task " + Log::redact(id) + " cancelled");
    return CancelOutcome::Cancelled;
}

bool TaskManager::nextQueued(std::string &id)
{
    std::unique_lock lock(m_mutex);
    m_queueCv.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
    if (m_stopping)
        return false;
    id = m_queue.front();
    m_queue.pop_front();
    const auto it = m_tasks.find(id);
    if (it != m_tasks.end())
        unqueue(*it->second);
    return true;
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
            const std::unique_lock lock(m_mutex);
            const std::int64_t now = nowMs();
            for (const auto &[id, e] : m_tasks) {
                if (!isExpired(*e, now)) {
                    if (e->stored && !e->cold
                        && now - e->record.updatedMs >= m_options.resultsInMemoryMs)
                        coolLocked(*e);
                    continue;
                }
                expired.push_back(id);
                if (!e->running && FoamTool::isFoamTask(e->record.arguments))
                    folders.push_back(id);
            }
            for (const std::string &id : expired)
                eraseLocked(id);
        }
        for (const std::string &id : expired) {
            const std::lock_guard persistLock(m_persistMutex);
            m_store.remove(id);
            Log::debug("task " + Log::redact(id) + " purged: its ttlMs has passed");
        }
        for (const std::string &id : folders)
            removeFoamCaseDir(id);
        // Free pages go back to the system once a minute: what requests and cases freed leaves
        // holes between live blocks in each thread's arena, and the RSS crept (bench/soak).
        if (const auto now = std::chrono::steady_clock::now(); now >= nextTrim) {
            malloc_trim(0);
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
        const std::unique_lock lock(m_mutex);
        const auto it = m_tasks.find(id);
        if (it == m_tasks.end() || it->second->record.status != TaskStatus::Working)
            return;
        e = it->second;
        e->running = true;
        arguments = e->record.arguments;
        repairs = e->record.repairs;
        e->record.statusMessage = "starting";
        e->record.updatedMs = nowMs();
        render(*e);
    }
    notify(id);
    if (FoamTool::isFoamTask(arguments)) {
        runFoamCase(e, arguments);
        // Expired while it ran: the janitor left the folder to this worker, whose solver has
        // stopped now.
        bool forgotten = false;
        {
            const std::shared_lock lock(m_mutex);
            const auto it = m_tasks.find(id);
            forgotten = it == m_tasks.end() || it->second != e;
        }
        if (forgotten)
            removeFoamCaseDir(id);
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
                    const std::shared_lock lock(m_mutex);
                    message = e->record.statusMessage;
                }
                m_store.saveCheckpoint(id, solver.checkpoint(), message, nowMs());
                Log::info("task " + shortId + " checkpointed for shutdown at iteration "
                          + std::to_string(solver.iteration()));
            }
            const std::unique_lock lock(m_mutex);
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
        const std::unique_lock lock(m_mutex);
        if (isTerminal(e->record.status))
            return false;
        id = e->record.id;
        e->record.statusMessage = message;
        e->record.updatedMs = now;
        e->iteration = iteration;
        e->nearEnd = nearEnd;
        render(*e);
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

bool TaskManager::attemptStands(Entry &e, int attempt)
{
    if (attempt >= 0 && std::size_t(attempt) != e.record.repairs.size())
        return false; // an earlier attempt's: the task was answered meanwhile
    e.running = false;
    return !isTerminal(e.record.status); // cancelled meanwhile: terminal states never change
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
        const std::unique_lock lock(m_mutex);
        if (!attemptStands(*e, attempt))
            return;
        TaskRecord &r = e->record;
        id = r.id;
        r.status = status;
        r.result = std::move(result);
        r.error = std::move(error);
        r.inputRequests = nullptr;
        r.statusMessage = message;
        r.updatedMs = nowMs();
        render(*e);
    }
    Log::info("task " + Log::redact(id) + " " + statusName(status) + ": " + message);
    persist(id);
    notify(id);
}

} // namespace Eddy::Server
