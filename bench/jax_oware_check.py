#!/usr/bin/env python3
"""Checks the JAX Oware of the search benchmark (bench/jax_oware.py) against ayo.

Plays recorded games through the JAX environment under ``jit`` + ``vmap`` (one
``lax.scan`` over the moves, every game of a set in one batch) and compares,
after every move, the board, the stores, the player to move, the legal action
mask, the terminated flag and the observation (ayo's ``Game.observation()``,
the mover's view) with ayo's, and the final scores of every game
that ended. The games:

* random games of ayo's ``oware[repetition=off,move_limit=N]`` (the rules the
  JAX environment plays exactly, ``N`` its cap on capture-less moves), whole,
  uniformly random legal moves from fixed seeds;
* random games of plain ``oware``, compared up to the move that repeats a
  position (that move and the rest are left out: the JAX state has no
  history) or, should it come first, up to the move that would reach the cap;
* the vectors of tests/vectors/moves-oware.json that fit the JAX state: the
  set-up position, the recorded moves and the vector's move, with its legal
  moves; a move the vector calls illegal must be masked out. Left out: a move
  outside 0..=5 (not an action here) and a vector's move that ends the game by
  repetition (its moves before it are compared).

Prints the counts compared; exits 1 on the first game with a mismatch (and
says where), 0 otherwise.

    python bench/jax_oware_check.py              # 200 + 200 games and the vectors
    python bench/jax_oware_check.py --games 500
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import ayo

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jax_oware

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "vectors" / "moves-oware.json"
SEED = 20_260_101


@dataclass
class Episode:
    """A start position, the moves played from it and ayo's state after each."""

    name: str
    start: tuple[list[int], list[int], int, int, int]  # board, stores, player, no_capture, ply
    actions: list[int] = field(default_factory=list)
    # ayo's state before the first move and after each move.
    boards: list[np.ndarray] = field(default_factory=list)
    stores: list[np.ndarray] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    observations: list[np.ndarray] = field(default_factory=list)
    over: list[bool] = field(default_factory=list)
    scores: tuple[int, int] | None = None
    #: How ayo's game ended (its outcome's reason), or why it was stopped.
    end: str = "not over"


def snapshot(ep: Episode, game: ayo.Game) -> None:
    ep.boards.append(np.asarray(game.board, np.int32))
    ep.stores.append(np.asarray(game.stores, np.int32))
    ep.players.append(game.to_move)
    ep.masks.append(np.asarray(game.action_mask(), bool))
    ep.observations.append(np.asarray(game.observation("mover"), np.float32))
    ep.over.append(game.status == "ended")
    ep.scores = tuple(game.outcome.scores) if game.outcome is not None else None
    ep.end = game.outcome.reason if game.outcome is not None else "not over"


def start_of(game: ayo.Game) -> tuple[list[int], list[int], int, int, int]:
    return (
        [int(x) for x in game.board],
        [int(x) for x in game.stores],
        game.to_move,
        game.no_capture,
        game.ply,
    )


def random_games(
    n: int, seed: int, rules: ayo.Rules, label: str, cap: int
) -> tuple[list[Episode], int]:
    """``n`` uniformly random games; games of plain ``oware`` stop before a
    repetition (or before the cap). Returns the games and how many stopped."""
    out, stopped = [], 0
    for i in range(n):
        rng = random.Random(seed + i)
        game = ayo.Game(rules)
        ep = Episode(f"{label} random game {i} (seed {seed + i})", start_of(game))
        snapshot(ep, game)
        while not game.is_over:
            action = rng.choice(np.flatnonzero(game.action_mask()).tolist())
            if rules.repetition != "off" and game.no_capture + 1 >= cap:
                # The JAX environment's cap may end the game here and ayo's
                # not: stop before (only if the move would not capture).
                probe = game.copy()
                probe.play(action)
                if probe.no_capture >= cap and probe.status != "ended":
                    stopped += 1
                    ep.end = "stopped before the cap"
                    break
            game.play(action)
            if game.outcome is not None and game.outcome.reason == "repetition":
                # Left out with what follows; ep keeps the position before it.
                stopped += 1
                ep.end = "stopped before a repetition"
                break
            ep.actions.append(action)
            snapshot(ep, game)
        out.append(ep)
    return out, stopped


def vector_episodes(path: Path) -> tuple[list[Episode], list[str]]:
    """The vectors as episodes, and the names of those left out (with why)."""
    vectors = json.loads(path.read_text(encoding="utf-8"))["vectors"]
    out, skipped = [], []
    for v in vectors:
        head, _, tail = v["game"].partition("|")
        moves = [int(m) - 1 for m in tail.split()]
        move = int(v["move"]) - 1
        if not 0 <= move < jax_oware.NUM_ACTIONS:
            skipped.append(f"{v['name']} (move {v['move']} is not an action 0..=5)")
            continue
        game = ayo.Game.from_record(head.strip() + " |")
        ep = Episode(v["name"], start_of(game))
        snapshot(ep, game)
        for m in moves:
            game.play(m)
            ep.actions.append(m)
            snapshot(ep, game)
        legal = np.zeros(jax_oware.NUM_ACTIONS, bool)
        legal[[int(p) - 1 for p in v["legal"]]] = True
        if not np.array_equal(legal, ep.masks[-1]):
            raise SystemExit(f"{v['name']}: the vector's legal moves are not ayo's")
        if v["error"] is not None:
            # Illegal: the JAX mask must refuse it (compared through the mask).
            if ep.masks[-1][move]:
                raise SystemExit(f"{v['name']}: ayo calls {v['move']} legal")
        elif (v["outcome"] or {}).get("reason") == "repetition":
            skipped.append(
                f"{v['name']} (its move ends the game by repetition; "
                "the moves before it are compared)"
            )
        else:
            game.play(move)
            ep.actions.append(move)
            snapshot(ep, game)
            assert game.position_record() == v["after"], (v["name"], game.position_record())
        out.append(ep)
    return out, skipped


