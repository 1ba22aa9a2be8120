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

One module a picture: ``svg_board`` (SVG and :class:`Drawing`),
``text_board`` (text and the status line), ``raster`` (RGB), ``sowing``
(a move's frames and their SVG), ``render_modes`` (the environments'
``render``), with ``_style`` (names, colours, geometry) under them all.
This package only gathers their names.
"""

from __future__ import annotations

from ayo.display._style import PLAYER_NAMES as PLAYER_NAMES
from ayo.display.raster import _glyph as _glyph
from ayo.display.raster import rgb_array
from ayo.display.render_modes import RENDER_MODES, render
from ayo.display.sowing import Frame, frames, sowing_animation, sowing_frames
from ayo.display.svg_board import Drawing, show, svg
from ayo.display.text_board import status_line as status_line
from ayo.display.text_board import text

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
