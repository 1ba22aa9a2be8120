"""The guided search with a network in the loop, and batched self-play on it.

:class:`GuidedSearch` searches many games' trees together: each round
``leaves()`` hands out at most one leaf a tree as ``(obs, mask)`` numpy
arrays (float32 ``(n, 14)``, the environments' mover-perspective
observation, and bool ``(n, 6)``), and ``tell(logits, values)`` takes the
network's answer; ``run(games, evaluate)`` does both until the search is
done. :func:`self_play` plays games to the end with a search at every move
and returns the training rows. See ``docs/search.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ayo._ayo import GuidedSearch, Network, Rules, SearchError, SelfPlay

__all__ = ["GuidedSearch", "SearchError", "SelfPlay", "SelfPlayData", "self_play"]

Evaluate = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.ArrayLike, npt.ArrayLike]
]


@dataclass(frozen=True)
class SelfPlayData:
    """The rows of a self-play run: one a move, and each game's end."""

    obs: npt.NDArray[np.float32]
    """The mover's observation before each move, ``(m, 14)``."""
    mask: npt.NDArray[np.bool_]
    """Its legal actions, ``(m, 6)``."""
    policy: npt.NDArray[np.float32]
    """The search's policy target, ``(m, 6)``."""
    outcome: npt.NDArray[np.float32]
    """The game's final outcome for the row's mover, ``(m,)`` (0 if truncated)."""
    game: npt.NDArray[np.uint32]
    """The game of each row."""
    ply: npt.NDArray[np.uint32]
    """The ply of each row in its game."""
    scores: npt.NDArray[np.int16]
    """Each game's final scores, ``(games, 2)`` (0 if truncated)."""
    winner: npt.NDArray[np.int8]
    """Each game's winner: 0 South, 1 North, -1 a draw or truncated."""
    plies: npt.NDArray[np.uint32]
    """Each game's moves."""
    truncated: npt.NDArray[np.bool_]
    """Whether each game was stopped at ``max_plies``."""


def self_play(
    rules: Rules | str,
    evaluate: Evaluate | Network,
    *,
    games: int = 64,
    simulations: int = 32,
    max_plies: int = 500,
    temperature_plies: int = 30,
    method: Literal["puct", "gumbel"] = "puct",
    values: Literal["outcome", "seed_difference"] = "outcome",
    seed: int = 0,
    **search: Any,
) -> SelfPlayData:
    """Play ``games`` games of ``rules`` to the end with a search of
    ``simulations`` at every move, ``evaluate(obs, mask)`` answering every
    round with ``(logits, values)``; the training rows. An
    :class:`ayo.Network` as ``evaluate`` answers in Rust: the whole run then
    releases the GIL and calls no Python.

    ``search`` takes the other options of :class:`GuidedSearch`
    (``c_puct``, ``dirichlet_alpha``, ``dirichlet_fraction``,
    ``temperature``, ``max_considered``, ``gumbel_scale``, ``c_visit``,
    ``c_scale``). The first ``temperature_plies`` moves of each game are
    drawn at the search's temperature (PUCT), later ones are the most
    visited.
    """
    sp = SelfPlay(
        rules,
        games=games,
        simulations=simulations,
        max_plies=max_plies,
        temperature_plies=temperature_plies,
        method=method,
        values=values,
        seed=seed,
        **search,
    )
    d = sp.run(evaluate)
    return SelfPlayData(
        obs=d["obs"],
        mask=d["mask"],
        policy=d["policy"],
        outcome=d["outcome"],
        game=d["game"],
        ply=d["ply"],
        scores=d["scores"],
        winner=d["winner"],
        plies=d["plies"],
        truncated=d["truncated"],
    )
