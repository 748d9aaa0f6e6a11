#include "server/slurmapi.h"

#include <sstream>

namespace Eddy::Server {

SlurmApi::Submitted SlurmCliApi::submit(const Submission &job)
{
    std::vector<std::string> args = {"sbatch",
                                     "--parsable",
                                     "--job-name=" + job.name,
                                     "--comment=" + job.comment,
                                     "--output=" + job.output,
                                     "--open-mode=append",
                                     "--chdir=" + job.dir,
                                     "--requeue",
                                     "--ntasks=" + std::to_string(job.tasks),
                                     "--cpus-per-task=1"};
    if (!job.partition.empty())
        args.push_back("--partition=" + job.partition);
    args.push_back(job.scriptPath);
    const SlurmCli::Result r = m_cli.run(args);
    Submitted out;
    const std::string jobId = r.out.substr(0, r.out.find_first_of(";\n"));
    if (r.ok() && !jobId.empty() && jobId.find_first_not_of("0123456789") == std::string::npos) {
        out.jobId = jobId;
        return out;
    }
    out.unsure = r.timedOut;
    out.why = r.timedOut ? std::string("sbatch did not answer in time") : r.why("sbatch");
    return out;
}

bool SlurmCliApi::jobs(Jobs &out, std::string &why)
{
    const SlurmCli::Result r
        = m_cli.run({"squeue", "--me", "-h", "-t", "all", "-o", "%i|%T|%r|%k"});
    if (!r.ok()) {
        why = r.why("squeue");
        return false;
    }
    out.clear();
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        const auto a = line.find('|');
        const auto b = a == std::string::npos ? a : line.find('|', a + 1);
        const auto c = b == std::string::npos ? b : line.find('|', b + 1);
        if (c == std::string::npos)
            continue;
        out[line.substr(0, a)]
            = {line.substr(a + 1, b - a - 1), line.substr(b + 1, c - b - 1), line.substr(c + 1)};
    }
    return true;
}

bool SlurmCliApi::cancel(const std::string &jobId, std::string &why)
{
    const SlurmCli::Result r = m_cli.run({"scancel", jobId});
    if (!r.ok())
        why = r.why("scancel " + jobId);
    return r.ok();
}

} // namespace Eddy::Server
