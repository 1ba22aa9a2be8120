#!/usr/bin/env bash
# Sets up a fresh machine for the main job: builds the Rust engine and installs
# the `ayo` Python package (with the `ayo` command) into .venv.
# Then: `.venv/bin/ayo play`. Needs python3 >= 3.10 (with venv) and cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${AYO_VENV:-$PWD/.venv}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    # Debian splits venv out of python3.
    apt-get update -qq && apt-get install -y -qq python3-venv
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet .
echo "ready: $VENV/bin/ayo play   (ayo --help lists every command)"
