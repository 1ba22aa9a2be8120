"""One thread-count rule and one budget check, shared with Rust and C.

Threads (``ayo_core::threads``): None or 0 is every core, else 1 to
``MAX_THREADS`` (1024, ``AYO_MAX_THREADS`` in C); anything else is an
``AyoError`` raised before a thread starts, in ``Database.build`` and
``verify`` and in ``ayo solve --threads`` (a usage error, status 2).

Budgets (``ayo_core::players::Budget::checked``): depth 1 to 2**32 - 1, nodes
1 to 10**9, time more than 0 and at most 86400 s, at most one of them; the
messages are ayo-core's, word for word (its unit tests hold the same text).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ayo import AyoError, Database
from ayo._ayo import MAX_THREADS, thread_count
from ayo.ai import Player

TOO_MANY = 10**6


def threads_message(n: int) -> str:
    """ayo-core's ``ThreadsError`` text."""
    return f"threads is 0 (every core) or 1 to 1024, not {n}"


@pytest.fixture(scope="module")
def small_db() -> Database:
    return Database.build("ayoayo", 3, threads=1)


# ------------------------------------------------------------------ threads


def test_the_rule() -> None:
    assert MAX_THREADS == 1024
    every = thread_count(None)
    assert 1 <= every <= MAX_THREADS
    assert thread_count() == thread_count(0) == every
    assert thread_count(3) == 3
    assert thread_count(MAX_THREADS) == MAX_THREADS
    for bad in (-1, MAX_THREADS + 1, TOO_MANY):
        with pytest.raises(AyoError) as e:
            thread_count(bad)
        assert str(e.value) == threads_message(bad)


def test_too_many_threads_raise_at_once(small_db: Database) -> None:
    started = time.monotonic()
    with pytest.raises(AyoError) as e:
        Database.build("ayoayo", 2, threads=TOO_MANY)
    assert str(e.value) == threads_message(TOO_MANY)
    assert isinstance(e.value, ValueError)
    with pytest.raises(AyoError, match="1024"):
        small_db.verify(threads=TOO_MANY)
    with pytest.raises(AyoError, match="1024"):
        Database.build("ayoayo", 2, threads=MAX_THREADS + 1)
    assert time.monotonic() - started < 5


def test_zero_threads_is_every_core(small_db: Database) -> None:
    db = Database.build("ayoayo", 3, threads=0)
    assert db.positions == small_db.positions
    assert db.verify(threads=0).ok
    assert small_db.verify(threads=None).ok
    assert small_db.verify(threads=2).ok


def test_negative_threads_are_an_ayo_error_not_overflow(small_db: Database) -> None:
    for call in (
        lambda: Database.build("ayoayo", 2, threads=-1),
        lambda: small_db.verify(threads=-1),
    ):
        with pytest.raises(AyoError) as e:
            call()
        assert not isinstance(e.value, OverflowError)
        assert str(e.value) == threads_message(-1)


def run_cli(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"), NO_COLOR="1")
    env.pop("AYO_DB_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "ayo.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("action", "threads", "why"),
    [
        ("build", "100000000", threads_message(100_000_000)),
        ("build", "-1", threads_message(-1)),
        ("verify", "100000000", threads_message(100_000_000)),
        # Beyond 64 bits the conversion refuses it, still as a usage error.
        ("build", str(10**30), ""),
    ],
)
def test_the_command_refuses_a_bad_thread_count(
    tmp_path: Path, action: str, threads: str, why: str
) -> None:
    args = ["solve", action, "--dir", str(tmp_path / "db"), "--threads", threads, "-q"]
    if action == "build":
        args += ["--max-seeds", "2"]
    started = time.monotonic()
    proc = run_cli(args, tmp_path)
    assert time.monotonic() - started < 30
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    errors = [x for x in proc.stderr.splitlines() if "error:" in x]
    assert len(errors) == 1, proc.stderr
    assert "error: argument --threads: " + why in errors[0]
    assert errors[0].endswith(why)
    assert not (tmp_path / "db").exists()


def test_the_command_takes_zero_threads(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    proc = run_cli(
        ["solve", "build", "--max-seeds", "2", "--dir", str(folder), "--threads", "0", "-q"],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "every core" in proc.stdout


# ------------------------------------------------------------------ budgets

SEVERAL = "give at most one budget: depth, nodes or time"


def nodes_message(n: int) -> str:
    return f"a node budget is at least 1 and at most 1000000000 nodes, not {n}"


def depth_message(n: int) -> str:
    return f"a depth budget is at least 1 and at most 4294967295 plies, not {n}"


def time_message(t: str) -> str:
    return f"a time budget is more than 0 and at most 86400 seconds, not {t}"


Budgets = list[tuple[dict[str, float], str]]


def test_a_bad_budget_has_ayo_core_s_message(small_db: Database) -> None:
    cases: Budgets = [
        ({"nodes": 0}, nodes_message(0)),
        ({"nodes": 10**9 + 1}, nodes_message(10**9 + 1)),
        ({"nodes": -3}, nodes_message(-3)),
        ({"depth": 0}, depth_message(0)),
        ({"depth": 2**32}, depth_message(2**32)),
        ({"depth": -1}, depth_message(-1)),
        ({"time": 0.0}, time_message("0")),
        ({"time": -1.5}, time_message("-1.5")),
        ({"time": 86_401}, time_message("86401")),
        ({"depth": 3, "nodes": 100}, SEVERAL),
        ({"nodes": 0, "time": 1.0}, SEVERAL),
    ]
    for budget, message in cases:
        with pytest.raises(AyoError) as e:
            Player.from_kind("mcts", **budget)  # type: ignore[arg-type]
        assert str(e.value) == message, budget
        assert not isinstance(e.value, OverflowError)
    with pytest.raises(AyoError, match="more than 0"):
        Player.from_kind("alphabeta", time=math.nan)
    # The perfect player: the same check.
    perfect_cases: Budgets = [
        ({"nodes": 0}, nodes_message(0)),
        ({"nodes": 10**9 + 1}, nodes_message(10**9 + 1)),
        ({"nodes": 10, "time": 1.0}, SEVERAL),
    ]
    for budget, message in perfect_cases:
        with pytest.raises(AyoError) as e:
            Player.perfect(small_db, **budget)  # type: ignore[arg-type]
        assert str(e.value) == message, budget


def test_the_limits_themselves_are_accepted(small_db: Database) -> None:
    assert Player.from_kind("greedy", nodes=10**9).budget == "nodes=1000000000"
    assert Player.from_kind("greedy", depth=2**32 - 1).budget == "depth=4294967295"
    assert Player.from_kind("greedy", time=86_400).budget == "time=86400000ms"
    assert Player.from_kind("greedy", time=0.003).budget == "time=3ms"
    assert Player.from_kind("greedy").budget == "depth=4"
    assert Player.perfect(small_db, nodes=10**9).budget == "nodes=1000000000"
    assert Player.perfect(small_db).budget == "nodes=2000000"
