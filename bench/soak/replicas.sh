# Sourced by soak.sh: the replica phase. Three eddy-cfd-server replicas with the Slurm backend on
# a private single-node Slurm (tests/slurm/slurm-cluster.sh), sharing one data folder, case folder
# and replica key, behind a private nginx (the configuration of docs/server-replicas.md); a sweep
# runs through nginx while one replica is killed with -9 and started again, then while all three
# are restarted one at a time. Uses soak.sh's event, spawn, stop_role, wait_for, ctl and q.

free_port() {
    local p
    for _ in $(seq 1 50); do
        p=$(( 10000 + RANDOM % 20000 )) # below the kernel's ephemeral range
        if ! (exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null; then echo "$p"; return 0; fi
    done
    return 1
}

replica_ports=()
replica_dir=""
start_replica() { # INDEX (1-3)
    local i="$1"
    spawn "replica$i" "$out/logs/replica$i.log" env SLURM_CONF="$slurm_dir/slurm.conf" "$server_bin" \
        --backend slurm --case-dir "$replica_dir/cases" --data-dir "$replica_dir/data" \
        --replica-key-file "$replica_dir/replica.key" --slurm-refresh-ms 1000 \
        --poll-interval-ms 2000 --port "${replica_ports[$(( i - 1 ))]}" --log-level warn
    wait_for 60 "replica $i start" grep -qs 'listening on' "$out/logs/replica$i.log"
}

replica_sweep_done() {
    local open
    open=$(q "$db" "SELECT count(*) FROM tasks t JOIN servers s ON s.id = t.server_id
                    WHERE s.url = '$replica_url' AND t.status IN ('working', 'input_required')" 2> /dev/null)
    [ "${open:-1}" = 0 ] && [ "$(q "$db" "SELECT count(*) FROM tasks t JOIN servers s ON s.id = t.server_id WHERE s.url = '$replica_url'" 2> /dev/null)" -ge 6 ]
}

replicas_phase() {
    slurm_dir="$out/slurm"
    replica_dir="$out/replicas"
    mkdir -p "$replica_dir/data" "$replica_dir/cases" "$out/nginx"
    if ! "$repo/tests/slurm/slurm-cluster.sh" start "$slurm_dir" >> "$out/logs/slurm.log" 2>&1; then
        event replicas "skipped: the private Slurm did not start (see logs/slurm.log)"
        replicas_note="skipped: the private Slurm did not start"
        slurm_stop
        slurm_dir=""
        return
    fi
    head -c 48 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$replica_dir/replica.key"
    chmod 600 "$replica_dir/replica.key"
    replica_ports=($(free_port) $(free_port) $(free_port))
    local i
    for i in 1 2 3; do start_replica "$i" || { replicas_note="failed: replica $i did not start"; replicas_end; return; }; done
    local listen
    listen=$(free_port)
    local prefix="$out/nginx" up=""
    for p in "${replica_ports[@]}"; do up="$up        server 127.0.0.1:$p max_fails=1 fail_timeout=2s;
"; done
    cat > "$prefix/nginx.conf" << CONF
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
worker_processes 1;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $prefix/body;
    proxy_temp_path $prefix/proxy;
    fastcgi_temp_path $prefix/fastcgi;
    uwsgi_temp_path $prefix/uwsgi;
    scgi_temp_path $prefix/scgi;
    upstream eddy {
$up        keepalive 16;
    }
    server {
        listen 127.0.0.1:$listen;
        location / {
            proxy_pass http://eddy;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
            proxy_read_timeout 300s;
            proxy_next_upstream error timeout non_idempotent;
            proxy_next_upstream_tries 3;
        }
    }
}
CONF
    spawn nginx "$out/logs/nginx.log" nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" -g "daemon off;"
    replica_url="http://127.0.0.1:$listen/mcp"
    replica_urls="${replica_urls:+$replica_urls, }'$replica_url'"
    if ! wait_for 30 "nginx in front of the replicas" ctl discover "$replica_url" > /dev/null 2>&1; then
        replicas_note="failed: nginx did not answer (see nginx/error.log)"
        replicas_end
        return
    fi
    event replicas "3 replicas on Slurm behind nginx at port $listen; a sweep of 6 cases through nginx"
    printf '{"tool":"run_cfd_case","fixed":{"grid":128,"max_iterations":200000,"tolerance":1e-15},"vary":{"reynolds":{"list":[100,200,400,800,1000,3200]}},"mode":"grid","concurrency":6}\n' > "$out/specs/replicas.json"
    ctl sweep submit "$replica_url" "$out/specs/replicas.json" --session "soak replicas" >> "$out/logs/submit.log" 2>&1
    pause 10
    event replicas "replica 2: SIGKILL (pid ${pid[replica2]:-none})"
    stop_role replica2 KILL 10
    pause 10
    start_replica 2 && event replicas "replica 2 started again"
    pause 10
    for i in 1 2 3; do
        event replicas "rolling restart: replica $i SIGTERM"
        stop_role "replica$i" TERM 60
        start_replica "$i" && event replicas "rolling restart: replica $i up again"
        pause 5
    done
    local waited=0
    while ! replica_sweep_done && [ "$waited" -lt 600 ] && [ "$interrupted" = 0 ]; do pause 5; waited=$(( waited + 5 )); done
    if replica_sweep_done; then
        replicas_note="ran: 3 replicas behind nginx, one killed with -9, all rolled; the sweep finished"
    else
        replicas_note="ran, but the replica sweep did not finish within 10 minutes"
    fi
    event replicas "$replicas_note"
    replicas_end
}

replicas_end() {
    [ -n "${pid[nginx]:-}" ] && stop_role nginx TERM 20 # fast shutdown: the clients keep connections open
    local i
    for i in 1 2 3; do [ -n "${pid[replica$i]:-}" ] && stop_role "replica$i" TERM 60; done
    slurm_stop
    slurm_dir=""
}
