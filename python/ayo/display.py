"""Pictures of an Ayo game: SVG for notebooks, plain text, and RGB images.

Everything here only *draws*: board, stores and the player to move come from
the game, and a move's sowing comes from :meth:`ayo.Game.trace`, whose events
are the rules engine's own account of the move.

* :func:`svg` — an SVG board with both rows, pit numbers, stores, the player
  to move and the last move marked.
* :func:`show` — a :class:`Drawing` that Jupyter displays (``_repr_svg_`` and
  ``_repr_html_``); :func:`sowing_frames` — a move's sowing as a strip of
  frames, also a :class:`Drawing`.
* :func:`text` — the board as text (with ANSI colours if asked).
* :func:`rgb_array` — an ``(H, W, 3)`` ``uint8`` image drawn with numpy alone
  (no GUI toolkit), digits from a small built-in bitmap font.

Layout (the usual mancala picture, sowing anticlockwise): South's row runs
left to right along the bottom (pits 0..5), North's row right to left along
the top (pits 6..11, so pit 11 is top left and faces pit 0). North's store is
on the left, South's on the right. Above and below each pit is its move
number for its owner (1..6, the web app's keys); the small grey number inside
a pit is its absolute index.
"""

from __future__ import annotations

import html as _html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ayo._ayo import Game

__all__ = [
    "RENDER_MODES",
    "Drawing",
    "Frame",
    "frames",
    "render",
    "rgb_array",
    "show",
    "sowing_animation",
    "sowing_frames",
    "svg",
    "text",
]

PLAYER_NAMES = ("South", "North")

# Colours shared by the SVG and RGB pictures.
_BOARD = "#c49a6c"
_BOARD_EDGE = "#8a6239"
_PIT = "#6b4423"
_MOVER_ROW = "#f2d38a"
_LAST_MOVE = "#e4572e"
_ACTIVE = "#2e86de"
_INK = "#2b2b2b"
_SEED_TEXT = "#ffffff"


# --------------------------------------------------------------------------
# Geometry shared by every picture
# --------------------------------------------------------------------------


def _column(pit: int) -> int:
    """Screen column (0..5, left to right) of an absolute pit."""
    return pit if pit < 6 else 11 - pit


def _row(pit: int) -> int:
    """Screen row of a pit: 0 for North's (top), 1 for South's (bottom)."""
    return 1 if pit < 6 else 0


def _move_number(pit: int) -> int:
    """The owner's move number (1..6) of an absolute pit."""
    return pit % 6 + 1


@dataclass(frozen=True)
class Frame:
    """One picture of a board during a move's sowing.

    Attributes:
        board: seeds in pits 0..11.
        stores: seeds in South's and North's stores.
        hand: seeds in the mover's hand.
        caption: what happened in this frame, in words.
        pits: absolute pits this frame is about (drawn highlighted).
    """

    board: tuple[int, ...]
    stores: tuple[int, int]
    hand: int
    caption: str
    pits: tuple[int, ...]


