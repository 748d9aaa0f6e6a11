#!/usr/bin/env bash
# Runs every benchmark in bench/ with modest sizes (about 10-15 minutes on 2 cores) and writes ONE
# markdown table: what was measured, the number, the target, and whether it was met.
#   bench/run-all.sh [BUILD_DIR] [--out FILE] [--logs DIR] [--node PATH]
# BUILD_DIR (default: build) must already hold the benchmarks; this script builds nothing:
#   cmake --build BUILD_DIR --target eddy-cfd-server bench_solver bench_server bench_client \
#         bench_store bench_compare
# A benchmark whose binary is missing gets a row saying so. Logs of every run go to --logs DIR
# (default: a temporary folder, removed at the end unless a run failed).
set -u

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
}

here="$(cd "$(dirname "$0")" && pwd)"
build="build"
out=""
logs=""
node="$(command -v node || true)"
while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || { echo "run-all: --out needs a file name" >&2; exit 2; }; out="$2"; shift 2 ;;
        --logs) [ $# -ge 2 ] || { echo "run-all: --logs needs a folder" >&2; exit 2; }; logs="$2"; shift 2 ;;
        --node) [ $# -ge 2 ] || { echo "run-all: --node needs the path of node" >&2; exit 2; }; node="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "run-all: unknown option '$1'; see --help" >&2; exit 2 ;;
        *) build="$1"; shift ;;
    esac
done
if [ ! -d "$build/bench" ]; then
    echo "run-all: '$build' is not a configured build folder with benchmarks (no $build/bench);" \
         "give the build folder, e.g. bench/run-all.sh build-release" >&2
    exit 2
fi
build="$(cd "$build" && pwd)"
keep_logs=1
if [ -z "$logs" ]; then
    logs="$(mktemp -d -t eddy-run-all-XXXXXX)"
    keep_logs=0
fi
mkdir -p "$logs" || { echo "run-all: cannot create $logs" >&2; exit 2; }
rows="$logs/rows.md"
: > "$rows"
failed=0

