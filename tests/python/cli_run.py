"""Runs the ``ayo`` command in a child process, for the command-line tests:
its data folder in the test's own, no colours, no database folder from the
caller's environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def ayo_command(
    args: list[str], home: Path, stdin: str = "", extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m ayo.cli *args`` with ``stdin``; its output captured as text."""
    env = dict(os.environ, AYO_DATA_DIR=str(home / "data"), NO_COLOR="1")
    env.pop("AYO_DB_DIR", None)
    env.update(extra_env or {})
    return subprocess.run(
        [sys.executable, "-m", "ayo.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
