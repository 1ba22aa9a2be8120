"""ayo.eval and ayo.datasets: ratings, round robins, exact positions and move accuracy."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ayo
import ayo.ai
from ayo import datasets
from ayo.eval import PairResult, Seeded, Tournament, bradley_terry, move_accuracy, round_robin

# ---------------------------------------------------------------- Bradley-Terry


def _expected_pairs(elos: list[float], games: int) -> dict[tuple[int, int], PairResult]:
    """Results as close as whole games get to what the Elo differences predict."""
    pairs = {}
    for i in range(len(elos)):
        for j in range(i + 1, len(elos)):
            p = 1.0 / (1.0 + 10 ** ((elos[j] - elos[i]) / 400.0))
            wins = round(p * games)
            pairs[(i, j)] = PairResult(wins=wins, losses=games - wins)
    return pairs


def test_bradley_terry_recovers_known_ratings() -> None:
    truth = [0.0, 150.0, 300.0, -200.0]
    elo, se = bradley_terry("abcd", _expected_pairs(truth, 100_000), prior_draws=0.0)
    assert elo[0] == 0.0
    assert se[0] == 0.0
    for got, want in zip(elo, truth, strict=True):
        assert got == pytest.approx(want, abs=1.0)
    assert all(0.0 < s < 5.0 for s in se[1:])


def test_intervals_shrink_with_more_games() -> None:
    few = bradley_terry("ab", _expected_pairs([0.0, 200.0], 20))[1][1]
    many = bradley_terry("ab", _expected_pairs([0.0, 200.0], 2000))[1][1]
    assert many < few / 5


def test_a_clean_sweep_stays_finite() -> None:
    elo, se = bradley_terry("ab", {(0, 1): PairResult(wins=0, losses=50)})
    assert math.isfinite(elo[1])
    assert elo[1] > 300
    assert math.isfinite(se[1])


def test_agents_not_linked_to_the_anchor_are_refused() -> None:
    pairs = {(0, 1): PairResult(wins=3, losses=1), (2, 3): PairResult(wins=2, losses=2)}
    with pytest.raises(ayo.AyoError, match="cannot rate"):
        bradley_terry("abcd", pairs)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)).filter(
            lambda r: sum(r) > 0
        ),
        min_size=3,
        max_size=3,
    ),
    st.integers(0, 2),
)
def test_ratings_do_not_depend_on_how_pairs_are_listed(
    results: list[tuple[int, int, int]], anchor: int
) -> None:
    keys = [(0, 1), (0, 2), (1, 2)]
    pairs = {k: PairResult(*r) for k, r in zip(keys, results, strict=True)}
    # The same games with every pair written the other way round.
    flipped = {(j, i): PairResult(p.losses, p.draws, p.wins) for (i, j), p in pairs.items()}
    elo, se = bradley_terry("abc", pairs, anchor)
    elo2, se2 = bradley_terry("abc", flipped, anchor)
    assert elo[anchor] == 0.0
    assert se[anchor] == 0.0
    assert elo == pytest.approx(elo2, abs=1e-6)
    assert se == pytest.approx(se2, abs=1e-6)
    assert all(math.isfinite(x) for x in elo + se)


def test_ratings_anchor_at_random_by_default() -> None:
    t = Tournament(["x", "random"], {(0, 1): PairResult(wins=8, draws=1, losses=1)})
    rows = t.ratings()
    assert [r.name for r in rows] == ["x", "random"]
    assert rows[1].elo == 0.0
    assert rows[1].low == 0.0
    assert rows[1].high == 0.0
    assert rows[0].low < rows[0].elo < rows[0].high
    assert rows[0].games == 10
    assert "| x |" in t.table()
    with pytest.raises(ayo.AyoError, match="anchor"):
        t.ratings("nobody")


def test_pair_elo_interval() -> None:
    elo, lo, hi = PairResult(wins=10, draws=0, losses=10).elo()
    assert elo == pytest.approx(0.0)
    assert lo < 0 < hi
    assert PairResult(wins=30).elo()[2] == math.inf


# ---------------------------------------------------------------- round robins


def test_round_robin_alternates_colours_and_counts_every_game() -> None:
    seats: dict[str, list[int]] = {"a": [], "b": []}

    def recorder(name: str) -> ayo.eval.Agent:
        def agent(game: ayo.Game) -> int:
            if game.ply <= 3:
                seats[name].append(game.to_move)
            return game.legal_moves()[0]

        return agent

    t = round_robin({"a": recorder("a"), "b": recorder("b")}, "oware", games=4, openings=0)
    pair = t.pairs[(0, 1)]
    assert pair.games == 4
    # Games 0 and 2: a is South and moves at plies 0 and 2; games 1 and 3: North.
    assert seats["a"] == [0, 0, 1, 1, 0, 0, 1, 1]


def test_round_robin_is_reproducible_and_levels_rank() -> None:
    agents = {"random": "random", "3": "3"}
    t1 = round_robin(agents, "oware", games=6, seed=5)
    t2 = round_robin(agents, "oware", games=6, seed=5)
    assert t1.pairs == t2.pairs
    assert t1.pairs[(0, 1)].losses >= 5  # level 3 beats random
    assert [r.name for r in t1.ratings()] == ["3", "random"]


def test_a_ladder_plays_only_neighbours() -> None:
    t = round_robin({"random": "1", "2": "2", "3": "3"}, "oware", games=2, pairs="adjacent")
    assert sorted(t.pairs) == [(0, 1), (1, 2)]
    assert len(t.ratings()) == 3
    with pytest.raises(ayo.AyoError, match="pairs must be"):
        round_robin({"a": "1", "b": "2"}, pairs="some")  # type: ignore[arg-type]


def test_seeded_agents_get_each_games_seed() -> None:
    seen: list[int] = []

    def factory(seed: int) -> ayo.eval.Agent:
        seen.append(seed)
        return ayo.ai.Player("1", seed=seed)

    round_robin({"s": Seeded(factory), "random": "random"}, "oware", games=3, seed=10)
    assert seen[1:] == [10, 11, 12]  # the first call checks the spec


@pytest.mark.parametrize("bad", [True, [1], 7, np.array([3]), 2.0, None])
def test_an_agents_bad_action_names_the_agent(bad: object) -> None:
    def agent(game: ayo.Game) -> int:
        return bad  # type: ignore[return-value]

    with pytest.raises(ayo.AyoError, match="agent 'bad'"):
        round_robin({"bad": agent, "random": "random"}, "oware", games=1)


def test_round_robin_refuses_bad_arguments() -> None:
    with pytest.raises(ayo.AyoError, match="at least two"):
        round_robin({"random": "random"})
    with pytest.raises(ayo.AyoError, match="not a level"):
        round_robin({"random": "random", "z": "zz"})
    with pytest.raises(ayo.AyoError, match="games"):
        round_robin({"a": "1", "b": "2"}, games=0)
    with pytest.raises(ayo.AyoError, match="openings"):
        round_robin({"a": "1", "b": "2"}, openings=-1)


# ---------------------------------------------------------------- datasets and move accuracy


@pytest.fixture(scope="module")
def ayoayo_db(tmp_path_factory: pytest.TempPathFactory) -> ayo.Database:
    folder: Path = tmp_path_factory.mktemp("db")
    return ayo.Database.build("ayoayo", 8, folder, threads=1)


@pytest.fixture(scope="module")
def olopon_db(tmp_path_factory: pytest.TempPathFactory) -> ayo.CountedDatabase:
    folder: Path = tmp_path_factory.mktemp("cdb")
    return ayo.CountedDatabase.build("olopon", 6, folder, threads=1)


def test_sample_arrays_agree_with_the_database(ayoayo_db: ayo.Database) -> None:
    ps = datasets.sample(ayoayo_db, 120, range(3, 9), seed=2)
    n = len(ps)
    assert n == 120
    assert ps.observations.shape == (n, 14)
    assert ps.observations.dtype == np.float32
    assert ps.masks.shape == (n, 6)
    assert ps.optimal.shape == (n, 6)
    assert ps.values.dtype == np.int16
    assert ps.move_values.dtype == np.int16
    assert set(ps.seeds.tolist()) <= set(range(3, 9))
    assert (ps.optimal <= ps.masks).all()
    assert ps.optimal.any(axis=1).all()
    for k in range(0, n, 7):
        game = ayo.Game(position=ps.records[k])
        assert int(game.board.sum()) == ps.seeds[k]
        assert ps.values[k] == ayoayo_db.value(ps.records[k])
        assert ps.masks[k].tolist() == game.action_mask().tolist()
        np.testing.assert_array_equal(ps.observations[k], game.observation("mover"))
    again = datasets.sample(ayoayo_db, 120, range(3, 9), seed=2)
    assert again.records == ps.records


def test_sample_from_counted_databases(olopon_db: ayo.CountedDatabase) -> None:
    ps = datasets.sample(olopon_db, 40, 6, seed=1)
    assert (ps.seeds == 6).all()
    for record in ps.records[:10]:
        game = ayo.Game(position=record)
        assert game.no_capture < olopon_db.limit


def test_sample_refuses_bad_arguments(ayoayo_db: ayo.Database) -> None:
    with pytest.raises(ayo.AyoError, match="n must be"):
        datasets.sample(ayoayo_db, 0, 4)
    with pytest.raises(ayo.AyoError, match="seeds must be"):
        datasets.sample(ayoayo_db, 5, 99)
    with pytest.raises(ayo.AyoError, match="seeds must be"):
        datasets.sample(ayoayo_db, 5, [])


def test_move_accuracy_grades_against_perfect_play(ayoayo_db: ayo.Database) -> None:
    ps = datasets.sample(ayoayo_db, 150, range(4, 9), seed=4)
    best_of = {r: int(np.flatnonzero(ps.optimal[k])[0]) for k, r in enumerate(ps.records)}

    def perfect(game: ayo.Game) -> int:
        return best_of[game.position_record()]

    def worst(game: ayo.Game) -> int:
        values = ayoayo_db.move_values(game)
        assert values
        return min(values, key=lambda a: values[a])

    top = move_accuracy(perfect, ps)
    assert top.positions == 150
    assert top.accuracy == 1.0
    assert top.mean_seed_loss == 0.0
    low = move_accuracy(worst, ps)
    assert low.accuracy < 0.7
    assert low.mean_seed_loss > 0.5
    rand = move_accuracy(ayo.ai.Player("1", seed=3), ps)
    assert low.mean_seed_loss >= rand.mean_seed_loss >= top.mean_seed_loss


def test_from_positions(ayoayo_db: ayo.Database) -> None:
    record = "ayoayo 0,0,1,0,0,2/1,0,0,0,0,1 21-22 s 0 0"
    ps = datasets.from_positions(ayoayo_db, [record, ayo.Game(position=record)])
    assert len(ps) == 2
    assert ps.values[0] == ps.values[1]
    with pytest.raises(ayo.AyoError, match="at least one"):
        datasets.from_positions(ayoayo_db, [])
