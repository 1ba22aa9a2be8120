#!/usr/bin/env bash
# The whole `oware` env-step with the games kept in byte lanes, a study
# (bench/lane_step/main.rs): checked against ayo-core's LeanGame, then timed
# against ayo-core's batch step in alternated rounds, built for the x86-64
# baseline, x86-64-v3 (AVX2) and x86-64-v4 (AVX-512), the last two where the
# CPU has them:
#   bash bench/lane_step.sh [STEPS] [ROUNDS]
# ROUNDS 0 runs the checks alone. Needs cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
STEPS=${1:-100}
ROUNDS=${2:-20}
DIR=$ROOT/target/lane_step
source bench/harness.sh
harness lane_step "$DIR" "ayo-core = { path = \"$ROOT/ayo-core\" }"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
# Each level's instructions as /proc/cpuinfo names them (v4 includes v3's).
v3="avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
v4="$v3 avx512f avx512bw avx512cd avx512dq avx512vl"
for level in x86-64 x86-64-v3 x86-64-v4; do
    case $level in
        # Word splitting of the lists is meant.
        # shellcheck disable=SC2086
        x86-64-v3) has $v3 || { echo "$level: not on this CPU"; continue; } ;;
        # shellcheck disable=SC2086
        x86-64-v4) has $v4 || { echo "$level: not on this CPU"; continue; } ;;
    esac
    RUSTFLAGS="-C target-cpu=$level" cargo run --quiet --release \
        --manifest-path "$DIR/harness/Cargo.toml" --target-dir "$DIR/target-$level" \
        -- "$level" "$STEPS" "$ROUNDS"
done
