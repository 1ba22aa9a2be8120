"""``ayo serve`` under load on loopback: 200 linked games at once, random legal moves.

A real server (a child process over a SQLite file) and 400 scripted
websocket clients, two a game, on 127.0.0.1 only. Each game plays up to
:data:`MOVES_PER_GAME` random legal moves (fewer when it ends), all games at
once; every move's latency (from the mover's send to its state with the
move) is measured. Afterwards every game's record is ayo-core's replay of
its moves, and the SQLite file, read after the server has stopped, holds
every move of every game: nothing lost. The count of games and moves and
the p50 and p99 latencies are printed (docs/benchmarks.md quotes them); no
figure is asserted.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import time
from pathlib import Path

import pytest
from serve_process import Seat, Server, running_server

from ayo import Game, Rules

GAMES = 200
MOVES_PER_GAME = 30
#: The whole run's bound: past it the test fails rather than stall CI.
WALL_LIMIT_S = 150.0

pytestmark = pytest.mark.timeout(240)


async def _one_game(server: Server, index: int, latencies: list[float]) -> tuple[str, Game]:
    rng = random.Random(index)
    preset = Rules.presets()[index % len(Rules.presets())]
    south, north = await Seat.open(server), await Seat.open(server)
    try:
        await south.new("link", preset, human=0)
        await north.join(south.game)
        await south.until("state", waiting=False)
        seats = (south, north)
        game = Game(preset)
        for _ in range(MOVES_PER_GAME):
            if game.is_over:
                break
            mover, other = seats[game.to_move], seats[1 - game.to_move]
            action = rng.choice(game.legal_moves())
            game.play(action)
            sent = time.perf_counter()
            await mover.send({"kind": "play", "pit": action + 1})
            state = await mover.ply(game.ply)
            latencies.append(time.perf_counter() - sent)
            await other.ply(game.ply)
            assert state["record"] == game.record()
        return south.game, game
    finally:
        await south.close()
        await north.close()


def test_200_games_at_once_lose_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "games.sqlite3"
    latencies: list[float] = []

    async def load(server: Server) -> list[tuple[str, Game]]:
        return list(
            await asyncio.wait_for(
                asyncio.gather(*(_one_game(server, i, latencies) for i in range(GAMES))),
                WALL_LIMIT_S,
            )
        )

    start = time.perf_counter()
    with running_server(store, "--max-games", str(GAMES)) as server:
        played = asyncio.run(load(server))
    wall = time.perf_counter() - start

    assert len(played) == GAMES
    with sqlite3.connect(store) as db:
        rows = dict(db.execute("SELECT id, moves FROM games").fetchall())
    assert len(rows) == GAMES
    for ident, game in played:
        replay = Game(game.rules)
        stored = [int(pit) for pit in rows[ident].split()]
        for pit in stored:
            replay.play_pit(pit)
        assert stored == list(game.moves)
        assert replay.record() == game.record()
    moves = len(latencies)
    cuts = statistics.quantiles(latencies, n=100)
    with capsys.disabled():
        print(
            f"\nayo serve load: {GAMES} games at once, {moves} moves in {wall:.1f} s; "
            f"move latency p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms"
        )
