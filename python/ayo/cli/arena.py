"""``ayo arena``: a round robin between levels or players, with a rating table.

The games, pairings and ratings are :mod:`ayo.eval`'s; this module turns
player specs into agents and prints.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from ayo import Rules
from ayo.ai import Player
from ayo.cli.common import UsageError
from ayo.cli.player_specs import player_spec
from ayo.eval import PairResult, Seeded, round_robin

__all__ = ["arena"]


def _seeded(spec: str, perfect: Player | None) -> Seeded:
    return Seeded(lambda seed: player_spec(spec, seed, perfect))


def arena(
    rules: Rules,
    specs: Sequence[str],
    games: int,
    seed: int,
    out: TextIO,
    openings: int = 2,
    ply_cap: int = 500,
    perfect: Player | None = None,
) -> int:
    """``ayo arena``: a round robin, colours alternated, with Bradley-Terry ratings.

    Pairing and seeds as :func:`ayo.eval.round_robin` (the players of game
    ``g`` of a pair have seeds ``seed + g`` and ``seed + g + 7919``, modulo
    2**64). Ratings are anchored at level 1 (uniformly random) when it
    plays, else at the first player. ``perfect`` is the player that
    ``perfect`` in ``specs`` stands for.
    """
    if len(specs) < 2:
        raise UsageError("--levels needs at least two levels or players")
    for spec in specs:
        player_spec(spec, seed, perfect)  # every spec is checked before any game
    started = time.monotonic()
    name = rules.preset or "custom"
    out.write(
        f"Arena: {' '.join(specs)}; {games} games a pair, colours alternated, "
        f"{openings} random opening plies; rules {name}\n"
        "Each row: the first player's wins, draws and losses, score, and Elo difference "
        "with a 95% interval (one virtual draw added).\n"
    )
    width = max(len(x) for x in specs)

    def report(first: str, second: str, pair: PairResult) -> None:
        elo, lo, hi = pair.elo()
        out.write(
            f"  {first:<{width}} vs {second:<{width}}  "
            f"+{pair.wins} ={pair.draws} -{pair.losses}  score {pair.score:.3f}  "
            f"Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]\n"
        )
        out.flush()

    # Names must be unique for the round robin; a spec given twice gets a suffix.
    names: list[str] = []
    for spec in specs:
        names.append(spec if spec not in names else f"{spec}#{names.count(spec) + 1}")
    agents = {n: _seeded(s, perfect) for n, s in zip(names, specs, strict=True)}
    tournament = round_robin(agents, rules, games, seed, openings, ply_cap, progress=report)
    anchor = "1" if "1" in names else names[0]
    out.write(f"\nRatings (Bradley-Terry on the Elo scale, {anchor} = 0, 95% intervals):\n")
    for r in tournament.ratings(anchor):
        out.write(f"  {r.name:<{width}}  {r.elo:+7.0f}  [{r.low:+.0f}, {r.high:+.0f}]\n")
    out.write(f"\n{len(tournament.pairs) * games} games in {time.monotonic() - started:.1f}s\n")
    return 0
