#!/usr/bin/env python3
"""Throughput of the environments and pictures: ``python bench/env_step.py``.

Plays masked uniformly random agents for a fixed number of steps in each
preset and prints steps per second for the Gymnasium environment (each step is
the agent's move and the opponent's reply), the PettingZoo environment (each
step is one move), and how many SVG boards and RGB images are drawn per
second. Wall-clock numbers: run it on an idle machine and compare runs on the
same machine only.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from ayo import display
from ayo._ayo import Game, Rules
from ayo.envs.ayo_env import AyoEnv

__all__ = ["main", "measure"]


def measure(work: Callable[[], int], *, repeat: int = 3) -> float:
    """The best rate (units per second) of ``repeat`` runs of ``work``.

    ``work`` does its job and returns how many units it did.
    """
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        units = work()
        best = max(best, units / (time.perf_counter() - start))
    return best


def gym_steps(preset: str, steps: int) -> int:
    """Play ``steps`` agent steps of :class:`AyoEnv` with a masked random agent."""
    env = AyoEnv(preset)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    return steps


def pettingzoo_steps(preset: str, steps: int) -> int:
    """Play ``steps`` moves of the PettingZoo environment with masked random agents."""
    from ayo.pettingzoo import raw_env

    env = raw_env(rules=preset)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return steps


def pictures(preset: str, count: int, draw: Callable[[Game], object]) -> int:
    """Draw ``count`` pictures of a mid-game position."""
    game = Game(Rules(preset))
    rng = np.random.default_rng(0)
    for _ in range(10):
        if not game.is_over:
            game.play(int(rng.choice(game.legal_moves())))
    for _ in range(count):
        draw(game)
    return count


def main(argv: list[str] | None = None) -> None:
    """Print the rates for every preset (``--steps`` sets the run length)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per run (default 20000)")
    args = parser.parse_args(argv)
    steps = max(1, args.steps)
    print(f"{'preset':8} {'gym steps/s':>12} {'pz moves/s':>12} {'svg/s':>8} {'rgb/s':>8}")
    for preset in Rules.presets():
        gym = measure(partial(gym_steps, preset, steps))
        try:
            pz = f"{measure(partial(pettingzoo_steps, preset, steps)):12.0f}"
        except ImportError:
            pz = f"{'-':>12}"
        svg = measure(partial(pictures, preset, 200, display.svg))
        rgb = measure(partial(pictures, preset, 500, display.rgb_array))
        print(f"{preset:8} {gym:12.0f} {pz} {svg:8.0f} {rgb:8.0f}")


if __name__ == "__main__":
    main()
