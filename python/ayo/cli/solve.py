"""``ayo solve``: build, check and query the endgame databases; the ``perfect`` level.

The databases (:class:`ayo.Database`, ayo-solve's) hold the exact value of
every board of up to ``--max-seeds`` seeds for rules without a move limit
(``ayoayo`` and its variants, and ``oware``, whose repetitions the databases
score by a cycle convention: level ``perfect`` and ``ayo solve value`` give
Oware's values from a search that lets the position that repeats decide,
reading the databases after captures); rules with
a move limit (``olopon``, ``ayo``) have counted databases
(:class:`ayo.CountedDatabase`: board and no-capture count). They live in one folder:
``--dir``, else ``$AYO_DB_DIR``, else ``db`` in the user's data directory
(the scoreboard's, see :func:`ayo.cli.scoreboard.data_dir`).

Errors (a missing folder or layer, a damaged file, rules that cannot be
solved) are :class:`ayo.DatabaseError`; the command prints them as one line
on standard error and exits with status 1.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from ayo import AyoError, CountedDatabase, Database, DatabaseError, Game, RecordError, Rules
from ayo._ayo import thread_count
from ayo.ai import Player
from ayo.cli.common import SEAT_NAMES, UsageError
from ayo.cli.scoreboard import data_dir

__all__ = [
    "BUILD_HINT",
    "build",
    "default_db_dir",
    "perfect_player",
    "value",
    "verify",
]

#: The command suggested when there are no databases.
BUILD_HINT = "ayo solve build --rules ayoayo --max-seeds 20"


def default_db_dir() -> Path:
    """The databases' folder: ``$AYO_DB_DIR``, else ``<data dir>/db``."""
    override = os.environ.get("AYO_DB_DIR", "")
    if override:
        return Path(override)
    return data_dir() / "db"


def db_dir(given: str | None) -> Path:
    """``--dir`` (or ``--db``) when given, else :func:`default_db_dir`."""
    return Path(given) if given else default_db_dir()


def _hint(rules: Rules) -> str:
    """The build command for ``rules`` (solvable ones), else :data:`BUILD_HINT`."""
    counted = CountedDatabase.solvable(rules)
    if not Database.solvable(rules) and not counted:
        return BUILD_HINT
    text = str(rules)
    quoted = f"'{text}'" if "[" in text else text
    return f"ayo solve build --rules {quoted} --max-seeds {12 if counted else 20}"


def _check_threads(threads: int | None) -> None:
    """``--threads`` by the engine's rule, before any work starts.

    :func:`ayo._ayo.thread_count` says what it means (none or 0: every core;
    at most ``MAX_THREADS``); a count it refuses is a usage error (status 2),
    with its message. An int beyond 64 bits is refused by the conversion.
    """
    try:
        thread_count(threads)
    except (AyoError, OverflowError) as e:
        raise UsageError(f"argument --threads: {e}") from None


def _default_interrupt() -> None:
    """Let Ctrl-C end the program at once while Rust works with the GIL released.

    Layer files are written to a temporary name and renamed, so a build
    stopped this way resumes from its finished layers.
    """
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)


#: Either kind of database, as `_open` opens it.
AnyDatabase = TypeVar("AnyDatabase", Database, CountedDatabase)


def _open(
    kind: type[AnyDatabase], rules: Rules, folder: Path, max_seeds: int | None = None
) -> AnyDatabase:
    """The databases of ``kind`` for ``rules`` in ``folder``; DatabaseError with a hint if none."""
    if not folder.is_dir():
        raise DatabaseError(
            f"{folder}: no such folder of databases; build them with `{_hint(rules)}`"
        )
    try:
        return kind.open(rules, folder, max_seeds=max_seeds)
    except DatabaseError as e:
        if e.reason == "missing" and max_seeds is None:
            what = "counted databases" if kind is CountedDatabase else "databases"
            raise DatabaseError(
                f"no {what} for {rules} in {folder}; build them with `{_hint(rules)}`"
            ) from None
        raise


def _layers_text(db: Database | CountedDatabase) -> str:
    """The layers ``db`` holds, in words."""
    if isinstance(db, CountedDatabase):
        return (
            f"counted layers {', '.join(map(str, db.layers))} "
            f"(every no-capture count 0..={db.limit})"
        )
    return f"layers 0..={db.max_seeds}"


