#!/usr/bin/env bash
# Saves docs/screenshots/*.png: Eddy under Xvfb against a local eddy-cfd-server mid-sweep, for
# {light,dark} x {en,de} x {1280x800,1600x1000} (main-, sweep-review-, compare- and
# parallel-SIZE-THEME-LANG.png: the main window, the window with the sweep view in front, the
# compare window and the parallel coordinates), plus per language the
# sweep editor, the answer panel, the sweep results, the enlarged plot and a server at a wrong path
# (light, 1280x800) and, in dark, a tool-error banner, two cases charted together, the enlarged
# result plot, the agent dock and the user guide's window.
# Usage: bench/gui/screenshots.sh [build-dir]   (default: build)
#        SHOTS="1280x800:dark:de ..." restricts the matrix to the listed runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
server="$build/server/eddy-cfd-server"
tool="$build/bench/gui/bench_gui_screenshots"
out="docs/screenshots"
mkdir -p "$out"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
runs="${SHOTS:-}"
if [ -z "$runs" ]; then
    for size in 1280x800 1600x1000; do
        for theme in light dark; do
            for lang in en de; do runs="$runs $size:$theme:$lang"; done
        done
    done
fi
for run in $runs; do
    IFS=: read -r size theme lang <<<"$run"
    extras=0
    [ "$size:$theme" = "1280x800:light" ] && extras=1
    # A fresh server for each run, so that every picture shows the same sweep at the same stage.
    log="$data/server-$run.out"
    "$server" --host 127.0.0.1 --port 0 --data-dir "$data/srv-$run" --workers 4 \
        --poll-interval-ms 500 >"$log" 2>/dev/null &
    spid=$!
    for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
    url="$(sed -n 's/^eddy-cfd-server listening on \(http[^ ]*\).*/\1/p' "$log")"
    echo "$run: $url"
    EDDY_SHOT_THEME=$theme EDDY_SHOT_LANG=$lang EDDY_SHOT_SIZE=$size EDDY_SHOT_EXTRAS=$extras \
        xvfb-run -a -s "-screen 0 ${size}x24" "$tool" "$url" "$out" || echo "$run: tool failed"
    kill "$spid" 2>/dev/null || true
    wait "$spid" 2>/dev/null || true
done
ls -l "$out"
