#!/bin/sh
# Long fuzzing run: builds the libFuzzer targets (clang, tests/fuzz/standalone) and runs each for
# SECONDS (default 600) from its seed corpus, keeping the grown corpus and any reproducer in
# OUT, then prints a markdown table of executions, coverage and findings.
#   bench/fuzz/run-long.sh [SECONDS] [OUT]     (run from anywhere; OUT defaults to ./fuzz-long)
set -u
seconds=${1:-600}
out=${2:-$PWD/fuzz-long}
src=$(cd "$(dirname "$0")/../.." && pwd)
targets="fuzz_jsonrpc fuzz_sse fuzz_progress fuzz_schema fuzz_taskreply fuzz_pollscanner"
build=$out/build
mkdir -p "$out"

CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$src/tests/fuzz/standalone" -B "$build" -G Ninja \
    >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$build" --target $targets -j2 || exit 1

echo "| target | seconds | executions | exec/s | coverage (edges) | features | corpus | findings |"
echo "|---|---|---|---|---|---|---|---|"
status=0
for t in $targets; do
    name=${t#fuzz_}
    mkdir -p "$out/$name/corpus" "$out/$name/artifacts"
    cp -n "$src/tests/fuzz/corpus/$name/"* "$out/$name/corpus/" 2>/dev/null
    "$build/$t" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/$name/artifacts/" "$out/$name/corpus" >"$out/$name.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$name.log")
    last=$(grep -E '^#[0-9]+' "$out/$name.log" | tail -n 1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
    findings=$(ls "$out/$name/artifacts" | wc -l)
    [ "$rc" -ne 0 ] && status=1
    echo "| $t | $seconds | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} | $findings (exit $rc) |"
done
exit $status
