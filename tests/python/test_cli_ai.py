"""ayo.ai: the Rust players from Python (levels, kinds, analysis, GIL, env opponent)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest
from cli_run import ayo_command as ayo_cli

import ayo
from ayo import Database, Game
from ayo.ai import Player, levels
from ayo.cli.analyze import move_text, signed
from ayo.envs import AyoEnv


def self_play(rules: str, south: Player, north: Player, cap: int = 400) -> Game:
    game = Game(rules)
    game.ply_cap = cap
    seats = (south, north)
    while game.status == "ongoing":
        action = seats[game.to_move].choose(game)
        assert game.is_legal(action)
        game.play(action)
    return game


def test_levels_and_their_players() -> None:
    assert levels() == ["1", "2", "3", "4", "5", "6", "7", "8", "max"]
    assert Player().level == "4"
    assert Player("MAX").level == "max"
    p = Player(3, seed=9)
    assert (p.level, p.seed) == ("3", 9)
    assert p.name == Player.describe_level(3)
    assert p.name.startswith(f"3: {p.kind}")
    assert Player.describe_level(1) == "1: random"
    q = Player.from_kind("alphabeta", nodes=5000, seed=2)
    assert (q.level, q.kind, q.budget, q.seed) == (None, "alphabeta", "nodes=5000", 2)
    assert Player.from_kind("mcts", time=0.25).budget == "time=250ms"
    assert Player.from_kind("greedy").budget == "depth=4"  # the default, unused by greedy


@pytest.mark.parametrize("bad", ["zz", 0, 9, -1, 3.5, None])
def test_a_bad_level_is_an_ayo_error(bad: object) -> None:
    with pytest.raises(ayo.AyoError, match="level"):
        Player.describe_level(bad)  # type: ignore[arg-type]
    if bad is not None:  # Player(None) is level 4
        with pytest.raises(ayo.AyoError, match="level"):
            Player(bad)  # type: ignore[arg-type]


def test_level_perfect_needs_a_database() -> None:
    with pytest.raises(ayo.AyoError, match=r"Database\.open"):
        Player("perfect")


@pytest.mark.parametrize("rules", ["ayoayo", "ayo", "olopon", "oware"])
def test_same_seed_same_games(rules: str) -> None:
    def pair() -> tuple[Player, Player]:
        return Player("3", seed=5), Player.from_kind("mcts", nodes=300, seed=8)

    first = self_play(rules, *pair())
    second = self_play(rules, *pair())
    assert first.record() == second.record()
    assert len(first.moves) > 4


def test_random_level_depends_on_its_seed() -> None:
    records = {
        self_play("ayo", Player(1, seed=s), Player(1, seed=s + 100)).record() for s in range(4)
    }
    assert len(records) == 4


def test_analysis_agrees_with_choose() -> None:
    game = Game("oware")
    for action in (2, 3, 1):
        game.play(action)
    a = Player.from_kind("alphabeta", depth=6, seed=2).analyze(game)
    chosen = Player.from_kind("alphabeta", depth=6, seed=2).choose(game)
    assert a.best == chosen
    assert a.pv[0] == a.best
    assert isinstance(a.pv, list)  # not bytes
    assert [m.action for m in a.moves] == game.legal_moves()
    best = next(m for m in a.moves if m.action == a.best)
    assert best.value == pytest.approx(a.value)
    assert a.bound in ("exact", "lower", "upper", "estimate")
    assert a.depth == 6
    assert a.nodes > 0
    # The search's own values (full windows): no move is worth more than the best one.
    exact = [m.value for m in a.moves if m.bound == "exact"]
    assert max(exact) <= a.value + 1e-9


def test_analysis_of_a_finished_game() -> None:
    game = self_play("ayo", Player(1, seed=1), Player(1, seed=2))
    assert game.outcome is not None
    a = Player(2).analyze(game)
    assert a.best is None
    assert a.moves == []
    with pytest.raises(ayo.AyoError, match="over"):
        Player(2).choose(game)


def test_a_game_stopped_at_its_ply_cap_has_no_move_to_choose() -> None:
    game = Game("oware")
    game.play(0)
    game.ply_cap = 1
    assert game.status == "truncated"
    for level in (1, 2, 4):
        with pytest.raises(ayo.AyoError, match="ply cap"):
            Player(level).choose(game)
    # The analysis looks past the cap: the position still has moves.
    a = Player(4).analyze(game)
    assert a.best is not None
    assert [m.action for m in a.moves] == Game.from_record(game.record()).legal_moves()


def test_a_proven_win_is_reported_in_seeds() -> None:
    # South's 6 makes 2 in North's 1: a capture of 2 that reaches the target,
    # and South's only move.
    board = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1]
    game = Game.from_setup("oware", board, (24, 21), to_move=0)
    a = Player.from_kind("alphabeta", depth=4).analyze(game)
    assert a.best == 5
    assert (a.basis, a.proof, a.label) == (
        "proven",
        "complete search",
        "proven by a complete search",
    )
    assert a.proven is not None
    assert a.proven > 0
    assert a.text == f"win by {a.proven}"
    assert a.value == pytest.approx(a.proven)
    game.play(5)
    assert game.outcome is not None
    assert game.outcome.reason == "target"
    south, north = game.outcome.scores
    assert a.proven == south - north


def test_a_win_beside_unfinished_searches_is_a_proven_lower_bound() -> None:
    # South's 6 (two seeds) captures 2 + 3 and reaches 26: a win at once. The
    # other move's search stops at its depth, so the position is proven to
    # be worth at least the win, not exactly it.
    board = [1, 0, 0, 0, 0, 2, 1, 2, 4, 4, 4, 4]
    game = Game.from_setup("oware", board, (21, 5), to_move=0)
    a = Player.from_kind("alphabeta", depth=3).analyze(game)
    assert a.best == 5
    other, win = a.moves
    assert (win.basis, win.proof, win.proven, win.text) == ("proven", "complete search", 21, a.text)
    assert (other.basis, other.proof, other.proven) == ("search", None, None)
    assert other.label == f"search, depth {a.depth}"
    assert (a.basis, a.bound, a.proof, a.proven) == ("lower", "lower", "complete search", None)
    assert a.label == "at least, proven"


START = "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"


def test_the_opening_searched_to_a_depth_is_not_called_exact(tmp_path: Path) -> None:
    # The solved value of the start is +6 (docs/solving.md); level max's
    # search to its depth says something else, and says that it is a search.
    game = Game(position=START)
    a = Player("max").analyze(game)
    assert a.best is not None
    assert (a.basis, a.proof, a.proven) == ("search", None, None)
    assert a.label == f"search, depth {a.depth}"
    assert all((m.basis, m.label, m.proven) == ("search", a.label, None) for m in a.moves)
    proc = ayo_cli(["analyze", START, "--level", "max"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "exact" not in out
    assert "proven" not in out.replace("Not proven", "").replace("not proven", "")
    # A search's value is a number, never the words of a result ("win by 24").
    assert "win by" not in out
    assert "lose by" not in out
    best = f"{a.label}: {signed(a.value)} for South, not proven"
    assert f"Best move: {a.best + 1} (South); {best}." in out
    for m in a.moves:
        assert f"  {m.action + 1}: {signed(m.value):>12} ({a.label})" in out
    assert f"Not proven: the search looks {a.depth} plies ahead" in out
    # MCTS gives estimates.
    e = Player.from_kind("mcts", nodes=200, seed=1).analyze(game)
    assert (e.basis, e.bound, e.label) == ("estimate", "estimate", "estimate, 200 simulations")


@pytest.fixture(scope="module")
def small_databases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("db")
    Database.build("ayoayo", 6, folder)
    return folder


def test_an_endgame_in_the_databases_is_proven(small_databases: Path, tmp_path: Path) -> None:
    # South's 5 (one seed) sows into North's 1 (two seeds), making 3: 23-22
    # now, +3 to come with best play.
    position = "ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0"
    player = Player.perfect(Database.open("ayoayo", small_databases), seed=1)
    a = player.analyze(Game(position=position))
    assert player.source == "database"
    assert (a.basis, a.proof, a.proven, a.label) == (
        "proven",
        "database",
        4,
        "proven by the databases",
    )
    assert all(m.basis == "proven" and m.proof == "database" for m in a.moves)
    proc = ayo_cli(
        ["analyze", position, "--level", "perfect", "--db", str(small_databases)], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert f"value {a.text} for South (proven by the databases)." in proc.stdout
    assert "Proven: every move's value read from the databases." in proc.stdout


def test_a_value_by_the_convention_is_not_called_proven(tmp_path: Path) -> None:
    # The best move goes to a board whose value depends on endless play.
    position = "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0"
    folder = tmp_path / "kept"
    Database.build("ayoayo[capturing_seed_taken=false]", 5, folder)
    proc = ayo_cli(["analyze", position, "--level", "perfect", "--db", str(folder)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "for South (by the convention for endless play)." in proc.stdout
    assert "(proven by the databases)" in proc.stdout  # the other move
    assert "Not proven where it says so" in proc.stdout
    assert "Proven:" not in proc.stdout


def test_the_perfect_hint_at_the_opening_says_it_fell_back(
    small_databases: Path, tmp_path: Path
) -> None:
    player = Player.perfect(Database.open("ayoayo", small_databases), seed=1)
    assert player.fallback == "level max (alphabeta(nodes=300000))"
    assert Player("max").fallback is None
    a = player.analyze(Game(position=START))
    assert player.source == "fallback"
    assert a.basis == "search"
    assert a.best is not None
    fell_back = (
        "Level perfect fell back to level max (alphabeta(nodes=300000)): neither its "
        "databases nor its exact search within the budget could answer here."
    )
    proc = ayo_cli(
        ["play", "--rules", "ayoayo", "--level", "perfect", "--db", str(small_databases)],
        tmp_path,
        "h\nq\n",
    )
    assert proc.returncode == 0, proc.stderr
    value = move_text(a.text, a.value, a.basis)
    assert f"Hint: play {a.best + 1} (value {value} seeds; {a.label})." in proc.stdout
    assert fell_back in " ".join(proc.stdout.split())
    assert "exact" not in proc.stdout.replace("exact search", "")
    proc = ayo_cli(["analyze", START, "--level", "perfect", "--db", str(small_databases)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"; {a.label}: {signed(a.value)} for South, not proven." in proc.stdout
    assert fell_back in proc.stdout


def test_bad_players_are_ayo_errors() -> None:
    with pytest.raises(ayo.AyoError, match="not a level"):
        Player(9)
    with pytest.raises(ayo.AyoError, match="not a level"):
        Player("strong")
    with pytest.raises(ayo.AyoError, match="not a kind"):
        Player.from_kind("minimax")  # type: ignore[arg-type]
    with pytest.raises(ayo.AyoError, match="at most one"):
        Player.from_kind("alphabeta", depth=3, nodes=100)
    with pytest.raises(ayo.AyoError, match="at least 1"):
        Player.from_kind("mcts", nodes=0)
    with pytest.raises(ayo.AyoError, match=r"an ayo\.Game"):
        Player(2).choose("oware")  # type: ignore[arg-type]


def test_choose_releases_the_gil() -> None:
    player = Player.from_kind("alphabeta", time=0.4, seed=1)
    game = Game("ayoayo")
    thread = threading.Thread(target=player.choose, args=(game,))
    gaps: list[float] = []
    thread.start()
    last = time.perf_counter()
    while thread.is_alive():
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    thread.join()
    assert len(gaps) > 1000  # this thread kept running during the search
    assert max(gaps) < 0.2


def test_a_player_is_an_environment_opponent() -> None:
    env = AyoEnv(rules="olopon", opponent=Player(2, seed=3))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    done = False
    steps = 0
    while not done:
        mask = info["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert steps > 1
    assert isinstance(ayo.ai.Player(2), Player)
