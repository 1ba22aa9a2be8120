"""``ayo analyze``: a position's best move, value, variation and every move's value.

The analysis comes from :mod:`ayo.ai` (:meth:`ayo.ai.Player.analyze`).
"""

from __future__ import annotations

from typing import TextIO

from ayo import Game, RecordError
from ayo.ai import Analysis, Player
from ayo.cli.board import Style
from ayo.cli.common import SEAT_NAMES, UsageError, describe_outcome
from ayo.cli.printout import print_board

__all__ = ["analyze", "game_from_position"]


def game_from_position(text: str) -> Game:
    """The game at a position record; :class:`UsageError` when it is not one."""
    try:
        return Game(position=text)
    except RecordError as e:
        raise UsageError(f"not a position record: {e}") from None


def _analysis_lines(game: Game, a: Analysis, player: Player) -> list[str]:
    mover = SEAT_NAMES[game.to_move]
    if a.best is None:
        return [f"No move to analyse: {a.text} for {mover}."]
    pv = " ".join(str(x + 1) for x in a.pv)
    by = f"{'level ' if player.level and player.kind != 'perfect' else ''}{player.name}"
    lines = [
        f"Analysis by {by}: depth {a.depth}, {a.nodes} nodes.",
        f"Best move: {a.best + 1} ({mover}), value {a.text} for {mover} ({a.bound}).",
        f"Principal variation: {pv}",
        "Each legal move:",
    ]
    for m in a.moves:
        mark = "  <- best" if m.action == a.best else ""
        lines.append(f"  {m.action + 1}: {m.text:>12} ({m.bound}){mark}")
    return lines


def analyze(text: str, player: Player, style: Style, out: TextIO) -> int:
    """``ayo analyze``: best move, value, PV and the value of each move."""
    game = game_from_position(text)
    print_board(out, game, style)
    if game.outcome is not None:
        out.write(f"{game.position_record()}\n\nThe game is over. ")
        out.write(describe_outcome(game.outcome, game.rules, stuck=game.to_move) + "\n")
        return 0
    out.write(f"{SEAT_NAMES[game.to_move]} to move · {game.position_record()}\n\n")
    out.write("\n".join(_analysis_lines(game, player.analyze(game), player)) + "\n")
    source = player.source
    if source is not None and source in _SOURCES:
        out.write(_SOURCES[source] + "\n")
    return 0


# Where a perfect player's answer came from (Player.source), in words.
_SOURCES = {
    "database": "Exact: every move's value read from the databases.",
    "search": "Exact: searched above the databases.",
    "fallback": "The databases and the exact search could not answer within the budget: "
    "this is level max's analysis.",
}
