"""ayo.widget.Board's Python side: its methods, traitlets, view and sowing.

The browser side is played in tests/browser (ci/browser.sh). Here each
state change is checked against a plain :class:`ayo.Game` given the same
moves, so what the board shows is the engine's.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import ayo
from ayo.ai import Player
from ayo.display import frames
from ayo.widget import TWO_PLAYERS, Board, house_rules, toggles_of


def _replayed(board: Board) -> ayo.Game:
    """A fresh game of the board's rules with the board's moves (absolute pits) played."""
    game = ayo.Game(board.rules)
    for pit in board.game.moves:
        game.play_pit(pit)
    return game


def _shown(board: Board) -> tuple[list[int], list[int]]:
    return list(board.view["board"]), list(board.view["stores"])


def _state(game: ayo.Game) -> tuple[list[int], list[int]]:
    return [int(s) for s in game.board], [int(s) for s in game.stores]


def _first_legal(board: Board) -> int:
    """The mover's first legal pit (1..6), as the view tells it."""
    return next(int(m["number"]) for m in board.view["moves"] if m["legal"])


def _frames_of(
    game: ayo.Game, action: int, names: tuple[str, str] = ("South", "North")
) -> list[dict[str, Any]]:
    out = []
    for f in frames(game, action, names=names)[1:]:  # the first is the position before
        d = dataclasses.asdict(f)
        out.append({k: list(v) if isinstance(v, tuple) else v for k, v in d.items()})
    return out


def test_a_new_board_shows_the_start_and_every_pits_preview() -> None:
    board = Board(seed=1)
    view = board.view
    game = ayo.Game("ayo")
    assert board.rules == ayo.Rules("ayo")
    assert view["rules"] == "ayo"
    assert (view["ply"], view["to_move"], view["bottom"]) == (0, 0, 0)
    assert _shown(board) == _state(game)
    assert view["names"] == ["You", "Computer"]
    assert view["numbers"] == [1, 2, 3, 4, 5, 6] * 2
    assert view["person_to_move"] is True
    assert view["result"] == ""
    assert view["can_undo"] is False
    assert [m["pit"] for m in view["moves"]] == list(range(6))
    for move in view["moves"]:
        action = move["number"] - 1
        assert move["legal"]
        assert move["playable"]
        assert move["landing"] == game.last_landing(action)
        laps = int(game.trace_summary(action)["laps"])
        assert move["preview"].startswith(f"Pit {move['number']}: {laps} lap")
    assert board.sowing == {}


def test_a_click_sows_with_the_engines_frames_and_the_computer_replies() -> None:
    board = Board(seed=7, opponent="2")
    start = ayo.Game("ayo")
    board.play(3)
    view = board.view
    moves = board.game.moves
    assert len(moves) == 2
    assert moves[0] == 2
    assert moves[1] // 6 == 1  # the computer's reply, from North's row
    game = _replayed(board)
    assert _shown(board) == _state(game)
    assert (view["ply"], view["to_move"]) == (2, 0)
    assert view["can_undo"] is True
    assert view["last"] == moves[1]
    assert board.message.startswith("You played pit 3: ")
    assert f"Computer played pit {moves[1] - 5}: " in board.message
    # The last sowing sent is the computer's: the engine's frames of its move.
    after_mine = start.copy()
    after_mine.play(2)
    assert board.sowing["id"] == 2
    assert board.sowing["mover"] == 1
    assert board.sowing["title"] == f"Computer sows pit {moves[1] - 5}"
    assert board.sowing["frames"] == _frames_of(after_mine, moves[1] - 6, board.names)


def test_the_computer_plays_as_its_level_and_seed_would() -> None:
    board = Board(seed=3, opponent="4")
    board.play(2)
    mine = ayo.Game("ayo")
    mine.play(1)
    assert board.game.moves[1] == 6 + Player("4", seed=3).choose(mine)


def test_an_illegal_pit_is_refused_with_the_engines_reason() -> None:
    board = Board("oware", opponent=TWO_PLAYERS)
    board.play(1)
    board.play(1)  # North
    before = board.game
    view = dict(board.view)
    with pytest.raises(ayo.IllegalMoveError) as e:
        board.play(1)  # South's pit 1 is empty now
    assert e.value.reason == "empty_pit"
    assert board.game == before
    assert board.message == "Pit 1 cannot be played: it is empty."
    assert board.view["board"] == view["board"]
    assert board.view["moves"][0]["legal"] is False
    assert board.view["moves"][0]["preview"] == "Pit 1 cannot be played: it is empty."


