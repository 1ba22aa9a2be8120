"""What the subcommands share: rules from arguments, levels, pit and outcome words.

Nothing here decides a rule: rules are built by :class:`ayo.Rules` (which
rejects what cannot be played), and outcomes, traces and landing pits are
read from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ayo import Outcome, Rules, RulesError
from ayo.ai import Player
from ayo.display.words import SEAT_NAMES, pit_name, subject_verb

__all__ = [
    "SEAT_NAMES",
    "UsageError",
    "describe_outcome",
    "level_name",
    "make_rules",
    "pit_words",
    "rule_value",
    "seed_plus",
]


class UsageError(Exception):
    """A bad argument found after parsing: argparse-style message, exit code 2."""


def rule_value(text: str) -> object:
    """A ``--rule`` value: true/false, none, or the text itself.

    A number stays text, so that the engine reads it by the grammar of rules
    records (docs/notation.md: no sign, no leading zero) and names the
    parameter when it cannot.
    """
    low = text.strip().lower()
    if low == "true":
        return True
    if low == "false":
        return False
    if low == "none":
        return None
    return low


def make_rules(preset: str | None, overrides: Sequence[str] | None, default: str = "ayo") -> Rules:
    """The rules of ``preset`` (default ``default``) with ``key=value`` overrides.

    Raises :class:`UsageError` with the engine's message for an unknown preset,
    parameter or value.
    """
    params: dict[str, Any] = {}
    for item in overrides or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--rule expects key=value, not {item!r}")
        params[key.strip()] = rule_value(value)
    try:
        return Rules(preset or default, **params)
    except RulesError as e:
        raise UsageError(str(e)) from None
    except TypeError as e:
        raise UsageError(f"bad rule: {e}") from None


def level_name(text: str) -> str:
    """A level as given (``1``..``8``, ``max`` or ``perfect``), checked by the engine."""
    if text.strip().lower() == "perfect":
        return "perfect"
    try:
        return str(Player(text.strip().lower()).level)
    except (ValueError, OverflowError):
        raise UsageError(
            f"`{text}` is not a level; expected 1 to 8, max, learned or perfect"
        ) from None


def seed_plus(seed: int, k: int) -> int:
    """``seed + k`` as a player's 64-bit seed (wrapping past 2**64 - 1)."""
    return (seed + k) % 2**64


def pit_words(pit: int, names: Sequence[str] = SEAT_NAMES) -> str:
    """An absolute pit as its owner's pit number, e.g. ``North's pit 3``, ``your pit 2``."""
    return pit_name(pit, names)


def describe_outcome(
    outcome: Outcome, rules: Rules, names: Sequence[str] = SEAT_NAMES, stuck: int | None = None
) -> str:
    """The result line: who won, the score and why the game ended.

    ``stuck`` is the seat that had no legal move (for ``no_legal_move``).
    """
    south, north = outcome.scores
    score = f"{names[0]} {south}, {names[1]} {north}"
    if outcome.winner is None:
        head = f"Draw ({score})"
    else:
        head = f"{subject_verb(names[outcome.winner], 'win')} ({score})"
    reason = outcome.reason
    if reason == "target":
        why = f"a store reached the target of {rules.target} seeds"
    elif reason == "move_limit":
        why = (
            f"{rules.move_limit} moves in a row without a capture; "
            "each side took the seeds in its own row"
        )
    elif reason == "repetition":
        why = "a position came back since the last capture; each side took the seeds in its row"
    else:
        who = "the player to move" if stuck is None else names[stuck]
        where = (
            "the seeds left on the board went to the other player"
            if rules.stuck_seeds == "to_opponent"
            else "each side took the seeds in its own row"
        )
        why = f"{who} had no legal move; {where}"
    return f"{head}: {why}"
