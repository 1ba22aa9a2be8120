"""Out-of-range numbers, bools and lone surrogates at the Python boundary.

Each raises an ``ayo.AyoError`` subclass (a ValueError), never an
``OverflowError`` or a ``UnicodeEncodeError``, and changes nothing.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import ayo
import ayo.ai
from ayo.envs import AyoEnv
from ayo.vector import AyoVectorEnv

SURROGATE = "\ud800"
BIG = [-1, 2**64, 2**200, -(2**200)]
#: A perft of the Oware start that takes seconds (and ends) on any machine.
PERFT_DEPTH = 12


def played_game() -> ayo.Game:
    game = ayo.Game("ayoayo")
    game.play(0)
    game.play(0)
    return game


@pytest.fixture(scope="module")
def db() -> ayo.Database:
    return ayo.Database.build("ayoayo", 2)


# --- A: out-of-range integers -------------------------------------------------


@pytest.mark.parametrize("depth", [-1, 2**32, 2**64, 2**200])
def test_perft_depth_out_of_range(depth: int) -> None:
    with pytest.raises(ayo.AyoError, match="depth") as info:
        ayo.perft("oware", depth)
    assert not isinstance(info.value, OverflowError)


def test_perft_depth_limit() -> None:
    with pytest.raises(ayo.AyoError, match="depth"):
        ayo.perft("oware", 31)
    assert ayo.perft("oware", 0) == 1
    assert ayo.perft("oware", 2) == 36


def test_perft_bool_depth() -> None:
    with pytest.raises(ayo.AyoError):
        ayo.perft("oware", True)


def test_perft_interruptible() -> None:
    """Ctrl-C (SIGINT) stops a long perft between root children.

    The test installs Python's SIGINT handler itself: a process started with
    SIGINT ignored (``nohup``, ``&`` in a script) has none. The perft has a
    bound of its own (depth PERFT_DEPTH takes well over the interrupt's delay
    but ends), so a signal that is not seen fails the test instead of hanging.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, signal.raise_signal, (signal.SIGINT,))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ayo.perft("oware", PERFT_DEPTH)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 5.0


@pytest.mark.parametrize("seed", BIG)
def test_random_playout_seed_out_of_range(seed: int) -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.AyoError, match="seed") as info:
        game.random_playout(seed)
    assert not isinstance(info.value, OverflowError)
    assert game.record() == before


@pytest.mark.parametrize("max_plies", BIG)
def test_random_playout_max_plies_out_of_range(max_plies: int) -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.AyoError, match="max_plies"):
        game.random_playout(0, max_plies)
    assert game.record() == before


@pytest.mark.parametrize(("n", "seed"), [(-1, 0), (2**64, 0), (1, -1), (1, 2**64), (1, 2**200)])
def test_random_playouts_out_of_range(n: int, seed: int) -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.AyoError) as info:
        game.random_playouts(n, seed)
    assert not isinstance(info.value, OverflowError)
    assert game.record() == before


def test_random_playouts_in_range_still_work() -> None:
    game = played_game()
    assert sum(game.random_playouts(3, 2**64 - 1)) == 3
    assert game.random_playout(2**64 - 1, max_plies=2**32 - 1) is not None


@pytest.mark.parametrize("scores", [(-1, 2), (2, 2**16), (2**64, 0)])
def test_outcome_scores_out_of_range(scores: tuple[int, int]) -> None:
    with pytest.raises(ayo.AyoError, match="scores") as info:
        ayo.Outcome(0, "target", scores)
    assert not isinstance(info.value, OverflowError)


def test_outcome_winner_out_of_range() -> None:
    with pytest.raises(ayo.AyoError):
        ayo.Outcome(2**64, "target", (30, 2))


@pytest.mark.parametrize("cap", [-1, 2**32, 2**64])
def test_setstate_ply_cap_out_of_range(cap: int) -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.AyoError, match="ply_cap") as info:
        game.__setstate__((before, cap))
    assert not isinstance(info.value, OverflowError)
    assert game.record() == before
    assert game.ply_cap is None


def test_database_open_max_seeds_negative(tmp_path: Path) -> None:
    with pytest.raises(ayo.AyoError, match="max_seeds") as info:
        ayo.Database.open("ayoayo", tmp_path, max_seeds=-1)
    assert not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("max_seeds", [-1, 2**64])
