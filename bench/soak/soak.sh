#!/usr/bin/env bash
# The soak: the whole system on loopback for hours, every resource sampled and drawn, and a
# verdict computed from the data (docs/soak.md).
#   bench/soak/soak.sh [BUILD_DIR] [--minutes N] [--out DIR] [--peak N] [--restart-every MIN]
#                      [--cycle-s S] [--sample-s S] [--poll-interval-ms MS] [--no-slurm]
# Runs eddy-cfd-server with a steady supply of cases (up to --peak live tasks, default 10000),
# the real window (offscreen) and `eddyctl watch` on one database, and faults on a schedule:
# server restarts every --restart-every minutes, kill -9 of the watch and of the window (each
# started again), a burst of a hostile server's misbehaviours, and three Slurm replicas behind
# nginx with one killed and all rolled (when Slurm and nginx are installed; otherwise the run
# says why it skipped them). Every --sample-s seconds (default 5) it writes one row of
# OUT/samples.csv; at the end bench_soak report draws OUT/soak.svg, writes OUT/verdict.txt and
# prints the verdict as RESULT lines (bench/README.md).
#   Default --minutes 60, --out ./soak-YYYYMMDD-HHMMSS. Needs BUILD_DIR to hold eddy-cfd-server,
#   eddyctl, eddy and bench_soak (and eddy-cfd-solve for the replicas):
#     cmake --build BUILD_DIR --target eddy-cfd-server eddy-cfd-solve eddyctl eddy bench_soak
# Exit status: 0 when the run finished and was judged (the verdict, PASS or FAIL, is the last
# line before the RESULT lines, and OUT/verdict.txt), 2 on a usage or setup error or when the
# report could not be made. Ctrl-C stops the run: every process it started is ended by its pid,
# and the report is made from the samples so far.
set -u

# Everything runs inside main, which bash reads whole before it starts: editing this file while a
# soak runs cannot change the run.
main() {

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="build"
minutes=60
out=""
peak=10000
restart_every=""
cycle_s=60
sample_s=5
poll_ms=15000
use_slurm=1
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes|--out|--peak|--restart-every|--cycle-s|--sample-s|--poll-interval-ms)
            [ $# -ge 2 ] || { echo "soak: $1 needs a value; see --help" >&2; exit 2; }
            case "$1" in
                --minutes) minutes="$2" ;; --out) out="$2" ;; --peak) peak="$2" ;;
                --restart-every) restart_every="$2" ;; --cycle-s) cycle_s="$2" ;;
                --sample-s) sample_s="$2" ;; --poll-interval-ms) poll_ms="$2" ;;
            esac
            shift 2 ;;
        --no-slurm) use_slurm=0; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "soak: unknown option '$1'; see --help" >&2; exit 2 ;;
        *) build="$1"; shift ;;
    esac
done
for v in minutes peak cycle_s sample_s poll_ms; do
    case "${!v}" in ''|*[!0-9]*) echo "soak: --${v//_/-} takes a whole number (got '${!v}')" >&2; exit 2 ;; esac
done
[ "$minutes" -ge 5 ] || { echo "soak: --minutes must be at least 5 (warm-up plus something to judge)" >&2; exit 2; }
[ -n "$restart_every" ] || restart_every=$(( minutes >= 30 ? 10 : (minutes / 4 > 2 ? minutes / 4 : 2) ))
case "$restart_every" in ''|*[!0-9]*|0) echo "soak: --restart-every takes whole minutes, at least 1" >&2; exit 2 ;; esac

[ -d "$build" ] || { echo "soak: '$build' is not a build folder; give it, e.g. bench/soak/soak.sh build" >&2; exit 2; }
build="$(cd "$build" && pwd)"
server_bin="$build/server/eddy-cfd-server"
ctl_bin="$build/app/cli/eddyctl"
eddy_bin="$build/app/eddy"
helper="$build/bench/soak/bench_soak"
for b in "$server_bin" "$ctl_bin" "$eddy_bin" "$helper"; do
    [ -x "$b" ] || { echo "soak: $b is not built; run cmake --build $build --target eddy-cfd-server eddyctl eddy bench_soak" >&2; exit 2; }
