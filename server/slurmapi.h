#pragma once

// What the Slurm backend asks of Slurm, behind one interface with two ways to ask: the
// command-line tools (SlurmCliApi: sbatch, squeue, scancel) and slurmrestd's REST API
// (SlurmRest, server/slurmrest.h, --slurm-rest URL). Everything else the backend does (case
// folders, the job completion log, requeue and checkpoints, mesh questions across jobs) is the
// same for both.

#include "server/slurmcli.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace Eddy::Server {

class SlurmApi
{
public:
    struct Submission
    {
        std::string name;       // job name
        std::string comment;    // idempotency key: the job is found by it after a crash
        std::string partition;  // empty: the cluster's default
        std::string dir;        // the case folder: working directory
        std::string scriptPath; // job.sh in dir
        std::string script;     // its text
        std::string output;     // stdout and stderr, with %j
        int tasks = 1;          // processes (one CPU each): an OpenFOAM case's processors
    };
    struct Submitted
    {
        std::string jobId;      // set when Slurm took the job
        bool unsure = false;    // no answer after the request went out: the job may exist
        bool retryable = false; // Slurm was not reached: asking again may work
        std::string why;        // without a job id: one line for the task's message
    };
    struct Job
    {
        std::string state, reason, comment;
    };
    using Jobs = std::map<std::string, Job>; // by job id

    virtual ~SlurmApi() = default;

    // Checks at start that Slurm can be asked this way; error says how to fix it.
    virtual bool check(std::string &error) = 0;
    virtual Submitted submit(const Submission &job) = 0;
    // ONE call to Slurm for every job of ours it still lists (finished ones included).
    virtual bool jobs(Jobs &out, std::string &why) = 0;
    virtual bool cancel(const std::string &jobId, std::string &why) = 0;
    // Calls to Slurm so far, and a breakdown for --slurm-stats.
    virtual std::uint64_t calls() const = 0;
    virtual nlohmann::json counters() const = 0;
};

class SlurmCliApi final : public SlurmApi
{
public:
    explicit SlurmCliApi(SlurmCli &cli)
        : m_cli(cli)
    {}

    bool check(std::string &) override { return true; }
    Submitted submit(const Submission &job) override;
    bool jobs(Jobs &out, std::string &why) override;
    bool cancel(const std::string &jobId, std::string &why) override;
    std::uint64_t calls() const override { return m_cli.calls(); }
    nlohmann::json counters() const override { return {{"cli_calls", m_cli.calls()}}; }

private:
    SlurmCli &m_cli;
};

} // namespace Eddy::Server
