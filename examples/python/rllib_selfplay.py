"""Train PPO on Ayo by self-play with RLlib, against a frozen copy and a computer level.

    python examples/python/rllib_selfplay.py --rules oware --iterations 20 --workers 2

``main`` (RLlib's action-masking PPO module) plays most games against
``frozen``, a copy of itself that is refreshed whenever ``main`` wins more than
``--threshold`` of an iteration's games against it, and ``--level-share`` of
its games against the computer player ``ayo.ai.Player(--level)``. Each
iteration prints main's games and wins against both, its mean return and the
env steps sampled per second; at the end ``main`` plays ``--eval-games``
games against the level outside RLlib (every move checked legal by the
engine) and the script prints one JSON line of figures.

``--address`` joins a running Ray cluster (``ray start --head`` on one
machine, ``ray start --address=HEAD:6379`` on the others, then
``--address auto`` on any of them, or ``--address HEAD:6379``); without it
the script starts a local Ray instance (``--num-cpus`` caps its CPUs).
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from typing import Any

import ray
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig

import ayo
from ayo.ai import Player
from ayo.rllib import (
    AyoMultiAgentEnv,
    SelfPlayCallback,
    module_player,
    multi_module_spec,
    self_play_mapping,
)

MODULES = ("main", "frozen")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--rules", default="oware", help="a preset (%(default)s)")
    p.add_argument("--iterations", type=int, default=20, help="PPO iterations (%(default)s)")
    p.add_argument("--workers", type=int, default=2, help="env runners (%(default)s)")
    p.add_argument("--envs-per-worker", type=int, default=1, help="games per env runner")
    p.add_argument("--address", default=None, help="a Ray cluster to join (e.g. auto)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray")
    p.add_argument("--level", default="2", help="the computer player's level (%(default)s)")
    p.add_argument(
        "--level-share", type=float, default=0.25, help="share of games against the level"
    )
    p.add_argument(
        "--threshold", type=float, default=0.6, help="win rate that refreshes the frozen copy"
    )
    p.add_argument("--batch", type=int, default=2000, help="env steps per iteration")
    p.add_argument("--minibatch", type=int, default=250, help="PPO minibatch size")
    p.add_argument("--epochs", type=int, default=4, help="PPO epochs per iteration")
    p.add_argument("--hiddens", default="128,128", help="MLP layer sizes (%(default)s)")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate (%(default)s)")
    p.add_argument("--eval-games", type=int, default=20, help="games against the level at end")
    p.add_argument("--seed", type=int, default=0, help="seed of the envs and modules")
    p.add_argument("--checkpoint", default=None, help="save the trained algorithm here")
    return p.parse_args(argv)


def level_of(text: str) -> int | str:
    """A level as ayo.ai.Player takes it: an int 1..8 or "max"."""
    return int(text) if text.isdigit() else text


def build_config(args: argparse.Namespace) -> PPOConfig:
    """The PPO configuration of the run."""
    hiddens = [int(h) for h in args.hiddens.split(",")]
    return (
        PPOConfig()
        .environment(
            AyoMultiAgentEnv,
            env_config={
                "rules": args.rules,
                "opponent": level_of(args.level),
                "opponent_share": args.level_share,
            },
        )
        .env_runners(
            num_env_runners=args.workers,
            num_envs_per_env_runner=args.envs_per_worker,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0)
        .multi_agent(
            policies=set(MODULES),
            policy_mapping_fn=self_play_mapping("main", ["frozen"]),
            policies_to_train=["main"],
        )
        .rl_module(rl_module_spec=multi_module_spec(args.rules, MODULES, hiddens=hiddens))
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
        )
        .callbacks(functools.partial(SelfPlayCallback, threshold=args.threshold))
        .debugging(seed=args.seed)
    )


def iteration_figures(result: dict[str, Any]) -> dict[str, Any]:
    """The figures of one training result that the run prints."""
    runners = result.get("env_runners", {})
    steps = float(runners.get("num_env_steps_sampled", 0))
    seconds = float(result.get("time_this_iter_s", 0.0))
    returns = runners.get("module_episode_returns_mean", {})
    figures: dict[str, Any] = {
        "iteration": int(result["training_iteration"]),
        "env_steps": int(steps),
        "episodes": int(runners.get("num_episodes", 0)),
        "main_return_mean": returns.get("main"),
        "seconds": round(seconds, 2),
        "env_steps_per_s": round(steps / seconds, 1) if seconds > 0 else None,
        "frozen_updates": int(result.get("ayo/frozen_updates", 0)),
    }
    for opponent in ("frozen", "computer"):
        games = int(runners.get(f"ayo/games_vs_{opponent}", 0))
        wins = int(runners.get(f"ayo/wins_vs_{opponent}", 0))
        figures[f"vs_{opponent}"] = f"{wins}/{games}"
    return figures


def train(args: argparse.Namespace) -> tuple[Algorithm, list[dict[str, Any]]]:
    """Build the algorithm and run ``args.iterations`` PPO iterations."""
    algo = build_config(args).build_algo()
    history = []
    for _ in range(args.iterations):
        figures = iteration_figures(algo.train())
        history.append(figures)
        print(json.dumps(figures), flush=True)
    return algo, history


def play_against_level(
    algo: Algorithm, rules: str, level: int | str, games: int, seed: int = 0
) -> dict[str, int]:
    """``main`` against ``Player(level)`` outside RLlib, seats alternating.

    Every move goes through ``ayo.Game.play``, which refuses an illegal one
    (``ayo.IllegalMoveError``); returns main's wins, draws, losses and moves.
    """
    main = module_player(algo.get_module("main"))
    tally = {"wins": 0, "draws": 0, "losses": 0, "moves": 0}
    for g in range(games):
        computer = Player(level, seed=seed + g)
        main_seat = g % 2
        game = ayo.Game(rules)
        while not game.is_over and game.ply < 400:
            if game.to_move == main_seat:
                game.play(main(game))
                tally["moves"] += 1
            else:
                game.play(computer(game))
        outcome = game.outcome
        if outcome is None or outcome.winner is None:
            tally["draws"] += 1
        elif outcome.winner == main_seat:
            tally["wins"] += 1
        else:
            tally["losses"] += 1
    return tally


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, play the level, print and return the run's figures."""
    args = parse_args(argv)
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus)
    try:
        start = time.perf_counter()
        algo, history = train(args)
        train_seconds = time.perf_counter() - start
        level = level_of(args.level)
        tally = play_against_level(algo, args.rules, level, args.eval_games, args.seed)
        runner_nodes = algo.env_runner_group.foreach_env_runner(
            lambda _: ray.get_runtime_context().get_node_id(), local_env_runner=False
        )
        steps = sum(h["env_steps"] for h in history)
        summary = {
            "rules": args.rules,
            "iterations": len(history),
            "workers": args.workers,
            "ray_nodes": sum(1 for node in ray.nodes() if node["Alive"]),
            "env_runner_nodes": len(set(runner_nodes)),
            "env_steps": steps,
            "train_seconds": round(train_seconds, 1),
            "env_steps_per_s": round(steps / train_seconds, 1),
            "last_main_return_mean": history[-1]["main_return_mean"] if history else None,
            "frozen_updates": history[-1]["frozen_updates"] if history else 0,
            "vs_level": {"level": str(level), **tally},
        }
        if args.checkpoint:
            summary["checkpoint"] = str(algo.save_to_path(args.checkpoint))
        algo.stop()
        print(json.dumps(summary), flush=True)
        return summary
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
