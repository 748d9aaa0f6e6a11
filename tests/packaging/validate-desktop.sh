#!/bin/sh
# The desktop integration files as installed (ctest "desktop_files", label package): the desktop
# entry through desktop-file-validate, the AppStream metadata (as configured into the build) through
# appstreamcli validate, offline. Both tools come with .ci/install-deps --tests.
#   validate-desktop.sh DESKTOP_FILE METAINFO_FILE
set -u
[ $# -eq 2 ] || { echo "usage: $0 DESKTOP_FILE METAINFO_FILE" >&2; exit 2; }
fail=0
for tool in desktop-file-validate appstreamcli; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "FAIL: $tool is missing: run .ci/install-deps --tests (packages desktop-file-utils, appstream)"
        exit 1
    }
done
if out=$(desktop-file-validate "$1" 2>&1) && [ -z "$out" ]; then
    echo "PASS: desktop-file-validate $(basename "$1")"
else
    echo "FAIL: desktop-file-validate $(basename "$1"):"
    echo "$out"
    fail=1
fi
if out=$(appstreamcli validate --no-net --explain "$2" 2>&1); then
    echo "PASS: appstreamcli validate $(basename "$2")"
else
    echo "FAIL: appstreamcli validate $(basename "$2"):"
    echo "$out"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "2 passed, 0 failed" || echo "$((2 - fail)) passed, $fail failed"
exit "$fail"
