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

#: ``gymnasium.make``'s default ``max_episode_steps``, in agent steps (each is
#: the agent's move and the opponent's reply, so about 400 plies). Of 8,000
#: games between uniformly random players (2,000 per preset) the longest had
#: 311 plies (``oware``; ``ayoayo`` at most 67), so real games end first; the
#: cap exists because ``ayoayo``, the default rules, has neither a move limit
#: nor a repetition rule, and nothing else bounds an episode between players
#: that avoid capturing. Pass ``max_episode_steps`` to ``gymnasium.make`` to
#: change it.
MAX_EPISODE_STEPS = 200

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="ayo.envs.ayo_env:AyoEnv",
        vector_entry_point="ayo.vector:AyoVectorEnv",
        max_episode_steps=MAX_EPISODE_STEPS,
        # Two of gymnasium.make's default wrappers add nothing here and cost
        # a large share of a step (docs/benchmarks.md, "Single steps"):
        # AyoEnv enforces reset-before-step itself (EpisodeOverError is
        # gymnasium's ResetNeeded), and the test suite runs gymnasium's full
        # check_env on it. gymnasium.make(..., disable_env_checker=False)
        # brings the passive checker back.
        order_enforce=False,
        disable_env_checker=True,
    )
