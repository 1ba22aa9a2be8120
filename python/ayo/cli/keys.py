"""Reading the player's keys: raw key presses on a terminal, lines otherwise.

Both readers turn input into the same tokens: ``"1"`` .. ``"6"``, ``"left"``,
``"right"``, ``"up"``, ``"down"``, ``"enter"``, ``"u"``, ``"h"``, ``"q"``,
``"y"`` and ``"n"`` (the answers to "play again?"),
``"eof"`` (input closed), or ``"other:<text>"`` for anything else (shown back
to the player with a hint).

* :class:`RawKeys` puts a terminal in cbreak mode (no echo, no line editing;
  Ctrl-C still interrupts) and reads one key press at a time, arrow keys
  included; :meth:`RawKeys.read` can wait with a timeout (the animation's
  "any key skips").
* :class:`LineKeys` reads one line at a time (a digit or a command, then
  Enter), so that a game can be scripted through a pipe.
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from collections import deque
from types import TracebackType
from typing import Protocol, TextIO

__all__ = ["KeyReader", "LineKeys", "RawKeys", "open_keys"]

_WORDS = {
    "u": "u",
    "undo": "u",
    "h": "h",
    "hint": "h",
    "?": "h",
    "q": "q",
    "quit": "q",
    "exit": "q",
    "y": "y",
    "yes": "y",
    "again": "y",
    "n": "n",
    "no": "n",
    "left": "left",
    "right": "right",
    "l": "left",
    "r": "right",
}

_ESCAPES = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
}


class KeyReader(Protocol):
    """Where the player's keys come from."""

    @property
    def raw(self) -> bool:
        """True when keys arrive one press at a time (a terminal)."""
        ...

    def read(self, timeout: float | None = None) -> str | None:
        """The next token, or None when ``timeout`` seconds pass first."""
        ...

    def close(self) -> None:
        """Give the input back as it was."""
        ...


class RawKeys:
    """Key presses from a terminal in cbreak mode (restored by :meth:`close`)."""

    raw = True

    def __init__(self, fd: int) -> None:
        """Switch terminal ``fd`` to cbreak mode without echo."""
        self.fd = fd
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd, termios.TCSANOW)
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self._pending: deque[str] = deque()

    def close(self) -> None:
        """Restore the terminal's settings."""
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def __enter__(self) -> RawKeys:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _ready(self, timeout: float | None) -> bool:
        r, _, _ = select.select([self.fd], [], [], timeout)
        return bool(r)

    def read(self, timeout: float | None = None) -> str | None:
        """The next key (see the module doc), or None after ``timeout`` seconds."""
        if self._pending:
            return self._pending.popleft()
        if not self._ready(timeout):
            return None
        data = os.read(self.fd, 64)
        if not data:
            return "eof"
        # An escape sequence may arrive in pieces: wait briefly for the rest.
        while data.endswith(b"\x1b") or (data.startswith(b"\x1b") and len(data) < 3):
            if not self._ready(0.05):
                break
            more = os.read(self.fd, 64)
            if not more:
                break
            data += more
        self._pending.extend(_tokens(data.decode("utf-8", errors="replace")))
        return self._pending.popleft() if self._pending else None


def _tokens(text: str) -> list[str]:
    """Tokens of the characters of one read from a terminal."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            seq = text[i : i + 3]
            if seq in _ESCAPES:
                out.append(_ESCAPES[seq])
                i += 3
                continue
            # Another escape sequence (function keys...): skip it whole.
            j = i + 1
            if j < len(text) and text[j] in "[O":
                j += 1
                while j < len(text) and not (text[j].isalpha() or text[j] == "~"):
                    j += 1
                j += 1
            seq = text[i:j]
            out.append("other:" + ("Esc" if seq == "\x1b" else repr(seq)[1:-1]))
            i = j
            continue
        if ch in "\r\n":
            out.append("enter")
        elif ch in "\x04":
            out.append("eof")
        elif ch in "123456":
            out.append(ch)
        elif ch.lower() in _WORDS:
            out.append(_WORDS[ch.lower()])
        elif ch == " ":
            out.append("enter")
        else:
            shown = ch if ch.isprintable() else repr(ch)[1:-1]
            out.append("other:" + shown)
        i += 1
    return out


class LineKeys:
    """Commands read one line at a time: a digit 1-6, u, h, q, y, n (or words)."""

    raw = False

    def __init__(self, stream: TextIO) -> None:
        """Read lines from ``stream``."""
        self.stream = stream

    def close(self) -> None:
        """Nothing to restore."""

    def read(self, timeout: float | None = None) -> str | None:
        """The next line's token (``timeout`` is ignored: lines are awaited)."""
        while True:
            line = self.stream.readline()
            if not line:
                return "eof"
            word = line.strip().lower()
            if not word:
                continue
            if word in ("1", "2", "3", "4", "5", "6"):
                return word
            if word in _WORDS:
                return _WORDS[word]
            return "other:" + line.strip()


def open_keys(stream: TextIO | None = None) -> RawKeys | LineKeys:
    """Raw keys when ``stream`` (default stdin) is a terminal, lines otherwise."""
    stream = sys.stdin if stream is None else stream
    try:
        if stream.isatty():
            return RawKeys(stream.fileno())
    except (termios.error, OSError, ValueError):
        pass
    return LineKeys(stream)
