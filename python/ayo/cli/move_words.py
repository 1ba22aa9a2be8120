"""A move in words, from the engine's trace: what it will do, what it did, why it cannot be.

Every fact comes from :meth:`ayo.Game.trace` and :meth:`ayo.Game.trace_summary`
(laps, the last seed's pit, each collected 4, capture and forfeited grand
slam), or from the engine's :class:`ayo.IllegalMoveError` reason; nothing
here decides a rule. Pits are named by owner and number 1..6
(:mod:`ayo.display.words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ayo import Game, IllegalMoveError
from ayo.display.words import SEAT_NAMES, pit_name, possessive, subject_verb

__all__ = ["illegal_words", "move_story", "move_words", "preview_words", "why_illegal"]


def _player(value: Any) -> int:
    """A seat from a trace field: 0/1 or "south"/"north"."""
    if isinstance(value, str):
        return 0 if value.lower() == "south" else 1
    return int(value)


def _gains(events: Sequence[Mapping[str, Any]], mover: int) -> list[tuple[int, str, int, int]]:
    """Seeds taken during the move, in order: (receiver, verb, seeds, absolute pit)."""
    out = []
    for ev in events:
        if ev["event"] == "collect":
            out.append((_player(ev["to"]), "collect", 4, int(ev["pit"])))
        elif ev["event"] == "capture":
            out.append((mover, "capture", int(ev["seeds"]), int(ev["pit"])))
    return out


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _gain_words(gains: Sequence[tuple[int, str, int, int]], names: Sequence[str]) -> list[str]:
    """``you collect 4 from Computer's pit 5 and 4 from your pit 1`` for each run of one taker."""
    phrases: list[str] = []
    i = 0
    while i < len(gains):
        who, verb = gains[i][0], gains[i][1]
        j = i
        while j < len(gains) and gains[j][:2] == (who, verb):
            j += 1
        parts = [f"{seeds} from {pit_name(pit, names)}" for _, _, seeds, pit in gains[i:j]]
        phrases.append(f"{subject_verb(names[who], verb, start=False)} {_join(parts)}")
        i = j
    return phrases


def move_story(game: Game, action: int, names: Sequence[str] = SEAT_NAMES, mark: str = "") -> str:
    """What ``action`` does in ``game``, from the trace: laps, last seed, what is taken.

    E.g. ``3 laps, the last seed in Computer's pit 2; you collect 4 from
    Computer's pit 5; Computer collects 4 from your pit 1``. ``mark`` follows
    the last seed's pit (`` (marked *)``). Raises :class:`ayo.IllegalMoveError`
    for a move that cannot be played.
    """
    events = game.trace(action)
    summary = game.trace_summary(action)
    laps = int(summary["laps"])
    last = int(summary["last_pit"])
    parts = [
        f"{laps} lap{'s' if laps != 1 else ''}, the last seed in {pit_name(last, names)}{mark}"
    ]
    gains = _gains(events, int(game.to_move))
    parts += _gain_words(gains, names)
    for ev in events:
        if ev["event"] == "grand_slam_forfeited":
            parts.append(
                f"the capture of {int(ev['seeds'])} is forfeited: it would empty a whole row"
            )
    if not gains:
        parts.append("nothing is taken")
    return "; ".join(parts)


def move_words(game: Game, action: int, names: Sequence[str] = SEAT_NAMES) -> str:
    """``action`` as played by the player to move: ``Computer plays 2: 4 laps, ...``."""
    mover = names[int(game.to_move)]
    return f"{subject_verb(mover, 'play')} {action + 1}: {move_story(game, action, names)}"


def illegal_words(error: IllegalMoveError, mover: int, names: Sequence[str]) -> str:
    """The engine's reason a move of seat ``mover`` is refused, in words."""
    reason = getattr(error, "reason", "")
    if reason == "empty_pit":
        return "it is empty"
    if reason == "endless_relay":
        return "its relays would go round forever (an endless relay)"
    if reason == "does_not_feed":
        other = possessive(names[1 - mover])
        return f"it leaves {other} empty row without seeds, and feeding is required"
    if reason in ("game_over", "truncated"):
        return "the game is already over"
    if reason == "action_out_of_range":
        return "a move is a pit number 1 to 6"
    return "it is not a legal move here"


def why_illegal(game: Game, action: int, names: Sequence[str] = SEAT_NAMES) -> str | None:
    """None when ``action`` can be played, else the engine's reason in words."""
    if game.is_legal(action):
        return None
    try:
        game.trace(action)
    except IllegalMoveError as e:
        return illegal_words(e, int(game.to_move), names)
    return "it is not a legal move here"


def preview_words(game: Game, action: int, names: Sequence[str] = SEAT_NAMES) -> str:
    """The preview of pit ``action + 1``: the whole move in one sentence, or why it cannot be."""
    why = why_illegal(game, action, names)
    if why is not None:
        return f"Pit {action + 1} cannot be played: {why}."
    return f"Pit {action + 1}: {move_story(game, action, names, mark=' (marked *)')}."
