"""The actions of the batched benchmarks: drawn by one numpy policy (an
argmax over the legal masks times fixed noise), recorded in an untimed
pass, and replayed from the same seeds so that only ``step`` is timed.
Shared by ``run.py``, ``ab_python.py`` and ``step_instructions.py``; the
environment is any ``AyoVectorEnv`` (also a renamed copy of the package)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np


def policy_steps(env: Any, steps: int, record: list[Any] | None, seed: int) -> float:
    """``steps`` steps of ``env`` from ``seed``, each action an argmax of the
    masks times noise drawn from ``seed``; the seconds they took. The
    actions are appended to ``record`` when given."""
    noise = np.random.default_rng(seed).random((97, env.num_envs, 6))
    env.reset(seed=seed)
    masks = env.action_masks()  # rewritten in place by every step
    t = time.perf_counter()
    for k in range(steps):
        actions = np.argmax(masks * noise[k % 97], axis=1)
        if record is not None:
            record.append(actions)
        env.step(actions)
    return time.perf_counter() - t


def recorded_actions(env: Any, steps: int, seed: int) -> list[Any]:
    """The actions of ``policy_steps`` (an untimed pass)."""
    recorded: list[Any] = []
    policy_steps(env, steps, recorded, seed)
    return recorded


def replay_steps(env: Any, recorded: list[Any], seed: int) -> float:
    """The seconds ``env`` takes to replay ``recorded`` from ``seed``."""
    env.reset(seed=seed)
    step = env.step
    t = time.perf_counter()
    for actions in recorded:
        step(actions)
    return time.perf_counter() - t
