#!/usr/bin/env bash
# Runs every benchmark in bench/ with modest sizes (about 30 minutes on 2 cores, 11 of them the
# 10-minute soak) and prints ONE markdown table: what was measured, the number, the target, the
# verdict, how to reproduce it.
#   bench/run-all.sh [BUILD_DIR] [--out FILE] [--logs DIR] [--node PATH] [--only NAMES]
# --only solver,server,client,compare,store,gui,sweep,year,openfoam,soak runs only those (comma list).
# BUILD_DIR (default: build) must already hold the benchmarks; this script builds nothing:
#   cmake --build BUILD_DIR --target eddy-cfd-server bench_solver bench_server bench_server_floor \
#         bench_client bench_store bench_compare bench_gui bench_sweep bench_year bench_openfoam \
#         eddy-cfd-solve eddyctl eddy bench_soak
# It reads only the RESULT lines the benchmarks print (format: bench/README.md) and judges each
# row from its number and target alone. A row that could not be measured (binary not built, bench
# stopped early, too few samples) says "not measured: why" and is not counted as a miss.
# Exit status: 0 when every benchmark ran to the end (missed targets included), 1 otherwise
# (then the logs in --logs DIR, default a temporary folder, are kept).
set -u

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}

here="$(cd "$(dirname "$0")" && pwd)"
build="build"
out=""
logs=""
node="$(command -v node || true)"
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || { echo "run-all: --out needs a file name" >&2; exit 2; }; out="$2"; shift 2 ;;
        --logs) [ $# -ge 2 ] || { echo "run-all: --logs needs a folder" >&2; exit 2; }; logs="$2"; shift 2 ;;
        --node) [ $# -ge 2 ] || { echo "run-all: --node needs the path of node" >&2; exit 2; }; node="$2"; shift 2 ;;
        --only) [ $# -ge 2 ] || { echo "run-all: --only needs a comma list of benchmarks, e.g. client,store" >&2; exit 2; }
                only="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "run-all: unknown option '$1'; see --help" >&2; exit 2 ;;
        *) build="$1"; shift ;;
    esac
done
names="solver,server,client,compare,store,gui,sweep,year,openfoam,soak" # run's NAMEs, in order
for name in ${only//,/ }; do
    case ",$names," in
        *",$name,"*) ;;
        *) echo "run-all: --only: no benchmark '$name'; the names: $names" >&2; exit 2 ;;
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
results="$logs/results.txt" # one RESULT line per row, in run order
: > "$results"
failed=0

note() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# A row for a benchmark that did not give (all) its rows; same format as the benchmarks' own.
missing() { # BENCH WHY
    printf 'RESULT {"bench":"%s","what":"%s","value":null,"unit":"","target":"","shown":"","why":"%s","how":""}\n' \
        "$1" "$1: rows not printed" "$2" >> "$results"
}

# run NAME ROWS TARGET BINARY ARGS...: runs one benchmark (output in $logs/NAME.log) and keeps its
# RESULT lines; ROWS is how many it prints when it runs to the end.
run() {
    local name="$1" rows="$2" target="$3" bin="$4"
    shift 4
    case ",$only," in ",,"|*",$name,"*) ;; *) return ;; esac
    if [ ! -x "$bin" ]; then
        note "$name: $bin is missing; skipped"
        missing "$name" "${bin#"$build"/} is not built (configure with -DEDDY_TESTS=ON, then cmake --build BUILD_DIR --target $target)"
        failed=1
        return
    fi
    note "$name: running (log: $logs/$name.log)"
    local status=0
    "$bin" "$@" > "$logs/$name.log" 2>&1 || status=$?
    local got
    got="$(grep -c '^RESULT {' "$logs/$name.log")"
    grep '^RESULT {' "$logs/$name.log" >> "$results"
    if [ "$status" != 0 ] || [ "$got" -lt "$rows" ]; then
        failed=1
        note "$name: exit status $status, $got of $rows rows; see $logs/$name.log"
        [ "$got" -lt "$rows" ] && missing "$name" \
            "$name stopped (exit status $status) after $got of its $rows rows; see its log: $(grep -v '^RESULT' "$logs/$name.log" | tail -n 1 | tr -d '"\\' | cut -c1-120)"
    fi
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
commit="$(git -C "$here" rev-parse --short HEAD 2> /dev/null || echo unknown)"
export EDDY_SERVER_BIN="$build/server/eddy-cfd-server"

