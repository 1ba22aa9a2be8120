"""TorchRL over the ayo environments: GymEnv and PettingZooWrapper pass check_env_specs.

check_env_specs plays a 3-step random rollout, compares it with the specs, then
draws one more random action from the action spec. With a mask (torchrl's
ActionMask, or the PettingZoo wrapper's) that spec holds the mask of the last
observation; when the rollout has ended the game, that mask is all zeros (no
legal move is left) and torch.multinomial refuses it. The masked checks below
pass for every seed, or fail in exactly that way with the game over; the
final mask stays empty on purpose (docs/environments.md, TorchRL).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
import torch
from torchrl.envs import ActionMask, Compose, DTypeCastTransform, GymEnv, TransformedEnv
from torchrl.envs.common import EnvBase
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

import ayo
import ayo.pettingzoo

PRESETS = ayo.Rules.presets()
SEEDS = range(10)

logging.getLogger("torchrl").setLevel(logging.WARNING)


def masked_gym_env(preset: str) -> TransformedEnv:
    """``ayo/Ayo-v0`` whose random actions are legal: the int8 mask as bool, then ActionMask.

    ``illegal_action="raise"``: an unmasked illegal action would fail the check.
    """
    env = GymEnv("ayo/Ayo-v0", rules=preset, illegal_action="raise")
    cast = DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"], in_keys_inv=[])
    return TransformedEnv(env, Compose(cast, ActionMask()))


def gym_game(env: EnvBase) -> ayo.Game:
    base = env.base_env if isinstance(env, TransformedEnv) else env
    game: ayo.Game = base._env.unwrapped.game
    return game


def pettingzoo_game(env: EnvBase) -> ayo.Game:
    game: ayo.Game = env._env.unwrapped.game
    return game


def passes_or_ends_the_game(
    env: EnvBase, seed: int, game_of: Callable[[EnvBase], ayo.Game]
) -> bool:
    """Run check_env_specs: True if it passes, False if it failed on the final all-zero mask."""
    failure: RuntimeError | None = None
    try:
        check_env_specs(env, seed=seed)
    except RuntimeError as err:
        failure = err
    if failure is None:
        return True
    assert "invalid multinomial distribution" in str(failure)
    game = game_of(env)
    assert game.is_over
    assert game.legal_moves() == []
    return False


@pytest.mark.parametrize("preset", PRESETS)
def test_gym_env_as_made(preset: str) -> None:
    """Unmasked random actions: by default an illegal one ends the episode with the penalty."""
    for seed in SEEDS:
        check_env_specs(GymEnv("ayo/Ayo-v0", rules=preset), seed=seed)


@pytest.mark.parametrize("preset", PRESETS)
def test_gym_env_with_torchrl_action_mask(preset: str) -> None:
    passed = [passes_or_ends_the_game(masked_gym_env(preset), s, gym_game) for s in SEEDS]
    assert sum(passed) >= len(SEEDS) // 2


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_wrapper(preset: str) -> None:
    passed = []
    for seed in SEEDS:
        env = PettingZooWrapper(ayo.pettingzoo.env(rules=preset), use_mask=True)
        assert env.group_map == {"player_0": ["player_0"], "player_1": ["player_1"]}
        passed.append(passes_or_ends_the_game(env, seed, pettingzoo_game))
    assert sum(passed) >= len(SEEDS) // 2


def test_pettingzoo_wrapper_plays_whole_games() -> None:
    """A rollout past the end of games: the wrapper's masks keep random actions legal."""
    env = PettingZooWrapper(ayo.pettingzoo.env(rules="oware"), use_mask=True)
    env.set_seed(0)
    torch.manual_seed(0)
    rollout = env.rollout(2000, break_when_any_done=False)
    assert rollout["next", "done"].sum() >= 2
    for agent in ("player_0", "player_1"):
        acting = rollout[agent, "mask"].squeeze(-1)
        actions = rollout[agent, "action"][acting].long()
        masks = rollout[agent, "action_mask"][acting]
        assert masks.gather(-1, actions.reshape(-1, 1, 1).expand(-1, 1, 1)).all()