done
[ -n "$out" ] || out="soak-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" || { echo "soak: cannot create $out" >&2; exit 2; }
out="$(cd "$out" && pwd)"
[ -e "$out/samples.csv" ] && { echo "soak: $out already holds a run; give another --out" >&2; exit 2; }

db="$out/eddy.sqlite"
sdata="$out/server"
events="$out/events.csv"
samples="$out/samples.csv"
export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" XDG_CACHE_HOME="$out/cache" XDG_RUNTIME_DIR="$out/runtime"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export EDDY_STALL_PROBE="$out/stall.txt"
unset DBUS_SESSION_BUS_ADDRESS # no desktop notifications from the window
ctl() { "$ctl_bin" --db "$db" "$@"; }
q() { "$helper" query "$@"; }

start_s=$(date +%s)
now() { echo $(( $(date +%s) - start_s )); }
note() { printf '[%s +%4ds] %s\n' "$(date -u +%H:%M:%S)" "$(now)" "$*" >&2; }
event() { # KIND DETAIL: the fault timeline (events.csv) and the console
    printf '%s,%s,%s\n' "$(now)" "$1" "$(echo "$2" | tr ',' ';')" >> "$events"
    note "$1: $2"
}
echo "t_s,kind,detail" > "$events"

# ---------------------------------------------------------------- processes, ended by their pid
declare -gA pid=()     # role -> pid
declare -ga helpers=() # short-lived eddyctl runs in the background
spawn() { # ROLE LOG CMD...: starts CMD in the background as ROLE
    local role="$1" log="$2"
    shift 2
    "$@" >> "$log" 2>&1 &
    pid[$role]=$!
}
alive() { [ -n "${pid[$1]:-}" ] && kill -0 "${pid[$1]}" 2> /dev/null; }
stop_role() { # ROLE SIGNAL TIMEOUT_S: signal, wait for the exit, kill -9 after the timeout
    local role="$1" sig="$2" limit="$3" p="${pid[$1]:-}"
    [ -n "$p" ] || return 0
    kill -"$sig" "$p" 2> /dev/null
    local i=0
    while kill -0 "$p" 2> /dev/null && [ "$i" -lt $(( limit * 10 )) ]; do sleep 0.1; i=$(( i + 1 )); done
    if kill -0 "$p" 2> /dev/null; then
        event stuck "$role (pid $p) still running ${limit} s after SIG$sig; killed with SIGKILL"
        kill -KILL "$p" 2> /dev/null
    fi
    { wait "$p"; } 2> /dev/null # no "Killed" line from the shell
    unset "pid[$role]"
}
cleanup_done=0
cleanup() {
    [ "$cleanup_done" = 1 ] && return
    cleanup_done=1
    local role
    for role in "${!pid[@]}"; do stop_role "$role" TERM 30; done
    local h
    for h in "${helpers[@]}"; do kill -TERM "$h" 2> /dev/null; done
    for h in "${helpers[@]}"; do wait "$h" 2> /dev/null; done
    [ -n "${slurm_dir:-}" ] && slurm_stop
}
interrupted=0
trap 'interrupted=1' INT TERM
trap cleanup EXIT

# Waits for a condition, naming the phase when it does not come.
wait_for() { # SECONDS PHASE COMMAND...
    local limit="$1" phase="$2"
    shift 2
    local i=0
    until "$@"; do
        i=$(( i + 1 ))
        if [ "$i" -ge $(( limit * 5 )) ] || [ "$interrupted" = 1 ]; then
            event timeout "$phase: not done within $limit s"
            return 1
        fi
        sleep 0.2
    done
}

# ---------------------------------------------------------------- the reference server
server_gen=0
port=0
start_server() {
    server_gen=$(( server_gen + 1 ))
    local log="$out/logs/server-$server_gen.log"
    spawn server "$log" "$server_bin" --port "$port" --data-dir "$sdata" --workers 2 \
        --poll-interval-ms "$poll_ms" --stats-file "$out/server-stats-$server_gen.json" --log-level warn
    if ! wait_for 60 "server start ($log)" grep -qs 'listening on' "$log"; then return 1; fi
    if [ "$port" = 0 ]; then
        url="$(grep -o 'http://[^ ]*' "$log" | head -1)"
        port="${url##*:}"; port="${port%%/*}"
    fi
}
start_server || exit 2
url="http://127.0.0.1:$port/mcp"
event start "server $url, ${minutes} min, peak $peak live tasks, restarts every $restart_every min"

