"""Argument types of the ``ayo`` command: each value is checked as argparse parses it.

A value out of range is an :class:`argparse.ArgumentTypeError`, so argparse
prints the subcommand's usage line and one line naming the argument, and
exits with status 2, before any work starts (docs/cli.md: never a
traceback). Numbers are plain decimal (``12``, not ``1_2`` or ``1e3``).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

__all__ = [
    "COUNT_LIMIT",
    "DELAY_LIMIT",
    "MAX_SEEDS_LIMIT",
    "OPENINGS_LIMIT",
    "SEED_LIMIT",
    "delay",
    "level",
    "player",
    "seed",
    "text",
    "whole",
]

#: The largest seed: the players' seeds are 64-bit.
SEED_LIMIT = 2**64 - 1
#: The most seconds of ``--delay`` (an animation frame, or a pause between moves).
DELAY_LIMIT = 60.0
#: The largest layer ``ayo solve`` builds (ayo-solve's limit).
MAX_SEEDS_LIMIT = 40
#: The most games a pair in ``ayo arena``.
COUNT_LIMIT = 1_000_000
#: The most random opening plies in ``ayo arena`` (its games are cut at 500 plies).
OPENINGS_LIMIT = 500

_DECIMAL = re.compile(r"-?[0-9]+")
_SECONDS = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """The type of a whole number from ``lo`` to ``hi``."""

    def parse(value: str) -> int:
        t = value.strip()
        if not _DECIMAL.fullmatch(t):
            raise argparse.ArgumentTypeError(f"expected a whole number {lo} to {hi}, not {value!r}")
        # Longer than any limit (and than int()'s digit limit): out of range.
        number = int(t) if len(t) <= 40 else None
        if number is None or not lo <= number <= hi:
            shown = t if len(t) <= 40 else t[:37] + "..."
            raise argparse.ArgumentTypeError(f"{shown} is out of range; expected {lo} to {hi}")
        return number

    parse.__name__ = "whole number"
    return parse


#: A seed, 0 to 2**64 - 1.
seed = whole(0, SEED_LIMIT)


def delay(value: str) -> float:
    """Seconds: a plain decimal number (``0.5``, ``2``, ``1e-1``) from 0 to :data:`DELAY_LIMIT`."""
    t = value.strip()
    number = float(t) if _SECONDS.fullmatch(t) else math.nan
    if not math.isfinite(number) or not 0 <= number <= DELAY_LIMIT:
        raise argparse.ArgumentTypeError(
            f"expected seconds from 0 to {DELAY_LIMIT:g}, not {value!r}"
        )
    return number


def text(value: str) -> str:
    """A string the engine can read: valid UTF-8 (a command line may hold other bytes)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(f"not valid UTF-8: {value!r}") from None
    return value


def level(value: str) -> str:
    """A level of ``play`` and ``watch``: 1 to 8, ``max`` or ``perfect`` (normalised)."""
    from ayo.ai import Player

    low = text(value).strip().lower()
    if low == "perfect":
        return low
    try:
        return str(Player(low).level)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"`{value}` is not a level; expected 1 to 8, max, learned or perfect"
        ) from None


def player(value: str) -> str:
    """A level or ``kind[:budget]`` (``analyze``, ``arena``), checked by making the player."""
    from ayo.cli.common import UsageError
    from ayo.cli.player_specs import player_spec

    if text(value).strip().lower() == "perfect":
        return value
    try:
        player_spec(value, 0)
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return value
