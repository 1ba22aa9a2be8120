"""Writing whole screens to the terminal, and message lines wrapped at word boundaries."""

from __future__ import annotations

import os
import re
import textwrap
from typing import TextIO

from ayo.cli.board import BoardLine, Style

__all__ = ["KEEP", "Screen"]

#: Joins words that must stay on one line (``1:`` and its value); written as a space.
KEEP = "\u00a0"

# A narrower terminal still gets whole words, one or two a line.
_MIN_WIDTH = 20

# An ANSI colour or style sequence (no width on the screen).
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# A pit's name stays whole: "pit 3", "pits 2 to 5".
_PIT = re.compile(r"\b(pits?) (\d+)(?: to (\d+))?")


def _keep_pits(text: str) -> str:
    def glue(m: re.Match[str]) -> str:
        tail = f"{KEEP}to{KEEP}{m.group(3)}" if m.group(3) else ""
        return f"{m.group(1)}{KEEP}{m.group(2)}{tail}"

    return _PIT.sub(glue, text)


class Screen:
    """Writes whole screens: cleared and redrawn on a terminal, appended otherwise."""

    def __init__(self, out: TextIO, style: Style, clear: bool) -> None:
        """Write to ``out`` with ``style``; ``clear`` redraws in place (a terminal)."""
        self.out = out
        self.style = style
        self.clear = clear

    def width(self) -> int | None:
        """The terminal's width in columns now, or None when not writing to a terminal."""
        if not self.clear:
            return None
        try:
            return os.get_terminal_size(self.out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return None

    def wrap(self, text: str, indent: str = "  ") -> list[str]:
        """``text`` as lines that fit the terminal, broken only between words.

        Words joined by :data:`KEEP` stay together, and so does a pit's
        name (``pit 3``); continuation lines are indented by ``indent``. Not
        on a terminal, ``text`` stays one line.
        """
        width = self.width()
        if width is None:
            return [text.replace(KEEP, " ")]
        lines = textwrap.wrap(
            _keep_pits(text),
            width=max(width - 1, _MIN_WIDTH),
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
        return [line.replace(KEEP, " ") for line in lines] or [""]

    def fit(self, lines: list[str]) -> list[str]:
        """``lines`` as they can be shown. On a terminal too narrow for the
        board (about 57 columns), which would wrap it into a garble, the
        board's lines give way to one note saying so; the rest (messages,
        the prompt) stay."""
        width = self.width()
        if width is None:
            return lines
        widest = max((len(_ANSI.sub("", x)) for x in lines), default=0)
        if widest < width:
            return lines
        out: list[str] = []
        noted = False
        for line in lines:
            if not isinstance(line, BoardLine) and len(_ANSI.sub("", line)) < width:
                out.append(line)
            elif not noted:
                noted = True
                out += self.wrap(
                    f"(The board needs a terminal at least {widest + 1} columns wide; "
                    f"this one has {width}. Widen it to see the board; the keys still work.)"
                )
        return out

    def show(self, lines: list[str]) -> None:
        """Draw ``lines`` as the new screen (see :meth:`fit`)."""
        lines = self.fit(lines)
        if self.clear:
            self.out.write("\x1b[H\x1b[2J")
        self.out.write("\n".join(lines) + "\n")
        if not self.clear:
            self.out.write("\n")
        self.out.flush()

    def say(self, line: str) -> None:
        """Write one line below what is shown, wrapped at word boundaries."""
        self.out.write("\n".join(self.wrap(line)) + "\n")
        self.out.flush()

    def say_whole(self, line: str) -> None:
        """Write one line below what is shown, never broken (a record to copy)."""
        self.out.write(line + "\n")
        self.out.flush()