def test_database_build_max_seeds_out_of_range(max_seeds: int) -> None:
    with pytest.raises(ayo.AyoError, match="max_seeds") as info:
        ayo.Database.build("ayoayo", max_seeds)
    assert not isinstance(info.value, OverflowError)


def test_database_build_threads_out_of_range() -> None:
    with pytest.raises(ayo.AyoError, match="threads"):
        ayo.Database.build("ayoayo", 1, threads=2**64)


@pytest.mark.parametrize("nodes", [-1, 0, 2**64])
def test_database_value_nodes_out_of_range(db: ayo.Database, nodes: int) -> None:
    game = ayo.Game("ayoayo")
    with pytest.raises(ayo.AyoError, match="nodes") as info:
        db.value(game, nodes=nodes)
    assert not isinstance(info.value, OverflowError)
    with pytest.raises(ayo.AyoError, match="nodes"):
        db.move_values(game, nodes=nodes)


@pytest.mark.parametrize("from_seeds", [-1, 2**64])
def test_database_verify_from_seeds_out_of_range(db: ayo.Database, from_seeds: int) -> None:
    with pytest.raises(ayo.AyoError, match="from_seeds") as info:
        db.verify(from_seeds=from_seeds)
    assert not isinstance(info.value, OverflowError)


def test_thread_count_out_of_range() -> None:
    with pytest.raises(ayo.AyoError, match="threads"):
        ayo._ayo.thread_count(2**64)


@pytest.mark.parametrize("kwargs", [{"max_episode_steps": 2**64}, {"max_episode_steps": -1}])
def test_vector_env_max_episode_steps_out_of_range(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ayo.AyoError, match="max_episode_steps") as info:
        AyoVectorEnv(2, rules="ayo", **kwargs)
    assert not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("threads", [2**64, -1, True])
def test_vector_env_num_threads_out_of_range(threads: int) -> None:
    with pytest.raises(ayo.AyoError, match="num_threads") as info:
        AyoVectorEnv(2, rules="ayo", num_threads=threads)
    assert not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_vector_env_reset_seed_out_of_range(seed: int) -> None:
    env = AyoVectorEnv(2, rules="ayo")
    with pytest.raises(ayo.AyoError, match="seed"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_env_reset_bad_seed(seed: Any) -> None:
    env = AyoEnv("ayoayo")
    env.reset(seed=1)
    env.step(int(env.action_masks().argmax()))
    before = env.game.record()
    with pytest.raises(ayo.AyoError, match="seed"):
        env.reset(seed=seed)
    assert env.game.record() == before


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_player_seed_out_of_range(seed: int) -> None:
    with pytest.raises(ayo.AyoError, match="seed"):
        ayo.ai.Player(4, seed=seed)
    with pytest.raises(ayo.AyoError, match="seed"):
        ayo.ai.Player.from_kind("random", seed=seed)


# --- B: lone surrogates and set-up counts -------------------------------------


def test_surrogate_preset_name() -> None:
    with pytest.raises(ayo.AyoError) as info:
        ayo.Rules(SURROGATE)
    assert not isinstance(info.value, UnicodeError)
    with pytest.raises(ayo.AyoError) as info:
        ayo.Game(SURROGATE)
    assert not isinstance(info.value, UnicodeError)


def test_surrogate_rules_json() -> None:
    with pytest.raises(ayo.RecordError) as info:
        ayo.Rules.from_json('{"x": "' + SURROGATE + '"}')
    assert not isinstance(info.value, UnicodeError)


def test_surrogate_record() -> None:
    with pytest.raises(ayo.RecordError) as info:
        ayo.Game.from_record("ayoayo" + SURROGATE)
    assert not isinstance(info.value, UnicodeError)
    assert info.value.field == "text"
    with pytest.raises(ayo.RecordError):
        ayo.Game("ayoayo", SURROGATE)


def test_surrogate_setstate() -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.RecordError):
        game.__setstate__((before + SURROGATE, None))
    assert game.record() == before


