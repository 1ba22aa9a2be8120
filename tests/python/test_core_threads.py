"""Batch calls (perft, playouts) release the GIL: Python runs while they work."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable

import pytest

import ayo


def main_thread_stamps_during(work: Callable[[], object]) -> tuple[float, float, list[float]]:
    """Runs `work` in a thread; returns when the call started and ended and the
    times at which the main thread's Python loop ran meanwhile (about every ms)."""
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
    return start, end, [t for t in stamps if start < t < end]


def python_progress_during(work: Callable[[], object]) -> tuple[float, int]:
    """The duration of `work` (run in a thread) and how many times the main
    thread's Python loop ran while it was on."""
    start, end, inside = main_thread_stamps_during(work)
    return end - start, len(inside)


def longest_stall_during(work: Callable[[], object]) -> tuple[float, float]:
    """The duration of `work` (run in a thread) and the longest time the main
    thread's Python loop went without running while it was on."""
    start, end, inside = main_thread_stamps_during(work)
    times = [start, *inside, end]
    return end - start, max(b - a for a, b in itertools.pairwise(times))


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
    duration, longest_stall = longest_stall_during(work)
    # With the GIL held the main loop could not run during the Rust call (a
    # stall of nearly the whole duration); released, it wakes about every
    # millisecond (less often on a loaded machine, but far from that).
    assert duration >= 0.2
    assert longest_stall < duration / 2, (duration, longest_stall)


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
