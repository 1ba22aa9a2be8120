"""One seed, the same games in every vectorization mode.

``gymnasium.make_vec(..., vectorization_mode="sync")`` (a ``SyncVectorEnv``
of single ``AyoEnv`` s, env ``i`` seeded with ``seed + i``), the native
``AyoVectorEnv`` (``vectorization_mode="vector_entry_point"``) and single
environments seeded by hand must play the same games move for move: the
same observations, masks, rewards and ends, through autoresets too.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import ayo
import ayo.envs  # registers ayo/Ayo-v0

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]
SEATS: list[Any] = [0, 1, "alternate", "random"]
N = 3
SEED = 2024
STEPS = 120


def pick(rng: np.random.Generator, masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A random legal action per row (0 where there is none)."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, row in enumerate(np.asarray(masks)):
        legal = np.flatnonzero(row)
        if legal.size:
            out[i] = int(rng.choice(legal))
    return out


def run_vector(mode: str, preset: str, seat: Any) -> list[tuple[np.ndarray[Any, Any], ...]]:
    envs = gymnasium.make_vec(
        "ayo/Ayo-v0", num_envs=N, vectorization_mode=mode, rules=preset, agent_seat=seat
    )
    rng = np.random.default_rng(SEED)
    obs, info = envs.reset(seed=SEED)
    trail: list[tuple[np.ndarray[Any, Any], ...]] = [
        (obs["observation"].copy(), obs["action_mask"].copy(), info["agent_seat"].copy())
    ]
    for _ in range(STEPS):
        obs, reward, terminated, truncated, info = envs.step(pick(rng, obs["action_mask"]))
        trail.append(
            (
                obs["observation"].copy(),
                obs["action_mask"].copy(),
                np.asarray(reward, dtype=np.float64).copy(),
                terminated.copy(),
                truncated.copy(),
            )
        )
    envs.close()
    return trail


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", SEATS)
def test_sync_and_native_vector_envs_play_the_same_games(preset: str, seat: Any) -> None:
    sync = run_vector("sync", preset, seat)
    native = run_vector("vector_entry_point", preset, seat)
    ended = 0
    for k, (a, b) in enumerate(zip(sync, native, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}: {x} != {y}"
        if k:
            ended += int(a[3].sum() + a[4].sum())
    # The run went through episode ends (and so through autoresets).
    assert ended > 0


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", SEATS)
def test_the_native_vector_env_plays_single_envs_games(preset: str, seat: Any) -> None:
    """Game ``i`` of the batch, seeded with ``seed``, is the single env
    seeded with ``seed + i`` (its first episode, the actions chosen alike)."""
    envs = gymnasium.make_vec(
        "ayo/Ayo-v0",
        num_envs=N,
        vectorization_mode="vector_entry_point",
        rules=preset,
        agent_seat=seat,
    )
    singles = [gymnasium.make("ayo/Ayo-v0", rules=preset, agent_seat=seat) for _ in range(N)]
    obs, info = envs.reset(seed=SEED)
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=SEED + i)
        assert np.array_equal(o["observation"], obs["observation"][i])
        assert inf["agent_seat"] == info["agent_seat"][i]
    rng = np.random.default_rng(SEED)
    live = [True] * N
    while any(live):
        actions = pick(rng, obs["action_mask"])
        obs, reward, terminated, truncated, _ = envs.step(actions)
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            o, r, te, tr, _ = env.step(int(actions[i]))
            assert np.array_equal(o["observation"], obs["observation"][i])
            assert np.array_equal(o["action_mask"], obs["action_mask"][i])
            assert (r, te, tr) == (reward[i], terminated[i], truncated[i])
            live[i] = not (te or tr)
    envs.close()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("copy", [True, False])
def test_info_has_a_sync_vector_envs_keys_and_values(preset: str, copy: bool) -> None:
    sync = gymnasium.make_vec(
        "ayo/Ayo-v0", num_envs=N, vectorization_mode="sync", rules=preset, agent_seat="random"
    )
    native = gymnasium.make_vec(
        "ayo/Ayo-v0",
        num_envs=N,
        vectorization_mode="vector_entry_point",
        rules=preset,
        agent_seat="random",
        copy=copy,
    )
    rng = np.random.default_rng(SEED)
    (obs, want), (_, got) = sync.reset(seed=SEED), native.reset(seed=SEED)
    outcomes = 0
    for step in range(STEPS + 1):
        assert set(want) <= set(got), (step, set(want) - set(got))
        for key in ("agent_seat", "to_move", "ply"):
            assert np.array_equal(got[key], want[key]), (step, key)
        for i in range(N):
            replies = want["opponent_moves"][i]
            assert got["opponent_moves"][i] == (replies[0] if replies else -1), (step, i)
        if "outcome" in want:
            assert np.array_equal(got["_outcome"], want["_outcome"])
            for j in np.flatnonzero(want["_outcome"]):
                a, b = got["outcome"][j], want["outcome"][j]
                assert (a.winner, a.reason, a.scores) == (b.winner, b.reason, b.scores)
                outcomes += 1
        if step == STEPS:
            break
        actions = pick(rng, obs["action_mask"])
        obs, *_, want = sync.step(actions)
        *_, got = native.step(actions)
    assert outcomes > 0


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_pickled_or_copied_batch_plays_on_as_the_original(preset: str, how: str) -> None:
    import copy
    import pickle

    from ayo.vector import AyoVectorEnv

    env = AyoVectorEnv(N, rules=preset, agent_seat="random", max_episode_steps=30)
    rng = np.random.default_rng(SEED)
    obs, _ = env.reset(seed=SEED)
    for _ in range(25):
        obs, *_ = env.step(pick(rng, obs["action_mask"]))
    env.set_attr("stage", [1, 2, 3])
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert twin.records() == env.records()
    assert twin.get_attr("stage") == (1, 2, 3)
    assert np.array_equal(twin.action_masks(), env.action_masks())
    for _ in range(80):
        actions = pick(rng, obs["action_mask"])
        obs, r1, te1, tr1, _ = env.step(actions)
        obs2, r2, te2, tr2, _ = twin.step(actions)
        for key in obs:
            assert np.array_equal(obs[key], obs2[key])
        assert np.array_equal(r1, r2)
        assert np.array_equal(te1, te2)
        assert np.array_equal(tr1, tr2)
    assert twin.records() == env.records()


def test_a_batch_against_a_computer_player_refuses_to_be_pickled() -> None:
    import pickle

    from ayo.vector import AyoVectorEnv

    env = AyoVectorEnv(2, rules="oware", opponent="greedy")
    env.reset(seed=0)
    with pytest.raises(ayo.AyoError, match="cannot be pickled"):
        pickle.dumps(env)


def test_a_bad_state_changes_nothing() -> None:
    from ayo.vector import AyoVectorEnv

    env = AyoVectorEnv(2, rules="oware")
    env.reset(seed=0)
    before = env.records()
    for bad in ("[]", "not json", '[[{"seat": "South"}, []]]'):
        with pytest.raises(ayo.AyoError):
            env._core.__setstate__(bad)
    assert env.records() == before