def build(
    rules: Rules,
    max_seeds: int,
    folder: Path,
    threads: int | None,
    quiet: bool,
    out: TextIO,
) -> int:
    """``ayo solve build``: every layer to ``max_seeds``, resumable; a line per layer."""
    if max_seeds < 0:
        raise UsageError("argument --max-seeds: must not be negative")
    _check_threads(threads)
    _default_interrupt()
    started = time.monotonic()
    on = f"{threads} thread{'s' if threads != 1 else ''}" if threads else "every core"
    if CountedDatabase.solvable(rules):
        counted = CountedDatabase.build(rules, max_seeds, folder, threads=threads)
        out.write(
            f"built counted layers {', '.join(map(str, counted.layers))} of {counted.key} "
            f"(every no-capture count 0..={counted.limit}) in "
            f"{time.monotonic() - started:.1f} s on {on}; files in {folder}\n"
        )
        return 0
    db = Database.build(rules, max_seeds, folder, threads=threads, progress=not quiet)
    for r in db.reports:
        if r.reused:
            what = f"reused from file ({r.seconds:.2f} s)"
        else:
            what = f"{r.passes:3} passes, {r.seconds:8.2f} s"
        out.write(
            f"layer {r.n:2}: {r.positions:>13,} positions, {what}, "
            f"{r.cycle_scored:,} scored by the cycle convention, "
            f"{r.convention_dependent:,} convention-dependent\n"
        )
    out.write(
        f"built layers 0..={db.max_seeds} of {db.key}: {db.positions:,} positions in "
        f"{time.monotonic() - started:.1f} s on {on}; files in {folder}\n"
    )
    return 0


def verify(
    rules: Rules,
    folder: Path,
    max_seeds: int | None,
    from_seeds: int,
    threads: int | None,
    quiet: bool,
    out: TextIO,
) -> int:
    """``ayo solve verify``: every stored value against its successors; 1 on failure.

    Counted databases (rules with a move limit) are checked whole, every
    no-capture count of every layer held.
    """
    _check_threads(threads)
    _default_interrupt()
    started = time.monotonic()
    if CountedDatabase.solvable(rules):
        if from_seeds:
            raise UsageError("argument --from-seeds: counted databases are verified whole")
        counted = _open(CountedDatabase, rules, folder, max_seeds)
        checked, failed = counted.verify(threads=threads)
        out.write(
            f"verified {_layers_text(counted)} of {counted.key} in {folder}: "
            f"{checked:,} values, {failed:,} failed ({time.monotonic() - started:.1f} s)\n"
        )
        if failed:
            sys.stderr.write(f"ayo: verification failed: {failed} values\n")
            return 1
        return 0
    db = _open(Database, rules, folder, max_seeds)
    rep = db.verify(not quiet, from_seeds=from_seeds, threads=threads)
    out.write(
        f"verified layers {from_seeds}..={db.max_seeds} of {db.key} in {folder}: "
        f"{rep.checked:,} positions, {rep.exact:,} exact, {rep.cycle_scored:,} "
        f"cycle-scored, {rep.convention_dependent:,} convention-dependent, "
        f"{rep.failed:,} failed ({time.monotonic() - started:.1f} s)\n"
    )
    for n, rank, stored, expected in rep.failures:
        out.write(f"  layer {n} rank {rank}: stored {stored}, expected {expected}\n")
    if not rep.ok:
        sys.stderr.write(f"ayo: verification failed: {rep.failed} positions\n")
        return 1
    return 0


