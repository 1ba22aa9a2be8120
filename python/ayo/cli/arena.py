"""``ayo arena``: a round robin between levels or players, with an Elo table.

The game loop and the pairing are here; the ratings are :mod:`ayo.cli.elo`'s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from ayo import Game, Rules
from ayo.ai import Player
from ayo.cli.common import UsageError, seed_plus
from ayo.cli.elo import _elo_interval, _Pair, elo_table
from ayo.cli.player_specs import player_spec

__all__ = ["arena"]


def _play_one(
    rules: Rules, south: Player, north: Player, opening: Sequence[int], ply_cap: int
) -> int | None:
    """One game after the ``opening`` actions; the winner (None: a draw or the cap)."""
    game = Game(rules)
    game.ply_cap = ply_cap
    for action in opening:
        if game.status != "ongoing":
            break
        game.play(action)
    seats = (south, north)
    while game.status == "ongoing":
        game.play(seats[game.to_move].choose(game))
    outcome = game.outcome
    return outcome.winner if outcome is not None else None


def _opening(rules: Rules, plies: int, seed: int) -> list[int]:
    """``plies`` uniformly random moves (ayo.ai's random player, seeded)."""
    game = Game(rules)
    chooser = Player(1, seed=seed)
    actions = []
    for _ in range(plies):
        if game.is_over:
            break
        action = chooser.choose(game)
        game.play(action)
        actions.append(action)
    return actions


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
    """``ayo arena``: a round robin, colours alternated, with an Elo table.

    Games ``2k`` and ``2k+1`` of a pair start from the same ``openings``
    random plies (seed ``seed + k``) with the colours swapped; the players
    of game ``g`` have seeds ``seed + g`` and ``seed + g + 7919`` (modulo 2**64).
    ``perfect`` is the player that ``perfect`` in ``specs`` stands for.
    """
    if len(specs) < 2:
        raise UsageError("--levels needs at least two levels or players")
    for spec in specs:
        player_spec(spec, seed, perfect)  # every spec is checked before any game
    results: dict[tuple[int, int], _Pair] = {}
    started = time.monotonic()
    name = rules.preset or "custom"
    out.write(
        f"Arena: {' '.join(specs)}; {games} games a pair, colours alternated, "
        f"{openings} random opening plies; rules {name}\n"
        "Each row: the first player's wins, draws and losses, score, and Elo difference "
        "with a 95% interval (one virtual draw added).\n"
    )
    width = max(len(x) for x in specs)
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            pair = _Pair()
            for g in range(games):
                a = player_spec(specs[i], seed_plus(seed, g), perfect)
                b = player_spec(specs[j], seed_plus(seed, g + 7919), perfect)
                a_south = g % 2 == 0
                south, north = (a, b) if a_south else (b, a)
                opening = _opening(rules, openings, seed_plus(seed, g // 2))
                winner = _play_one(rules, south, north, opening, ply_cap)
                if winner is None:
                    pair.draws += 1
                elif (winner == 0) == a_south:
                    pair.wins += 1
                else:
                    pair.losses += 1
            results[(i, j)] = pair
            elo, lo, hi = _elo_interval(pair)
            out.write(
                f"  {specs[i]:<{width}} vs {specs[j]:<{width}}  "
                f"+{pair.wins} ={pair.draws} -{pair.losses}  score {pair.score:.3f}  "
                f"Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]\n"
            )
            out.flush()
    ratings = elo_table(specs, results)
    out.write(f"\nRatings (Elo, {specs[0]} = 0):\n")
    for k in sorted(range(len(specs)), key=lambda k: -ratings[k]):
        out.write(f"  {specs[k]:<{width}}  {ratings[k]:+7.0f}\n")
    out.write(f"\n{len(results) * games} games in {time.monotonic() - started:.1f}s\n")
    return 0
