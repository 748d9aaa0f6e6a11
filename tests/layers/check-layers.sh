#!/bin/sh
# The layer test: reads every #include in app/, models/, widgets/ and server/ and fails on one that
# crosses a forbidden arrow (docs/design.md, "Layers are targets"). The build catches a wrong-way
# call at link time; this catches what a header-only include or a module-qualified Qt include
# (<QtWidgets/QWidget> resolves from the Qt include root every Qt target has) would slip past.
# It also fails on a follow pattern ("streamed", "job") or a question's state ("answered", ...)
# compared as a string outside app/vocab/: code branches on Eddy::Pattern and Store::InputState.
#   check-layers.sh <source root> <Qt include root>        check the tree; exit 1 on a violation
#   check-layers.sh --self-test <fixture dir> <Qt root>    check <fixture dir>/tree and compare the
#                                                          report with <fixture dir>/expected.txt
set -eu

if [ "${1:-}" = "--self-test" ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --self-test <fixture dir> <Qt include root>" >&2; exit 2; }
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    rc=0
    "$0" "$2/tree" "$3" >"$out" 2>&1 || rc=$?
    if [ "$rc" -ne 1 ]; then
        cat "$out"
        echo "self-test: the fixture tree must fail with exit code 1, got $rc"
        exit 1
    fi
    if ! diff -u "$2/expected.txt" "$out"; then
        echo "self-test: the report differs from $2/expected.txt (- expected, + reported)"
        exit 1
    fi
    echo "self-test: every rule caught its fixture, and nothing else was reported"
    exit 0
fi

[ $# -eq 2 ] || { echo "usage: $0 <source root> <Qt include root>" >&2; exit 2; }
root=$1
qtroot=$2
if [ ! -f "$qtroot/QtCore/QObject" ] || [ ! -f "$qtroot/QtWidgets/QWidget" ]; then
    echo "check-layers: $qtroot is not a Qt 6 include root (no QtCore/QObject, QtWidgets/QWidget);" \
         "pass the directory that holds QtCore/ and QtWidgets/" >&2
    exit 2
fi

cd "$root"
files=$(find app models widgets server -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \) \
            2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-layers: no sources under $root" >&2; exit 2; }

# Every header of every Qt module, "QtWidgets/QWidget", QtCore then QtGui first: a name two modules
# share (QAction is in QtGui and has a forwarder in QtWidgets) counts as the lower one.
qtlist=$(mktemp)
trap 'rm -f "$qtlist"' EXIT
{
    find "$qtroot/QtCore" "$qtroot/QtGui" -maxdepth 1 -type f
    find "$qtroot" -mindepth 2 -maxdepth 2 -type f ! -path "$qtroot/QtCore/*" ! -path "$qtroot/QtGui/*" \
        | LC_ALL=C sort
} | sed "s|^$qtroot/||" >"$qtlist"

# shellcheck disable=SC2086
LC_ALL=C awk -v qtlist="$qtlist" '
# The layer a source file belongs to, from its path.
function layerOf(path) {
    if (path ~ /^app\/secret\./) return "secret"
    if (path ~ /^app\/(vocab|net|mcp|store|monitor|agent|cli|keychain)\//) { split(path, p, "/"); return p[2] }
    if (path ~ /^app\/[^\/]+$/) return "eddy"
    if (path ~ /^(models|widgets|server)\//) { split(path, p, "/"); return p[1] }
    return ""
}
# "app/store/../mcp/era.h" -> "app/mcp/era.h"
function normalize(path,   n, part, i, out, k, j) {
    n = split(path, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "." || part[i] == "") continue
        if (part[i] == ".." && k > 0) { k--; continue }
        out[++k] = part[i]
    }
    path = out[1]
    for (j = 2; j <= k; j++) path = path "/" out[j]
    return path
}
function exists(path,   line, ok) {
    ok = (getline line < path) >= 0
    close(path)
    return ok
}
# A vocabulary value compared as a string on the current line: says what to compare instead.
function comparedAsString(what, instead,   line) {
    line = $0
    sub(/^[ \t]+/, "", line)
    printf "%s:%d: %s: %s compared as a string; compare %s\n", FILENAME, FNR, line, what, instead
    bad++
}
function report(file, line, text, from, to, allowed) {
    printf "%s:%d: %s: %s -> %s is a forbidden arrow (%s may include: %s)\n", \
        file, line, text, from, to, from, allowed
    bad++
}
BEGIN {
    # Eddy layers each layer may include (itself included); everything else is forbidden.
    mayInclude["vocab"]   = "vocab"
    mayInclude["secret"]  = "secret"
    # The Secret Service through QtKeychain (QtDBus): the programs install it; layers see app/secret.h.
    mayInclude["keychain"] = "keychain secret"
    mayInclude["net"]     = "net secret vocab"
    mayInclude["mcp"]     = "mcp net secret vocab"
    mayInclude["store"]   = "store secret vocab"
    mayInclude["monitor"] = "monitor mcp net store secret vocab"
    # The store belongs to the monitor alone: above it, the database is reached through the engine.
    mayInclude["agent"]   = "agent monitor mcp net secret vocab"
    # eddyctl report renders through the report code in models, as the window does.
    mayInclude["cli"]     = "cli agent models monitor mcp net keychain secret vocab"
    mayInclude["models"]  = "models monitor mcp net secret vocab"
    mayInclude["widgets"] = "widgets models agent monitor mcp net secret vocab"
    mayInclude["eddy"]    = "eddy widgets models agent monitor mcp net keychain secret vocab"
    mayInclude["server"]  = "server"
    # Qt modules and third-party libraries each layer may include ("*": any Qt module).
    core = "QtCore"
    mayUse["vocab"] = core; mayUse["secret"] = core; mayUse["net"] = core " libcurl"; mayUse["mcp"] = core
    mayUse["keychain"] = core " qtkeychain"
    mayUse["store"] = core " sqlite3"; mayUse["monitor"] = core; mayUse["agent"] = core
    mayUse["cli"] = "QtCore QtGui"; mayUse["models"] = "QtCore QtGui"
    mayUse["widgets"] = "*"; mayUse["eddy"] = "*"
    mayUse["server"] = "sqlite3 cpp-httplib"
    while ((getline entry < qtlist) > 0) {
        n = split(entry, part, "/")
        qtModuleDir[part[1]] = 1
        if (!(part[n] in qtModuleOf)) qtModuleOf[part[n]] = part[1]
    }
    close(qtlist)
}
FNR == 1 {
    files++
    from = layerOf(FILENAME); dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
    if (from == "") {
        printf "%s: in no layer: give its folder a target and a row in check-layers.sh\n", FILENAME
        bad++
        nextfile
    }
}
# A follow pattern compared as a string: `t.pattern == QLatin1String("job")`, `"streamed" != p`.
from != "server" && from != "vocab" && !/^[ \t]*\/\// &&
(/pattern[ \t]*[!=]=[ \t]*[A-Za-z0-9_:]*\(?[ \t]*u?"/ ||
 /[!=]=[ \t]*[A-Za-z0-9_:]*\(?[ \t]*u?"(streamed|job)"/ || /"(streamed|job)"\)?[ \t]*[!=]=/) {
    comparedAsString("a pattern", "Eddy::Pattern (app/vocab/pattern.h)")
    next
}
# The state of a question compared as a string: `q.state == QLatin1String("answered")`.
from != "server" && from != "vocab" && !/^[ \t]*\/\// &&
(/[Ss]tate[ \t]*[!=]=[ \t]*[A-Za-z0-9_:]*\(?[ \t]*u?"(pending|answering|answered|closed)"/ ||
 /"(pending|answering|answered|closed)"\)?[ \t]*[!=]=[ \t]*[A-Za-z0-9_.>-]*[Ss]tate/) {
    comparedAsString("a question state", "Store::InputState (app/vocab/records.h)")
    next
}
/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    text = $0
    sub(/^[ \t]*#[ \t]*/, "#", text)
    sub(/[ \t]*(\/\/.*|\/\*.*)?$/, "", text)
    sub(/^#include[ \t]*/, "#include ", text)
    name = text
    sub(/^#include [<"]/, "", name)
    sub(/[>"].*$/, "", name)
    to = ""
    if (text ~ /^#include "/) {
        if (name ~ /^(app|models|widgets|server)\//) target = name
        else if (exists(dir "/" name)) target = normalize(dir "/" name)
        else next  # generated (moc, ui) or not ours
        to = layerOf(target)
        # The GUI has one door into the engine: widgets never hold the Engine itself.
        if (from == "widgets" && target == "app/monitor/engine.h") {
            printf "%s:%d: %s: widgets reach the engine only through models/enginebridge.h\n", \
                FILENAME, FNR, text
            bad++
            next
        }
        if (to == "" || index(" " mayInclude[from] " ", " " to " ")) next
        report(FILENAME, FNR, text, from, to, mayInclude[from])
        next
    }
    # <...>: a Qt module, one of the libraries kept to one layer, or the system (not checked).
    split(name, part, "/")
    if (name ~ /^curl\//) to = "libcurl"
    else if (name == "sqlite3.h") to = "sqlite3"
    else if (name == "httplib.h") to = "cpp-httplib"
    else if (name ~ /^qt6keychain\//) to = "qtkeychain"
    else if (part[1] in qtModuleDir) to = part[1]
    else if (name !~ /\// && name ~ /^(Q|q.*\.h$)/ && (name in qtModuleOf)) to = qtModuleOf[name]
    else next
    allowed = mayUse[from]
    if (allowed == "*" && to ~ /^Qt/) next
    if (index(" " allowed " ", " " to " ")) next
    report(FILENAME, FNR, text, from, to, allowed == "*" ? "any Qt module" : allowed)
}
END {
    if (bad) {
        printf "check-layers: %d violation(s); the layers and their arrows are in docs/design.md\n", bad
        exit 1
    }
    printf "check-layers: %d files, every include follows the arrows\n", files
}
' $files
