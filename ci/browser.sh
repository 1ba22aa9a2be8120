#!/usr/bin/env bash
# The board widget in a real browser: tests/browser starts a Jupyter server on
# localhost and plays notebooks/play.ipynb in headless Chromium (Debian's
# `chromium`, driven by Playwright; Playwright's own browser download is not
# used). Needs the environment ci/python.sh makes (ayo with its test extras in
# .venv, or AYO_VENV); installs chromium with apt-get when it is missing.
# Screenshots go to $AYO_SCREENSHOTS/ayo-browser/ (default: target/ in the
# clone); their paths are printed. Run from anywhere: `bash ci/browser.sh`.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV=${AYO_VENV:-$ROOT/.venv}
PY="$VENV/bin/python"

step() { printf '\n==> %s\n' "$*"; }

if ! "$PY" -c 'import ayo.widget, playwright, notebook' 2>/dev/null; then
    echo "ci/browser.sh: $VENV lacks ayo with its test extras: run ci/python.sh first" >&2
    exit 1
fi

step "chromium (Debian's)"
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
AYO_CHROMIUM=$(command -v chromium)
export AYO_CHROMIUM
"$AYO_CHROMIUM" --version 2>/dev/null

step "mypy and ruff over tests/browser"
"$PY" -m mypy --strict tests/browser
"$PY" -m ruff check tests/browser
"$PY" -m ruff format --check tests/browser

step "pytest tests/browser"
export AYO_SCREENSHOTS=${AYO_SCREENSHOTS:-$ROOT/target}
start=$(date +%s)
set +e
"$PY" -m pytest tests/browser -p no:cacheprovider -s
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no browser tests: failing" >&2
    exit 1
elif [ "$rc" -ne 0 ]; then
    exit "$rc"
fi
echo "browser tests took $(( $(date +%s) - start ))s"
step "browser checks passed"