def value(text: str, folder: Path, nodes: int, out: TextIO) -> int:
    """``ayo solve value``: the exact value of a position and of each move.

    From the databases of the position's rules: the counted ones (board and
    no-capture count) under a move limit, else the board-only ones.
    """
    if nodes < 1:
        raise UsageError("argument --nodes: must be at least 1")
    try:
        game = Game(position=text)
    except RecordError as e:
        raise UsageError(f"not a position record: {e}") from None
    rules = game.rules
    db: Database | CountedDatabase
    if CountedDatabase.solvable(rules):
        db = _open(CountedDatabase, rules, folder)
    else:
        if not Database.solvable(rules):
            # The engine's reason (a move limit with a repetition rule), as one line.
            Database.open(rules, folder)
        db = _open(Database, rules, folder)
    mover = SEAT_NAMES[game.to_move]
    other = SEAT_NAMES[1 - game.to_move]
    out.write(f"{game.position_record()}\n")
    out.write(f"Databases: {db.key}, {_layers_text(db)} ({folder})\n")
    moves = _move_values(game, db, nodes)
    v = max(moves.values()) if moves else db.value(game, nodes=nodes)
    if moves is None or v is None:
        sys.stderr.write(
            f"ayo: the exact search needs more than {nodes:,} nodes here; "
            "give a larger --nodes, or build more layers\n"
        )
        return 1
    on_board = int(game.board.sum())
    out.write(
        f"Value: {v:+d} for {mover} (exact): {mover}'s captures from now on minus "
        f"{other}'s, with best play by both to the end ({on_board} seeds on the board)\n"
    )
    final = int(game.stores[game.to_move]) - int(game.stores[1 - game.to_move]) + v
    stores = f"{int(game.stores[0])}-{int(game.stores[1])}"
    if final == 0:
        out.write(f"With the stores ({stores}): the players end level\n")
    else:
        who = mover if final > 0 else other
        out.write(f"With the stores ({stores}): {who} ends {abs(final)} seeds ahead\n")
    if not moves:
        if isinstance(db, CountedDatabase) and game.no_capture >= db.limit:
            out.write(f"The game is over: {db.limit} moves in a row without a capture.\n")
        else:
            out.write(f"{mover} has no legal move.\n")
        return 0
    best = min(a for a, x in moves.items() if x == v)
    out.write(f"Best move: {best + 1} ({mover}'s pit {best + 1})\n")
    out.write("Each legal move:\n")
    for a, x in moves.items():
        mark = "  <- best" if a == best else ""
        out.write(f"  {a + 1}: {x:+d}{mark}\n")
    return 0


def _move_values(game: Game, db: Database | CountedDatabase, nodes: int) -> dict[int, int] | None:
    """The exact value of each legal move of ``game`` (captures to come), or
    None when ``nodes`` are not enough. Under a repetition rule (``oware``)
    from level ``perfect``, whose search lets the position that repeats
    decide (the databases' search scores repetitions by their convention)."""
    if game.rules.repetition == "off":
        return db.move_values(game, nodes=nodes)
    player = Player.perfect(db, nodes=nodes)
    analysis = player.analyze(game)
    if player.source == "fallback":
        return None
    banked = int(game.stores[game.to_move]) - int(game.stores[1 - game.to_move])
    values = {m.action: m.proven for m in analysis.moves}
    return {a: v - banked for a, v in values.items() if v is not None}


_LOADED: dict[tuple[str, str], Database | CountedDatabase] = {}


def perfect_player(
    rules: Rules, given_dir: str | None, seed: int, warn: Callable[[str], None]
) -> Player:
    """The ``perfect`` player for ``rules`` over the databases in ``given_dir``
    (default :func:`default_db_dir`), or level ``max`` when there are none for
    these rules or they cannot be solved, after ``warn`` has been given one
    line saying so and how to build them.

    A folder given with ``--db`` that does not exist, or a damaged file, raises
    :class:`ayo.DatabaseError`. Databases are loaded once per process.
    """
    folder = db_dir(given_dir)
    counted = CountedDatabase.solvable(rules)
    if not (counted or Database.solvable(rules)):
        warn(
            f"level perfect: the databases cannot prove the values of {rules} (a move "
            f"limit with a repetition rule; ayoayo, oware, olopon and ayo can: "
            f"`{BUILD_HINT}`, then --rules ayoayo); playing as level max"
        )
        return Player("max", seed=seed)
    if given_dir and not folder.is_dir():
        raise DatabaseError(f"{folder}: no such folder of databases")
    key = (str(rules.replace(target=None)), str(folder.resolve()))
    db = _LOADED.get(key)
    if db is None:
        try:
            db = CountedDatabase.open(rules, folder) if counted else Database.open(rules, folder)
        except DatabaseError as e:
            if e.reason != "missing":
                raise
            warn(
                f"level perfect: no databases for {rules} in {folder} "
                f"(build them with `{_hint(rules)}`); playing as level max"
            )
            return Player("max", seed=seed)
        _LOADED[key] = db
    return Player.perfect(db, seed=seed)
