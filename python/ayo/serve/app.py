"""``ayo serve``'s web application (Starlette): the page, its files, and the websocket.

``/`` and ``/game/{id}`` are the same page: the notebook widget's board
(``widget_board.js``, served as it is) driven by ``static/page.js``, which
gives it a model that talks to ``/ws`` instead of Jupyter. Every message on
``/ws`` goes to the hub (:class:`ayo.serve.games.Hub`), the only authority.
A websocket opened from a page of another site (its ``Origin`` is not this
server) is refused, so no other site's script can play in a visitor's name.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ayo.serve.games import Hub

__all__ = ["make_app"]

_log = logging.getLogger(__name__)

_PACKAGE = Path(__file__).resolve().parent.parent
_STATIC = Path(__file__).resolve().parent / "static"

#: The files the page loads: the board (one module with the notebook widget's) and the page.
_FILES = {
    "widget_board.js": (_PACKAGE / "widget_board.js", "text/javascript"),
    "widget_board.css": (_PACKAGE / "widget_board.css", "text/css"),
    "page.js": (_STATIC / "page.js", "text/javascript"),
    "page.css": (_STATIC / "page.css", "text/css"),
}

# Only this server's own files run on the page, and it talks only to itself.
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def make_app(hub: Hub) -> Starlette:
    """The application over ``hub``: reads the games back on start, closes the store at the end."""
    files = {name: (path.read_bytes(), kind) for name, (path, kind) in _FILES.items()}
    page = (_STATIC / "index.html").read_bytes()

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8", headers=_HEADERS)

    async def static(request: Request) -> Response:
        found = files.get(str(request.path_params["name"]))
        if found is None:
            return Response("not found", status_code=404, headers=_HEADERS)
        body, kind = found
        return Response(body, media_type=f"{kind}; charset=utf-8", headers=_HEADERS)

    async def socket(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=1008)
            return
        await websocket.accept()

        async def send(data: dict[str, Any]) -> None:
            if websocket.client_state == WebSocketState.CONNECTED:
                await websocket.send_json(data)

        client = hub.connect(send)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = text if text is not None else message.get("bytes") or b""
                if not await hub.receive(client, data):
                    await websocket.close(
                        code=1008, reason="too many refused messages, or too slow to read"
                    )
                    break
        except WebSocketDisconnect:
            pass
        finally:
            await hub.disconnect(client)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        count = await hub.load()
        _log.info("%d games in progress read back from %s", count, hub.store.path)
        try:
            yield
        finally:
            hub.store.close()

    return Starlette(
        routes=[
            Route("/", index),
            Route("/game/{game}", index),
            Route("/static/{name}", static),
            WebSocketRoute("/ws", socket),
        ],
        lifespan=lifespan,
    )


def _same_origin(websocket: WebSocket) -> bool:
    """Whether the page that opened the socket is this server's (or no page: a script)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == websocket.headers.get("host", "").lower()
