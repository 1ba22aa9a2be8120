"""``ayo watch``: the computer plays itself, one level against another, on screen."""

from __future__ import annotations

import time
from collections.abc import Sequence

from ayo import Game, Rules
from ayo.ai import Player
from ayo.cli.board import View, draw
from ayo.cli.common import describe_outcome, move_words, seed_plus
from ayo.cli.keys import KeyReader
from ayo.cli.play import Screen, animate

__all__ = ["watch"]


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
    """
    if players is None:
        players = [Player(levels[0], seed=seed), Player(levels[1], seed=seed_plus(seed, 1))]
    names = (f"Level {levels[0]}", f"Level {levels[1]}")
    game = Game(rules)
    style = screen.style
    header = [f"{style.bold}Ayo{style.reset} · watching level {levels[0]} against {levels[1]}", ""]
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
        screen.show([*header, *draw(view, style), "", said])
        action = players[game.to_move].choose(game)
        said = move_words(game, action, names)
        if animation and keys is not None:
            animate(
                screen, game, action, header=header, bottom=0, names=names, keys=keys, delay=delay
            )
        elif delay > 0:
            if keys is not None:
                keys.read(timeout=delay)
            else:
                time.sleep(delay)
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
            said,
            describe_outcome(outcome, rules, names, stuck=game.to_move),
        ]
    )
    screen.say(f"Game record: {game.record()}")
    return 0
