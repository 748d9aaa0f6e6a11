// One machine-readable line per measured row, the only thing bench/run-all.sh reads from a
// benchmark's output (format: bench/README.md, "Result lines"):
//   RESULT {"bench":"client","what":"...","value":36.5,"unit":"µs","target":"<=50",
//           "shown":"...","why":"","how":"bench_client --quick"}
// value is null when the row could not be measured, and `why` then says why. run-all computes
// the verdict from value and target alone, so a number and its verdict can never disagree.
// Header-only, standard C++ only: used by the Qt benchmarks and by bench_server alike.
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace Bench {

struct Result
{
    std::string bench;  // the benchmark: solver, server, client, compare, store, gui
    std::string what;   // the table's "what" column
    std::optional<double> value; // the number the verdict is taken from; nullopt: not measured
    int decimals = 1;   // value is printed (and judged) with this many decimals
    std::string unit;   // "µs", "ms", "MB", "%", "×"
    std::string target; // "<=50", "<16", ">=50" or "" (a row for information, no verdict)
    std::string shown;  // the table's number column; empty: value and unit
    std::string why;    // with no value: why it could not be measured
    std::string how;    // the command that reproduces the row
};

// Strings in a result line hold no '"' or '\' (replaced by ' and /), so that run-all reads the
// line with plain awk; control characters become spaces.
inline std::string resultText(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        if (c == '"')
            out += '\'';
        else if (c == '\\')
            out += '/';
        else if (static_cast<unsigned char>(c) < 0x20)
            out += ' ';
        else
            out += c;
    }
    return out;
}

inline void printResult(const Result &r)
{
    std::string value = "null";
    if (r.value && std::isfinite(*r.value)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", r.decimals, *r.value);
        value = buf;
    }
    const std::string why = r.value ? std::string() : (r.why.empty() ? std::string("no reason given") : r.why);
    std::printf("RESULT {\"bench\":\"%s\",\"what\":\"%s\",\"value\":%s,\"unit\":\"%s\",\"target\":\"%s\","
                "\"shown\":\"%s\",\"why\":\"%s\",\"how\":\"%s\"}\n",
                resultText(r.bench).c_str(), resultText(r.what).c_str(), value.c_str(),
                resultText(r.unit).c_str(), resultText(r.target).c_str(), resultText(r.shown).c_str(),
                resultText(why).c_str(), resultText(r.how).c_str());
    std::fflush(stdout);
}

// A row that could not be measured; run-all shows "not measured: why" and does not count a miss.
inline void printNotMeasured(const std::string &bench, const std::string &what, const std::string &target,
                             const std::string &why, const std::string &how)
{
    Result r;
    r.bench = bench;
    r.what = what;
    r.target = target;
    r.why = why;
    r.how = how;
    printResult(r);
}

} // namespace Bench
