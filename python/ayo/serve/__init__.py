"""``ayo serve``: play in a browser without Jupyter, and share a link to play someone.

A local web server (Starlette on uvicorn, the ``serve`` extra) whose page is
the notebook widget's board: against the computer at every level, two
players on one device, or two players on two devices by a link. The server
is the only authority (:mod:`ayo.serve.games`); games, results and personal
bests are kept in SQLite (:mod:`ayo.serve.store`). See docs/cli.md.

``import ayo`` never imports this package; importing it needs the extra.
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
from collections.abc import Callable
from pathlib import Path

from ayo import AyoError

__all__ = ["bind", "serve"]

#: Incoming websocket frames larger than this are closed by uvicorn itself
#: (status 1009); smaller ones past the protocol's limit get a refusal.
_FRAME_LIMIT = 64 * 1024


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one). AyoError if it cannot be."""
    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except (OSError, UnicodeError) as e:  # UnicodeError: a host name IDNA cannot encode
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise AyoError(f"cannot listen on {host}:{port} ({why})") from None
    return sock


def serve(
    sock: socket.socket,
    store_path: Path,
    *,
    max_games: int,
    databases: Path | None,
    ready: Callable[[str], None],
) -> None:
    """Serve on ``sock`` until stopped (Ctrl-C or SIGTERM); ``ready`` is told the address."""
    try:
        import uvicorn

        from ayo.serve.app import make_app
    except ImportError as e:
        raise AyoError(
            f"ayo serve needs the serve extra ({e.name} is missing): "
            'pip install ".[serve]" in the clone'
        ) from None
    from ayo.serve.games import Hub
    from ayo.serve.limits import Limits
    from ayo.serve.store import Store

    try:
        store = Store(store_path)
    except (OSError, sqlite3.Error) as e:  # not a database, locked, read-only
        raise AyoError(f"cannot open the games file {store_path}: {e}") from None
    hub = Hub(store, Limits(max_games=max_games), databases)
    config = uvicorn.Config(
        make_app(hub),
        ws="auto",
        ws_max_size=_FRAME_LIMIT,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    ready(f"http://{shown}:{port}/")
    asyncio.run(server.serve(sockets=[sock]))