class Drawing:
    """An SVG picture that Jupyter displays inline.

    ``_repr_svg_`` and ``_repr_html_`` return the picture, so a ``Drawing`` as
    the last expression of a cell is drawn; :attr:`svg` is the SVG text and
    :meth:`save` writes it to a file.
    """

    __slots__ = ("svg",)

    def __init__(self, svg_text: str) -> None:
        """Wrap ``svg_text``, a complete ``<svg>`` element."""
        self.svg = svg_text

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return f'<div class="ayo-board">{self.svg}</div>'

    def save(self, path: str) -> None:
        """Write the SVG to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"Drawing({len(self.svg)} characters of SVG)"


# --------------------------------------------------------------------------
# SVG
# --------------------------------------------------------------------------

_CELL = 64
_MARGIN = 12
_LABEL = 20
_STATUS = 26


def _svg_board(
    out: list[str],
    board: Sequence[int],
    stores: Sequence[int],
    *,
    x0: float,
    y0: float,
    to_move: int | None,
    last_pit: int | None,
    active: Sequence[int] = (),
    status: str = "",
    hand: int | None = None,
) -> None:
    """Append the SVG elements of one board whose top left corner is (x0, y0)."""
    c = _CELL
    w = 8 * c
    h = _LABEL * 2 + 2 * c
    esc = _html.escape
    out.append(f'<g transform="translate({x0:g},{y0:g})">')
    out.append(
        f'<rect x="0" y="{_LABEL}" width="{w}" height="{2 * c}" rx="{c // 2}" '
        f'fill="{_BOARD}" stroke="{_BOARD_EDGE}" stroke-width="3"/>'
    )
    if to_move is not None:
        row = 1 - to_move
        out.append(
            f'<rect x="{c}" y="{_LABEL + row * c + 3}" width="{6 * c}" '
            f'height="{c - 6}" rx="10" fill="{_MOVER_ROW}" opacity="0.85">'
            f"<title>{PLAYER_NAMES[to_move]} to move</title></rect>"
        )
    # Stores: North's on the left, South's on the right.
    for player, col in ((1, 0), (0, 7)):
        cx = col * c + c / 2
        cy: float = _LABEL + c
        out.append(
            f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{c / 2 - 8:g}" ry="{c - 10:g}" '
            f'fill="{_PIT}"><title>{PLAYER_NAMES[player]} store</title></ellipse>'
        )
        out.append(
            f'<text x="{cx:g}" y="{cy + 8:g}" font-size="22" font-weight="bold" '
            f'text-anchor="middle" fill="{_SEED_TEXT}">{int(stores[player])}</text>'
        )
        label_y = _LABEL - 6 if player == 1 else h - 5
        out.append(
            f'<text x="{cx:g}" y="{label_y}" font-size="11" text-anchor="middle" '
            f'fill="{_INK}">{PLAYER_NAMES[player]}</text>'
        )
    for pit in range(12):
        col, row = _column(pit), _row(pit)
        cx = (col + 1) * c + c / 2
        cy = _LABEL + row * c + c / 2
        stroke = ""
        if pit in active:
            stroke = f' stroke="{_ACTIVE}" stroke-width="5"'
        elif pit == last_pit:
            stroke = f' stroke="{_LAST_MOVE}" stroke-width="5"'
        owner = PLAYER_NAMES[0 if pit < 6 else 1]
        out.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{c / 2 - 8:g}" fill="{_PIT}"{stroke}>'
            f"<title>pit {pit}: {owner} {_move_number(pit)}, "
            f"{int(board[pit])} seeds</title></circle>"
        )
        out.append(
            f'<text x="{cx:g}" y="{cy + 7:g}" font-size="20" font-weight="bold" '
            f'text-anchor="middle" fill="{_SEED_TEXT}">{int(board[pit])}</text>'
        )
        out.append(
            f'<text x="{cx + 15:g}" y="{cy + 19:g}" font-size="8" '
            f'text-anchor="middle" fill="#d9c3a5">{pit}</text>'
        )
        label_y = _LABEL - 6 if row == 0 else h - 5
        out.append(
            f'<text x="{cx:g}" y="{label_y}" font-size="13" text-anchor="middle" '
            f'fill="{_INK}">{_move_number(pit)}</text>'
        )
    line = status
    if hand is not None:
        line = f"{status}  (in hand: {hand})" if status else f"in hand: {hand}"
    if line:
        out.append(
            f'<text x="{w / 2:g}" y="{h + 18}" font-size="14" text-anchor="middle" '
            f'fill="{_INK}">{esc(line)}</text>'
        )
    out.append("</g>")


def _svg_document(width: float, height: float, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" '
        f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" '
        'font-family="Helvetica, Arial, sans-serif">' + "".join(body) + "</svg>"
    )


def _last_pit(game: Game) -> int | None:
    moves = game.moves
    return int(moves[-1]) if moves else None


def status_line(game: Game) -> str:
    """One line saying who is to move, the last move, or how the game ended."""
    last = _last_pit(game)
    parts = []
    outcome = game.outcome
    if outcome is not None:
        south, north = outcome.scores
        if outcome.winner is None:
            parts.append(f"Draw {south}-{north} ({outcome.reason})")
        else:
            parts.append(f"{PLAYER_NAMES[outcome.winner]} wins {south}-{north} ({outcome.reason})")
    elif game.status == "truncated":
        parts.append(f"Stopped at the ply cap, {PLAYER_NAMES[game.to_move]} to move")
    else:
        parts.append(f"{PLAYER_NAMES[game.to_move]} to move")
    if last is not None:
        parts.append(f"last: {PLAYER_NAMES[0 if last < 6 else 1]} {_move_number(last)}")
    parts.append(f"ply {game.ply}")
    return " · ".join(parts)


def svg(game: Game) -> str:
    """The board of ``game`` as an SVG document (a string).

    Both rows with their move numbers (1..6 for each owner) and absolute pit
    indices, both stores, the row of the player to move shaded, the pit of the
    last move ringed, and a status line (who is to move, or the outcome).
    """
    body: list[str] = []
    over = game.outcome is not None
    _svg_board(
        body,
        [int(s) for s in game.board],
        [int(s) for s in game.stores],
        x0=_MARGIN,
        y0=_MARGIN,
        to_move=None if over else int(game.to_move),
        last_pit=_last_pit(game),
        status=status_line(game),
    )
    width = 8 * _CELL + 2 * _MARGIN
    height = 2 * _LABEL + 2 * _CELL + _STATUS + 2 * _MARGIN
    return _svg_document(width, height, body)


def show(game: Game) -> Drawing:
    """A :class:`Drawing` of ``game`` for Jupyter (see :func:`svg`)."""
    return Drawing(svg(game))


# --------------------------------------------------------------------------
# Sowing frames, from the engine's trace
# --------------------------------------------------------------------------


def _player_index(value: Any) -> int:
    """A player from a trace field: 0/1 or "south"/"north"."""
    if isinstance(value, str):
        return PLAYER_NAMES.index(value.capitalize())
    return int(value)


def _replay(game: Game, events: Sequence[Mapping[str, Any]], by_seed: bool) -> list[Frame]:
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
        nonlocal sown
        if sown:
            span = f"{sown[0]}" if len(sown) == 1 else f"{sown[0]}..{sown[-1]}"
            emit(f"{lap_caption}, sow pits {span}", sown)
            sown = []

    for ev in events:
        kind = ev["event"]
        if kind in ("lift", "relay"):
            flush_lap()
            pit, seeds = int(ev["pit"]), int(ev["seeds"])
            board[pit] = 0
            hand = seeds
            verb = "lift" if kind == "lift" else "relay: lift"
            lap_caption = f"{verb} {seeds} from pit {pit}"
            if by_seed:
                emit(lap_caption, [pit])
        elif kind == "drop":
            pit = int(ev["pit"])
            board[pit] += 1
            hand -= 1
            if by_seed:
                emit(f"drop into pit {pit}", [pit])
            else:
                sown.append(pit)
        elif kind == "collect":
            flush_lap()
            pit, to = int(ev["pit"]), _player_index(ev["to"])
            board[pit] -= 4
            stores[to] += 4
            emit(f"pit {pit} made 4: {PLAYER_NAMES[to]} takes them", [pit])
        elif kind == "capture":
            flush_lap()
            pit, seeds = int(ev["pit"]), int(ev["seeds"])
            board[pit] -= seeds
            stores[mover] += seeds
            emit(f"{PLAYER_NAMES[mover]} captures {seeds} from pit {pit}", [pit])
        elif kind == "grand_slam_forfeited":
            flush_lap()
            emit(f"grand slam: the capture of {int(ev['seeds'])} is forfeited", [])
        elif kind == "end":
            flush_lap()
            reason = str(ev["reason"]).replace("_", " ")
            emit(f"move ends in pit {int(ev['pit'])} ({reason})", [int(ev["pit"])])
        else:
            raise ValueError(f"unknown trace event {kind!r}")
    flush_lap()
    return frames


def frames(game: Game, action: int, *, by_seed: bool = False) -> list[Frame]:
    """The sowing of ``action`` (0..5, relative to the mover) as frames.

    The frames replay the events of ``game.trace(action)``: the first is the
    position before the move, the last the board and stores after it. With
    ``by_seed=False`` (default) each lap (a lift or relay and its drops) is one
    frame and each capture or collected 4 another; with ``by_seed=True``
    every event is a frame. ``game`` is not changed; an illegal action raises
    :class:`ayo.IllegalMoveError`.
    """
    return _replay(game, game.trace(action), by_seed)


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
    pit = action + 6 * mover
    cell_w = 8 * _CELL + 2 * _MARGIN
    cell_h = 2 * _LABEL + 2 * _CELL + _STATUS + 2 * _MARGIN
    rows = (len(shown) + columns - 1) // columns
    header = 30
    body: list[str] = [
        f'<text x="{_MARGIN}" y="22" font-size="18" fill="{_INK}">'
        f"{PLAYER_NAMES[mover]} plays {action + 1} (pit {pit}): "
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


# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------


def text(game: Game, *, color: bool = False) -> str:
    """The board as a few lines of text (ANSI colours with ``color=True``).

    North's row is on top, right to left; South's below, left to right; the
    stores at the ends (North's left, South's right); move numbers above and
    below; the last move in brackets; then the status line.
    """
    board = [int(s) for s in game.board]
    stores = [int(s) for s in game.stores]
    last = _last_pit(game)
    mover = None if game.outcome is not None else int(game.to_move)
    bold, rev, reset = ("\x1b[1m", "\x1b[7m", "\x1b[0m") if color else ("", "", "")

    def cell(pit: int) -> str:
        s = f"[{board[pit]}]".rjust(4) if pit == last else f" {board[pit]:>2} "
        return f"{rev}{s}{reset}" if color and pit == last else s

    def mark(player: int) -> str:
        return f"{bold}>{reset}" if player == mover else " "

    top_numbers = "".join(f" {_move_number(p):>2} " for p in range(11, 5, -1))
    bottom_numbers = "".join(f" {_move_number(p):>2} " for p in range(6))
    north = "".join(cell(p) for p in range(11, 5, -1))
    south = "".join(cell(p) for p in range(6))
    pad = " " * 7
    lines = [
        f"{pad}{top_numbers}   North",
        f"{mark(1)}{stores[1]:>4}  {north}",
        f"{pad}{' ' * 24}  {stores[0]:>3}",
        f"{mark(0)}{'':>4}  {south}",
        f"{pad}{bottom_numbers}   South",
        status_line(game),
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# RGB image, numpy only
# --------------------------------------------------------------------------

# A 3x5 bitmap font: each digit is 5 rows of 3 bits, most significant bit left.
_FONT: dict[str, tuple[int, int, int, int, int]] = {
    "0": (0b111, 0b101, 0b101, 0b101, 0b111),
    "1": (0b010, 0b110, 0b010, 0b010, 0b111),
    "2": (0b111, 0b001, 0b111, 0b100, 0b111),
    "3": (0b111, 0b001, 0b111, 0b001, 0b111),
    "4": (0b101, 0b101, 0b111, 0b001, 0b001),
    "5": (0b111, 0b100, 0b111, 0b001, 0b111),
    "6": (0b111, 0b100, 0b111, 0b101, 0b111),
    "7": (0b111, 0b001, 0b010, 0b010, 0b010),
    "8": (0b111, 0b101, 0b111, 0b101, 0b111),
    "9": (0b111, 0b101, 0b111, 0b001, 0b111),
}


@lru_cache(maxsize=64)
def _text_mask(s: str, px: int) -> npt.NDArray[np.bool_]:
    """The pixels of the digits ``s``, each font pixel ``px`` image pixels."""
    parts: list[npt.NDArray[np.bool_]] = []
    for i, ch in enumerate(s):
        if i:
            parts.append(np.zeros((5 * px, px), dtype=bool))
        parts.append(np.kron(_glyph(ch), np.ones((px, px), dtype=bool)))
    mask = np.hstack(parts)
    mask.flags.writeable = False
    return mask


def _glyph(ch: str) -> npt.NDArray[np.bool_]:
    rows = _FONT[ch]
    return np.array([[(r >> (2 - b)) & 1 for b in range(3)] for r in rows], dtype=bool)


def _rgb(color: str) -> npt.NDArray[np.uint8]:
    value = int(color.lstrip("#"), 16)
    return np.array([(value >> 16) & 255, (value >> 8) & 255, value & 255], dtype=np.uint8)


def _draw_text(
    img: npt.NDArray[np.uint8], s: str, cx: float, cy: float, px: int, color: str
) -> None:
    """Draw digits ``s`` centred on (cx, cy), each font pixel ``px`` image pixels."""
    mask = _text_mask(s, px)
    h, w = mask.shape
    top, left = round(cy - h / 2), round(cx - w / 2)
    region = img[top : top + h, left : left + w]
    region[mask[: region.shape[0], : region.shape[1]]] = _rgb(color)


@dataclass(frozen=True)
class _Layout:
    """Pixel geometry of the RGB picture at one scale."""

    scale: int

    @property
    def cell(self) -> int:
        return 64 * self.scale

    @property
    def label(self) -> int:
        return 24 * self.scale

    @property
    def height(self) -> int:
        return 2 * self.cell + 2 * self.label

    @property
    def width(self) -> int:
        return 8 * self.cell + 32 * self.scale

    def pit_centre(self, pit: int) -> tuple[float, float]:
        c = self.cell
        return 16 * self.scale + (_column(pit) + 1) * c + c / 2, self.label + _row(pit) * c + c / 2

    def store_centre(self, player: int) -> tuple[float, float]:
        c = self.cell
        col = 7 if player == 0 else 0
        return 16 * self.scale + col * c + c / 2, self.label + c


@lru_cache(maxsize=64)
def _background(scale: int, mover: int | None, last: int | None) -> npt.NDArray[np.uint8]:
    """Everything of the RGB picture but the seed counts (read-only, cached)."""
    lay = _Layout(scale)
    c, label, height, width = lay.cell, lay.label, lay.height, lay.width
    x_off = 16 * scale
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = _rgb("#fbf7ef")
    yy, xx = np.mgrid[0:height, 0:width]
    # Board: a rectangle with rounded corners.
    inside = (xx >= x_off) & (xx < x_off + 8 * c) & (yy >= label) & (yy < label + 2 * c)
    radius = c // 2
    nx = np.clip(xx, x_off + radius, x_off + 8 * c - radius)
    ny = np.clip(yy, label + radius, label + 2 * c - radius)
    img[inside & ((xx - nx) ** 2 + (yy - ny) ** 2 <= radius**2)] = _rgb(_BOARD)
    if mover is not None:
        top = label + (1 - mover) * c + 3 * scale
        shade = (yy >= top) & (yy < top + c - 6 * scale)
        shade &= (xx >= x_off + c) & (xx < x_off + 7 * c)
        img[shade] = _rgb(_MOVER_ROW)
    pit_r = c / 2 - 8 * scale
    for pit in range(12):
        cx, cy = lay.pit_centre(pit)
        d2 = (xx - cx) ** 2 + (yy - cy) ** 2
        if pit == last:
            img[d2 < (pit_r + 4 * scale) ** 2] = _rgb(_LAST_MOVE)
        img[d2 < pit_r**2] = _rgb(_PIT)
        label_y = label / 2 if _row(pit) == 0 else height - label / 2
        _draw_text(img, str(_move_number(pit)), cx, label_y, 2 * scale, _INK)
    for player in (0, 1):
        cx, cy = lay.store_centre(player)
        ellipse = ((xx - cx) / (c / 2 - 8 * scale)) ** 2 + ((yy - cy) / (c - 10 * scale)) ** 2
        img[ellipse < 1] = _rgb(_PIT)
    img.flags.writeable = False
    return img


def rgb_array(game: Game, *, scale: int = 1) -> npt.NDArray[np.uint8]:
    """The board as an ``(H, W, 3)`` ``uint8`` RGB image, drawn with numpy.

    Same layout as :func:`svg`: pits as circles with their seed counts in a
    bitmap font, stores as ovals, the mover's row shaded, the last move's pit
    ringed, move numbers above and below the rows. At ``scale=1`` the image is
    ``176 x 544`` pixels; ``scale`` (a positive integer) multiplies both sides.
    Each call returns a new array.
    """
    if not isinstance(scale, int) or isinstance(scale, bool) or scale < 1:
        raise ValueError("scale must be a positive integer")
    mover = None if game.outcome is not None else int(game.to_move)
    img: npt.NDArray[np.uint8] = _background(scale, mover, _last_pit(game)).copy()
    lay = _Layout(scale)
    for pit, seeds in enumerate(game.board):
        cx, cy = lay.pit_centre(pit)
        _draw_text(img, str(int(seeds)), cx, cy, 4 * scale, _SEED_TEXT)
    for player, seeds in enumerate(game.stores):
        cx, cy = lay.store_centre(player)
        _draw_text(img, str(int(seeds)), cx, cy, 4 * scale, _SEED_TEXT)
    return img


#: The render modes of the environments, in Gymnasium's terms.
RENDER_MODES = ("ansi", "rgb_array")


def render(game: Game, mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """What an environment's ``render()`` returns for ``render_mode=mode``.

    ``"ansi"``: :func:`text`; ``"rgb_array"``: :func:`rgb_array`; ``None``:
    nothing (with Gymnasium's usual warning). Any other mode is a ``ValueError``.
    """
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode")
        return None
    if mode == "ansi":
        return text(game)
    if mode == "rgb_array":
        return rgb_array(game)
    raise ValueError(f"render mode must be one of {RENDER_MODES} or None, not {mode!r}")
