#!/usr/bin/env bash
# The Python package's checks: build and install `ayo` (maturin, release) into
# .venv (or install the wheel AYO_WHEEL names, as CI does), then stubtest, mypy --strict, ruff, the pytest suite over tests/python
# and every notebook in notebooks/. Run from anywhere: `bash ci/python.sh`.
# Works in a fresh clone on a fresh machine (needs python3 >= 3.10 with venv,
# cargo and network access to PyPI and crates.io). Any failure exits non-zero.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
VENV=${AYO_VENV:-$ROOT/.venv}

step() { printf '\n==> %s\n' "$*"; }

export PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_NO_INPUT=1
export MPLBACKEND=Agg

step "virtual environment: $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" --version
"$PY" -m pip install --quiet --upgrade pip

start=$(date +%s)
if [ -n "${AYO_WHEEL:-}" ]; then
    # CI's: the wheel ci/wheel.sh built and checked, so that ayo is compiled
    # once for the wheel, these tests and ci/rllib.sh.
    step "install ayo from $AYO_WHEEL with its test extras"
    [ -f "$AYO_WHEEL" ] || { echo "ci/python.sh: AYO_WHEEL=$AYO_WHEEL is not a file" >&2; exit 1; }
    "$PY" -m pip install --quiet --force-reinstall --no-deps "$AYO_WHEEL"
    "$PY" -m pip install --quiet "$AYO_WHEEL[test]"
else
    step "build and install ayo with its test extras (maturin, release profile)"
    # A non-editable install: the tests run the wheel that `pip install .`
    # builds (pip rebuilds a local project on every install).
    "$PY" -m pip install --quiet ".[test]"
fi
echo "installed in $(( $(date +%s) - start ))s"
"$PY" -c 'import ayo, sys; print("ayo", ayo.__version__, "from", ayo.__file__); sys.exit(0)'

step "stubtest: the installed _ayo.pyi against the compiled extension"
"$PY" -m mypy.stubtest ayo._ayo

step "the kernel import ayo picks on emulated CPUs without AVX-512 and without AVX2"
bash ci/dispatch.sh "$PY"

step "mypy --strict"
"$PY" -m mypy --strict python tests/python

step "ruff"
"$PY" -m ruff check python tests/python
"$PY" -m ruff format --check python tests/python

step "pytest tests/python"
set +e
"$PY" -m pytest tests/python -p no:cacheprovider
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: failing" >&2
    exit 1
elif [ "$rc" -ne 0 ]; then
    exit "$rc"
fi

step "notebooks"
shopt -s nullglob
notebooks=(notebooks/*.ipynb)
if [ "${#notebooks[@]}" -eq 0 ]; then
    echo "no notebooks in notebooks/: nothing to execute"
else
    "$PY" - "${notebooks[@]}" <<'PYEOF'
"""Executes each notebook given (in its own folder); any cell error fails."""

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

for name in sys.argv[1:]:
    path = Path(name).resolve()
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=900,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    cells = sum(1 for c in nb.cells if c.cell_type == "code")
    print(f"executed {path.name}: {cells} code cells, no errors")
PYEOF
fi

step "python checks passed"
