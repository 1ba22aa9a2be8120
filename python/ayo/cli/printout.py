"""A board printed once, as ``ayo analyze`` and ``ayo replay`` show it."""

from __future__ import annotations

from typing import TextIO

from ayo import Game
from ayo.cli.board import Style, View, draw

__all__ = ["print_board"]


def print_board(out: TextIO, game: Game, style: Style, last: int | None = None) -> None:
    view = View(
        board=[int(s) for s in game.board],
        stores=[int(s) for s in game.stores],
        bottom=0,
        to_move=None if game.is_over else game.to_move,
        last=last,
    )
    out.write("\n".join(draw(view, style)) + "\n")
