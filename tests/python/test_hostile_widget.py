"""The notebook board holds under whatever its front end sends (issue #37).

Trait updates and custom messages are fed through the widget's own message
handler, as the kernel's comm delivers them: an invalid setting is refused
and the last valid one kept, with a message the page shows; a message of
the wrong shape is logged and ignored.
"""

from __future__ import annotations

import logging
import math
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ayo
from ayo.ai import Player
from ayo.widget import TWO_PLAYERS, Board

SETTINGS = ("preset", "relay", "collect_four", "sweep", "feed", "opponent", "human", "delay")
SENT = ("view", "sowing")

FAST = settings(
    max_examples=150,
    deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

JSON_LEAF = st.one_of(
    st.integers(-3, 10),
    st.floats(-5, 15),
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["ayo", "oware", "nope", "3", "max", "zz", TWO_PLAYERS, "1", "0"]),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def update(board: Board, state: dict[str, Any]) -> None:
    """A trait update from the browser, as the comm hands it to the widget."""
    board._handle_msg(
        {
            "content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
            "buffers": [],
        }
    )


def custom(board: Board, content: object) -> None:
    """A custom message from the browser (``model.send(content)``)."""
    board._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


def settings_of(board: Board) -> dict[str, Any]:
    return {name: getattr(board, name) for name in SETTINGS}


def assert_valid(board: Board) -> None:
    assert board.preset in ayo.Rules.presets()
    assert board.opponent in [*Player.levels(), TWO_PLAYERS]
    assert board.human in (0, 1)
    assert not isinstance(board.human, bool)
    assert isinstance(board.delay, float)
    assert 0 <= board.delay <= 10
    for name in ("relay", "collect_four", "sweep", "feed"):
        assert isinstance(getattr(board, name), bool)
    assert board.view["rules"] == str(board.rules)


@pytest.fixture
def board() -> Board:
    b = Board(seed=7, opponent="1")
    b.play(next(int(m["number"]) for m in b.view["moves"] if m["legal"]))
    return b


@FAST
@given(name=st.sampled_from(SETTINGS + SENT), value=JSON)
def test_any_trait_update_keeps_a_valid_board(board: Board, name: str, value: Any) -> None:
    before = settings_of(board)
    moves = board.game.moves
    view = dict(board.view)
    update(board, {name: value})
    assert_valid(board)
    if name in SENT:
        assert board.view == view
        assert board.game.moves == moves
        return
    after = getattr(board, name)
    if after == before[name] and board.game.moves == moves:
        return  # refused (or the same value): the game goes on untouched
    # Taken: it is the value sent, read as that trait reads it.
    if isinstance(value, float) and math.isnan(value):
        pytest.fail(f"{name} took NaN")
    assert after == (value.strip().lower() if name == "opponent" else value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("human", 7),
        ("human", True),
        ("preset", "nope"),
        ("opponent", "zz"),
        ("delay", -1.0),
        ("delay", float("nan")),
        ("human", "1"),
        ("relay", "yes"),
        ("preset", None),
    ],
)
def test_the_issues_values_are_refused_and_the_game_kept(
    board: Board, name: str, value: Any, caplog: pytest.LogCaptureFixture
) -> None:
    before = settings_of(board)
    moves = board.game.moves
    with caplog.at_level(logging.WARNING, logger="ayo.widget"):
        update(board, {name: value})
    assert settings_of(board) == before
    assert board.game.moves == moves
    assert moves
    assert board.names == ("You", "Computer")  # the person still plays one side
    assert board.message.startswith("Setting refused")
    assert board.view["message"] == board.message
    assert f"refused {name}=" in caplog.text


def test_a_valid_update_is_taken(board: Board) -> None:
    update(board, {"human": 1})
    assert board.human == 1
    update(board, {"preset": "oware"})
    assert board.rules == ayo.Rules("oware")


@FAST
@given(content=JSON)
def test_any_custom_message_is_handled_or_ignored(board: Board, content: Any) -> None:
    # The handler itself, as ipywidgets calls it: nothing may escape it
    # (ipywidgets would only log an AttributeError).
    board._on_message(board, content, [])
    custom(board, content)
    assert_valid(board)


@pytest.mark.parametrize("content", [None, [], "play", 5, {"kind": "dance"}, {"kind": "play"}])
def test_malformed_messages_are_logged_and_ignored(
    board: Board, content: object, caplog: pytest.LogCaptureFixture
) -> None:
    moves = board.game.moves
    with caplog.at_level(logging.WARNING, logger="ayo.widget"):
        custom(board, content)
    assert board.game.moves == moves
    if not (isinstance(content, dict) and content.get("kind") == "play"):
        assert "ignored" in caplog.text
