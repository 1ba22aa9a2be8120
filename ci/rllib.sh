#!/usr/bin/env bash
# The RLlib and TorchRL checks, in a side venv (.venv-rllib) of their own:
# ray[rllib] pins its own gymnasium, and torch is large. Installs ayo with its
# rllib and torchrl extras at the versions below (from the wheel AYO_WHEEL
# names when set, as CI does: ci/wheel.sh builds it), then ruff and mypy --strict
# over examples/python and tests/rllib (with the main venv's tools: run
# ci/python.sh first) and pytest tests/rllib: a local Ray with two env runners
# trains PPO by self-play (ayo.rllib, examples/python/rllib_selfplay.py) and
# torchrl's check_env_specs runs over the Gymnasium and PettingZoo envs, and
# sb3-contrib's MaskablePPO trains on the batched env (tests/rllib/test_sb3.py).
# Works in a fresh clone on a fresh machine (python3 >= 3.10 with venv, cargo,
# network access to PyPI and crates.io). Any failure exits non-zero.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
VENV=${AYO_RLLIB_VENV:-$ROOT/.venv-rllib}
MAIN_VENV=${AYO_VENV:-$ROOT/.venv}

# Versions that work together (all from PyPI):
# - ray 2.60.0 pins gymnasium 1.2.2, which ayo's gymnasium>=1.0 accepts;
# - torchrl 0.14.1 needs tensordict >=0.14.3,<0.15 and loads its C++
#   extension with torch 2.15.0;
# - torch 2.15.0 is PyPI's Linux wheel, which depends on the CUDA libraries
#   (about 2.8 GB of wheels in all); PyPI has no CPU-only torch for Linux, and
#   the torch wheel without them does not import. It runs on the CPU here.
PINS=(
    "ray[rllib]==2.60.0"
    "torch==2.15.0"
    "torchrl==0.14.1"
    "tensordict==0.14.3"
    "pettingzoo==1.27.0"
    "sb3-contrib==2.9.2"
    "stable-baselines3==2.9.2"
    "pytest>=8"
    "pytest-timeout>=2.1"
)

step() { printf '\n==> %s\n' "$*"; }

export PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_NO_INPUT=1
# Ray would otherwise try to send usage statistics.
export RAY_USAGE_STATS_ENABLED=0

step "side virtual environment: $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" --version
"$PY" -m pip install --quiet --upgrade pip

start=$(date +%s)
if [ -n "${AYO_WHEEL:-}" ]; then
    # CI's: the wheel ci/wheel.sh built (ayo is not compiled again here).
    step "install ayo-mancala from $AYO_WHEEL ([rllib,torchrl]) with ray, torch and torchrl"
    [ -f "$AYO_WHEEL" ] || { echo "ci/rllib.sh: AYO_WHEEL=$AYO_WHEEL is not a file" >&2; exit 1; }
    "$PY" -m pip install --quiet --force-reinstall --no-deps "$AYO_WHEEL"
    "$PY" -m pip install --quiet "$AYO_WHEEL[rllib,torchrl]" "${PINS[@]}"
else
    step "install ayo-mancala (.[rllib,torchrl]) with ray, torch and torchrl"
    "$PY" -m pip install --quiet ".[rllib,torchrl]" "${PINS[@]}"
fi
echo "installed in $(( $(date +%s) - start ))s"
"$PY" -c 'import ayo, ray, torch, torchrl, gymnasium; print("ayo", ayo.__version__, "ray", ray.__version__, "torch", torch.__version__, "torchrl", torchrl.__version__, "gymnasium", gymnasium.__version__)'

step "ruff and mypy --strict: examples/python, tests/rllib (main venv's tools)"
if [ ! -x "$MAIN_VENV/bin/python" ]; then
    echo "no main venv at $MAIN_VENV: run ci/python.sh first (or set AYO_VENV)" >&2
    exit 1
fi
"$MAIN_VENV/bin/python" -m ruff check examples/python tests/rllib
"$MAIN_VENV/bin/python" -m ruff format --check examples/python tests/rllib
"$MAIN_VENV/bin/python" -m mypy --strict examples/python tests/rllib

# The tests' own files stay in a folder of this run's own: Ray writes its
# token to ~/.ray and its session folders under the temp folder.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/home" "$scratch/tmp"
export HOME="$scratch/home" TMPDIR="$scratch/tmp"

step "pytest tests/rllib"
start=$(date +%s)
set +e
"$PY" -m pytest tests/rllib -p no:cacheprovider -s
rc=$?
set -e
echo "tests ran in $(( $(date +%s) - start ))s"
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: failing" >&2
    exit 1
elif [ "$rc" -ne 0 ]; then
    exit "$rc"
fi

step "the docs' blocks that need RLlib, TorchRL or sb3-contrib (tests/python/docs_blocks.py)"
start=$(date +%s)
timeout 900 "$PY" tests/python/docs_blocks.py --stage rllib
echo "blocks ran in $(( $(date +%s) - start ))s"

step "rllib checks passed"
