#pragma once

// SQLite persistence for tasks (WAL, synchronous=NORMAL: a committed row survives SIGKILL).
// One connection guarded by a mutex; callable from any thread. Errors come back as values.

#include "server/taskrecord.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

struct sqlite3;

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

    // Inserts or replaces the row (the checkpoint column is left as it was).
    bool save(const TaskRecord &record, std::string &error);
    bool saveCheckpoint(const std::string &id, const std::vector<std::uint8_t> &blob,
                        const std::string &statusMessage, std::int64_t updatedMs);
    std::vector<std::uint8_t> loadCheckpoint(const std::string &id);
    bool remove(const std::string &id);
    // Every stored task, oldest first; rows that cannot be read are skipped and reported.
    std::vector<TaskRecord> loadAll(std::string &warnings);

private:
    bool exec(const char *sql, std::string &error);

    std::mutex m_mutex;
    sqlite3 *m_db = nullptr;
};

} // namespace Eddy::Server
