#pragma once

// One OpenFOAM utility or solver as a child process: its own process group, stdout and stderr
// to a log file (or captured), signals unblocked, killed with SIGKILL if the server dies. Stopped
// with SIGTERM to the whole group (mpirun passes it on to its ranks, which have groups of their
// own), then SIGKILL after a grace period. Used by one thread at a time.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace Eddy::Server {

class FoamProcess final
{
public:
    FoamProcess() = default;
    ~FoamProcess(); // stops a child still running
    FoamProcess(const FoamProcess &) = delete;
    FoamProcess &operator=(const FoamProcess &) = delete;

    // Starts argv (argv[0] found on PATH) in dir, with env ("NAME=value") added to this
    // process's environment and its output written to logPath (appended when append is true).
    bool start(const std::vector<std::string> &argv,
               const std::string &dir,
               const std::vector<std::string> &env,
               const std::string &logPath,
               bool append,
               std::string &error);
    // True once the child has ended (reaped; its group swept with SIGKILL).
    bool finished();
    // SIGTERM to the group, up to grace for it to end, then SIGKILL; reaps the child.
    void stop(std::chrono::milliseconds grace);

    pid_t pid() const { return m_pid; }
    bool succeeded() const { return m_exited && m_exitCode == 0; }
    // "exit code 1", "killed by signal 8 (Floating point exception)".
    std::string describeExit() const;

    // Runs argv to completion with its output captured; false (and error) when it could not
    // start, or ran longer than timeout (then it is killed). exitCode is its exit code, or -1.
    static bool run(const std::vector<std::string> &argv,
                    const std::string &dir,
                    const std::vector<std::string> &env,
                    std::chrono::milliseconds timeout,
                    std::string &output,
                    int &exitCode,
                    std::string &error);

    // The full path of an executable on PATH, or empty.
    static std::string which(const std::string &name);
    // Sends SIGKILL to every process of this user whose environment holds entry exactly
    // ("EDDY_FOAM_RUN=<case key>", set on each step): what a step left behind after a stop or an
    // earlier server's death, such as mpirun's ranks, which run in process groups of their own.
    // Waits (at most 5 s) for them to go; returns how many there were.
    static int killMarked(const std::string &entry);

private:
    bool spawn(const std::vector<std::string> &argv,
               const std::string &dir,
               const std::vector<std::string> &env,
               int outFd,
               std::string &error);
    void reap(bool block);

    pid_t m_pid = -1;
    bool m_exited = false;
    int m_exitCode = -1;
    int m_signal = 0;
};

} // namespace Eddy::Server
