#!/usr/bin/env bash
# A/B of the batched Python step against an earlier commit, in one process:
#   bash bench/ab_python.sh BASE [PRESET] [ROUNDS] [THREADS] [GAMES]
# builds the working tree's extension and BASE's (in target/ab_python), puts
# each beside a copy of its python/ayo renamed ayo_a (the working tree) and
# ayo_b (BASE), and runs bench/ab_python.py on the two. Run BASE against
# itself (HEAD) as well: that shows the floor of what it can tell.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BASE=${1:?usage: bash bench/ab_python.sh BASE [PRESET] [ROUNDS] [THREADS] [GAMES]}
PRESET=${2:-oware}
ROUNDS=${3:-40}
THREADS=${4:-1}
GAMES=${5:-1024}
DIR=$ROOT/target/ab_python
PY=${PYTHON:-python3}
rm -rf "$DIR/base" "$DIR/a" "$DIR/b"
mkdir -p "$DIR/base" "$DIR/a" "$DIR/b"
git archive "$(git rev-parse --verify "$BASE^{commit}")" | tar -x -C "$DIR/base"

# Both builds with every function and loop at a 64-byte boundary, as
# bench/ab_core.sh (docs/benchmarks.md, "Comparing two builds"); AB_RUSTFLAGS
# replaces this.
export RUSTFLAGS="${AB_RUSTFLAGS--C llvm-args=-align-all-functions=6 -C llvm-args=-align-loops=64}"

# package SRC_TREE TARGET_DIR NAME: the tree's release extension and python/ayo, renamed.
package() {
    (cd "$1" && cargo build --quiet --release -p ayo-py --features extension-module \
        --target-dir "$DIR/target-$3")
    cp -r "$1/python/ayo" "$2/$3"
    cp "$DIR/target-$3/release/lib_ayo.so" "$2/$3/_ayo.abi3.so"
    # The package imports itself by name: every such import renamed.
    find "$2/$3" -name '*.py' -exec sed -i -E \
        "s/\b(from|import) ayo\b/\1 $3/; s/\bayo\.(_ayo|_args|ai|display|envs|vector)\b/$3.\1/g" {} +
}
package "$ROOT" "$DIR/a" ayo_a
package "$DIR/base" "$DIR/b" ayo_b
OPENBLAS_NUM_THREADS=1 "$PY" bench/ab_python.py "$DIR/a" "$DIR/b" \
    --preset "$PRESET" --rounds "$ROUNDS" --threads "$THREADS" --games "$GAMES"
