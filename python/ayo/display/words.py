"""People's words for pits and seats: every pit named by its owner and number 1..6.

Programs index the board 0..11 (South's row 0..5, North's 6..11); a person
reads each pit as its owner's pit 1..6 in sowing order, the numbers of the
keys and of game records. The sowing captions of :mod:`ayo.display.sowing`
and every message of the ``ayo`` command use these words, so that no
0..11 index reaches a reader.

A seat named ``"You"`` is addressed in the second person ("your pit 3",
"you take 4").
"""

from __future__ import annotations

from collections.abc import Sequence

from ayo.display._style import PLAYER_NAMES

__all__ = ["SEAT_NAMES", "owner", "pit_name", "pit_runs", "possessive", "subject_verb"]

#: The seats' names when no others are given.
SEAT_NAMES = PLAYER_NAMES

_YOU = "You"


def owner(pit: int) -> int:
    """The seat (0 South, 1 North) whose row holds absolute ``pit``."""
    return pit // 6


def possessive(name: str) -> str:
    """``your`` for "You", else ``North's``."""
    return "your" if name == _YOU else f"{name}'s"


def pit_name(pit: int, names: Sequence[str] = SEAT_NAMES) -> str:
    """Absolute ``pit`` as its owner's pit: ``North's pit 3``, ``your pit 2``."""
    return f"{possessive(names[owner(pit)])} pit {pit % 6 + 1}"


def subject_verb(name: str, verb: str, *, start: bool = True) -> str:
    """``South takes``, ``You take`` (``you take`` when not starting a sentence)."""
    if name == _YOU:
        return f"{'You' if start else 'you'} {verb}"
    return f"{name} {verb}es" if verb.endswith(("s", "sh", "ch")) else f"{name} {verb}s"


def _runs(pits: Sequence[int]) -> list[list[int]]:
    """``pits`` cut into runs of neighbours in sowing order within one row."""
    runs: list[list[int]] = []
    for pit in pits:
        if runs and pit == runs[-1][-1] + 1 and owner(pit) == owner(runs[-1][-1]):
            runs[-1].append(pit)
        else:
            runs.append([pit])
    return runs


def _run_words(run: Sequence[int], names: Sequence[str]) -> str:
    if len(run) == 1:
        return pit_name(run[0], names)
    first, last = run[0] % 6 + 1, run[-1] % 6 + 1
    return f"{possessive(names[owner(run[0])])} pits {first} to {last}"


def pit_runs(pits: Sequence[int], names: Sequence[str] = SEAT_NAMES) -> str:
    """The pits sown in order, by owner: ``South's pits 3 to 6 and North's pits 1 to 4``.

    Sowing that goes round the board more than once (three runs or more) is
    told by its ends: ``14 pits, from South's pit 3 round to North's pit 5``.
    """
    if not pits:
        return "no pit"
    runs = _runs(pits)
    if len(runs) <= 2:
        return " and ".join(_run_words(r, names) for r in runs)
    return f"{len(pits)} pits, from {pit_name(pits[0], names)} round to {pit_name(pits[-1], names)}"
