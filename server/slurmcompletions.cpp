#include "server/slurmcompletions.h"

#include <fstream>

namespace Eddy::Server {

namespace {

// "KEY=VALUE KEY=VALUE ..." (a jobcomp/filetxt line) -> the value of key, or empty.
std::string field(const std::string &line, const std::string &key)
{
    const std::string needle = key + "=";
    std::size_t at = 0;
    while ((at = line.find(needle, at)) != std::string::npos) {
        if (at == 0 || line[at - 1] == ' ') {
            const std::size_t from = at + needle.size();
            const std::size_t end = line.find(' ', from);
            return line.substr(from, end == std::string::npos ? std::string::npos : end - from);
        }
        at += needle.size();
    }
    return {};
}

} // namespace

bool SlurmCompletions::lookUp(const std::string &jobId, const std::string &name, Completion &out)
{
    if (m_path.empty() || jobId.empty())
        return false;
    std::ifstream in(m_path, std::ios::binary);
    if (in) {
        in.seekg(0, std::ios::end);
        const auto size = std::uintmax_t(in.tellg());
        if (size < m_offset)
            m_offset = 0; // rotated
        in.seekg(std::streamoff(m_offset));
        std::string line;
        while (std::getline(in, line)) {
            if (in.eof())
                break; // a line still being written: read it next time
            m_offset += line.size() + 1;
            const std::string jobName = field(line, "Name");
            if (jobName.rfind("eddy-", 0) != 0)
                continue;
            m_completions[field(line, "JobId")]
                = {field(line, "JobState"), field(line, "ExitCode"), jobName};
        }
    }
    const auto it = m_completions.find(jobId);
    if (it == m_completions.end() || it->second.name != name)
        return false;
    out = it->second;
    return true;
}

} // namespace Eddy::Server
