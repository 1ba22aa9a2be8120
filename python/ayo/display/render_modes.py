"""What the environments' ``render()`` returns: :func:`render` and :data:`RENDER_MODES`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ayo.display.raster import rgb_array
from ayo.display.text_board import text

if TYPE_CHECKING:
    from ayo._ayo import Game

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