run solver 1 bench_solver "$build/bench/solver/bench_solver" --speed-only --quick
run server 4 "bench_server bench_server_floor" "$build/bench/server/bench_server" --server "$EDDY_SERVER_BIN" \
    --floor "$build/bench/server/bench_server_floor" --tasks 100,1000 --duration-s 20 --slices 20
run client 2 bench_client "$build/bench/client/bench_client" --quick --paced-seconds 10
run compare 7 bench_compare "$build/bench/compare/bench_compare" all --quick --counts 100,1000 \
    ${node:+--node "$node"} --scripts "$here/server"
run store 5 bench_store "$build/bench/store/bench_store" all 10000
run gui 5 bench_gui "$build/bench/gui/bench_gui" all --seconds 5
run sweep 7 bench_sweep "$build/bench/gui/bench_sweep" all
# A tenth of a year of sweeps (about a minute); the whole year by hand: bench_year.
run year 7 bench_year "$build/bench/store/bench_year" --days 25
# OpenFOAM's pitzDaily three times by hand and three times through the server (about 2 minutes);
# without OpenFOAM its rows say "not measured" and why.
run openfoam 4 bench_openfoam "$build/bench/openfoam/bench_openfoam" all --rounds 3
# The whole system for 10 minutes with its faults (docs/soak.md); its charts stay in the soak
# folder of --logs DIR.
run soak 4 "eddy-cfd-server eddy-cfd-solve eddyctl eddy bench_soak" "$here/soak/soak.sh" "$build" \
    --minutes 10 --out "$logs/soak"

load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
    echo "Run $started at commit $commit on $(nproc) cores; load average $load_before at the start," \
         "$load_after at the end. Commands run in the build folder's bench/<area>/ (eddy-cfd-server:" \
         "server/); \`bench/run-all.sh BUILD_DIR\` runs them all."
    echo
    echo "| what | number | target | verdict | how to reproduce |"
    echo "|---|---|---|---|---|"
    awk -f "$here/resultfields.awk" -f <(cat <<'AWK'
        function pretty(t, unit,   op, lim) {
            if (t == "") return "—"
            op = t; sub(/[-0-9.].*$/, "", op); lim = substr(t, length(op) + 1)
            sub(/<=/, "≤", op); sub(/>=/, "≥", op)
            return op " " lim (unit == "" ? "" : " " unit)
        }
        function judge(v, t,   op, lim) {
            op = t; sub(/[-0-9.].*$/, "", op); lim = substr(t, length(op) + 1) + 0; v = v + 0
            if (op == "<=") return v <= lim
            if (op == "<") return v < lim
            if (op == ">=") return v >= lim
            if (op == ">") return v > lim
            return -1
        }
        /^RESULT \{/ {
            what = str("what"); unit = str("unit"); target = str("target"); how = str("how")
            value = num("value"); shown = str("shown")
            if (value == "") {
                why = str("why"); if (why == "") why = "no reason given"
                number = "not measured: " why; verdict = "not measured"; ++unmeasured
            } else {
                number = (shown != "") ? shown : value (unit == "" ? "" : " " unit)
                if (target == "") { verdict = "— (no target)"; ++info }
                else {
                    ok = judge(value, target)
                    if (ok == -1) { verdict = "not judged: target " target " not understood"; ++unmeasured }
                    else if (ok) { verdict = "met"; ++met }
                    else { verdict = "**missed**"; ++missed }
                }
            }
            gsub(/\|/, "\\|", what); gsub(/\|/, "\\|", number); gsub(/\|/, "\\|", how)
            printf "| %s | %s | %s | %s | %s |\n", what, number, pretty(target, unit), verdict, \
                (how == "" ? "—" : "`" how "`")
        }
        END {
            printf "\n%d met, %d missed, %d not measured, %d without a target.\n", met, missed, unmeasured, info
        }
AWK
    ) "$results"
} > "$logs/table.md"
if [ -n "$out" ]; then
    cp "$logs/table.md" "$out" && note "table written to $out"
else
    cat "$logs/table.md"
fi
if [ "$failed" = 1 ]; then
    note "some benchmarks did not run to the end; their logs stay in $logs"
elif [ "$keep_logs" = 0 ]; then
    rm -rf "$logs"
fi
exit "$failed"
