"""ayo.CountedDatabase and Player.perfect under a move limit (olopon, ayo).

Small layers, built in memory or into temporary folders. Values are checked
against a worked position and against the engine's own moves (a move's value
is its capture minus the value of the position it leads to, no-capture
count included), and perfect play against level 1 realises them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ayo import CountedDatabase, DatabaseError, Game
from ayo.ai import Player

# South's one move (pit 6) makes 2 in North's pit 1 and takes it (+2); North
# must feed its last seed into South's row; South cannot feed and keeps it (+1).
WORKED = "olopon 0,0,0,0,0,1/1,0,0,0,0,1 24-21 s 0 0"


@pytest.fixture(scope="module")
def olopon() -> CountedDatabase:
    return CountedDatabase.build("olopon", 6)


def test_the_worked_position_and_its_moves(olopon: CountedDatabase) -> None:
    assert olopon.key == "olopon[target=none]"
    assert (olopon.max_seeds, olopon.limit, olopon.layers) == (6, 40, list(range(7)))
    assert olopon.value(WORKED) == 3
    assert olopon.value("0,0,0,0,0,1/1,0,0,0,0,1 24-21 s 0 0") == 3  # rules left out
    game = Game.from_record(WORKED + " |")
    assert olopon.value(game) == 3
    p = Player.perfect(olopon, seed=1)
    assert p.name == "perfect(counted db<=6, nodes=2000000)"
    assert p.database is olopon
    a = p.analyze(game)
    assert p.source == "database"
    assert (a.basis, a.proof, a.proven, a.best) == ("proven", "database", 6, 5)
    assert p.choose(game) == 5


def test_values_agree_with_the_moves_and_the_count(olopon: CountedDatabase) -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 60:
        board = [0] * 12
        for _ in range(rng.randint(2, 6)):
            board[rng.randrange(12)] += 1
        rest = 48 - sum(board)
        count = rng.randrange(40)
        record = (
            f"olopon[target=none] {','.join(map(str, board[:6]))}/{','.join(map(str, board[6:]))} "
            f"{rest // 2}-{rest - rest // 2} s {count} {count} |"
        )
        game = Game.from_record(record)
        if game.is_over:
            continue
        value = olopon.value(game)
        assert value is not None
        best = None
        for action in game.legal_moves():
            child = game.copy()
            me = game.to_move
            child.play(action)
            gain = (int(child.stores[me]) - int(game.stores[me])) - (
                int(child.stores[1 - me]) - int(game.stores[1 - me])
            )
            rest_value = olopon.value(child)
            assert rest_value is not None
            v = gain - rest_value
            best = v if best is None else max(best, v)
        assert value == best
        checked += 1


def test_files_and_refusals(tmp_path: Path) -> None:
    built = CountedDatabase.build("ayo", 8, tmp_path, threads=1)
    assert built.layers == [0, 4, 8]  # collect-four captures take 4s
    assert built.dir == tmp_path
    opened = CountedDatabase.open("ayo", tmp_path)
    assert opened.layers == [0, 4, 8]
    assert CountedDatabase.open("ayo", tmp_path, max_seeds=4).layers == [0, 4]
    assert opened.value(Game("ayo"), nodes=10) is None  # 48 seeds: far above 8
    for solvable in ("olopon", "ayo"):
        assert CountedDatabase.solvable(solvable)
    for other in ("ayoayo", "oware"):
        assert not CountedDatabase.solvable(other)
    with pytest.raises(DatabaseError, match="move limit") as e:
        CountedDatabase.build("ayoayo", 2)
    assert e.value.reason == "unsupported_rules"
    with pytest.raises(DatabaseError) as e:
        CountedDatabase.open("ayo", tmp_path, max_seeds=12)
    assert e.value.reason == "missing"
    with pytest.raises(DatabaseError, match="rules"):
        opened.value(Game("olopon"))
    with pytest.raises(TypeError, match="Database"):
        Player.perfect("ayo")  # type: ignore[arg-type]


def test_perfect_realises_the_value_against_level_1(olopon: CountedDatabase) -> None:
    rng = random.Random(11)
    won = 0
    for trial in range(200):
        board = [0] * 12
        for _ in range(rng.randint(3, 6)):
            board[rng.randrange(12)] += 1
        rest = 48 - sum(board)
        record = (
            f"olopon[target=none] {','.join(map(str, board[:6]))}/{','.join(map(str, board[6:]))} "
            f"{rest // 2}-{rest - rest // 2} s 0 0 |"
        )
        game = Game.from_record(record)
        value = olopon.value(game)
        if game.is_over or value is None or value <= 0:
            continue
        start = [int(s) for s in game.stores]
        seats = {0: Player.perfect(olopon, seed=trial), 1: Player(1, seed=trial)}
        while game.status == "ongoing":
            game.play(seats[game.to_move].choose(game))
        outcome = game.outcome
        assert outcome is not None
        gained = (outcome.scores[0] - start[0]) - (outcome.scores[1] - start[1])
        assert gained >= value, game.record()
        won += 1
    assert won > 20


def test_verify_checks_every_count_of_every_layer(olopon: CountedDatabase) -> None:
    # Layers 0..=6: C(18, 12) = 18,564 boards, at each of the 41 counts 0..=40.
    assert olopon.verify() == (18_564 * 41, 0)
    assert olopon.verify(threads=1) == (18_564 * 41, 0)
    with pytest.raises(ValueError, match="threads"):
        olopon.verify(threads=-1)


def test_move_values_agree_with_value_and_the_moves(olopon: CountedDatabase) -> None:
    small = CountedDatabase.build("olopon", 3)
    rng = random.Random(9)
    checked = 0
    while checked < 40:
        board = [0] * 12
        for _ in range(rng.randint(1, 6)):
            board[rng.randrange(12)] += 1
        rest = 48 - sum(board)
        count = rng.randrange(41)
        mover = rng.choice("sn")
        record = (
            f"olopon[target=none] {','.join(map(str, board[:6]))}/{','.join(map(str, board[6:]))} "
            f"{rest // 2}-{rest - rest // 2} {mover} {count} {count}"
        )
        game = Game(position=record)
        moves = olopon.move_values(game)
        assert moves is not None
        assert sorted(moves) == sorted(game.legal_moves())
        # Searched above smaller layers: the same values.
        assert small.move_values(game, nodes=None) == moves
        if moves:
            assert max(moves.values()) == olopon.value(game)
        for action, v in moves.items():
            child = game.copy()
            me = game.to_move
            child.play(action)
            gain = (int(child.stores[me]) - int(game.stores[me])) - (
                int(child.stores[1 - me]) - int(game.stores[1 - me])
            )
            rest_value = olopon.value(child)
            assert rest_value is not None
            assert v == gain - rest_value
        checked += 1
    # Out of budget above the layers: None; bad budgets and other rules refused.
    above = "olopon 1,1,1,0,0,0/0,0,1,1,1,0 21-21 s 0 0"
    assert small.move_values(above, nodes=1) is None
    assert small.move_values(above.removeprefix("olopon "), nodes=None) == olopon.move_values(above)
    with pytest.raises(ValueError, match="nodes"):
        small.move_values(above, nodes=0)
    with pytest.raises(DatabaseError, match="rules"):
        small.move_values(Game("ayo"))
