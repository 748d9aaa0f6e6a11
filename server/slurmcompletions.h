#pragma once

// Slurm's job completion log (JobCompType=jobcomp/filetxt, JobCompLoc): one line per ended job,
// the only record of a job once slurmctld has forgotten it (MinJobAge). Read as it grows, from
// where the last look stopped. Used by the Slurm backend's refresher thread only.

#include <cstdint>
#include <map>
#include <string>

namespace Eddy::Server {

class SlurmCompletions final
{
public:
    struct Completion
    {
        std::string state, exitCode, name;
    };

    // The log's path; empty when the cluster keeps none (then nothing is ever found).
    void setPath(std::string path) { m_path = std::move(path); }
    const std::string &path() const { return m_path; }

    // The record of an ended job of Eddy's. Job ids are reused after slurmctld loses its
    // state, so the record counts only when its job name is name too.
    bool lookUp(const std::string &jobId, const std::string &name, Completion &out);

private:
    std::string m_path;
    std::uintmax_t m_offset = 0;
    std::map<std::string, Completion> m_completions; // our jobs in the log, by job id
};

} // namespace Eddy::Server