# ---------------------------------------------------------------- window and watch
window_gen=0
start_window() {
    window_gen=$(( window_gen + 1 ))
    spawn window "$out/logs/window-$window_gen.log" "$eddy_bin" --db "$db" --no-local-server --lang en
}
watch_gen=0
start_watch() {
    watch_gen=$(( watch_gen + 1 ))
    spawn watch "$out/logs/watch-$watch_gen.log" "$ctl_bin" --db "$db" watch
}
kill_and_restart() { # ROLE NAME STARTER: kill -9, then started again 2 s later
    event kill "$2: SIGKILL (pid ${pid[$1]:-none})"
    stop_role "$1" KILL 10
    sleep 2
    "$3"
    event kill "$2 started again"
}
ctl discover "$url" > "$out/logs/discover.log" 2>&1 || { event setup "eddyctl discover $url failed; see logs/discover.log"; exit 2; }

# ---------------------------------------------------------------- the supply of cases
spec() { # FILE TOOL_FIXED_JSON VARY_JSON CONCURRENCY
    printf '{"tool":"run_cfd_case","fixed":%s,"vary":%s,"mode":"grid","concurrency":%s}\n' "$2" "$3" "$4" > "$1"
}
sweep_n=0
submit() { # KIND FIXED VARY CONCURRENCY: one sweep in the background
    sweep_n=$(( sweep_n + 1 ))
    local f="$out/specs/$1-$sweep_n.json"
    mkdir -p "$out/specs"
    spec "$f" "$2" "$3" "$4"
    ctl sweep submit "$url" "$f" --session "soak $1" >> "$out/logs/submit.log" 2>&1 &
    helpers+=($!)
}
# Parked cases stop at the mesh check until the rule answers them; short ones finish in a second.
park_fixed='{"grid":8,"max_iterations":200,"force_mesh_defect":true}'
short_fixed='{"grid":16,"max_iterations":300}'
long_fixed='{"grid":256,"max_iterations":120000,"tolerance":1e-15}'
reap_helpers() {
    local keep=() h
    for h in "${helpers[@]}"; do kill -0 "$h" 2> /dev/null && keep+=("$h") || wait "$h" 2> /dev/null; done
    helpers=("${keep[@]}")
}

