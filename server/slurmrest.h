#pragma once

// --slurm-rest URL: the Slurm backend's submit, refresh and cancel through slurmrestd (Slurm
// 22.05, OpenAPI v0.0.38) with a JWT (X-SLURM-USER-TOKEN, from SLURM_JWT or --slurm-jwt-file)
// for one user (X-SLURM-USER-NAME). The refresh is ONE GET /jobs per cycle with update_time:
// a 304 (nothing changed) reuses the last answer. slurmrestd's errors are not clean HTTP codes
// (docs/server-slurm.md): they are turned into one line that says what to do, never with the token.

#include "server/slurmapi.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

namespace Eddy::Server {

class SlurmRest final : public SlurmApi
{
public:
    // url: http://HOST:PORT. jwtFile empty: the token is SLURM_JWT from the environment.
    // timeoutS: how long a call waits for slurmrestd's answer (and to send the request).
    SlurmRest(std::string url, std::string jwtFile, std::string user, int timeoutS = 20);

    // The token is there (an owner-only file) and slurmrestd answers a ping with it.
    bool check(std::string &error) override;
    Submitted submit(const Submission &job) override;
    bool jobs(Jobs &out, std::string &why) override;
    bool cancel(const std::string &jobId, std::string &why) override;
    std::uint64_t calls() const override { return m_calls.load(); }
    nlohmann::json counters() const override;

    const std::string &user() const { return m_user; }
    // After a successful check(): why the token's user (its sun claim) is not user(), if it is
    // not; empty otherwise.
    const std::string &warning() const { return m_warning; }

private:
    struct Reply
    {
        int status = -1;        // -1: no HTTP answer
        bool maybeSent = false; // no answer, but the request may have reached slurmrestd
        std::string transport;  // why there was no answer
        int slurmError = 0;     // the first error's error_number / error_code
        std::string slurmText;  // its description or error
        nlohmann::json body;
    };
    Reply call(const std::string &method, const std::string &path, const std::string &body = {});
    // One line for a task's message or the log: what failed and what to do.
    std::string explain(const Reply &r, const std::string &what);
    bool token(std::string &out, std::string &error);
    std::string tokenSource() const;

    const std::string m_url;
    const std::string m_jwtFile;
    const std::string m_user;
    const int m_timeoutS;
    std::string m_warning;

    std::mutex m_mutex; // the token and the last /jobs answer
    std::string m_token;
    std::filesystem::file_time_type m_tokenTime{};
    Jobs m_lastJobs;
    std::int64_t m_lastJobsTime = 0; // epoch seconds of the last full /jobs answer, 0: none

    std::atomic<std::uint64_t> m_calls{0};
    std::atomic<std::uint64_t> m_jobsCalls{0};
    std::atomic<std::uint64_t> m_notModified{0};
    std::atomic<std::uint64_t> m_submits{0};
    std::atomic<std::uint64_t> m_cancels{0};
    std::atomic<std::uint64_t> m_failures{0};
};

} // namespace Eddy::Server
