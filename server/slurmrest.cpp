#include "server/slurmrest.h"

#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sys/stat.h>

namespace Eddy::Server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char *kApi = "/slurm/v0.0.38";

std::int64_t epochSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string utc(std::int64_t epoch)
{
    const std::time_t t = std::time_t(epoch);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return text;
}

// The claims of a JWT (its middle part, base64url JSON); discarded when it has none.
json claims(const std::string &token)
{
    const auto a = token.find('.');
    const auto b = a == std::string::npos ? a : token.find('.', a + 1);
    if (b == std::string::npos)
        return json::value_t::discarded;
    std::string payload;
    unsigned bits = 0;
    int count = 0;
    for (char c : token.substr(a + 1, b - a - 1)) {
        int v = c >= 'A' && c <= 'Z'   ? c - 'A'
                : c >= 'a' && c <= 'z' ? c - 'a' + 26
                : c >= '0' && c <= '9' ? c - '0' + 52
                : c == '-' || c == '+' ? 62
                : c == '_' || c == '/' ? 63
                                       : -1;
        if (v < 0)
            break;
        bits = (bits << 6) | unsigned(v);
        count += 6;
        if (count >= 8) {
            count -= 8;
            payload += char((bits >> count) & 0xff);
        }
    }
    return json::parse(payload, nullptr, false);
}

// The "exp" claim, 0 when there is none.
std::int64_t expiry(const std::string &token)
{
    const json c = claims(token);
    if (!c.is_object() || !c.contains("exp") || !c["exp"].is_number())
        return 0;
    return c["exp"].get<std::int64_t>();
}

std::string text(const json &j, const char *key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>()
                                                                  : std::string();
}

// The "sun" claim (Slurm user name) `scontrol token` puts in, empty when there is none.
std::string tokenUser(const std::string &token)
{
    const json c = claims(token);
    return c.is_object() ? text(c, "sun") : std::string();
}

} // namespace

SlurmRest::SlurmRest(std::string url, std::string jwtFile, std::string user, int timeoutS)
    : m_url(url.back() == '/' ? url.substr(0, url.size() - 1) : url)
    , m_jwtFile(std::move(jwtFile))
    , m_user(std::move(user))
    , m_timeoutS(timeoutS)
{}

std::string SlurmRest::tokenSource() const
{
    return m_jwtFile.empty() ? std::string("SLURM_JWT") : "the token file " + m_jwtFile;
}

