#!/usr/bin/env bash
# Runtime CPU dispatch on CPUs this machine is not: one release build, run
# under qemu-user as a CPU without AVX-512 (Haswell: AVX2, BMI1/2, FMA,
# LZCNT, MOVBE) and as one without AVX2 (Nehalem), must pick the `avx2` and
# the `scalar` kernel and play the very games it plays natively (random
# playouts of every rule family, whose total plies differ when a game does;
# and the batch step with the rows (in lanes where the kernel has them), as
# docs/benchmarks.md counts its instructions).
set -euo pipefail
cd "$(dirname "$0")/.."
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
# emulate CPU COMMAND...: COMMAND's output under qemu-user as CPU; qemu's
# warnings (features TCG lacks) are shown only when the run fails.
emulate() {
    local cpu=$1
    shift
    if ! qemu-x86_64 -cpu "$cpu" "$@" 2>"$errors"; then
        echo "failed under qemu-x86_64 -cpu $cpu: $*" >&2
        cat "$errors" >&2
        return 1
    fi
}
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends qemu-user >/dev/null
fi
# `bash ci/dispatch.sh PYTHON`: the same choice seen by `import ayo` in the
# PYTHON that has the package installed.
if [ $# -gt 0 ]; then
    for cpu_kernels in "Haswell:['scalar', 'avx2']" "Nehalem:['scalar']"; do
        cpu=${cpu_kernels%%:*}
        want=${cpu_kernels#*:}
        got=$(emulate "$cpu" "$1" -c "import ayo; print(ayo.kernels())")
        if [ "$got" != "$want" ]; then
            echo "import ayo on $cpu: kernels $got, expected $want" >&2
            exit 1
        fi
        echo "$cpu: ayo.kernels() = $got"
    done
    exit 0
fi
cargo build --release --locked -q -p ayo-bench --bin instructions
BIN=target/release/instructions
for work in "playout oware 20" "playout olopon 20" "playout ayoayo 20" "playout ayo 10" "rows oware 2"; do
    # shellcheck disable=SC2086  # the work's words are the example's arguments
    native=$("$BIN" $work)
    for cpu_kernel in Haswell:avx2 Nehalem:scalar; do
        cpu=${cpu_kernel%%:*}
        want=${cpu_kernel#*:}
        # shellcheck disable=SC2086
        got=$(emulate "$cpu" "$BIN" $work)
        if [ "${got%%:*}" != "kernel $want" ]; then
            echo "dispatch on $cpu: '$got', expected kernel $want" >&2
            exit 1
        fi
        if [ "${got#*:}" != "${native#*:}" ]; then
            echo "on $cpu ($want) '$got', natively '$native'" >&2
            exit 1
        fi
        echo "$cpu: $got"
    done
done
