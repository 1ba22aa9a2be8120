"""The ``ayo`` command: play Ayo against the computer in the terminal, and more.

::

    ayo play [--rules PRESET] [--rule key=value ...] [--level N|max]
             [--first human|computer] [--seed N] [--no-color] [--no-animation]
    ayo watch [--rules ...] [--levels A B] [--delay S]
    ayo arena [--rules ...] [--levels L ...] [--games N]
    ayo analyze "<position record>" [--level N|max]
    ayo replay "<game record>" [--step]
    ayo rules [PRESET] [--rule key=value ...]
    ayo scores

Every rule, move, sowing and outcome comes from the Rust engine (``ayo._ayo``)
and every computer move and analysis from :mod:`ayo.ai`; this package only
reads keys and draws. See ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ayo import Game, Rules

__all__ = ["build_parser", "main"]

_DEFAULT_LEVEL = "4"


def _add_rules_args(p: argparse.ArgumentParser, preset_flag: bool = True) -> None:
    if preset_flag:
        p.add_argument(
            "--rules",
            metavar="PRESET",
            default=None,
            help="preset: " + ", ".join(Rules.presets()) + " (default: ayo, the web app's)",
        )
    p.add_argument(
        "--rule",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="override one rule parameter (repeatable), e.g. --rule target=none",
    )


def _add_display_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    p.add_argument("--no-animation", action="store_true", help="do not animate sowings")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ayo``."""
    parser = argparse.ArgumentParser(
        prog="ayo",
        description="Ayo, the Yoruba sowing game: play against the computer in the terminal.",
        epilog="Start with `ayo play`; `ayo rules` explains the rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    from ayo.ai import Player

    p = sub.add_parser(
        "play",
        help="play against the computer",
        description="Play against the computer. Keys: 1-6 sow your pits, arrows and Enter "
        "choose and sow, u undo, h hint, q quit. Without a terminal, type one command a line.",
        epilog="levels: " + "; ".join(Player.describe_level(x) for x in Player.levels()),
    )
    _add_rules_args(p)
    p.add_argument("--level", default=_DEFAULT_LEVEL, help="computer level 1-8 or max (default 4)")
    p.add_argument(
        "--first",
        choices=("human", "computer"),
        default="human",
        help="who moves first (default: you)",
    )
    p.add_argument("--seed", type=int, default=None, help="the computer's seed (default random)")
    p.add_argument(
        "--delay", type=float, default=0.35, help="seconds per animation frame (default 0.35)"
    )
    _add_display_args(p)

    p = sub.add_parser("watch", help="watch the computer play itself")
    _add_rules_args(p)
    p.add_argument(
        "--levels", nargs=2, metavar=("A", "B"), default=["3", "5"], help="South's and North's"
    )
    p.add_argument("--delay", type=float, default=0.5, help="seconds between moves (default 0.5)")
    p.add_argument("--seed", type=int, default=1, help="the players' seed (default 1)")
    _add_display_args(p)

    p = sub.add_parser(
        "arena",
        help="round robin between levels or players, with an Elo table",
        description="A round robin between levels (1-8, max) or players given as "
        "kind[:budget] (random, greedy, alphabeta:depth=6, mcts:nodes=20000, "
        "alphabeta:time=0.5), with wins, Elo differences, 95%% intervals and ratings.",
    )
    _add_rules_args(p)
    p.add_argument(
        "--levels",
        nargs="+",
        metavar="L",
        default=["1", "2", "3", "4"],
        help="levels or players to pair (default 1 2 3 4)",
    )
    p.add_argument("--games", type=int, default=20, help="games a pair, colours alternated")
    p.add_argument(
        "--openings", type=int, default=2, help="random plies before the players (default 2)"
    )
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")

    p = sub.add_parser("analyze", help="analyse a position: best move, value, variation")
    p.add_argument(
        "position", help='a position record, e.g. "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"'
    )
    p.add_argument(
        "--level",
        default="max",
        help="the analysing level, or a player such as alphabeta:depth=12 (default max)",
    )
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")

    p = sub.add_parser("replay", help="print a game record move by move")
    p.add_argument(
        "record", help='a game record, e.g. "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1"'
    )
    p.add_argument("--step", action="store_true", help="wait for a key between moves")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")

    p = sub.add_parser("rules", help="the rules of a preset in words")
    p.add_argument("preset", nargs="?", default=None, help="a preset (default: every preset)")
    _add_rules_args(p, preset_flag=False)

    sub.add_parser("scores", help="the scoreboard of wins against the computer")
    return parser


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    # Imported here so that `ayo --help` stays quick and argument errors come first.
    from ayo.cli import commands
    from ayo.cli.board import Style, supports_color
    from ayo.cli.common import level_name, make_rules
    from ayo.cli.keys import open_keys
    from ayo.cli.play import Screen, play_game
    from ayo.cli.scoreboard import Scoreboard

    out = sys.stdout
    style = Style.make(supports_color(out, getattr(args, "no_color", False)))
    cmd = args.command
    if cmd == "rules":
        rules = make_rules(args.preset, args.rule) if (args.preset or args.rule) else None
        return commands.rules_cmd(rules, out)
    if cmd == "scores":
        board = Scoreboard.load()
        return commands.scores(board, out)
    if cmd == "analyze":
        player = commands.player_spec(args.level, 0)
        return commands.analyze(args.position, player, style, out)
    if cmd == "replay":
        keys = open_keys() if args.step else None
        try:
            return commands.replay(args.record, style, out, keys)
        finally:
            if keys is not None:
                keys.close()
    if cmd == "arena":
        if args.games < 1:
            parser.error("argument --games: must be at least 1")
        if args.openings < 0:
            parser.error("argument --openings: must not be negative")
        rules = make_rules(args.rules, args.rule)
        return commands.arena(
            rules, args.levels, args.games, args.seed, out, openings=args.openings
        )
    if args.delay < 0:
        parser.error("argument --delay: must not be negative")
    rules = make_rules(args.rules, args.rule)
    tty_out = out.isatty()
    if cmd == "watch":
        levels = [level_name(x) for x in args.levels]
        keys = open_keys() if sys.stdin.isatty() and tty_out else None
        try:
            return commands.watch(
                rules,
                levels,
                args.seed,
                args.delay,
                Screen(out, style, clear=tty_out),
                keys,
                animation=not args.no_animation and tty_out,
            )
        finally:
            if keys is not None:
                keys.close()
    level = level_name(args.level)
    board = Scoreboard.load()
    if board.problem:
        sys.stderr.write(f"ayo: {board.problem}\n")
    keys = open_keys()
    try:
        return play_game(
            rules=rules,
            rules_name=Game(rules).position_record().split(" ", 1)[0],
            level=level,
            first=args.first,
            seed=args.seed,
            keys=keys,
            screen=Screen(out, style, clear=tty_out),
            animation=not args.no_animation and tty_out and keys.raw,
            delay=args.delay,
            scoreboard=board,
        )
    finally:
        keys.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ayo`` with ``argv`` (default the command line); the exit status.

    Bad arguments print a usage message and exit with status 2, as argparse
    does; a Ctrl-C ends quietly with status 130.
    """
    from ayo.cli.common import UsageError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args, parser)
    except UsageError as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return 130
    except BrokenPipeError:
        return 0
    return 0
