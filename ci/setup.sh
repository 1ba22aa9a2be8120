#!/usr/bin/env bash
# Sets up a fresh machine for the main job: builds the Rust engine and installs
# the `ayo` Python package (with the `ayo` command) into .venv.
# Then: `.venv/bin/ayo play`. Needs python3 >= 3.10 (with venv) and cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${AYO_VENV:-$PWD/.venv}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

say() { echo "setup: $*"; }

if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    # Debian splits venv out of python3.
    say "installing python3-venv (apt-get)"
    apt-get update -qq && apt-get install -y -qq python3-venv
fi
if [ ! -x "$VENV/bin/python" ]; then
    say "making the virtual environment $VENV"
    "$PYTHON" -m venv "$VENV"
fi
say "upgrading pip"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
say "building ayo (Rust, release; about 2 minutes on 2 cores from nothing) and installing it with numpy, gymnasium and platformdirs"
start=$(date +%s)
"$VENV/bin/python" -m pip install --quiet .
say "built and installed in $(( $(date +%s) - start ))s"
echo "ready: $VENV/bin/ayo play   (ayo --help lists every command)"
