#include "server/slurmconfig.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <strings.h>

namespace Eddy::Server {

namespace {

std::string trimmed(std::string s)
{
    const auto from = s.find_first_not_of(" \t\r");
    if (from == std::string::npos)
        return {};
    s = s.substr(from);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.pop_back();
    return s;
}

} // namespace

bool SlurmConfig::ask(SlurmCli &cli, std::string &error)
{
    const SlurmCli::Result config = cli.run({"scontrol", "show", "config"}, 10000);
    if (!config.ok()) {
        error = config.why("scontrol show config");
        return false;
    }
    std::istringstream in(config.out);
    for (std::string line; std::getline(in, line);) {
        const auto eq = line.find(" = ");
        if (eq == std::string::npos)
            continue;
        const std::string key = trimmed(line.substr(0, eq));
        const std::string value = line.substr(eq + 3);
        if (key == "JobCompType")
            compType = value;
        else if (key == "JobCompLoc")
            compLoc = value;
        else if (key == "MinJobAge")
            minJobAge = value;
    }
    source = "scontrol show config";
    return true;
}

bool SlurmConfig::read(std::string &error)
{
    const char *env = std::getenv("SLURM_CONF");
    const std::string path = env && *env ? env : "/etc/slurm/slurm.conf";
    std::ifstream in(path);
    if (!in) {
        error = "cannot read " + path + " (SLURM_CONF)";
        return false;
    }
    minJobAge = "300"; // Slurm's default
    // KEY=VALUE, several on a line, keys in any case, # starts a comment (slurm.conf(5)).
    for (std::string line; std::getline(in, line);) {
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        std::istringstream words(line);
        for (std::string word; words >> word;) {
            const auto eq = word.find('=');
            if (eq == std::string::npos)
                continue;
            const std::string key = word.substr(0, eq);
            const std::string value = word.substr(eq + 1);
            if (strcasecmp(key.c_str(), "JobCompType") == 0)
                compType = value;
            else if (strcasecmp(key.c_str(), "JobCompLoc") == 0)
                compLoc = value;
            else if (strcasecmp(key.c_str(), "MinJobAge") == 0)
                minJobAge = value;
        }
    }
    source = path;
    return true;
}

} // namespace Eddy::Server
