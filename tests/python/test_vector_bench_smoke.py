"""A smoke run of the benchmark suite (bench/run.py --smoke): every benchmark
runs a few hundred steps once and the table is printed. No figure is checked:
figures come from the full run (docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

GROUPS = {"playouts": 4, "loop": 1, "step": 5, "batch": 36, "threads": 3, "copy": 1}


def test_the_suite_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--smoke", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| benchmark | unit | ayo | anchor |" in done.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["smoke"] is True
    rows = report["rows"]
    for group, count in GROUPS.items():
        assert sum(1 for r in rows if r["group"] == group) == count, group
    for row in rows:
        # Every ayo figure was measured; an anchor has a figure or says why not.
        assert row["ayo"] is not None, row
        assert row["ayo"] > 0, row
        assert row["anchor"] is not None or row["anchor_note"], row
        assert row["name"] in done.stdout
