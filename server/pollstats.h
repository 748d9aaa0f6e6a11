#pragma once

// --stats-file: what the server was asked for and what it served, for long measurements
// (bench/soak). A thread rewrites the file once a second; tasks/get answers are counted on the
// HTTP threads with one relaxed atomic add.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace Eddy::Server {

class TaskManager;

class PollStats final
{
public:
    // Every tasks/get answered with a task (either era, fast or slow path).
    static void countPoll() { s_polls.fetch_add(1, std::memory_order_relaxed); }
    static std::uint64_t polls() { return s_polls.load(std::memory_order_relaxed); }
    // The heap the process holds in chunks in use (glibc mallinfo2), in KB: unlike RSS, not
    // raised by freed memory the allocator keeps.
    static std::int64_t heapInUseKb();
    // How many malloc arenas the process has (glibc's malloc_info): one while M_ARENA_MAX holds.
    static int mallocArenas();
    // The SSE responses open now (OpenStreams): each holds a thread of its own while it is open.
    static void streamOpened() { s_streams.fetch_add(1, std::memory_order_relaxed); }
    static void streamClosed() { s_streams.fetch_sub(1, std::memory_order_relaxed); }
    static std::int64_t openStreams() { return s_streams.load(std::memory_order_relaxed); }
    // The process's RSS (/proc/self/statm) and threads (/proc/self/stat), in KB and as a count;
    // -1 when they cannot be read.
    static std::int64_t rssKb();
    static int threads();
    // The anonymous part of the RSS (/proc/self/status RssAnon: heap, arenas, stacks) in KB;
    // -1 when it cannot be read.
    static std::int64_t rssAnonKb();
    // Called right after each malloc_trim (TaskManager's janitor): notes the heap in use, the
    // anonymous RSS and the open streams at that point, once the trim has given the free pages
    // back, so a long measurement compares the same point of every minute's saw. A no-op until
    // a PollStats exists.
    static void afterTrim();

    PollStats(const TaskManager &tasks, std::string path);
    ~PollStats(); // stops the thread after one last write
    PollStats(const PollStats &) = delete;
    PollStats &operator=(const PollStats &) = delete;

    void start();
    void stop();

private:
    void write();

    static inline std::atomic<std::uint64_t> s_polls{0};
    static inline std::atomic<std::int64_t> s_streams{0};
    static inline std::atomic<bool> s_enabled{false};
    const TaskManager &m_tasks;
    const std::string m_path;
    const std::int64_t m_sinceMs;
    std::int64_t m_lastMs;
    double m_asked = 0; // integral over time of each live task's 1 / advertised interval
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace Eddy::Server
