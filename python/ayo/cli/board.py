"""Drawing the board in a terminal: both rows, stores and pit numbers.

Everything drawn comes from the rules engine: the seeds from the game, the
landing pit from :meth:`ayo.Game.last_landing`, the sowing from the frames of
:func:`ayo.display.frames` (the engine's trace). The board is drawn from the
point of view of one seat (``bottom``, the human in ``ayo play``): that seat's
row along the bottom, pits 1..6 in sowing order left to right; the other row
on top, right to left, so that sowing runs anticlockwise; the bottom seat's
store on the right, the other store on the left.

Each store is labelled ``store`` beside its count. A pit's marks follow its
count, up to two of them: ``*`` where the cursor's move would drop its last
seed, ``'`` the pit of the last move played (never hidden by the ``*``),
``+`` a pit of the lap being sown; brackets round a pit number are the
cursor. Colour adds to these marks and never replaces them, so that
``color=False`` says the same in plain text.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TextIO

__all__ = [
    "BoardLine",
    "Style",
    "View",
    "draw",
    "pit_of",
    "supports_color",
]

_CELL = 5  # characters per pit column, borders excluded
_STORE = "store"  # the label beside each store's count


def supports_color(stream: TextIO, no_color_flag: bool = False) -> bool:
    """Whether to write ANSI colours to ``stream``.

    Not when ``--no-color`` was given, when the ``NO_COLOR`` variable is set
    to anything non-empty (https://no-color.org), when ``TERM`` is ``dumb`` or
    when ``stream`` is not a terminal.
    """
    if no_color_flag or os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("TERM", "") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True)
class Style:
    """ANSI sequences (all empty for plain text)."""

    reset: str = ""
    bold: str = ""
    dim: str = ""
    cursor: str = ""
    landing: str = ""
    active: str = ""
    last: str = ""
    good: str = ""
    bad: str = ""

    @staticmethod
    def make(color: bool) -> Style:
        """Colours when ``color`` is true, plain text otherwise."""
        if not color:
            return Style()
        return Style(
            reset="\x1b[0m",
            bold="\x1b[1m",
            dim="\x1b[2m",
            cursor="\x1b[7m",
            landing="\x1b[1;30;43m",
            active="\x1b[1;37;44m",
            last="\x1b[1;31m",
            good="\x1b[1;32m",
            bad="\x1b[1;31m",
        )

    @property
    def plain(self) -> bool:
        """True when no colour is used."""
        return not self.reset


@dataclass
class View:
    """What to draw besides the seeds.

    Attributes:
        board: seeds in pits 0..11 (absolute, sowing order).
        stores: South's and North's stores.
        bottom: the seat drawn along the bottom (0 South, 1 North).
        names: the labels of South and North (e.g. ``("You", "Computer")``).
        to_move: the seat to move (marked with ``>``), or None when over.
        cursor: absolute pit under the cursor (its number is bracketed).
        landing: absolute pit where the cursor's move would drop its last seed.
        active: absolute pits to highlight (the lap being animated).
        last: absolute pit of the last move played.
        hand: seeds in hand during an animated sowing.
    """

    board: Sequence[int]
    stores: Sequence[int]
    bottom: int = 0
    names: tuple[str, str] = ("South", "North")
    to_move: int | None = None
    cursor: int | None = None
    landing: int | None = None
    active: Collection[int] = field(default_factory=tuple)
    last: int | None = None
    hand: int | None = None


def pit_of(seat: int, number: int) -> int:
    """The absolute pit of ``seat``'s move ``number`` (1..6)."""
    return seat * 6 + number - 1


def _top_pits(bottom: int) -> list[int]:
    """Absolute pits of the top row, left to right (the other seat's 6..1)."""
    top = 1 - bottom
    return [pit_of(top, n) for n in range(6, 0, -1)]


def _bottom_pits(bottom: int) -> list[int]:
    """Absolute pits of the bottom row, left to right (the seat's 1..6)."""
    return [pit_of(bottom, n) for n in range(1, 7)]


def _cell(view: View, pit: int, st: Style) -> str:
    """A pit's count and marks, 5 characters wide (colours excluded)."""
    seeds = f"{int(view.board[pit]):>3}"
    marks = []
    if pit == view.landing:
        marks.append((st.landing, "*"))
    if pit in view.active:
        marks.append((st.active, "+"))
    if pit == view.last:
        marks.append((st.last, "'"))
    marks = marks[:2]
    if not marks:
        return f"{seeds}  "
    first_style = marks[0][0]
    text = f"{first_style}{seeds}{marks[0][1]}{st.reset}"
    if len(marks) > 1:
        text += f"{marks[1][0]}{marks[1][1]}{st.reset}"
    return text + " " * (2 - len(marks))


def _numbers(pits: Sequence[int], cursor_pit: int | None, st: Style) -> str:
    parts = []
    for pit in pits:
        n = pit % 6 + 1
        if pit == cursor_pit:
            label = f"[{n}]"
            parts.append(f" {st.cursor}{label}{st.reset} " if not st.plain else f" {label} ")
        else:
            parts.append(f"  {n}  ")
    return " " + " ".join(parts)


def draw(view: View, style: Style) -> list[str]:
    """The board as lines of text (no trailing newlines).

    ::

                Computer (North)
                  6     5     4     3     2     1
               +-----+-----+-----+-----+-----+-----+
        store  |  4  |  4  |  4  |  4  |  4  |  4  |
            0  +-----+-----+-----+-----+-----+-----+  0
               |  4  |  4  |  4  |  4  |  4  |  4  |  store
               +-----+-----+-----+-----+-----+-----+
                 [1]    2     3     4     5     6
              > You (South)

    The left store is the top seat's, the right one the bottom seat's
    (each beside its owner's row).
    """
    st = style
    bottom, top = view.bottom, 1 - view.bottom
    top_pits, bottom_pits = _top_pits(bottom), _bottom_pits(bottom)
    cursor_pit = view.cursor
    seat_names = ("South", "North")
    pad = " " * 15
    rule = pad + "+" + "+".join("-" * _CELL for _ in range(6)) + "+"

    def label(seat: int) -> str:
        arrow = f"{st.bold}>{st.reset} " if seat == view.to_move else "  "
        name = view.names[seat]
        seat_note = "" if name == seat_names[seat] else f" ({seat_names[seat]})"
        return f"{pad}{arrow}{st.bold}{name}{st.reset}{seat_note}"

    def row(pits: Sequence[int], left: str = "", right: str = "") -> str:
        cells = "|" + "|".join(_cell(view, p, st) for p in pits) + "|"
        return f"{left:>{len(pad) - 2}}  {cells}{right}"

    top_store = f"{int(view.stores[top]):>{len(pad) - 2}}"
    bottom_store = str(int(view.stores[bottom]))
    middle = (
        f"{st.bold}{top_store}{st.reset}  "
        + rule[len(pad) :]
        + f"  {st.bold}{bottom_store}{st.reset}"
    )
    lines = [
        label(top),
        pad + _numbers(top_pits, cursor_pit, st),
        rule,
        row(top_pits, left=_STORE),
        middle,
        row(bottom_pits, right="  " + _STORE),
        rule,
        pad + _numbers(bottom_pits, cursor_pit, st),
        label(bottom),
    ]
    if view.hand:
        lines.append(f"{pad}in hand: {view.hand}")
    return [BoardLine(line.rstrip()) for line in lines]


class BoardLine(str):
    """A line of the drawn board: a terminal too narrow for the board leaves
    out all of them, not some (:meth:`ayo.cli.screen.Screen.fit`)."""

    __slots__ = ()
