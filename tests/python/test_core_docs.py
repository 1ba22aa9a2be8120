"""The Python quick starts of the docs run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


def test_python_guide_has_a_quick_start() -> None:
    blocks = python_blocks(ROOT / "docs" / "python.md")
    assert blocks
    assert "import ayo" in blocks[0]


@pytest.mark.parametrize("doc", ["docs/python.md", "README.md"])
def test_python_blocks_run(doc: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / doc
    if not path.is_file() or not python_blocks(path):
        pytest.skip(f"{doc} has no Python code block")
    for i, code in enumerate(python_blocks(path)):
        exec(compile(code, f"{doc} block {i + 1}", "exec"), {"__name__": "__docs__"})
    out = capsys.readouterr().out
    assert out.strip()