@pytest.mark.parametrize("pit", [0, 7, -1, True, 2.0, "3"])
def test_a_pit_outside_1_to_6_is_an_ayo_error(pit: Any) -> None:
    board = Board(seed=1)
    with pytest.raises(ayo.AyoError, match="pit must be 1 to 6"):
        board.play(pit)
    assert board.game.moves == []
    assert "pit must be 1 to 6" in board.view["message"]


def test_undo_against_the_computer_takes_back_your_move_and_its_reply() -> None:
    board = Board(seed=1)
    with pytest.raises(ayo.AyoError, match="Nothing to undo"):
        board.undo()
    board.play(4)
    board.play(_first_legal(board))
    assert board.view["ply"] == 4
    board.undo()
    assert board.view["ply"] == 2
    assert board.message == "Took back your move and the computer's reply."
    assert _shown(board) == _state(_replayed(board))
    board.undo()
    assert board.view["ply"] == 0
    assert _shown(board) == _state(ayo.Game("ayo"))
    assert board.view["can_undo"] is False


def test_playing_north_the_computer_opens_and_your_row_is_drawn_at_the_bottom() -> None:
    board = Board(seed=5, human=1)
    view = board.view
    assert view["names"] == ["Computer", "You"]
    assert view["bottom"] == 1
    assert (view["ply"], view["to_move"]) == (1, 1)
    assert [m["pit"] for m in view["moves"]] == list(range(6, 12))
    assert board.message.startswith("New game: ayo. Computer played pit ")
    with pytest.raises(ayo.AyoError, match="you have not moved yet"):
        board.undo()
    board.play(_first_legal(board))
    assert board.view["ply"] == 3
    board.undo()
    assert board.view["ply"] == 1


def test_two_players_take_turns_and_undo_one_move_at_a_time() -> None:
    board = Board("olopon", opponent=TWO_PLAYERS)
    view = board.view
    assert view["names"] == ["South", "North"]
    assert view["two_players"] is True
    board.play(3)
    assert (board.view["to_move"], board.view["person_to_move"]) == (1, True)
    assert board.view["status"] == "North to move: click one of North's pits."
    board.play(2)
    assert board.game.moves == [2, 7]
    board.undo()
    assert board.game.moves == [2]
    assert board.message == "Took back the last move."
    board.undo()
    with pytest.raises(ayo.AyoError, match="no move has been played"):
        board.undo()


def test_a_game_played_to_the_end_shows_the_result() -> None:
    board = Board("ayoayo", opponent=TWO_PLAYERS)
    game = ayo.Game("ayoayo")
    while not game.is_over:
        action = game.legal_moves()[-1]
        board.play(action + 1)
        game.play(action)
    outcome = game.outcome
    assert outcome is not None
    view = board.view
    assert view["to_move"] is None
    assert view["moves"] == []
    assert view["person_to_move"] is False
    assert view["status"] == "Game over."
    south, north = outcome.scores
    assert f"South {south}, North {north}" in view["result"]
    with pytest.raises(ayo.IllegalMoveError) as e:
        board.play(1)
    assert e.value.reason == "game_over"


def test_a_preset_sets_the_toggles_and_starts_a_new_game() -> None:
    board = Board(seed=1)
    board.play(1)
    board.preset = "oware"
    assert (board.relay, board.collect_four, board.sweep, board.feed) == (False, False, False, True)
    assert board.rules == ayo.Rules("oware")
    assert board.view["rules"] == "oware"
    assert board.view["ply"] == 0
    assert board.message == "New game: oware."


@pytest.mark.parametrize(
    ("toggle", "rules"),
    [
        ("relay", ayo.Rules("ayo", relay=False)),
        ("collect_four", ayo.Rules("ayo", capture="across")),
        ("sweep", ayo.Rules("ayo", stuck_seeds="own_side")),
        ("feed", ayo.Rules("ayo", feeding="off")),
    ],
)
def test_each_toggle_off_changes_its_rule_and_starts_a_new_game(
    toggle: str, rules: ayo.Rules
) -> None:
    board = Board(seed=1)
    board.play(2)
    setattr(board, toggle, False)
    assert board.rules == rules
    assert board.view["rules"] == str(rules)
    assert board.view["ply"] == 0
    setattr(board, toggle, True)
    assert board.rules == ayo.Rules("ayo")


