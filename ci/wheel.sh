#!/usr/bin/env bash
# The distributable packages: builds the abi3 wheel for glibc 2.17 and later
# (maturin with zig; the tag is pyproject.toml's [tool.maturin] compatibility)
# and the sdist into dist/, proves the wheel's tag is honest (its extension's
# GLIBC symbol versions, auditwheel), installs the wheel into a fresh venv run
# with no Rust toolchain on the PATH and runs tests/wheel/smoke.py from it (the
# quick starts, the Gymnasium env, the `ayo` command), then builds the sdist
# from itself (unpacked, `pip wheel`) and imports that in another fresh venv.
# Run from anywhere: `bash ci/wheel.sh`. Needs python3 >= 3.10 with venv,
# cargo, objdump and network access to PyPI and crates.io.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
# The same target directory as the rest of CI, the sdist's build included, so
# the crates already built are reused where their flags match.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
TOOLS=$CARGO_TARGET_DIR/wheel-tools
DIST=$ROOT/dist
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

start_all=$(date +%s)
step() { printf '\n==> %s\n' "$*"; }
fail() { echo "ci/wheel.sh: $*" >&2; exit 1; }

step "build tools (maturin, zig, auditwheel) in $TOOLS"
[ -x "$TOOLS/bin/python" ] || "$PYTHON" -m venv "$TOOLS"
"$TOOLS/bin/python" -m pip install --quiet \
    "maturin[zig]>=1.16,<2" "ziglang>=0.14,<0.18" "auditwheel>=6.1,<7"
"$TOOLS/bin/maturin" --version
"$TOOLS/bin/python" -m ziglang version | sed 's/^/zig /'

rm -f "$DIST"/ayo_mancala-*.whl "$DIST"/ayo_mancala-*.tar.gz

step "wheel: maturin build --release --zig"
start=$(date +%s)
# maturin runs zig as `python -m ziglang`, with the tools' python.
CARGO_ZIGBUILD_PYTHON_PATH="$TOOLS/bin/python" \
    "$TOOLS/bin/maturin" build --release --zig --out "$DIST"
echo "wheel built in $(( $(date +%s) - start ))s"
wheels=("$DIST"/ayo_mancala-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then fail "expected one wheel in $DIST"; fi
WHEEL=${wheels[0]}
name=$(basename "$WHEEL")
case "$name" in
    *-cp310-abi3-*manylinux_2_17_x86_64.whl) ;;
    *) fail "$name is not an abi3 (cp310) manylinux_2_17 wheel" ;;
esac

step "the tag is honest: GLIBC symbol versions and auditwheel"
"$TOOLS/bin/python" -m zipfile -e "$WHEEL" "$WORK/unpacked"
so=$(find "$WORK/unpacked" -name '_ayo*.so')
[ -n "$so" ] || fail "no extension module in $name"
max_glibc=$(objdump -T "$so" | grep -o 'GLIBC_[0-9.]*' | sed 's/^GLIBC_//' | sort -uV | tail -n 1)
[ -n "$max_glibc" ] || fail "no GLIBC symbol versions found in $so"
echo "$(basename "$so"): newest GLIBC symbol version $max_glibc (the tag allows 2.17)"
[ "$(printf '%s\n' "$max_glibc" 2.17 | sort -V | tail -n 1)" = 2.17 ] ||
    fail "$(basename "$so") needs GLIBC_$max_glibc, newer than its tag's 2.17"
audit=$("$TOOLS/bin/auditwheel" show "$WHEEL")
echo "$audit"
echo "$audit" | tr -s ' \n' '  ' |
    grep -q 'consistent with the following platform tag: "manylinux_2_17_x86_64"' ||
    fail "auditwheel does not find $name consistent with manylinux_2_17_x86_64"

step "the wheel in a fresh venv, with no Rust on the PATH"
"$PYTHON" -m venv "$WORK/wheel-venv"
mkdir "$WORK/home"
# pip's settings for reaching PyPI (certificates, proxies, mirrors) pass through.
keep=()
for var in PIP_CERT PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PIP_TRUSTED_HOST \
    PIP_DEFAULT_TIMEOUT SSL_CERT_FILE SSL_CERT_DIR REQUESTS_CA_BUNDLE \
    HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy; do
    if [ -n "${!var:-}" ]; then keep+=("$var=${!var}"); fi
