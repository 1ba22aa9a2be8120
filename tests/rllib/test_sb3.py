"""sb3-contrib's MaskablePPO trains on the batched environment (ayo.vector.sb3_vec_env).

Run by ci/rllib.sh in the side venv that has torch (and sb3-contrib).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from ayo.vector import AyoVectorEnv, sb3_vec_env

sb3_contrib: Any = importlib.import_module("sb3_contrib")
maskable_utils: Any = importlib.import_module("sb3_contrib.common.maskable.utils")


@pytest.mark.parametrize("preset", ["oware", "ayoayo"])
def test_maskable_ppo_trains_and_honours_the_masks(preset: str) -> None:
    # illegal_action="raise": a single unmasked illegal action would raise.
    venv = sb3_vec_env(
        num_envs=4,
        rules=preset,
        opponent="random",
        reward="seed_difference",
        illegal_action="raise",
    )
    assert maskable_utils.is_masking_supported(venv)
    venv.seed(0)
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0
    )
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512

    obs = venv.reset()
    ended = 0
    for _ in range(200):
        masks = maskable_utils.get_action_masks(venv)
        assert masks.shape == (4, 6)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(4), actions].all()
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i]
            ended += 1
    assert ended > 0
    venv.close()


def test_sb3_needs_same_step_autoreset_and_an_opponent() -> None:
    with pytest.raises(ValueError, match="SAME_STEP"):
        sb3_vec_env(AyoVectorEnv(2))
    with pytest.raises(ValueError, match="opponent"):
        sb3_vec_env(opponent=None)
