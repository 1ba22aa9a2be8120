"""ayo.Database and Player.perfect: endgame databases and the perfect level from Python.

Databases of at most 8 seeds, built into temporary folders. Values are checked
against the engine's own moves (every move's value is its capture minus the
value of the position it leads to) and perfect play is checked to realise
the databases' values against a weaker player.
"""

from __future__ import annotations

import math
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

import ayo
from ayo import Database, DatabaseError, Game, RecordError, Rules
from ayo.ai import Player
from ayo.envs import AyoEnv

MAX_SEEDS = 8
# South to move: sowing pit 5's seed into empty pit 6... (absolute pit 4 into 5)
# captures North's 2 facing seeds and the capturing seed: +3, then nothing is left.
WON = "ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0"


def layer_size(n: int) -> int:
    return math.comb(n + 11, 11)


@pytest.fixture(scope="module")
def db_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("db")
    Database.build("ayoayo", MAX_SEEDS, folder)
    return folder


@pytest.fixture(scope="module")
def db(db_dir: Path) -> Database:
    return Database.open("ayoayo", db_dir)


def random_position(
    rng: random.Random, seeds: int, rules: Rules, to_move: int | None = None
) -> Game:
    """A game at a random board of ``seeds`` seeds with stores that share the rest."""
    board = [0] * 12
    for _ in range(seeds):
        board[rng.randrange(12)] += 1
    rest = 48 - seeds
    south = rng.randint(max(0, rest - 24), min(24, rest))
    mover = rng.randrange(2) if to_move is None else to_move
    return Game.from_setup(rules, board, (south, rest - south), to_move=mover)


def source_of(player: Player) -> str | None:
    """``player.source``, read afresh (it changes with every call)."""
    return player.source


# ------------------------------------------------------------------ building and opening


def test_build_writes_every_layer_and_reports_it(tmp_path: Path) -> None:
    built = Database.build(Rules("ayoayo"), 6, tmp_path / "db", threads=1)
    assert built.max_seeds == 6
    assert built.key == "ayoayo[target=none]"
    assert built.rules == Rules("ayoayo", target=None)
    assert built.dir == tmp_path / "db"
    assert built.positions == sum(layer_size(n) for n in range(7))
    files = sorted((tmp_path / "db").glob("*.ayodb"))
    assert len(files) == 7
    reports = built.reports
    assert [r.n for r in reports] == list(range(7))
    assert [r.positions for r in reports] == [layer_size(n) for n in range(7)]
    assert not any(r.reused for r in reports)
    assert all(r.passes >= 1 and r.seconds >= 0 for r in reports)
    assert reports[0].stuck == 1  # the empty board
    assert sum(r.inner_moves for r in reports) > 0
    assert "LayerReport(n=6" in repr(reports[6])

    # Resumable: a second build reuses every finished file, and gives the same values.
    again = Database.build("ayoayo", 6, tmp_path / "db")
    assert all(r.reused for r in again.reports)
    for f in files:
        assert f.read_bytes() == (tmp_path / "db" / f.name).read_bytes()
    # In memory (no folder), on the global pool: the same values.
    memory = Database.build("ayoayo", 6)
    assert memory.dir is None
    rng = random.Random(5)
    for _ in range(50):
        g = random_position(rng, rng.randint(0, 6), Rules("ayoayo"))
        assert memory.value(g) == again.value(g) == built.value(g)


def test_open_reads_the_layers_found(db_dir: Path, db: Database) -> None:
    assert db.max_seeds == MAX_SEEDS
    assert db.reports == []
    assert "max_seeds=8" in repr(db)
    low = Database.open(Rules("ayoayo", target=30), db_dir, max_seeds=4)  # any target
    assert low.max_seeds == 4
    with pytest.raises(DatabaseError, match="no database layer for 9 seeds") as e:
        Database.open("ayoayo", db_dir, max_seeds=9)
    assert e.value.reason == "missing"
    assert e.value.path is not None
    assert e.value.path.endswith(".n09.ayodb")


def test_verify_checks_every_position(db: Database) -> None:
    report = db.verify()
    assert report.ok
    assert report.failed == 0
    assert report.failures == []
    assert report.checked == db.positions == sum(layer_size(n) for n in range(MAX_SEEDS + 1))
    assert report.exact + report.cycle_scored == report.checked
    top = db.verify(from_seeds=MAX_SEEDS, threads=1)
    assert top.checked == layer_size(MAX_SEEDS)
    with pytest.raises(ValueError, match="threads"):
        db.verify(threads=-1)  # 0 is every core (test_threads_budget.py)


# ------------------------------------------------------------------ values


