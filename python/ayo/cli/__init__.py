"""The ``ayo`` command: play Ayo in the terminal, against the computer or two players, and more.

::

    ayo play [--rules PRESET] [--rule key=value ...] [--players 1|2]
             [--level N|max|perfect] [--db DIR] [--first human|computer] [--seed N]
             [--no-color] [--no-animation]
    ayo watch [--rules ...] [--levels A B] [--delay S] [--db DIR]
    ayo arena [--rules ...] [--levels L ...] [--games N] [--db DIR]
    ayo analyze "<position record>" [--level N|max|perfect] [--db DIR]
    ayo replay "<game record>" [--step]
    ayo rules [PRESET] [--rule key=value ...]
    ayo scores
    ayo serve [--host H] [--port P] [--store FILE] [--databases DIR] [--max-games N]
    ayo solve build --rules PRESET|RECORD --max-seeds N [--dir PATH] [--threads T] [--quiet]
    ayo solve verify [--rules PRESET|RECORD] [--dir PATH] [--threads T] [--quiet]
    ayo solve value "<position record>" [--dir PATH] [--nodes N]
    ayo --version

Every numeric argument is checked by its type (:mod:`ayo.cli.arg_types`), so a
bad value is a usage error (the subcommand's usage line, status 2). Every rule,
move, sowing and outcome comes from the Rust engine (``ayo._ayo``) and every
computer move and analysis from :mod:`ayo.ai`; the databases of
``ayo solve`` and level ``perfect`` are :class:`ayo.Database`. This package
only reads keys and draws. See ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from ayo import Game, Rules, __version__
from ayo.cli import arg_types as t

__all__ = ["build_parser", "main"]

_DEFAULT_LEVEL = "4"


def _add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kw: Any
) -> argparse.ArgumentParser:
    """A subcommand's parser, remembered in the arguments as ``usage_parser``.

    Errors found after parsing (:class:`~ayo.cli.common.UsageError`) print that
    subcommand's usage line, as argparse does for its own errors.
    """
    p = sub.add_parser(name, **kw)
    p.set_defaults(usage_parser=p)
    return p


def _add_rules_args(p: argparse.ArgumentParser, preset_flag: bool = True) -> None:
    if preset_flag:
        p.add_argument(
            "--rules",
            metavar="PRESET",
            type=t.text,
            default=None,
            help="preset: " + ", ".join(Rules.presets()) + " (default: ayo, the web app's)",
        )
    p.add_argument(
        "--rule",
        metavar="KEY=VALUE",
        type=t.text,
        action="append",
        default=[],
        help="override one rule parameter (repeatable), e.g. --rule target=none",
    )


def _add_display_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    p.add_argument("--no-animation", action="store_true", help="do not animate sowings")


def _add_delay_arg(p: argparse.ArgumentParser, default: float, what: str) -> None:
    p.add_argument(
        "--delay",
        type=t.delay,
        default=default,
        help=f"seconds {what}, 0 to {t.DELAY_LIMIT:g} (default {default:g})",
    )


def _add_db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="DIR",
        default=None,
        help="the databases of level perfect (default: $AYO_DB_DIR, else db in ayo's data folder)",
    )


def _add_solve_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _add_parser(
        sub,
        "solve",
        help="build, check and query the endgame databases (level perfect)",
        description="Endgame databases: the exact value of every board of up to N seeds, "
        "for rules without a move limit (ayoayo and its variants, oware), or counted ones "
        "for rules with one (olopon, ayo). "
        "They are kept in --dir, else $AYO_DB_DIR, else db in ayo's data folder.",
    )
    solve = p.add_subparsers(dest="solve_command", metavar="ACTION")
    solve.required = True
    max_seeds = t.whole(0, t.MAX_SEEDS_LIMIT)
    dir_help = "the databases' folder (default: $AYO_DB_DIR, else db in ayo's data folder)"

    q = _add_parser(
        solve,
        "build",
        help="build the databases (resumable: finished layers are reused)",
        description="Build every layer 0..N of the databases of the rules, with progress bars "
        "on standard error, then a line per layer and the total time. Finished layer files "
        "are reused, so an interrupted build resumes. Layers to 20 seeds take about two "
        "minutes and 2 GiB of memory on two cores; to 24, 10 GiB.",
    )
    q.add_argument(
        "--rules",
        metavar="PRESET|RECORD",
        type=t.text,
        default=None,
        help="a preset or a rules record such as 'ayoayo[stuck_seeds=own_side]' (default ayoayo)",
    )
    q.add_argument(
        "--rule",
        metavar="KEY=VALUE",
        type=t.text,
        action="append",
        default=[],
        help="override one rule parameter (repeatable)",
    )
    q.add_argument(
        "--max-seeds",
        type=max_seeds,
        required=True,
        metavar="N",
        help=f"largest layer (0 to {t.MAX_SEEDS_LIMIT})",
    )
    q.add_argument("--dir", default=None, metavar="PATH", help=dir_help)
    q.add_argument("--threads", type=int, default=None, metavar="T", help="workers (default all)")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress bars")

    q = _add_parser(
        solve,
        "verify",
        help="check every stored value against its successors",
        description="Regenerate every stored board's moves and check its value; exit status 1 "
        "when any fails.",
    )
    q.add_argument(
        "--rules",
        metavar="PRESET|RECORD",
        type=t.text,
        default=None,
        help="as for build (default ayoayo)",
    )
    q.add_argument(
        "--rule",
        metavar="KEY=VALUE",
        type=t.text,
        action="append",
        default=[],
        help="override one rule parameter (repeatable)",
    )
    q.add_argument("--dir", default=None, metavar="PATH", help=dir_help)
    q.add_argument(
        "--max-seeds",
        type=max_seeds,
        default=None,
        metavar="N",
        help="layers 0..N (default all found)",
    )
    q.add_argument(
        "--from-seeds",
        type=max_seeds,
        default=0,
        metavar="N",
        help="check layers N.. only (default 0)",
    )
    q.add_argument("--threads", type=int, default=None, metavar="T", help="workers (default all)")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress bars")

    q = _add_parser(
        solve,
        "value",
        help="the exact value of a position and of each move",
        description="The exact value of a position for the player to move (their captures "
        "from now on minus the opponent's, best play to the end), its best move and every "
        "move's value, from the databases and an exact search above them.",
    )
    q.add_argument(
        "position",
        type=t.text,
        help='a position record, e.g. "ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0"',
    )
    q.add_argument("--dir", default=None, metavar="PATH", help=dir_help)
    q.add_argument(
        "--nodes",
        type=t.whole(1, 2**64 - 1),
        default=10_000_000,
        metavar="N",
        help="boards the search may expand above the databases (default 10000000)",
    )


def _add_serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _add_parser(
        sub,
        "serve",
        help="play in a browser: against the computer, two players, or share a link",
        description="A web server for the board in a browser (needs the serve extra): "
        "against the computer, two players on one device, or two players on two devices "
        "by a link. Prints its address; Ctrl-C stops it. Games and results are kept in "
        "--store, so a restart loses nothing.",
        epilog="It listens on 127.0.0.1 only unless --host says otherwise: before exposing "
        "it, read docs/cli.md (a reverse proxy with TLS, --max-games).",
    )
    p.add_argument(
        "--host", type=t.text, default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    p.add_argument(
        "--port", type=t.whole(0, 65535), default=8000, help="port, 0 for a free one (default 8000)"
    )
    p.add_argument(
        "--store",
        metavar="FILE",
        type=t.text,
        default=None,
        help="the SQLite file of games and results (default serve.sqlite3 in ayo's data folder)",
    )
    p.add_argument(
        "--databases",
        metavar="DIR",
        type=t.text,
        default=None,
        help="endgame databases: offers level perfect (see ayo solve)",
    )
    p.add_argument(
        "--max-games",
        type=t.whole(1, t.COUNT_LIMIT),
        default=1000,
        metavar="N",
        help="games in progress at once; more are refused (default 1000)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ayo``."""
    parser = argparse.ArgumentParser(
        prog="ayo",
        description="Ayo, the Yoruba sowing game: play against the computer, or two players, "
        "in the terminal.",
        epilog="Start with `ayo play`; `ayo rules` explains the rules.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    from ayo import Rules as _Rules
    from ayo.cli.levels import BEGINNER_LEVEL, levels_help

    p = _add_parser(
        sub,
        "play",
        help="play against the computer, or two players at one terminal",
        description="Play against the computer, or --players 2 for two people at one "
        "terminal. Keys: 1-6 sow the mover's pits (numbered from the mover's side), arrows "
        "and Enter choose and sow, u undo, h hint, q quit; after a game, y plays again with "
        "the colours swapped. Without a terminal, type one command a line.",
        epilog=f"Levels (in the default rules, ayo): {levels_help(_Rules('ayo'))}. "
        f"New to the game? Start with --level {BEGINNER_LEVEL}.",
    )
    _add_rules_args(p)
    p.add_argument(
        "--players",
        type=int,
        choices=(1, 2),
        default=1,
        help="1: you against the computer (default); 2: two people at this terminal",
    )
    p.add_argument(
        "--level",
        type=t.level,
        default=_DEFAULT_LEVEL,
        help=f"computer level 1-8, max or perfect (default 4; a beginner: {BEGINNER_LEVEL})",
    )
    _add_db_arg(p)
    p.add_argument(
        "--first",
        choices=("human", "computer"),
        default=None,
        help="who moves first against the computer (default: you)",
    )
    p.add_argument(
        "--seed",
        type=t.seed,
        default=None,
        help="the computer's seed, 0 to 2**64-1 (default random)",
    )
    _add_delay_arg(p, 0.35, "per animation frame")
    _add_display_args(p)

    from ayo.cli.watch import KEYS_HELP

    p = _add_parser(
        sub,
        "watch",
        help="watch the computer play itself",
        description=f"The computer against itself, level A (South) against level B (North). "
        f"Keys on a terminal: {KEYS_HELP}.",
    )
    _add_rules_args(p)
    p.add_argument(
        "--levels",
        nargs=2,
        type=t.level,
        metavar=("A", "B"),
        default=["3", "5"],
        help="South's and North's",
    )
    _add_delay_arg(p, 0.5, "between moves")
    p.add_argument(
        "--seed", type=t.seed, default=1, help="the players' seed, 0 to 2**64-1 (default 1)"
    )
    _add_db_arg(p)
    _add_display_args(p)

    p = _add_parser(
        sub,
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
        type=t.player,
        metavar="L",
        default=["1", "2", "3", "4"],
        help="levels or players to pair (default 1 2 3 4)",
    )
    p.add_argument(
        "--games",
        type=t.whole(1, t.COUNT_LIMIT),
        default=20,
        help=f"games a pair, colours alternated, 1 to {t.COUNT_LIMIT} (default 20)",
    )
    p.add_argument(
        "--openings",
        type=t.whole(0, t.OPENINGS_LIMIT),
        default=2,
        help=f"random plies before the players, 0 to {t.OPENINGS_LIMIT} (default 2)",
    )
    p.add_argument("--seed", type=t.seed, default=1, help="base seed, 0 to 2**64-1 (default 1)")
    _add_db_arg(p)

    p = _add_parser(sub, "analyze", help="analyse a position: best move, value, variation")
    p.add_argument(
        "position",
        type=t.text,
        help='a position record, e.g. "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"',
    )
    p.add_argument(
        "--level",
        type=t.player,
        default="max",
        help="the analysing level (1-8, max, perfect), or a player such as "
        "alphabeta:depth=12 (default max)",
    )
    _add_db_arg(p)
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")

    p = _add_parser(sub, "replay", help="print a game record move by move")
    p.add_argument(
        "record",
        type=t.text,
        help='a game record, e.g. "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1"',
    )
    p.add_argument("--step", action="store_true", help="wait for a key between moves")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")

    p = _add_parser(sub, "rules", help="the rules of a preset in words")
    p.add_argument(
        "preset", nargs="?", type=t.text, default=None, help="a preset (default: every preset)"
    )
    _add_rules_args(p, preset_flag=False)

    _add_parser(sub, "scores", help="the scoreboard of wins against the computer")
    _add_serve_parser(sub)
    _add_solve_parsers(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    # Imported here so that `ayo --help` stays quick and argument errors come first.
    from ayo.ai import Player
    from ayo.cli.analyze import analyze, game_from_position
    from ayo.cli.arena import arena
    from ayo.cli.board import Style, supports_color
    from ayo.cli.common import UsageError, level_name, make_rules, seed_plus
    from ayo.cli.keys import open_keys
    from ayo.cli.play import play_game
    from ayo.cli.player_specs import player_spec
    from ayo.cli.replay import replay
    from ayo.cli.rules_cmd import rules_cmd
    from ayo.cli.scoreboard import Scoreboard
    from ayo.cli.scores_cmd import scores
    from ayo.cli.screen import Screen
    from ayo.cli.solve import perfect_player
    from ayo.cli.watch import watch

    def warn(line: str) -> None:
        sys.stderr.write(f"ayo: {line}\n")
        sys.stderr.flush()

    out = sys.stdout
    style = Style.make(supports_color(out, getattr(args, "no_color", False)))
    cmd = args.command
    if cmd == "rules":
        rules = make_rules(args.preset, args.rule) if (args.preset or args.rule) else None
        return rules_cmd(rules, out)
    if cmd == "scores":
        board = Scoreboard.load()
        return scores(board, out)
    if cmd == "solve":
        return _solve(args)
    if cmd == "serve":
        return _serve(args)
    if cmd == "analyze":
        if args.level.strip().lower() == "perfect":
            game = game_from_position(args.position)
            player = perfect_player(game.rules, args.db, 0, warn)
        else:
            player = player_spec(args.level, 0)
        return analyze(args.position, player, style, out)
    if cmd == "replay":
        keys = open_keys() if args.step else None
        try:
            return replay(args.record, style, out, keys)
        finally:
            if keys is not None:
                keys.close()
    if cmd == "arena":
        rules = make_rules(args.rules, args.rule)
        perfect = None
        if any(x.strip().lower() == "perfect" for x in args.levels):
            perfect = perfect_player(rules, args.db, args.seed, warn)
        return arena(
            rules, args.levels, args.games, args.seed, out, openings=args.openings, perfect=perfect
        )
    rules = make_rules(args.rules, args.rule)
    tty_out = out.isatty()
    if cmd == "watch":
        levels = [level_name(x) for x in args.levels]
        seats: list[Player] = []
        for i, lv in enumerate(levels):
            if lv == "perfect":
                seats.append(perfect_player(rules, args.db, seed_plus(args.seed, i), warn))
                levels[i] = str(seats[-1].level)  # "max" when it fell back
            else:
                seats.append(Player(lv, seed=seed_plus(args.seed, i)))
        keys = open_keys() if sys.stdin.isatty() and tty_out else None
        try:
            return watch(
                rules,
                levels,
                args.seed,
                args.delay,
                Screen(out, style, clear=tty_out),
                keys,
                animation=not args.no_animation and tty_out,
                players=seats,
            )
        finally:
            if keys is not None:
                keys.close()
    if args.players == 2 and args.first == "computer":
        raise UsageError("--first computer needs a computer to play: not with --players 2")
    level = level_name(args.level)
    computer = None
    notices: list[str] = []
    seed = secrets.randbits(32) if args.seed is None else args.seed
    if level == "perfect":

        def notice(line: str) -> None:
            warn(line)
            notices.append(line)

        computer = perfect_player(rules, args.db, seed, notice)
        level = str(computer.level)
    board = Scoreboard.load()
    if board.problem:
        sys.stderr.write(f"ayo: {board.problem}\n")
    keys = open_keys()
    try:
        return play_game(
            rules=rules,
            rules_name=Game(rules).position_record().split(" ", 1)[0],
            level=level,
            first=args.first or "human",
            seed=seed,
            keys=keys,
            screen=Screen(out, style, clear=tty_out),
            animation=not args.no_animation and tty_out and keys.raw,
            delay=args.delay,
            scoreboard=board,
            computer=computer,
            notices=notices if tty_out else [],
            players=args.players,
        )
    finally:
        keys.close()


def _serve(args: argparse.Namespace) -> int:
    """``ayo serve``: the board in a browser until Ctrl-C."""
    from pathlib import Path

    from ayo import AyoError, DatabaseError
    from ayo.cli.common import UsageError
    from ayo.serve import bind, serve
    from ayo.serve.store import default_path

    databases = Path(args.databases) if args.databases else None
    if databases is not None and not databases.is_dir():
        raise DatabaseError(f"{databases}: no such folder of databases")
    store = Path(args.store) if args.store else default_path()

    def ready(address: str) -> None:
        print(f"ayo serve: open {address} in a browser (Ctrl-C stops; games kept in {store})")
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("ayo serve: listening beyond this machine: see docs/cli.md before you do")
        sys.stdout.flush()

    if not args.host.strip():
        # An empty address would listen on every interface: that is said with 0.0.0.0.
        raise UsageError("--host must name an address (0.0.0.0 for every interface)")
    try:
        sock = bind(args.host, args.port)
    except AyoError as e:
        raise UsageError(str(e)) from None
    serve(
        sock,
        store,
        max_games=args.max_games,
        databases=databases,
        ready=ready,
    )
    return 0


def _solve(args: argparse.Namespace) -> int:
    """``ayo solve build|verify|value``."""
    from ayo.cli import solve
    from ayo.cli.common import make_rules

    out = sys.stdout
    action = args.solve_command
    if action == "value":
        return solve.value(args.position, solve.db_dir(args.dir), args.nodes, out)
    rules = make_rules(args.rules, args.rule, default="ayoayo")
    folder = solve.db_dir(args.dir)
    if action == "build":
        return solve.build(rules, args.max_seeds, folder, args.threads, args.quiet, out)
    return solve.verify(
        rules, folder, args.max_seeds, args.from_seeds, args.threads, args.quiet, out
    )


def _usable_streams() -> None:
    """Standard streams that cannot crash the command.

    A closed stream (``ayo ... >&-``) becomes the null device, and text the
    output's encoding cannot hold (``Ọlọ́pọ́n`` under ``PYTHONIOENCODING=ascii``)
    is written with backslash escapes instead of raising.
    """
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole run)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
        elif isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def _say(line: str) -> None:
    """``line`` on standard error, best effort (it may be full or closed too)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _drop_stdout()
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere left to say it: the exit status says it


def _drop_stdout() -> None:
    """Standard output to the null device, so that the flush at exit cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass  # not a file (a test's capture): nothing is flushed to it at exit


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ayo`` with ``argv`` (default the command line); the exit status.

    Bad arguments print the subcommand's usage line and a message and exit
    with status 2, as argparse does, and so does any other :class:`ayo.AyoError`
    (one line: threads that cannot be started, say); an error of the
    databases or of the output (a full disk) is one line on standard error
    and status 1; a closed pipe ends quietly with status 0 and a Ctrl-C with
    status 130.
    """
    from ayo import AyoError, DatabaseError
    from ayo.cli.common import UsageError

    _usable_streams()
    parser = build_parser()
    usage = parser
    try:
        args, extra = parser.parse_known_args(argv)
        usage = getattr(args, "usage_parser", parser)
        if extra:
            usage.error(f"unrecognized arguments: {' '.join(extra)}")
        status = _run(args)
        sys.stdout.flush()
        return status
    except UsageError as e:
        usage.error(str(e))
    except DatabaseError as e:
        sys.stdout.flush()
        sys.stderr.write(f"ayo: {e}\n")
        return 1
    except AyoError as e:
        _say(f"ayo: {e}")
        return 2
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as e:  # the output cannot be written (a full disk, a closed terminal)
        _drop_stdout()
        _say(f"ayo: {e}")
        return 1
