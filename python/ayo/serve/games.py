"""The games ``ayo serve`` holds, and the only authority over them.

A browser sends a pit choice and nothing else (:mod:`ayo.serve.protocol`);
here the hub decides whether it may: the connection holds the seat to move
(a seat is given by a token the browser keeps, so a dropped connection
takes it back), the computer is not thinking, and ayo-core accepts the move
(:meth:`ayo.Game.play`). Every position, preview, sowing and result sent
back is the engine's (:mod:`ayo.board_view`), and each accepted move is in
the store (:mod:`ayo.serve.store`) before anyone is told of it. A refusal
changes nothing and is answered with ``{"type": "refused", "code", "message"}``.

Three kinds of game, as the web app has: against a computer level, two
players on one device (the device's token holds both seats), and two
players on two devices (``"link"``: the creator holds one seat, whoever
opens the link first takes the other, everyone after watches).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ayo import AyoError, Game, IllegalMoveError, Rules
from ayo.ai import Player
from ayo.board_view import (
    TWO_PLAYERS,
    house_rules,
    level_choices,
    movers,
    refusal,
    result_text,
    sowing_of,
    take_back,
    toggles_of,
    view_of,
    words_of_move,
)
from ayo.serve.limits import Limits, RateLimit
from ayo.serve.protocol import (
    LINK,
    Join,
    Message,
    NewGame,
    Play,
    Restart,
    ServeError,
    Undo,
    parse,
)
from ayo.serve.store import LEFT, OVER, PLAYING, Store, StoredGame

__all__ = ["BOTH", "COMPUTER", "Client", "Hub", "LiveGame"]

_log = logging.getLogger(__name__)

#: The mode of a game against the computer (the others: ``TWO_PLAYERS``, ``LINK``).
COMPUTER = "computer"

#: The seat of a device that plays both sides (two players on one device).
BOTH = 2

#: What a page sends to a connection: one JSON object.
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass(eq=False)
class Client:
    """One connection: where it sends, its rate limit, and the game and seat it holds."""

    send: Send
    rate: RateLimit
    game: LiveGame | None = None
    #: 0 or 1, :data:`BOTH`, or None for a watcher.
    seat: int | None = None
    refusals: int = 0
    #: Set when a send failed or timed out: the connection is to be closed.
    dropped: bool = False


@dataclass(eq=False)
class LiveGame:
    """A game in memory: the engine's :class:`ayo.Game` and who is at it."""

    id: str
    mode: str
    settings: dict[str, Any]
    game: Game
    seed: int
    seats: list[str | None]
    player: str | None
    computer: Player | None
    #: As the store has it: being played, over, or left for a new game.
    state: str = PLAYING
    message: str = ""
    sowings: int = 0
    thinking: bool = False
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def human(self) -> int:
        """The person's seat against the computer; the creator's in a linked game."""
        return int(self.settings["human"])

    @property
    def names(self) -> tuple[str, str]:
        if self.mode == COMPUTER:
            return ("You", "Computer") if self.human == 0 else ("Computer", "You")
        return ("South", "North")

    @property
    def waiting(self) -> bool:
        """A linked game whose second seat no one has taken yet."""
        return self.mode == LINK and None in self.seats

    @property
    def rules_name(self) -> str:
        """The rule set's name as scoreboards keep it (``ayo``, ``oware[relay=true]``)."""
        return self.game.position_record().split(" ", 1)[0]


