#!/usr/bin/env bash
# Sets everything up and runs every test. Safe to re-run; quick when set up.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

echo "== Rust: format, lints, tests, docs"
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt clippy
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# A time limit on the whole (cargo names a test that runs past 60 s while it runs).
timeout 2400 cargo test --workspace --locked
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
# README.md's Rust quick start, pasted as written into a crate of its own: its
# [dependencies] line (the path ../ayo/ayo-core, a link to this clone) and its
# whole src/main.rs; built and run outside the workspace, with
# examples/rust's lock file.
quickstart=$(mktemp -d)
trap 'rm -rf "$quickstart"' EXIT
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
# The fuzz targets build on stable (running them needs cargo-fuzz; see README).
cargo check --manifest-path fuzz/Cargo.toml --locked
# The A/B tool of docs/benchmarks.md builds and runs (HEAD against itself).
bash bench/ab_core.sh HEAD playout oware 4
# Its workload of the batched environment's step too (the same build).
target/ab_core/target/release/ab_core rows oware 2
# The batch-path timer of docs/benchmarks.md runs (one round of one step, every kernel).
cargo run --quiet --locked -p ayo-core --example batch_paths -- 1 1
# The kernel each CPU gets, on emulated CPUs without AVX-512 and without AVX2.
bash ci/dispatch.sh
# The lanes path with the rows, as docs/benchmarks.md counts its instructions
# (built by ci/dispatch.sh).
target/release/examples/instructions rows oware 2

echo "== C and C++"
bash ci/c.sh

echo "== Python"
bash ci/python.sh
bash ci/browser.sh
bash ci/wheel.sh
bash ci/rllib.sh