def test_value_of_a_known_position(db: Database) -> None:
    game = Game(position=WON)
    assert db.value(game) == 3
    assert db.value(WON) == 3
    assert db.value("0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0") == 3  # rules field left out
    assert db.move_values(game) == {4: 3}
    # The same board with North to move (North's pit 1 sows into its empty 2... and
    # captures nothing useful): values are for the player to move.
    game.play(4)
    assert db.value(game) == 0  # the board is empty
    assert db.move_values(game) == {}


def test_every_move_value_is_its_capture_minus_the_value_after_it(db: Database) -> None:
    rng = random.Random(11)
    rules = Rules("ayoayo", target=None)
    checked = 0
    for _ in range(200):
        game = random_position(rng, rng.randint(1, MAX_SEEDS), rules)
        moves = db.move_values(game)
        assert moves is not None
        assert list(moves) == game.legal_moves()
        value = db.value(game)
        assert value is not None
        if moves:
            assert value == max(moves.values())
        me = game.to_move
        for action, v in moves.items():
            after = game.copy()
            after.play(action)
            gain = (int(after.stores[me]) - int(game.stores[me])) - (
                int(after.stores[1 - me]) - int(game.stores[1 - me])
            )
            rest = db.value(after)
            assert rest is not None
            assert v == gain - rest
            checked += 1
    assert checked > 300


def test_values_above_the_databases_are_searched_within_a_budget(db: Database) -> None:
    # Many boards above the databases are solved within a small budget (each
    # call searches afresh; a move's exact value may need far more nodes than
    # the position's, as alpha-beta only bounds the moves it rejects). When
    # both answer, the value is the best move's.
    rng = random.Random(3)
    solved = 0
    for _ in range(30):
        game = random_position(rng, MAX_SEEDS + 2, Rules("ayoayo"))
        moves = db.move_values(game, nodes=50_000)
        value = db.value(game, nodes=50_000)
        if moves and value is not None:
            assert value == max(moves.values()), game.record()
            solved += 1
    assert solved >= 10
    # The start (48 seeds) cannot be solved in 1000 nodes over 8-seed layers.
    assert db.value(Game("ayoayo"), nodes=1000) is None
    assert db.move_values(Game("ayoayo"), nodes=1000) is None
    with pytest.raises(ValueError, match="nodes"):
        db.value(game, nodes=0)


# The independent analysis' example: +1 by the convention, and no capture can
# go round for ever in its own layer, but a capture leads to a 4-seed board
# whose value depends on endless play: anything from -1 to +3.
KEPT_SEED = "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0"


def test_bounds_under_every_scoring_of_endless_play(db: Database) -> None:
    kept = Database.build("ayoayo[capturing_seed_taken=false]", 5)
    assert kept.value(KEPT_SEED) == 1
    assert kept.bounds(KEPT_SEED) == (-1, 3)
    assert kept.bounds(Game(position=KEPT_SEED)) == (-1, 3)
    # The same board, North to move.
    north = "ayoayo[capturing_seed_taken=false] 0,1,0,1,0,1/1,0,0,1,0,0 21-22 n 0 0"
    assert kept.bounds(north) == (-1, 3)
    reports = kept.reports
    assert reports[4].convention_dependent >= reports[4].cycle_scored > 0
    assert reports[5].convention_dependent > reports[5].cycle_scored
    report = kept.verify()
    assert report.ok
    assert report.convention_dependent == sum(r.convention_dependent for r in reports)
    # ayoayo to 8 seeds: nothing depends on endless play, lo == hi == value.
    assert db.bounds(WON) == (3, 3)
    with pytest.raises(DatabaseError, match="48 seeds; these databases hold up to") as e:
        db.bounds(Game("ayoayo"))
    assert e.value.reason == "not_held"
    with pytest.raises(DatabaseError, match="these databases are for") as e:
        kept.bounds(WON)
    assert e.value.reason == "rules_mismatch"


def test_perfect_values_an_open_board_by_the_convention() -> None:
    kept = Database.build("ayoayo[capturing_seed_taken=false]", 5)
    p = Player.perfect(kept, nodes=100_000, seed=1)
    game = Game(position=KEPT_SEED)
    a = p.analyze(game)
    assert p.source == "database"
    # The best move goes to an open board: its value, and so the position's,
    # is the convention's (the stored value, 22 - 21 banked), not proven.
    assert (a.basis, a.bound, a.proof, a.proven) == ("convention", "exact", None, None)
    assert a.label == "by the convention for endless play"
    stored = kept.value(KEPT_SEED)
    assert stored is not None
    assert a.value == 1 + stored
    bases = sorted(m.basis for m in a.moves)
    assert bases == ["convention", "proven"]
    for m in a.moves:
        assert (m.proven is None) == (m.basis == "convention")
        assert m.proof == (None if m.basis == "convention" else "database")