class Hub:
    """Every game of the server, and every connection to it.

    ``store`` keeps them; ``limits`` bound what one connection and the
    whole server may ask; ``databases`` is the folder of endgame databases
    that makes level ``perfect`` one of the choices (None: it is not).
    """

    def __init__(self, store: Store, limits: Limits, databases: Path | None = None) -> None:
        self.store = store
        self.limits = limits
        self.databases = databases
        self.games: dict[str, LiveGame] = {}
        self.levels = [*Player.levels(), *(["perfect"] if databases else [])]
        self._tasks: set[asyncio.Task[None]] = set()

    # --- start ------------------------------------------------------------------

    async def load(self) -> int:
        """Read back every game in progress, its moves replayed through ayo-core; how many.

        A game whose stored moves the engine refuses (a damaged file) is
        logged and left out; the computer moves where it is its turn.
        """
        for stored in self.store.games_in_progress():
            try:
                live = self._revive(stored)
            except AyoError as e:
                _log.error("game %s cannot be replayed (%s): left out", stored.id, e)
                continue
            self.games[live.id] = live
            self._spawn(self._computer_moves(live))
        return len(self.games)

    def _revive(self, stored: StoredGame) -> LiveGame:
        live = self._make(stored.id, stored.mode, stored.settings, stored.seed)
        live.seats = list(stored.seats)
        live.player = stored.player
        live.state = stored.state
        for pit in stored.moves:
            live.game.play_pit(pit)
        live.sowings = len(stored.moves)
        live.message = "The game goes on where it was."
        return live

    def _make(self, ident: str, mode: str, settings: dict[str, Any], seed: int) -> LiveGame:
        rules = house_rules(
            settings["preset"],
            relay=settings["relay"],
            collect_four=settings["collect_four"],
            sweep=settings["sweep"],
            feed=settings["feed"],
        )
        computer = None
        if mode == COMPUTER:
            computer = self._computer(rules, settings["opponent"], seed)
        return LiveGame(ident, mode, settings, Game(rules), seed, [None, None], None, computer)

    def _computer(self, rules: Rules, level: str, seed: int) -> Player:
        if level != "perfect":
            return Player(level, seed=seed)
        from ayo.cli.solve import perfect_player

        return perfect_player(rules, str(self.databases), seed, lambda line: _log.warning(line))

    # --- connections --------------------------------------------------------------

    def connect(self, send: Send) -> Client:
        """A new connection, holding no game yet."""
        return Client(send, RateLimit(self.limits.messages_per_second, self.limits.burst))

    async def disconnect(self, client: Client) -> None:
        """The connection is gone; its seat stays its token's (for a rejoin)."""
        live = client.game
        if live is None:
            return
        live.clients.remove(client)
        client.game = None
        if live.state != PLAYING and not live.clients:
            # Kept in the store, and read back if its link is opened again.
            self.games.pop(live.id, None)

    async def receive(self, client: Client, text: str | bytes) -> bool:
        """Handle one message; False when the connection should be closed (a flood).

        Every refusal is answered to the sender alone and changes nothing.
        """
        if client.dropped:
            return False
        if not client.rate.allow():
            client.refusals += 1
            if client.refusals >= self.limits.refusals_before_close:
                return False
            await self._refuse(client, ServeError("rate_limited", "too many messages: slow down"))
            return True
        try:
            await self._handle(client, parse(text, self.levels))
        except ServeError as e:
            client.refusals += 1
            await self._refuse(client, e)
            return client.refusals < self.limits.refusals_before_close
        client.refusals = 0
        return not client.dropped

    async def _refuse(self, client: Client, error: ServeError) -> None:
        await client.send({"type": "refused", "code": error.code, "message": str(error)})

    async def _handle(self, client: Client, message: Message) -> None:
        if isinstance(message, NewGame):
            await self._new(client, message)
        elif isinstance(message, Join):
            await self._join(client, message)
        elif isinstance(message, Play):
            await self._play(client, message.pit)
        elif isinstance(message, Undo):
            await self._undo(client)
        elif isinstance(message, Restart):
            await self._restart(client)

    # --- what a connection may ask --------------------------------------------------

    async def _new(self, client: Client, message: NewGame) -> None:
        toggles = toggles_of(Rules(message.preset))
        settings: dict[str, Any] = {
            "preset": message.preset,
            "opponent": message.opponent,
            "human": message.human,
            **{name: toggles[name] if on is None else on for name, on in message.toggles.items()},
        }
        player = message.player
        if client.game is not None and client.seat is not None and player is None:
            player = client.game.player
        await self._start(client, settings, player)

    async def _restart(self, client: Client) -> None:
        live = client.game
        if live is None or client.seat is None:
            raise ServeError("no_game", "start a game first: you hold no seat")
        if live.mode == LINK and not live.game.is_over:
            raise ServeError("not_allowed", "a game by link goes on until it ends: finish it first")
        await self._start(client, dict(live.settings), live.player)

    async def _start(self, client: Client, settings: dict[str, Any], player: str | None) -> None:
        if self.store.count_in_progress() >= self.limits.max_games:
            raise ServeError(
                "too_many_games",
                f"the server holds {self.limits.max_games} games in progress, its most: "
                "try again later",
            )
        opponent = settings["opponent"]
        mode = opponent if opponent in (LINK, TWO_PLAYERS) else COMPUTER
        seed = secrets.randbits(32)
        try:
            live = self._make(secrets.token_urlsafe(9), mode, settings, seed)
        except AyoError as e:  # level perfect's databases cannot be read
            raise ServeError("bad_field", str(e)) from None
        token = secrets.token_urlsafe(24)
        # The creator's seat: the person's against the computer or in a
        # linked game, both on one device.
        seat = BOTH if mode == TWO_PLAYERS else live.human
        live.seats = [_digest(token) if seat in (s, BOTH) else None for s in (0, 1)]
        live.player = player if mode == COMPUTER else None
        live.message = f"New game: {live.game.rules}."
        self.store.add_game(
            StoredGame(live.id, mode, settings, seed, live.seats, live.player, [], PLAYING)
        )
        previous, held = client.game, client.seat
        if previous is not None:
            await self.disconnect(client)
            # A game of one device left for a new one no longer counts as in
            # progress; a linked game is the other player's too and goes on.
            if held is not None and previous.mode != LINK and previous.state == PLAYING:
                previous.state = LEFT
                self.store.leave(previous.id)
                if not previous.clients:
                    self.games.pop(previous.id, None)
        self.games[live.id] = live
        await self._seat(client, live, seat, token)
        await self._computer_moves(live)

    async def _join(self, client: Client, message: Join) -> None:
        live = self.games.get(message.game)
        if live is None:
            stored = self.store.game(message.game)
            if stored is None:
                raise ServeError("unknown_game", "no game of that name: check the link")
            live = self._revive(stored)  # over or left: to look at
            live.message = stored.result or ""
            self.games[live.id] = live
        if len(live.clients) >= self.limits.max_watchers and client not in live.clients:
            raise ServeError("too_many_watchers", "this game has as many watchers as it can take")
        token = message.token
        seat: int | None = None
        if token is not None:
            digest = _digest(token)
            held = [s for s in (0, 1) if _same(live.seats[s], digest)]
            if held:
                seat = BOTH if len(held) == 2 else held[0]
        if seat is None and live.waiting and not live.game.is_over:
            seat = live.seats.index(None)
            token = secrets.token_urlsafe(24)
            live.seats[seat] = _digest(token)
            self.store.set_seat(live.id, seat, _digest(token))
            live.message = f"{live.names[seat]} has joined: the game begins."
        elif seat is None:
            token = None
        if client.game is not None:
            await self.disconnect(client)
        await self._seat(client, live, seat, token)

    async def _seat(
        self, client: Client, live: LiveGame, seat: int | None, token: str | None
    ) -> None:
        client.game, client.seat = live, seat
        live.clients.append(client)
        await client.send(
            {"type": "joined", "game": live.id, "seat": seat, "token": token, "mode": live.mode}
        )
        await self._broadcast(live)

    def _seated(self, client: Client) -> LiveGame:
        live = client.game
        if live is None:
            raise ServeError("no_game", "start or join a game first")
        if client.seat is None:
            raise ServeError("not_your_seat", "you are watching this game: you hold no seat")
        return live

    async def _play(self, client: Client, pit: int) -> None:
        live = self._seated(client)
        async with live.lock:
            game = live.game
            if live.thinking:
                raise ServeError("not_your_turn", "the computer is thinking")
            if live.waiting:
                raise ServeError("not_your_turn", "the other player has not opened the link yet")
            if not game.is_over and client.seat not in (game.to_move, BOTH):
                raise ServeError("not_your_turn", f"it is {live.names[game.to_move]}'s turn")
            try:
                sowing = self._sow(live, pit - 1)
            except IllegalMoveError as e:
                raise ServeError("illegal_move", refusal(pit - 1, e)) from None
            await self._broadcast(live, sowing)
        await self._computer_moves(live)

    def _sow(self, live: LiveGame, action: int, after: str = "") -> dict[str, Any]:
        """Play ``action`` for the mover and keep it; its sowing (IllegalMoveError: unchanged)."""
        game = live.game
        sowing = sowing_of(game, action, live.names, live.sowings + 1)
        words = words_of_move(game, action, live.names)
        game.play(action)
        live.sowings += 1
        live.message = f"{after} {words}".strip()
        self.store.set_moves(live.id, game.moves)
        if game.is_over:
            live.state = OVER
            self._finish(live)
        return sowing

    def _finish(self, live: LiveGame) -> None:
        game = live.game
        self.store.finish(live.id, game.record(), result_text(game, live.names))
        outcome = game.outcome
        if live.mode != COMPUTER or live.player is None or outcome is None:
            return
        mine, theirs = outcome.scores[live.human], outcome.scores[1 - live.human]
        if mine > theirs:
            self.store.add_win(
                live.player,
                live.rules_name,
                str(live.settings["opponent"]),
                (mine, theirs),
                live.id,
            )

    async def _computer_moves(self, live: LiveGame) -> None:
        player = live.computer
        if player is None:
            return
        async with live.lock:
            while not live.game.is_over and live.game.to_move != live.human:
                live.thinking = True
                await self._broadcast(live)
                try:
                    # Off the event loop (the search releases the GIL); on a
                    # copy, so that nothing else can see a half-made move.
                    action = await asyncio.to_thread(player.choose, live.game.copy())
                finally:
                    live.thinking = False
                sowing = self._sow(live, action, after=live.message)
                await self._broadcast(live, sowing)

    async def _undo(self, client: Client) -> None:
        live = self._seated(client)
        if live.mode == LINK:
            raise ServeError("not_allowed", "moves of a game by link cannot be taken back")
        async with live.lock:
            if live.thinking:
                raise ServeError("not_your_turn", "the computer is thinking")
            if live.game.is_over:
                raise ServeError("not_allowed", "the game is over: start a new one")
            human = live.human if live.mode == COMPUTER else None
            try:
                live.message = take_back(live.game, human)
            except AyoError as e:
                raise ServeError("not_allowed", str(e)) from None
            self.store.set_moves(live.id, live.game.moves)
            await self._broadcast(live)

    # --- what is sent ---------------------------------------------------------------

    async def _broadcast(self, live: LiveGame, sowing: dict[str, Any] | None = None) -> None:
        """Send each connection at the game its view (a sowing with it, after a move).

        All at once, each within :attr:`Limits.send_timeout`: a connection
        that does not read is dropped from the game (and closed), so it
        cannot hold up the others.
        """
        views: dict[tuple[Any, ...], dict[str, Any]] = {}
        sends = []
        for client in list(live.clients):
            state = self._state(live, client, views)
            state["sowing"] = sowing
            sends.append(self._deliver(live, client, state))
        await asyncio.gather(*sends)

    async def _deliver(self, live: LiveGame, client: Client, state: dict[str, Any]) -> None:
        try:
            await asyncio.wait_for(client.send(state), self.limits.send_timeout)
        except Exception:  # gone, or not reading: its own loop closes it
            _log.debug("dropped a connection of game %s", live.id, exc_info=True)
            client.dropped = True
            if client in live.clients:
                await self.disconnect(client)

    def _state(
        self, live: LiveGame, client: Client, views: dict[tuple[Any, ...], dict[str, Any]]
    ) -> dict[str, Any]:
        game, seat = live.game, client.seat
        over = game.is_over
        to_move = game.to_move
        may_play = (
            seat is not None
            and not over
            and not live.thinking
            and not live.waiting
            and seat in (to_move, BOTH)
        )
        if live.mode == COMPUTER:
            bottom = live.human
        elif live.mode == LINK and seat in (0, 1):
            bottom = int(seat)
        else:
            bottom = 0
        key = (may_play, bottom, self._status(live, seat), self._can_undo(live, seat))
        view = views.get(key)
        if view is None:
            view = views[key] = view_of(
                game,
                names=live.names,
                bottom=bottom,
                person_to_move=may_play,
                thinking=live.thinking,
                two_players=live.mode == TWO_PLAYERS,
                status=key[2],
                message=live.message,
                can_undo=key[3],
                opponents=self._opponents(),
            )
        best = None
        if live.mode == COMPUTER and live.player is not None:
            best = self.store.best(live.player, live.rules_name)
        return {
            "type": "state",
            "game": live.id,
            "mode": live.mode,
            "seat": seat,
            "settings": {k: live.settings[k] for k in ("preset", "opponent", "human")}
            | toggles_of(game.rules),
            "view": view,
            "record": game.record(),
            "waiting": live.waiting,
            "over": over,
            "best": best,
            "rules_name": live.rules_name,
            "watchers": sum(1 for c in live.clients if c.seat is None),
        }

    def _opponents(self) -> list[dict[str, str]]:
        levels = level_choices()
        if "perfect" in self.levels:
            levels.append({"value": "perfect", "label": "Computer, level perfect (databases)"})
        return [
            *levels,
            {"value": TWO_PLAYERS, "label": "Two players, one device"},
            {"value": LINK, "label": "Two players, two devices (share a link)"},
        ]

    @staticmethod
    def _status(live: LiveGame, seat: int | None) -> str:
        game, names = live.game, live.names
        if game.is_over:
            return "Game over."
        if live.thinking:
            return "The computer is thinking…"
        mover = names[game.to_move]
        if live.mode == COMPUTER:
            return "Your move: click one of your pits."
        if live.mode == TWO_PLAYERS:
            return f"{mover} to move: click one of {mover}'s pits."
        if live.waiting:
            return "Waiting for the other player to open the link."
        if seat is None:
            return f"{mover} to move. You are watching."
        if seat == game.to_move:
            return f"Your move ({mover}): click one of your pits."
        return f"{mover} to move: waiting for the other player."

    @staticmethod
    def _can_undo(live: LiveGame, seat: int | None) -> bool:
        moves = live.game.moves
        if seat is None or live.mode == LINK or not moves or live.game.is_over:
            return False
        return live.mode != COMPUTER or live.human in movers(moves)

    # --- background work ------------------------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _same(stored: str | None, digest: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, digest)
