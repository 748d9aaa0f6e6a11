// What a benchmark notes beside its numbers: the process's resident memory and the machine's
// load average (a number measured on a busy machine says so). Header-only, standard C++ and
// POSIX only: for the Qt benchmarks and the others alike.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace Bench {

// The process's resident set (VmRSS) in MiB; -1 where /proc is not there.
inline double rssMiB()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    return -1;
}

// The 1-minute load average; -1 when unknown.
inline double loadAverage()
{
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

} // namespace Bench
