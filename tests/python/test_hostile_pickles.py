"""State restored from a pickle is checked as strictly as state the constructors build (issue #37).

``EpisodeCore.__setstate__``, ``AyoVectorEnv.__setstate__`` and OpenSpiel's
``deserialize_state`` each either restore a state that holds together, or
raise ``AyoError`` and change nothing. Hypothesis mutates real states (the
bookkeeping, the game's rules and moves) and carries states across games.
"""

from __future__ import annotations

import json
import pickle
from datetime import timedelta
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ayo.openspiel as ayo_openspiel
from ayo import AyoError, Game
from ayo._ayo import EpisodeCore
from ayo.vector import AyoVectorEnv

FAST = settings(max_examples=60, deadline=timedelta(seconds=10))

PRESETS = ("ayoayo", "ayo", "olopon", "oware")


def played_core(rules: str, plies: int, seed: int = 1) -> EpisodeCore:
    """An episode against the random opponent after ``plies`` agent steps (fewer if it ends)."""
    core = EpisodeCore(rules)
    core.seed(seed)
    core.reset()
    for _ in range(plies):
        if core.done:
            break
        core.step(int(np.flatnonzero(core.action_mask())[0]))
    return core


def plays_on(core: EpisodeCore) -> None:
    """A restored episode behaves: a legal action is never refused as illegal."""
    if core.done:
        return
    assert core.to_move == core.agent_seat
    legal = np.flatnonzero(core.action_mask())
    assert legal.size
    core.step(int(legal[0]))  # no IllegalMoveError


# --- EpisodeCore --------------------------------------------------------------


@FAST
@given(source=st.sampled_from(PRESETS), target=st.sampled_from(PRESETS), plies=st.integers(0, 12))
def test_an_episode_loads_only_into_its_own_rules(source: str, target: str, plies: int) -> None:
    state = played_core(source, plies).__getstate__()
    core = played_core(target, 2, seed=5)
    before = core.__getstate__()
    if source == target:
        core.__setstate__(state)
        assert core.__getstate__() == state
        plays_on(core)
    else:
        with pytest.raises(AyoError, match="rules"):
            core.__setstate__(state)
        assert core.__getstate__() == before


MUTATIONS = st.sampled_from(
    ["flip_done", "flip_seat", "penalized", "drop_move", "other_move", "extra_move", "steps"]
)


def mutate(state: str, how: str, value: int) -> str:
    snapshot, record, moves = json.loads(state)
    if how == "flip_done":
        snapshot["done"] = not snapshot["done"]
    elif how == "flip_seat":
        snapshot["seat"] = "north" if snapshot["seat"] == "south" else "south"
    elif how == "penalized":
        snapshot["penalized"] = True
    elif how == "drop_move" and moves:
        moves = moves[:-1] if value % 2 else moves[1:]
    elif how == "other_move":
        moves = [*moves[:-1], value % 12] if moves else [value % 12]
    elif how == "extra_move":
        moves = [*moves, value % 12]
    elif how == "steps":
        snapshot["steps"] = value
    return json.dumps([snapshot, record, moves])


@FAST
@given(
    plies=st.integers(0, 30),
    how=MUTATIONS,
    value=st.integers(0, 2**32 - 1),
    max_steps=st.sampled_from([None, 3, 10]),
)
def test_a_mutated_episode_state_is_refused_or_holds_together(
    plies: int, how: str, value: int, max_steps: int | None
) -> None:
    source = EpisodeCore("oware", max_steps=max_steps)
    source.seed(3)
    source.reset()
    for _ in range(plies):
        if source.done:
            break
        source.step(int(np.flatnonzero(source.action_mask())[0]))
    state = mutate(source.__getstate__(), how, value)
    core = EpisodeCore("oware", max_steps=max_steps)
    before = core.__getstate__()
    try:
        core.__setstate__(state)
    except AyoError:
        assert core.__getstate__() == before
        return
    plays_on(core)


def test_a_finished_game_not_marked_done_is_refused() -> None:
    core = played_core("oware", 500)
    assert core.done
    assert core.game.is_over
    snapshot, record, moves = json.loads(core.__getstate__())
    snapshot["done"] = False
    with pytest.raises(AyoError, match="not marked done"):
        EpisodeCore("oware").__setstate__(json.dumps([snapshot, record, moves]))


def test_an_agent_not_to_move_is_refused() -> None:
    snapshot, record, moves = json.loads(played_core("oware", 3).__getstate__())
    snapshot["seat"] = "north"
    with pytest.raises(AyoError, match="agent is not to move"):
        EpisodeCore("oware").__setstate__(json.dumps([snapshot, record, moves]))


# --- AyoVectorEnv ---------------------------------------------------------------


def vector_state(steps: int) -> dict[str, Any]:
    env = AyoVectorEnv(num_envs=3, rules="oware")
    _obs, info = env.reset(seed=2)
    for _ in range(steps):
        mask = info["action_mask"]
        _obs, _, _, _, info = env.step(np.array([int(np.flatnonzero(m)[0]) for m in mask]))
    state: dict[str, Any] = env.__getstate__()
    return state