answered=0 cancelled=0 answer_failed=0
# The rule: the oldest open questions first; two of three answered "repair", one cancelled.
rule() { # HOW_MANY
    local n=0 line task key
    while IFS=$'\t' read -r task key; do
        [ -n "$task" ] || continue
        n=$(( n + 1 ))
        if [ $(( (answered + cancelled) % 3 )) = 2 ]; then
            if ctl cancel "$task" >> "$out/logs/rule.log" 2>&1; then cancelled=$(( cancelled + 1 )); else answer_failed=$(( answer_failed + 1 )); fi
        else
            if ctl answer "$task" "$key" '{"action":"repair","smoothing_passes":5}' >> "$out/logs/rule.log" 2>&1; then
                answered=$(( answered + 1 ))
            else
                answer_failed=$(( answer_failed + 1 ))
            fi
        fi
    done < <(q "$db" "SELECT r.task_id, r.key FROM input_requests r JOIN tasks t ON t.id = r.task_id
                       WHERE r.state = 'pending' AND t.status = 'input_required' AND t.cancel_requested = 0
                       ORDER BY r.first_seen_at, r.id LIMIT $1" 2>> "$out/logs/rule.log")
}

# ---------------------------------------------------------------- sampling
stats_base_polls=0 stats_base_asked=0 # completed server lifetimes
json_num() { grep -o "\"$1\":[-0-9.eE+]*" "$2" 2> /dev/null | head -1 | cut -d: -f2; }
close_server_stats() { # adds the finished lifetime's totals to the base
    local f="$out/server-stats-$server_gen.json"
    local p a
    p=$(json_num polls "$f"); a=$(json_num asked "$f")
    stats_base_polls=$(awk -v b="$stats_base_polls" -v x="${p:-0}" 'BEGIN { printf "%d", b + x }')
    stats_base_asked=$(awk -v b="$stats_base_asked" -v x="${a:-0}" 'BEGIN { printf "%.1f", b + x }')
}
roles="server window watch hostile replica1 replica2 replica3 nginx"
header="t_s,epoch_ms,load1"
for r in $roles; do header="$header,${r}_pid,${r}_rss_kb,${r}_fds,${r}_threads"; done
header="$header,db_bytes,wal_bytes,db_tasks,db_events,db_samples,db_changes,db_leases,db_questions_pending,server_db_bytes,server_wal_bytes,server_db_tasks"
header="$header,db_page_bytes,db_payload,db_free_bytes,server_db_page_bytes,server_db_payload,server_db_free_bytes"
header="$header,polls,asked,server_tasks,server_working,server_queued,server_input_required,stall_p50_ms,stall_p99_ms,stall_samples"
header="$header,window_tasks,watch_tasks,server_heap_kb"
for r in server window watch; do header="$header,${r}_sockets,${r}_sockets_closing"; done
# RSS split into anonymous memory (heaps, arenas, stacks: what a leak raises) and file pages
# (libraries, fonts, the database's mapped WAL index: bounded by the files) for a leak's hunt.
for r in server window watch; do header="$header,${r}_rss_anon_kb,${r}_rss_file_kb"; done
# The server's RSS, threads and open streams as its stats file wrote them, with its heap in use,
# at one instant: the differences the report judges are then of one snapshot.
header="$header,server_stats_rss_kb,server_stats_threads,server_open_streams"
# The server's heap in use, anonymous RSS and open streams as it read them right after its last
# once-a-minute trim, and when (epoch ms): the same point of every minute's saw.
header="$header,server_trim_ms,server_trim_heap_kb,server_trim_anon_kb,server_trim_streams"
echo "$header" > "$samples"
proc_cols() { # PID -> pid,rss_kb,fds,threads (empty when not running)
    local p="$1"
    if [ -n "$p" ] && [ -r "/proc/$p/status" ]; then
        local rss thr fds
        rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2> /dev/null)
        thr=$(awk '/^Threads:/ { print $2 }' "/proc/$p/status" 2> /dev/null)
        fds=$(ls "/proc/$p/fd" 2> /dev/null | wc -l)
        printf '%s,%s,%s,%s' "$p" "$rss" "$fds" "$thr"
    else
        printf ',,,'
    fi
}
socket_cols() { # PID -> sockets,closing: its socket descriptors, and those of its TCP connections
    # the peer has closed while it has not (CLOSE_WAIT): a connection it no longer uses but never
    # closed. Empty when not running.
    local p="$1"
    [ -n "$p" ] && [ -d "/proc/$p/fd" ] || { printf ','; return; }
    local inodes
    inodes=$(ls -l "/proc/$p/fd" 2> /dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p')
    awk -v list="$inodes" 'BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) if (a[i] != "") mine[a[i]] = 1 }
        FNR > 1 && ($10 in mine) && $4 == "08" { closing++ }
        END { printf "%d,%d", length(mine), closing }' "/proc/$p/net/tcp" "/proc/$p/net/tcp6" 2> /dev/null
}
rss_split_cols() { # PID -> rss_anon_kb,rss_file_kb (file: RssFile + RssShmem); empty when not running
    local p="$1"
    [ -n "$p" ] && [ -r "/proc/$p/status" ] || { printf ','; return; }
    awk '/^RssAnon:/ { a = $2 } /^RssFile:/ { f += $2 } /^RssShmem:/ { f += $2 }
         END { printf "%s,%s", a, f }' "/proc/$p/status" 2> /dev/null
}
size_of() { stat -c %s "$1" 2> /dev/null || echo 0; }
last_stall=""
next_payload=0
payload_sql="SELECT (SELECT page_count FROM pragma_page_count) * (SELECT page_size FROM pragma_page_size), (SELECT sum(payload) FROM dbstat),
                    (SELECT freelist_count FROM pragma_freelist_count) * (SELECT page_size FROM pragma_page_size)"
sample() {
    local row r
    row="$(now),$(date +%s%3N),$(cut -d' ' -f1 /proc/loadavg)"
    for r in $roles; do row="$row,$(proc_cols "${pid[$r]:-}")"; done
    local counts
    counts=$(q "$db" "SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM task_events),
                      (SELECT count(*) FROM progress_samples), (SELECT count(*) FROM change_log),
                      (SELECT count(*) FROM leases), (SELECT count(*) FROM input_requests WHERE state = 'pending')" 2> /dev/null | tr '\t' ',')
    [ -n "$counts" ] || counts=",,,,,"
    local scount
    scount=$(q "$sdata/tasks.sqlite" "SELECT count(*) FROM tasks" 2> /dev/null)
    row="$row,$(size_of "$db"),$(size_of "$db-wal"),$counts,$(size_of "$sdata/tasks.sqlite"),$(size_of "$sdata/tasks.sqlite-wal"),$scount"
    # Pages against the bytes they hold, and the free pages (dbstat reads every page: once a minute).
    if [ "$(now)" -ge "$next_payload" ]; then
        next_payload=$(( $(now) + 60 ))
        local pay spay
        pay=$(q "$db" "$payload_sql" 2> /dev/null | tr '\t' ',')
        spay=$(q "$sdata/tasks.sqlite" "$payload_sql" 2> /dev/null | tr '\t' ',')
        row="$row,${pay:-,,},${spay:-,,}"
    else
        row="$row,,,,,,"
    fi
    local f="$out/server-stats-$server_gen.json" p a
    p=$(json_num polls "$f"); a=$(json_num asked "$f")
    if alive server && [ -n "$p" ]; then
        row="$row,$(awk -v b="$stats_base_polls" -v x="$p" 'BEGIN { printf "%d", b + x }'),$(awk -v b="$stats_base_asked" -v x="$a" 'BEGIN { printf "%.1f", b + x }')"
        row="$row,$(json_num tasks "$f"),$(json_num working "$f"),$(json_num queued "$f"),$(json_num input_required "$f")"
    else
        row="$row,,,,,,"
    fi
    local s
    s=$(tail -n 1 "$out/stall.txt" 2> /dev/null)
    if [ -n "$s" ] && [ "$s" != "$last_stall" ]; then
        last_stall="$s"
        set -- $s
        row="$row,$3,$4,$2"
    else
        row="$row,,,"
    fi
    # The tasks each process polls: the task leases it holds (owner "PID@host:...").
    local owner n wt=0 ht=0
    while IFS=$'\t' read -r owner n; do
        [ "$owner" = "${pid[window]:-x}" ] && wt=$n
        [ "$owner" = "${pid[watch]:-x}" ] && ht=$n
    done < <(q "$db" "SELECT substr(owner, 1, instr(owner, '@') - 1), count(*) FROM leases WHERE item LIKE 'task:%' GROUP BY 1" 2> /dev/null)
    row="$row,$(alive window && echo "$wt"),$(alive watch && echo "$ht")"
    # The server's heap in use (its stats file): what RSS holds besides the freed memory kept.
    row="$row,$(alive server && json_num heap_in_use_kb "$f")"
    for r in server window watch; do row="$row,$(socket_cols "${pid[$r]:-}")"; done
    for r in server window watch; do row="$row,$(rss_split_cols "${pid[$r]:-}")"; done
    if alive server; then
        row="$row,$(json_num rss_kb "$f"),$(json_num threads "$f"),$(json_num open_streams "$f")"
        row="$row,$(json_num trim_ms "$f"),$(json_num trim_heap_kb "$f"),$(json_num trim_rss_anon_kb "$f"),$(json_num trim_open_streams "$f")"
    else
        row="$row,,,,,,,"
    fi
    echo "$row" >> "$samples"
}

# ---------------------------------------------------------------- Slurm replicas behind nginx
slurm_dir=""
slurm_note=""
replicas_possible() {
    [ "$use_slurm" = 1 ] || { slurm_note="skipped: --no-slurm"; return 1; }
    local t
    for t in munged slurmctld slurmd sbatch nginx; do
        command -v "$t" > /dev/null || { slurm_note="skipped: $t is not installed (packages slurmctld slurmd slurm-client munge nginx)"; return 1; }
    done
    [ -x "$build/server/eddy-cfd-solve" ] || { slurm_note="skipped: $build/server/eddy-cfd-solve is not built (cmake --build BUILD_DIR --target eddy-cfd-solve)"; return 1; }
    return 0
}
slurm_stop() { "$repo/tests/slurm/slurm-cluster.sh" stop "$slurm_dir" >> "$out/logs/slurm.log" 2>&1; }
. "$here/replicas.sh"

# ---------------------------------------------------------------- the run
start_window
start_watch
duration=$(( minutes * 60 ))
next_sample=0 next_cycle=0 cycle=0
ramp_sweep=500
ramped=0
restart_s=$(( restart_every * 60 ))
next_restart=$restart_s
# The kills, the hostile burst and the replica phase happen once in every hour of the run (once
# in a shorter run), at the same fractions of it.
block=$(( duration < 3600 ? duration : 3600 ))
kill_watch=() kill_window=() hostile_times=() replica_times=()
for (( b = 0; b + block <= duration; b += block )); do
    kill_watch+=($(( b + block * 30 / 100 )) $(( b + block * 75 / 100 )))
    kill_window+=($(( b + block * 50 / 100 )) $(( b + block * 88 / 100 )))
    hostile_times+=($(( b + block * 62 / 100 )))
    replica_times+=($(( b + block * 40 / 100 )))
done
if replicas_possible; then replicas_note="scheduled at +${replica_times[*]} s"; else replicas_note="$slurm_note"; replica_times=(); fi
event replicas "$replicas_note"
due() { local t="$1"; [ "$t" -ge 0 ] && [ "$(now)" -ge "$t" ]; }

# Sampling and the supply of cases, once a second (also while a fault phase waits: pause).
supply_tick() {
    local t n live stored lt
    t=$(now)
    if [ "$t" -ge "$next_sample" ]; then
        sample
        next_sample=$(( next_sample + sample_s ))
    fi
    reap_helpers
    # Ramp: parked sweeps until the server holds the peak (one sweep in flight at a time).
    if [ "$ramped" = 0 ] && [ "${#helpers[@]}" = 0 ]; then
        live=$(( $(json_num working "$out/server-stats-$server_gen.json" || echo 0) + $(json_num input_required "$out/server-stats-$server_gen.json" || echo 0) ))
        stored=$(q "$db" "SELECT count(*) FROM tasks" 2> /dev/null || echo 0)
        if [ "${stored:-0}" -ge $(( peak - 300 )) ]; then
            ramped=1
            event ramp "done: $stored tasks stored, $live live on the server"
        else
            n=$(( peak - 300 - stored )); [ "$n" -gt "$ramp_sweep" ] && n=$ramp_sweep
            submit park "$park_fixed" "{\"reynolds\":{\"range\":{\"from\":1,\"to\":$n,\"step\":1}}}" 16
        fi
    fi
    # The steady supply, once a cycle: short cases, new parked ones, the rule, now and then a long one.
    if [ "$ramped" = 1 ] && [ "$t" -ge "$next_cycle" ]; then
        cycle=$(( cycle + 1 ))
        submit short "$short_fixed" '{"reynolds":{"list":[100,400,1000]}}' 3
        submit park "$park_fixed" '{"reynolds":{"list":[100,400,1000]}}' 3
        rule 3
        if [ $(( cycle % 5 )) = 1 ]; then
            submit long "$long_fixed" '{"reynolds":{"list":[1000]}}' 1
            if [ $(( cycle % 10 )) = 6 ]; then
                # cancel the previous long case while it runs
                lt=$(q "$db" "SELECT id FROM tasks WHERE status = 'working' AND arguments LIKE '%120000%' ORDER BY id LIMIT 1" 2> /dev/null)
                [ -n "$lt" ] && ctl cancel "$lt" >> "$out/logs/rule.log" 2>&1 && event cancel "long case #$lt"
            fi
        fi
        next_cycle=$(( t + cycle_s ))
    fi
}
pause() { # SECONDS
    local until=$(( $(now) + $1 ))
    while [ "$(now)" -lt "$until" ] && [ "$interrupted" = 0 ]; do supply_tick; sleep 1; done
}

while [ "$(now)" -lt "$duration" ] && [ "$interrupted" = 0 ]; do
    supply_tick
    t=$(now)
    # Faults.
    if [ "$t" -ge "$next_restart" ] && [ "$t" -lt $(( duration - 60 )) ]; then
        event restart "server: SIGTERM (generation $server_gen)"
        stop_role server TERM 60
        close_server_stats
        start_server && event restart "server up again (generation $server_gen)"
        next_restart=$(( next_restart + restart_s ))
    fi
    if [ "${#kill_watch[@]}" -gt 0 ] && due "${kill_watch[0]}"; then
        kill_and_restart watch "eddyctl watch" start_watch
        kill_watch=("${kill_watch[@]:1}")
    fi
    if [ "${#kill_window[@]}" -gt 0 ] && due "${kill_window[0]}"; then
        kill_and_restart window window start_window
        kill_window=("${kill_window[@]:1}")
    fi
    if [ "${#hostile_times[@]}" -gt 0 ] && due "${hostile_times[0]}"; then
        hostile_times=("${hostile_times[@]:1}")
        rm -f "$out/hostile.url"
        spawn hostile "$out/logs/hostile.log" "$helper" hostile "$out/hostile.url" 60
        if wait_for 30 "hostile server start" test -s "$out/hostile.url"; then
            hurl="$(cat "$out/hostile.url")"
            hostile_urls="${hostile_urls:+$hostile_urls, }'$hurl'"
            event hostile "burst of 60 s: 502 on the call, then 503, truncated JSON, reset, another task's id, a slow drip"
            ctl call "$hurl" sim '{"n":1}' >> "$out/logs/hostile-call.log" 2>&1 &
            helpers+=($!)
        fi
    fi
    if [ -n "${pid[hostile]:-}" ] && ! alive hostile; then
        wait "${pid[hostile]}"; rc=$?
        event hostile "server ended (exit status $rc; 0 = the client saw the task complete)"
        unset "pid[hostile]"
    fi
    if [ "${#replica_times[@]}" -gt 0 ] && due "${replica_times[0]}"; then
        replica_times=("${replica_times[@]:1}")
        replicas_phase
    fi
    sleep 1
done

# ---------------------------------------------------------------- the end: settle, stop, count
event end "supply stopped; 60 s for answers and cancels in flight to settle"
settle_end=$(( $(now) + 60 ))
while [ "$(now)" -lt "$settle_end" ] && [ "$interrupted" = 0 ]; do
    [ "$(now)" -ge "$next_sample" ] && { sample; next_sample=$(( next_sample + sample_s )); }
    sleep 1
done
reap_helpers
cleanup
close_server_stats
ref_sid=$(q "$db" "SELECT id FROM servers WHERE url = '$url'" 2> /dev/null)
{
    echo "minutes=$minutes"
    echo "duration_s=$(now)"
    echo "interrupted=$interrupted"
    echo "peak_target=$peak"
    echo "poll_interval_ms=$poll_ms"
    echo "restart_every_min=$restart_every"
    echo "server_generations=$server_gen"
    echo "window_generations=$window_gen"
    echo "watch_generations=$watch_gen"
    echo "rule_answered=$answered"
    echo "rule_cancelled=$cancelled"
    echo "rule_failed=$answer_failed"
    echo "replicas=$replicas_note"
    echo "polls=$stats_base_polls"
    echo "asked=$stats_base_asked"
    q "$db" "ATTACH '$sdata/tasks.sqlite' AS s;
        SELECT 'cases=' || count(*) FROM cases WHERE server_id = $ref_sid;
        SELECT 'cases_unsent=' || count(*) FROM cases WHERE server_id = $ref_sid AND task_id IS NULL;
        SELECT 'tasks=' || count(*) FROM tasks WHERE server_id = $ref_sid;
        SELECT 'lost=' || count(*) FROM tasks WHERE server_id = $ref_sid AND status = 'lost';
        SELECT 'twice_client=' || count(*) FROM (SELECT case_id FROM tasks WHERE case_id IS NOT NULL GROUP BY case_id HAVING count(*) > 1);
        SELECT 'twice_server=' || count(*) FROM (SELECT token_hash, idempotency_key FROM s.tasks GROUP BY 1, 2 HAVING count(*) > 1);
        SELECT 'server_tasks=' || count(*) FROM s.tasks;
        SELECT 'unknown_to_server=' || count(*) FROM tasks t WHERE t.server_id = $ref_sid AND t.server_task_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM s.tasks st WHERE st.id = t.server_task_id);
        SELECT 'status_differs=' || count(*) FROM tasks t JOIN s.tasks st ON st.id = t.server_task_id
               WHERE t.server_id = $ref_sid AND t.status <> st.status;
        SELECT 'stale=' || count(*) FROM tasks t JOIN s.tasks st ON st.id = t.server_task_id
               WHERE t.server_id = $ref_sid AND t.status IN ('working', 'input_required')
                 AND st.status IN ('completed', 'failed', 'cancelled');
        SELECT 'questions=' || count(*) FROM input_requests r JOIN tasks t ON t.id = r.task_id WHERE t.server_id = $ref_sid;
        SELECT 'questions_answered=' || count(*) FROM input_requests r JOIN tasks t ON t.id = r.task_id
               WHERE t.server_id = $ref_sid AND r.state = 'answered';
        SELECT 'questions_pending=' || count(*) FROM input_requests r JOIN tasks t ON t.id = r.task_id
               WHERE t.server_id = $ref_sid AND r.state = 'pending';
        SELECT 'answers_applied=' || count(*) FROM s.tasks WHERE repairs <> '[]' AND repairs <> '';
        SELECT 'answers_applied_twice=' || count(*) FROM s.tasks WHERE json_valid(repairs) AND json_array_length(repairs) > 1;
        SELECT 'answered_not_applied=' || count(*) FROM input_requests r JOIN tasks t ON t.id = r.task_id
               JOIN s.tasks st ON st.id = t.server_task_id
               WHERE t.server_id = $ref_sid AND r.state = 'answered' AND st.status = 'input_required';
        SELECT 'hostile_tasks=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN (${hostile_urls:-''});
        SELECT 'hostile_lost=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN (${hostile_urls:-''}) AND t.status = 'lost';
        SELECT 'hostile_completed=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN (${hostile_urls:-''}) AND t.status = 'completed';
        -- When each went wrong, from the databases' own times (epoch ms): drawn over the run.
        SELECT 'lost_at=' || coalesce(finished_at, updated_at) FROM tasks WHERE status = 'lost';
        SELECT 'twice_at=' || t.created_ms FROM s.tasks t WHERE EXISTS (SELECT 1 FROM s.tasks u
               WHERE u.token_hash = t.token_hash AND u.idempotency_key = t.idempotency_key AND u.created_ms < t.created_ms);" 2>> "$out/logs/final.log"
    if [ -n "${replica_urls:-}" ] && [ -f "$out/replicas/data/tasks.sqlite" ]; then
        q "$db" "ATTACH '$out/replicas/data/tasks.sqlite' AS r;
            SELECT 'replica_tasks=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN ($replica_urls);
            SELECT 'replica_completed=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN ($replica_urls) AND t.status = 'completed';
            SELECT 'replica_lost=' || count(*) FROM tasks t JOIN servers v ON v.id = t.server_id WHERE v.url IN ($replica_urls) AND t.status = 'lost';
            SELECT 'replica_twice=' || count(*) FROM (SELECT token_hash, idempotency_key FROM r.tasks GROUP BY 1, 2 HAVING count(*) > 1);" 2>> "$out/logs/final.log"
    fi
} > "$out/final.txt"
left=""
for p in "${pid[@]}"; do kill -0 "$p" 2> /dev/null && left="$left $p"; done
[ -z "$left" ] || event cleanup "processes still running after the stop:$left"
note "report: $helper report $out"
"$helper" report "$out"
[ $? = 2 ] && return 2
return 0
}

main "$@"; exit $?
