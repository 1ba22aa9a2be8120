"""The Python blocks of docs/environments.md's RLlib and TorchRL sections run as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


def test_rllib_and_torchrl_blocks() -> None:
    doc = DOC.read_text(encoding="utf-8")
    sections = doc[doc.index("## RLlib: `ayo.rllib`") : doc.index("## Pictures: `ayo.display`")]
    blocks = re.findall(r"^```py\n(.*?)^```", sections, re.S | re.M)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
