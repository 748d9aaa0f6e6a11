#!/usr/bin/env bash
# Compares two builds' benchmark numbers measured in the same minutes: runs bench/run-all.sh on
# build A, then B, then A, then B ... (--rounds N pairs, default 2; the order alternates so that
# neither build always runs first) and prints ONE markdown table, a row per RESULT row: A's and B's
# median, and B/A. "worse" says whether B moved the wrong way for the row's target (lower is better
# for a <= target, higher for >=); a row without a target has no direction.
#   bench/ab.sh BUILD_A BUILD_B [--rounds N] [--only NAMES] [--logs DIR] [--out FILE]
# --only is run-all.sh's (default: client,compare,store,gui,sweep,year, the client benchmarks).
# Both builds must already hold those benchmarks (bench/run-all.sh --help lists the targets).
# Rows are matched by benchmark and position; a row either build could not measure says so.
# Exit status: 0 when every run of run-all.sh ran to the end, 1 otherwise (its logs are kept).
set -u

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }

here="$(cd "$(dirname "$0")" && pwd)"
rounds=2
only="client,compare,store,gui,sweep,year"
logs=""
out=""
builds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds|--only|--logs|--out)
            [ $# -ge 2 ] || { echo "ab: $1 needs a value; see --help" >&2; exit 2; }
            case "$1" in
                --rounds) rounds="$2" ;; --only) only="$2" ;; --logs) logs="$2" ;; --out) out="$2" ;;
            esac
            shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "ab: unknown option '$1'; see --help" >&2; exit 2 ;;
        *) builds+=("$1"); shift ;;
    esac
done
[ ${#builds[@]} -eq 2 ] || { echo "ab: give two build folders, A (before) and B (after); see --help" >&2; exit 2; }
case "$rounds" in ''|*[!0-9]*|0) echo "ab: --rounds takes a whole number from 1 (got '$rounds')" >&2; exit 2 ;; esac
for b in "${builds[@]}"; do
    [ -d "$b/bench" ] || { echo "ab: '$b' is not a configured build folder with benchmarks (no $b/bench)" >&2; exit 2; }
done
[ -n "$logs" ] || logs="$(mktemp -d -t eddy-ab-XXXXXX)"
mkdir -p "$logs" || { echo "ab: cannot create $logs" >&2; exit 2; }

failed=0
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; ++r)); do
    order="A B"
    [ $((r % 2)) -eq 0 ] && order="B A"
    for side in $order; do
        build="${builds[0]}"
        [ "$side" = B ] && build="${builds[1]}"
        printf '[%s] round %d of %d: %s (%s)\n' "$(date -u +%H:%M:%S)" "$r" "$rounds" "$side" "$build" >&2
        "$here/run-all.sh" "$build" --only "$only" --logs "$logs/$side$r" --out "$logs/$side$r.md" > /dev/null \
            || { failed=1; echo "ab: run-all.sh on $build did not run every benchmark to the end; see $logs/$side$r" >&2; }
    done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

{
    echo "A = ${builds[0]}, B = ${builds[1]}; $rounds round(s) each, alternating, from $started;" \
         "load average $load_before at the start, $load_after at the end."
    echo
    echo "| what | A (median) | B (median) | B/A | worse |"
    echo "|---|---|---|---|---|"
    for f in "$logs"/A*/results.txt; do echo "== A"; cat "$f"; done > "$logs/all.txt"
    for f in "$logs"/B*/results.txt; do echo "== B"; cat "$f"; done >> "$logs/all.txt"
    awk -f "$here/resultfields.awk" -f <(cat <<'AWK'
        function median(list,   n, v, i, j, t) {
            n = split(list, v, " ")
            if (n == 0) return ""
            for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return n % 2 ? v[(n + 1) / 2] + 0 : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        /^== / { side = $2; delete seen; next }
        /^RESULT \{/ {
            bench = str("bench"); k = bench SUBSEP (++seen[bench])
            if (!(k in what)) { what[k] = str("what"); unit[k] = str("unit"); target[k] = str("target"); keys[++nk] = k }
            v = num("value")
            if (v != "") vals[side, k] = vals[side, k] " " v
        }
        END {
            for (i = 1; i <= nk; ++i) {
                k = keys[i]; a = median(vals["A", k]); b = median(vals["B", k])
                u = unit[k] == "" ? "" : " " unit[k]
                op = target[k]; sub(/[-0-9.].*$/, "", op)
                if (a == "" || b == "") { ratio = "not measured"; worse = "—" }
                else if (a == 0) { ratio = (b == 0 ? "1.00" : "—"); worse = "—" }
                else {
                    q = b / a; ratio = sprintf("%.2f", q)
                    if (op ~ /</) worse = (q > 1 ? "yes" : "no")
                    else if (op ~ />/) worse = (q < 1 ? "yes" : "no")
                    else worse = "— (no target)"
                }
                w = what[k]; gsub(/\|/, "\\|", w)
                printf "| %s | %s | %s | %s | %s |\n", w, (a == "" ? "—" : a u), (b == "" ? "—" : b u), ratio, worse
            }
        }
AWK
    ) "$logs/all.txt"
} > "$logs/ab.md"
if [ -n "$out" ]; then cp "$logs/ab.md" "$out"; else cat "$logs/ab.md"; fi
echo "ab: logs in $logs" >&2
exit "$failed"
