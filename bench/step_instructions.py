"""The single Gymnasium step under callgrind: its instructions, Python included.

    python bench/step_instructions.py record 40000 actions.json
    valgrind --tool=callgrind python bench/step_instructions.py replay actions.json 20000
    valgrind --tool=callgrind python bench/step_instructions.py replay actions.json 40000

``record`` plays ``N`` steps of ``gymnasium.make("ayo/Ayo-v0", rules="oware")``
(action: the ``k % legal``-th legal one at step ``k``, resets where an
episode ends) and writes the actions; ``replay`` plays the first ``N`` of them
again from the same seed, ``env.step`` and ``reset`` alone. One step's
instructions are the difference of the two replays' totals over 20,000 (the
start-up cancels out). Run with ``OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0``
so that both runs start up alike.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import gymnasium
import numpy as np

import ayo  # noqa: F401 (registers ayo/Ayo-v0)

SEED = 1


def make() -> Any:
    return gymnasium.make("ayo/Ayo-v0", rules="oware")


def record(steps: int, path: str) -> None:
    env = make()
    obs, _ = env.reset(seed=SEED)
    actions: list[int] = []
    for k in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[k % len(legal)])
        actions.append(action)
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    with open(path, "w") as f:
        json.dump(actions, f)


def replay(path: str, steps: int) -> None:
    with open(path) as f:
        actions: list[int] = json.load(f)[:steps]
    if len(actions) < steps:
        raise SystemExit(f"{path} holds {len(actions)} actions, fewer than {steps}")
    env = make()
    step, reset = env.step, env.reset
    reset(seed=SEED)
    for action in actions:
        _, _, terminated, truncated, _ = step(action)
        if terminated or truncated:
            reset()


def main(argv: list[str]) -> None:
    usage = "usage: step_instructions.py record N FILE | replay FILE N"
    if len(argv) == 3 and argv[0] == "record":
        record(int(argv[1]), argv[2])
    elif len(argv) == 3 and argv[0] == "replay":
        replay(argv[1], int(argv[2]))
    else:
        raise SystemExit(usage)


if __name__ == "__main__":
    main(sys.argv[1:])
