#include "server/foamprocess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace Eddy::Server {

namespace {

constexpr auto kPollStep = std::chrono::milliseconds(20);

// A process that has ended but was not reaped yet (its parent is gone or slow) is no threat.
bool isZombie(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

} // namespace

FoamProcess::~FoamProcess()
{
    if (m_pid > 0 && !m_exited)
        stop(std::chrono::milliseconds(2000));
}

std::string FoamProcess::which(const std::string &name)
{
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char *path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        std::size_t end = dirs.find(':', start);
        if (end == std::string::npos)
            end = dirs.size();
        const std::string dir = dirs.substr(start, end - start);
        start = end + 1;
        if (dir.empty())
            continue;
        const std::string candidate = dir + "/" + name;
        struct stat st{};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)
            && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

bool FoamProcess::spawn(const std::vector<std::string> &argv,
                        const std::string &dir,
                        const std::vector<std::string> &env,
                        int outFd,
                        std::string &error)
{
    if (argv.empty()) {
        error = "no command";
        return false;
    }
    const std::string program = which(argv[0]);
    if (program.empty()) {
        error = "'" + argv[0] + "' was not found on PATH";
        return false;
    }
    // Everything the child needs is built before fork: after it, only async-signal-safe calls.
    std::vector<std::string> envStrings;
    for (char **e = environ; e && *e; ++e) {
        const std::string entry(*e);
        bool replaced = false;
        for (const std::string &extra : env)
            replaced = replaced || entry.compare(0, extra.find('=') + 1, extra, 0,
                                                 extra.find('=') + 1) == 0;
        if (!replaced)
            envStrings.push_back(entry);
    }
    envStrings.insert(envStrings.end(), env.begin(), env.end());
    // OpenFOAM warns on stdout (mixed into foamDictionary's answer) when PWD is not its cwd.
    std::error_code ec;
    const std::string physical = std::filesystem::canonical(dir, ec).string();
    envStrings.erase(std::remove_if(envStrings.begin(), envStrings.end(),
                                    [](const std::string &e) { return e.rfind("PWD=", 0) == 0; }),
                     envStrings.end());
    if (!ec)
        envStrings.push_back("PWD=" + physical);
    std::vector<char *> args, envp;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    for (const std::string &e : envStrings)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);

    const pid_t pid = ::fork();
    if (pid < 0) {
        error = std::string("cannot start ") + argv[0] + ": " + std::strerror(errno);
        if (devNull >= 0)
            ::close(devNull);
        return false;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        // The server dies (kill -9): the child goes with it instead of running on unowned.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr); // the server blocks SIGTERM in every thread
        ::signal(SIGPIPE, SIG_DFL);
        if (devNull >= 0)
            ::dup2(devNull, 0);
        ::dup2(outFd, 1);
        ::dup2(outFd, 2);
        ::close_range(3, ~0U, 0);
        if (::chdir(dir.c_str()) != 0)
            ::_exit(126);
        ::execve(program.c_str(), args.data(), envp.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid); // also here, so the group exists before the parent signals it
    if (devNull >= 0)
        ::close(devNull);
    m_pid = pid;
    m_exited = false;
    m_exitCode = -1;
    m_signal = 0;
    return true;
}

bool FoamProcess::start(const std::vector<std::string> &argv,
                        const std::string &dir,
                        const std::vector<std::string> &env,
                        const std::string &logPath,
                        bool append,
                        std::string &error)
{
    const int fd = ::open(logPath.c_str(),
                          O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
    if (fd < 0) {
        error = "cannot write the log " + logPath + ": " + std::strerror(errno);
        return false;
    }
    const bool ok = spawn(argv, dir, env, fd, error);
    ::close(fd);
    return ok;
}

void FoamProcess::reap(bool block)
{
    if (m_pid <= 0 || m_exited)
        return;
    siginfo_t info{};
    // WNOWAIT keeps the child a zombie, so its group id cannot be reused while the group is
    // swept of what the leader left behind (mpirun's ranks).
    if (::waitid(P_PID, id_t(m_pid), &info, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) != 0
        || info.si_pid != m_pid)
        return;
    ::killpg(m_pid, SIGKILL);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_exited = true;
    if (WIFEXITED(status)) {
        m_exitCode = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        m_signal = WTERMSIG(status);
    }
}

bool FoamProcess::finished()
{
    reap(false);
    return m_pid <= 0 || m_exited;
}

void FoamProcess::stop(std::chrono::milliseconds grace)
{
    if (m_pid <= 0 || m_exited)
        return;
    ::killpg(m_pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (!finished() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(kPollStep);
    if (!m_exited) {
        ::killpg(m_pid, SIGKILL);
        reap(true);
    }
}

std::string FoamProcess::describeExit() const
{
    if (m_signal != 0) {
        const char *name = ::strsignal(m_signal);
        return "killed by signal " + std::to_string(m_signal) + " (" + (name ? name : "?") + ")";
    }
    // A shell reports a child's signal as 128 + N; OpenFOAM's own FPE handler re-raises.
    return "exit code " + std::to_string(m_exitCode);
}

bool FoamProcess::run(const std::vector<std::string> &argv,
                      const std::string &dir,
                      const std::vector<std::string> &env,
                      std::chrono::milliseconds timeout,
                      std::string &output,
                      int &exitCode,
                      std::string &error)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    FoamProcess p;
    const bool started = p.spawn(argv, dir, env, fds[1], error);
    ::close(fds[1]);
    if (!started) {
        ::close(fds[0]);
        return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[4096];
    bool open = true;
    while (open) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            break;
        pollfd pfd{fds[0], POLLIN, 0};
        if (::poll(&pfd, 1, int(left.count())) <= 0)
            continue;
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n > 0 && output.size() < (1u << 20))
            output.append(buf, std::size_t(n));
        open = n > 0 || (n < 0 && errno == EINTR);
    }
    ::close(fds[0]);
    if (open) {
        p.stop(std::chrono::milliseconds(1000));
        error = argv[0] + " did not finish within " + std::to_string(timeout.count() / 1000)
                + " s";
        return false;
    }
    p.reap(true);
    exitCode = p.m_signal ? -1 : p.m_exitCode;
    return true;
}

int FoamProcess::killMarked(const std::string &entry)
{
    const std::string needle = entry + '\0';
    std::vector<pid_t> marked;
    std::error_code ec;
    for (const std::filesystem::directory_entry &e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const pid_t pid = pid_t(std::stol(name));
        if (pid == ::getpid())
            continue;
        std::ifstream in(e.path() / "environ", std::ios::binary); // unreadable: not ours
        const std::string variables((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (variables.rfind(needle, 0) == 0 || variables.find('\0' + needle) != std::string::npos)
            marked.push_back(pid);
    }
    for (const pid_t pid : marked)
        ::kill(pid, SIGKILL);
    const auto gone = [&] {
        for (const pid_t pid : marked)
            if (::kill(pid, 0) == 0 && !isZombie(pid))
                return false;
        return true;
    };
    for (int i = 0; i < 250 && !gone(); ++i)
        std::this_thread::sleep_for(kPollStep);
    return int(marked.size());
}

} // namespace Eddy::Server
