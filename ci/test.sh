#!/usr/bin/env bash
# Sets everything up and runs every test. Safe to re-run; quick when set up.
# Each stage is timed; the table is printed at the end (ci/stage.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
# A fresh clone gains nothing from incremental builds or a pip download cache,
# and both cost disk (about 1 GB and 3 GB, torch's CUDA wheels the most).
export CARGO_INCREMENTAL=0 PIP_NO_CACHE_DIR=1
source ci/stage.sh

rust_lint() {
    rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt clippy
    cargo fmt --all --check
    cargo clippy --workspace --all-targets --locked -- -D warnings
    # ayo-core as users build it: without the tooling hooks of its `testing`
    # feature (which the workspace build turns on for ayo-bench).
    cargo clippy -p ayo-core --lib --locked -- -D warnings
}

# A time limit on the whole (cargo names a test that runs past 60 s while it
# runs). Every crate's integration tests are one binary (tests/all.rs).
rust_tests() {
    timeout 2400 cargo test --workspace --locked
}

rust_docs() {
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
    RUSTDOCFLAGS="-D warnings" cargo doc -p ayo-core --no-deps --locked
}

# README.md's Rust quick start, pasted as written into a crate of its own: its
# [dependencies] line (the path ../ayo/ayo-core, a link to this clone) and its
# whole src/main.rs; built and run outside the workspace, with
# examples/rust's lock file.
rust_quickstart() {
    local quickstart
    quickstart=$(mktemp -d)
    stage_cleanup "$quickstart"
    ln -s "$PWD" "$quickstart/ayo"
    mkdir -p "$quickstart/app/src"
    readme_block() { sed -n "/<!-- rust-quickstart:begin/,/<!-- rust-quickstart:end -->/p" README.md | sed -n "/^\`\`\`$1\$/,/^\`\`\`\$/p" | sed '1d;$d'; }
    sed -n '/^## Rust quick start/,/<!-- rust-quickstart:end -->/p' README.md | sed -n '/^```toml$/,/^```$/p' | sed '1d;$d' >"$quickstart/deps.toml"
    grep -q '^ayo-core = ' "$quickstart/deps.toml"
    printf '[package]\nname = "ayo-quickstart"\nversion = "0.1.0"\nedition = "2021"\n\n' | cat - "$quickstart/deps.toml" >"$quickstart/app/Cargo.toml"
    readme_block rust >"$quickstart/app/src/main.rs"
    cmp examples/rust/src/main.rs "$quickstart/app/src/main.rs"
    cp examples/rust/Cargo.lock "$quickstart/app/Cargo.lock"
    cargo run --quiet --locked --manifest-path "$quickstart/app/Cargo.toml" --target-dir target/quickstart \
        | tee "$quickstart/out.txt"
    grep -q ' laps, last seed in pit ' "$quickstart/out.txt"
}

# The fuzz targets build on stable (running them needs cargo-fuzz; see README).
fuzz_check() {
    cargo check --manifest-path fuzz/Cargo.toml --locked
}

# must_match FILE REGEX WHAT: FILE has a line matching REGEX, or the run fails.
must_match() {
    if ! grep -Eq "$2" "$1"; then
        cat "$1" >&2
        echo "ci/test.sh: $3: no line matching '$2'" >&2
        return 1
    fi
}

# The timing tools of docs/benchmarks.md run and say what they should.
bench_tools() {
    local out
    out=$(mktemp)
    stage_cleanup "$out"
    # The A/B tool: AB_ONE_BUILD builds the working tree's ayo-core once for
    # both sides (a check that the tool works, not a measurement), and each
    # side must do the same work.
    AB_ONE_BUILD=1 bash bench/ab_core.sh HEAD playout oware 4 | tee "$out"
    must_match "$out" '^playout oware: 4 rounds of [0-9]+ calls a side; .*new/base, median of the rounds. ratios: [-+][0-9.]+% \(quartiles ' "bench/ab_core.sh"
    must_match "$out" '^work: base [0-9]+ units, new [0-9]+ units: the same$' "bench/ab_core.sh (the same work on both sides)"
    # Its workload of the batched environment's step too (the same build).
    target/ab_core/target/release/ab_core rows oware 2 | tee "$out"
    must_match "$out" '^rows oware: 2 rounds of ' "ab_core rows"
    must_match "$out" '^work: base [0-9]+ units, new [0-9]+ units: the same$' "ab_core rows (the same work on both sides)"
    # The batch-path timer (one round of 50 steps, every kernel this CPU
    # has): it fails when the two paths' rows differ.
    cargo run --quiet --locked -p ayo-bench --bin batch_paths -- 50 1 | tee "$out"
    must_match "$out" '^kernel scalar: ns an env-step .*; the same rows$' "batch_paths (kernel scalar)"
}

stage rust-lint rust_lint
stage rust-tests rust_tests
stage rust-docs rust_docs
stage rust-quickstart rust_quickstart
stage fuzz-check fuzz_check
stage bench-tools bench_tools
# The kernel each CPU gets, on emulated CPUs without AVX-512 and without
# AVX2, the batch step's rows (the lanes path) included.
stage dispatch bash ci/dispatch.sh
stage c bash ci/c.sh
# The wheel first: ci/python.sh and ci/rllib.sh install it (with their
# extras) instead of compiling ayo again.
stage wheel bash ci/wheel.sh
wheels=(dist/ayo_mancala-*.whl)
export AYO_WHEEL=${wheels[0]}
stage python bash ci/python.sh
stage browser bash ci/browser.sh
stage rllib bash ci/rllib.sh
