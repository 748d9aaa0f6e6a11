#!/usr/bin/env bash
# A private single-node Slurm (munged, slurmctld, slurmd) in one folder, from Debian 12's packages
# (slurmctld slurmd slurm-client munge): nothing in /etc, no systemd, stopped by PID.
#   slurm-cluster.sh start DIR [--rest]
#                                  configure and start; prints SLURM_CONF=DIR/slurm.conf when idle.
#                                  --rest also starts slurmrestd (packages slurmrestd and
#                                  slurm-wlm-jwt-plugin) on loopback with JWT authentication and
#                                  prints SLURM_REST=http://127.0.0.1:PORT and SLURM_JWT=<token>
#   slurm-cluster.sh stop DIR      scancel every job, then stop the daemons by their pid files
#   slurm-cluster.sh start-rest DIR  start slurmrestd again on its port (after it was killed)
#   slurm-cluster.sh restart-controller-clean DIR
#                                  restart slurmctld with -c: it forgets every job (the jobcomp
#                                  file keeps its records), as after a lost state folder
# Export SLURM_CONF to every Slurm command and to eddy-cfd-server. The daemons run as the calling
# user (root in CI), who is SlurmUser and SlurmdUser; every job runs as that user.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
rest=
[ "${3:-}" = "--rest" ] && rest=1
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|start-rest|restart-controller-clean DIR [--rest]" >&2; exit 2; }
for tool in munged mungekey slurmctld slurmd sinfo scancel; do
    command -v "$tool" >/dev/null || { echo "slurm-cluster: $tool is missing; run .ci/install-deps --tests (packages slurmctld slurmd slurm-client munge)" >&2; exit 1; }
done
export SLURM_CONF="$dir/slurm.conf"

stop_pid() { # pidfile
    [ -f "$1" ] || return 0
    local pid
    pid=$(cat "$1" 2>/dev/null || true)
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
}

wait_idle() {
    for _ in $(seq 1 300); do
        state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
        case "$state" in idle|mixed|allocated) return 0 ;; esac
        sleep 0.1
    done
    echo "slurm-cluster: the node did not become idle in 30 s:" >&2
    tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
    return 1
}

free_port() {
    local p
    for _ in $(seq 1 50); do
        p=$((10000 + RANDOM % 20000)) # below the kernel's ephemeral range (32768-60999)
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
    done
    return 1
}

start_rest() { # on the port in DIR/slurmrestd.port; its log appended to DIR/slurmrestd.log
    # slurmrestd never forks and refuses to run as root or as SlurmUser.
    local port as=()
    port=$(cat "$dir/slurmrestd.port")
    if [ "$(id -u)" = 0 ]; then
        as=(-u nobody -g nogroup)
    else
        export SLURMRESTD_SECURITY=disable_user_check
    fi
    SLURM_JWT=daemon setsid slurmrestd "${as[@]}" -a rest_auth/jwt -s openapi/v0.0.38 \
        "127.0.0.1:$port" </dev/null >>"$dir/slurmrestd.log" 2>&1 &
    echo $! > "$dir/slurmrestd.pid"
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        kill -0 "$(cat "$dir/slurmrestd.pid")" 2>/dev/null || { echo "slurm-cluster: slurmrestd exited:" >&2; tail -n 5 "$dir/slurmrestd.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "slurm-cluster: slurmrestd does not accept connections on port $port after 10 s" >&2
    exit 1
}

case "$cmd" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    export SLURM_CONF="$dir/slurm.conf"
    chmod 755 "$dir" # munged wants every folder above its socket world-executable
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    chmod 700 "$dir/munge/" 2>/dev/null || true
    chmod 755 "$dir/munge"
    host=$(hostname -s)
    user=$(id -un)
    cpus=$(nproc)
    [ "$cpus" -lt 4 ] && cpus=4 # tiny test cases: let four run at once even on two cores
    [ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null
    chmod 600 "$dir/munge/munge.key"
    if [ -n "$rest" ]; then
        command -v slurmrestd >/dev/null || { echo "slurm-cluster: slurmrestd is missing; install slurmrestd and slurm-wlm-jwt-plugin" >&2; exit 1; }
        [ -f "$dir/jwt.key" ] || head -c 32 /dev/urandom > "$dir/jwt.key"
        chmod 600 "$dir/jwt.key"
    fi
    cat > "$dir/slurm.conf" <<CONF
ClusterName=eddytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.log
MinJobAge=${EDDY_SLURM_MIN_JOB_AGE:-2}
ReturnToService=2
MpiDefault=none
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=eddy Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    [ -n "$rest" ] && printf 'AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s\n' "$dir/jwt.key" >> "$dir/slurm.conf"
    munged --key-file "$dir/munge/munge.key" --socket "$dir/munge/munge.socket.2" \
        --pid-file "$dir/munge/munged.pid" --log-file "$dir/munge/munged.log" \
        --seed-file "$dir/munge/munged.seed"
    slurmctld -i
    slurmd
    wait_idle
    echo "SLURM_CONF=$SLURM_CONF"
    if [ -n "$rest" ]; then
        free_port > "$dir/slurmrestd.port"
        start_rest
        echo "SLURM_REST=http://127.0.0.1:$(cat "$dir/slurmrestd.port")"
        scontrol token lifespan="${EDDY_SLURM_JWT_LIFESPAN:-7200}"
    fi
    ;;
stop)
    [ -f "$SLURM_CONF" ] || exit 0
    timeout 5 scancel --user="$(id -un)" 2>/dev/null || true
    sleep 0.5
    stop_pid "$dir/slurmrestd.pid"
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munge/munged.pid"
    ;;
start-rest)
    start_rest
    ;;
restart-controller-clean)
    stop_pid "$dir/slurmctld.pid"
    slurmctld -c -i
    wait_idle
    ;;
*)
    echo "usage: $0 start|stop|start-rest|restart-controller-clean DIR [--rest]" >&2
    exit 2
    ;;
esac
