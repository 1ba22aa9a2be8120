"""``ayo serve``'s hub without a network: scripted browsers that talk to it directly.

A :class:`Browser` is one connection to a :class:`ayo.serve.games.Hub`
over an in-memory (or given) store: :meth:`Browser.say` hands the hub one
message, as the websocket would, and returns what the hub sent back to this
browser. Each test runs its scenario with :func:`asyncio.run`.
"""

from __future__ import annotations

import json
from typing import Any

from ayo import Game
from ayo.serve.games import Client, Hub
from ayo.serve.limits import Limits
from ayo.serve.store import Store


def make_hub(limits: Limits | None = None, store: Store | None = None) -> Hub:
    """A hub over ``store`` (default: one in memory) with ``limits`` (default: the server's)."""
    return Hub(store or Store(":memory:"), limits or Limits())


class Browser:
    """One connection to ``hub``: what it was sent, and whether the hub keeps it open."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.inbox: list[dict[str, Any]] = []
        self.client: Client = hub.connect(self._deliver)
        self.open = True

    async def _deliver(self, data: dict[str, Any]) -> None:
        # Through JSON, as the page gets it: the hub sends only what JSON can hold.
        self.inbox.append(json.loads(json.dumps(data)))

    async def say(self, message: dict[str, Any] | str | bytes) -> list[dict[str, Any]]:
        """Hand the hub one message (a dict is sent as JSON); what came back to this browser."""
        seen = len(self.inbox)
        text = json.dumps(message) if isinstance(message, dict) else message
        self.open = await self.hub.receive(self.client, text)
        return self.inbox[seen:]

    async def leave(self) -> None:
        """The connection drops."""
        await self.hub.disconnect(self.client)

    @property
    def state(self) -> dict[str, Any]:
        """The last state this browser was sent."""
        return next(m for m in reversed(self.inbox) if m["type"] == "state")

    @property
    def joined(self) -> dict[str, Any]:
        """The last ``joined`` this browser was sent (its game, seat and token)."""
        return next(m for m in reversed(self.inbox) if m["type"] == "joined")


def refusal(replies: list[dict[str, Any]]) -> str:
    """The code of the one refusal in ``replies``."""
    codes = [m["code"] for m in replies if m["type"] == "refused"]
    assert len(codes) == 1, replies
    return str(codes[0])


def replayed(state: dict[str, Any]) -> Game:
    """The game of ``state``'s record, replayed by ayo-core from its start."""
    return Game.from_record(state["record"])


def shown(state: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The board and stores ``state`` shows."""
    return list(state["view"]["board"]), list(state["view"]["stores"])


def position(game: Game) -> tuple[list[int], list[int]]:
    """``game``'s board and stores."""
    return [int(s) for s in game.board], [int(s) for s in game.stores]
