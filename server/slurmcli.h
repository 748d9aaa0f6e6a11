#pragma once

// Runs the Slurm command-line tools (sbatch, squeue, scancel, scontrol) for the Slurm backend:
// fork/exec without a shell, stdout and stderr captured, a time limit after which the tool is
// killed, and a count of every invocation (the "Slurm calls per minute" the bench reports).

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace Eddy::Server {

class SlurmCli final
{
public:
    struct Result
    {
        int exitCode = -1; // -1: could not start, killed by a signal, or timed out
        bool timedOut = false;
        std::string out;
        std::string err;
        bool ok() const { return exitCode == 0; }
        // One line for a status message or log: the tool's stderr, or why it did not run.
        std::string why(const std::string &tool) const;
    };

    // args[0] is the tool (found on PATH). Never waits longer than timeoutMs.
    Result run(const std::vector<std::string> &args, int timeoutMs = 30000);

    std::uint64_t calls() const { return m_calls.load(); }

private:
    std::atomic<std::uint64_t> m_calls{0};
};

} // namespace Eddy::Server
