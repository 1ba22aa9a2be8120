"""The messages a browser may send ``ayo serve``, parsed and checked before anything acts on them.

A message is one JSON object in a text frame of at most
:data:`MAX_MESSAGE_BYTES`, with a ``kind`` and exactly the fields of that
kind, each of its type and range:

``{"kind": "new", "opponent": O, "preset": P, "human": 0|1, "relay": B, ...}``
    a new game: ``opponent`` a computer level, ``"two players"`` (one
    device) or ``"link"`` (two devices: the other seat is taken by whoever
    opens the link); the four house-rule toggles ``relay``,
    ``collect_four``, ``sweep`` and ``feed`` are booleans or null (the
    preset's); ``player`` (optional) names the browser for its personal best.
``{"kind": "join", "game": ID, "token": T|null}``
    a game by its link: the seat whose token this is, else a free seat of a
    linked game, else a place to watch.
``{"kind": "play", "pit": 1..6}``
    sow the mover's pit (numbered from the mover's side). Nothing else:
    which seat plays is the connection's, checked by the server.
``{"kind": "undo"}`` and ``{"kind": "new_game"}``
    take back, or start again with the same settings.

Anything else is a :class:`ProtocolError` with a ``code`` the page shows;
nothing is changed by a message that does not parse. What a message may ask
(the game exists, the seat is the sender's, the turn is theirs, the move is
legal) is the game registry's to decide (:mod:`ayo.serve.games`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TypeGuard

from ayo import AyoError, Rules
from ayo.board_view import TWO_PLAYERS

__all__ = [
    "LINK",
    "MAX_MESSAGE_BYTES",
    "Join",
    "Message",
    "NewGame",
    "Play",
    "ProtocolError",
    "Restart",
    "ServeError",
    "Undo",
    "parse",
]

#: The largest message read, in bytes of UTF-8: the longest valid one is
#: well under half of this.
MAX_MESSAGE_BYTES = 1024

#: The ``opponent`` of a game for two devices, played through a link.
LINK = "link"

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_TOGGLES = ("relay", "collect_four", "sweep", "feed")


class ServeError(AyoError):
    """A request ``ayo serve`` refuses; ``code`` names the refusal for programs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ProtocolError(ServeError):
    """A message that is not one of the protocol's (too large, not JSON, a bad field)."""


@dataclass(frozen=True)
class NewGame:
    """Start a game: against a computer level, two players on one device, or by a link."""

    opponent: str
    preset: str
    human: int
    toggles: dict[str, bool | None]
    player: str | None


@dataclass(frozen=True)
class Join:
    """Take a seat of game ``game`` (with its ``token``), or watch it."""

    game: str
    token: str | None


@dataclass(frozen=True)
class Play:
    """Sow the mover's pit ``pit`` (1..6)."""

    pit: int


@dataclass(frozen=True)
class Undo:
    """Take back the last move (against the computer: the person's move and its reply)."""


@dataclass(frozen=True)
class Restart:
    """A new game with the settings of the one the connection is in."""


Message = NewGame | Join | Play | Undo | Restart

_FIELDS: dict[str, frozenset[str]] = {
    "new": frozenset({"opponent", "preset", "human", "player", *_TOGGLES}),
    "join": frozenset({"game", "token"}),
    "play": frozenset({"pit"}),
    "undo": frozenset(),
    "new_game": frozenset(),
}


def parse(text: str | bytes, levels: list[str]) -> Message:
    """The message in ``text`` (a websocket frame), checked; :class:`ProtocolError` if not one.

    ``levels`` are the computer levels this server plays (level ``perfect``
    only where it has databases).
    """
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "messages are JSON text, not binary frames")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        # RecursionError: arrays nested deeper than the parser goes.
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is one JSON object")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("unknown_kind", f"kind must be one of {', '.join(_FIELDS)}")
    extra = set(data) - _FIELDS[kind] - {"kind"}
    if extra:
        raise ProtocolError("bad_field", f"a {kind} message has no field {sorted(extra)[0]!r}")
    if kind == "play":
        pit = data.get("pit")
        if not _whole(pit) or not 1 <= pit <= 6:
            raise ProtocolError("bad_field", "pit must be a whole number 1 to 6")
        return Play(pit)
    if kind == "undo":
        return Undo()
    if kind == "new_game":
        return Restart()
    if kind == "join":
        game, token = data.get("game"), data.get("token")
        if not isinstance(game, str) or not _ID.fullmatch(game):
            raise ProtocolError("bad_field", "game must be a game's name from its link")
        if token is not None and (not isinstance(token, str) or not _TOKEN.fullmatch(token)):
            raise ProtocolError("bad_field", "token must be a seat's token or null")
        return Join(game, token)
    return _new_game(data, levels)


def _new_game(data: dict[str, object], levels: list[str]) -> NewGame:
    opponent, preset = data.get("opponent"), data.get("preset")
    human, player = data.get("human", 0), data.get("player")
    choices = [*levels, TWO_PLAYERS, LINK]
    if not isinstance(opponent, str) or opponent not in choices:
        raise ProtocolError("bad_field", f"opponent must be one of {', '.join(choices)}")
    if not isinstance(preset, str) or preset not in Rules.presets():
        raise ProtocolError("bad_field", f"preset must be one of {', '.join(Rules.presets())}")
    if not _whole(human) or human not in (0, 1):
        raise ProtocolError("bad_field", "human must be 0 (South) or 1 (North)")
    if player is not None and (not isinstance(player, str) or not _TOKEN.fullmatch(player)):
        raise ProtocolError("bad_field", "player must be this browser's name or null")
    toggles: dict[str, bool | None] = {}
    for name in _TOGGLES:
        value = data.get(name)
        if value is not None and not isinstance(value, bool):
            raise ProtocolError("bad_field", f"{name} must be true, false or null")
        toggles[name] = value
    return NewGame(opponent, preset, human, toggles, player)


def _whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an int (JSON's true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)
