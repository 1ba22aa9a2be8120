"""``ayo rules``: the rules of one preset, or of every preset, in words (the
core's ``Rules.describe``)."""

from __future__ import annotations

import textwrap
from typing import TextIO

from ayo import Rules

__all__ = ["rules_cmd"]


def rules_cmd(rules: Rules | None, out: TextIO) -> int:
    """``ayo rules``: one preset's rules, or every preset's."""
    chosen = [rules] if rules is not None else [Rules(name) for name in Rules.presets()]
    for i, r in enumerate(chosen):
        if i:
            out.write("\n")
        for line in r.describe():
            out.write(textwrap.fill(line, 78, subsequent_indent="  ") + "\n" if line else "\n")
    return 0