def test_positions_of_other_rules_or_bad_records_are_refused(db: Database) -> None:
    with pytest.raises(DatabaseError, match="move limit") as e:
        db.value(Game("olopon"))
    assert e.value.reason == "unsupported_rules"
    assert e.value.path is None
    own = Game(Rules("ayoayo", stuck_seeds="own_side"))
    with pytest.raises(DatabaseError, match="these databases are for") as e:
        db.value(own)
    assert e.value.reason == "rules_mismatch"
    with pytest.raises(RecordError):
        db.value("ayoayo 1,2,3 0-0 s 0 0")
    with pytest.raises(ValueError, match="position record"):
        db.value(42)  # type: ignore[arg-type]


# ------------------------------------------------------------------ errors


def test_a_damaged_file_is_refused_and_never_overwritten(db_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "damaged"
    shutil.copytree(db_dir, folder)
    victim = next(folder.glob("*.n05.ayodb"))
    data = bytearray(victim.read_bytes())
    data[-7] ^= 0x01  # a value byte
    victim.write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match="checksum mismatch") as e:
        Database.open("ayoayo", folder)
    assert e.value.reason == "data_checksum"
    assert e.value.path == str(victim)
    assert isinstance(e.value, ValueError)
    assert str(victim) in str(e.value)
    with pytest.raises(DatabaseError, match="checksum"):
        Database.build("ayoayo", MAX_SEEDS, folder)
    assert victim.read_bytes() == bytes(data)
    # A damaged header.
    data = bytearray(victim.read_bytes())
    data[-7] ^= 0x01
    data[9] ^= 0x40  # inside the format version
    victim.write_bytes(bytes(data))
    with pytest.raises(DatabaseError) as e:
        Database.open("ayoayo", folder)
    assert e.value.reason in ("version", "header_checksum")
    # Not a database at all.
    victim.write_bytes(b"hello")
    with pytest.raises(DatabaseError) as e:
        Database.open("ayoayo", folder)
    assert e.value.reason in ("bad_magic", "truncated_header")


def test_unsolvable_rules_and_missing_folders(tmp_path: Path) -> None:
    assert Database.solvable("ayoayo")
    assert Database.solvable(Rules("ayoayo", capturing_seed_taken=False))
    assert Database.solvable("oware")
    for preset in ("ayo", "olopon"):
        assert not Database.solvable(preset)
    with pytest.raises(DatabaseError, match="cannot be solved by seed layers") as e:
        Database.build("olopon", 4, tmp_path / "olopon")
    assert e.value.reason == "unsupported_rules"
    with pytest.raises(DatabaseError, match="move limit"):
        Database.open("ayo", tmp_path)
    with pytest.raises(DatabaseError, match="no database layer for 0 seeds") as e:
        Database.open("ayoayo", tmp_path / "nowhere")
    assert e.value.reason == "missing"
    with pytest.raises(ValueError, match="threads"):
        Database.build("ayoayo", 2, threads=1025)  # at most 1024
    assert issubclass(DatabaseError, ayo.AyoError)


# ------------------------------------------------------------------ the perfect player


def test_perfect_player_describes_itself(db: Database) -> None:
    p = Player.perfect(db, seed=4)
    assert (p.level, p.kind, p.seed, p.budget) == ("perfect", "perfect", 4, "nodes=2000000")
    assert p.name == f"perfect(db<={MAX_SEEDS}, nodes=2000000)"
    assert p.source == "none"
    assert p.database is db  # shared, not copied
    assert Player.perfect(db, nodes=500).budget == "nodes=500"
    assert Player.perfect(db, time=0.25).budget == "time=250ms"
    assert Player(3).source is None
    assert Player(3).database is None
    assert Player.describe_level("perfect").startswith("perfect:")
    with pytest.raises(ValueError, match="at most one"):
        Player.perfect(db, nodes=10, time=1.0)
    with pytest.raises(ValueError, match="at least 1"):
        Player.perfect(db, nodes=0)
    with pytest.raises(ValueError, match=r"Player\.perfect"):
        Player("perfect")


