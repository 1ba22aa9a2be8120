"""What every picture of :mod:`ayo.display` shares: names, colours, geometry.

The geometry is the usual mancala picture (see :mod:`ayo.display`): South's
row along the bottom left to right, North's along the top right to left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ayo._ayo import Game

PLAYER_NAMES = ("South", "North")

# Colours shared by the SVG and RGB pictures.
_BOARD = "#c49a6c"
_BOARD_EDGE = "#8a6239"
_PIT = "#6b4423"
_MOVER_ROW = "#f2d38a"
_LAST_MOVE = "#e4572e"
_ACTIVE = "#2e86de"
_INK = "#2b2b2b"
_SEED_TEXT = "#ffffff"


def _column(pit: int) -> int:
    """Screen column (0..5, left to right) of an absolute pit."""
    return pit if pit < 6 else 11 - pit


def _row(pit: int) -> int:
    """Screen row of a pit: 0 for North's (top), 1 for South's (bottom)."""
    return 1 if pit < 6 else 0


def _move_number(pit: int) -> int:
    """The owner's move number (1..6) of an absolute pit."""
    return pit % 6 + 1


def _last_pit(game: Game) -> int | None:
    moves = game.moves
    return int(moves[-1]) if moves else None
