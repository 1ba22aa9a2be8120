"""A move's sowing, from the engine's trace: :func:`frames` and their pictures.

:func:`frames` replays the events of :meth:`ayo.Game.trace` (the rules
engine's own account of the move) as a list of :class:`Frame`;
:func:`sowing_frames` draws them as a strip of small SVG boards and
:func:`sowing_animation` as one animated SVG board. Captions name every pit
by its owner and number 1..6 (:mod:`ayo.display.words`), never by its 0..11
index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ayo.display._style import _INK, PLAYER_NAMES
from ayo.display.svg_board import (
    _CELL,
    _LABEL,
    _MARGIN,
    _STATUS,
    Drawing,
    _svg_board,
    _svg_document,
)
from ayo.display.words import pit_name, pit_runs, subject_verb

if TYPE_CHECKING:
    from ayo._ayo import Game


@dataclass(frozen=True)
class Frame:
    """One picture of a board during a move's sowing.

    Attributes:
        board: seeds in pits 0..11.
        stores: seeds in South's and North's stores.
        hand: seeds in the mover's hand.
        caption: what happened in this frame, in words (pits by owner and number 1..6).
        pits: absolute pits this frame is about (drawn highlighted).
    """

    board: tuple[int, ...]
    stores: tuple[int, int]
    hand: int
    caption: str
    pits: tuple[int, ...]


def _player_index(value: Any) -> int:
    """A player from a trace field: 0/1 or "south"/"north"."""
    if isinstance(value, str):
        return PLAYER_NAMES.index(value.capitalize())
    return int(value)


# Why the last lap ended (the trace's ``end`` reason), said of the pit it ended in.
_END_WORDS = {
    "empty_pit": "it was empty",
    "occupied": "it held seeds",
    "made_four": "it made 4",
    "two_three": "it made 2 or 3",
}


def _replay(
    game: Game, events: Sequence[Mapping[str, Any]], by_seed: bool, names: Sequence[str]
) -> list[Frame]:
    """Turn trace events into frames, starting from ``game``'s position."""
    board = [int(s) for s in game.board]
    stores = [int(s) for s in game.stores]
    mover = int(game.to_move)
    hand = 0
    frames = [Frame(tuple(board), (stores[0], stores[1]), 0, "start", ())]
    sown: list[int] = []
    lap_caption = ""

    def emit(caption: str, pits: Sequence[int]) -> None:
        frames.append(Frame(tuple(board), (stores[0], stores[1]), hand, caption, tuple(pits)))

    def flush_lap() -> None:
        nonlocal sown, lap_caption
        if sown:
            emit(f"{lap_caption}, sow {pit_runs(sown, names)}", sown)
            sown = []
        # A capture or a collect in the middle of a lap: the lap goes on with
        # the seeds still in hand, not with a second lift.
        if hand:
            lap_caption = f"{hand} {'seed' if hand == 1 else 'seeds'} still in hand"

    for ev in events:
        kind = ev["event"]
        if kind in ("lift", "relay"):
            flush_lap()
            pit, seeds = int(ev["pit"]), int(ev["seeds"])
            board[pit] = 0
            hand = seeds
            verb = "lift" if kind == "lift" else "relay: lift"
            lap_caption = f"{verb} {seeds} from {pit_name(pit, names)}"
            if by_seed:
                emit(lap_caption, [pit])
        elif kind == "drop":
            pit = int(ev["pit"])
            board[pit] += 1
            hand -= 1
            if by_seed:
                emit(f"drop into {pit_name(pit, names)}", [pit])
            else:
                sown.append(pit)
        elif kind == "collect":
            flush_lap()
            pit, to = int(ev["pit"]), _player_index(ev["to"])
            board[pit] -= 4
            stores[to] += 4
            taker = subject_verb(names[to], "take")
            emit(f"{pit_name(pit, names)} made 4: {taker} them", [pit])
        elif kind == "capture":
            flush_lap()
            pit, seeds = int(ev["pit"]), int(ev["seeds"])
            board[pit] -= seeds
            stores[mover] += seeds
            taker = subject_verb(names[mover], "capture")
            emit(f"{taker} {seeds} from {pit_name(pit, names)}", [pit])
        elif kind == "grand_slam_forfeited":
            flush_lap()
            emit(f"grand slam: the capture of {int(ev['seeds'])} is forfeited", [])
        elif kind == "end":
            flush_lap()
            pit, reason = int(ev["pit"]), str(ev["reason"])
            why = _END_WORDS.get(reason, reason.replace("_", " "))
            emit(f"the move ends in {pit_name(pit, names)} ({why})", [pit])
        else:
            raise ValueError(f"unknown trace event {kind!r}")
    flush_lap()
    return frames


def frames(
    game: Game, action: int, *, by_seed: bool = False, names: Sequence[str] = PLAYER_NAMES
) -> list[Frame]:
    """The sowing of ``action`` (0..5, relative to the mover) as frames.

    The frames replay the events of ``game.trace(action)``: the first is the
    position before the move, the last the board and stores after it. With
    ``by_seed=False`` (default) each lap (a lift or relay and its drops) is one
    frame and each capture or collected 4 another; with ``by_seed=True``
    every event is a frame. ``names`` are the seats' names in the captions
    (default South and North; ``"You"`` is addressed as "your pit 3").
    ``game`` is not changed; an illegal action raises
    :class:`ayo.IllegalMoveError`.
    """
    return _replay(game, game.trace(action), by_seed, names)