row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >> "$rows"; }
note() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# run NAME BINARY ARGS...: runs one benchmark with its output in $logs/NAME.log.
run() {
    local name="$1" bin="$2"
    shift 2
    if [ ! -x "$bin" ]; then
        note "$name: $bin is missing; skipped (build its target first)"
        row "$name" "not run: ${bin#"$build"/} is not built" "" "—"
        return 1
    fi
    note "$name: running (log: $logs/$name.log)"
    if ! "$bin" "$@" > "$logs/$name.log" 2>&1; then
        note "$name: FAILED, see $logs/$name.log"
        failed=1
        return 1
    fi
    return 0
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
commit="$(git -C "$here" rev-parse --short HEAD 2> /dev/null || echo unknown)"
export EDDY_SERVER_BIN="$build/server/eddy-cfd-server"

# --- solver: cell updates/s against the STREAM triad bound
run solver "$build/bench/solver/bench_solver" --speed-only --quick --summary "$rows"

# --- server: CPU per tasks/get, with the official requester on the same schedule
if run server "$build/bench/server/bench_server" --server "$EDDY_SERVER_BIN" --tasks 100,1000 --duration-s 5 \
        --only-keepalive ${node:+--node "$node" --scripts "$here/server" --node-tasks 100} \
        --markdown "$logs/server.md"; then
    # | client | tasks | per s | served / asked | errors | server µs | minus idle | client µs | ...
    awk -F'|' '
        /C\+\+/ && $3+0 == 100 { a = $7 }
        /C\+\+/ && $3+0 == 1000 { b = $7; s = $5 }
        END {
            gsub(/^ +| +$/, "", a); gsub(/^ +| +$/, "", b); gsub(/^ +| +$/, "", s)
            met = (a + 0 > 0 && a + 0 <= 30 && b + 0 <= 30) ? "yes" : "**no**"
            printf "| Server CPU per `tasks/get`, keep-alive (bench/server) | 100 tasks: %s µs; 1,000 tasks: %s µs (%s served) | ≤ 30 µs | %s |\n", a, b, s, met
        }' "$logs/server.md" >> "$rows"
fi

# --- client: Eddy's own client, round trips and CPU (bench/client prints one line per run)
if run client "$build/bench/client/bench_client" --quick; then
    # The paced line in the "== 100 live tasks" block: the target's load.
    line="$(awk '/^== /{ block = ($2 == "100") } block && /^paced/ { print; exit }' "$logs/client.log")"
    us="$(printf '%s\n' "$line" | sed -n 's/.*CPU *\([0-9.]*\) *us.*/\1/p')"
    if [ -n "$us" ]; then
        met="$(awk -v u="$us" 'BEGIN { print (u <= 50) ? "yes" : "**no**" }')"
        row "Client CPU per poll, 100 tasks every 500 ms (bench/client, paced like the engine)" "$us µs" "≤ 50 µs" "$met"
    else
        row "Client CPU per round trip (bench/client)" "ran; no 'paced' line to read, see its log" "≤ 50 µs" "—"
    fi
fi

# --- side by side with the official requester; poll discipline; latency
run compare "$build/bench/compare/bench_compare" all --quick ${node:+--node "$node"} --scripts "$here/server" \
    --markdown "$logs/compare.md" --summary "$rows"

# --- store and monitor: 1,000-case submit, startup with 100k tasks (+10M samples), 10k live tasks
run store "$build/bench/store/bench_store" all 10000 --summary "$rows"

# --- GUI: main-thread stall, 1M-sample redraw, startup (bench/gui prints one line per run)
if run gui "$build/bench/gui/bench_gui" all --seconds 5; then
    awk '
        # The number right after the text `before` (portable awk: no capture groups).
        function field(before,   s) {
            if (!match($0, before "[0-9.]+")) return ""
            s = substr($0, RSTART, RLENGTH); sub(before, "", s); return s
        }
        /^stall:/ {
            batch = field("/s\\) in "); p50 = field("stall p50 ")
            p99 = field("p99 "); mx = field("max "); kb = field("memory ")
            printf "| GUI main-thread stall, 10,000 live tasks, %s ms change sets (bench/gui) | p50 %s ms, p99 %s ms, max %s ms; %s KB per task | p99 < 16 ms | %s |\n", \
                batch, p50, p99, mx, kb, (p99 != "" && p99 + 0 < 16) ? "yes" : "**no**"
        }
        /^redraw:/ {
            med = field("full redraw median "); mx = field("full redraw median [0-9.]+ ms, max ")
            printf "| Chart redraw, 1M samples (bench/gui) | median %s ms, max %s ms | ≤ 50 ms | %s |\n", \
                med, mx, (med != "" && med + 0 <= 50) ? "yes" : "**no**"
        }
        /^startup:/ {
            shown = field("window shown "); listed = field("all tasks listed ")
            printf "| GUI startup, 100,000 stored tasks (bench/gui) | window shown %s ms, all listed %s ms | shown ≤ 1,000 ms | %s |\n", \
                shown, listed, (shown != "" && shown + 0 <= 1000) ? "yes" : "**no**"
        }' "$logs/gui.log" >> "$rows"
fi

load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
    echo "Run $started at commit $commit on $(nproc) cores; load average $load_before at the start, $load_after at the end."
    echo
    echo "| what | measured | target | met? |"
    echo "|---|---|---|---|"
    cat "$rows"
} > "$logs/table.md"
if [ -n "$out" ]; then
    cp "$logs/table.md" "$out" && note "table written to $out"
else
    cat "$logs/table.md"
fi
if [ "$failed" = 1 ]; then
    note "some benchmarks failed; their logs stay in $logs"
elif [ "$keep_logs" = 0 ]; then
    rm -rf "$logs"
fi
exit "$failed"
