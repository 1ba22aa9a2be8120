"""Every kind of bad input raises an ``ayo.AyoError`` subclass and changes nothing."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import ayo

# the rules' (docs/rules.md) worked example: North's pit 2 (absolute 7) relays forever.
ENDLESS = "ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 10"
# North's row is empty: under strict feeding only South's pit 6 (action 5) feeds it.
HUNGRY = "ayoayo 1,0,0,0,0,1/0,0,0,0,0,0 23-23 s 0 0"


def finished_game() -> ayo.Game:
    game = ayo.Game("oware")
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    assert game.outcome is not None
    return game


def game_with_empty_pit() -> ayo.Game:
    game = ayo.Game("oware")
    game.play(2)  # South's pit 3 is now empty (single laps: nothing comes back)
    game.play(0)
    assert game.board[2] == 0
    return game


@pytest.mark.parametrize(
    ("make", "call", "reason"),
    [
        (game_with_empty_pit, lambda g: g.play(2), "empty_pit"),
        (lambda: ayo.Game(position=ENDLESS), lambda g: g.play(1), "endless_relay"),
        (lambda: ayo.Game(position=HUNGRY), lambda g: g.play(0), "does_not_feed"),
        (finished_game, lambda g: g.play(0), "game_over"),
        (ayo.Game, lambda g: g.play_pit(7), "not_movers_pit"),
        (ayo.Game, lambda g: g.play(6), "action_out_of_range"),
        (ayo.Game, lambda g: g.play(-1), "action_out_of_range"),
        (ayo.Game, lambda g: g.play(10**40), "action_out_of_range"),
        (ayo.Game, lambda g: g.play(np.int64(9)), "action_out_of_range"),
        (ayo.Game, lambda g: g.play_pit(12), "pit_out_of_range"),
        (ayo.Game, lambda g: g.play_pit(-3), "pit_out_of_range"),
        (ayo.Game, lambda g: g.play_pit(2**70), "pit_out_of_range"),
        (ayo.Game, lambda g: g.trace(7), "action_out_of_range"),
        (game_with_empty_pit, lambda g: g.trace_summary(2), "empty_pit"),
        (game_with_empty_pit, lambda g: g.last_landing(2), "empty_pit"),
    ],
)
def test_illegal_move_kinds(make: object, call: object, reason: str) -> None:
    assert callable(make)
    assert callable(call)
    game = make()
    assert isinstance(game, ayo.Game)
    before = (game.record(), game.ply_cap, game.status, game.board.tolist())
    with pytest.raises(ayo.IllegalMoveError) as info:
        call(game)
    err = info.value
    assert err.reason == reason
    assert isinstance(err, ayo.AyoError)
    assert isinstance(err, ValueError)
    assert str(err)
    assert (game.record(), game.ply_cap, game.status, game.board.tolist()) == before
    # The exception survives pickling with its reason (multiprocessing workers).
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is ayo.IllegalMoveError
    assert again.reason == reason


def test_truncated_by_ply_cap() -> None:
    game = ayo.Game("ayo")
    game.play(0)
    game.ply_cap = 1
    status: str = game.status
    assert status == "truncated"
    assert game.is_over
    assert game.outcome is None
    assert game.legal_moves() == []
    assert not game.action_mask().any()
    with pytest.raises(ayo.IllegalMoveError) as info:
        game.play(1)
    assert info.value.reason == "truncated"
    assert game.moves == [0]
    game.ply_cap = None
    status = game.status
    assert status == "ongoing"
    game.play(1)
    assert game.moves == [0, 7]


@pytest.mark.parametrize("cap", [-1, 2**40, 2**80])
def test_bad_ply_cap(cap: int) -> None:
    game = ayo.Game()
    game.ply_cap = 5
    with pytest.raises(ayo.AyoError, match="ply_cap"):
        game.ply_cap = cap
    assert game.ply_cap == 5


def test_wrong_types_raise_type_error() -> None:
    game = ayo.Game()
    with pytest.raises(TypeError):
        game.play("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.play(1.0)  # type: ignore[arg-type]
    assert game.moves == []


def test_is_legal_never_raises_for_numbers() -> None:
    game = ayo.Game()
    assert [game.is_legal(a) for a in range(-2, 8)] == [False] * 2 + [True] * 6 + [False] * 2
    assert not game.is_legal(10**30)


@pytest.mark.parametrize(
    ("args", "params", "words"),
    [
        (("awale",), {}, ["awale", "ayoayo, ayo, olopon, oware"]),
        ((), {"target": 0}, ["target"]),
        ((), {"target": 49}, ["target", "48"]),
        ((), {"seeds_per_pit": 22}, ["seeds_per_pit"]),
        ((), {"seeds_per_pit": 0}, ["seeds_per_pit"]),
        ((), {"move_limit": 0}, ["move_limit"]),
        ((), {"bogus": 1}, ["bogus", "relay"]),
        ((), {"relay": 1}, ["relay", "True or False"]),
        ((), {"capture": "sideways"}, ["capture", "two_three"]),
        ((), {"target": True}, ["target"]),
        ((), {"target": -5}, ["target"]),
        ((), {"first_player": 2}, ["first_player"]),
        ((), {"feeding": 1.5}, ["feeding"]),
        (("oware[target=nope]",), {}, ["target"]),
    ],
)
def test_rules_errors_name_the_parameter(
    args: tuple[str, ...], params: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(ayo.RulesError) as info:
        ayo.Rules(*args, **params)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value)


def test_rules_from_bad_json() -> None:
    with pytest.raises(ayo.RulesError):
        ayo.Rules.from_json("{}")
    with pytest.raises(ayo.RulesError):
        ayo.Rules.from_json('{"relay": true}')
    bad = ayo.Rules().to_json().replace('"target":25', '"target":0')
    assert bad != ayo.Rules().to_json()
    with pytest.raises(ayo.RulesError, match="target"):
        ayo.Rules.from_json(bad)


@pytest.mark.parametrize(
    ("text", "field", "offset"),
    [
        ("ayoayo 4,4,4,4,4,4/4,4,4,4,4 0-0 s 0 0 |", "board", 19),
        ("awale 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |", "rules", 0),
        ("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 x 0 0 |", "to_move", 35),
        ("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", "separator", 40),
        ("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 9", "move", 45),
        ("ayoayo 5,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |", "position", 7),
    ],
)
def test_record_errors(text: str, field: str, offset: int) -> None:
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game.from_record(text)
    assert info.value.field == field
    assert info.value.offset == offset
    assert isinstance(info.value, ValueError)


def test_record_offsets_count_characters() -> None:
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game.from_record("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 é 0 0 |")
    assert (info.value.field, info.value.offset) == ("to_move", 35)
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game.from_record("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 é")
    assert (info.value.field, info.value.offset) == ("move", 45)


def test_position_record_errors() -> None:
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game(position="oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0")
    assert info.value.field == "ply"
    # Without its rules field, the record is read under the given rules;
    # offsets count from the start of the text given.
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game("oware", position="4,4,4,4,4,x/4,4,4,4,4,4 0-0 s 0 0")
    assert (info.value.field, info.value.offset) == ("board", 10)
    with pytest.raises(ayo.RulesError, match="oware"):
        ayo.Game("ayo", position="oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0")
    with pytest.raises(ayo.RulesError):
        ayo.perft("ayo", 2, "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0")


def test_setup_errors_list_every_problem() -> None:
    with pytest.raises(ayo.SetupError) as info:
        ayo.Game.from_setup("ayo", [4] * 12, (1, 0), to_move=0, no_capture=70, ply=3)
    problems = info.value.problems
    assert len(problems) == 3
    assert any("49" in p for p in problems)
    assert any("limit" in p for p in problems)
    assert any("only 3" in p for p in problems)
    with pytest.raises(ayo.AyoError, match="12"):
        ayo.Game.from_setup("ayo", [4] * 11, (4, 0))
    with pytest.raises(ayo.AyoError, match="to_move"):
        ayo.Game.from_setup("ayo", [4] * 12, (0, 0), to_move=2)
    with pytest.raises(ayo.AyoError, match=r"board\[0\] = 300"):
        ayo.Game.from_setup("ayo", [300] + [4] * 11, (0, 0))
    with pytest.raises(ayo.AyoError, match=r"stores\[1\] = -1"):
        ayo.Game.from_setup("ayo", [4] * 12, (0, -1))
    with pytest.raises(ayo.AyoError, match="stores has 3"):
        ayo.Game.from_setup("ayo", [4] * 12, (0, 0, 0))
    with pytest.raises(ayo.AyoError, match="ply"):
        ayo.Game.from_setup("ayo", [4] * 12, (0, 0), ply=-1)
    with pytest.raises(ayo.AyoError, match="no_capture"):
        ayo.Game.from_setup("ayo", [4] * 12, (0, 0), no_capture=2**80)
    with pytest.raises(TypeError):
        ayo.Game.from_setup("ayo", 4, (0, 0))  # type: ignore[arg-type]


def test_setup_from_numpy_arrays() -> None:
    board = np.array([4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4], dtype=np.int64)
    game = ayo.Game.from_setup("oware", board, np.array([0, 0]), to_move=np.int8(1), ply=1)
    assert game.board.tolist() == board.tolist()
    assert game.to_move == 1
    assert game.ply == 1
    assert game.position_record() == "oware 4,4,4,4,4,0/5,5,5,5,4,4 0-0 n 0 1"


def test_bad_observation_perspective() -> None:
    with pytest.raises(ayo.AyoError, match="perspective"):
        ayo.Game().observation("south")  # type: ignore[arg-type]


def test_bad_outcome_fields() -> None:
    with pytest.raises(ayo.AyoError, match="end reason"):
        ayo.Outcome(0, "resigned", (30, 18))
    with pytest.raises(ayo.AyoError, match="winner"):
        ayo.Outcome(1, "target", (30, 18))
    with pytest.raises(ayo.AyoError, match="player"):
        ayo.Outcome(0, "target", (30, 18)).result_for(2)
