"""The board as an RGB image drawn with numpy alone: :func:`rgb_array`.

No GUI toolkit: pits, stores and the mover's row are filled by pixel masks,
and the digits come from a small built-in 3x5 bitmap font (:data:`_FONT`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ayo.display._style import (
    _BOARD,
    _INK,
    _LAST_MOVE,
    _MOVER_ROW,
    _PIT,
    _SEED_TEXT,
    _column,
    _last_pit,
    _move_number,
    _row,
)

if TYPE_CHECKING:
    from ayo._ayo import Game

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
