"""Random inputs at the boundary: only Python exceptions of the documented kinds,
never a Rust panic (pyo3's PanicException is a BaseException, not an Exception),
and a failed call never changes the game."""

from __future__ import annotations

import contextlib
import pickle
import random
import string

import pytest

import ayo

SEEDS = range(12)


REASONS = {
    "empty_pit",
    "endless_relay",
    "does_not_feed",
    "starves",
    "game_over",
    "not_movers_pit",
    "action_out_of_range",
    "pit_out_of_range",
    "truncated",
}
FIELDS = {
    "rules",
    "board",
    "stores",
    "to_move",
    "no_capture",
    "ply",
    "separator",
    "move",
    "position",
    "end",
}


def random_int(rng: random.Random) -> int:
    return rng.choice(
        [
            rng.randrange(-3, 15),
            rng.randrange(-(2**70), 2**70),
            rng.choice([0, 5, 6, 11, 12, 255, 256, 2**31, 2**63 - 1, 2**63, -(2**63) - 1]),
        ]
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_random_calls_keep_the_game_consistent(seed: int) -> None:
    rng = random.Random(seed)
    game = ayo.Game(rng.choice(ayo.Rules.presets()))
    for _ in range(400):
        before = game.record()
        what = rng.randrange(8)
        failure: ayo.AyoError | None = None
        try:
            if what == 0 and game.legal_moves():
                game.play(rng.choice(game.legal_moves()))
            elif what == 1:
                game.play(random_int(rng))
            elif what == 2:
                game.play_pit(random_int(rng))
            elif what == 3:
                game.undo()
            elif what == 4:
                game.trace(random_int(rng))
            elif what == 5:
                cap = rng.choice([None, random_int(rng)])
                game.ply_cap = cap
            elif what == 6:
                game.last_landing(random_int(rng))
            else:
                assert game.is_legal(random_int(rng)) in (True, False)
        except ayo.AyoError as e:
            failure = e
        if isinstance(failure, ayo.IllegalMoveError):
            assert failure.reason in REASONS
        elif failure is not None:
            assert what == 5  # a bad ply cap
        if failure is not None:
            assert game.record() == before
        # Whatever happened, the game is one the record and pickle reproduce.
        again = ayo.Game.from_record(game.record())
        assert again.position_record() == game.position_record()
        assert again.legal_moves() == game.legal_moves() or game.status == "truncated"
        assert pickle.loads(pickle.dumps(game)) == game


def mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(string.digits + ",/-| snx[]=é" + string.ascii_lowercase))
        elif chars:
            chars[min(i, len(chars) - 1)] = rng.choice(string.digits + " ,/|")
    return "".join(chars)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_records_raise_record_errors_only(seed: int) -> None:
    rng = random.Random(1000 + seed)
    game = ayo.Game(rng.choice(ayo.Rules.presets()))
    for _ in range(rng.randrange(3, 20)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    text = game.record()
    parsed = 0
    for _ in range(300):
        bad = mutate(text, rng)
        failure: ayo.RecordError | None = None
        try:
            other = ayo.Game.from_record(bad)
        except ayo.RecordError as e:
            failure = e
        if failure is not None:
            # Offsets index the Python str (characters, not UTF-8 bytes).
            assert failure.field in FIELDS
            assert 0 <= failure.offset <= len(bad)
            continue
        parsed += 1
        assert ayo.Game.from_record(other.record()) == other
        position = bad.split("|")[0]
        with contextlib.suppress(ayo.RecordError):
            ayo.Game(position=position)
    assert parsed < 300


@pytest.mark.parametrize("seed", SEEDS)
def test_random_rule_keywords(seed: int) -> None:
    rng = random.Random(2000 + seed)
    values: list[object] = [True, False, None, 0, 1, 3, 25, 60, 21, 22, -1, 2**40, "none", "x"]
    values += ["across", "two_three", "collect_four", "pit_owner", "strict", "own_side", 1.5]
    names = [*ayo.PARAM_NAMES, "bogus"]
    accepted = 0
    for _ in range(300):
        params = {rng.choice(names): rng.choice(values) for _ in range(rng.randrange(1, 4))}
        try:
            rules = ayo.Rules(rng.choice(ayo.Rules.presets()), **params)
        except ayo.RulesError:
            continue
        accepted += 1
        assert ayo.Rules.from_json(rules.to_json()) == rules
        assert ayo.Rules(str(rules)) == rules
        assert eval(repr(rules), {"Rules": ayo.Rules}) == rules
        game = ayo.Game(rules)
        assert sum(game.board.tolist()) == rules.total_seeds
    assert 0 < accepted < 300
