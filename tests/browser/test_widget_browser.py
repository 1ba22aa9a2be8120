"""The widget in a real browser: notebooks/play.ipynb in JupyterLab and Notebook 7.

A Jupyter server runs on localhost (a free port, a token, a temporary folder
holding a copy of the notebook); headless Chromium (Debian's ``chromium``,
driven by Playwright) opens the notebook, runs every cell, and plays: a
click on a pit of the board against the computer changes the counts and the
turn and brings the computer's reply (checked against a plain ayo.Game given
the same moves), hovering shows the engine's landing pit, undo takes back
both moves and the keys 1 to 6 sow; a click on the two-player board passes
the turn; a toggle and a preset change the third board's rules. A
screenshot of each page and of the board is saved and its path printed
(folder: ``AYO_SCREENSHOTS``/ayo-browser, default a new temporary folder).

Run by ci/browser.sh (which installs Chromium when it is missing):
``python -m pytest tests/browser``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

import ayo

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "play.ipynb"
UIS = ("lab", "notebooks")  # JupyterLab's and Notebook 7's pages
# Generous: the first start of a kernel and of JupyterLab's page is slow on 2 cores.
TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class Server:
    """A running Jupyter server: its base URL and token."""

    url: str
    token: str


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_until_up(server: Server, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the Jupyter server exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(
                f"{server.url}/api/status?token={server.token}", timeout=5
            ) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the Jupyter server did not answer in 90 s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """JupyterLab (with Notebook 7's pages) on 127.0.0.1 over a copy of play.ipynb."""
    with tempfile.TemporaryDirectory(prefix="ayo-jupyter-") as tmp:
        folder = Path(tmp)
        work = folder / "notebooks"
        work.mkdir()
        # A copy for each page, so that each runs its own kernel from a notebook
        # with no outputs.
        for ui in UIS:
            shutil.copy(NOTEBOOK, work / _copy_name(ui))
        token = os.urandom(16).hex()
        port = _free_port()
        # Settings, workspaces and runtime files in the temporary folder: the
        # run does not depend on (or change) the user's Jupyter set-up.
        env = {
            **os.environ,
            "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"),
            "JUPYTER_CONFIG_DIR": str(folder / "config"),
        }
        # No "news" notification over the page.
        notification = folder / "settings" / "@jupyterlab" / "apputils-extension"
        notification.mkdir(parents=True)
        (notification / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        log = folder / "server.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jupyter",
                    "lab",
                    "--no-browser",
                    "--ServerApp.ip=127.0.0.1",
                    f"--ServerApp.port={port}",
                    "--ServerApp.port_retries=0",
                    f"--IdentityProvider.token={token}",
                    f"--ServerApp.root_dir={work}",
                    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                    "--LabApp.extension_manager=readonly",
                    # CI runs as root; the server refuses that unless told.
                    *(["--allow-root"] if os.geteuid() == 0 else []),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=work,
            )
        try:
            up = Server(f"http://127.0.0.1:{port}", token)
            _wait_until_up(up, process, log)
            yield up
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _chromium() -> str:
    path = os.environ.get("AYO_CHROMIUM") or shutil.which("chromium")
    if not path:
        pytest.fail("Debian's chromium is not installed (ci/browser.sh installs it)")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium under Playwright (no browser download)."""
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=_chromium(),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@functools.cache
def _screenshot_folder() -> Path:
    """``AYO_SCREENSHOTS``/ayo-browser (ci/browser.sh: in target/), else a
    new temporary folder of this run's own."""
    base = os.environ.get("AYO_SCREENSHOTS") or tempfile.mkdtemp(prefix="ayo-screenshots-")
    folder = Path(base) / "ayo-browser"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _screenshot(target: Page | Locator, name: str) -> Path:
    """Save a screenshot of the page or of one element; print its path."""
    folder = _screenshot_folder()
    path = folder / name
    target.screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def _seeds(widget: Locator) -> list[int]:
    """The seeds shown in pits 0..11 and the two stores."""
    pits = [
        int(widget.locator(f'.ayo-pit[data-pit="{p}"] .ayo-seeds').inner_text()) for p in range(12)
    ]
    stores = [
        int(widget.locator(f'.ayo-store[data-store="{s}"] .ayo-seeds').inner_text()) for s in (0, 1)
    ]
    return pits + stores


def _settle(widget: Locator, ply: int) -> bool:
    """Wait for ``ply`` moves on the board, skipping each sowing once seen playing.

    True when a sowing was seen playing (and skipped).
    """
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    animated = False
    while time.monotonic() < deadline:
        if widget.get_attribute("data-animating") == "true":
            animated = True
            widget.locator(".ayo-skip").click()
        elif widget.get_attribute("data-ply") == str(ply):
            return animated
        time.sleep(0.1)
    raise AssertionError(f"the board did not reach ply {ply}: {widget.inner_text()}")


def _copy_name(ui: str) -> str:
    return f"play-{ui}.ipynb"


def _kernel_idle(server: Server, name: str) -> bool:
    """Whether notebook ``name``'s kernel has started and is idle (the server's sessions)."""
    with urllib.request.urlopen(f"{server.url}/api/sessions?token={server.token}") as answer:
        sessions = json.load(answer)
    return any(
        str(s.get("path", "")).endswith(name)
        and (s.get("kernel") or {}).get("execution_state") == "idle"
        for s in sessions
    )


