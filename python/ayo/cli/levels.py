"""The computer's levels in words for people: what a level does in a game's rules.

A level's player and budget come from ayo-core's level table for the game's
rules (:meth:`ayo.ai.Player.level_spec`: games with collect-on-4 captures
have their own table); this module only says them in words, e.g. "level 4
looks four moves ahead".
"""

from __future__ import annotations

from ayo import Rules
from ayo.ai import Player

__all__ = ["BEGINNER_LEVEL", "level_words", "levels_help"]

#: The level suggested to someone new to the game: the weakest that does
#: not play at random (docs/strength.md has the measured ladder).
BEGINNER_LEVEL = "2"

_NUMBERS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]


def _count(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else f"{n:,}"


def _budget(budget: str) -> tuple[str, float]:
    """``depth=4`` as ``("depth", 4)``; a time as seconds (``time=250ms``, ``time=1.5s``)."""
    key, _, value = budget.partition("=")
    if value.endswith("ms"):
        return key, float(value[:-2]) / 1000
    if value.endswith("s"):
        return key, float(value[:-1])
    return key, float(value)


def _play_words(kind: str, budget: str) -> str:
    key, amount = _budget(budget)
    n = int(amount)
    if kind == "random":
        return "plays a random legal move"
    if kind == "greedy":
        return "takes the most seeds it can with this move, without looking further"
    if key == "time":
        return f"thinks for {amount:g} seconds a move"
    if kind == "mcts":
        games = f"{_count(n)} quick random game{'s' if n != 1 else ''}"
        return f"plays {games} to the end before each move"
    if key == "depth":
        return f"looks {_count(n)} move{'s' if n != 1 else ''} ahead"
    return f"weighs {n:,} positions before each move"


def level_words(level: str, rules: Rules) -> str:
    """What ``level`` does in games of ``rules``: ``level 4 looks four moves ahead``.

    The beginner's level says so; ``perfect`` says where its moves come from.
    """
    if level == "perfect":
        return (
            "level perfect plays the best move from the endgame databases "
            "(as level max where they cannot answer)"
        )
    kind, budget = Player.level_spec(level, rules)
    words = f"level {level} {_play_words(kind, budget)}"
    if level == BEGINNER_LEVEL:
        words += " (a good start for a beginner)"
    elif level == Player.levels()[0]:
        words += " (for learning the moves)"
    elif level == "max":
        words += " (the strongest level)"
    return words


def levels_help(rules: Rules) -> str:
    """Every level in words for ``rules``, for a command's help."""
    return "; ".join(level_words(level, rules) for level in [*Player.levels(), "perfect"])
