"""Elo arithmetic for ``ayo arena``: a pair's score and interval, and a rating table.

Only counts and fits: the games themselves are :mod:`ayo.cli.arena`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["elo_table"]


@dataclass
class _Pair:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5


def _elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _elo_interval(pair: _Pair) -> tuple[float, float, float]:
    """The Elo difference and its 95% interval, from the score with one virtual draw.

    The virtual draw (half a point in one more game) keeps a clean sweep
    finite; the interval is the normal approximation of the score.
    """
    n = pair.games + 1
    s = (pair.wins + 0.5 * pair.draws + 0.5) / n
    half = 1.96 * math.sqrt(s * (1 - s) / n)
    lo = _elo(s - half) if s - half > 0 else -math.inf
    hi = _elo(s + half) if s + half < 1 else math.inf
    return _elo(s), lo, hi


def elo_table(names: Sequence[str], results: dict[tuple[int, int], _Pair]) -> list[float]:
    """Ratings (Elo scale, the first level at 0) fitted to every pair's score.

    A Bradley-Terry fit by the minorisation-maximisation iteration, with one
    virtual draw against each opponent so that a clean sweep stays finite.
    """
    k = len(names)
    strength = [1.0] * k
    for _ in range(2000):
        new = []
        for i in range(k):
            won, denom = 0.0, 0.0
            for j in range(k):
                if i == j:
                    continue
                p = results.get((i, j)) if (i, j) in results else None
                q = results.get((j, i))
                n, w = 1.0, 0.5  # the virtual draw
                if p is not None:
                    n += p.games
                    w += p.wins + 0.5 * p.draws
                if q is not None:
                    n += q.games
                    w += q.losses + 0.5 * q.draws
                won += w
                denom += n / (strength[i] + strength[j])
            new.append(won / denom if denom else strength[i])
        norm = new[0]
        new = [x / norm for x in new]
        delta = max(abs(a - b) for a, b in zip(new, strength, strict=True))
        strength = new
        if delta < 1e-10:
            break
    return [400.0 * math.log10(x) for x in strength]
