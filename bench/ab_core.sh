#!/usr/bin/env bash
# A/B of ayo-core against an earlier commit, in one process (bench/ab_core/main.rs):
#   bash bench/ab_core.sh BASE [playout|lean|rows] [PRESET] [ROUNDS]
# builds the working tree's ayo-core and BASE's side by side (in target/ab_core)
# and prints the median ratio of their rounds. Needs git and cargo.
# AB_ONE_BUILD=1: both sides the working tree's one build (BASE unused): a
# check that the tool builds and runs, as CI makes it, not a measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BASE=${1:?usage: bash bench/ab_core.sh BASE [playout|lean|rows] [PRESET] [ROUNDS]}
WHAT=${2:-playout}
PRESET=${3:-ayoayo}
ROUNDS=${4:-200}
DIR=$ROOT/target/ab_core
rm -rf "$DIR/base" "$DIR/harness"
source bench/harness.sh
if [ -n "${AB_ONE_BUILD:-}" ]; then
    harness ab_core "$DIR" "new = { package = \"ayo-core\", path = \"$ROOT/ayo-core\" }" \
        'default = ["one-build"]
one-build = []'
else
    # Siblings: a path dependency under the harness would join its workspace.
    mkdir -p "$DIR/base"
    # BASE's workspace, with ayo-core renamed so that both builds link into one binary.
    git archive "$(git rev-parse --verify "$BASE^{commit}")" | tar -x -C "$DIR/base"
    sed -i 's/^name = "ayo-core"$/name = "ayo-core-base"/' "$DIR/base/ayo-core/Cargo.toml"
    sed -i 's/^members = .*/members = ["ayo-core"]/' "$DIR/base/Cargo.toml"
    harness ab_core "$DIR" "new = { package = \"ayo-core\", path = \"$ROOT/ayo-core\" }
base = { package = \"ayo-core-base\", path = \"$DIR/base/ayo-core\" }" 'one-build = []'
fi
# Every function and loop of both builds at a 64-byte boundary: otherwise
# where the linker happens to put each copy moves a hot loop by up to a
# tenth (the same source against itself measured +12% in `lean oware`).
# AB_RUSTFLAGS replaces this.
export RUSTFLAGS="${AB_RUSTFLAGS--C llvm-args=-align-all-functions=6 -C llvm-args=-align-loops=64}"
cargo run --quiet --release --manifest-path "$DIR/harness/Cargo.toml" \
    --target-dir "$DIR/target" -- "$WHAT" "$PRESET" "$ROUNDS"
