"""``ayo replay``: a game record move by move, each in words with the board after it."""

from __future__ import annotations

from typing import TextIO

from ayo import Game, RecordError
from ayo.cli.board import Style
from ayo.cli.common import SEAT_NAMES, UsageError, describe_outcome, move_words
from ayo.cli.keys import KeyReader
from ayo.cli.printout import print_board

__all__ = ["replay"]


def replay(text: str, style: Style, out: TextIO, keys: KeyReader | None) -> int:
    """``ayo replay``: each move in words with the board after it.

    With ``keys`` (``--step``), waits for a key between moves (``q`` stops).
    """
    try:
        final = Game.from_record(text)
    except RecordError as e:
        raise UsageError(f"not a game record: {e}") from None
    start = text.split("|", 1)[0].strip()
    game = Game(position=start)
    out.write(f"Start: {start}\n")
    print_board(out, game, style)
    for i, pit in enumerate(final.moves, 1):
        if keys is not None:
            out.write("(any key: next move, q: stop)\n")
            out.flush()
            if keys.read() in ("q", "eof"):
                return 0
        action = int(pit) % 6
        out.write(f"\n{i}. {move_words(game, action)}\n")
        game.play(action)
        print_board(out, game, style, last=int(pit))
    if game.outcome is not None:
        out.write("\n" + describe_outcome(game.outcome, game.rules, stuck=game.to_move) + "\n")
    else:
        out.write(f"\n{SEAT_NAMES[game.to_move]} to move after {len(final.moves)} moves.\n")
    return 0
