# Sourced by a benchmark script that builds a program of bench/ outside the
# workspace (today bench/ab_core.sh).
#
# harness NAME DIR AYO_CORE_DEPS [FEATURES]: writes DIR/harness, a crate named
# NAME built from bench/NAME/main.rs with the dependency lines AYO_CORE_DEPS
# (ayo-core under the names the program uses), rand and rand_xoshiro, the
# features FEATURES (lines of a [features] table), the project's release
# profile and its Cargo.lock. Run from the repository's root.
harness() {
    local name=$1 dir=$2 deps=$3 features=${4:-}
    mkdir -p "$dir/harness/src"
    cp "bench/$name/main.rs" "$dir/harness/src/main.rs"
    cat > "$dir/harness/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$deps
rand = { version = "0.9", default-features = false }
rand_xoshiro = "0.7"

[features]
$features

# As the project's release profile.
[profile.release]
codegen-units = 1
lto = "thin"

[workspace]
TOML
    cp Cargo.lock "$dir/harness/Cargo.lock"
}
