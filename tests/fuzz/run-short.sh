#!/bin/sh
# Builds the libFuzzer targets in a nested clang build and runs each from a copy of its seed
# corpus for a few seconds. Fails on any crash, sanitizer report or broken invariant.
#   run-short.sh <source dir> <nested build dir> [seconds per target]
set -eu
src=$1
build=$2
seconds=${3:-30}
targets="fuzz_jsonrpc fuzz_sse fuzz_progress fuzz_schema"

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
    echo "fuzz_short: $t for $seconds s"
    if ! "$build/$t" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
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
echo "fuzz_short: all targets ran $seconds s without a finding ($(( $(date +%s) - start )) s total)"
