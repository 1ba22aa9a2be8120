"""Level ``perfect`` in Oware from Python: proven values under the real
repetition rule, the game's history deciding which position repeats.

The reference is a plain game-tree search over ``ayo.Game`` (the core's
rules and repetition window, nothing re-implemented) on endgames of two and
three seeds, small enough to search to every end. The rules have no target,
as the values do not (play goes on until the board is empty).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import ayo_command as run

from ayo import Database, Game
from ayo.ai import Player

RULES = "oware[target=none]"
# South's seeds in pits 1 and 5, North's row empty: South must feed, and the
# two seeds chase each other round the board until a position repeats, with
# one seed a side: worth 0 to South, where the databases' convention, which
# scores this board by its own split, says +2.
CHASE = f"{RULES} 0,1,0,0,0,1/0,0,0,0,0,0 24-22 s 0 0"
THREE = f"{RULES} 0,1,0,1,0,1/0,0,0,0,0,0 23-22 s 0 0"


# Values of positions just after a capture, where the window starts afresh,
# so that the position alone decides the rest of the game.
AFTER_CAPTURE: dict[str, int] = {}


def final_difference(game: Game) -> int:
    """The mover's final score minus the opponent's with best play by both:
    every line played to its end by the core's rules."""
    fresh = game.no_capture == 0 and len(game.moves) > 0
    if fresh and game.position_record() in AFTER_CAPTURE:
        return AFTER_CAPTURE[game.position_record()]
    outcome = game.outcome
    if outcome is not None:
        mine, theirs = outcome.scores[game.to_move], outcome.scores[1 - game.to_move]
        return mine - theirs
    best = None
    for action in game.legal_moves():
        child = game.copy()
        child.play(action)
        v = -final_difference(child)
        best = v if best is None else max(best, v)
    assert best is not None
    if fresh:
        AFTER_CAPTURE[game.position_record()] = best
    return best


def reference_moves(game: Game) -> dict[int, int]:
    out = {}
    for action in game.legal_moves():
        child = game.copy()
        child.play(action)
        out[action] = -final_difference(child)
    return out


@pytest.fixture(scope="module")
def db() -> Database:
    return Database.build(RULES, 4)


def line(record: str, plies: range) -> list[Game]:
    """The positions after `plies` moves of the line from ``record`` that
    plays the lowest legal move each time, while the game goes on."""
    out = []
    game = Game(position=record)
    while not game.is_over and len(game.moves) < plies.stop:
        if len(game.moves) in plies:
            out.append(game.copy())
        game.play(game.legal_moves()[0])
    return out


def games() -> list[Game]:
    """The chase and the positions of its line; three seeds 14 to 24 moves
    into their line, where the window holds many positions (some a move
    away from a repetition) and the plain search is quick."""
    return line(CHASE, range(0, 40)) + line(THREE, range(14, 25))


@pytest.mark.parametrize("game", games(), ids=lambda g: g.record())
def test_perfect_gives_the_games_values_proven(db: Database, game: Game) -> None:
    p = Player.perfect(db, nodes=1_000_000, seed=1)
    a = p.analyze(game)
    assert p.source in ("database", "search")
    expected = reference_moves(game)
    assert {m.action: m.proven for m in a.moves} == expected
    assert all(m.basis == "proven" for m in a.moves)
    assert a.basis == "proven"
    assert a.proven == max(expected.values())
    assert expected[p.choose(game)] == a.proven
    # The databases' own queries give the same values from the game's
    # history, counting only the seeds still to capture (not the stores).
    banked = int(game.stores[game.to_move]) - int(game.stores[1 - game.to_move])
    future = {action: v - banked for action, v in expected.items()}
    assert db.move_values(game, nodes=1_000_000) == future
    assert db.value(game, nodes=1_000_000) == max(future.values())


def test_the_convention_is_not_the_games_value_here(db: Database) -> None:
    game = Game(position=CHASE)
    # The convention scores this board by its own split (+2 to South); the
    # game's value is 0, inside the board's bounds, and that is what the
    # databases answer under the repetition rule, for the game and its record.
    lo, hi = db.bounds(game)
    assert lo <= 0 < 2 <= hi
    assert db.value(game) == 0
    assert db.value(CHASE) == 0
    a = Player.perfect(db, nodes=1_000_000, seed=1).analyze(game)
    assert (a.proven, a.proof) == (2 + 0, "complete search")  # 24 - 22 banked besides


def test_an_over_game_is_worth_its_final_split(db: Database) -> None:
    game = line(CHASE, range(0, 200))[-1]
    while not game.is_over:
        game.play(game.legal_moves()[0])
    outcome = game.outcome
    assert outcome is not None
    banked = int(game.stores[game.to_move]) - int(game.stores[1 - game.to_move])
    final = outcome.scores[game.to_move] - outcome.scores[1 - game.to_move]
    assert db.value(game) == final - banked
    assert db.move_values(game) == {}


def test_perfect_falls_back_above_the_databases_when_the_budget_runs_out(db: Database) -> None:
    p = Player.perfect(db, nodes=1_000, seed=1)
    game = Game("oware")
    a = p.analyze(game)
    assert p.source == "fallback"
    assert a.basis != "proven"
    assert p.fallback is not None
    assert "max" in p.fallback


def test_solve_value_gives_the_games_value(tmp_path: Path) -> None:
    folder = tmp_path / "oware"
    Database.build("oware", 3, folder)
    record = "oware 0,1,0,0,0,1/0,0,0,0,0,0 24-22 s 0 0"
    proc = run(["solve", "value", record, "--dir", str(folder)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Value: +0 for South (exact)" in proc.stdout
    assert "  6: +0  <- best" in proc.stdout