def test_surrogate_database_position(db: ayo.Database) -> None:
    with pytest.raises(ayo.RecordError):
        db.value(SURROGATE)


def test_surrogate_database_folder() -> None:
    with pytest.raises(ayo.AyoError) as info:
        ayo.Database.open("ayoayo", SURROGATE)
    assert not isinstance(info.value, UnicodeError)
    with pytest.raises(ayo.AyoError) as info:
        ayo.Database.build("ayoayo", 1, SURROGATE)
    assert not isinstance(info.value, UnicodeError)


def test_surrogate_player_kind() -> None:
    with pytest.raises(ayo.AyoError) as info:
        ayo.ai.Player.from_kind(SURROGATE)  # type: ignore[arg-type]
    assert not isinstance(info.value, UnicodeError)


def test_surrogate_perft_position() -> None:
    with pytest.raises(ayo.RecordError):
        ayo.perft("ayoayo", 1, SURROGATE)


def test_setup_pit_of_300_is_setup_error() -> None:
    board = [4] * 12
    board[3] = 300
    with pytest.raises(ayo.SetupError) as info:
        ayo.Game.from_setup("ayoayo", board, [0, 0])
    assert "300" in info.value.problems[0]


def test_setup_wrong_length_is_setup_error() -> None:
    with pytest.raises(ayo.SetupError):
        ayo.Game.from_setup("ayoayo", [4] * 11, [0, 0])
    with pytest.raises(ayo.SetupError):
        ayo.Game.from_setup("ayoayo", [4] * 12, [0, 0], to_move=2)
    with pytest.raises(ayo.SetupError):
        ayo.Game.from_setup("ayoayo", [4] * 12, [0, 0], ply=-1)


# --- C: a bool is not a move ---------------------------------------------------


@pytest.mark.parametrize("action", [True, False])
def test_play_bool_action(action: bool) -> None:
    game = played_game()
    before = game.record()
    with pytest.raises(ayo.IllegalMoveError) as info:
        game.play(action)
    assert info.value.reason == "action_out_of_range"
    assert game.record() == before
    with pytest.raises(ayo.IllegalMoveError) as info:
        game.play_pit(action)
    assert info.value.reason == "pit_out_of_range"
    assert game.record() == before


# --- Lone surrogates in the environments' option strings ----------------------

ENV_OPTIONS = ["perspective", "reward", "illegal_action"]


@pytest.mark.parametrize("option", [*ENV_OPTIONS, "opponent", "agent_seat"])
def test_vector_env_option_with_surrogate(option: str) -> None:
    """Issue 14: an option of the batch with a lone surrogate is an AyoError."""
    with pytest.raises(ayo.AyoError) as info:
        AyoVectorEnv(4, **{option: "x" + SURROGATE})  # type: ignore[arg-type]
    assert not isinstance(info.value, UnicodeError)


def test_vector_env_rules_with_surrogate() -> None:
    with pytest.raises(ayo.RecordError):
        AyoVectorEnv(4, rules="ayo" + SURROGATE)


@pytest.mark.parametrize("option", ENV_OPTIONS)
def test_env_option_with_surrogate(option: str) -> None:
    with pytest.raises(ayo.AyoError) as info:
        AyoEnv(**{option: "x" + SURROGATE})  # type: ignore[arg-type]
    assert not isinstance(info.value, UnicodeError)


@pytest.mark.parametrize("option", ["opponent", "agent_seat", *ENV_OPTIONS])
def test_episode_core_option_with_surrogate(option: str) -> None:
    with pytest.raises(ayo.AyoError) as info:
        ayo._ayo.EpisodeCore("ayoayo", **{option: "x" + SURROGATE})  # type: ignore[arg-type]
    assert not isinstance(info.value, UnicodeError)


def test_episode_core_state_with_surrogate() -> None:
    core = ayo._ayo.EpisodeCore("ayoayo")
    before = core.__getstate__()
    with pytest.raises(ayo.RecordError):
        core.__setstate__("{" + SURROGATE)
    assert core.__getstate__() == before


# --- Found by the property suite (tests/python/test_properties.py) ------------

HUGE = 10**400  # beyond an i128 and an f64


