"""``ayo serve`` under hostile input: each gets a clear refusal and changes nothing.

Oversized, malformed and mistyped messages, unknown games, moves for the
other seat or out of turn, a flood past the rate limit, games past the cap;
and two hypothesis runs: any text at the parser (a message or a
:class:`ayo.serve.protocol.ProtocolError`, nothing else), and any sequence
of messages, valid or not, from three browsers at one hub (no exception;
every browser's position always ayo-core's replay of the stored moves). A
frame past uvicorn's own limit is in test_serve_restart.py, on a real server.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_hub import Browser, make_hub, position, refusal, replayed, shown

from ayo import Game, Rules
from ayo.ai import Player
from ayo.serve.games import Hub
from ayo.serve.limits import Limits, RateLimit
from ayo.serve.protocol import MAX_MESSAGE_BYTES, Join, Play, ProtocolError, parse

LEVELS = Player.levels()


def _fingerprint(hub: Hub) -> list[tuple[str, str, str]]:
    """Every stored game: its name, state and moves."""
    rows = hub.store._db.execute("SELECT id, state, moves FROM games ORDER BY id").fetchall()
    return [(str(a), str(b), str(c)) for a, b, c in rows]


BAD_MESSAGES: list[tuple[str | bytes, str]] = [
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
    (json.dumps({"kind": "play", "pit": 1, "pad": "é" * MAX_MESSAGE_BYTES}), "too_large"),
    ("not json", "malformed"),
    ("[" * 1000, "malformed"),
    ("[1, 2]", "malformed"),
    ('"play"', "malformed"),
    (b'{"kind": "play", "pit": 1}', "malformed"),
    ('{"kind": "fly"}', "unknown_kind"),
    ('{"pit": 3}', "unknown_kind"),
    ('{"kind": "play", "pit": 3, "seat": 1}', "bad_field"),
    ('{"kind": "play", "pit": "3"}', "bad_field"),
    ('{"kind": "play", "pit": true}', "bad_field"),
    ('{"kind": "play", "pit": 7}', "bad_field"),
    ('{"kind": "play", "pit": 3.0}', "bad_field"),
    ('{"kind": "play", "pit": 1e999}', "bad_field"),
    ('{"kind": "play", "pit": ' + "9" * 5000 + "}", "too_large"),
    ('{"kind": "new", "opponent": "9", "preset": "ayo"}', "bad_field"),
    ('{"kind": "new", "opponent": "perfect", "preset": "ayo"}', "bad_field"),
    ('{"kind": "new", "opponent": "3", "preset": "chess"}', "bad_field"),
    ('{"kind": "new", "opponent": "3", "preset": "ayo", "human": 2}', "bad_field"),
    ('{"kind": "new", "opponent": "3", "preset": "ayo", "relay": "yes"}', "bad_field"),
    ('{"kind": "new", "opponent": "3", "preset": "ayo", "player": "<script>"}', "bad_field"),
    ('{"kind": "join", "game": "../../etc", "token": null}', "bad_field"),
    ('{"kind": "join", "game": "abc", "token": "short"}', "bad_field"),
    ('{"kind": "join", "game": "nosuchgame", "token": null}', "unknown_game"),
]


@pytest.mark.parametrize(("text", "code"), BAD_MESSAGES)
def test_a_bad_message_is_refused_and_changes_nothing(text: str | bytes, code: str) -> None:
    async def scenario() -> None:
        hub = make_hub()
        you = Browser(hub)
        await you.say({"kind": "new", "opponent": "two players", "preset": "ayo"})
        await you.say({"kind": "play", "pit": 3})
        before, stored = you.state, _fingerprint(hub)
        replies = await you.say(text)
        assert refusal(replies) == code
        assert [m["type"] for m in replies] == ["refused"]
        assert replies[0]["message"]
        assert you.open
        assert _fingerprint(hub) == stored
        assert you.state == before

    asyncio.run(scenario())


def test_moves_out_of_turn_for_the_other_seat_or_illegal_are_refused() -> None:
    async def scenario() -> None:
        hub = make_hub()
        south, north, watcher, stranger = (Browser(hub) for _ in range(4))
        assert refusal(await stranger.say({"kind": "play", "pit": 1})) == "no_game"
        assert refusal(await stranger.say({"kind": "undo"})) == "no_game"
        assert refusal(await stranger.say({"kind": "new_game"})) == "no_game"
        await south.say({"kind": "new", "opponent": "link", "preset": "oware"})
        game = south.joined["game"]
        await north.say({"kind": "join", "game": game, "token": None})
        # The seat's token of another game does not seat anyone here.
        await watcher.say({"kind": "join", "game": game, "token": "A" * 32})
        assert watcher.joined["seat"] is None
        stored = _fingerprint(hub)
        assert refusal(await north.say({"kind": "play", "pit": 1})) == "not_your_turn"
        assert refusal(await watcher.say({"kind": "play", "pit": 1})) == "not_your_seat"
        assert refusal(await watcher.say({"kind": "undo"})) == "not_your_seat"
        assert _fingerprint(hub) == stored
        await south.say({"kind": "play", "pit": 6})
        assert refusal(await south.say({"kind": "play", "pit": 6})) == "not_your_turn"
        # An empty pit: the engine's reason, in words.
        await north.say({"kind": "play", "pit": 1})
        empty = next(
            p for p in range(1, 7) if Game.from_record(north.state["record"]).board[p - 1] == 0
        )
        replies = await south.say({"kind": "play", "pit": empty})
        assert refusal(replies) == "illegal_move"
        assert "it is empty" in replies[0]["message"]
        game_now = replayed(south.state)
        assert shown(watcher.state) == position(game_now)

    asyncio.run(scenario())


def test_a_flood_is_refused_then_closed() -> None:
    now = [0.0]
    limits = Limits(messages_per_second=5, burst=5, refusals_before_close=50)

    async def scenario() -> None:
        hub = make_hub(limits)
        you = Browser(hub)
        you.client.rate = RateLimit(5, 5, clock=lambda: now[0])
        await you.say({"kind": "new", "opponent": "two players", "preset": "ayo"})
        codes = []
        for _ in range(60):
            replies = await you.say({"kind": "play", "pit": 3})
            codes += [m["code"] for m in replies if m["type"] == "refused"]
            if not you.open:
                break
        assert "rate_limited" in codes
        assert not you.open  # closed after 50 refusals in a row
        stored = hub.store.game(you.joined["game"])
        assert stored is not None
        # The moves that got through are legal ones, the rest changed nothing.
        game = Game(Rules("ayo"))
        for pit in stored.moves:
            game.play_pit(pit)
        assert len(stored.moves) <= 5
        # After a quiet second the same connection may play again.
        now[0] += 1.0
        other = Browser(hub)
        other.client.rate = RateLimit(5, 5, clock=lambda: now[0])
        await other.say({"kind": "new", "opponent": "two players", "preset": "ayo"})
        assert other.state["view"]["ply"] == 0

    asyncio.run(scenario())


def test_games_past_the_cap_are_refused() -> None:
    async def scenario() -> None:
        hub = make_hub(Limits(max_games=2))
        a, b, c = Browser(hub), Browser(hub), Browser(hub)
        await a.say({"kind": "new", "opponent": "link", "preset": "ayo"})
        await b.say({"kind": "new", "opponent": "3", "preset": "ayo"})
        stored = _fingerprint(hub)
        replies = await c.say({"kind": "new", "opponent": "3", "preset": "ayo"})
        assert refusal(replies) == "too_many_games"
        assert _fingerprint(hub) == stored
        # A new game of a device replaces its last one: still within the cap.
        await b.say({"kind": "new_game"})
        assert b.state["view"]["ply"] == 0
        # Joining a game is not opening one.
        await c.say({"kind": "join", "game": a.joined["game"], "token": None})
        assert c.joined["seat"] == 1

    asyncio.run(scenario())


def test_watchers_past_the_limit_are_refused() -> None:
    async def scenario() -> None:
        hub = make_hub(Limits(max_watchers=3))
        owner = Browser(hub)
        await owner.say({"kind": "new", "opponent": "two players", "preset": "ayo"})
        game = owner.joined["game"]
        crowd = [Browser(hub) for _ in range(3)]
        codes = [
            m.get("code")
            for b in crowd
            for m in await b.say({"kind": "join", "game": game, "token": None})
        ]
        assert codes.count("too_many_watchers") == 1

    asyncio.run(scenario())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(["kind", "pit", "game", "token", "opponent", "preset", "human", "relay"])
KINDS = st.sampled_from(["new", "join", "play", "undo", "new_game", "fly"])
MESSAGES = st.one_of(
    st.text(max_size=64),
    st.binary(max_size=16),
    st.dictionaries(FIELDS, JSON_VALUES, max_size=5).map(json.dumps),
    st.builds(
        lambda kind, extra: json.dumps({"kind": kind, **extra}),
        KINDS,
        st.dictionaries(FIELDS, JSON_VALUES, max_size=3),
    ),
)


@settings(max_examples=400, deadline=None)
@given(MESSAGES)
def test_the_parser_refuses_anything_but_a_message_with_a_protocol_error(text: str | bytes) -> None:
    codes = {"too_large", "malformed", "unknown_kind", "bad_field"}
    try:
        message = parse(text, LEVELS)
    except ProtocolError as e:
        refused = e.code
    else:
        refused = ""
    if refused:
        assert refused in codes
        return
    if isinstance(message, Play):
        assert 1 <= message.pit <= 6
    if isinstance(message, Join):
        assert message.game


def _valid(draw: Any, game_ids: list[str], tokens: list[str]) -> dict[str, Any]:
    kind = draw(st.sampled_from(["play", "play", "play", "undo", "new_game", "new", "join"]))
    if kind == "play":
        return {"kind": "play", "pit": draw(st.integers(1, 6))}
    if kind == "new":
        return {
            "kind": "new",
            "opponent": draw(st.sampled_from(["1", "two players", "link"])),
            "preset": draw(st.sampled_from(Rules.presets())),
            "human": draw(st.integers(0, 1)),
            "relay": draw(st.none() | st.booleans()),
        }
    if kind == "join":
        return {
            "kind": "join",
            "game": draw(st.sampled_from(game_ids or ["nosuchgame"])),
            "token": draw(st.none() | st.sampled_from(tokens or ["B" * 32])),
        }
    return {"kind": kind}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_sequence_of_messages_keeps_every_game_the_engines(data: st.DataObject) -> None:
    async def scenario() -> None:
        hub = make_hub(Limits(max_games=4))
        browsers = [Browser(hub) for _ in range(3)]
        for _ in range(data.draw(st.integers(1, 25), label="messages")):
            who = data.draw(st.integers(0, 2), label="browser")
            game_ids = list(hub.games)
            tokens = [
                m["token"]
                for b in browsers
                for m in b.inbox
                if m["type"] == "joined" and m["token"]
            ]
            if data.draw(st.booleans(), label="hostile"):
                message: dict[str, Any] | str | bytes = data.draw(MESSAGES, label="hostile message")
            else:
                message = _valid(data.draw, game_ids, tokens)
            replies = await browsers[who].say(message)
            assert all(m["type"] in {"joined", "state", "refused"} for m in replies)
        for live in hub.games.values():
            stored = hub.store.game(live.id)
            assert stored is not None
            assert stored.moves == list(live.game.moves)
            game = Game(live.game.rules)
            for pit in stored.moves:
                game.play_pit(pit)
            assert position(game) == position(live.game)
        for browser in browsers:
            if any(m["type"] == "state" for m in browser.inbox) and browser.client.game is not None:
                assert shown(browser.state) == position(replayed(browser.state))

    asyncio.run(scenario())
