"""The environments under hostile input (issue #37): reset options and opponents.

PettingZoo's ``reset`` refuses keys it does not know (as the Gymnasium
environment does), and the Gymnasium environment plays only an int (or a
numpy integer scalar) that a callable opponent returns.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ayo import AyoError, IllegalMoveError
from ayo.envs import AyoEnv
from ayo.pettingzoo import raw_env

FAST = settings(max_examples=60, deadline=timedelta(seconds=5))

KEYS = st.one_of(st.sampled_from(["position", "postion", "seed", "agent_seat", ""]), st.text())


@FAST
@given(keys=st.sets(KEYS, max_size=3))
def test_pettingzoo_reset_refuses_unknown_options(keys: set[str]) -> None:
    e = raw_env(rules="oware")
    e.reset()
    e.step(2)
    before = e.game.record()
    options: dict[str, Any] = dict.fromkeys(keys)
    unknown = keys - {"position", "options"}
    if unknown:
        with pytest.raises(AyoError, match="unknown reset options"):
            e.reset(options=options)
        assert e.game.record() == before
    else:
        e.reset(options=options)


def test_a_misspelt_position_is_refused() -> None:
    e = raw_env(rules="oware")
    with pytest.raises(AyoError, match="postion"):
        e.reset(options={"postion": "oware 4,4,4,4,4,4/4,4,4,4,4,0 0-4 n 0 0"})
    with pytest.raises(AyoError):
        e.reset(options=[("position", None)])  # type: ignore[arg-type]


REPLIES = st.one_of(
    st.booleans(),
    st.integers(-3, 9),
    st.integers(-3, 9).map(np.int64),
    st.integers(0, 5).map(lambda i: [i]),
    st.integers(0, 5).map(lambda i: [[i]]),
    st.integers(0, 5).map(lambda i: np.array([i])),
    st.integers(0, 5).map(np.array),  # a 0-d array is not a scalar either
    st.floats(0, 5),
    st.none(),
    st.text(max_size=2),
    st.just(np.bool_(True)),
)


@FAST
@given(reply=REPLIES)
def test_an_opponent_must_return_an_int(reply: Any) -> None:
    def opponent(game: object) -> Any:
        return reply

    env = AyoEnv(rules="oware", opponent=opponent)
    env.reset(seed=0, options={"agent_seat": 0})
    is_int = isinstance(reply, (int, np.integer)) and not isinstance(reply, (bool, np.bool_))
    if not is_int:
        before = env._core.game.record()
        with pytest.raises(AyoError, match="opponent") as e:
            env.step(0)
        assert not isinstance(e.value, IllegalMoveError)
        assert env._core.game.record() == before  # the agent's move taken back
        return
    # An int is a move: the engine plays it, or refuses it as illegal.
    with contextlib.suppress(IllegalMoveError):
        env.step(0)