def test_perfect_analysis_is_the_databases_values(db: Database) -> None:
    rng = random.Random(8)
    rules = Rules("ayoayo")
    p = Player.perfect(db, seed=1)
    for _ in range(40):
        game = random_position(rng, rng.randint(1, MAX_SEEDS), rules)
        if game.is_over or not game.legal_moves():
            continue
        a = p.analyze(game)
        assert p.source == "database"
        moves = db.move_values(game)
        assert moves is not None
        me = game.to_move
        banked = int(game.stores[me]) - int(game.stores[1 - me])
        assert a.bound == "exact"
        # Final seed differences (a draw is 0 with no `proven` margin).
        assert a.value == banked + max(moves.values())
        assert a.proven in (None, banked + max(moves.values()))
        assert {m.action: m.value for m in a.moves} == {k: banked + v for k, v in moves.items()}
        assert a.best is not None
        assert moves[a.best] == max(moves.values())
        assert p.choose(game) == a.best


def test_perfect_realises_database_wins_against_level_1(db: Database) -> None:
    rng = random.Random(2026)
    rules = Rules("ayoayo", target=None)  # play to the end: the margin is the final score
    won = 0
    for trial in range(300):
        game = random_position(rng, rng.randint(3, MAX_SEEDS), rules)
        if not game.legal_moves():
            continue
        value = db.value(game)
        assert value is not None
        if value <= 0:
            continue
        me = game.to_move
        banked = int(game.stores[me]) - int(game.stores[1 - me])
        seats = {me: Player.perfect(db, seed=trial), 1 - me: Player(1, seed=trial)}
        game.ply_cap = 2000
        while game.status == "ongoing":
            mover = game.to_move
            action = seats[mover].choose(game)
            assert game.is_legal(action)
            if mover == me:
                assert seats[me].source == "database"
            game.play(action)
        outcome = game.outcome
        assert outcome is not None, game.record()
        margin = outcome.scores[me] - outcome.scores[1 - me]
        assert margin >= banked + value, game.record()
        won += 1
        if won == 25:
            break
    assert won == 25


def test_perfect_plays_legal_moves_and_searches_above_the_databases(db: Database) -> None:
    rng = random.Random(17)
    game = random_position(rng, MAX_SEEDS + 2, Rules("ayoayo", target=None), to_move=0)
    p = Player.perfect(db, nodes=50_000, seed=3)
    q = Player(3, seed=3)
    game.ply_cap = 400
    sources = set()
    while game.status == "ongoing":
        player = p if game.to_move == 0 else q
        action = player.choose(game)
        assert game.is_legal(action)
        if player is p:
            sources.add(p.source)
        game.play(action)
    assert "search" in sources
    assert sources <= {"search", "database", "fallback"}


def test_perfect_falls_back_to_level_max(db: Database) -> None:
    # Rules the databases cannot answer: level max with the same seed.
    for seed in (0, 5):
        game = Game("oware")
        game.play(2)
        p = Player.perfect(db, seed=seed)
        assert p.choose(game) == Player("max", seed=seed).choose(game)
        assert p.source == "fallback"
        a = p.analyze(game)
        assert p.source == "fallback"
        q = Player("max", seed=seed)
        q.choose(game)  # the same calls, in the same order
        b = q.analyze(game)
        assert (a.best, a.value, list(a.pv)) == (b.best, b.value, list(b.pv))
    # The budget runs out (the start of ayoayo over 8-seed layers): level max too.
    start = Game("ayoayo")
    p = Player.perfect(db, nodes=1000, seed=2)
    assert p.choose(start) == Player("max", seed=2).choose(start)
    assert p.source == "fallback"
    # A finished game: no answer.
    done = Game(position="ayoayo 0,0,0,0,0,0/0,0,0,0,0,0 24-24 s 0 0")
    assert p.analyze(done).best is None
    assert source_of(p) == "none"


def test_same_seed_same_games(db: Database) -> None:
    def game_of(seed: int) -> str:
        game = Game("ayoayo")
        game.ply_cap = 60
        seats = (Player.perfect(db, nodes=2000, seed=seed), Player(2, seed=seed))
        while game.status == "ongoing":
            game.play(seats[game.to_move].choose(game))
        return game.record()

    assert game_of(7) == game_of(7)


def test_perfect_is_an_environment_opponent(db: Database) -> None:
    # The opponent moves first (the agent sits North) and its moves are the
    # player's: the env's game continues the same way as a copy of the player.
    opponent = Player.perfect(db, nodes=500, seed=1)
    env = AyoEnv(rules="ayoayo", opponent=opponent, agent_seat=1)
    _, info = env.reset(seed=0)
    assert opponent.source == "fallback"  # the start is far above 8 seeds
    shadow = Player.perfect(db, nodes=500, seed=1)
    game = Game("ayoayo")
    game.play(shadow.choose(game))
    for _ in range(3):
        action = int(np.flatnonzero(info["action_mask"])[0])
        game.play(action)
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        game.play(shadow.choose(game))
        assert np.array_equal(info["action_mask"], game.action_mask())
