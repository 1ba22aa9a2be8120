"""The board as text: :func:`text` (ANSI colours if asked) and :func:`status_line`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ayo.display._style import PLAYER_NAMES, _last_pit, _move_number

if TYPE_CHECKING:
    from ayo._ayo import Game


def status_line(game: Game) -> str:
    """One line saying who is to move, the last move, or how the game ended."""
    last = _last_pit(game)
    parts = []
    outcome = game.outcome
    if outcome is not None:
        south, north = outcome.scores
        if outcome.winner is None:
            parts.append(f"Draw {south}-{north} ({outcome.reason})")
        else:
            parts.append(f"{PLAYER_NAMES[outcome.winner]} wins {south}-{north} ({outcome.reason})")
    elif game.status == "truncated":
        parts.append(f"Stopped at the ply cap, {PLAYER_NAMES[game.to_move]} to move")
    else:
        parts.append(f"{PLAYER_NAMES[game.to_move]} to move")
    if last is not None:
        parts.append(f"last: {PLAYER_NAMES[0 if last < 6 else 1]} {_move_number(last)}")
    parts.append(f"ply {game.ply}")
    return " · ".join(parts)


def text(game: Game, *, color: bool = False) -> str:
    """The board as a few lines of text (ANSI colours with ``color=True``).

    North's row is on top, right to left; South's below, left to right; the
    stores at the ends (North's left, South's right); move numbers above and
    below; the last move in brackets; then the status line.
    """
    board = [int(s) for s in game.board]
    stores = [int(s) for s in game.stores]
    last = _last_pit(game)
    mover = None if game.outcome is not None else int(game.to_move)
    bold, rev, reset = ("\x1b[1m", "\x1b[7m", "\x1b[0m") if color else ("", "", "")

    def cell(pit: int) -> str:
        s = f"[{board[pit]}]".rjust(4) if pit == last else f" {board[pit]:>2} "
        return f"{rev}{s}{reset}" if color and pit == last else s

    def mark(player: int) -> str:
        return f"{bold}>{reset}" if player == mover else " "

    top_numbers = "".join(f" {_move_number(p):>2} " for p in range(11, 5, -1))
    bottom_numbers = "".join(f" {_move_number(p):>2} " for p in range(6))
    north = "".join(cell(p) for p in range(11, 5, -1))
    south = "".join(cell(p) for p in range(6))
    pad = " " * 7
    lines = [
        f"{pad}{top_numbers}   North",
        f"{mark(1)}{stores[1]:>4}  {north}",
        f"{pad}{' ' * 24}  {stores[0]:>3}",
        f"{mark(0)}{'':>4}  {south}",
        f"{pad}{bottom_numbers}   South",
        status_line(game),
    ]
    return "\n".join(lines)
