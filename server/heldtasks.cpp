// Cold tasks: the store is also the memory of finished tasks. --results-in-memory-ms after a
// task ends and its final state is stored, its result and rendering leave memory (cool), and a
// read takes them from the store. A server keeps finished tasks for their whole ttlMs (a day by
// default); held in memory, their results grew its RSS by about 10 MB an hour in bench/soak.

#include "server/heldtasks.h"

#include "server/log.h"
#include "server/secrets.h"
#include "server/taskjson.h"
#include "server/taskstore.h"

#include <algorithm>
#include <chrono>

namespace Eddy::Server {

namespace {

constexpr int kQueuedPollFactor = 3; // waiting cases need polling less often
// A case close to its end: a quarter of the interval lets clients see the result sooner.
constexpr int kNearEndPollDivisor = 4;

} // namespace

HeldTasks::HeldTasks(TaskStore &store, int pollIntervalMs)
    : m_store(store)
    , m_pollIntervalMs(pollIntervalMs)
{}

[[gnu::hot]] std::int64_t HeldTasks::nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string HeldTasks::slotOf(const std::string &tokenHash, const std::string &key)
{
    return tokenHash + '\n' + key;
}

[[gnu::hot]] const HeldTasks::EntryPtr *HeldTasks::lookupVisible(std::string_view id,
                                                                 const std::string &tokenHash) const
{
    const auto it = tasks.find(id);
    if (it == tasks.end())
        return nullptr;
    // Per-task ownership check: a task answers only the token that created it, and looks
    // exactly like an unknown task to anyone else.
    if (!Secrets::constantTimeEquals(it->second->record.tokenHash, tokenHash))
        return nullptr;
    if (isExpired(*it->second, nowMs()))
        return nullptr;
    return &it->second;
}

HeldTasks::EntryPtr HeldTasks::findVisible(const std::string &id,
                                           const std::string &tokenHash) const
{
    const EntryPtr *e = lookupVisible(id, tokenHash);
    return e ? *e : nullptr;
}

HeldTasks::EntryPtr HeldTasks::held(const std::string &id) const
{
    const std::shared_lock lock(mutex);
    const auto it = tasks.find(id);
    return it == tasks.end() ? nullptr : it->second;
}

void HeldTasks::render(Entry &e)
{
    static const std::string placeholder = "queued, position #";
    if (e.cold) {
        e.cold = false;
        loadResult(e.record);
    }
    e.placeholderAt = std::string::npos;
    if (e.record.status == TaskStatus::Working && e.queued) {
        e.pollIntervalMs = m_pollIntervalMs * kQueuedPollFactor;
        e.record.statusMessage = placeholder;
    } else if (e.record.status == TaskStatus::Working && e.nearEnd) {
        e.pollIntervalMs = std::max(10, m_pollIntervalMs / kNearEndPollDivisor);
    } else {
        e.pollIntervalMs = m_pollIntervalMs;
    }
    e.fragment = std::make_shared<const std::string>(
        TaskJson::fragment(TaskJson::detailed(e.record, e.pollIntervalMs)));
    if (e.record.status == TaskStatus::Working && e.queued) {
        const auto at = e.fragment->find(placeholder);
        if (at != std::string::npos)
            e.placeholderAt = at + placeholder.size() - 1;
    }
}

std::size_t HeldTasks::queuePosition(const Entry &e) const
{
    std::size_t sum = 0;
    for (std::uint64_t i = e.ticket; i > 0 && i < m_ticketTree.size(); i -= i & (~i + 1))
        sum += std::size_t(m_ticketTree[i]);
    return sum;
}

void HeldTasks::appendFragment(const Entry &e, std::string &out) const
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

TaskRecord HeldTasks::recordOf(const Entry &e, bool withResult) const
{
    TaskRecord r = e.record;
    if (e.cold && withResult)
        loadResult(r);
    if (e.queued)
        r.statusMessage = "queued, position " + std::to_string(queuePosition(e));
    return r;
}

void HeldTasks::bitAdd(std::uint64_t ticket, int delta)
{
    for (std::uint64_t i = ticket; i < m_ticketTree.size(); i += i & (~i + 1))
        m_ticketTree[i] += delta;
}

void HeldTasks::enqueue(const EntryPtr &e)
{
    if (queue.empty()) {
        // Start numbering afresh whenever the queue drains, so the tree stays small.
        std::fill(m_ticketTree.begin(), m_ticketTree.end(), 0);
        m_nextTicket = 0;
    }
    if (m_nextTicket + 1 >= m_ticketTree.size()) {
        m_ticketTree.assign(std::max<std::size_t>(1024, m_ticketTree.size() * 2), 0);
        for (const std::string &id : queue)
            if (const auto it = tasks.find(id); it != tasks.end() && it->second->queued)
                bitAdd(it->second->ticket, 1);
    }
    e->queued = true;
    e->ticket = ++m_nextTicket;
    bitAdd(e->ticket, 1);
    queue.push_back(e->record.id);
    render(*e);
    queueCv.notify_one();
}

void HeldTasks::unqueue(Entry &e)
{
    if (!e.queued)
        return;
    bitAdd(e.ticket, -1);
    e.queued = false;
    e.record.statusMessage = "queued, position " + std::to_string(queue.size());
}

void HeldTasks::dequeue(Entry &e)
{
    if (!e.queued)
        return;
    unqueue(e);
    queue.erase(std::remove(queue.begin(), queue.end(), e.record.id), queue.end());
}

void HeldTasks::cool(Entry &e)
{
    static const auto kCold = std::make_shared<const std::string>();
    e.record.result = nullptr;
    e.fragment = kCold;
    e.placeholderAt = std::string::npos;
    e.cold = true;
}

bool HeldTasks::loadResult(TaskRecord &r) const
{
    TaskRecord stored;
    if (m_store.load(r.id, stored)) {
        r.result = std::move(stored.result);
        return true;
    }
    // Never a made-up result: the task ends failed, saying what happened.
    Log::error("task " + Log::redact(r.id)
               + ": its result is no longer in memory and the store cannot give it back");
    r.status = TaskStatus::Failed;
    r.result = nullptr;
    r.error = {{"code", -32603},
               {"message",
                "The server could not read this task's result back from its database. "
                "Ask its operator to check the server's log and data folder."}};
    return false;
}

void HeldTasks::markStored(Entry &e, const TaskRecord &written)
{
    if (isTerminal(written.status) && e.record.status == written.status
        && e.record.updatedMs == written.updatedMs)
        e.stored = true;
}

void HeldTasks::insertLoaded(TaskRecord record, bool cold)
{
    auto e = std::make_shared<Entry>();
    e->record = std::move(record);
    if (!e->record.idempotencyKey.empty())
        idempotency[slotOf(e->record.tokenHash, e->record.idempotencyKey)] = e->record.id;
    tasks[e->record.id] = e;
    e->stored = isTerminal(e->record.status);
    if (e->record.status == TaskStatus::Working)
        enqueue(e);
    else if (cold && e->stored)
        cool(*e);
    else
        render(*e);
}

void HeldTasks::erase(const std::string &id)
{
    const auto it = tasks.find(id);
    if (it == tasks.end())
        return;
    const TaskRecord &r = it->second->record;
    if (!r.idempotencyKey.empty()) {
        const auto slot = idempotency.find(slotOf(r.tokenHash, r.idempotencyKey));
        if (slot != idempotency.end() && slot->second == id)
            idempotency.erase(slot);
    }
    it->second->stop = true;
    dequeue(*it->second);
    tasks.erase(it);
}

bool HeldTasks::claim(const std::string &id, TaskRecord &out)
{
    const std::unique_lock lock(mutex);
    const auto it = tasks.find(id);
    if (it == tasks.end() || it->second->record.status != TaskStatus::Working)
        return false;
    it->second->running = true;
    out = it->second->record;
    return true;
}

bool HeldTasks::attemptStands(Entry &e, int attempt)
{
    if (attempt >= 0 && std::size_t(attempt) != e.record.repairs.size())
        return false; // an earlier attempt's: the task was answered meanwhile
    e.running = false;
    return !isTerminal(e.record.status); // cancelled meanwhile: terminal states never change
}

HeldTasks::Demand HeldTasks::demand() const
{
    Demand d;
    const std::shared_lock lock(mutex);
    const std::int64_t now = nowMs();
    for (const auto &[id, e] : tasks) {
        if (isExpired(*e, now))
            continue;
        ++d.tasks;
        switch (e->record.status) {
        case TaskStatus::Working:
            ++d.working;
            d.queued += e->queued ? 1 : 0;
            break;
        case TaskStatus::InputRequired:
            ++d.inputRequired;
            break;
        case TaskStatus::Completed:
            ++d.completed;
            break;
        case TaskStatus::Failed:
            ++d.failed;
            break;
        case TaskStatus::Cancelled:
            ++d.cancelled;
            break;
        }
        if (isTerminal(e->record.status)) {
            d.resultsInMemory += e->record.result.is_null() ? 0 : 1; // a cold task's is dropped
            continue;
        }
        if (e->pollIntervalMs > 0)
            d.pollsPerSecond += 1000.0 / e->pollIntervalMs;
    }
    return d;
}

bool HeldTasks::next(std::string &id, const std::atomic<bool> &stopping)
{
    std::unique_lock lock(mutex);
    queueCv.wait(lock, [&] { return stopping || !queue.empty(); });
    if (stopping)
        return false;
    id = queue.front();
    queue.pop_front();
    const auto it = tasks.find(id);
    if (it != tasks.end())
        unqueue(*it->second);
    return true;
}

} // namespace Eddy::Server