def run_jax(episodes: list[Episode], cap: int) -> dict[str, np.ndarray]:
    """Every episode through ``jit(scan(vmap(step)))``; returns the states
    before the first move and after each move, ``[game, move, ...]``."""
    length = max(len(ep.actions) for ep in episodes)
    actions = np.zeros((len(episodes), max(length, 1)), np.int32)
    for i, ep in enumerate(episodes):
        actions[i, : len(ep.actions)] = ep.actions
    start = [np.array([ep.start[k] for ep in episodes], np.int32) for k in range(5)]

    @jax.jit
    def play(board: Any, stores: Any, player: Any, no_capture: Any, ply: Any, actions: Any) -> Any:
        state = jax.vmap(lambda *a: jax_oware.from_position(*a, max_no_capture=cap))(
            board, stores, player, no_capture, ply
        )
        step = jax.vmap(lambda s, a: jax_oware.step(s, a, cap))

        def keep(s: jax_oware.State) -> tuple[Any, ...]:
            return (
                s.board,
                s.stores,
                s.current_player,
                s.legal_action_mask,
                s.terminated,
                s.scores,
                s.observation,
            )

        def body(s: jax_oware.State, a: Any) -> tuple[jax_oware.State, tuple[Any, ...]]:
            s = step(s, a)
            return s, keep(s)

        _, after = jax.lax.scan(body, state, actions.T)
        first = keep(state)
        return tuple(
            jnp.concatenate([f[:, None], jnp.swapaxes(a, 0, 1)], axis=1)
            for f, a in zip(first, after, strict=True)
        )

    names = ("board", "stores", "player", "mask", "terminated", "scores", "observation")
    return dict(zip(names, map(np.asarray, play(*start, jnp.asarray(actions))), strict=True))


def compare(episodes: list[Episode], got: dict[str, np.ndarray]) -> tuple[int, int, list[str]]:
    """Returns (moves compared, final scores compared, mismatches)."""
    moves = finals = 0
    bad = []
    for i, ep in enumerate(episodes):
        for t in range(len(ep.actions) + 1):
            want = {
                "board": ep.boards[t],
                "stores": ep.stores[t],
                "player": ep.players[t],
                "mask": ep.masks[t],
                "terminated": ep.over[t],
                "observation": ep.observations[t],
            }
            for k, w in want.items():
                if not np.array_equal(got[k][i, t], w):
                    bad.append(
                        f"{ep.name}, after {t} move(s) "
                        f"(the last: {ep.actions[max(t - 6, 0) : t]}): {k} "
                        f"JAX {got[k][i, t].tolist()} ayo {np.asarray(w).tolist()}"
                    )
                    break
            else:
                moves += t > 0
                continue
            break
        else:
            if ep.over[-1]:
                finals += 1
                last = len(ep.actions)
                if tuple(got["scores"][i, last].tolist()) != ep.scores:
                    bad.append(
                        f"{ep.name}: final scores JAX {got['scores'][i, last]} ayo {ep.scores}"
                    )
    return moves, finals, bad


def check(games: int = 200, seed: int = SEED, cap: int = jax_oware.MAX_NO_CAPTURE) -> int:
    """Runs every comparison, prints the counts; returns the number of mismatches."""
    sets = []
    capped = ayo.Rules("oware", repetition="off", move_limit=cap)
    label = f"oware[repetition=off,move_limit={cap}]"
    eps, _ = random_games(games, seed, capped, label, cap)
    sets.append((f"random games of {label}", eps, ""))
    eps, stopped = random_games(games, seed + 100_000, ayo.Rules("oware"), "oware", cap)
    sets.append(
        ("random games of oware", eps, f"; {stopped} stopped before a repetition or the cap")
    )
    eps, skipped = vector_episodes(VECTORS)
    sets.append((f"vectors of {VECTORS.name}", eps, f"; {len(skipped)} left out"))
    failures = 0
    for name, eps, note in sets:
        moves, finals, bad = compare(eps, run_jax(eps, cap))
        ended = sum(ep.over[-1] for ep in eps)
        ends = ", ".join(f"{n} {why}" for why, n in sorted(Counter(ep.end for ep in eps).items()))
        print(
            f"{name}: {len(eps)} games, {moves} moves compared (board, stores, player, mask, "
            f"terminated, observation), {finals} of {ended} final scores{note} (ends: {ends}): "
            f"{'OK' if not bad else f'{len(bad)} MISMATCHED'}"
        )
        for line in bad[:10]:
            print("  mismatch:", line)
        failures += len(bad)
    for line in skipped:
        print("  left out:", line)
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="random games of each rule set")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; ayo {ayo.__version__}")
    return 1 if check(args.games, args.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
