"""ayo.rllib and examples/python/rllib_selfplay.py, with ray[rllib] and torch (ci/rllib.sh)."""

from __future__ import annotations

import doctest
import importlib.util
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import ray
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

import ayo
import ayo.pettingzoo
import ayo.rllib
from ayo._ayo import EpisodeOverError
from ayo.ai import Player
from ayo.rllib import (
    AGENTS,
    COMPUTER_GAME_AGENTS,
    AyoMultiAgentEnv,
    module_player,
    module_spec,
    observation_space,
    self_play_mapping,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "rllib_selfplay.py"
PRESETS = ayo.Rules.presets()


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rllib_selfplay", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_random_game(
    env: AyoMultiAgentEnv, rng: np.random.Generator, seed: int | None = None
) -> tuple[list[tuple[str, int]], dict[str, float], tuple[Any, ...]]:
    """One game of uniformly random legal moves: (agent, action) moves, returns, last step."""
    obs, _ = env.reset(seed=seed)
    moves: list[tuple[str, int]] = []
    returns: dict[str, float] = {}
    while True:
        assert len(obs) == 1, obs
        ((agent, o),) = obs.items()
        assert o in env.get_observation_space(agent)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        moves.append((agent, action))
        last = env.step({agent: action})
        obs, rewards, terminated, truncated, _ = last
        for a, r in rewards.items():
            returns[a] = returns.get(a, 0.0) + r
        if terminated["__all__"] or truncated["__all__"]:
            return moves, returns, last


@pytest.mark.parametrize("preset", PRESETS)
def test_rllib_checker_and_self_play_games(preset: str) -> None:
    env = AyoMultiAgentEnv({"rules": preset})
    check_multiagent_environments(env)
    rng = np.random.default_rng(1)
    for g in range(5):
        moves, returns, (obs, _, terminated, truncated, infos) = play_random_game(env, rng, seed=g)
        assert {a for a, _ in moves} == set(AGENTS)
        assert sorted(obs) == sorted(AGENTS) == sorted(infos)
        for o in obs.values():
            assert not o["action_mask"].any()
        outcome = infos["player_0"]["outcome"]
        assert outcome == env.game.outcome
        if terminated["__all__"]:
            # win_loss: +1/-1 or 0/0, from the engine's outcome.
            assert returns["player_0"] == outcome.result_for(0)
            assert returns["player_1"] == -returns["player_0"]
        else:
            assert truncated["__all__"]
            assert len(moves) == 400


@pytest.mark.parametrize("preset", PRESETS)
def test_same_games_as_the_pettingzoo_env(preset: str) -> None:
    """Both are the core's turn loop: the same moves give the same observations and rewards."""
    env = AyoMultiAgentEnv(rules=preset, reward="seed_difference")
    moves, _, _ = play_random_game(env, np.random.default_rng(7))
    pz = ayo.pettingzoo.env(rules=preset, reward="seed_difference")
    pz.reset()
    replay = AyoMultiAgentEnv(rules=preset, reward="seed_difference")
    obs, _ = replay.reset()
    for agent, action in moves:
        assert pz.agent_selection == agent
        pz_obs = pz.observe(agent)
        np.testing.assert_array_equal(obs[agent]["observations"], pz_obs["observation"])
        np.testing.assert_array_equal(obs[agent]["action_mask"], pz_obs["action_mask"])
        pz.step(action)
        obs, rewards, *_ = replay.step({agent: action})
        for a in AGENTS:
            assert rewards[a] == pz.rewards[a]
    assert replay.game == pz.unwrapped.game


def test_any_rules_and_spaces() -> None:
    rules = ayo.Rules("ayoayo", seeds_per_pit=3)
    env = AyoMultiAgentEnv(rules=rules)
    space = env.get_observation_space("player_1")
    assert space == observation_space(rules)
    assert space["observations"].high.max() == 36
    assert space["action_mask"].dtype == np.float32
    obs, _ = env.reset()
    assert obs["player_0"]["observations"].tolist() == [3.0] * 12 + [0.0, 0.0]
    play_random_game(env, np.random.default_rng(0))


def test_games_against_the_computer() -> None:
    env = AyoMultiAgentEnv(rules="oware", opponent=3, opponent_seat="alternate")
    check_multiagent_environments(env)
    rng = np.random.default_rng(2)
    seats = []
    for g in range(4):
        seed = 0 if g == 0 else None
        moves, returns, (obs, _, _, _, infos) = play_random_game(env, rng, seed)
        assert env.computer_game
        (agent,) = {a for a, _ in moves}
        seats.append(COMPUTER_GAME_AGENTS.index(agent))
        assert list(obs) == list(returns) == list(infos) == [agent]
        assert returns[agent] == infos[agent]["outcome"].result_for(seats[-1])
        # The computer's moves are in the game: more moves than the agent's.
        assert len(env.game.moves) > len(moves)
    assert seats == [0, 1, 0, 1]


