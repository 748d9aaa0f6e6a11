# The fields of a RESULT line (bench/README.md): flat JSON, strings without quotes or
# backslashes (bench/common/benchresult.h), so plain awk reads them. Used by run-all.sh and ab.sh
# (awk -f bench/resultfields.awk -f PROGRAM).
function str(key) {
    if (!match($0, "\"" key "\":\"[^\"]*\"")) return ""
    return substr($0, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
}
function num(key) {
    if (!match($0, "\"" key "\":[-0-9.eE+]+")) return ""
    return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
}
