"""The board as SVG: :func:`svg`, and :func:`show`'s :class:`Drawing` for Jupyter.

:func:`_svg_board` draws one board into a list of SVG elements and
:func:`_svg_document` wraps them in an ``<svg>`` element; the sowing
pictures of :mod:`ayo.display.sowing` are made of the same boards.
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ayo.display._style import (
    _ACTIVE,
    _BOARD,
    _BOARD_EDGE,
    _INK,
    _LAST_MOVE,
    _MOVER_ROW,
    _PIT,
    _SEED_TEXT,
    PLAYER_NAMES,
    _column,
    _last_pit,
    _move_number,
    _row,
)
from ayo.display.text_board import status_line
from ayo.display.words import pit_name

if TYPE_CHECKING:
    from ayo._ayo import Game


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
        out.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{c / 2 - 8:g}" fill="{_PIT}"{stroke}>'
            f"<title>{pit_name(pit, PLAYER_NAMES)}: "
            f"{int(board[pit])} seeds</title></circle>"
        )
        out.append(
            f'<text x="{cx:g}" y="{cy + 7:g}" font-size="20" font-weight="bold" '
            f'text-anchor="middle" fill="{_SEED_TEXT}">{int(board[pit])}</text>'
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
