"""``ayo replay``: a game record move by move, each in words with the board after it.

A record whose move cannot be played is a usage error in people's words: the
move's number and text, and the engine's reason (:class:`ayo.IllegalMoveError`)
with the pit named by its owner and number 1..6, never the engine's 0..5
actions or 0..11 pits.
"""

from __future__ import annotations

from typing import TextIO

from ayo import Game, IllegalMoveError, RecordError
from ayo.cli.board import Style
from ayo.cli.common import SEAT_NAMES, UsageError, describe_outcome, pit_words
from ayo.cli.keys import KeyReader
from ayo.cli.move_words import illegal_words, move_words
from ayo.cli.printout import print_board

__all__ = ["record_problem", "replay"]


def record_problem(text: str, error: RecordError) -> str:
    """What is wrong with game record ``text``, in people's words.

    A bad move (``error.field == "move"``) is told from the position before
    it: ``move 3 (1): South's pit 1 is empty`` or ``move 1 (9): a move is a
    pit number 1 to 6 of the player to move``. Any other field keeps the
    engine's message (it names no pit or action).
    """
    if getattr(error, "field", "") != "move":
        return f"not a game record: {error}"
    offset = int(getattr(error, "offset", 0))
    token = text[offset:].split(maxsplit=1)[0] if text[offset:].strip() else ""
    try:
        before = Game.from_record(text[:offset].rstrip())
    except RecordError:
        return f"not a game record: {error}"
    number = len(before.moves) + 1
    head = f"not a game record: move {number} ({token})"
    if before.is_over:
        return f"{head}: the game was already over"
    if token not in ("1", "2", "3", "4", "5", "6"):
        return f"{head}: a move is a pit number 1 to 6 of the player to move"
    action = int(token) - 1
    mover = int(before.to_move)
    try:
        before.trace(action)
    except IllegalMoveError as e:
        pit = pit_words(mover * 6 + action)
        return f"{head}: {pit} cannot be played: {illegal_words(e, mover, SEAT_NAMES)}"
    return f"not a game record: {error}"


def replay(text: str, style: Style, out: TextIO, keys: KeyReader | None) -> int:
    """``ayo replay``: each move in words with the board after it.

    With ``keys`` (``--step``), waits for a key between moves (``q`` stops).
    """
    try:
        final = Game.from_record(text)
    except RecordError as e:
        raise UsageError(record_problem(text, e)) from None
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
        out.write(f"\n{i}. {move_words(game, action)}.\n")
        game.play(action)
        print_board(out, game, style, last=int(pit))
    if game.outcome is not None:
        out.write("\n" + describe_outcome(game.outcome, game.rules, stuck=game.to_move) + "\n")
    else:
        out.write(f"\n{SEAT_NAMES[game.to_move]} to move after {len(final.moves)} moves.\n")
    return 0
