"""The PettingZoo AEC environment (python/ayo/pettingzoo.py)."""

from __future__ import annotations

import copy
import doctest
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest

import ayo

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import ayo.pettingzoo
from ayo.pettingzoo import AGENTS, env, raw_env

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]


def random_game(e: Any, seed: int) -> list[Any]:
    """Play ``e`` to the end with masked random actions.

    Returns ``(agent, observation, reward, terminated, truncated)`` for every
    turn of ``agent_iter``.
    """
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    log = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        log.append((agent, obs["observation"].tolist(), reward, terminated, truncated))
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return log


# api_test warns about every dict observation (as for PettingZoo's own classic games).
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset: str) -> None:
    api_test(env(rules=preset), num_cycles=1000)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("preset", PRESETS)
def test_api_test_options(preset: str) -> None:
    api_test(
        env(rules=preset, perspective="absolute", reward="seed_difference", max_plies=30),
        num_cycles=300,
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_test(preset: str) -> None:
    seed_test(lambda: env(rules=preset), num_cycles=500)


def test_agents_and_spaces() -> None:
    e = raw_env(rules="oware")
    e.reset()
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.agent_selection == "player_0"
    space = e.observation_space("player_1")
    assert isinstance(space, gymnasium.spaces.Dict)
    assert space["observation"].shape == (14,)
    assert space["action_mask"].dtype == np.int8
    assert e.action_space("player_0") == gymnasium.spaces.Discrete(6)


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_follow_the_game(preset: str) -> None:
    e = raw_env(rules=preset)
    e.reset()
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        seat = AGENTS.index(agent)
        game = e.game
        assert game.to_move == seat
        np.testing.assert_array_equal(obs["observation"], game.observation("mover"))
        np.testing.assert_array_equal(obs["action_mask"], game.action_mask().astype(np.int8))
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
        other = e.observe(AGENTS[1 - seat])
        assert not other["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("preset", PRESETS)
def test_win_loss_rewards(preset: str) -> None:
    for seed in range(10):
        e = raw_env(rules=preset)
        log = random_game(e, seed)
        outcome = e.game.outcome
        assert outcome is not None
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent, _, reward, terminated, _ in log:
            totals[agent] += reward
            assert reward == 0.0 or terminated
        for seat, agent in enumerate(AGENTS):
            assert totals[agent] == outcome.result_for(seat)
        assert e.infos == {}
        assert e.agents == []


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_difference_rewards(preset: str) -> None:
    e = raw_env(rules=preset, reward="seed_difference")
    rng = np.random.default_rng(3)
    e.reset()
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = e.game.outcome
    assert outcome is not None
    south, north = outcome.scores
    assert totals == {"player_0": south - north, "player_1": north - south}


def test_truncation() -> None:
    e = raw_env(rules="oware", max_plies=5)
    log = random_game(e, 0)
    truncated = [entry for entry in log if entry[4]]
    assert len(truncated) == 2
    assert e.game.ply == 5
    assert e.game.outcome is None


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(rules="oware")
    e.reset()
    e.step(0)  # South empties pit 0
    e.step(0)  # North empties pit 6
    before = e.game.record()
    with pytest.raises(ayo.IllegalMoveError):
        e.step(0)
    assert e.game.record() == before
    assert e.agent_selection == "player_0"
    assert not any(e.terminations.values())


def test_illegal_action_penalized() -> None:
    e = raw_env(rules="oware", illegal_action="penalize", illegal_reward=-3)
    e.reset()
    e.step(0)
    e.step(0)
    before = e.game.record()
    e.step(0)
    assert e.game.record() == before
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": -3.0, "player_1": 0.0}
    assert e.infos["player_0"]["illegal_action"] == 0
    _, reward, terminated, _, _ = e.last()
    assert terminated
    assert reward == -3.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "bao"},
        {"perspective": "top"},
        {"reward": "points"},
        {"illegal_action": "skip"},
        {"max_plies": 0},
        {"render_mode": "human"},
    ],
)
def test_bad_options(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 (each option has its own message)
        raw_env(**kwargs)


def test_reset_from_position() -> None:
    start = ayo.Game("oware")
    start.play(2)
    e = raw_env(rules="oware")
    e.reset(options={"position": start.position_record()})
    assert e.agent_selection == "player_1"
    np.testing.assert_array_equal(e.game.board, start.board)


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))])
def test_copies_keep_the_game(clone: Any) -> None:
    e = raw_env(rules="ayoayo")
    e.reset()
    for _ in range(3):
        e.step(e.game.legal_moves()[-1])
    twin = clone(e)
    assert twin.game.record() == e.game.record()
    assert twin.agent_selection == e.agent_selection
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(legal)
    assert twin.game.ply == 3
    twin.step(legal)
    assert twin.game.record() == e.game.record()


def test_render() -> None:
    e = raw_env(rules="oware", render_mode="ansi")
    e.reset()
    text = e.render()
    assert isinstance(text, str)
    assert "South to move" in text
    e = raw_env(rules="oware", render_mode="rgb_array")
    e.reset()
    image = e.render()
    assert isinstance(image, np.ndarray)
    assert image.dtype == np.uint8
    assert image.shape[2] == 3


def test_truncation_counts_from_the_episode_start() -> None:
    start = ayo.Game("oware")
    start.play(1)
    start.play(2)
    e = raw_env(rules="oware", max_plies=3)
    e.reset(options={"position": start.position_record()})
    assert e.game.ply == 2
    for _ in range(3):
        assert not any(e.truncations.values())
        e.step(e.game.legal_moves()[0])
    assert e.truncations == {"player_0": True, "player_1": True}
    assert e.game.ply == 5


def test_docstring_examples() -> None:
    result = doctest.testmod(ayo.pettingzoo)
    assert result.attempted > 0
    assert result.failed == 0
