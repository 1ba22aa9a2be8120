"""Checks of the environments' numeric arguments, shared by ``ayo.envs``,
``ayo.vector`` and ``ayo.pettingzoo``: a bad value is an :class:`ayo.AyoError`
naming the argument (a ``ValueError``), never an ``OverflowError`` or a
library's own error type."""

from __future__ import annotations

import numbers

import numpy as np

from ayo._ayo import AyoError


def real_arg(value: object, name: str) -> float:
    """``value`` (an int or a float, not a bool) as a ``float``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise AyoError(f"{name} must be a number, not {value!r}")
    try:
        return float(value)
    except OverflowError:
        raise AyoError(f"{name} = {value} is out of range (expected a float)") from None


def seed_arg(seed: object) -> int | None:
    """A reset's ``seed``: None or an int >= 0 (not a bool)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise AyoError(f"seed must be None or an int >= 0, not {seed!r}")
    if seed < 0:
        raise AyoError(f"seed = {seed} is out of range (expected None or an int >= 0)")
    return int(seed)
