"""A/B of two builds of the ``ayo`` package in one process: the batched step.

    python bench/ab_python.py DIR_A DIR_B [--preset oware] [--rounds 40] [--threads 1]
                                          [--games 1024]

``DIR_A`` and ``DIR_B`` each hold a copy of the package renamed (``ayo_a``,
``ayo_b``: ``bench/ab_python.sh`` makes them). One ``AyoVectorEnv`` of
``GAMES`` games (1,024) is made from each; the actions of 500 steps are drawn once (a numpy
argmax over the masks, as ``bench/run.py``) and replayed by both, in
alternated order, ``ROUNDS`` times. Printed: each side's best env-steps/s
and the median (with quartiles) of the rounds' speed ratios A/B. A slow
stretch of the host falls on both sides of a round alike.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from typing import Any

import numpy as np
from batch_actions import recorded_actions, replay_steps

STEPS = 500
SEED = 1


def load(directory: str, name: str, preset: str, threads: int, games: int) -> Any:
    sys.path.insert(0, directory)
    vector = importlib.import_module(f"{name}.vector")
    return vector.AyoVectorEnv(games, rules=preset, num_threads=threads, copy=False)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir_a")
    p.add_argument("dir_b")
    p.add_argument("--preset", default="oware")
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--games", type=int, default=1024)
    args = p.parse_args()
    envs = {
        "A": load(args.dir_a, "ayo_a", args.preset, args.threads, args.games),
        "B": load(args.dir_b, "ayo_b", args.preset, args.threads, args.games),
    }
    actions = recorded_actions(envs["A"], STEPS, SEED)
    for env in envs.values():
        replay_steps(env, actions, SEED)  # warm-up
    times: dict[str, list[float]] = {"A": [], "B": []}
    ratios = []
    for r in range(args.rounds):
        t = {
            side: replay_steps(envs[side], actions, SEED) for side in ("AB" if r % 2 == 0 else "BA")
        }
        for side in "AB":
            times[side].append(t[side])
        ratios.append(t["B"] / t["A"])
    best = {side: STEPS * args.games / min(times[side]) / 1e6 for side in "AB"}
    q1, q3 = np.quantile(ratios, [0.25, 0.75])
    print(
        f"{args.preset}, {args.games} games, {args.threads} thread(s), {args.rounds} rounds: "
        f"A best {best['A']:.2f}M env-steps/s, B best {best['B']:.2f}M; "
        f"A/B speed median {statistics.median(ratios):.3f} (quartiles {q1:.3f}..{q3:.3f})"
    )


if __name__ == "__main__":
    main()
