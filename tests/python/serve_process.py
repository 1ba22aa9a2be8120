"""``ayo serve`` in a child process on a free loopback port, and a websocket seat at it.

For the tests of ``ayo serve`` that need a real server (a restart, the load
test, the browser test): :func:`running_server` starts ``python -m ayo.cli
serve --port 0`` over a given SQLite file, reads the address it prints, and
stops it at the end (SIGTERM, then SIGKILL); :func:`kill` stops it at once,
as a crash would. :class:`Seat` is one scripted browser: a websocket that
sends messages and waits for the state it expects. Every wait has a time
limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

#: How long a reply may take before a test fails (2 shared cores, a busy CI).
REPLY_TIMEOUT = 30.0


@dataclass
class Server:
    """A running ``ayo serve``: its child process and its address (``http://127.0.0.1:P/``)."""

    process: subprocess.Popen[str]
    url: str

    @property
    def ws(self) -> str:
        """The websocket's address."""
        return self.url.replace("http://", "ws://", 1) + "ws"


def start(store: Path, *extra: str) -> Server:
    """``ayo serve`` over ``store`` on a free loopback port, once it has said its address."""
    env = dict(os.environ, AYO_DATA_DIR=str(store.parent / "data"))
    process = subprocess.Popen(
        [sys.executable, "-m", "ayo.cli", "serve", "--port", "0", "--store", str(store), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"open (http://\S+/) in a browser", line)
        if found:
            return Server(process, found.group(1))
    process.kill()
    process.wait()
    raise RuntimeError("ayo serve did not say its address:\n" + "".join(seen))


def stop(server: Server) -> None:
    """Stop the server as Ctrl-C would (SIGTERM: uvicorn closes the connections)."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


def kill(server: Server) -> None:
    """Stop the server at once, as a crash or a power cut would (SIGKILL)."""
    server.process.kill()
    server.process.wait()


@contextlib.contextmanager
def running_server(store: Path, *extra: str) -> Iterator[Server]:
    """A server for the ``with`` block; stopped at its end."""
    server = start(store, *extra)
    try:
        yield server
    finally:
        stop(server)


@dataclass
class Seat:
    """One scripted browser at a game: its socket, and the last state and refusal it got."""

    socket: ClientConnection
    game: str = ""
    seat: int | None = None
    token: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    refusals: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    async def open(cls, server: Server) -> Seat:
        """A new connection to ``server``."""
        return cls(await websockets.connect(server.ws, max_size=2**22))

    async def close(self) -> None:
        """Close the connection."""
        await self.socket.close()

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        await self.socket.send(json.dumps(message))

    async def next(self) -> dict[str, Any]:
        """The next message from the server (keeping state, seat and refusals up to date)."""
        raw = await asyncio.wait_for(self.socket.recv(), REPLY_TIMEOUT)
        message: dict[str, Any] = json.loads(raw)
        if message["type"] == "joined":
            self.game, self.seat, self.token = message["game"], message["seat"], message["token"]
        elif message["type"] == "state":
            self.state = message
        elif message["type"] == "refused":
            self.refusals.append(message)
        return message

    async def until(self, kind: str, **expected: Any) -> dict[str, Any]:
        """Read messages until one of type ``kind`` whose fields have the ``expected`` values."""
        while True:
            message = await self.next()
            if message["type"] == kind and all(message.get(k) == v for k, v in expected.items()):
                return message

    async def ply(self, ply: int) -> dict[str, Any]:
        """Read states until the game has ``ply`` moves and the computer is not thinking."""
        while True:
            message = await self.until("state")
            view = message["view"]
            if view["ply"] == ply and not view["thinking"]:
                return message

    async def new(self, opponent: str, preset: str = "ayo", **more: Any) -> dict[str, Any]:
        """Start a game; the first state."""
        await self.send({"kind": "new", "opponent": opponent, "preset": preset, **more})
        await self.until("joined")
        return await self.until("state")

    async def join(self, game: str, token: str | None = None) -> dict[str, Any]:
        """Join ``game`` (with a seat's token); the first state."""
        await self.send({"kind": "join", "game": game, "token": token})
        await self.until("joined")
        return await self.until("state")
