"""Batch calls (perft, playouts) release the GIL: Python runs while they work;
one object shared by several threads serialises their calls (no PanicException,
no "Already borrowed" RuntimeError, only the API's own errors)."""

from __future__ import annotations

import collections
import copy
import itertools
import pickle
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ayo
from ayo.envs import AyoEnv
from ayo.vector import AyoVectorEnv


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


def stall_of_long_work(
    make: Callable[[int], Callable[[], object]], start: int, grow: Callable[[int], int]
) -> tuple[float, float]:
    """The duration and longest main-loop stall of the first of make(start),
    make(grow(start)), … whose call, run in a thread, takes at least 0.3 s.
    Sized by the measured call itself: on a loaded machine a call's time
    swings, and a short call would prove nothing."""
    n = start
    while True:
        duration, longest_stall = longest_stall_during(make(n))
        if duration >= 0.3:
            return duration, longest_stall
        n = grow(n)


@pytest.mark.parametrize("which", ["perft", "random_playouts"])
def test_batch_calls_release_the_gil(which: str) -> None:
    game = ayo.Game("ayo")
    if which == "perft":
        duration, longest_stall = stall_of_long_work(
            lambda d: lambda: ayo.perft("ayo", d), 4, lambda d: d + 1
        )
    else:
        duration, longest_stall = stall_of_long_work(
            lambda n: lambda: game.random_playouts(n, seed=1), 500, lambda n: 2 * n
        )
    # With the GIL held the main loop could not run during the Rust call (a
    # stall of nearly the whole duration); released, it wakes about every
    # millisecond (less often on a loaded machine, but far from that).
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


# --------------------------------------------------------------- shared objects

#: How long each sharing test hammers its object.
HAMMER_SECONDS = 1.2


def hammer(
    workers: list[Callable[[random.Random], object]], seconds: float = HAMMER_SECONDS
) -> tuple[int, collections.Counter[str]]:
    """Runs each worker in a loop on its own thread for `seconds`; returns the
    number of calls made and the AyoErrors raised (by class name). Fails on any
    other exception, a BaseException such as pyo3's PanicException included."""
    calls = [0] * len(workers)
    errors: list[collections.Counter[str]] = [collections.Counter() for _ in workers]
    unexpected: list[str] = []
    start = threading.Barrier(len(workers))
    deadline = time.perf_counter() + seconds

    def run(i: int) -> None:
        rng = random.Random(i)
        start.wait()
        while time.perf_counter() < deadline and not unexpected:
            try:
                workers[i](rng)
            except ayo.AyoError as err:
                errors[i][type(err).__name__] += 1
            except BaseException as err:  # a PanicException is a BaseException
                unexpected.append(f"{type(err).__module__}.{type(err).__name__}: {err}")
                return
            calls[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert unexpected == [], unexpected[:5]
    return sum(calls), sum(errors, collections.Counter())


def assert_replays(record: str) -> None:
    """The record is a game's: every move replays (and gives the record back)."""
    assert ayo.Game.from_record(record).record() == record


def play_or_undo(game: ayo.Game, rng: random.Random) -> None:
    """A legal move of `game` (possibly illegal by the time it is played, when
    another thread moved first), or a move taken back when there is none."""
    moves = game.legal_moves()
    if moves:
        game.play(rng.choice(moves))
    else:
        game.undo()


GAME_CALLS: dict[str, Callable[[ayo.Game, random.Random], object]] = {
    "random_playouts": lambda g, _: g.random_playouts(1, 0),
    "random_playout": lambda g, rng: g.random_playout(rng.randrange(1000)),
    "pickle": lambda g, _: assert_replays(pickle.loads(pickle.dumps(g)).record()),
    "copy": lambda g, _: assert_replays(copy.deepcopy(g).copy().record()),
    "undo": lambda g, _: g.undo(),
    "play": play_or_undo,
}


@pytest.mark.parametrize("call", sorted(GAME_CALLS))
def test_a_game_shared_by_threads_serialises_its_calls(call: str) -> None:
    # The reproducer: one thread plays an illegal move in a loop (the
    # IllegalMoveError is made with Python code, so the GIL may switch while
    # it is built), the others call `call` on the same game.
    game = ayo.Game("ayoayo")
    other = GAME_CALLS[call]
    workers: list[Callable[[random.Random], object]] = [
        lambda _: game.play(9),
        lambda rng: play_or_undo(game, rng),
        lambda rng: other(game, rng),
    ]
    calls, errors = hammer(workers)
    assert calls > 100, calls
    assert errors["IllegalMoveError"] > 0
    assert set(errors) <= {"IllegalMoveError"}, errors
    assert_replays(game.record())
    assert game == ayo.Game.from_record(game.record())


def legal_actions(mask: Any, rng: random.Random) -> Any:
    """A random legal action per row of a (N, 6) mask (0 where none is)."""
    rows = [np.flatnonzero(row) for row in np.asarray(mask)]
    return np.array([rng.choice(list(r)) if len(r) else 0 for r in rows], dtype=np.int64)


def test_a_vector_env_shared_by_threads_serialises_its_steps() -> None:
    envs = AyoVectorEnv(num_envs=4, illegal_action="raise")
    envs.reset(seed=1)

    def step(rng: random.Random) -> None:
        # The mask may be stale by the time the step runs (another thread
        # stepped meanwhile): an IllegalMoveError, the batch unchanged.
        envs.step(legal_actions(envs.action_masks(), rng))

    calls, errors = hammer([step, step, step, lambda _: envs.records()])
    assert calls > 100, calls
    assert set(errors) <= {"IllegalMoveError"}, errors
    for record in envs.records():
        assert_replays(record)


@pytest.mark.parametrize("opponent", ["random", "external"])
def test_an_env_shared_by_threads_serialises_its_steps(opponent: str) -> None:
    # The external opponent is Python code run inside `step`, the episode
    # half-played meanwhile: the other threads' steps wait for it.
    env = AyoEnv(opponent="random" if opponent == "random" else lambda g: g.legal_moves()[-1])
    env.reset(seed=2)

    def step(rng: random.Random) -> None:
        legal = np.flatnonzero(env.action_masks())
        if len(legal) == 0:
            env.reset()
            return
        _, _, terminated, truncated, _ = env.step(int(rng.choice(list(legal))))
        if terminated or truncated:
            env.reset()

    def look(_: random.Random) -> None:
        assert_replays(env.game.record())
        pickle.loads(pickle.dumps(env._core))

    calls, errors = hammer([step, step, look])
    assert calls > 100, calls
    assert set(errors) <= {"IllegalMoveError", "EpisodeOverError"}, errors
    assert_replays(env.game.record())


def test_an_opponent_cannot_step_its_own_episode() -> None:
    env = AyoEnv(opponent=lambda g: env.step(0) and 0)
    env.reset(seed=3, options={"agent_seat": 0})
    before = env.game.record()
    with pytest.raises(ayo.AyoError, match="middle of a call"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.game.record() == before
