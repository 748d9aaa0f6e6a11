#pragma once

// SQLite persistence for tasks (WAL, synchronous=NORMAL: a committed row survives SIGKILL).
// One connection guarded by a mutex; callable from any thread. Errors come back as values.

#include "server/taskrecord.h"

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace Eddy::Server {

class TaskStore final
{
public:
    TaskStore() = default;
    ~TaskStore();
    TaskStore(const TaskStore &) = delete;
    TaskStore &operator=(const TaskStore &) = delete;

    // Opens or creates the database file (mode 0600) and its schema.
    bool open(const std::string &path, std::string &error);

    enum class Saved { Yes, Conflict, Failed };
    // Inserts the row, or updates it if its change number is still record.seq (the checkpoint
    // column is left as it was). Yes: written, seq is the row's new change number. Conflict:
    // another connection (a replica) changed the row since record.seq; nothing was written.
    Saved save(const TaskRecord &record, std::int64_t &seq, std::string &error);
    bool saveCheckpoint(const std::string &id, const std::vector<std::uint8_t> &blob,
                        const std::string &statusMessage, std::int64_t updatedMs);
    std::vector<std::uint8_t> loadCheckpoint(const std::string &id);
    bool remove(const std::string &id);
    // Every stored task, oldest first; rows that cannot be read are skipped and reported. A
    // finished task last updated before resultsBeforeMs comes without its result (null): it is
    // read with load() when asked for (HeldTasks keeps such a task cold).
    std::vector<TaskRecord> loadAll(std::string &warnings,
                                    std::int64_t resultsBeforeMs = std::numeric_limits<std::int64_t>::min());
    // One stored task; false when there is no such (readable) row.
    bool load(const std::string &id, TaskRecord &out);
    // The rows whose change number is above after, in change order, but only when another
    // connection committed anything since the last call (SQLite's data_version): otherwise
    // false at the cost of one pragma, no table read.
    bool changedSince(std::int64_t after, std::vector<TaskRecord> &out);

private:
    bool exec(const char *sql, std::string &error);
    bool addChangeNumbers(std::string &error); // the seq column and counter of older files

    std::mutex m_mutex;
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_dataVersionQuery = nullptr; // prepared once: changedSince runs per poll
    std::int64_t m_dataVersion = -1;            // what it saw last time
};

} // namespace Eddy::Server
