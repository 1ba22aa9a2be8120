"""ayo.Network and level learned: network files, evaluation in Rust, the level everywhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ayo
from ayo.ai import Player


@pytest.fixture(scope="module")
def net() -> ayo.Network:
    return ayo.Network.shipped("oware")


def test_the_shipped_networks_read_back(net: ayo.Network, tmp_path: Path) -> None:
    assert net.parameters > 1000
    relay = ayo.Network.shipped("ayoayo")
    assert relay.rules != net.rules
    path = tmp_path / "n.ayonet"
    path.write_bytes(net.to_bytes())
    again = ayo.Network.open(path)
    obs = ayo.Game("oware").observation()
    assert again.evaluate(obs) == net.evaluate(obs)
    logits, value = net.evaluate(obs)
    assert len(logits) == 6
    assert -1.0 <= value <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 10_000), st.integers(0, 255))
def test_damaged_network_files_are_refused(junk: bytes, at: int, byte: int) -> None:
    with pytest.raises(ayo.AyoError):
        ayo.Network.from_bytes(junk)
    data = bytearray(ayo.Network.shipped("oware").to_bytes())
    k = at % len(data)
    if data[k] != byte:
        data[k] = byte
        with pytest.raises(ayo.AyoError):
            ayo.Network.from_bytes(bytes(data))


def test_a_path_that_is_not_a_network_file(tmp_path: Path) -> None:
    with pytest.raises(ayo.AyoError):
        ayo.Network.open(tmp_path)
    with pytest.raises(ayo.AyoError):
        ayo.Network.open(tmp_path / "missing.ayonet")


@pytest.mark.parametrize("bad", [[1.0] * 13, [1.0] * 15, [float("nan")] * 14])
def test_bad_observations_are_refused(net: ayo.Network, bad: list[float]) -> None:
    with pytest.raises(ayo.AyoError):
        net.evaluate(bad)


@pytest.mark.parametrize("sims", [0, -1, 2**20 + 1, 2**70])
def test_network_players_bound_their_simulations(net: ayo.Network, sims: int) -> None:
    with pytest.raises(ayo.AyoError):
        net.player(sims)


@pytest.mark.parametrize("preset", ["ayoayo", "ayo", "olopon", "oware"])
def test_level_learned_plays_every_preset(preset: str) -> None:
    game = ayo.Game(preset)
    player = Player("learned", seed=1)
    assert player.level == "learned"
    assert player.kind == "learned"
    for _ in range(8):
        if game.is_over:
            break
        action = player.choose(game)
        assert game.is_legal(action)
        game.play(action)
    analysis = Player.from_kind("learned", nodes=8).analyze(ayo.Game(preset))
    assert analysis.best is not None
    assert analysis.basis == "estimate"


def test_self_play_with_a_network_is_the_same_as_asking_python(net: ayo.Network) -> None:
    def by_rows(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        answers = [net.evaluate(row) for row in obs]
        logits = np.array([a[0] for a in answers], np.float32)
        values = np.array([a[1] for a in answers], np.float32)
        return logits, values

    kwargs = {"games": 6, "simulations": 8, "method": "gumbel", "max_plies": 60, "seed": 3}
    fast = ayo.self_play("oware", net, **kwargs)  # type: ignore[arg-type]
    slow = ayo.self_play("oware", by_rows, **kwargs)  # type: ignore[arg-type]
    np.testing.assert_array_equal(fast.obs, slow.obs)
    np.testing.assert_array_equal(fast.policy, slow.policy)
    np.testing.assert_array_equal(fast.winner, slow.winner)

    search = ayo.GuidedSearch(8, method="gumbel", seed=1)
    actions, policies, _ = search.run([ayo.Game("oware")], net)
    assert ayo.Game("oware").is_legal(int(actions[0]))
    assert policies[0].sum() == pytest.approx(1.0)


def test_the_command_takes_level_learned(capsys: pytest.CaptureFixture[str]) -> None:
    from ayo.cli import main

    start = "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"
    assert main(["analyze", start, "--level", "learned", "--no-color"]) == 0
    assert "Analysis by level learned" in capsys.readouterr().out
    assert main(["arena", "--levels", "learned", "L1", "--games", "2", "--rules", "oware"]) == 0
    out = capsys.readouterr().out
    assert "learned vs L1" in out
