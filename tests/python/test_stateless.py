"""ayo.stateless: the pure batch functions against the batched environment and Game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ayo
from ayo.stateless import STATE_BYTES, StatelessEnv, aligned_empty
from ayo.vector import AyoVectorEnv


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal action a row (0 where none is legal)."""
    scores = rng.random(mask.shape) * mask
    return np.asarray(scores.argmax(axis=1), dtype=np.int64)


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        ("ayoayo", {}),
        ("ayo", {"reward": "seed_difference", "agent_seat": "alternate"}),
        ("olopon", {"agent_seat": "random", "max_episode_steps": 30}),
        (ayo.Rules("oware", repetition="off"), {"perspective": "absolute"}),
    ],
)
def test_steps_as_the_vector_env_on_the_same_seeds(rules: object, kwargs: dict[str, Any]) -> None:
    n, seed = 16, 11
    venv = AyoVectorEnv(n, rules, **kwargs)  # type: ignore[arg-type]
    env = StatelessEnv(rules, **kwargs)  # type: ignore[arg-type]
    obs, info = venv.reset(seed=seed)
    states = env.init(env.vector_seeds(seed, n))
    rng = np.random.default_rng(3)
    for _ in range(150):
        np.testing.assert_array_equal(env.observe(states).astype(np.float32), obs["observation"])
        mask = env.legal_mask(states)
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        seats = env.fields(states)["flags"] & 1
        np.testing.assert_array_equal(seats, info["agent_seat"])
        actions = _random_legal(rng, mask)
        states, rewards, terminated, truncated, next_mask = env.step_with_mask(states, actions)
        obs, reward, term, trunc, info = venv.step(actions)
        np.testing.assert_array_equal(next_mask, obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(rewards[np.arange(n), seats], reward.astype(np.float32))
        np.testing.assert_array_equal(terminated, term)
        np.testing.assert_array_equal(truncated, trunc)


def test_self_play_follows_game_and_children_are_steps() -> None:
    env = StatelessEnv("ayo", opponent=None, autoreset_mode="Disabled", max_episode_steps=None)
    states = env.init([5])
    game = ayo.Game("ayo")
    rng = np.random.default_rng(0)
    while game.outcome is None:
        mask = env.legal_mask(states)
        np.testing.assert_array_equal(mask[0], game.action_mask())
        children, valid = env.children(states)
        np.testing.assert_array_equal(valid, mask)
        a = int(_random_legal(rng, mask)[0])
        mover = game.to_move
        game.play(a)
        states, rewards, terminated, _ = env.step(states, [a])
        np.testing.assert_array_equal(children[0, a], states[0])
        board = env.observe(states, "absolute")[0]
        assert list(board[:12]) == list(game.board)
        assert bool(terminated[0]) == (game.outcome is not None)
        won = 0 if game.outcome is None else game.outcome.result_for(mover)
        assert rewards[0, mover] == won
    # Ended states are absorbing with autoreset disabled.
    after, rewards, terminated, _ = env.step(states, [0])
    np.testing.assert_array_equal(after, states)
    assert terminated[0]
    assert not rewards.any()


def test_outputs_are_aligned_writable_and_inputs_unchanged() -> None:
    env = StatelessEnv("ayoayo")
    states = env.init(np.arange(5, dtype=np.uint64))
    before = states.copy()
    outs: list[np.ndarray[Any, Any]] = [
        states,
        *env.step(states, np.zeros(5, dtype=np.int32)),
        env.legal_mask(states),
    ]
    outs += [env.observe(states), *env.children(states)]
    for a in outs:
        assert a.ctypes.data % 64 == 0
        assert a.flags.writeable
        assert a.flags.c_contiguous
    np.testing.assert_array_equal(states, before)
    # Leading batch shapes are kept.
    grid = np.stack([states, states])
    assert env.step(grid, np.zeros((2, 5), dtype=np.int64))[1].shape == (2, 5, 2)
    assert aligned_empty((3, 7), np.float32).ctypes.data % 64 == 0


def test_bad_input_is_refused_with_typed_errors() -> None:
    with pytest.raises(ayo.StatelessError, match="repetition") as e:
        StatelessEnv("oware")
    assert e.value.reason == "rules"
    with pytest.raises(ayo.StatelessError) as e:
        StatelessEnv("ayo", autoreset_mode="SameStep")  # type: ignore[arg-type]
    assert e.value.reason == "options"
    with pytest.raises(ayo.AyoError):
        StatelessEnv("ayo", opponent="greedy")  # type: ignore[arg-type]
    for steps in (0, 2**40, 1.5, True):
        with pytest.raises(ayo.StatelessError) as e:
            StatelessEnv("ayo", max_episode_steps=steps)  # type: ignore[arg-type]
        assert e.value.reason == "options"
    env = StatelessEnv("ayoayo", illegal_action="raise")
    states = env.init([1, 2])
    cases: list[tuple[object, object, str]] = [
        (states.astype(np.int16), [0, 0], "shape"),
        (states[:, :95], [0, 0], "shape"),
        (states, [0.0, 1.0], "shape"),
        (states, [0, 0, 0], "shape"),
        (states, [0, 6], "action"),
        (states, [-1, 0], "action"),
    ]
    bad = states.copy()
    bad[1, 0] += 1  # a seed too many
    cases.append((bad, [0, 0], "state"))
    bad = states.copy()
    bad[0, 14] = 7  # no such player
    cases.append((bad, [0, 0], "state"))
    for s, a, reason in cases:
        with pytest.raises(ayo.StatelessError) as e:
            env.step(s, a)  # type: ignore[arg-type]
        assert e.value.reason == reason, (reason, str(e.value))
    # An illegal action with illegal_action="raise" names the action.
    empty = env.step(states, [0, 0])[0]
    mask = env.legal_mask(empty)
    illegal = int(np.flatnonzero(~mask[0])[0])
    with pytest.raises(ayo.StatelessError, match="game 0") as e:
        env.step(empty, [illegal, int(mask[1].argmax())])
    assert e.value.reason == "action"


def test_the_record_layout() -> None:
    env = StatelessEnv(ayo.Rules("ayoayo"), agent_seat=1)
    states = env.init([9])
    f = env.fields(states)[0]
    assert states.shape == (1, STATE_BYTES)
    assert list(f["pits"]) + list(f["stores"]) == list(env.observe(states, "absolute")[0])
    assert f["flags"] & 1 == 1  # the agent sits North
    assert f["ply"] == 1
    assert f["steps"] == 0
    assert f["opponent_rng"].any()
    assert f["seat_rng"].any()
    assert StatelessEnv.vector_seeds(3, 2).dtype == np.uint64
