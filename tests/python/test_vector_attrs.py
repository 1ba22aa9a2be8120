"""``AyoVectorEnv.call`` / ``get_attr`` / ``set_attr`` answer as a
``SyncVectorEnv`` of single environments does, game by game."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import ayo
import ayo.envs  # registers ayo/Ayo-v0


def pair(**kwargs: Any) -> tuple[Any, Any]:
    sync = gymnasium.make_vec("ayo/Ayo-v0", num_envs=3, vectorization_mode="sync", **kwargs)
    native = gymnasium.make_vec(
        "ayo/Ayo-v0", num_envs=3, vectorization_mode="vector_entry_point", **kwargs
    )
    return sync, native


def play(envs: Any, steps: int) -> None:
    obs, _ = envs.reset(seed=5)
    for _ in range(steps):
        obs, *_ = envs.step(np.argmax(obs["action_mask"], axis=1))


@pytest.mark.parametrize("seat", [0, "alternate", "random"])
def test_get_attr_and_call_match_a_sync_vector_env(seat: Any) -> None:
    sync, native = pair(rules="oware", agent_seat=seat, reward="seed_difference")
    play(sync, 7)
    play(native, 7)
    for name in ("illegal_action", "illegal_penalty", "perspective", "reward_kind"):
        assert native.get_attr(name) == sync.get_attr(name), name
    assert [str(r) for r in native.get_attr("rules")] == [str(r) for r in sync.get_attr("rules")]
    assert native.get_attr("agent_seat") == sync.get_attr("agent_seat")
    assert [g.record() for g in native.get_attr("game")] == [
        g.record() for g in sync.get_attr("game")
    ]
    for a, b in zip(native.call("action_masks"), sync.call("action_masks"), strict=True):
        assert np.array_equal(a, b)
    assert native.get_attr("action_space") == sync.get_attr("action_space")


def test_set_attr_holds_values_and_refuses_the_engines_own() -> None:
    _, native = pair(rules="ayo")
    native.reset(seed=0)
    native.set_attr("curriculum_stage", [1, 2, 3])
    assert native.get_attr("curriculum_stage") == (1, 2, 3)
    native.set_attr("curriculum_stage", 9)
    assert native.call("curriculum_stage") == (9, 9, 9)
    native.set_attr("weight", lambda x: 2 * x)
    assert native.call("weight", 4) == (8, 8, 8)
    for fixed in ("rules", "illegal_action", "agent_seat", "game"):
        with pytest.raises(ayo.AyoError, match="fixed"):
            native.set_attr(fixed, 0)
    with pytest.raises(ayo.AyoError, match="expected 3 values"):
        native.set_attr("curriculum_stage", [1, 2])
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        native.get_attr("nope")
