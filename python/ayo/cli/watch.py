"""``ayo watch``: the computer plays itself, one level against another, on screen.

On a terminal, ``q`` stops the game and any other key shows the next move
at once (skipping the wait or the sowing); the keys are shown under the board.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ayo import Game, Rules
from ayo.ai import Player
from ayo.cli.animation import animate
from ayo.cli.board import View, draw
from ayo.cli.common import describe_outcome, seed_plus
from ayo.cli.keys import KeyReader
from ayo.cli.move_words import move_words
from ayo.cli.screen import Screen

__all__ = ["KEYS_HELP", "watch"]

#: The keys of ``ayo watch``, shown under the board.
KEYS_HELP = "q quit · any other key: the next move now"


def watch(
    rules: Rules,
    levels: Sequence[str],
    seed: int,
    delay: float,
    screen: Screen,
    keys: KeyReader | None,
    animation: bool,
    players: Sequence[Player] | None = None,
) -> int:
    """``ayo watch``: level ``levels[0]`` (South) against ``levels[1]`` (North).

    ``players`` are the two players when already made (level perfect).
    ``keys`` (on a terminal) are read while waiting: ``q`` stops the game.
    """
    if players is None:
        players = [Player(levels[0], seed=seed), Player(levels[1], seed=seed_plus(seed, 1))]
    names = (f"Level {levels[0]}", f"Level {levels[1]}")
    game = Game(rules)
    style = screen.style
    header = [f"{style.bold}Ayo{style.reset} · watching level {levels[0]} against {levels[1]}", ""]
    footer = [KEYS_HELP] if keys is not None else []
    last: int | None = None
    said = ""
    while not game.is_over:
        view = View(
            board=[int(s) for s in game.board],
            stores=[int(s) for s in game.stores],
            names=names,
            to_move=game.to_move,
            last=last,
        )
        screen.show([*header, *draw(view, style), "", *screen.wrap(said), *footer])
        action = players[game.to_move].choose(game)
        said = move_words(game, action, names) + "."
        key = None
        if animation and keys is not None:
            key = animate(
                screen,
                game,
                action,
                header=header,
                bottom=0,
                names=names,
                keys=keys,
                delay=delay,
                footer=footer,
            )
        elif delay > 0:
            if keys is not None:
                key = keys.read(timeout=delay)
            else:
                time.sleep(delay)
        if key in ("q", "eof"):
            screen.say(f"Stopped before move {len(game.moves) + 1}.")
            screen.say_whole(f"Game record so far: {game.record()}")
            return 0
        last = action + 6 * game.to_move
        game.play(action)
    view = View(
        board=[int(s) for s in game.board],
        stores=[int(s) for s in game.stores],
        names=names,
        last=last,
    )
    outcome = game.outcome
    assert outcome is not None
    screen.show(
        [
            *header,
            *draw(view, style),
            "",
            *screen.wrap(said),
            *screen.wrap(describe_outcome(outcome, rules, names, stuck=game.to_move)),
        ]
    )
    screen.say_whole(f"Game record: {game.record()}")
    return 0
