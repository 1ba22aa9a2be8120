"""Game state through Python: copies and pickles, records, arrays, hashes, rules values."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ayo

PRESETS = ayo.Rules.presets()


def mid_game(rules: str = "ayoayo", plies: int = 9, seed: int = 1) -> ayo.Game:
    rng = random.Random(seed)
    game = ayo.Game(rules)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def pickler(protocol: int) -> Callable[[Any], Any]:
    """A pickle round trip with `protocol`."""
    return lambda obj: pickle.loads(pickle.dumps(obj, protocol=protocol))


COPIERS: dict[str, Callable[[Any], Any]] = {
    **{f"pickle-protocol-{p}": pickler(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "method": lambda g: g.copy(),
}


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("rules", PRESETS)
def test_copies_keep_the_whole_mid_game_state(how: str, rules: str) -> None:
    game = mid_game(rules)
    game.ply_cap = 40
    other = COPIERS[how](game)
    assert isinstance(other, ayo.Game)
    assert other is not game
    assert other == game
    assert other.record() == game.record()
    assert other.moves == game.moves
    assert other.ply_cap == 40
    assert other.rules == game.rules
    assert other.hash == game.hash
    # The history came along: undo walks back through the same positions.
    for _ in range(len(game.moves)):
        assert other.undo() == game.undo()
        assert other.position_record() == game.position_record()
    assert other.undo() is None
    assert other.ply == 0


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_copies_are_independent(how: str) -> None:
    game = mid_game()
    other = COPIERS[how](game)
    other.play(other.legal_moves()[0])
    assert len(other.moves) == len(game.moves) + 1
    other.ply_cap = 3
    assert game.ply_cap is None
    assert other != game


def test_pickle_keeps_truncation_and_the_end() -> None:
    game = mid_game("oware", plies=6)
    game.ply_cap = 6
    again = pickle.loads(pickle.dumps(game))
    assert again.status == "truncated"
    again.ply_cap = None
    again.play(again.legal_moves()[0])

    done = ayo.Game("ayo")
    while not done.is_over:
        done.play(done.legal_moves()[0])
    again = pickle.loads(pickle.dumps(done))
    assert again.outcome == done.outcome
    assert again.status == "ended"


def test_pickle_keeps_repetition_history() -> None:
    # Oware ends on a repeated position; only the history can tell.
    game = ayo.Game("oware")
    rng = random.Random(5)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    outcome = game.outcome
    assert outcome is not None
    for how in COPIERS.values():
        other = how(game)
        assert other.outcome == outcome
        # Undo then replay the last move: the same end again.
        last = other.undo()
        assert last is not None
        assert other.outcome is None
        other.play(last)
        assert other.outcome == outcome


def test_game_from_a_later_start_round_trips() -> None:
    start = "olopon 0,5,5,5,5,5/5,5,4,4,0,0 4-1 n 3 10"
    game = ayo.Game(position=start)
    assert game.ply == 10
    assert game.no_capture == 3
    assert game.to_move == 1
    game.play(game.legal_moves()[0])
    text = game.record()
    assert text.startswith(start + " | ")
    assert ayo.Game.from_record(text) == game
    assert pickle.loads(pickle.dumps(game)).record() == text
    same = ayo.Game(ayo.Rules("olopon"), position=start)
    assert same.position_record() == start


@pytest.mark.parametrize("rules", PRESETS)
def test_records_round_trip(rules: str) -> None:
    game = mid_game(rules, plies=15, seed=3)
    again = ayo.Game.from_record(game.record())
    assert again == game
    assert ayo.Game(position=game.position_record()).position_record() == game.position_record()
    assert repr(game) == f"Game.from_record({game.record()!r})".replace("'", '"')


def test_arrays_are_copies_with_the_documented_types() -> None:
    game = ayo.Game("oware")
    board = game.board
    assert board.dtype == np.uint8
    assert board.shape == (12,)
    stores = game.stores
    assert stores.dtype == np.uint8
    assert stores.shape == (2,)
    board[:] = 0
    assert game.board.tolist() == [4] * 12
    mask = game.action_mask()
    assert mask.dtype == np.bool_
    assert mask.shape == (6,)
    assert mask.all()


def test_observation_perspectives() -> None:
    game = ayo.Game.from_setup("oware", [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 3], (10, 14), to_move=1)
    absolute = game.observation("absolute")
    assert absolute.dtype == np.float32
    assert absolute.tolist() == [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 3, 10, 14]
    mover = game.observation()
    assert mover.tolist() == [0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 14, 10]
    # The mover's action a is the mover's pit a: here North's pit 11 is action 5.
    assert game.legal_moves() == [5]
    south = ayo.Game.from_setup("oware", [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 3], (10, 14))
    assert south.observation().tolist() == south.observation("absolute").tolist()


def test_hash_follows_the_position() -> None:
    a = ayo.Game("ayo")
    b = ayo.Game("ayo")
    assert a.hash == b.hash
    a.play(0)
    assert a.hash != b.hash
    a.undo()
    assert a.hash == b.hash
    # Same position reached from a position record: same hash.
    c = mid_game("ayo", plies=7)
    assert ayo.Game(position=c.position_record()).hash == c.hash
    with pytest.raises(TypeError):
        hash(a)  # a Game is mutable, so unhashable


def test_moves_are_absolute_and_undo_returns_actions() -> None:
    game = ayo.Game("oware")
    game.play(2)
    game.play(4)
    game.play_pit(0)
    game.play_pit(11)
    assert game.moves == [2, 10, 0, 11]
    assert [game.undo(), game.undo(), game.undo(), game.undo(), game.undo()] == [5, 0, 4, 2, None]


def test_trace_events() -> None:
    game = ayo.Game("oware")
    events = game.trace(5)
    assert events[0] == {"event": "lift", "pit": 5, "seeds": 4}
    assert [e["pit"] for e in events if e["event"] == "drop"] == [6, 7, 8, 9]
    assert events[-1] == {"event": "end", "pit": 9, "reason": "occupied"}
    assert game.trace_summary(5) == {"laps": 1, "last_pit": 9, "taken": (0, 0), "end": "occupied"}
    assert game.last_landing(5) == 9
    assert game.moves == []


def test_rules_values_repr_eq_hash_json() -> None:
    rules = ayo.Rules("oware", target=None, seeds_per_pit=5)
    assert repr(rules) == "Rules('oware', target=None, seeds_per_pit=5)"
    assert str(rules) == "oware[target=none,seeds_per_pit=5]"
    assert rules.target is None
    assert rules.seeds_per_pit == 5
    assert rules.total_seeds == 60
    assert rules.num_actions == 6
    assert rules.preset is None
    assert ayo.Rules("oware").preset == "oware"
    assert rules == ayo.Rules("oware[target=none,seeds_per_pit=5]")
    assert rules != ayo.Rules("oware")
    assert rules != "oware"
    assert hash(rules) == hash(ayo.Rules("oware", seeds_per_pit=5, target=None))
    assert len({ayo.Rules(p) for p in PRESETS} | {ayo.Rules("ayoayo")}) == 4
    doc = json.loads(rules.to_json())
    assert set(doc) == set(ayo.PARAM_NAMES)
    assert ayo.Rules.from_json(rules.to_json()) == rules
    assert eval(repr(rules), {"Rules": ayo.Rules}) == rules
    assert rules.replace(target=25) == ayo.Rules("oware", seeds_per_pit=5)


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_params_round_trip(preset: str) -> None:
    rules = ayo.Rules(preset)
    params = rules.params()
    assert list(params) == ayo.PARAM_NAMES == ayo.Rules.param_names()
    assert ayo.Rules("ayoayo", **params) == rules
    for name, value in params.items():
        assert getattr(rules, name) == value
    assert repr(rules) == f"Rules({preset!r})"
    assert str(rules) == preset
    for how in (copy.copy, copy.deepcopy):
        assert how(rules) == rules
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(rules, protocol=protocol)) == rules
        odd = rules.replace(target=None, seeds_per_pit=6)
        assert pickle.loads(pickle.dumps(odd, protocol=protocol)) == odd


def test_rules_keywords_take_python_values() -> None:
    rules = ayo.Rules(
        "ayo",
        relay=False,
        capture="two_three",
        capturing_seed_taken=False,
        fours_to="pit_owner",
        skip_origin=False,
        grand_slam="no_capture",
        feeding="off",
        stuck_seeds="own_side",
        target=None,
        move_limit=None,
        repetition="own_side",
        seeds_per_pit=3,
        first_player=1,
    )
    assert rules.params() == {
        "relay": False,
        "capture": "two_three",
        "capturing_seed_taken": False,
        "fours_to": "pit_owner",
        "skip_origin": False,
        "grand_slam": "no_capture",
        "feeding": "off",
        "stuck_seeds": "own_side",
        "target": None,
        "move_limit": None,
        "repetition": "own_side",
        "seeds_per_pit": 3,
        "first_player": 1,
    }
    assert ayo.Rules(first_player="north").first_player == 1
    assert ayo.Game(rules).to_move == 1
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules
    assert again.params() == rules.params()


def test_rules_replace() -> None:
    rules = ayo.Rules("oware")
    changed = rules.replace(target=None, move_limit=50)
    assert changed.target is None
    assert changed.move_limit == 50
    assert rules.target == 25
    assert changed.replace(target=25, move_limit=None) == rules
    with pytest.raises(ayo.RulesError):
        rules.replace(move_limit=0)


def test_outcome_value() -> None:
    outcome = ayo.Outcome(0, "target", (25, 3))
    assert outcome.winner == 0
    assert outcome.reason == "target"
    assert outcome.scores == (25, 3)
    assert outcome.result_for(0) == 1
    assert outcome.result_for(1) == -1
    assert repr(outcome) == "Outcome(winner=0, reason='target', scores=(25, 3))"
    assert outcome == ayo.Outcome(0, "target", (25, 3))
    assert outcome != ayo.Outcome(None, "move_limit", (24, 24))
    assert ayo.Outcome(None, "move_limit", (24, 24)).result_for(1) == 0
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(outcome, protocol=protocol)) == outcome
    assert hash(outcome) == hash(copy.deepcopy(outcome))


def test_random_playouts_are_reproducible_and_leave_the_game_alone() -> None:
    game = mid_game("ayo", plies=4)
    before = game.record()
    first = game.random_playout(seed=11)
    assert first is not None
    assert first == game.random_playout(seed=11)
    assert first.reason in {"target", "move_limit", "no_legal_move"}
    assert game.record() == before
    assert game.random_playout(seed=1, max_plies=0) is None
    counts = game.random_playouts(50, seed=3)
    assert sum(counts) == 50
    assert counts == game.random_playouts(50, seed=3)
    assert counts[3] == 0
    assert game.random_playouts(5, seed=3, max_plies=0) == (0, 0, 0, 5)
    singles = [game.random_playout(seed=3 + i) for i in range(50)]
    tally = (
        sum(1 for o in singles if o is not None and o.winner == 0),
        sum(1 for o in singles if o is not None and o.winner == 1),
        sum(1 for o in singles if o is not None and o.winner is None),
        sum(1 for o in singles if o is None),
    )
    assert tally == counts


def test_random_playout_of_an_ended_game_is_its_outcome() -> None:
    game = ayo.Game("oware")
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.random_playout(seed=0) == game.outcome


def test_perft_matches_legal_moves() -> None:
    # perft(1) is the number of legal moves, perft(2) their children's sum.
    for preset in PRESETS:
        game = mid_game(preset, plies=5, seed=8)
        position = game.position_record()
        assert ayo.perft(preset, 1, position) == len(game.legal_moves())
        total = 0
        for action in game.legal_moves():
            game.play(action)
            total += len(game.legal_moves())
            game.undo()
        assert ayo.perft(ayo.Rules(preset), 2, position) == total
    assert ayo.perft("oware", 0) == 1
    assert ayo.perft("oware", 3) == 190


def test_game_shows_itself_as_svg_in_notebooks() -> None:
    import ayo.display

    game = mid_game("oware", plies=3)
    svg = game._repr_svg_()
    assert svg.lstrip().startswith("<svg")
    assert svg == ayo.display.svg(game)
