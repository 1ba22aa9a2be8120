"""The single Gymnasium step under callgrind: its instructions, Python included.

    python bench/step_instructions.py record 40000 actions.json
    valgrind --tool=callgrind python bench/step_instructions.py replay actions.json 20000
    valgrind --tool=callgrind python bench/step_instructions.py replay actions.json 40000

and the batched step of ``AyoVectorEnv`` (1,024 games, one thread):

    python bench/step_instructions.py record-batch 200 oware actions.npz
    valgrind --tool=callgrind python bench/step_instructions.py replay-batch actions.npz 50
    valgrind --tool=callgrind python bench/step_instructions.py replay-batch actions.npz 150

(an env-step's instructions: the difference of the two totals over 100 x 1,024;
the actions drawn as ``bench/run.py`` draws them, an argmax over the masks).

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
from batch_actions import recorded_actions, replay_steps

import ayo  # noqa: F401 (registers ayo/Ayo-v0)
from ayo.vector import AyoVectorEnv

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


GAMES = 1024


def record_batch(steps: int, preset: str, path: str) -> None:
    env = AyoVectorEnv(GAMES, rules=preset, num_threads=1, copy=False)
    actions = np.array(recorded_actions(env, steps, SEED), dtype=np.int64)
    np.savez(path, actions=actions, preset=preset)


def replay_batch(path: str, steps: int) -> None:
    data = np.load(path)
    actions, preset = data["actions"], str(data["preset"])
    if len(actions) < steps:
        raise SystemExit(f"{path} holds {len(actions)} steps, fewer than {steps}")
    rows = [np.ascontiguousarray(a) for a in actions[:steps]]
    env = AyoVectorEnv(GAMES, rules=preset, num_threads=1, copy=False)
    replay_steps(env, rows, SEED)


def main(argv: list[str]) -> None:
    usage = (
        "usage: step_instructions.py record N FILE | replay FILE N"
        " | record-batch N PRESET FILE | replay-batch FILE N"
    )
    if len(argv) == 3 and argv[0] == "record":
        record(int(argv[1]), argv[2])
    elif len(argv) == 3 and argv[0] == "replay":
        replay(argv[1], int(argv[2]))
    elif len(argv) == 4 and argv[0] == "record-batch":
        record_batch(int(argv[1]), argv[2], argv[3])
    elif len(argv) == 3 and argv[0] == "replay-batch":
        replay_batch(argv[1], int(argv[2]))
    else:
        raise SystemExit(usage)


if __name__ == "__main__":
    main(sys.argv[1:])
