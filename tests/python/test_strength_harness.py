"""Smoke test of bench/strength_openspiel.py (ayo against OpenSpiel's MCTSBot).

Two games with tiny budgets (ayo level 1 against MCTSBot at 20 simulations)
through the real harness: colours alternate, both engines stay in lockstep
and agree on the end, and the tallies add up. No strength is asserted: the
figures come from the full run (docs/strength-openspiel.md).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest
from conftest import ROOT

import ayo

pyspiel = pytest.importorskip("pyspiel")


def load_harness() -> ModuleType:
    path = ROOT / "bench" / "strength_openspiel.py"
    spec = importlib.util.spec_from_file_location("strength_openspiel", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # registered first: its dataclasses look their module up while being made
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def harness() -> ModuleType:
    return load_harness()


def test_two_games_in_lockstep_and_tallied(harness: Any) -> None:
    summary = harness.run(2, ayo_spec="1", simulations=20, seed=7, verbose=False)
    games = summary.games
    assert [g.index for g in games] == [0, 1]
    assert [g.ayo_seat for g in games] == [0, 1]
    assert summary.wins + summary.draws + summary.losses == 2
    for g in games:
        # replaying the record gives the same end, scored from ayo's seat
        replay = ayo.Game.from_record(g.record)
        outcome = replay.outcome
        assert outcome is not None
        assert g.result == outcome.result_for(g.ayo_seat)
        assert g.reason == outcome.reason
        assert g.plies == replay.ply == g.ayo_moves + g.mcts_moves
        assert sum(g.spiel_scores) == 48
        assert 0 < g.mcts_simulations <= 20 * g.mcts_moves
    report = harness.report(summary, None, 20, 2.0, None)
    assert report["games"] == 2
    assert report["verdict"].startswith("not assessed")


def test_mcts_move_is_the_bots_step(harness: Any) -> None:
    spiel_game = pyspiel.load_game("oware")
    state = spiel_game.new_initial_state()
    for action in (2, 3, 5):
        state.apply_action(action)
    for seed in range(3):
        a = harness.make_mcts(pyspiel, spiel_game, 50, seed)
        b = harness.make_mcts(pyspiel, spiel_game, 50, seed)
        action, sims = harness.mcts_move(a, state)
        assert action == b.step(state)
        assert sims == 50


def test_a_divergence_is_an_error(harness: Any) -> None:
    spiel_game = pyspiel.load_game("oware")
    state = spiel_game.new_initial_state()
    game = ayo.Game("oware")
    game.play(0)
    state.apply_action(0)
    harness.check_lockstep(game, state)
    state.apply_action(1)  # one more move on OpenSpiel's side only
    with pytest.raises(harness.Divergence):
        harness.check_lockstep(game, state)


def test_wilson_interval(harness: Any) -> None:
    lo, hi = harness.wilson(95, 100)
    assert lo == pytest.approx(0.8882, abs=1e-4)
    assert hi == pytest.approx(0.9785, abs=1e-4)
    assert harness.wilson(0, 0) == (0.0, 1.0)
