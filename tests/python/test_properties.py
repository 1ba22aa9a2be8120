"""Property-based checks of the whole public Python API (issue 14).

Every public function and method gets random and mutated arguments (valid
values, values just out of range, huge and negative ints, bools, floats,
NaN, lone surrogates, wrong types, mutated records and JSON). Each call must
either succeed or raise a ``ValueError`` subclass (``ayo.AyoError`` and its
subclasses among them) or, for an argument of the wrong Python type, a
``TypeError``; never an ``OverflowError``, a ``UnicodeError``, a Rust panic, a
``RuntimeError``, an ``AssertionError`` or a library's own error type. A call
that fails leaves what it was called on as it was: the record, the board and
(where it can be seen) the random streams.

The examples are derandomized and no example database is kept, so a run in
CI tries the same inputs every time; ``--hypothesis-show-statistics`` prints
how many each test tried.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

import ayo
import ayo.ai
import ayo.pettingzoo
from ayo._ayo import EpisodeCore
from ayo.envs import AyoEnv
from ayo.vector import AyoVectorEnv

T = TypeVar("T")

#: One setting for the whole suite: reproducible, bounded (about a minute in
#: all on two cores), no deadline (the first call of a kind may be slow).
PROPERTIES = settings(
    max_examples=600,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def fewer(n: int) -> settings:
    """:data:`PROPERTIES` with ``n`` examples (for the costlier calls)."""
    return settings(PROPERTIES, max_examples=n)


SURROGATES = ["\ud800", "\udfff", "a\udc80b"]
EDGE_INTS = [
    10**400,
    -1,
    0,
    1,
    5,
    6,
    30,
    31,
    255,
    256,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63) - 1,
    2**200,
    -(2**200),
]
PRESETS = ayo.Rules.presets()
RULE_TEXTS = [*PRESETS, "ayoayo[target=none]", "oware[move_limit=200]", "ayoayo[relay=false]"]

ints = st.one_of(st.integers(-3, 40), st.sampled_from(EDGE_INTS), st.integers())
texts = st.one_of(
    st.sampled_from([*RULE_TEXTS, *SURROGATES, "", "mover", "absolute", "random", "max"]),
    st.text(max_size=20),
    st.text(alphabet=st.characters(codec=None, categories=None), max_size=8),
)
#: Any value at all, of any type: what a careless or hostile caller passes.
anything: st.SearchStrategy[Any] = st.one_of(
    ints,
    texts,
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(-5, 300), max_size=14),
    st.binary(max_size=6),
    st.builds(object),
    st.builds(np.int64, st.integers(-(2**63), 2**63 - 1)),
    st.builds(np.float32, st.floats(width=32)),
)


def allowed(err: BaseException) -> bool:
    """Whether ``err`` is an error the API may raise (see the module docstring)."""
    if isinstance(err, (UnicodeError, OverflowError, AssertionError)):
        return False
    return type(err) is TypeError or isinstance(err, ValueError)


def attempt(call: Callable[[], T]) -> tuple[bool, T | None]:
    """Runs ``call``: ``(True, result)``, or ``(False, None)`` after an allowed error.

    Any other exception (a ``BaseException`` too: a Rust panic is one) fails
    the test with the call's error.
    """
    try:
        return True, call()
    except BaseException as err:
        if isinstance(err, (KeyboardInterrupt, SystemExit, HypothesisException)):
            raise
        if not allowed(err):
            raise AssertionError(f"disallowed {type(err).__name__}: {err!r}") from err
        return False, None


def mutated(text: str, data: st.DataObject) -> str:
    """``text`` with a few random edits (delete, replace, insert, duplicate)."""
    edits = data.draw(st.integers(0, 3))
    for _ in range(edits):
        kind = data.draw(st.sampled_from(["delete", "replace", "insert", "duplicate"]))
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(
            st.one_of(
                st.sampled_from([",", "/", "-", " ", "|", "9", "0", "999", "[", "]", "="]),
                st.sampled_from(SURROGATES),
                st.text(max_size=3),
            )
        )
        if kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "replace":
            text = text[:at] + piece + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + text[at:] + text[at:]
    return text


def random_game(data: st.DataObject, rules: str | None = None) -> ayo.Game:
    """A game of drawn rules with a few drawn legal moves played."""
    game = ayo.Game(rules or data.draw(st.sampled_from(PRESETS)))
    for _ in range(data.draw(st.integers(0, 12))):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(data.draw(st.sampled_from(legal)))
    return game


def game_state(game: ayo.Game) -> tuple[object, ...]:
    """Everything observable of a game (its history and ply cap included)."""
    return (
        game.record(),
        game.position_record(),
        tuple(game.board),
        tuple(game.stores),
        game.to_move,
        game.ply,
        game.no_capture,
        tuple(game.moves),
        game.ply_cap,
        game.status,
        game.outcome,
    )


# --- Rules ---------------------------------------------------------------------


@PROPERTIES
@given(
    preset=st.one_of(texts, anything),
    params=st.dictionaries(
        st.one_of(st.sampled_from(ayo.PARAM_NAMES), texts), anything, max_size=3
    ),
)
def test_rules_constructor(preset: Any, params: dict[str, Any]) -> None:
    ok, rules = attempt(lambda: ayo.Rules(preset, **params))
    if ok:
        assert rules is not None
        assert ayo.Rules.from_json(rules.to_json()) == rules
        assert ayo.Rules(str(rules)) == rules


@PROPERTIES
@given(base=st.sampled_from(PRESETS), data=st.data())
def test_rules_replace_and_json(base: str, data: st.DataObject) -> None:
    rules = ayo.Rules(base)
    before = (rules.to_json(), rules.params())
    key = data.draw(st.one_of(st.sampled_from(ayo.PARAM_NAMES), texts))
    value = data.draw(anything)
    attempt(lambda: rules.replace(**{key: value}))
    # JSON with one field changed to anything, or the text mutated.
    fields = json.loads(rules.to_json())
    fields[data.draw(st.sampled_from([*fields, "extra"]))] = data.draw(
        st.one_of(st.none(), st.booleans(), st.integers(), texts, st.floats())
    )
    attempt(lambda: ayo.Rules.from_json(json.dumps(fields)))
    attempt(lambda: ayo.Rules.from_json(mutated(rules.to_json(), data)))
    junk = data.draw(anything)
    attempt(lambda: ayo.Rules.from_json(junk))
    assert (rules.to_json(), rules.params()) == before


# --- Games -----------------------------------------------------------------------


@PROPERTIES
@given(data=st.data())
def test_game_from_record_and_position(data: st.DataObject) -> None:
    game = random_game(data)
    text = mutated(data.draw(st.sampled_from([game.record(), game.position_record()])), data)
    ok, parsed = attempt(lambda: ayo.Game.from_record(text))
    if ok:
        assert parsed is not None
        assert ayo.Game.from_record(parsed.record()).record() == parsed.record()
    rules: Any = data.draw(st.one_of(st.sampled_from(RULE_TEXTS), st.none(), anything))
    start = mutated(game.position_record(), data)
    position: Any = data.draw(st.one_of(st.just(start), st.none(), anything))
    attempt(lambda: ayo.Game(rules, position))


@PROPERTIES
@given(
    rules=st.one_of(st.sampled_from(PRESETS), anything),
    board=st.one_of(st.lists(st.one_of(st.integers(-2, 50), ints), max_size=14), anything),
    stores=st.one_of(st.lists(st.one_of(st.integers(0, 48), ints), max_size=3), anything),
    to_move=st.one_of(st.integers(0, 1), anything),
    no_capture=st.one_of(st.integers(0, 10), anything),
    ply=st.one_of(st.integers(0, 10), anything),
)
def test_game_from_setup(
    rules: Any, board: Any, stores: Any, to_move: Any, no_capture: Any, ply: Any
) -> None:
    ok, game = attempt(lambda: ayo.Game.from_setup(rules, board, stores, to_move, no_capture, ply))
    if ok:
        assert game is not None
        assert ayo.Game.from_record(game.record()).record() == game.record()


#: The methods of a game and how to call them with one drawn argument.
GAME_CALLS: dict[str, Callable[[ayo.Game, Any], object]] = {
    "play": lambda g, a: g.play(a),
    "play_pit": lambda g, a: g.play_pit(a),
    "is_legal": lambda g, a: g.is_legal(a),
    "trace": lambda g, a: g.trace(a),
    "trace_summary": lambda g, a: g.trace_summary(a),
    "last_landing": lambda g, a: g.last_landing(a),
    "observation": lambda g, a: g.observation(a),
    "random_playout": lambda g, a: g.random_playout(*a),
    "random_playouts": lambda g, a: g.random_playouts(*a),
    "ply_cap": lambda g, a: setattr(g, "ply_cap", a),
    "__setstate__": lambda g, a: g.__setstate__(a),
    "undo": lambda g, a: g.undo(),
    "copy": lambda g, a: g.copy(),
}
#: Methods that change the game when they succeed.
CHANGING = {"play", "play_pit", "ply_cap", "__setstate__", "undo"}

#: Counts and plies a playout may take here: a few valid, the rest invalid
#: (huge valid counts would only be slow).
playout_numbers = st.one_of(
    st.integers(0, 20), st.sampled_from([-1, 2**32, 2**64, -(2**70), True]), texts, st.floats()
)


def game_argument(name: str, game: ayo.Game, data: st.DataObject) -> Any:
    """A drawn argument for ``GAME_CALLS[name]``."""
    if name == "random_playout":
        return tuple(data.draw(st.lists(playout_numbers, min_size=0, max_size=3)))
    if name == "random_playouts":
        n = data.draw(st.one_of(st.integers(0, 5), playout_numbers))
        rest = data.draw(st.lists(playout_numbers, min_size=0, max_size=2))
        return (n, *rest)
    if name == "__setstate__":
        record = mutated(game.record(), data)
        cap = data.draw(st.one_of(st.none(), ints, anything))
        return data.draw(st.sampled_from([(record, cap), (record,), record, (record, cap, 1)]))
    if name == "observation":
        return data.draw(st.one_of(st.sampled_from(["mover", "absolute"]), texts, anything))
    return data.draw(st.one_of(st.integers(-1, 12), ints, anything))


@PROPERTIES
@given(data=st.data())
def test_game_methods(data: st.DataObject) -> None:
    game = random_game(data)
    for _ in range(data.draw(st.integers(1, 6))):
        name = data.draw(st.sampled_from(sorted(GAME_CALLS)))
        arg = game_argument(name, game, data)
        before = game_state(game)
        ok, _ = attempt(lambda: GAME_CALLS[name](game, arg))  # noqa: B023 (called at once)
        if not ok or name not in CHANGING:
            assert game_state(game) == before, (name, arg)
    # Whatever happened, the record still replays to the same game.
    replayed = ayo.Game.from_record(game.record())
    assert replayed.position_record() == game.position_record()


@PROPERTIES
@given(
    winner=st.one_of(st.sampled_from([0, 1, None]), anything),
    reason=st.one_of(
        st.sampled_from(["target", "move_limit", "repetition", "no_legal_move"]), texts
    ),
    scores=st.one_of(st.tuples(ints, ints), anything),
)
def test_outcome(winner: Any, reason: Any, scores: Any) -> None:
    ok, outcome = attempt(lambda: ayo.Outcome(winner, reason, scores))
    if ok:
        assert outcome is not None
        attempt(lambda: outcome.result_for(winner))


@PROPERTIES
@given(
    rules=st.one_of(st.sampled_from(PRESETS), anything),
    depth=st.one_of(st.integers(0, 3), st.sampled_from([-1, 31, 2**32, 2**64, True]), anything),
    data=st.data(),
)
def test_perft(rules: Any, depth: Any, data: st.DataObject) -> None:
    if isinstance(depth, int) and 4 <= depth <= 30:
        depth = 3  # valid but slow: the limit is checked with 31
    position = data.draw(
        st.one_of(st.none(), st.just(mutated(random_game(data).position_record(), data)))
    )
    ok, count = attempt(lambda: ayo.perft(rules, depth, position))
    if ok:
        assert isinstance(count, int)
        assert count >= 0


# --- Players ---------------------------------------------------------------------------


@fewer(400)
@given(data=st.data())
def test_players(data: st.DataObject) -> None:
    level: Any = data.draw(st.one_of(st.sampled_from(["1", "2", 1, 2, 3]), ints, texts, anything))
    seed = data.draw(st.one_of(st.integers(0, 2**64 - 1), ints, anything))
    players = [attempt(lambda: ayo.ai.Player(level, seed=seed))]
    kind: Any = data.draw(
        st.one_of(st.sampled_from(["random", "greedy", "alphabeta", "mcts"]), texts, anything)
    )
    budget: dict[str, Any] = data.draw(
        st.sampled_from(
            [
                {"depth": data.draw(st.one_of(st.integers(1, 2), ints, anything))},
                {"nodes": data.draw(st.one_of(st.integers(1, 300), ints, anything))},
                {"time": data.draw(st.one_of(st.floats(), st.sampled_from([0.001]), anything))},
                {},
                {"depth": 1, "nodes": 10},
            ]
        )
    )
    players.append(attempt(lambda: ayo.ai.Player.from_kind(kind, seed=seed, **budget)))
    attempt(lambda: ayo.ai.Player.describe_level(level))
    game = random_game(data)
    for ok, player in players:
        if not ok or player is None:
            continue
        slow = (player.level or "1") not in ("1", "2", "3")
        slow = slow or ("nodes" in budget and budget["nodes"] not in range(1, 301))
        slow = slow or ("depth" in budget and budget["depth"] not in (1, 2))
        slow = slow or "time" in budget
        if slow:
            continue
        before = game_state(game)
        ok, mv = attempt(lambda: player.choose(game))  # noqa: B023 (called at once)
        assert game_state(game) == before
        if ok and game.legal_moves():
            assert mv in game.legal_moves()
        junk = data.draw(anything)
        attempt(lambda: player.choose(junk))  # noqa: B023


# --- Databases -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[ayo.Database, Path]:
    folder = tmp_path_factory.mktemp("db")
    return ayo.Database.build("ayoayo", 3, folder, threads=1), folder


@fewer(250)
@given(data=st.data())
def test_database_build_and_open(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database_build_and_open(data, Path(folder))


def database_build_and_open(data: st.DataObject, tmp_path: Path) -> None:
    rules = data.draw(st.one_of(st.sampled_from(PRESETS), anything))
    max_seeds = data.draw(
        st.one_of(st.integers(0, 3), st.sampled_from([-1, 41, 2**64, True]), anything)
    )
    threads = data.draw(
        st.one_of(st.none(), st.integers(0, 2), st.sampled_from([-1, 1025, 2**64]), anything)
    )
    attempt(lambda: ayo.Database.build(rules, max_seeds, None, threads=threads))
    folder = data.draw(st.one_of(st.just(str(tmp_path)), texts, anything))
    attempt(lambda: ayo.Database.open(rules, folder, max_seeds=max_seeds))
    attempt(lambda: ayo.Database.solvable(rules))


@fewer(400)
@given(data=st.data())
def test_database_queries(small_db: tuple[ayo.Database, Path], data: st.DataObject) -> None:
    db, folder = small_db
    # A board of up to 12 seeds (held by the layers up to 3, or searched).
    board = data.draw(st.lists(st.integers(0, 1), min_size=12, max_size=12))
    south = (48 - sum(board)) // 2
    text = "ayoayo {}/{} {}-{} s 0 0".format(
        ",".join(map(str, board[:6])),
        ",".join(map(str, board[6:])),
        south,
        48 - sum(board) - south,
    )
    position = data.draw(
        st.one_of(st.just(text), st.just(mutated(text, data)), st.just(random_game(data)), anything)
    )
    nodes = data.draw(
        st.one_of(st.integers(1, 500), st.sampled_from([0, -1, 2**64, True]), anything)
    )
    ok, value = attempt(lambda: db.value(position, nodes=nodes))
    if ok and value is not None:
        assert abs(value) <= 48
    attempt(lambda: db.move_values(position, nodes=nodes))
    from_seeds = data.draw(st.one_of(st.integers(0, 4), st.sampled_from([-1, 2**64]), anything))
    threads = data.draw(st.one_of(st.none(), st.integers(1, 2), st.sampled_from([-1, 2**64])))
    ok, report = attempt(lambda: db.verify(from_seeds=from_seeds, threads=threads))
    if ok:
        assert report is not None
        assert report.ok
    attempt(lambda: ayo.ai.Player.perfect(db, nodes=nodes, seed=0))
    assert db.max_seeds == 3
    assert ayo.Database.open("ayoayo", folder).positions == db.positions


# --- Environments ------------------------------------------------------------------------

seats = st.sampled_from([0, 1, "alternate", "random"])
perspectives = st.sampled_from(["mover", "absolute"])
rewards = st.sampled_from(["win_loss", "seed_difference"])
illegals = st.sampled_from(["raise", "penalize"])
penalties = st.one_of(st.floats(-10, 10), st.integers(-5, 5))
actions = st.one_of(st.integers(0, 5), st.integers(-2, 8), ints, anything)
#: Junk for a text option: other text, surrogates, wrong types.
junk_text = st.one_of(texts, anything)
junk_number = st.one_of(st.floats(allow_nan=True), st.sampled_from([10**400, True]), anything)


def env_options(
    data: st.DataObject, valid: dict[str, st.SearchStrategy[Any]], junk: st.SearchStrategy[Any]
) -> dict[str, Any]:
    """Keyword options: each drawn valid, but one (half the time) drawn from
    ``junk``, and a few left out (their defaults), so that most environments
    are made and then stepped."""
    bad = data.draw(st.one_of(st.none(), st.sampled_from(sorted(valid))))
    options = {k: data.draw(junk if k == bad else v) for k, v in valid.items()}
    drop = data.draw(st.sets(st.sampled_from(sorted(valid)), max_size=2))
    return {k: v for k, v in options.items() if k not in drop}


def made(ok: bool, what: str) -> None:
    """Counts in the statistics how often the environment was made."""
    event(f"{what} made" if ok else f"{what} refused")


def env_state(env: AyoEnv) -> tuple[object, ...]:
    """The episode (its random streams included) of a Gymnasium env."""
    return (env.unwrapped._core.__getstate__(), env.unwrapped._started)  # type: ignore[attr-defined]


@fewer(400)
@given(data=st.data())
def test_gymnasium_env(data: st.DataObject) -> None:
    valid = {
        "rules": st.sampled_from(PRESETS),
        "agent_seat": seats,
        "perspective": perspectives,
        "reward": rewards,
        "illegal_action": illegals,
        "illegal_penalty": penalties,
        "render_mode": st.sampled_from([None, "ansi"]),
    }
    options = env_options(data, valid, st.one_of(junk_text, junk_number))
    ok, env = attempt(lambda: AyoEnv(**options))
    made(ok, "env")
    if not ok or env is None:
        return
    for _ in range(data.draw(st.integers(1, 8))):
        before = env_state(env)
        if data.draw(st.booleans()):
            seed = data.draw(st.one_of(st.none(), st.integers(0, 2**64), ints, anything))
            start = mutated(random_game(data, "ayoayo").position_record(), data)
            reset_options = data.draw(
                st.one_of(
                    st.none(),
                    st.fixed_dictionaries({"agent_seat": st.one_of(st.integers(0, 1), anything)}),
                    st.fixed_dictionaries({"position": st.just(start)}),
                    st.dictionaries(texts, anything, max_size=2),
                )
            )
            ok, _ = attempt(lambda: env.reset(seed=seed, options=reset_options))  # noqa: B023
        else:
            action = data.draw(actions)
            ok, _ = attempt(lambda: env.step(action))  # noqa: B023
        if not ok:
            assert env_state(env) == before
        if ok and env.render_mode is not None and env.unwrapped._started:  # type: ignore[attr-defined]
            attempt(env.render)


def vector_state(env: AyoVectorEnv) -> tuple[object, ...]:
    """Every game of a batch and its arrays."""
    core = env._core
    return (
        tuple(core.records()),
        tuple(core.done()),
        core.obs.tobytes(),
        core.mask.tobytes(),
        core.reward.tobytes(),
        env._needs_reset,
    )


@fewer(400)
@given(data=st.data())
def test_vector_env(data: st.DataObject) -> None:
    valid = {
        "num_envs": st.integers(1, 4),
        "rules": st.sampled_from(PRESETS),
        "opponent": st.sampled_from(["random", "greedy", 1, None]),
        "agent_seat": seats,
        "perspective": perspectives,
        "reward": rewards,
        "illegal_action": illegals,
        "illegal_penalty": penalties,
        "max_episode_steps": st.one_of(st.none(), st.integers(1, 300)),
        "autoreset_mode": st.sampled_from(["NextStep", "SameStep", "Disabled"]),
        "num_threads": st.integers(0, 2),
    }
    junk = st.one_of(junk_text, junk_number, st.sampled_from([0, -1, 2**32, 2**64]))
    options = env_options(data, valid, junk)
    if options.get("opponent") == "max":
        options["opponent"] = "greedy"  # valid but slow
    ok, env = attempt(lambda: AyoVectorEnv(**options))
    made(ok, "batch")
    if not ok or env is None:
        return
    n = env.num_envs
    for _ in range(data.draw(st.integers(1, 8))):
        before = vector_state(env)
        if data.draw(st.booleans()):
            seed = data.draw(
                st.one_of(
                    st.none(),
                    st.integers(0, 2**64 - 1),
                    ints,
                    st.lists(st.one_of(st.none(), st.integers(0, 9), ints), max_size=n + 1),
                    anything,
                )
            )
            reset_options = data.draw(
                st.one_of(
                    st.none(),
                    st.fixed_dictionaries(
                        {
                            "reset_mask": st.lists(st.booleans(), min_size=n, max_size=n).map(
                                np.array
                            )
                        }
                    ),
                    st.fixed_dictionaries({"agent_seat": st.one_of(st.integers(0, 1), anything)}),
                    st.dictionaries(texts, anything, max_size=2),
                )
            )
            ok, _ = attempt(lambda: env.reset(seed=seed, options=reset_options))  # noqa: B023
        else:
            batch = data.draw(
                st.one_of(
                    st.lists(st.integers(0, 5), min_size=n, max_size=n).map(np.array),
                    st.lists(actions, min_size=0, max_size=n + 1),
                    st.lists(st.integers(-3, 8), min_size=n, max_size=n).map(
                        lambda a: np.array(a, dtype=np.int8)
                    ),
                    st.lists(st.floats(), min_size=n, max_size=n).map(np.array),
                    anything,
                )
            )
            ok, _ = attempt(lambda: env.step(batch))  # noqa: B023
        if not ok:
            assert vector_state(env) == before


def pettingzoo_state(env: Any) -> tuple[object, ...]:
    raw = env.unwrapped
    return (
        raw._core.__getstate__(),
        raw.agent_selection,
        tuple(sorted(raw.terminations.items())),
        tuple(sorted(raw._cumulative_rewards.items())),
    )


@fewer(400)
@given(data=st.data())
def test_pettingzoo_env(data: st.DataObject) -> None:
    valid = {
        "rules": st.sampled_from(PRESETS),
        "perspective": perspectives,
        "reward": rewards,
        "illegal_action": illegals,
        "illegal_reward": penalties,
        "max_plies": st.one_of(st.none(), st.integers(1, 300)),
        "render_mode": st.sampled_from([None, "ansi"]),
    }
    options = env_options(data, valid, st.one_of(junk_text, junk_number, ints))
    make: Any = data.draw(st.sampled_from([ayo.pettingzoo.env, ayo.pettingzoo.raw_env]))
    ok, env = attempt(lambda: make(**options))
    made(ok, "env")
    if not ok or env is None:
        return
    first_seed = data.draw(st.one_of(st.none(), st.integers(0, 99)))
    env.reset(seed=first_seed)
    for _ in range(data.draw(st.integers(1, 8))):
        before = pettingzoo_state(env)
        if data.draw(st.integers(0, 4)) == 0:
            seed = data.draw(st.one_of(st.none(), st.integers(0, 2**64), ints, anything))
            ok, _ = attempt(lambda: env.reset(seed=seed))  # noqa: B023
        else:
            action = data.draw(actions)
            ok, _ = attempt(lambda: env.step(action))  # noqa: B023
        if not ok:
            assert pettingzoo_state(env) == before


@fewer(400)
@given(data=st.data())
def test_episode_core(data: st.DataObject) -> None:
    """The core under both environments, called directly."""
    valid = {
        "rules": st.sampled_from(PRESETS),
        "opponent": st.sampled_from(["random", "self_play"]),
        "agent_seat": st.sampled_from(["0", "1", "alternate", "random"]),
        "perspective": perspectives,
        "reward": rewards,
        "illegal_action": illegals,
        "illegal_penalty": st.floats(-10, 10),
        "max_steps": st.one_of(st.none(), st.integers(1, 50)),
    }
    options = env_options(data, valid, st.one_of(junk_text, ints, st.floats(allow_nan=True)))
    rules = options.pop("rules", "ayoayo")
    ok, core = attempt(lambda: EpisodeCore(rules, **options))
    made(ok, "core")
    if not ok or core is None:
        return
    core.reset()
    for _ in range(data.draw(st.integers(1, 8))):
        before = core.__getstate__()
        call = data.draw(st.sampled_from(["step", "turn", "seed", "setstate", "observe_seat"]))
        arg = data.draw(actions if call in ("step", "turn") else st.one_of(ints, anything))
        if call == "step":
            ok, _ = attempt(lambda: core.step(arg))  # noqa: B023
        elif call == "turn":
            ok, _ = attempt(lambda: core.turn(arg))  # noqa: B023
        elif call == "seed":
            ok, _ = attempt(lambda: core.seed(arg))  # noqa: B023
        elif call == "observe_seat":
            ok, _ = attempt(lambda: core.observe_seat(arg))  # noqa: B023
        else:
            state = mutated(before, data)
            ok, _ = attempt(lambda: core.__setstate__(state))  # noqa: B023
        if not ok or call == "observe_seat":
            assert core.__getstate__() == before
