"""Positions with their exact values and optimal moves, from the endgame databases.

:func:`sample` draws positions of a given number of seeds on the board
(uniformly over the boards of that many seeds: stars and bars), asks a
database for the exact value of every legal move, and returns a
:class:`PositionSet`: numpy arrays ready for supervised pretraining
(observations as the environments encode them, legal masks, the value for
the player to move, each move's value, the optimal moves) and the position
records. Relay rule sets without a move limit (``ayoayo``) take an
:class:`ayo.Database`; those with one (``ayo``, ``olopon``) a
:class:`ayo.CountedDatabase`, and their positions get a random no-capture
count below the limit as well.

Values are in seeds, for the player to move: the seeds now on the board they
will still capture minus those the opponent will, with best play to the end
(the stores do not count). The stores are set to share the other seeds as
evenly as possible, so that no position is already decided by a target.

:func:`ayo.eval.move_accuracy` grades an agent over a :class:`PositionSet`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ayo._ayo import AyoError, CountedDatabase, Game

if TYPE_CHECKING:
    from ayo._ayo import Database

__all__ = ["PositionSet", "from_positions", "sample"]

#: The value written for an illegal move in :attr:`PositionSet.move_values`.
ILLEGAL = np.iinfo(np.int16).min

#: Draws allowed per position asked for before :func:`sample` gives up
#: (boards with no legal move, or without exact values in the budget, are drawn again).
_TRIES_PER_POSITION = 50


@dataclass(frozen=True)
class PositionSet:
    """``n`` positions with exact values; every array's first axis is ``n``."""

    #: Position records (``ayo.Game.from_record`` reads them).
    records: list[str]
    #: ``(n, 14)`` float32: ``ayo.Game.observation("mover")`` of each position.
    observations: npt.NDArray[np.float32]
    #: ``(n, 6)`` bool: the legal actions.
    masks: npt.NDArray[np.bool_]
    #: ``(n,)`` int16: the exact value for the player to move (seeds).
    values: npt.NDArray[np.int16]
    #: ``(n, 6)`` int16: each legal action's exact value; ``ILLEGAL`` elsewhere.
    move_values: npt.NDArray[np.int16]
    #: ``(n, 6)`` bool: the optimal actions (legal, value equal to the best).
    optimal: npt.NDArray[np.bool_]
    #: ``(n,)`` uint8: the seeds on the board.
    seeds: npt.NDArray[np.uint8]

    def __len__(self) -> int:
        return len(self.records)

    def games(self) -> list[Game]:
        """A :class:`ayo.Game` at each position."""
        return [Game(position=r) for r in self.records]


def _board(rng: np.random.Generator, seeds: int) -> list[int]:
    """A board of ``seeds`` seeds, uniform over all such boards (stars and bars)."""
    bars = np.sort(rng.choice(seeds + 11, size=11, replace=False))
    edges = np.concatenate(([-1], bars, [seeds + 11]))
    return [int(x) for x in np.diff(edges) - 1]


def _position_set(games: Sequence[Game], values: Sequence[dict[int, int]]) -> PositionSet:
    n = len(games)
    obs = np.zeros((n, 14), dtype=np.float32)
    masks = np.zeros((n, 6), dtype=np.bool_)
    move_values = np.full((n, 6), ILLEGAL, dtype=np.int16)
    for k, (game, mv) in enumerate(zip(games, values, strict=True)):
        o = game.observation("mover")
        if o.shape != (14,):
            raise AyoError(f"unexpected observation shape {o.shape}")
        obs[k] = o
        masks[k] = game.action_mask()
        for action, value in mv.items():
            move_values[k, action] = value
    best = np.where(masks, move_values, ILLEGAL).max(axis=1)
    optimal = masks & (move_values == best[:, None])
    seeds = np.array([int(g.board.sum()) for g in games], dtype=np.uint8)
    return PositionSet(
        [g.position_record() for g in games],
        obs,
        masks,
        best.astype(np.int16),
        move_values,
        optimal,
        seeds,
    )


def _values(database: Database | CountedDatabase, game: Game, nodes: int | None) -> Any:
    return database.move_values(game, nodes=nodes)


def sample(
    database: Database | CountedDatabase,
    n: int,
    seeds: int | Iterable[int],
    seed: int = 0,
    nodes: int | None = 100_000,
) -> PositionSet:
    """``n`` positions with ``seeds`` seeds on the board (an int, or a range to draw from).

    Each board is uniform over the boards of its seed count; the player to
    move is drawn at random; boards with no legal move are drawn again, and
    so are those whose exact values a search above the layers cannot give
    within ``nodes``. Reproducible for a given ``seed``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10_000_000:
        raise AyoError(f"n must be an int 1..10000000, not {n!r}")
    counts = [seeds] if isinstance(seeds, int) else list(seeds)
    rules = database.rules
    total = rules.total_seeds
    if not counts or any(
        isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= total for c in counts
    ):
        raise AyoError(f"seeds must be counts 1..{total}, not {seeds!r}")
    counted = isinstance(database, CountedDatabase)
    limit = database.limit if isinstance(database, CountedDatabase) else 0
    rng = np.random.default_rng(seed)
    games: list[Game] = []
    values: list[dict[int, int]] = []
    tries = 0
    while len(games) < n:
        tries += 1
        if tries > _TRIES_PER_POSITION * n:
            raise AyoError(
                f"only {len(games)} of {n} positions with exact values found in {tries - 1} draws "
                f"(seeds {counts}, nodes {nodes}): raise nodes or use counts the layers hold"
            )
        k = int(counts[int(rng.integers(len(counts)))])
        stores = [(total - k) // 2, total - k - (total - k) // 2]
        no_capture = int(rng.integers(limit)) if counted else 0
        game = Game.from_setup(
            rules,
            _board(rng, k),
            stores,
            to_move=int(rng.integers(2)),
            no_capture=no_capture,
            ply=no_capture,
        )
        if game.is_over:
            continue
        mv = _values(database, game, nodes)
        if not mv:
            continue
        games.append(game)
        values.append(dict(mv))
    return _position_set(games, values)


def from_positions(
    database: Database | CountedDatabase,
    positions: Iterable[str | Game],
    nodes: int | None = 1_000_000,
) -> PositionSet:
    """The :class:`PositionSet` of given positions (records or games), in order.

    A position with no legal move, or without exact values within
    ``nodes``, raises ``AyoError``.
    """
    games: list[Game] = []
    values: list[dict[int, int]] = []
    for item in positions:
        game = Game(position=item) if isinstance(item, str) else item
        mv = _values(database, game, nodes)
        if mv is None:
            raise AyoError(f"no exact values within {nodes} nodes for {game.position_record()}")
        if not mv:
            raise AyoError(f"{game.position_record()} has no legal move")
        games.append(game)
        values.append(dict(mv))
    if not games:
        raise AyoError("from_positions needs at least one position")
    return _position_set(games, values)
