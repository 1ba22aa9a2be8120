"""The PettingZoo environment validates actions exactly as the Gymnasium one.

Regression tests: ``raw_env.step`` used to do ``int(action)``, so ``1.7``
played 1, ``"2"`` played 2 and ``True`` played 1; with
``illegal_action="penalize"`` an action outside 0..5 (7, -1, 2**64) was
penalized as an illegal move instead of raising; the wrapped ``env()``
checked with ``assert`` only. Now the core's one action check
(``ayo_core::episode::check_action``) decides, through ``EpisodeCore``.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ayo
from ayo.pettingzoo import raw_env


@pytest.mark.parametrize("illegal_action", ["raise", "penalize"])
@pytest.mark.parametrize("action", [1.7, "2", True, False, None, [1], np.float32(1.0)])
def test_an_action_that_is_not_an_integer_raises(illegal_action: Any, action: Any) -> None:
    e = raw_env(rules="oware", illegal_action=illegal_action)
    e.reset(seed=0)
    before = e.game.record()
    with pytest.raises(ValueError, match="action"):
        e.step(action)
    assert e.game.record() == before
    assert e.agent_selection == "player_0"


@pytest.mark.parametrize("illegal_action", ["raise", "penalize"])
@pytest.mark.parametrize("action", [6, 7, -1, 2**64, -(2**70)])
def test_an_action_outside_the_space_raises_even_when_penalizing(
    illegal_action: Any, action: int
) -> None:
    e = raw_env(rules="ayoayo", illegal_action=illegal_action)
    e.reset(seed=0)
    before = e.game.record()
    with pytest.raises(ayo.AyoError, match=r"outside|integer"):
        e.step(action)
    assert e.game.record() == before
    assert not any(e.terminations.values())


def test_numpy_integers_are_actions() -> None:
    e = raw_env(rules="oware")
    e.reset(seed=0)
    e.step(np.int64(2))
    assert e.game.moves == [2]
    e.step(np.int8(0))
    assert e.game.ply == 2


def test_an_illegal_action_in_the_space_is_penalized_for_the_mover_only() -> None:
    e = raw_env(rules="oware", illegal_action="penalize", illegal_reward=-3.0)
    e.reset(seed=0)
    e.step(2)  # player_0 empties its pit 3 (action 2)
    e.step(0)  # player_1
    e.step(2)  # player_0 again: pit 3 is empty
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": -3.0, "player_1": 0.0}
    assert e.infos["player_0"]["illegal_action"] == 2


def test_the_wrapped_env_raises_a_value_error_under_python_o() -> None:
    """``python -O`` drops the wrapper's assert: the environment still refuses."""
    code = (
        "from ayo.pettingzoo import env\n"
        "e = env(rules='oware')\n"
        "e.reset(seed=0)\n"
        "try:\n"
        "    e.step(1.5)\n"
        "except ValueError as err:\n"
        "    print('refused:', err)\n"
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.startswith("refused: an action is an integer 0..5")
