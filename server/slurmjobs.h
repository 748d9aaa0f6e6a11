#pragma once

// The task id -> Slurm job id map of the Slurm backend, in the server's SQLite file (its own
// connection and table, slurm_jobs). A row is written with an empty job id before sbatch runs
// (the intent) and completed with the id after: a server killed in between finds an intent
// without id on restart and looks the job up by its --comment instead of submitting again.

#include <string>

struct sqlite3;

namespace Eddy::Server {

class SlurmJobs final
{
public:
    SlurmJobs() = default;
    ~SlurmJobs();
    SlurmJobs(const SlurmJobs &) = delete;
    SlurmJobs &operator=(const SlurmJobs &) = delete;

    bool open(const std::string &path, std::string &error);
    // attempt: how many mesh repairs the submission carries (one job per attempt).
    bool intend(const std::string &taskId, int attempt, std::string &error);
    bool
    setJob(const std::string &taskId, int attempt, const std::string &jobId, std::string &error);
    // False when there is no row; jobId is empty for an intent without a job id.
    bool find(const std::string &taskId, int attempt, std::string &jobId);

private:
    sqlite3 *m_db = nullptr;
};

} // namespace Eddy::Server