def _run_all(page: Page, server: Server, name: str, widgets: Locator, count: int) -> None:
    """Run every cell with the Run menu once the kernel is up; wait for ``count`` widgets.

    Should JupyterLab still ask which kernel to start, the one it offers
    (the notebook's own, python3) is taken.
    """
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not _kernel_idle(server, name):
        if time.monotonic() > deadline:
            raise AssertionError("the notebook's kernel did not start")
        time.sleep(0.2)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for()
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator(".lm-Menu-item", has_text="Run All Cells").first.click()
    accept = page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
    accepted = False
    while widgets.count() < count and time.monotonic() < deadline:
        if not accepted and accept.count():
            accept.first.click()
            accepted = True
        time.sleep(0.2)
    expect(widgets).to_have_count(count, timeout=1000)


@pytest.mark.parametrize("ui", UIS)
def test_play_in_the_browser(server: Server, browser: Browser, ui: str) -> None:
    start = time.monotonic()
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"page error: {e}"))
    try:
        _play(page, server, ui)
    except Exception:
        _screenshot(page, f"widget-{ui}-failed.png")
        print("browser console:", *console[-40:], sep="\n  ")
        raise
    finally:
        page.close()
    print(f"{ui}: played in the browser in {time.monotonic() - start:.1f} s")


def _play(page: Page, server: Server, ui: str) -> None:
    """Open play.ipynb in ``ui`` ("lab" or "notebooks"), run it and play on its boards."""
    where = "lab/tree" if ui == "lab" else "notebooks"
    name = _copy_name(ui)
    page.goto(f"{server.url}/{where}/{name}?token={server.token}")
    widgets = page.locator(".ayo-widget")
    _run_all(page, server, name, widgets, 3)

    # The first board: the web app's rules (ayo) against the computer, you South.
    computer = widgets.nth(0)
    expect(computer).to_have_attribute("data-ply", "0")
    expect(computer).to_have_attribute("data-to-move", "0")
    before = _seeds(computer)
    assert before == [4] * 12 + [0, 0]
    game = ayo.Game("ayo")

    # The preview on hover: the engine's landing pit is marked and told.
    pit = computer.locator('.ayo-pit[data-pit="2"]')
    pit.hover()
    expect(computer.locator(".ayo-preview")).to_contain_text("Pit 3:")
    landing = computer.locator(".ayo-pit.ayo-landing")
    expect(landing).to_have_attribute("data-pit", str(game.last_landing(2)))

    # A click sows pit 3, lap by lap; the computer replies; the turn is yours again.
    pit.click()
    assert _settle(computer, 2), "the sowing was not animated"
    expect(computer).to_have_attribute("data-to-move", "0")
    message = computer.locator(".ayo-message")
    expect(message).to_contain_text("You played pit 3")
    expect(message).to_contain_text("Computer played pit")
    reply = re.search(r"Computer played pit (\d)", message.inner_text())
    assert reply is not None
    game.play(2)
    game.play(int(reply.group(1)) - 1)
    after = _seeds(computer)
    assert after != before
    assert after == [int(s) for s in game.board] + [int(s) for s in game.stores]

    # Two players (Oware), South has moved: a click on North's pit passes the turn.
    two = widgets.nth(1)
    expect(two).to_have_attribute("data-ply", "1")
    expect(two).to_have_attribute("data-to-move", "1")
    shown = _seeds(two)
    north = next(p for p in range(6, 12) if shown[p] > 0)
    two.locator(f'.ayo-pit[data-pit="{north}"]').click()
    _settle(two, 2)
    expect(two).to_have_attribute("data-to-move", "0")
    assert _seeds(two) != shown

    # The third board's settings: a toggle and a preset, each a new game.
    house = widgets.nth(2)
    rules = house.locator(".ayo-rules")
    expect(rules).to_have_text("Rules: ayo[capture=across,stuck_seeds=own_side]")
    house.locator('.ayo-toggle[data-toggle="collect_four"]').check()
    expect(rules).to_have_text("Rules: ayo[stuck_seeds=own_side]")
    house.locator(".ayo-select").first.select_option("oware")
    expect(rules).to_have_text("Rules: oware")
    expect(house.locator('.ayo-toggle[data-toggle="relay"]')).not_to_be_checked()
    expect(house.locator('.ayo-toggle[data-toggle="feed"]')).to_be_checked()
    expect(house).to_have_attribute("data-ply", "0")

    # Undo takes back the computer's reply and your move; then play again.
    computer.locator(".ayo-undo").click()
    expect(computer).to_have_attribute("data-ply", "0")
    assert _seeds(computer) == before
    # Keys 1 to 6 sow too (and do not reach Jupyter's own shortcuts).
    computer.focus()
    computer.press("4")
    _settle(computer, 2)
    expect(message).to_contain_text("You played pit 4")
    assert _seeds(computer) != before
    # In command mode "4" would have made the active cell a heading.
    expect(page.locator(".jp-MarkdownCell")).to_have_count(3)
    computer.scroll_into_view_if_needed()
    _screenshot(page, f"notebook-{ui}.png")
    _screenshot(computer, f"widget-{ui}.png")
