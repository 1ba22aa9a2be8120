"""Gymnasium environments for Ayo; importing this package registers ``ayo/Ayo-v0``.

>>> import gymnasium
>>> import ayo.envs
>>> env = gymnasium.make("ayo/Ayo-v0", rules="oware", opponent="random")
>>> obs, info = env.reset(seed=0)
>>> sorted(obs)
['action_mask', 'observation']

``gymnasium.make("ayo.envs:ayo/Ayo-v0")`` imports the package by itself.
See :class:`AyoEnv` for the options and ``docs/environments.md`` for a guide.
"""

from __future__ import annotations

import gymnasium

from ayo.envs.ayo_env import (
    AyoEnv,
    EpisodeOverError,
    Opponent,
    Seat,
    observation_opponent,
    seat_view,
)

__all__ = [
    "ENV_ID",
    "MAX_EPISODE_STEPS",
    "AyoEnv",
    "EpisodeOverError",
    "Opponent",
    "Seat",
    "observation_opponent",
    "seat_view",
]

#: The registered id.
ENV_ID = "ayo/Ayo-v0"

#: ``gymnasium.make``'s default ``max_episode_steps`` (agent steps, about
#: twice as many plies). Games between uniformly random players end well
#: before it (see ``docs/environments.md`` for the measured lengths); the cap
#: exists because ``ayoayo``, the default rules, has no move limit and no
#: repetition rule, so nothing else bounds an episode between two players that
#: avoid capturing.
MAX_EPISODE_STEPS = 500

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="ayo.envs.ayo_env:AyoEnv",
        max_episode_steps=MAX_EPISODE_STEPS,
    )
