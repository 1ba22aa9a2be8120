"""``ayo serve`` killed in the middle of a game and started again: nothing is lost.

A real server (a child process, serve_process.py) over a SQLite file: two
browsers play a linked game and one device plays a game to its end; the
server is killed (SIGKILL, as a crash would); a new server over the same
file reads the game in progress back (its moves replayed by ayo-core), both
players rejoin their seats with their tokens and finish it, and the ended
game's result is still there. Also: a frame past uvicorn's own size limit
closes the connection (1009) and the server goes on.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import websockets
from serve_process import Seat, kill, running_server, start

from ayo import Game

pytestmark = pytest.mark.timeout(240)


async def _play_random(seats: dict[int, Seat], game: Game, moves: int, rng: random.Random) -> None:
    """``moves`` random legal moves, each by the seat to move (both seats on one device: key 2)."""
    for _ in range(moves):
        if game.is_over:
            return
        seat = seats.get(game.to_move) or seats[2]
        action = rng.choice(game.legal_moves())
        game.play(action)
        await seat.send({"kind": "play", "pit": action + 1})
        state = await seat.ply(game.ply)
        assert state["record"] == game.record()


def test_a_restart_loses_no_game_and_no_result(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    rng = random.Random(42)

    async def before_the_crash() -> tuple[str, str, str, str, Game, str]:
        south, north, device = [await Seat.open(server) for _ in range(3)]
        await south.new("link", "oware", human=0)
        await north.join(south.game)
        assert north.seat == 1
        game = Game("oware")
        await _play_random({0: south, 1: north}, game, 6, rng)
        await device.new("two players", "ayoayo")
        finished = Game("ayoayo")
        await _play_random({2: device}, finished, 2000, rng)
        assert finished.is_over
        assert device.state["over"]
        result = device.state["view"]["result"]
        assert south.token is not None
        assert north.token is not None
        for seat in (south, north, device):
            await seat.close()
        return south.game, south.token, north.token, device.game, game, result

    server = start(store)
    try:
        linked, south_token, north_token, ended, game, result = asyncio.run(before_the_crash())
    finally:
        kill(server)

    async def after_the_restart() -> None:
        south, north, visitor = [await Seat.open(server) for _ in range(3)]
        state = await south.join(linked, south_token)
        assert south.seat == 0
        assert state["record"] == game.record()
        assert state["view"]["ply"] == 6
        await north.join(linked, north_token)
        assert north.seat == 1
        await _play_random({0: south, 1: north}, game, 6, rng)
        assert north.state["record"] == game.record()
        # The game ended before the crash: its result, to look at.
        old = await visitor.join(ended)
        assert visitor.seat is None
        assert old["over"]
        assert old["view"]["result"] == result
        for seat in (south, north, visitor):
            await seat.close()

    with running_server(store) as server:
        asyncio.run(after_the_restart())


def test_a_frame_past_the_servers_limit_closes_that_connection_only(tmp_path: Path) -> None:
    async def scenario(ws: str) -> None:
        async with websockets.connect(ws) as big:
            await big.send("x" * 70_000)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(big.recv(), 30)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1009

    with running_server(tmp_path / "games.sqlite3") as server:
        asyncio.run(scenario(server.ws))

        async def still_up() -> None:
            seat = await Seat.open(server)
            state = await seat.new("3")
            assert state["view"]["ply"] == 0
            await seat.close()

        asyncio.run(still_up())
