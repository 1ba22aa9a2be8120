"""Every shared test vector (tests/vectors) checked through the Python API."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import VECTORS, load_json, move_vector_files, move_vectors

import ayo

PLAYERS = {"south": 0, "north": 1}
VECTORS_LIST = move_vectors()


def test_vector_files_are_present() -> None:
    # The parametrized tests below would silently vanish without them.
    assert len(move_vector_files()) >= 4
    assert len(VECTORS_LIST) >= 100
    assert (VECTORS / "perft.json").is_file()


def test_vector_names_are_unique() -> None:
    names = [v["name"] for v in VECTORS_LIST]
    assert len(names) == len(set(names))


def summary_of(game: ayo.Game, action: int) -> dict[str, Any]:
    """The vector form of a move's trace, built from `trace` and `trace_summary`."""
    events = game.trace(action)
    brief = game.trace_summary(action)
    forfeited = [e["seeds"] for e in events if e["event"] == "grand_slam_forfeited"]
    return {
        "laps": brief["laps"],
        "last_pit": brief["last_pit"],
        "end": brief["end"],
        "taken": list(brief["taken"]),
        "collected": [[e["pit"], e["to"]] for e in events if e["event"] == "collect"],
        "captured": [[e["pit"], e["seeds"]] for e in events if e["event"] == "capture"],
        "forfeited": forfeited[0] if forfeited else None,
    }


def check_outcome(game: ayo.Game, expected: dict[str, Any] | None) -> None:
    """The game's outcome and status are the vector's `outcome`."""
    if expected is None:
        assert game.outcome is None
        assert game.status == "ongoing"
        return
    outcome = game.outcome
    assert outcome is not None
    winner = None if expected["winner"] is None else PLAYERS[expected["winner"]]
    assert outcome.winner == winner
    assert outcome.reason == expected["reason"]
    assert list(outcome.scores) == expected["scores"]
    assert game.status == "ended"
    assert game.is_over


@pytest.mark.parametrize("vector", VECTORS_LIST, ids=[v["name"] for v in VECTORS_LIST])
def test_move_vector(vector: dict[str, Any]) -> None:
    game = ayo.Game.from_record(vector["game"])
    assert [a + 1 for a in game.legal_moves()] == vector["legal"]
    mask = game.action_mask()
    assert [bool(x) for x in mask] == [a + 1 in vector["legal"] for a in range(6)]
    action = vector["move"] - 1
    before = game.record()

    if vector["error"] is not None:
        assert not game.is_legal(action)
        with pytest.raises(ayo.IllegalMoveError) as info:
            game.play(action)
        assert info.value.reason == vector["error"]
        assert isinstance(info.value, ValueError)
        assert game.record() == before
        with pytest.raises(ayo.IllegalMoveError):
            game.trace(action)
        # The game is unchanged, so the vector's outcome is the game's own.
        check_outcome(game, vector["outcome"])
        return

    assert game.is_legal(action)
    assert summary_of(game, action) == vector["trace"]
    assert game.last_landing(action) == vector["trace"]["last_pit"]
    mover = game.to_move
    game.play(action)
    assert game.moves[-1] == mover * 6 + action
    assert game.position_record() == vector["after"]

    check_outcome(game, vector["outcome"])
    if vector["outcome"] is not None:
        assert game.legal_moves() == []

    # Undo gives back the position the vector started from.
    assert game.undo() == action
    assert game.record() == before


def perft_cases() -> list[tuple[str, str, int, int]]:
    """(rules, position, depth, count) for the shallow depths of perft.json."""
    path = VECTORS / "perft.json"
    if not path.is_file():
        return []
    doc = load_json(path)
    assert doc["format"] == "ayo-perft/1"
    cases = []
    for suite in doc["suites"]:
        for depth, count in enumerate(suite["counts"], start=1):
            if count <= 200_000:
                cases.append((suite["rules"], suite["position"], depth, count))
    return cases


PERFT = perft_cases()


@pytest.mark.parametrize(
    ("rules", "position", "depth", "count"),
    PERFT,
    ids=[f"{r}-d{d}-{i}" for i, (r, _, d, _) in enumerate(PERFT)],
)
def test_perft_vector(rules: str, position: str, depth: int, count: int) -> None:
    assert ayo.perft(rules, depth, position) == count
    if depth <= 2:
        # The same through a Rules object and a position record without its rules.
        as_rules = ayo.Game(position=position).rules
        bare = position.split(" ", 1)[1]
        assert ayo.perft(as_rules, depth, bare) == count
