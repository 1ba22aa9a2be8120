"""examples/python/alphazero.py: the whole loop for a few seconds learns something.

Self-play through ayo's search, training in JAX, and the trained network
against an untrained one, on fixed seeds.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from conftest import ROOT

import ayo
from ayo.eval import round_robin


def _example() -> ModuleType:
    path = ROOT / "examples" / "python" / "alphazero.py"
    spec = importlib.util.spec_from_file_location("alphazero_example", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def az() -> ModuleType:
    return _example()


def test_training_lowers_the_loss_and_beats_an_untrained_network(
    az: ModuleType, tmp_path: Path
) -> None:
    cfg = az.Config(
        rules="oware",
        hidden=(32,),
        games=32,
        simulations=8,
        max_plies=200,
        train_steps=80,
        batch=128,
        seed=0,
    )
    params, history = az.train(cfg, iterations=4)
    assert len(history.loss) == 4
    assert history.loss[-1] < 0.95 * history.loss[0], history.loss
    assert history.value_loss[-1] < 0.9 * history.value_loss[0], history.value_loss
    assert history.rows[-1] > history.rows[0] > 0

    untrained = az.init_params(cfg.hidden, 12345)
    t = round_robin(
        {"trained": az.policy_agent(params), "untrained": az.policy_agent(untrained)},
        "oware",
        games=40,
        seed=7,
        openings=2,
    )
    pair = t.pairs[(0, 1)]
    assert pair.score >= 0.7, pair

    # The exported file is what the Rust players read: same logits and values.
    path = tmp_path / "net.ayonet"
    az.export(params, "oware", path)
    net = ayo.Network.open(path)
    game = ayo.Game("oware")
    logits, value = net.evaluate(game.observation("mover"))
    want_logits, want_values = az.forward(
        [(np.asarray(w), np.asarray(b)) for w, b in params],
        game.observation("mover")[None, :],
        xp=np,
    )
    np.testing.assert_allclose(logits, want_logits[0], rtol=1e-4, atol=1e-4)
    assert value == pytest.approx(float(want_values[0]), abs=1e-4)


def test_the_search_agent_plays_legal_moves(az: ModuleType) -> None:
    params = az.init_params((16,), 0)
    agent = az.search_agent(params, simulations=16)
    game = ayo.Game("ayoayo")
    for _ in range(6):
        action = agent(game)
        assert game.is_legal(action)
        game.play(action)
