"""``ayo serve``: its three kinds of game, seats and links, personal bests, and the page.

The hub is driven by scripted browsers without a network (serve_hub.py);
the page's files and the websocket's origin check go through Starlette's
test client. Every position sent is checked against ayo-core's replay of
the game's record. The hostile inputs are in test_serve_hostile.py, a
restart in test_serve_restart.py, the load test in test_serve_load.py and
the page in a browser in tests/browser/test_serve_browser.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ayo_command
from serve_hub import Browser, make_hub, position, refusal, replayed, shown
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ayo import Rules
from ayo.ai import Player
from ayo.board_view import house_rules
from ayo.serve.app import make_app
from ayo.serve.games import BOTH
from ayo.serve.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_against_the_computer_is_the_engines() -> None:
    async def scenario() -> None:
        hub = make_hub()
        you = Browser(hub)
        await you.say({"kind": "new", "opponent": "2", "preset": "oware", "human": 0})
        assert you.joined["seat"] == 0
        assert you.state["settings"]["preset"] == "oware"
        assert you.state["view"]["person_to_move"]
        replies = await you.say({"kind": "play", "pit": 3})
        states = [m for m in replies if m["type"] == "state"]
        # Your sowing, the computer thinking, the computer's sowing.
        assert [s["view"]["ply"] for s in states] == [1, 1, 2]
        assert states[1]["view"]["thinking"]
        assert not states[1]["view"]["person_to_move"]
        assert states[0]["sowing"]["title"] == "You sow pit 3"
        assert states[2]["sowing"]["title"].startswith("Computer sows pit")
        game = replayed(you.state)
        assert shown(you.state) == position(game)
        assert game.moves[0] == 2
        assert you.state["view"]["person_to_move"]
        assert you.state["view"]["can_undo"]
        await you.say({"kind": "undo"})
        assert you.state["view"]["ply"] == 0

    asyncio.run(scenario())


def test_the_computer_moves_first_when_you_take_north() -> None:
    async def scenario() -> None:
        hub = make_hub()
        you = Browser(hub)
        await you.say({"kind": "new", "opponent": "1", "preset": "ayo", "human": 1})
        assert you.state["view"]["ply"] == 1
        assert you.state["view"]["bottom"] == 1
        assert you.state["view"]["to_move"] == 1

    asyncio.run(scenario())


def test_house_rule_toggles_and_a_new_preset() -> None:
    async def scenario() -> None:
        hub = make_hub()
        you = Browser(hub)
        await you.say({"kind": "new", "opponent": "two players", "preset": "ayo", "sweep": False})
        rules = house_rules("ayo", relay=True, collect_four=True, sweep=False, feed=True)
        assert you.state["view"]["rules"] == str(rules)
        assert you.state["settings"]["sweep"] is False
        await you.say({"kind": "new", "opponent": "two players", "preset": "ayoayo"})
        assert you.state["view"]["rules"] == str(Rules("ayoayo"))

    asyncio.run(scenario())


def test_two_players_on_one_device_play_both_seats() -> None:
    async def scenario() -> None:
        hub = make_hub()
        device = Browser(hub)
        await device.say({"kind": "new", "opponent": "two players", "preset": "ayo"})
        assert device.joined["seat"] == BOTH
        for pit in (3, 2, 5):
            assert not [
                m for m in await device.say({"kind": "play", "pit": pit}) if m["type"] == "refused"
            ]
        game = replayed(device.state)
        assert game.ply == 3
        assert shown(device.state) == position(game)
        assert device.state["view"]["names"] == ["South", "North"]

    asyncio.run(scenario())


def test_a_link_seats_the_second_player_and_the_rest_watch() -> None:
    async def scenario() -> None:
        hub = make_hub()
        first, second, watcher = Browser(hub), Browser(hub), Browser(hub)
        await first.say({"kind": "new", "opponent": "link", "preset": "ayo", "human": 0})
        game_id = first.joined["game"]
        assert first.state["waiting"]
        assert refusal(await first.say({"kind": "play", "pit": 3})) == "not_your_turn"
        await second.say({"kind": "join", "game": game_id, "token": None})
        assert second.joined["seat"] == 1
        assert second.joined["token"]
        assert not first.state["waiting"]
        assert second.state["view"]["bottom"] == 1
        await watcher.say({"kind": "join", "game": game_id, "token": None})
        assert watcher.joined["seat"] is None
        assert watcher.joined["token"] is None
        assert first.state["watchers"] == 1
        # North cannot move for South, and the watcher for no one.
        assert refusal(await second.say({"kind": "play", "pit": 1})) == "not_your_turn"
        assert refusal(await watcher.say({"kind": "play", "pit": 1})) == "not_your_seat"
        await first.say({"kind": "play", "pit": 3})
        assert watcher.state["view"]["ply"] == 1
        assert watcher.state["sowing"] is not None
        # North's connection drops and comes back with its token: its seat again.
        token = second.joined["token"]
        await second.leave()
        again = Browser(hub)
        await again.say({"kind": "join", "game": game_id, "token": token})
        assert again.joined["seat"] == 1
        assert again.state["sowing"] is None  # a rejoin is not shown a sowing again
        await again.say({"kind": "play", "pit": 2})
        assert first.state["view"]["ply"] == 2
        assert refusal(await again.say({"kind": "undo"})) == "not_allowed"
        assert refusal(await first.say({"kind": "new_game"})) == "not_allowed"
        game = replayed(first.state)
        assert shown(watcher.state) == position(game)

    asyncio.run(scenario())


def test_a_win_against_the_computer_is_this_browsers_personal_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The computer's seed fixed, so that this game is always the same one.
    monkeypatch.setattr("ayo.serve.games.secrets.randbits", lambda bits: 7)
    player = "p" * 32

    async def scenario() -> None:
        hub = make_hub()
        you = Browser(hub)
        await you.say(
            {"kind": "new", "opponent": "1", "preset": "oware", "human": 0, "player": player}
        )
        assert you.state["best"] is None
        strong = Player("4", seed=1)
        while not you.state["over"]:
            game = replayed(you.state)
            await you.say({"kind": "play", "pit": strong.choose(game) + 1})
        outcome = replayed(you.state).outcome
        assert outcome is not None
        assert outcome.scores[0] > outcome.scores[1]
        assert you.state["best"] == outcome.scores[0]
        assert hub.store.best(player, "oware") == outcome.scores[0]
        assert you.state["view"]["result"]
        # Another browser has no best of its own.
        other = Browser(hub)
        await other.say({"kind": "new", "opponent": "1", "preset": "oware", "player": "q" * 32})
        assert other.state["best"] is None

    asyncio.run(scenario())


def test_a_new_game_leaves_the_last_one_of_this_device(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = make_hub(store=Store(tmp_path / "games.sqlite3"))
        you = Browser(hub)
        await you.say({"kind": "new", "opponent": "3", "preset": "ayo"})
        first = you.joined["game"]
        await you.say({"kind": "new_game"})
        assert you.joined["game"] != first
        assert hub.store.count_in_progress() == 1
        stored = hub.store.game(first)
        assert stored is not None
        assert stored.state == "left"

    asyncio.run(scenario())


def test_the_page_serves_the_widgets_own_board_module() -> None:
    hub = make_hub()
    with TestClient(make_app(hub)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert '<script type="module" src="/static/page.js">' in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert client.get("/game/abc").text == page.text
        board = client.get("/static/widget_board.js")
        assert board.content == (ROOT / "python" / "ayo" / "widget_board.js").read_bytes()
        assert board.headers["content-type"].startswith("text/javascript")
        assert 'import board from "./widget_board.js"' in client.get("/static/page.js").text
        assert client.get("/static/../widget.py").status_code == 404
        assert client.get("/static/widget.py").status_code == 404


def test_the_websocket_plays_and_refuses_other_sites_pages() -> None:
    hub = make_hub()
    with TestClient(make_app(hub)) as client:
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"kind": "new", "opponent": "two players", "preset": "ayo"})
            assert ws.receive_json()["type"] == "joined"
            assert ws.receive_json()["view"]["ply"] == 0
            ws.send_bytes(b"\x00")
            assert ws.receive_json()["code"] == "malformed"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws,
        ):
            ws.receive_json()


def test_the_serve_command_checks_its_arguments(tmp_path: Path) -> None:
    bad_port = ayo_command(["serve", "--port", "70000"], tmp_path)
    assert bad_port.returncode == 2
    assert "usage: ayo serve" in bad_port.stderr
    for host in ("", "no such host", "\udcff", "256.0.0.1", "x" * 5000):
        bad_host = ayo_command(["serve", "--host", host, "--port", "0"], tmp_path)
        assert bad_host.returncode == 2
        assert bad_host.stderr.startswith("usage: ayo serve")
        assert "Traceback" not in bad_host.stderr
    no_db = ayo_command(["serve", "--databases", str(tmp_path / "none")], tmp_path)
    assert no_db.returncode == 1
    assert "no such folder of databases" in no_db.stderr


def test_without_the_serve_extra_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    # uvicorn made unimportable in a fresh interpreter; `import ayo` never needs it.
    code = (
        "import sys; sys.modules['uvicorn'] = None; from ayo.cli import main; "
        f"sys.exit(main(['serve', '--port', '0', '--store', {str(tmp_path / 'g.sqlite3')!r}]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 2
    assert 'ayo serve needs the serve extra (uvicorn is missing): pip install ".[serve]"' in (
        proc.stderr
    )
