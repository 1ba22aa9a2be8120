"""``ayo scores``: the scoreboard of wins against the computer."""

from __future__ import annotations

import sys
from typing import TextIO

from ayo.cli.scoreboard import Scoreboard

__all__ = ["scores"]


def scores(board: Scoreboard, out: TextIO) -> int:
    """``ayo scores``: the scoreboard."""
    if board.problem:
        sys.stderr.write(f"ayo: {board.problem}\n")
    out.write("\n".join(board.table()) + "\n")
    out.write(f"({board.path})\n")
    return 0