@FAST
@given(steps=st.integers(0, 8), game=st.integers(0, 2), how=MUTATIONS, value=st.integers(0, 99))
def test_a_mutated_batch_state_is_refused_or_plays_legal_moves(
    steps: int, game: int, how: str, value: int
) -> None:
    state = vector_state(steps)
    games = json.loads(state["games"])
    snapshot, moves = games[game]
    snapshot, _, moves = json.loads(mutate(json.dumps([snapshot, "", moves]), how, value))
    games[game] = [snapshot, moves]
    state["games"] = json.dumps(games)
    env = AyoVectorEnv.__new__(AyoVectorEnv)
    try:
        env.__setstate__(state)
    except AyoError:
        return
    # Restored: the first legal action of every game is played, never
    # refused as illegal (the default ``illegal_action`` raises).
    masks = env.action_masks()
    actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])
    env.step(actions)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.update(needs_reset="yes"),
        lambda s: s.update(user_attrs=[1]),
        lambda s: s.update(np_random=5),
        lambda s: s.pop("args"),
        lambda s: s.update(games=7),
    ],
)
def test_batch_bookkeeping_of_the_wrong_type_is_refused(change: Any) -> None:
    state = vector_state(1)
    change(state)
    with pytest.raises(AyoError):
        AyoVectorEnv.__new__(AyoVectorEnv).__setstate__(state)


def test_the_agent_not_to_move_in_a_batch_is_refused() -> None:
    state = vector_state(2)
    games = json.loads(state["games"])
    games[1][0]["seat"] = "north" if games[1][0]["seat"] == "south" else "south"
    state["games"] = json.dumps(games)
    with pytest.raises(AyoError, match=r"game 1: .*agent is not to move"):
        AyoVectorEnv.__new__(AyoVectorEnv).__setstate__(state)


# --- OpenSpiel --------------------------------------------------------------------

GAMES = [(name, cap) for name in (*ayo_openspiel.PRESET_GAMES.values(),) for cap in (5, 1000)]


@FAST
@given(
    source=st.sampled_from(GAMES),
    target=st.sampled_from(GAMES),
    plies=st.integers(0, 30),
)
def test_a_state_loads_only_into_the_game_that_saved_it(
    source: tuple[str, int], target: tuple[str, int], plies: int
) -> None:
    saving = pyspiel.load_game(source[0], {"ply_cap": source[1]})
    state = saving.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    loading = pyspiel.load_game(target[0], {"ply_cap": target[1]})
    if source == target:
        loaded = loading.deserialize_state(state.serialize())
        assert loaded.history() == state.history()
        assert loaded.information_state_tensor(0) == state.information_state_tensor(0)
    else:
        with pytest.raises(AyoError):
            loading.deserialize_state(state.serialize())


def test_a_doctored_history_is_refused() -> None:
    game = pyspiel.load_game("ayo_oware")
    state = game.new_initial_state()
    state.apply_action(2)
    text = state.serialize().replace("history=0:2", "history=0:3", 1)
    with pytest.raises(AyoError, match="history"):
        game.deserialize_state(text)
    assert game.deserialize_state(state.serialize()).history() == [2]


def test_clones_and_pickles_still_load() -> None:
    game = pyspiel.load_game("ayo_olopon", {"ply_cap": 50})
    state = game.new_initial_state()
    for _ in range(7):
        state.apply_action(state.legal_actions()[-1])
    assert state.clone().history() == state.history()
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


@FAST
@given(player=st.integers(-(2**65), 2**65), action=st.integers(-(2**65), 2**65))
def test_action_to_string_answers_or_refuses(player: int, action: int) -> None:
    state = pyspiel.load_game("ayo_ayoayo").new_initial_state()
    if player in (0, 1) and 0 <= action <= 5:
        assert state.action_to_string(player, action) == (
            f"{('South', 'North')[player]} {action + 1}"
        )
    else:
        with pytest.raises((AyoError, TypeError)):
            state.action_to_string(player, action)


def test_the_issues_action_strings_are_refused() -> None:
    state = pyspiel.load_game("ayo_ayoayo").new_initial_state()
    for player, action in ((5, 3), (0, 99)):
        with pytest.raises(AyoError):
            state.action_to_string(player, action)


# --- Game ---------------------------------------------------------------------------


def game_records() -> st.SearchStrategy[str]:
    """Records of real games, then cut or edited at random."""
    return st.builds(
        lambda preset, n, cut, junk: played_core(preset, n).game.record()[:cut] + junk,
        st.sampled_from(PRESETS),
        st.integers(0, 20),
        st.integers(0, 400),
        st.sampled_from(["", " 7", " 1 1 1", "x", "\x00", " | 2"]),
    )


@FAST
@given(
    record=game_records(),
    cap=st.one_of(st.none(), st.integers(-1, 40), st.sampled_from([2**32 - 1, 2**32, 2**64])),
)
def test_game_setstate_answers_or_refuses_and_keeps_the_game(record: str, cap: int | None) -> None:
    game = Game("oware")
    game.play(2)
    before = game.__getstate__()
    try:
        game.__setstate__((record, cap))
    except AyoError:
        assert game.__getstate__() == before
        return
    assert game.__getstate__()[1] == cap
    if cap is not None:
        assert game.ply <= cap or game.is_over