@pytest.mark.parametrize("max_steps", [2**63, 2**64, HUGE])
def test_episode_core_max_steps_out_of_range(max_steps: int) -> None:
    with pytest.raises(ayo.AyoError, match="max_steps") as info:
        ayo._ayo.EpisodeCore("ayoayo", max_steps=max_steps)
    assert not isinstance(info.value, OverflowError)


def test_pettingzoo_max_plies_out_of_range() -> None:
    import ayo.pettingzoo

    with pytest.raises(ayo.AyoError, match="max_steps"):
        ayo.pettingzoo.raw_env(max_plies=2**64)


@pytest.mark.parametrize("action", [7, -1, 2**64, 1.5, "2"])
def test_pettingzoo_wrapped_env_refuses_with_a_value_error(action: object) -> None:
    """The wrapped ``env()`` raised PettingZoo's ``AssertionError`` (its
    out-of-bounds wrapper) before the environment's own check."""
    import ayo.pettingzoo

    e = ayo.pettingzoo.env(rules="oware")
    e.reset(seed=0)
    before = e.unwrapped.game.record()
    with pytest.raises(ayo.AyoError):
        e.step(action)
    assert e.unwrapped.game.record() == before


def test_pettingzoo_wrapped_env_step_before_reset() -> None:
    import ayo.pettingzoo

    e = ayo.pettingzoo.env(rules="oware")
    with pytest.raises(ayo.AyoError, match="reset"):
        e.step(0)
    with pytest.raises(ayo.AyoError, match="reset"):
        e.observe("player_0")


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_pettingzoo_reset_seed_checked(seed: object) -> None:
    """A bad seed raised gymnasium's own ``error.Error`` from the action spaces."""
    import ayo.pettingzoo

    e = ayo.pettingzoo.raw_env(rules="oware")
    e.reset(seed=0)
    e.step(0)
    before = e.game.record()
    with pytest.raises(ayo.AyoError, match="seed"):
        e.reset(seed=seed)  # type: ignore[arg-type]
    assert e.game.record() == before


def test_penalty_beyond_a_float() -> None:
    """``float(10**400)`` raised ``OverflowError`` in the three environments."""
    import ayo.pettingzoo

    with pytest.raises(ayo.AyoError, match="illegal_penalty"):
        AyoEnv(illegal_action="penalize", illegal_penalty=HUGE)
    with pytest.raises(ayo.AyoError, match="illegal_penalty"):
        AyoVectorEnv(2, illegal_action="penalize", illegal_penalty=HUGE)
    with pytest.raises(ayo.AyoError, match="illegal_reward"):
        ayo.pettingzoo.raw_env(illegal_action="penalize", illegal_reward=HUGE)


@pytest.mark.parametrize(
    "budget", [{"depth": HUGE}, {"nodes": HUGE}, {"nodes": -HUGE}, {"time": HUGE}]
)
def test_player_budget_beyond_an_i128(budget: dict[str, int]) -> None:
    with pytest.raises(ayo.AyoError, match=next(iter(budget))) as info:
        ayo.ai.Player.from_kind("alphabeta", **budget)
    assert not isinstance(info.value, OverflowError)


def test_perfect_player_nodes_beyond_an_i128(db: ayo.Database) -> None:
    with pytest.raises(ayo.AyoError, match="nodes"):
        ayo.ai.Player.perfect(db, nodes=HUGE)


@pytest.mark.parametrize("seat", [2, -1, 2**64, HUGE])
def test_episode_core_seat_out_of_range(seat: int) -> None:
    core = ayo._ayo.EpisodeCore("ayoayo")
    core.reset()
    before = core.__getstate__()
    with pytest.raises(ayo.AyoError, match="seat") as info:
        core.observe_seat(seat)
    assert not isinstance(info.value, OverflowError)
    with pytest.raises(ayo.AyoError, match="agent_seat"):
        core.reset(agent_seat=seat)
    assert core.__getstate__() == before


def test_core_penalty_beyond_a_float() -> None:
    """The cores under the environments take the penalty wide too."""
    with pytest.raises(ayo.AyoError, match="illegal_penalty") as info:
        ayo._ayo.EpisodeCore("ayoayo", illegal_action="penalize", illegal_penalty=HUGE)
    assert not isinstance(info.value, OverflowError)
