"""Batch calls (perft, playouts) release the GIL: Python runs while they work."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

import ayo


def python_progress_during(work: Callable[[], object]) -> tuple[float, int]:
    """Runs `work` in a thread; returns its duration and how many times the main
    thread's Python loop ran while it was inside the call."""
    window: list[float] = []

    def worker() -> None:
        window.append(time.perf_counter())
        work()
        window.append(time.perf_counter())

    thread = threading.Thread(target=worker)
    stamps: list[float] = []
    thread.start()
    while thread.is_alive():
        stamps.append(time.perf_counter())
        time.sleep(0.001)
    thread.join()
    start, end = window
    inside = sum(1 for t in stamps if start < t < end)
    return end - start, inside


def sized(
    make: Callable[[int], Callable[[], object]], start: int, grow: Callable[[int], int]
) -> Callable[[], object]:
    """The first of make(start), make(grow(start)), … that takes at least 0.3 s."""
    n = start
    while True:
        work = make(n)
        began = time.perf_counter()
        work()
        if time.perf_counter() - began >= 0.3:
            return work
        n = grow(n)


@pytest.mark.parametrize("which", ["perft", "random_playouts"])
def test_batch_calls_release_the_gil(which: str) -> None:
    game = ayo.Game("ayo")
    if which == "perft":
        work = sized(lambda d: lambda: ayo.perft("ayo", d), 4, lambda d: d + 1)
    else:
        work = sized(lambda n: lambda: game.random_playouts(n, seed=1), 500, lambda n: 2 * n)
    duration, inside = python_progress_during(work)
    # With the GIL held the main loop could not run at all inside the call;
    # released, it wakes about every millisecond (fewer on a loaded machine).
    assert duration >= 0.2
    assert inside >= 5, (duration, inside)


def test_playouts_in_threads_agree_with_serial_ones() -> None:
    game = ayo.Game("oware")
    serial = [game.random_playouts(200, seed=s) for s in range(4)]
    results: dict[int, tuple[int, int, int, int]] = {}

    def run(s: int) -> None:
        results[s] = game.random_playouts(200, seed=s)

    threads = [threading.Thread(target=run, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[s] for s in range(4)] == serial


def test_the_game_stays_usable_while_its_playouts_run() -> None:
    game = ayo.Game("oware")
    expected = game.random_playouts(4000, seed=9)
    box: list[tuple[int, int, int, int]] = []
    thread = threading.Thread(target=lambda: box.append(game.random_playouts(4000, seed=9)))
    thread.start()
    played = 0
    while thread.is_alive() or played == 0:
        # Would raise "Already borrowed" if the playouts held the game.
        game.play(game.legal_moves()[0])
        game.undo()
        played += 1
    thread.join()
    assert box == [expected]
    assert game.moves == []