def test_the_toggles_map_onto_the_rules_as_docs_rules_md_says() -> None:
    # The web app's house rules (docs/rules.md, section 8): ayo with overrides.
    def web_app(**toggles: bool) -> ayo.Rules:
        on = {"relay": True, "collect_four": True, "sweep": True, "feed": True}
        return house_rules("ayo", **{**on, **toggles})

    assert web_app() == ayo.Rules("ayo")
    assert web_app(relay=False) == ayo.Rules("ayo", relay=False)
    assert web_app(collect_four=False) == ayo.Rules("ayo", capture="across")
    assert web_app(relay=False, collect_four=False) == ayo.Rules(
        "ayo", relay=False, capture="two_three"
    )
    assert web_app(sweep=False) == ayo.Rules("ayo", stuck_seeds="own_side")
    assert web_app(feed=False) == ayo.Rules("ayo", feeding="off")
    # On the other presets a toggle that agrees with the preset changes nothing.
    for preset in ayo.Rules.presets():
        assert house_rules(preset, **toggles_of(ayo.Rules(preset))) == ayo.Rules(preset)
    # Collect on 4 and the sweep switched on in oware; its strict feeding is kept.
    assert house_rules("oware", relay=False, collect_four=True, sweep=True, feed=True) == (
        ayo.Rules("oware", capture="collect_four", stuck_seeds="to_opponent")
    )
    assert house_rules("ayoayo", relay=True, collect_four=False, sweep=True, feed=False) == (
        ayo.Rules("ayoayo", feeding="off")
    )
    assert house_rules("ayo", relay=True, collect_four=True, sweep=True, feed=False).replace(
        feeding="if_possible"
    ) == ayo.Rules("ayo")
    with pytest.raises(ayo.RulesError):
        house_rules("nope", relay=True, collect_four=True, sweep=True, feed=True)


def test_toggles_given_to_the_constructor() -> None:
    board = Board("ayo", opponent="max", collect_four=False, sweep=False, seed=2)
    assert board.rules == ayo.Rules("ayo", capture="across", stuck_seeds="own_side")
    assert board.view["rules"] == "ayo[capture=across,stuck_seeds=own_side]"


def test_the_opponent_and_seat_are_settings_too() -> None:
    board = Board(seed=1)
    board.play(1)
    board.opponent = TWO_PLAYERS
    assert board.view["ply"] == 0
    assert board.view["two_players"] is True
    board.opponent = "max"
    board.human = 1
    assert board.view["ply"] == 1  # the computer, South, has opened
    assert board.view["names"] == ["Computer", "You"]


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("preset", "nope", ayo.RulesError),
        ("opponent", "9", ayo.AyoError),
        ("opponent", "perfect", ayo.AyoError),
        ("human", 2, ayo.AyoError),
        ("human", True, ayo.AyoError),
        ("delay", -1.0, ayo.AyoError),
    ],
)
def test_a_bad_setting_is_refused_and_changes_nothing(
    name: str, value: object, error: type[Exception]
) -> None:
    board = Board(seed=1)
    board.play(2)
    before = (board.game, dict(board.view), getattr(board, name))
    with pytest.raises(error):
        setattr(board, name, value)
    assert (board.game, dict(board.view), getattr(board, name)) == before
    with pytest.raises(error):
        Board(**{name: value})  # type: ignore[arg-type]


def test_the_browsers_requests_play_undo_and_start_again() -> None:
    board = Board("oware", opponent=TWO_PLAYERS)
    board._handle_custom_msg({"kind": "play", "pit": 3}, [])
    assert board.game.moves == [2]
    board._handle_custom_msg({"kind": "undo"}, [])
    assert board.game.moves == []
    # A refused request is told in the message, not raised into the kernel.
    board._handle_custom_msg({"kind": "undo"}, [])
    assert board.message == "Nothing to undo: no move has been played."
    for pit in (9, "x", None):
        board._handle_custom_msg({"kind": "play", "pit": pit}, [])
        assert "pit must be 1 to 6" in board.message
    assert board.game.moves == []
    board._handle_custom_msg({"kind": "play", "pit": 1}, [])
    board._handle_custom_msg({"kind": "new_game"}, [])
    assert board.game.moves == []
    assert board.message == "New game: oware."


def test_each_move_sends_a_new_sowing() -> None:
    board = Board("oware", opponent=TWO_PLAYERS)
    ids = []
    for pit in (1, 1, 2):
        board.play(pit)
        ids.append(board.sowing["id"])
        last = board.sowing["frames"][-1]
        assert (last["board"], last["stores"]) == _shown(board)
    assert ids == [1, 2, 3]


def test_the_browser_side_is_packaged() -> None:
    import ayo.widget

    folder = Path(ayo.widget.__file__).parent
    script = (folder / "widget_board.js").read_text(encoding="utf-8")
    assert "export default" in script
    assert (folder / "widget_board.css").read_text(encoding="utf-8").strip()
    assert str(Board(seed=1)._esm) == script