done
no_rust() {
    env -i PATH="$WORK/wheel-venv/bin:/usr/bin:/bin" HOME="$WORK/home" LANG=C.UTF-8 \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 "${keep[@]}" "$@"
}
# shellcheck disable=SC2016  # expanded by the inner shell
no_rust sh -c 'for tool in cargo rustc rustup; do
    if command -v "$tool"; then echo "$tool is on the PATH" >&2; exit 1; fi
done; echo "no cargo, rustc or rustup on PATH=$PATH"'
start=$(date +%s)
# Binaries only: nothing, ayo or its dependencies, may be built from source.
no_rust python -m pip install --quiet --only-binary :all: "$WHEEL"
echo "installed in $(( $(date +%s) - start ))s"
# README.md's and docs/python.md's install lines, in the folder of the wheel
# (with PettingZoo, as they say).
no_rust timeout 600 python "$ROOT/tests/python/docs_blocks.py" --stage wheel --cwd "$DIST"
(cd "$WORK" && no_rust timeout 600 python "$ROOT/tests/wheel/smoke.py" "$ROOT/README.md" "$ROOT/docs/python.md")

step "sdist: maturin sdist, then built from itself"
"$TOOLS/bin/maturin" sdist --out "$DIST"
sdists=("$DIST"/ayo_mancala-*.tar.gz)
if [ "${#sdists[@]}" -ne 1 ] || [ ! -f "${sdists[0]}" ]; then fail "expected one sdist in $DIST"; fi
SDIST=${sdists[0]}
echo "$(basename "$SDIST"): $(tar -tzf "$SDIST" | wc -l) entries"
mkdir "$WORK/sdist"
tar -xzf "$SDIST" -C "$WORK/sdist"
# The sdist's files carry a fixed old date: cargo would take the crates built
# from the clone's sources as up to date and compile nothing. Fresh dates make
# it compile ayo's own crates from the sdist (its dependencies stay reused).
find "$WORK/sdist" -type f -exec touch {} +
"$PYTHON" -m venv "$WORK/sdist-venv"
SPY=$WORK/sdist-venv/bin/python
start=$(date +%s)
"$SPY" -m pip wheel --verbose --no-deps --wheel-dir "$WORK/sdist-wheel" "$WORK/sdist"/ayo_mancala-*/ \
    >"$WORK/sdist-build.log" 2>&1 || { cat "$WORK/sdist-build.log"; fail "the sdist does not build"; }
grep -E '^ *(Compiling|Finished) ' "$WORK/sdist-build.log"
grep -q 'Compiling ayo-py ' "$WORK/sdist-build.log" || fail "cargo did not compile the sdist's ayo-py"
echo "sdist built into $(basename "$WORK"/sdist-wheel/ayo_mancala-*.whl) in $(( $(date +%s) - start ))s"
"$SPY" -m pip install --quiet "$WORK"/sdist-wheel/ayo_mancala-*.whl
(cd "$WORK" && "$SPY" -c '
import sys
from pathlib import Path

from importlib.metadata import packages_distributions, version

import ayo

# The distribution ayo-mancala provides the import package ayo.
assert packages_distributions()["ayo"] == ["ayo-mancala"], packages_distributions()["ayo"]
assert version("ayo-mancala") == ayo.__version__
where = Path(ayo.__file__).resolve()
assert Path(sys.prefix).resolve() in where.parents, where
print("ayo", ayo.__version__, "from the sdist: perft(oware, 4) =", ayo.perft("oware", 4))
')
rules_text=$("$WORK/sdist-venv/bin/ayo" rules oware)
echo "ayo rules oware: ${rules_text%%$'\n'*}"

step "packages"
ls -l "$WHEEL" "$SDIST"
echo "ci/wheel.sh passed in $(( $(date +%s) - start_all ))s"