def sowing_frames(
    game: Game,
    action: int,
    *,
    by_seed: bool = False,
    columns: int = 3,
    max_frames: int = 36,
    scale: float = 0.6,
) -> Drawing:
    """A strip of small boards showing how ``action`` is sown (see :func:`frames`).

    Frames are laid out ``columns`` to a row. A move with more than
    ``max_frames`` frames (long relays) shows the first ``max_frames - 1``
    and the last, with a note of how many were left out. Raises
    :class:`ValueError` for ``columns < 1`` or ``max_frames < 2``.
    """
    if columns < 1:
        raise ValueError("columns must be at least 1")
    if max_frames < 2:
        raise ValueError("max_frames must be at least 2")
    if not scale > 0:
        raise ValueError("scale must be positive")
    all_frames = frames(game, action, by_seed=by_seed)
    shown = list(enumerate(all_frames))
    omitted = 0
    if len(shown) > max_frames:
        omitted = len(shown) - max_frames
        shown = shown[: max_frames - 1] + shown[-1:]
    mover = int(game.to_move)
    cell_w = 8 * _CELL + 2 * _MARGIN
    cell_h = 2 * _LABEL + 2 * _CELL + _STATUS + 2 * _MARGIN
    rows = (len(shown) + columns - 1) // columns
    header = 30
    body: list[str] = [
        f'<text x="{_MARGIN}" y="22" font-size="18" fill="{_INK}">'
        f"{PLAYER_NAMES[mover]} plays {action + 1}: "
        f"{len(all_frames) - 1} steps" + (f", {omitted} not shown" if omitted else "") + "</text>",
        f'<g transform="translate(0,{header}) scale({scale:g})">',
    ]
    for k, (index, frame) in enumerate(shown):
        col, row = k % columns, k // columns
        caption = f"{index}. {frame.caption}"
        if omitted and k == len(shown) - 1:
            caption = f"… {index}. {frame.caption}"
        _svg_board(
            body,
            frame.board,
            frame.stores,
            x0=col * cell_w + _MARGIN,
            y0=row * cell_h + _MARGIN,
            to_move=mover,
            last_pit=None,
            active=frame.pits,
            status=caption,
            hand=frame.hand if frame.hand else None,
        )
    body.append("</g>")
    width = max(columns * cell_w * scale, 420)
    height = header + rows * cell_h * scale
    return Drawing(_svg_document(width, height, body))


def sowing_animation(
    game: Game,
    action: int,
    *,
    by_seed: bool = True,
    seconds_per_frame: float = 0.5,
    max_frames: int = 400,
) -> Drawing:
    """The sowing of ``action`` as one animated SVG board, looping.

    The frames of :func:`frames` (one per seed by default) are shown one
    after the other with SVG's own animation (no script, so it plays in
    notebooks and browsers alike). A move with more than ``max_frames``
    frames keeps the first ``max_frames - 1`` and the last. Raises
    :class:`ValueError` for a ``seconds_per_frame`` that is not positive or
    ``max_frames < 2``, and :class:`ayo.IllegalMoveError` for an illegal move.
    """
    if not seconds_per_frame > 0:
        raise ValueError("seconds_per_frame must be positive")
    if max_frames < 2:
        raise ValueError("max_frames must be at least 2")
    all_frames = frames(game, action, by_seed=by_seed)
    shown = list(enumerate(all_frames))
    if len(shown) > max_frames:
        shown = shown[: max_frames - 1] + shown[-1:]
    mover = int(game.to_move)
    n = len(shown)
    total = n * seconds_per_frame
    body: list[str] = []
    for k, (index, frame) in enumerate(shown):
        start, end = k / n, (k + 1) / n
        if k == 0:
            values, times = "1;0", f"0;{end:.6f}"
        elif k == n - 1:
            values, times = "0;1", f"0;{start:.6f}"
        else:
            values, times = "0;1;0", f"0;{start:.6f};{end:.6f}"
        body.append(f'<g opacity="{1 if k == 0 else 0}">')
        body.append(
            f'<animate attributeName="opacity" calcMode="discrete" values="{values}" '
            f'keyTimes="{times}" dur="{total:g}s" repeatCount="indefinite"/>'
        )
        _svg_board(
            body,
            frame.board,
            frame.stores,
            x0=_MARGIN,
            y0=_MARGIN,
            to_move=mover,
            last_pit=None,
            active=frame.pits,
            status=f"{index}/{len(all_frames) - 1}. {frame.caption}",
            hand=frame.hand if frame.hand else None,
        )
        body.append("</g>")
    width = 8 * _CELL + 2 * _MARGIN
    height = 2 * _LABEL + 2 * _CELL + _STATUS + 2 * _MARGIN
    return Drawing(_svg_document(width, height, body))
