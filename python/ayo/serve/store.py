"""``ayo serve``'s games, results and personal bests in one SQLite file.

Each accepted move is written before anyone is told of it, so a server that
stops (or is killed) loses no move and no result: on the next start every
game in progress is read back and its moves replayed through ayo-core
(:mod:`ayo.serve.games`). A game keeps its settings, its computer's seed,
the digests of its seats' tokens (never the tokens themselves), its moves
as absolute pits and, once over, its record and result. A win against the
computer is kept for the browser that played it, by rule set and level, as
``ayo play``'s scoreboard keeps the terminal's.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ayo.cli.scoreboard import data_dir

__all__ = ["FILE_NAME", "Store", "StoredGame", "default_path"]

#: The file's name in ayo's data folder.
FILE_NAME = "serve.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    mode TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seat0 TEXT,
    seat1 TEXT,
    player TEXT,
    moves TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'playing',
    record TEXT,
    result TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_state ON games (state);
CREATE TABLE IF NOT EXISTS wins (
    player TEXT NOT NULL,
    rules TEXT NOT NULL,
    level TEXT NOT NULL,
    seeds INTEGER NOT NULL,
    opponent_seeds INTEGER NOT NULL,
    game TEXT NOT NULL,
    date TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS wins_player ON wins (player, rules);
"""

#: A game's states: being played, ended (with a result), or left for a new one.
PLAYING, OVER, LEFT = "playing", "over", "left"


def default_path() -> Path:
    """``serve.sqlite3`` in ayo's data folder (``$AYO_DATA_DIR``, else the platform's)."""
    return data_dir() / FILE_NAME


@dataclass
class StoredGame:
    """One game as the file keeps it.

    ``seats`` are the SHA-256 digests of the seats' tokens (None: a seat no
    one has taken); ``moves`` the absolute pits played, in order.
    """

    id: str
    mode: str
    settings: dict[str, Any]
    seed: int
    seats: list[str | None]
    player: str | None
    moves: list[int]
    state: str = PLAYING
    record: str | None = None
    result: str | None = None


class Store:
    """The SQLite file at ``path`` (``":memory:"`` for a store that is not kept).

    Used from the server's one event loop; each change is committed at once.
    """

    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        # The event loop's thread only; a test may open it in another first.
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        # WAL: a commit is one append, and a reader never waits for a writer.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def add_game(self, game: StoredGame) -> None:
        """Keep a new game."""
        now = time.time()
        self._db.execute(
            "INSERT INTO games (id, mode, settings, seed, seat0, seat1, player, moves, state,"
            " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                game.mode,
                json.dumps(game.settings),
                game.seed,
                game.seats[0],
                game.seats[1],
                game.player,
                _pits(game.moves),
                game.state,
                now,
                now,
            ),
        )

    def set_seat(self, game: str, seat: int, digest: str) -> None:
        """Give ``seat`` of ``game`` to the token whose digest is ``digest``."""
        column = ("seat0", "seat1")[seat]
        self._db.execute(
            f"UPDATE games SET {column} = ?, updated = ? WHERE id = ?", (digest, time.time(), game)
        )

    def set_moves(self, game: str, moves: list[int]) -> None:
        """The moves of ``game`` so far (after a move or an undo)."""
        self._db.execute(
            "UPDATE games SET moves = ?, updated = ? WHERE id = ?",
            (_pits(moves), time.time(), game),
        )

    def finish(self, game: str, record: str, result: str) -> None:
        """``game`` is over: its record and its result in words."""
        self._db.execute(
            "UPDATE games SET state = ?, record = ?, result = ?, updated = ? WHERE id = ?",
            (OVER, record, result, time.time(), game),
        )

    def leave(self, game: str) -> None:
        """``game`` was left for a new one: it no longer counts as in progress."""
        self._db.execute(
            "UPDATE games SET state = ?, updated = ? WHERE id = ? AND state = ?",
            (LEFT, time.time(), game, PLAYING),
        )

    def game(self, game: str) -> StoredGame | None:
        """The game named ``game``, or None."""
        row = self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else _stored(row)

    def games_in_progress(self) -> list[StoredGame]:
        """Every game being played, oldest first."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE state = ? ORDER BY created", (PLAYING,)
        ).fetchall()
        return [_stored(row) for row in rows]

    def count_in_progress(self) -> int:
        """How many games are being played."""
        row = self._db.execute("SELECT COUNT(*) FROM games WHERE state = ?", (PLAYING,)).fetchone()
        return int(row[0])

    def add_win(
        self, player: str, rules: str, level: str, scores: tuple[int, int], game: str
    ) -> None:
        """A win against the computer by browser ``player``: its seeds and the computer's."""
        date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
        self._db.execute(
            "INSERT INTO wins (player, rules, level, seeds, opponent_seeds, game, date)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (player, rules, level, scores[0], scores[1], game, date),
        )

    def best(self, player: str, rules: str) -> int | None:
        """Browser ``player``'s personal best under ``rules``: the most seeds in a win."""
        row = self._db.execute(
            "SELECT MAX(seeds) FROM wins WHERE player = ? AND rules = ?", (player, rules)
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])


_COLUMNS = "id, mode, settings, seed, seat0, seat1, player, moves, state, record, result"


def _pits(moves: list[int]) -> str:
    return " ".join(str(int(pit)) for pit in moves)


def _stored(row: tuple[Any, ...]) -> StoredGame:
    ident, mode, settings, seed, seat0, seat1, player, moves, state, record, result = row
    return StoredGame(
        id=ident,
        mode=mode,
        settings=json.loads(settings),
        seed=int(seed),
        seats=[seat0, seat1],
        player=player,
        moves=[int(pit) for pit in moves.split()],
        state=state,
        record=record,
        result=result,
    )
