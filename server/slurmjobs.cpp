#include "server/slurmjobs.h"

#include <sqlite3.h>

namespace Eddy::Server {

namespace {

bool step(sqlite3 *db,
          const char *sql,
          const std::string &task,
          int attempt,
          const std::string *jobId,
          std::string &error)
{
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    sqlite3_bind_text(st, 1, task.data(), int(task.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, attempt);
    if (jobId)
        sqlite3_bind_text(st, 3, jobId->data(), int(jobId->size()), SQLITE_TRANSIENT);
    const bool ok = sqlite3_step(st) == SQLITE_DONE;
    if (!ok)
        error = sqlite3_errmsg(db);
    sqlite3_finalize(st);
    return ok;
}

} // namespace

SlurmJobs::~SlurmJobs()
{
    if (m_db)
        sqlite3_close(m_db);
}

bool SlurmJobs::open(const std::string &path, std::string &error)
{
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr)
        != SQLITE_OK) {
        error = "cannot open the database " + path + ": " + sqlite3_errmsg(m_db);
        return false;
    }
    sqlite3_busy_timeout(m_db, 5000);
    char *message = nullptr;
    if (sqlite3_exec(m_db,
                     "CREATE TABLE IF NOT EXISTS slurm_jobs (task_id TEXT NOT NULL,"
                     " attempt INTEGER NOT NULL, job_id TEXT NOT NULL,"
                     " PRIMARY KEY (task_id, attempt));",
                     nullptr,
                     nullptr,
                     &message)
        != SQLITE_OK) {
        error = "cannot prepare the slurm_jobs table in " + path + ": "
                + (message ? message : "unknown SQLite error");
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool SlurmJobs::intend(const std::string &taskId, int attempt, std::string &error)
{
    return step(m_db,
                "INSERT OR IGNORE INTO slurm_jobs VALUES (?1, ?2, '')",
                taskId,
                attempt,
                nullptr,
                error);
}

bool SlurmJobs::setJob(const std::string &taskId,
                       int attempt,
                       const std::string &jobId,
                       std::string &error)
{
    return step(m_db,
                "INSERT OR REPLACE INTO slurm_jobs VALUES (?1, ?2, ?3)",
                taskId,
                attempt,
                &jobId,
                error);
}

bool SlurmJobs::find(const std::string &taskId, int attempt, std::string &jobId)
{
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(
            m_db, "SELECT job_id FROM slurm_jobs WHERE task_id=?1 AND attempt=?2", -1, &st, nullptr)
        != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, taskId.data(), int(taskId.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, attempt);
    bool found = false;
    if (sqlite3_step(st) == SQLITE_ROW) {
        found = true;
        const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
        jobId = p ? p : "";
    }
    sqlite3_finalize(st);
    return found;
}

} // namespace Eddy::Server
