"""``ayo serve`` in a real browser: two people play a whole game through a shared link.

``ayo serve`` runs in a child process on a free loopback port (over a
temporary SQLite file); headless Chromium (Debian's, under Playwright, as
test_widget_browser.py launches it) opens three browser contexts, three
people with their own storage. The first starts a game "by link" and reads
the link off the page; the second opens it and takes the other seat; the
third opens it and watches. They play a whole game of random legal moves,
each clicking only on their own turn; in the middle the second player's
page is closed and opened again and takes its seat back (its token is in
its storage), and the first player previews a pit by pressing and holding
it (touch). The watcher's board follows every move and shows the result.
Screenshots: ``AYO_SCREENSHOTS``/ayo-browser/serve-*.png (docs/img/serve.png
is one of them).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_widget_browser as widget_test
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
from serve_process import Server, start, stop  # tests/python/serve_process.py

# Headless Chromium, launched as the widget's browser test launches it.
browser = widget_test.browser
TIMEOUT_MS = 30_000
#: Random games of the default rules (ayo) end within a few hundred moves.
MAX_PLIES = 600

pytestmark = pytest.mark.timeout(280)


@pytest.fixture(scope="module")
def ayo_server() -> Iterator[Server]:
    """``ayo serve`` over a temporary SQLite file."""
    with tempfile.TemporaryDirectory(prefix="ayo-serve-") as tmp:
        server = start(Path(tmp) / "games.sqlite3")
        try:
            yield server
        finally:
            stop(server)


def _person(browser: Browser, touch: bool = False) -> BrowserContext:
    context = browser.new_context(viewport={"width": 760, "height": 760}, has_touch=touch)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def _ply(page: Page) -> int:
    return int(page.locator(".ayo-widget").get_attribute("data-ply") or "0")


def _seeds(page: Page) -> list[str]:
    return page.locator(".ayo-pit .ayo-seeds, .ayo-store .ayo-seeds").all_inner_texts()


def _at_ply(pages: list[Page], ply: int) -> None:
    for page in pages:
        expect(page.locator(".ayo-widget")).to_have_attribute("data-ply", str(ply))


def test_two_browsers_play_a_whole_game_by_link(browser: Browser, ayo_server: Server) -> None:
    start_time = time.monotonic()
    rng = random.Random(5)
    first_person, second_person, third_person = (
        _person(browser, touch=True),
        _person(browser),
        _person(browser),
    )
    first = first_person.new_page()
    console: list[str] = []
    first.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    first.on("pageerror", lambda e: console.append(f"page error: {e}"))
    try:
        # The first person opens the server (a game against the computer
        # starts) and chooses "two players, two devices".
        first.goto(ayo_server.url + "?delay=0")
        expect(first.locator("body")).to_have_attribute("data-mode", "computer")
        first.locator(".ayo-select").nth(1).select_option("link")
        expect(first.locator("body")).to_have_attribute("data-mode", "link")
        expect(first.locator("#ayo-share")).to_be_visible()
        link = first.locator("#ayo-link").input_value()
        assert "/game/" in link
        expect(first.locator(".ayo-status")).to_contain_text("Waiting for the other player")

        second = second_person.new_page()
        second.goto(link + "?delay=0")
        expect(second.locator("body")).to_have_attribute("data-seat", "1")
        expect(second.locator("#ayo-seat")).to_have_text("You play North.")
        watcher = third_person.new_page()
        watcher.goto(link + "?delay=0")
        expect(watcher.locator("body")).to_have_attribute("data-seat", "none")
        expect(watcher.locator("#ayo-seat")).to_contain_text("You are watching")
        expect(first.locator(".ayo-status")).to_contain_text("Your move")

        players = [first, second]
        ply = 0
        rejoined = False
        while ply < MAX_PLIES:
            if first.locator("body").get_attribute("data-over") == "true":
                break
            to_move = first.locator(".ayo-widget").get_attribute("data-to-move")
            mover = players[int(to_move or "0")]
            other = players[1 - int(to_move or "0")]
            # Not the other player's turn: no pit of theirs may be played.
            expect(other.locator(".ayo-pit.ayo-playable")).to_have_count(0)
            playable = mover.locator(".ayo-pit.ayo-playable")
            count = playable.count()
            assert count > 0, mover.locator(".ayo-widget").inner_text()
            pit = playable.nth(rng.randrange(count))
            if ply == 0:
                # Press and hold: the preview, and no sowing.
                pit.dispatch_event("touchstart")
                first.wait_for_timeout(800)
                pit.dispatch_event("touchend")
                expect(first.locator(".ayo-preview")).to_contain_text("Pit ")
                assert _ply(first) == ply
            pit.click()
            ply += 1
            _at_ply([first, second, watcher], ply)
            if ply == 3:
                # North's page goes away and comes back: the same seat.
                second.close()
                second = second_person.new_page()
                second.goto(link + "?delay=0")
                expect(second.locator("body")).to_have_attribute("data-seat", "1")
                _at_ply([second], ply)
                players = [first, second]
                rejoined = True
            if ply == 4:
                first.mouse.move(0, 0)  # no hover preview in the picture
                widget_test._screenshot(first, "serve-link-game.png")
        assert first.locator("body").get_attribute("data-over") == "true", "the game did not end"
        assert rejoined, "the game ended before the second player's page was reopened"
        result = first.locator(".ayo-result").inner_text()
        assert result
        expect(watcher.locator(".ayo-result")).to_have_text(result)
        expect(second.locator(".ayo-result")).to_have_text(result)
        assert _seeds(watcher) == _seeds(first) == _seeds(second)
        widget_test._screenshot(first, "serve-game-over.png")
        widget_test._screenshot(watcher, "serve-watcher.png")
    except Exception:
        widget_test._screenshot(first, "serve-failed.png")
        print("browser console:", *console[-40:], sep="\n  ")
        raise
    finally:
        for context in (first_person, second_person, third_person):
            context.close()
    print(f"ayo serve: a whole game by link, {ply} moves, in {time.monotonic() - start_time:.1f} s")
