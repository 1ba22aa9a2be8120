"""How much one connection and the whole server may ask of ``ayo serve``.

A person clicks a few times a second; a script that floods the server is
refused message by message (a token bucket per connection), and closed when
it keeps on. The number of games in progress is capped (``--max-games``), so
no one can fill the memory or the disk by opening games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Limits", "RateLimit"]


@dataclass(frozen=True)
class Limits:
    """The server's limits (``ayo serve``'s options set the first)."""

    #: Games in progress at once; a new one past this is refused.
    max_games: int = 1000
    #: Messages a second a connection may send, on average.
    messages_per_second: float = 20.0
    #: Messages a connection may send at once, after a quiet while.
    burst: int = 40
    #: Refused messages in a row after which the connection is closed.
    refusals_before_close: int = 200
    #: Connections watching or playing one game at once.
    max_watchers: int = 100
    #: Seconds a connection may take to take in one state before it is dropped.
    send_timeout: float = 10.0


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second, ``burst`` at once.

    ``clock`` is :func:`time.monotonic` (a test passes its own).
    """

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _tokens: float = field(init=False)
    _last: float = field(init=False)

    def __post_init__(self) -> None:
        self._tokens = float(self.burst)
        self._last = self.clock()

    def allow(self) -> bool:
        """Whether one more message may be handled now (it takes a token)."""
        now = self.clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
