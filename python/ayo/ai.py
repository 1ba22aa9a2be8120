"""Computer players for Ayo: the levels 1..8, ``max`` and ``perfect``, and analysis.

Every player is Rust: ayo-core's random, greedy, alpha-beta and MCTS, with a
budget in depth, nodes or time, and ayo-solve's ``perfect`` level. This
module only re-exports them.

* :class:`Player` — ``Player(level, seed=...)``,
  ``Player.from_kind("mcts", nodes=20_000, seed=...)`` or
  ``Player.perfect(database, nodes=..., seed=...)``; ``choose(game)``
  returns an action 0..5 (relative to the player to move) and releases the
  GIL while it searches; ``analyze(game)`` returns an :class:`Analysis`; a
  Player is callable, so it can be ``ayo.envs.AyoEnv``'s ``opponent=``.
* :class:`Analysis` — best move, value (seeds) with its basis (``basis``:
  ``"proven"`` only when the databases or a complete search prove it,
  ``"search"`` for a search cut off at its depth, ``"lower"``/``"upper"``
  for a bound, ``"convention"`` for a ``perfect`` value that rests on how
  endless play is scored (not proven), ``"estimate"`` for MCTS; ``label`` in
  words, e.g.
  ``"search, depth 13"``), principal variation and a :class:`MoveValue`
  for each legal move.
* ``Player.perfect(database)`` plays the exact best move wherever the
  :class:`ayo.Database` (endgame databases, shared by every player made from
  it) and an exact search above it can answer within the budget, and level
  ``max`` elsewhere (other rules, or the budget ran out); ``player.source``
  says which (``"database"``, ``"search"``, ``"fallback"``, or ``"none"``
  before the first answer) and ``player.fallback`` names what it falls back
  to.

Players with the same level (or kind and budget, or databases and budget)
and seed make the same choices as the Rust players with that seed.
"""

from ayo._ayo import Analysis, Database, MoveValue, Player

__all__ = ["Analysis", "Database", "MoveValue", "Player", "levels"]


def levels() -> list[str]:
    """The levels, weakest first: ``"1"`` .. ``"8"``, ``"max"``.

    ``"perfect"`` is not among them: it needs databases
    (:meth:`Player.perfect`).
    """
    return Player.levels()
