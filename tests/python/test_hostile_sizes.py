"""Every size or count of the Python binding, at any value, is an answer or an ``AyoError``.

Issue #37: ``CountedDatabase.open(folder, max_seeds=2**32)`` aborted the
interpreter (an allocation of 206 GB) and ``2**64 - 1`` let a Rust panic out.
Each size is bounded by the rules it belongs to and refused before anything
is allocated or any file is looked at.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ayo
from ayo import AyoError, CountedDatabase, Database, DatabaseError
from ayo._ayo import EpisodeCore, thread_count
from ayo.ai import Player

# Values up to 2**64 and beyond, with the edges of every integer width.
EDGES = [
    -(2**64),
    -(2**63),
    -1,
    41,
    49,
    2**31,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    2**64 + 1,
    10**30,
]
ANY_INT = st.one_of(st.sampled_from(EDGES), st.integers(-(2**70), 2**70))

# tmp_path is shared by the examples of a test: each only checks that
# nothing appears in it.
FAST = settings(
    max_examples=60,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

DB_MAX = 40
COUNTED_MAX = 48


def outside(low: int, high: int) -> st.SearchStrategy[int]:
    """Integers outside ``low..=high`` (the edges and beyond 2**64)."""
    return ANY_INT.filter(lambda v: not low <= v <= high)


@FAST
@given(outside(0, DB_MAX))
def test_database_build_refuses_a_max_seeds_out_of_range(tmp_path: Path, v: int) -> None:
    folder = tmp_path / "never-made"
    with pytest.raises(AyoError, match=r"max_seeds .*0\.\.=40"):
        Database.build("ayoayo", v, folder)
    assert not folder.exists()


@FAST
@given(outside(0, COUNTED_MAX))
def test_counted_build_refuses_a_max_seeds_out_of_range(tmp_path: Path, v: int) -> None:
    folder = tmp_path / "never-made"
    with pytest.raises(AyoError, match=r"max_seeds .*0\.\.=48"):
        CountedDatabase.build("olopon", v, folder)
    assert not folder.exists()


@FAST
@given(ANY_INT)
def test_database_open_answers_any_max_seeds(tmp_path: Path, v: int) -> None:
    # A folder that does not exist: a bound refused first, else "missing".
    with pytest.raises(AyoError) as e:
        Database.open("ayoayo", tmp_path / "nowhere", max_seeds=v)
    if 0 <= v <= DB_MAX:
        assert isinstance(e.value, DatabaseError)
        assert e.value.reason == "missing"
    else:
        assert "0..=40" in str(e.value)


@FAST
@given(ANY_INT)
def test_counted_open_answers_any_max_seeds(tmp_path: Path, v: int) -> None:
    with pytest.raises(AyoError) as e:
        CountedDatabase.open("olopon", tmp_path / "nowhere", max_seeds=v)
    if 0 <= v <= COUNTED_MAX:
        assert isinstance(e.value, DatabaseError)
        assert e.value.reason == "missing"
    else:
        assert "0..=48" in str(e.value)


def test_the_issues_own_values_are_refused(tmp_path: Path) -> None:
    for v in (2**32, 2**64 - 1, 2**64):
        with pytest.raises(AyoError, match="out of range"):
            CountedDatabase.open("olopon", tmp_path, max_seeds=v)
        with pytest.raises(AyoError, match="out of range"):
            CountedDatabase.open("olopon", "/does/not/exist", max_seeds=v)


@pytest.fixture(scope="module")
def small_db() -> Database:
    return Database.build("ayoayo", 2)


@FAST
@given(ANY_INT)
def test_verify_answers_any_from_seeds(small_db: Database, v: int) -> None:
    if 0 <= v <= DB_MAX:
        assert small_db.verify(from_seeds=v, threads=1).ok
    else:
        with pytest.raises(AyoError, match="from_seeds"):
            small_db.verify(from_seeds=v, threads=1)


@FAST
@given(ANY_INT)
def test_thread_counts_are_checked_before_any_thread(v: int) -> None:
    if 1 <= v <= 1024:
        assert thread_count(v) == v
    elif v == 0:
        assert thread_count(v) >= 1
    else:
        with pytest.raises(AyoError):
            thread_count(v)


@FAST
@given(outside(1, 2**32 - 1))
def test_search_budgets_out_of_range_are_refused(v: int) -> None:
    with pytest.raises(AyoError):
        Player.from_kind("alphabeta", depth=v)


@FAST
@given(outside(1, 10**9))
def test_node_budgets_out_of_range_are_refused(v: int) -> None:
    with pytest.raises(AyoError):
        Player.from_kind("mcts", nodes=v)


@FAST
@given(outside(0, 30))
def test_perft_depths_out_of_range_are_refused(v: int) -> None:
    with pytest.raises(AyoError):
        ayo.perft("oware", v)


@FAST
@given(outside(0, 2**32 - 1))
def test_playout_counts_out_of_range_are_refused(v: int) -> None:
    game = ayo.Game("oware")
    with pytest.raises(AyoError):
        game.random_playouts(v, 0)
    with pytest.raises(AyoError):
        game.random_playouts(1, 0, max_plies=v)


@FAST
@given(ANY_INT)
def test_database_and_counted_nodes_are_answers_or_refusals(small_db: Database, v: int) -> None:
    game = ayo.Game("ayoayo", "ayoayo 0,0,0,0,0,1/0,0,0,0,0,1 23-23 s 0 0")
    if 1 <= v < 2**64:
        assert small_db.value(game, nodes=v) is not None
    else:
        with pytest.raises(AyoError, match="nodes"):
            small_db.value(game, nodes=v)


def _set_ply_cap(v: int) -> object:
    game = ayo.Game("oware")
    game.ply_cap = v
    return game


# Every other size or count a constructor or setter takes: an answer or an
# AyoError, never an OverflowError, a panic or an abort.
SIZED: dict[str, Callable[[int], object]] = {
    "EpisodeCore max_steps": lambda v: EpisodeCore("oware", max_steps=v),
    "Game.ply_cap": _set_ply_cap,
    "Rules seeds_per_pit": lambda v: ayo.Rules("oware").replace(seeds_per_pit=v),
    "Rules move_limit": lambda v: ayo.Rules("olopon").replace(move_limit=v),
    "Rules target": lambda v: ayo.Rules("ayo").replace(target=v),
    "Player seed": lambda v: Player("1", seed=v),
    "Outcome scores": lambda v: ayo.Outcome(0, "target", (v, 0)),
}


@FAST
@given(name=st.sampled_from(sorted(SIZED)), v=ANY_INT)
def test_every_other_size_is_an_answer_or_an_ayo_error(name: str, v: int) -> None:
    with contextlib.suppress(AyoError):
        SIZED[name](v)