def test_opponent_share_mixes_the_games() -> None:
    env = AyoMultiAgentEnv(rules="ayoayo", opponent=1, opponent_share=0.5)
    kinds = []
    for g in range(40):
        env.reset(seed=100 if g == 0 else None)
        kinds.append(env.computer_game)
    assert 5 < sum(kinds) < 35
    again = AyoMultiAgentEnv(rules="ayoayo", opponent=1, opponent_share=0.5)
    replay = []
    for g in range(40):
        again.reset(seed=100 if g == 0 else None)
        replay.append(again.computer_game)
    assert replay == kinds


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown AyoMultiAgentEnv options"):
        AyoMultiAgentEnv(rule="oware")
    with pytest.raises(ValueError, match="not a level"):
        AyoMultiAgentEnv(opponent=12)
    with pytest.raises(ValueError, match="opponent_share"):
        AyoMultiAgentEnv(opponent=1, opponent_share=1.5)
    with pytest.raises(ValueError, match="max_plies"):
        AyoMultiAgentEnv(max_plies=0)
    with pytest.raises(ayo.AyoError):
        AyoMultiAgentEnv(reward="points")
    env = AyoMultiAgentEnv(rules="oware", opponent=1)
    with pytest.raises(EpisodeOverError):
        env.step({"player_0_vs_computer": 0})
    env = AyoMultiAgentEnv(rules="oware")
    with pytest.raises(EpisodeOverError):
        env.step({"player_0": 0})
    env.reset()
    with pytest.raises(ValueError, match="player_0 is to move"):
        env.step({"player_1": 0})
    env.step({"player_0": 0})
    env.step({"player_1": 0})
    before = env.game
    with pytest.raises(ayo.IllegalMoveError):
        env.step({"player_0": 0})  # South's pit 0 is empty
    assert env.game == before


def test_penalized_illegal_action_ends_the_game() -> None:
    env = AyoMultiAgentEnv(rules="oware", illegal_action="penalize", illegal_reward=-2.0)
    env.reset()
    env.step({"player_0": 0})
    env.step({"player_1": 0})
    obs, rewards, terminated, _, infos = env.step({"player_0": 0})  # pit 0 is empty
    assert terminated["__all__"]
    assert rewards == {"player_0": -2.0, "player_1": 0.0}
    assert infos["player_0"] == {"illegal_action": 0}
    assert sorted(obs) == sorted(AGENTS)


def test_self_play_mapping() -> None:
    mapping = self_play_mapping("main", ["a", "b"])

    class Episode:
        def __init__(self, id_: str) -> None:
            self.id_ = id_

    main_seats = []
    opponents: set[str] = set()
    for i in range(200):
        ep = Episode(f"{i:032x}")
        modules = [mapping(agent, ep) for agent in AGENTS]
        assert modules.count("main") == 1
        main_seats.append(modules.index("main"))
        opponents.update(m for m in modules if m != "main")
        for agent in COMPUTER_GAME_AGENTS:
            assert mapping(agent, ep) == "main"
    assert 60 < sum(main_seats) < 140
    assert opponents == {"a", "b"}


def test_masked_module_plays_legal_moves_only() -> None:
    """An untrained module of module_spec: sampling and argmax stay on legal actions."""
    torch.manual_seed(0)
    module = module_spec("oware", hiddens=(16,)).build()
    player = module_player(module)
    rng = np.random.default_rng(3)
    for _ in range(20):
        game = ayo.Game("oware")
        while not game.is_over and game.ply < 300:
            mask = game.action_mask()
            assert game.is_legal(player(game))
            batch = {
                Columns.OBS: {
                    "observations": torch.from_numpy(game.observation("mover"))[None],
                    "action_mask": torch.from_numpy(mask.astype(np.float32))[None],
                }
            }
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
            sampled = torch.distributions.Categorical(logits=logits).sample((32,))
            assert mask[sampled.numpy()].all()
            game.play(int(rng.choice(np.flatnonzero(mask))))


def test_doctest() -> None:
    result = doctest.testmod(ayo.rllib)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.parametrize("preset", ["oware", "ayoayo"])
def test_ppo_self_play_on_a_local_cluster(local_ray: None, preset: str) -> None:
    """Two PPO iterations with two env runners; the trained main plays legal moves only."""
    example = load_example()
    args = example.parse_args(
        ["--rules", preset, "--iterations", "2", "--workers", "2", "--batch", "500",
         "--minibatch", "125", "--epochs", "2", "--level", "2", "--level-share", "0.5"]
    )  # fmt: skip
    print(f"\nPPO self-play on {preset}:")
    algo, history = example.train(args)
    try:
        assert [h["iteration"] for h in history] == [1, 2]
        for h in history:
            assert h["env_steps"] >= 500
            assert h["episodes"] > 0
            assert h["main_return_mean"] is not None
            games = [int(v.split("/")[1]) for k, v in h.items() if k.startswith("vs_")]
            assert sum(games) > 0
        main = module_player(algo.get_module("main"))
        frozen = module_player(algo.get_module("frozen"))
        for g in range(6):
            computer = Player(2, seed=g)
            players: list[Callable[[ayo.Game], int]] = (
                [main, computer] if g % 2 == 0 else [computer, main]
            )
            if g >= 4:
                players = [main, frozen]
            game = ayo.Game(preset)
            while not game.is_over and game.ply < 400:
                action = players[game.to_move](game)
                assert game.is_legal(action), (game.position_record(), action)
                game.play(action)
        tally = example.play_against_level(algo, preset, 2, 4)
        print(json.dumps({"rules": preset, "vs_level_2": tally}))
        assert tally["wins"] + tally["draws"] + tally["losses"] == 4
    finally:
        algo.stop()
