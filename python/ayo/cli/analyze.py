"""``ayo analyze``: a position's best move, value, variation and every move's value.

The analysis comes from :mod:`ayo.ai` (:meth:`ayo.ai.Player.analyze`); each
value is printed with its basis, so that only what the databases or a
complete search prove is called proven, and a depth-limited search says so:
its value is a number ("search, depth 9: +24 for North, not proven"), never
the words of a result ("win by 24").
"""

from __future__ import annotations

from typing import TextIO

from ayo import Game, RecordError
from ayo.ai import Analysis, Player
from ayo.cli.board import Style
from ayo.cli.common import SEAT_NAMES, UsageError, describe_outcome
from ayo.cli.printout import print_board

__all__ = ["analyze", "fallback_words", "game_from_position", "move_text", "signed"]


def game_from_position(text: str) -> Game:
    """The game at a position record; :class:`UsageError` when it is not one."""
    try:
        return Game(position=text)
    except RecordError as e:
        raise UsageError(f"not a position record: {e}") from None


def fallback_words(player: Player) -> str | None:
    """For a perfect player whose last answer was its fallback's, what it fell back to and why."""
    if player.source != "fallback" or player.fallback is None:
        return None
    return (
        f"Level perfect fell back to {player.fallback}: neither its databases nor its exact "
        "search within the budget could answer here."
    )


def signed(value: float) -> str:
    """A search's value in seeds, signed: ``+24``, ``-0.75``."""
    return f"{value:+.0f}" if value == int(value) else f"{value:+.2f}"


def move_text(text: str, value: float, basis: str) -> str:
    """A move's value: a depth-limited search's as a number, never in the
    words of a result (``win by 24``) that it has not proven."""
    return signed(value) if basis == "search" else text


def _analysis_lines(game: Game, a: Analysis, player: Player) -> list[str]:
    mover = SEAT_NAMES[game.to_move]
    if a.best is None:
        return [f"No move to analyse: {a.text} for {mover}."]
    pv = " ".join(str(x + 1) for x in a.pv)
    by = f"{'level ' if player.level and player.kind != 'perfect' else ''}{player.name}"
    if a.basis == "search":
        best = f"{a.label}: {signed(a.value)} for {mover}, not proven"
        headline = f"Best move: {a.best + 1} ({mover}); {best}."
    else:
        headline = f"Best move: {a.best + 1} ({mover}), value {a.text} for {mover} ({a.label})."
    lines = [
        f"Analysis by {by}: depth {a.depth}, {a.nodes} nodes.",
        headline,
        f"Principal variation: {pv}",
        "Each legal move:",
    ]
    for m in a.moves:
        mark = "  <- best" if m.action == a.best else ""
        text = move_text(m.text, m.value, m.basis)
        lines.append(f"  {m.action + 1}: {text:>12} ({m.label}){mark}")
    if a.basis == "search":
        lines.append(
            f"Not proven: the search looks {a.depth} plies ahead and estimates "
            "the positions it reaches there."
        )
    elif any(m.basis == "convention" for m in a.moves):
        lines.append(
            "Not proven where it says so: those values depend on how play that never "
            "ends is scored, and are the convention's (each player takes the seeds on "
            "their own side)."
        )
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
    a = player.analyze(game)
    out.write("\n".join(_analysis_lines(game, a, player)) + "\n")
    source = player.source
    fallback = fallback_words(player)
    if fallback is not None:
        out.write(fallback + "\n")
    elif a.basis == "proven" and source is not None and source in _SOURCES:
        out.write(_SOURCES[source] + "\n")
    return 0


# Where a perfect player's proven answer came from (Player.source), in words.
_SOURCES = {
    "database": "Proven: every move's value read from the databases.",
    "search": "Proven: searched above the databases to the end of every line.",
}
