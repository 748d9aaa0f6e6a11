#include "server/pollstats.h"

#include "server/casefolder.h"
#include "server/log.h"
#include "server/taskmanager.h"

#include <nlohmann/json.hpp>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace Eddy::Server {

namespace {

// The last PollStats::afterTrim(): written by the janitor, read by write(); one snapshot.
struct Trim
{
    std::int64_t atMs = 0, heapKb = -1, rssAnonKb = -1, openStreams = -1;
};
std::mutex s_trimMutex;
Trim s_trim;

} // namespace

PollStats::PollStats(const TaskManager &tasks, std::string path)
    : m_tasks(tasks)
    , m_path(std::move(path))
    , m_sinceMs(TaskManager::nowMs())
    , m_lastMs(m_sinceMs)
{
    s_enabled.store(true, std::memory_order_relaxed);
}

PollStats::~PollStats()
{
    stop();
}

void PollStats::start()
{
    m_thread = std::thread([this] {
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            lock.unlock();
            write();
            lock.lock();
            m_cv.wait_for(lock, std::chrono::seconds(1), [this] { return m_stopping; });
        }
    });
}

void PollStats::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        m_stopping = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    write();
}

std::int64_t PollStats::heapInUseKb()
{
    // Every arena's chunks in use plus the blocks mapped on their own: what the process holds,
    // whatever the allocator keeps of freed memory (which RSS also counts).
    const struct mallinfo2 m = mallinfo2();
    return std::int64_t((m.uordblks + m.hblkhd) / 1024);
}

std::int64_t PollStats::rssKb()
{
    // statm's second field: resident pages.
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    long long size = 0, resident = 0;
    const bool ok = std::fscanf(f, "%lld %lld", &size, &resident) == 2;
    std::fclose(f);
    return ok ? resident * (::sysconf(_SC_PAGESIZE) / 1024) : -1;
}

std::int64_t PollStats::rssAnonKb()
{
    std::FILE *f = std::fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long long kb = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "RssAnon: %lld", &kb) == 1)
            break;
    std::fclose(f);
    return kb;
}

void PollStats::afterTrim()
{
    if (!s_enabled.load(std::memory_order_relaxed))
        return;
    const Trim t{TaskManager::nowMs(), heapInUseKb(), rssAnonKb(), openStreams()};
    const std::lock_guard lock(s_trimMutex);
    s_trim = t;
}

int PollStats::threads()
{
    // stat's 20th field; the 2nd, the command in parentheses, may hold spaces: count after ')'.
    std::FILE *f = std::fopen("/proc/self/stat", "r");
    if (!f)
        return -1;
    char line[1024];
    const bool read = std::fgets(line, sizeof line, f) != nullptr;
    std::fclose(f);
    const char *at = read ? std::strrchr(line, ')') : nullptr;
    if (!at)
        return -1;
    int field = 2;
    for (++at; *at && field < 20; ++at)
        if (*at == ' ')
            ++field;
    return field == 20 ? std::atoi(at) : -1;
}

int PollStats::mallocArenas()
{
    // malloc_info writes one <heap nr="N"> element per arena.
    char *text = nullptr;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return -1;
    const int rc = malloc_info(0, f);
    std::fclose(f);
    int arenas = 0;
    if (rc == 0)
        for (const char *at = text; (at = std::strstr(at, "<heap nr=")) != nullptr; ++at)
            ++arenas;
    std::free(text);
    return rc == 0 ? arenas : -1;
}

void PollStats::write()
{
    // The rate of the last interval stands for the whole interval: the file is written once a
    // second, and an advertised interval is at least 10 ms, so the error is one second's share.
    const TaskManager::Demand d = m_tasks.demand();
    const std::int64_t now = TaskManager::nowMs();
    m_asked += d.pollsPerSecond * double(now - m_lastMs) / 1000.0;
    m_lastMs = now;
    Trim trim;
    {
        const std::lock_guard lock(s_trimMutex);
        trim = s_trim;
    }
    const nlohmann::json stats = {{"since_ms", m_sinceMs},   {"now_ms", now},
                                  {"polls", polls()},        {"asked", m_asked},
                                  {"tasks", d.tasks},        {"working", d.working},
                                  {"queued", d.queued},      {"input_required", d.inputRequired},
                                  {"completed", d.completed}, {"failed", d.failed},
                                  {"cancelled", d.cancelled}, {"results_in_memory", d.resultsInMemory},
                                  {"heap_in_use_kb", heapInUseKb()},
                                  {"rss_kb", rssKb()},
                                  {"threads", threads()},
                                  {"open_streams", openStreams()},
                                  {"malloc_arenas", mallocArenas()},
                                  {"trim_ms", trim.atMs},
                                  {"trim_heap_kb", trim.heapKb},
                                  {"trim_rss_anon_kb", trim.rssAnonKb},
                                  {"trim_open_streams", trim.openStreams}};
    std::string error;
    if (!CaseFolder::writeAtomically(m_path, stats.dump() + "\n", error))
        Log::warn("--stats-file: " + error);
}

} // namespace Eddy::Server
