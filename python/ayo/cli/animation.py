"""A move's sowing animated lap by lap in the terminal, from the engine's trace."""

from __future__ import annotations

from collections.abc import Sequence

from ayo import Game
from ayo.cli.board import View, draw
from ayo.cli.keys import KeyReader
from ayo.cli.screen import Screen
from ayo.display import frames
from ayo.display.words import subject_verb

__all__ = ["animate"]

# The longest an animation lasts, in seconds, however many laps (a long relay).
_LONGEST = 10.0


def animate(
    screen: Screen,
    game: Game,
    action: int,
    *,
    header: list[str],
    bottom: int,
    names: Sequence[str],
    keys: KeyReader,
    delay: float,
    footer: Sequence[str] = (),
) -> str | None:
    """Show the sowing of ``action`` (not yet played) lap by lap; the key that skipped it.

    The frames are :func:`ayo.display.frames` of the engine's trace, their
    captions naming pits by owner and number. A move with many laps is shown
    faster (at most about ten seconds in all). ``footer`` lines (the keys)
    are shown under each frame. Returns the key pressed to skip, or None.
    """
    steps = frames(game, action, names=names)[1:]
    if not steps:
        return None
    pause = min(delay, _LONGEST / len(steps))
    mover = int(game.to_move)
    title = f"{subject_verb(names[mover], 'play')} {action + 1}"
    for frame in steps:
        view = View(
            board=frame.board,
            stores=frame.stores,
            bottom=bottom,
            names=(names[0], names[1]),
            to_move=mover,
            active=frame.pits,
            hand=frame.hand or None,
        )
        lines = [
            *header,
            *draw(view, screen.style),
            "",
            *screen.wrap(f"{title}: {frame.caption}"),
            *footer,
        ]
        screen.show(lines)
        key = keys.read(timeout=pause)
        if key is not None:
            return key
    return None
