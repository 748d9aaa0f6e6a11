#pragma once

// The three settings of the cluster the Slurm backend needs at start: where the job completion
// log is (JobCompType, JobCompLoc) and how long Slurm keeps a finished job (MinJobAge). Asked
// with `scontrol show config`; with --slurm-rest on a host without the Slurm tools (or where
// scontrol fails) read from slurm.conf itself (SLURM_CONF, else /etc/slurm/slurm.conf), so that
// a job Slurm has purged is settled from the completion log on both paths.

#include "server/slurmcli.h"

#include <string>

namespace Eddy::Server {

struct SlurmConfig
{
    std::string compType;  // JobCompType, e.g. jobcomp/filetxt
    std::string compLoc;   // JobCompLoc
    std::string minJobAge; // MinJobAge in seconds, as written
    std::string source;    // where these came from, for the log

    // `scontrol show config`; false with error when it fails.
    bool ask(SlurmCli &cli, std::string &error);
    // The slurm.conf file; false with error when it cannot be read.
    bool read(std::string &error);
};

} // namespace Eddy::Server
