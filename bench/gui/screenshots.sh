#!/usr/bin/env bash
# Saves docs/screenshots/*.png: Eddy under Xvfb against a local eddy-cfd-server mid-sweep, in
# the light and dark palettes. Usage: bench/gui/screenshots.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
server="$build/server/eddy-cfd-server"
tool="$build/bench/gui/bench_gui_screenshots"
out="docs/screenshots"
mkdir -p "$out"
data="$(mktemp -d)"
log="$data/server.out"
"$server" --host 127.0.0.1 --port 0 --data-dir "$data/srv" --workers 4 --poll-interval-ms 500 >"$log" 2>/dev/null &
spid=$!
trap 'kill $spid 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url="$(sed -n 's/^eddy-cfd-server listening on \(http[^ ]*\).*/\1/p' "$log")"
for theme in light dark; do
    EDDY_SHOT_THEME=$theme EDDY_SHOT_HOLD_MS=1500 \
        xvfb-run -a -s "-screen 0 1600x1000x24" sh -c "
            '$tool' '$url' '$out' > '$data/tool.out' &
            tpid=\$!
            for i in \$(seq 1 600); do grep -q ready '$data/tool.out' 2>/dev/null && break; sleep 0.1; done
            import -window root '$out/screen-$theme.png' || true
            wait \$tpid"
done
ls -l "$out"