bool SlurmRest::token(std::string &out, std::string &error)
{
    const std::lock_guard lock(m_mutex);
    if (m_jwtFile.empty()) {
        const char *env = std::getenv("SLURM_JWT");
        if (!env || !*env) {
            error = "no Slurm token: set SLURM_JWT (from `scontrol token`) or pass "
                    "--slurm-jwt-file FILE with --slurm-rest";
            return false;
        }
        out = env;
        return true;
    }
    // The file is re-read when it changes: a renewed token needs no server restart.
    std::error_code ec;
    const auto time = fs::last_write_time(m_jwtFile, ec);
    if (ec) {
        error = "cannot read " + tokenSource() + ": " + ec.message()
                + "; write the token from `scontrol token` into it (mode 0600)";
        return false;
    }
    struct stat st
    {
    };
    if (::stat(m_jwtFile.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
        error = tokenSource() + " can be read by other users (mode "
                + std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7)
                + std::to_string(st.st_mode & 7) + "); the token lets anyone act as Slurm user "
                + m_user + ": run chmod 600 " + m_jwtFile + " and renew the token";
        return false;
    }
    if (m_token.empty() || time != m_tokenTime) {
        std::ifstream in(m_jwtFile, std::ios::binary);
        std::string value((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // `scontrol token` prints SLURM_JWT=<token>: accept the line as it is, too.
        if (value.rfind("SLURM_JWT=", 0) == 0)
            value = value.substr(10);
        while (!value.empty()
               && (value.back() == '\n' || value.back() == '\r' || value.back() == ' '))
            value.pop_back();
        if (value.empty()) {
            error = tokenSource() + " is empty; write the token from `scontrol token` into it";
            return false;
        }
        m_token = value;
        m_tokenTime = time;
    }
    out = m_token;
    return true;
}

SlurmRest::Reply
SlurmRest::call(const std::string &method, const std::string &path, const std::string &body)
{
    ++m_calls;
    Reply r;
    std::string jwt;
    if (!token(jwt, r.transport)) {
        r.status = 0; // not sent: the token is the problem
        ++m_failures;
        return r;
    }
    // A client per call: the dispatcher and the refresher never wait on each other's socket.
    httplib::Client client(m_url);
    // A stalled slurmrestd (stopped, or its threads all busy) still accepts connections into
    // its listen backlog: only the read time-out (--slurm-rest-timeout-s) ends such a call.
    client.set_connection_timeout(5);
    client.set_read_timeout(m_timeoutS);
    client.set_write_timeout(m_timeoutS);
    const httplib::Headers headers = {{"X-SLURM-USER-NAME", m_user}, {"X-SLURM-USER-TOKEN", jwt}};
    httplib::Result res = method == "POST" ? client.Post(path, headers, body, "application/json")
                          : method == "DELETE" ? client.Delete(path, headers)
                                               : client.Get(path, headers);
    if (!res) {
        const httplib::Error e = res.error();
        r.transport = e == httplib::Error::Connection ? std::string("cannot connect")
                      : e == httplib::Error::Read
                          ? "no answer within " + std::to_string(m_timeoutS) + " s"
                          : "HTTP client error: " + httplib::to_string(e);
        r.maybeSent = res.error() != httplib::Error::Connection;
        ++m_failures;
        return r;
    }
    r.status = res->status;
    r.body = json::parse(res->body, nullptr, false);
    if (r.body.is_object() && r.body.contains("errors") && r.body["errors"].is_array()
        && !r.body["errors"].empty()) {
        // Two shapes in v0.0.38: {error_number, description, error} and {error_code, error}.
        const json &e = r.body["errors"][0];
        for (const char *key : {"error_number", "error_code"})
            if (e.contains(key) && e[key].is_number())
                r.slurmError = e[key].get<int>();
        r.slurmText = text(e, "description");
        if (r.slurmText.empty())
            r.slurmText = text(e, "error");
    }
    if (r.status != 200 && r.status != 304)
        ++m_failures;
    return r;
}

std::string SlurmRest::explain(const Reply &r, const std::string &what)
{
    if (r.status == 0)
        return r.transport;
    if (r.status < 0)
        return "the Slurm REST API at " + m_url + " did not answer " + what + " (" + r.transport
               + "); check that slurmrestd runs there";
    if (r.status == 401)
        return "the Slurm REST API refused " + what
               + " (401: no token or no user name); give the token in SLURM_JWT or "
                 "--slurm-jwt-file and the user it was made for with --slurm-user (now '"
               + m_user + "')";
    // An expired or foreign token is no 401: slurmctld drops the connection (5005) or the
    // call fails unspecified (-1, "slurmctld config is unable to load").
    if (r.slurmError == -1 || r.slurmError == 5005) {
        std::string jwt, ignored;
        const bool known = token(jwt, ignored);
        const std::int64_t exp = known ? expiry(jwt) : 0;
        if (exp > 0 && exp <= epochSeconds())
            return "the Slurm token in " + tokenSource() + " expired at " + utc(exp)
                   + "; renew it with `scontrol token lifespan=SECONDS` as " + m_user
                   + (m_jwtFile.empty()
                          ? std::string(" and restart the server with the new "
                                        "SLURM_JWT")
                          : " and write it into " + m_jwtFile + " (read again on the next call)");
        // slurmctld takes a token for another user than X-SLURM-USER-NAME only from SlurmUser
        // or root (verified with Slurm 22.05): a foreign ordinary user's token is rejected.
        const std::string owner = known ? tokenUser(jwt) : std::string();
        if (!owner.empty() && owner != m_user)
            return "slurmctld rejected " + what + ": the Slurm token in " + tokenSource()
                   + " was made for user " + owner + " (its sun claim) but the server asks as "
                   + m_user
                   + " (--slurm-user, default: the user running the server); make a "
                     "token for "
                   + m_user + " with `scontrol token username=" + m_user + "` or pass --slurm-user "
                   + owner;
        return "slurmctld rejected " + what + " (" + r.slurmText
               + "); most likely the Slurm token in " + tokenSource() + " is not valid for user "
               + m_user
               + ": make one with `scontrol token` as that user on this cluster (slurm.conf needs "
                 "AuthAltTypes=auth/jwt)";
    }
    return "Slurm refused " + what + " (HTTP " + std::to_string(r.status)
           + (r.slurmError ? ", error " + std::to_string(r.slurmError) : std::string()) + ": "
           + (r.slurmText.empty() ? std::string("no reason given") : r.slurmText) + ")";
}

bool SlurmRest::check(std::string &error)
{
    std::string jwt;
    if (!token(jwt, error))
        return false;
    const Reply r = call("GET", std::string(kApi) + "/ping");
    if (r.status == 200 && r.slurmError == 0) {
        // Accepted for another user: the token's user is SlurmUser or root, and slurmctld lets
        // it act as m_user (jobs run as m_user). Allowed, but that token can act as anyone.
        const std::string owner = tokenUser(jwt);
        if (!owner.empty() && owner != m_user)
            m_warning = "the Slurm token in " + tokenSource() + " was made for user " + owner
                        + " (its sun claim), not for " + m_user
                        + " (--slurm-user, default: the user running the server); slurmctld "
                          "accepts it only because "
                        + owner + " is SlurmUser or root, and jobs run as " + m_user
                        + ". Such a token can act as any user on the cluster: keep it like an "
                          "administrator's password, or give the server one made with "
                          "`scontrol token username="
                        + m_user + "`";
        return true;
    }
    error = explain(r, "the ping");
    return false;
}

SlurmApi::Submitted SlurmRest::submit(const Submission &job)
{
    ++m_submits;
    // The job's environment (required, non-empty in v0.0.38): a short list, never the token.
    json environment = json::object();
    for (const char *name : {"PATH", "LD_LIBRARY_PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"})
        if (const char *value = std::getenv(name))
            environment[name] = value;
    if (environment.empty())
        environment["PATH"] = "/usr/bin:/bin";
    json properties = {{"name", job.name},
                       {"comment", job.comment},
                       {"current_working_directory", job.dir},
                       {"standard_output", job.output},
                       {"open_mode", "append"},
                       {"requeue", true},
                       {"tasks", job.tasks},
                       {"cpus_per_task", 1},
                       {"environment", environment}};
    if (!job.partition.empty())
        properties["partition"] = job.partition;
    const Reply r = call("POST",
                         std::string(kApi) + "/job/submit",
                         json{{"script", job.script}, {"job", properties}}.dump());
    Submitted out;
    if (r.status == 200 && r.slurmError == 0 && r.body.contains("job_id")
        && r.body["job_id"].is_number_integer()) {
        out.jobId = std::to_string(r.body["job_id"].get<std::int64_t>());
        return out;
    }
    out.unsure = r.maybeSent;
    out.retryable = r.status < 0 && !r.maybeSent; // never twice when it may have arrived
    out.why = explain(r, "the submission");
    return out;
}

bool SlurmRest::jobs(Jobs &out, std::string &why)
{
    ++m_jobsCalls;
    std::int64_t since = 0;
    {
        const std::lock_guard lock(m_mutex);
        since = m_lastJobsTime;
    }
    const std::int64_t asked = epochSeconds();
    // update_time: 304 when nothing changed since then (2 s early: the clocks may differ).
    const std::string query = since > 0 ? "?update_time=" + std::to_string(since - 2) : "";
    const Reply r = call("GET", std::string(kApi) + "/jobs" + query);
    if (r.status != 304
        && (r.status != 200 || r.slurmError != 0 || !r.body.contains("jobs")
            || !r.body["jobs"].is_array())) {
        why = explain(r, "the job list");
        return false;
    }
    const std::lock_guard lock(m_mutex);
    if (r.status == 304) {
        ++m_notModified;
        out = m_lastJobs;
        return true;
    }
    m_lastJobs.clear();
    for (const json &j : r.body["jobs"]) {
        if (!j.is_object() || !j.contains("job_id") || !j["job_id"].is_number_integer())
            continue;
        const std::string owner = text(j, "user_name");
        if (!owner.empty() && owner != m_user)
            continue;
        m_lastJobs[std::to_string(j["job_id"].get<std::int64_t>())]
            = {text(j, "job_state"), text(j, "state_reason"), text(j, "comment")};
    }
    m_lastJobsTime = asked;
    out = m_lastJobs;
    return true;
}

bool SlurmRest::cancel(const std::string &jobId, std::string &why)
{
    ++m_cancels;
    const Reply r = call("DELETE", std::string(kApi) + "/job/" + jobId);
    // 2017: Slurm no longer knows the job (purged); 2021: it has already ended.
    if ((r.status == 200 && r.slurmError == 0) || r.slurmError == 2017 || r.slurmError == 2021)
        return true;
    why = explain(r, "the cancel of job " + jobId);
    return false;
}

json SlurmRest::counters() const
{
    return {{"rest_calls", m_calls.load()},
            {"rest_jobs_calls", m_jobsCalls.load()},
            {"rest_not_modified", m_notModified.load()},
            {"rest_submits", m_submits.load()},
            {"rest_cancels", m_cancels.load()},
            {"rest_failures", m_failures.load()}};
}

} // namespace Eddy::Server
