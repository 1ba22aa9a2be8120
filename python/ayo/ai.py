"""Computer players for Ayo: the levels 1..8 and ``max``, and analysis.

Every player is ayo-core's (Rust): random, greedy, alpha-beta and MCTS, with
a budget in depth, nodes or time. This module only re-exports them.

* :class:`Player` — ``Player(level, seed=...)`` or
  ``Player.from_kind("mcts", nodes=20_000, seed=...)``; ``choose(game)``
  returns an action 0..5 (relative to the player to move) and releases the
  GIL while it searches; ``analyze(game)`` returns an :class:`Analysis`; a
  Player is callable, so it can be ``ayo.envs.AyoEnv``'s ``opponent=``.
* :class:`Analysis` — best move, value (seeds, with its bound), principal
  variation and a :class:`MoveValue` for each legal move.

Players with the same level (or kind and budget) and seed make the same
choices as the Rust players with that seed.
"""

from ayo._ayo import Analysis, MoveValue, Player

__all__ = ["Analysis", "MoveValue", "Player", "levels"]


def levels() -> list[str]:
    """The levels, weakest first: ``"1"`` .. ``"8"``, ``"max"``."""
    return Player.levels()
