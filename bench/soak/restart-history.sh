#!/bin/bash
# What a restarted eddy-cfd-server keeps on a history of finished cases (docs/soak.md, "Found by
# the soak"):
#   bench/soak/restart-history.sh BUILD_DIR [--cases N] [--out DIR]
# Runs N short cases (default 600) to completion on a fresh server, stops it, starts it again on
# the same data, and prints the anonymous RSS above the heap in use, the heap in use and the RSS
# right after its first once-a-minute trim (its --stats-file), and how the load went. About
# 2 minutes. Exit status 0 when measured, 2 on a usage or setup error.
set -u
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
build="$1"; shift
cases=600 out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cases) cases="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "restart-history.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
server="$build/server/eddy-cfd-server" ctl="$build/app/cli/eddyctl"
for b in "$server" "$ctl"; do
    [ -x "$b" ] || { echo "restart-history.sh: $b is missing: cmake --build $build --target eddy-cfd-server eddyctl" >&2; exit 2; }
done
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out/data" || exit 2
pid=""
stop() { [ -n "$pid" ] && kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null; pid=""; }
trap stop EXIT
start() { # LOG: a server on the data folder; its URL in $url
    "$server" --port 0 --data-dir "$out/data" --workers 2 --results-in-memory-ms 5000 \
        --stats-file "$out/stats.json" --log-level info > "$1" 2>&1 &
    pid=$!
    for _ in $(seq 300); do grep -qs 'listening on' "$1" && break; sleep 0.1; done
    url=$(grep -o 'http://[^ ]*' "$1" | head -1)
    [ -n "$url" ] || { echo "restart-history.sh: the server did not start; see $1" >&2; exit 2; }
}
num() { grep -o "\"$1\":[-0-9]*" "$out/stats.json" 2> /dev/null | cut -d: -f2; }

start "$out/first.log"
printf '{"tool":"run_cfd_case","fixed":{"grid":16,"max_iterations":300},"vary":{"reynolds":{"range":{"from":1,"to":%s,"step":1}}},"mode":"grid","concurrency":16}\n' \
    "$cases" > "$out/sweep.json"
"$ctl" --db "$out/eddy.sqlite" sweep submit "$url" "$out/sweep.json" > "$out/submit.log" 2>&1 ||
    { echo "restart-history.sh: the sweep was not submitted; see $out/submit.log" >&2; exit 2; }
for _ in $(seq 600); do [ "$(num completed)" = "$cases" ] && break; sleep 0.5; done
[ "$(num completed)" = "$cases" ] || { echo "restart-history.sh: $(num completed) of $cases cases completed in 5 minutes" >&2; exit 2; }
sleep 6 # past --results-in-memory-ms: every result is the store's
stop
rm -f "$out/stats.json"
start "$out/second.log"
for _ in $(seq 150); do [ "$(num trim_ms)" -gt 0 ] 2> /dev/null && break; sleep 0.5; done
[ "$(num trim_ms)" -gt 0 ] 2> /dev/null || { echo "restart-history.sh: no trim in 75 s; see $out/second.log" >&2; exit 2; }
anon=$(num trim_rss_anon_kb) heap=$(num trim_heap_kb) rss=$(num rss_kb)
grep -o 'loaded .*' "$out/second.log" | head -1
awk -v a="$anon" -v h="$heap" -v r="$rss" -v n="$cases" 'BEGIN {
    printf "after the first trim, %d finished cases held: anonymous RSS above the heap in use %.2f MB, heap in use %.1f MB, RSS %.1f MB\n",
           n, (a - h) / 1024, h / 1024, r / 1024 }'
