#!/usr/bin/env bash
# Slurm command-line calls per minute made by eddy-cfd-server --backend slurm at 10, 100 and
# 1,000 live jobs, while eddyctl polls every task. Target: flat (one squeue per refresh cycle,
# whatever the number of jobs; tasks/get never calls Slurm).
#   bench/server/slurm-calls.sh BUILD_DIR [SECONDS_PER_LEVEL]   (default 60)
# Starts a private Slurm (tests/slurm/slurm-cluster.sh) with its partition DOWN, so every job
# stays pending and costs no CPU, submits the cases with `eddyctl sweep submit`, keeps
# `eddyctl watch` polling them, and reads the server's --slurm-stats file before and after the
# window. The submissions themselves (one sbatch each) are outside the window.
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [SECONDS_PER_LEVEL]}" && pwd)
window=${2:-60}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
chmod 755 "$work" # munged wants every folder above its socket world-executable
cluster="$work/cluster"
server_pid=""
watch_pid=""
cleanup() {
    [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    "$here/tests/slurm/slurm-cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
trap "exit 1" INT TERM
"$here/tests/slurm/slurm-cluster.sh" start "$cluster" >/dev/null
export SLURM_CONF="$cluster/slurm.conf"
scontrol update PartitionName=eddy State=DOWN

calls() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['calls'])" "$1"; }
live() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['live_jobs'])" "$1"; }

printf '%-10s %-12s %-14s %s\n' "live jobs" "window (s)" "Slurm calls" "calls/min"
for n in 10 100 1000; do
    data="$work/data-$n"
    stats="$work/stats-$n.json"
    "$build/server/eddy-cfd-server" --backend slurm --data-dir "$data" --slurm-stats "$stats" \
        --poll-interval-ms 500 > "$work/server-$n.out" 2> "$work/server-$n.err" &
    server_pid=$!
    for _ in $(seq 1 100); do grep -q listening "$work/server-$n.out" 2>/dev/null && break; sleep 0.1; done
    url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/server-$n.out")
    cat > "$work/spec-$n.json" <<SPEC
{"tool": "run_cfd_case", "fixed": {"grid": 16, "max_iterations": 100},
 "vary": {"reynolds": {"range": {"from": 100, "to": $((100 + n - 1)), "step": 1}}},
 "concurrency": 64}
SPEC
    "$build/app/cli/eddyctl" --db "$work/ctl-$n.sqlite" sweep submit "$url" "$work/spec-$n.json" >/dev/null 2>&1
    # Every job submitted and followed before the window opens.
    for _ in $(seq 1 600); do
        [ -f "$stats" ] && [ "$(live "$stats")" -ge "$n" ] && break
        sleep 0.5
    done
    "$build/app/cli/eddyctl" --db "$work/ctl-$n.sqlite" watch --until-done >/dev/null 2>&1 &
    watch_pid=$!
    sleep 2
    before=$(calls "$stats")
    sleep "$window"
    after=$(calls "$stats")
    printf '%-10s %-12s %-14s %s\n' "$(live "$stats")" "$window" "$((after - before))" \
        "$(( (after - before) * 60 / window ))"
    kill "$watch_pid"; wait "$watch_pid" 2>/dev/null || true; watch_pid=""
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    scancel --user="$(id -un)" >/dev/null 2>&1 || true
done
