# Sourced by ci/test.sh: times each stage of the run and prints a table of
# them when the run ends, passed or failed (then with the stage that failed
# and how long it had run). The caller keeps `set -euo pipefail`: a stage's
# failing command ends the run with its own exit code, which the table's
# trap passes on.
#
#   stage NAME COMMAND [ARGS...]   runs COMMAND (a program or a function)
#   stage_cleanup PATH             removed when the run ends

_stage_names=()
_stage_secs=()
_stage_current=""
_stage_started=0
_stage_run_started=$(date +%s)
_stage_cleanups=()

stage() {
    local name=$1
    shift
    printf '\n== stage %s (%s free on disk)\n' "$name" "$(_stage_free)"
    _stage_current=$name
    _stage_started=$(date +%s)
    "$@"
    _stage_names+=("$name")
    _stage_secs+=($(($(date +%s) - _stage_started)))
    _stage_current=""
}

# Free space where the clone lives: a run that fails for want of disk says
# where the space went.
_stage_free() {
    df -h . 2>/dev/null | awk 'NR == 2 { print $4 }'
}

stage_cleanup() {
    _stage_cleanups+=("$1")
}

_stage_report() {
    local rc=$? i total
    # The table is printed whatever happens to its own commands.
    set +e
    for i in "${_stage_cleanups[@]}"; do rm -rf "$i"; done
    total=$(($(date +%s) - _stage_run_started))
    printf '\n== stage timings (seconds, wall clock)\n'
    printf '%-20s %8s  %s\n' stage seconds result
    for i in "${!_stage_names[@]}"; do
        printf '%-20s %8d  %s\n' "${_stage_names[$i]}" "${_stage_secs[$i]}" passed
    done
    if [ -n "$_stage_current" ]; then
        printf '%-20s %8d  %s\n' "$_stage_current" $(($(date +%s) - _stage_started)) "FAILED (exit $rc)"
    fi
    printf '%-20s %8d  %s\n' total "$total" "$([ "$rc" -eq 0 ] && echo passed || echo "failed, exit $rc")"
    printf 'disk: %s free at the end\n' "$(_stage_free)"
    if [ -n "$_stage_current" ]; then
        echo "stage $_stage_current failed after $(($(date +%s) - _stage_started)) s (exit $rc)" >&2
    fi
    exit "$rc"
}
trap _stage_report EXIT
