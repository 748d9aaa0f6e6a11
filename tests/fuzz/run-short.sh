#!/bin/sh
# Builds the libFuzzer targets in a nested clang build and runs each from a copy of its seed
# corpus. Fails on any crash, sanitizer report or broken invariant.
#   run-short.sh <source dir> <nested build dir> [runs per target] [cap in seconds per target]
# A gate must be reproducible: every target runs a fixed number of inputs from a fixed seed, so
# the same tree fuzzes the same inputs on every machine (the cap only bites on a machine slow
# enough to reach it). Open-ended, time-bounded campaigns are bench/fuzz/run-long.sh; what they
# find goes into tests/fuzz/corpus as a regression seed.
set -eu
src=$1
build=$2
runs=${3:-100000}
cap=${4:-180}
seed=20261130
targets="fuzz_jsonrpc fuzz_sse fuzz_progress fuzz_schema fuzz_taskreply fuzz_pollscanner"

launcher=
if command -v ccache >/dev/null 2>&1; then
    launcher=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
start=$(date +%s)
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$src/tests/fuzz/standalone" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo $launcher >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --target $targets -j2
echo "fuzz_short: nested build took $(( $(date +%s) - start )) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=
for t in $targets; do
    name=${t#fuzz_}
    mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
    cp "$src/tests/fuzz/corpus/$name/"* "$work/$name/corpus/"
    echo "fuzz_short: $t, $runs inputs from seed $seed"
    if ! "$build/$t" -seed="$seed" -runs="$runs" -max_total_time="$cap" -timeout=60 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" \
        >"$work/$name/log" 2>&1; then
        failed="$failed $t"
        tail -n 60 "$work/$name/log"
        for a in "$work/$name/artifacts/"*; do
            [ -f "$a" ] && { echo "reproducer $a:"; od -c "$a" | head -n 20; }
        done
    fi
    grep -E "^stat::number_of_executed_units|cov: " "$work/$name/log" | tail -n 2
done
if [ -n "$failed" ]; then
    echo "fuzz_short: FAILED:$failed"
    exit 1
fi
echo "fuzz_short: all targets ran $runs inputs without a finding ($(( $(date +%s) - start )) s total)"
