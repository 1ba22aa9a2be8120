"""The guided search and self-play from Python: ask/tell, run, errors."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

import ayo


def uniform(
    obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    n = obs.shape[0]
    return np.zeros((n, 6)), np.zeros(n)


def games(preset: str, n: int) -> list[ayo.Game]:
    out = []
    for i in range(n):
        g = ayo.Game(preset)
        for _ in range(i % 5):
            g.play(g.legal_moves()[0])
        out.append(g)
    return out


@pytest.mark.parametrize("preset", ["ayoayo", "ayo", "olopon", "oware"])
@pytest.mark.parametrize("method", ["puct", "gumbel"])
def test_run_gives_legal_policies(preset: str, method: str) -> None:
    batch = games(preset, 5)
    s = ayo.GuidedSearch(16, method=method, seed=3)  # type: ignore[arg-type]
    actions, policies, values = s.run(batch, uniform)
    assert actions.shape == (5,)
    assert policies.shape == (5, 6)
    assert values.shape == (5,)
    assert s.done
    for g, a, p in zip(batch, actions, policies, strict=True):
        mask = g.action_mask()
        assert mask[a]
        assert np.all(p[~mask] == 0.0)
        assert abs(float(p.sum()) - 1.0) < 1e-5
    assert np.all(np.abs(values) <= 1.0)
    assert s.visits().sum(axis=1).tolist() == [16] * 5


def test_ask_and_tell_by_hand() -> None:
    batch = games("oware", 3)
    s = ayo.GuidedSearch(4, seed=1)
    s.start(batch)
    obs, mask = s.leaves()
    assert obs.dtype == np.float32
    assert obs.shape == (3, 14)
    assert mask.dtype == np.bool_
    assert mask.shape == (3, 6)
    # The first round: every root, as the environments observe it.
    for g, m in zip(batch, mask, strict=True):
        assert m.tolist() == g.action_mask().tolist()
    assert s.leaf_games().tolist() == [0, 1, 2]
    # Asked again before tell: the same leaves.
    again, _ = s.leaves()
    assert np.array_equal(again, obs)
    rounds = 0
    while True:
        obs, mask = s.leaves()
        n = obs.shape[0]
        if n == 0:
            break
        rounds += 1
        assert n <= 3
        # float32 and float64, (n,) and (n, 1), lists: all read.
        logits = np.where(mask, 0.5, -np.inf).astype(np.float32)
        s.tell(logits, [[0.1]] * n if rounds % 2 else np.full(n, -0.2))
    assert rounds <= 5
    actions, _policies, _ = s.results()
    assert len(actions) == 3


def test_the_same_seed_gives_the_same_results() -> None:
    def net(
        obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return obs[:, :6] * 0.1, np.tanh((obs[:, 12] - obs[:, 13]) / 10)

    def results(seed: int) -> list[list[float]]:
        s = ayo.GuidedSearch(24, seed=seed)
        a, p, v = s.run(games("ayoayo", 4), net)
        return [a.tolist(), p.ravel().tolist(), v.tolist()]

    assert results(7) == results(7)


def test_bad_input_raises_search_error() -> None:
    assert issubclass(ayo.SearchError, ayo.AyoError)
    with pytest.raises(ayo.SearchError, match="node budget"):
        ayo.GuidedSearch(0)
    with pytest.raises(ayo.SearchError, match="method"):
        ayo.GuidedSearch(4, method="ucb")  # type: ignore[arg-type]
    with pytest.raises(ayo.SearchError, match="dirichlet_fraction"):
        ayo.GuidedSearch(4, dirichlet_fraction=2.0)
    with pytest.raises(ayo.AyoError, match="max_considered"):
        ayo.GuidedSearch(4, method="gumbel", max_considered=9)
    s = ayo.GuidedSearch(4)
    with pytest.raises(ayo.SearchError, match="no search started"):
        s.leaves()
    with pytest.raises(ayo.SearchError, match="1 to"):
        s.start([])
    over = ayo.Game("oware")
    while over.legal_moves():
        over.play(over.legal_moves()[0])
    with pytest.raises(ayo.SearchError, match="game 1 of the batch is over"):
        s.start([ayo.Game("oware"), over])
    # Stopped at its ply cap: no move to search either.
    capped = ayo.Game("oware")
    capped.play(capped.legal_moves()[0])
    capped.ply_cap = 1
    assert capped.legal_moves() == []
    with pytest.raises(ayo.SearchError, match="game 0 of the batch is over"):
        s.start([capped])
    with pytest.raises(TypeError):
        s.start([1, 2])  # type: ignore[list-item]
    s.start(games("oware", 2))
    with pytest.raises(ayo.SearchError, match="ask for them first"):
        s.tell(np.zeros((0, 6)), np.zeros(0))
    s.leaves()
    with pytest.raises(ayo.SearchError, match="shape"):
        s.tell(np.zeros((2, 5)), np.zeros(2))
    with pytest.raises(ayo.SearchError, match="shape"):
        s.tell(np.zeros((2, 6)), np.zeros(3))
    with pytest.raises(TypeError, match="float32 or float64"):
        s.tell(np.zeros((2, 6), dtype=np.int64), np.zeros(2))
    with pytest.raises(ayo.SearchError, match="value of leaf 1"):
        s.tell(np.zeros((2, 6)), np.array([0.0, np.nan]))
    with pytest.raises(ayo.SearchError, match="logit of legal action"):
        s.tell(np.full((2, 6), np.inf), np.zeros(2))
    with pytest.raises(ayo.SearchError, match="not done"):
        s.results()
    # Nothing changed: a good answer is taken.
    s.tell(np.zeros((2, 6)), np.zeros(2))
    with pytest.raises(TypeError, match="pair"):
        ayo.GuidedSearch(2).run(games("oware", 1), lambda o, m: None)  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("preset", ["ayo", "oware"])
def test_self_play_rows(preset: str) -> None:
    calls = []

    def net(
        obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        calls.append(obs.shape[0])
        return uniform(obs, mask)

    d = ayo.self_play(
        preset, net, games=3, simulations=4, max_plies=200, temperature_plies=6, seed=2
    )
    m = d.obs.shape[0]
    assert m == int(d.plies.sum())
    assert m > 0
    assert d.mask.shape == (m, 6)
    assert d.policy.shape == (m, 6)
    assert d.outcome.shape == (m,)
    assert np.allclose(d.policy.sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(d.policy[~d.mask])
    assert max(calls) <= 3
    for g in range(3):
        rows = np.flatnonzero(d.game == g)
        assert d.ply[rows].tolist() == list(range(len(rows)))
        z = d.outcome[rows]
        if d.truncated[g] or d.winner[g] == -1:
            assert np.all(z == 0)
        else:
            # The winner's rows +1, the loser's -1, alternating movers.
            assert np.all(np.abs(z) == 1)
            assert np.all(z[:-1] == -z[1:])
    again = ayo.self_play(
        preset, net, games=3, simulations=4, max_plies=200, temperature_plies=6, seed=2
    )
    assert np.array_equal(again.policy, d.policy)


def test_self_play_ask_and_tell_and_errors() -> None:
    sp = ayo.SelfPlay("olopon", games=2, simulations=2, max_plies=10, method="gumbel")
    with pytest.raises(ayo.SearchError, match="not done"):
        sp.data()
    while True:
        obs, _mask = sp.leaves()
        if len(obs) == 0:
            break
        sp.tell(np.zeros((len(obs), 6), dtype=np.float32), np.zeros(len(obs), dtype=np.float32))
    assert sp.done
    d = sp.data()
    assert d["plies"].tolist() == [10, 10] or bool(np.all(d["plies"] <= 10))
    with pytest.raises(ayo.SearchError):
        ayo.SelfPlay("olopon", games=0)
    with pytest.raises(ayo.SearchError, match="max_plies"):
        ayo.SelfPlay("olopon", max_plies=0)
    with pytest.raises(ayo.RulesError):
        ayo.SelfPlay("chess")


def test_leaves_are_views_rewritten_each_round() -> None:
    s = ayo.GuidedSearch(3, seed=4)
    s.start(games("ayo", 4))
    first, _ = s.leaves()
    kept = first.copy()
    s.tell(np.zeros((len(first), 6)), np.zeros(len(first)))
    second, _ = s.leaves()
    # No copy: both rounds are views of the search's own array.
    assert np.shares_memory(first, second)
    assert not first.flags.owndata
    assert len(second) <= 4
    assert np.array_equal(first[: len(second)], second)
    assert kept.shape == (4, 14)


def test_one_search_object_for_batches_of_any_size() -> None:
    s = ayo.GuidedSearch(4, method="gumbel")
    for n in (4, 2, 5, 1):
        actions, _, _ = s.run(games("olopon", n), uniform)
        assert actions.shape == (n,)
