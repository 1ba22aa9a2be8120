"""``ayo solve build/verify/value`` and level ``perfect`` in ``ayo play``/``analyze``.

The program runs as a real process (python -m ayo.cli), with its data folder
(and so its default databases folder) in a temporary directory. Databases
of at most 8 seeds. Expectations come from ayo.Database, not fixed text.
"""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest
from cli_run import ayo_command as run

from ayo import Database, Game
from ayo.cli import main

WON = "ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0"
# North to move, 8 seeds: several moves with different values.
MIXED = "ayoayo 0,1,0,2,1,0/2,0,1,0,0,1 20-20 n 0 0"
HINT = "ayo solve build --rules ayoayo --max-seeds 20"


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr
    assert "Traceback" not in proc.stdout


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The single ``ayo: ...`` line of a failed run."""
    no_traceback(proc)
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("ayo: ")
    return lines[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the ayoayo databases to 8 seeds, built by ``ayo solve build``."""
    home = tmp_path_factory.mktemp("home")
    folder = home / "db"
    proc = run(
        ["solve", "build", "--rules", "ayoayo", "--max-seeds", "8", "--dir", str(folder), "-q"],
        home,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [x.split(":")[0] for x in lines[:9]] == [f"layer {n:2}" for n in range(9)]
    for n, line in enumerate(lines[:9]):
        assert f"{math.comb(n + 11, 11):,} positions" in line
        assert "passes" in line
    assert lines[9].startswith("built layers 0..=8 of ayoayo[target=none]: 125,970 positions")
    assert proc.stderr == ""  # --quiet: no progress
    assert len(list(folder.glob("*.ayodb"))) == 9
    return folder


def test_build_is_resumable_and_shows_progress_on_stderr(built: Path, tmp_path: Path) -> None:
    proc = run(["solve", "build", "--max-seeds", "8", "--dir", str(built)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("reused from file") == 9
    # Two more layers, with the progress report (a line per layer) on stderr.
    folder = tmp_path / "small"
    proc = run(["solve", "build", "--max-seeds", "3", "--dir", str(folder)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    assert "layer  3:" in proc.stderr
    assert "built layers 0..=3" in proc.stdout
    assert "s on every core" in proc.stdout
    proc = run(
        ["solve", "build", "--max-seeds", "5", "--dir", str(folder), "--threads", "1", "-q"],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("reused from file") == 4
    assert "on 1 thread;" in proc.stdout
    assert Database.open("ayoayo", folder).max_seeds == 5


def test_default_folder_is_ayo_db_dir_else_the_data_folder(tmp_path: Path) -> None:
    proc = run(["solve", "build", "--max-seeds", "2", "-q"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(list((tmp_path / "data" / "db").glob("*.ayodb"))) == 3
    assert f"files in {tmp_path / 'data' / 'db'}" in proc.stdout
    elsewhere = tmp_path / "elsewhere"
    proc = run(
        ["solve", "build", "--max-seeds", "1", "-q"],
        tmp_path,
        extra_env={"AYO_DB_DIR": str(elsewhere)},
    )
    assert proc.returncode == 0, proc.stderr
    assert len(list(elsewhere.glob("*.ayodb"))) == 2
    proc = run(["solve", "verify", "-q"], tmp_path, extra_env={"AYO_DB_DIR": str(elsewhere)})
    assert proc.returncode == 0, proc.stderr
    assert "verified layers 0..=1" in proc.stdout


def test_verify(built: Path, tmp_path: Path) -> None:
    proc = run(["solve", "verify", "--rules", "ayoayo", "--dir", str(built), "-q"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    expected = "125,970 positions, 125,970 exact, 0 cycle-scored, 0 convention-dependent, 0 failed"
    assert expected in proc.stdout
    proc = run(["solve", "verify", "--dir", str(built), "--from-seeds", "8", "-q"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"verified layers 8..=8 of ayoayo[target=none] in {built}: 75,582 positions" in (
        proc.stdout
    )


@pytest.mark.parametrize("text", [WON, MIXED])
def test_value_prints_the_exact_value_and_every_move(
    built: Path, tmp_path: Path, text: str
) -> None:
    db = Database.open("ayoayo", built)
    game = Game(position=text)
    moves = db.move_values(game)
    assert moves is not None
    value = max(moves.values())
    mover = ("South", "North")[game.to_move]
    best = min(a for a, v in moves.items() if v == value)

    proc = run(["solve", "value", text, "--dir", str(built)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"Value: {value:+d} for {mover} (exact)" in out
    assert f"Best move: {best + 1} " in out
    for a, v in moves.items():
        assert f"  {a + 1}: {v:+d}" in out
    assert out.count("\n  ") == len(moves)


def test_value_needs_its_budget(built: Path, tmp_path: Path) -> None:
    start = "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"
    proc = run(["solve", "value", start, "--dir", str(built), "--nodes", "500"], tmp_path)
    assert proc.returncode == 1
    assert "more than 500 nodes" in one_error_line(proc)


def test_bad_input_is_one_line_and_a_nonzero_status(built: Path, tmp_path: Path) -> None:
    # Rules that cannot be solved (a repetition rule and a move limit).
    proc = run(["solve", "build", "--rules", "oware[move_limit=40]", "--max-seeds", "4"], tmp_path)
    assert proc.returncode == 1
    assert "cannot be solved by seed layers" in one_error_line(proc)
    record = "oware[move_limit=40] 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"
    proc = run(["solve", "value", record], tmp_path)
    assert proc.returncode == 1
    assert "move limit" in one_error_line(proc)
    # A folder that does not exist, and one without these rules' databases.
    proc = run(["solve", "verify", "--dir", str(tmp_path / "nowhere")], tmp_path)
    assert proc.returncode == 1
    line = one_error_line(proc)
    assert "no such folder" in line
    assert HINT in line
    proc = run(
        ["solve", "verify", "--rules", "ayoayo[stuck_seeds=own_side]", "--dir", str(built)],
        tmp_path,
    )
    assert proc.returncode == 1
    assert "ayo solve build --rules 'ayoayo[stuck_seeds=own_side]'" in one_error_line(proc)
    # A damaged file.
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for f in built.glob("*.ayodb"):
        (damaged / f.name).write_bytes(f.read_bytes())
    victim = next(damaged.glob("*.n06.ayodb"))
    data = bytearray(victim.read_bytes())
    data[-3] ^= 0x10
    victim.write_bytes(bytes(data))
    for args in (
        ["solve", "verify", "--dir", str(damaged)],
        ["solve", "value", WON, "--dir", str(damaged)],
        ["solve", "build", "--max-seeds", "8", "--dir", str(damaged)],
        ["analyze", WON, "--level", "perfect", "--db", str(damaged)],
    ):
        proc = run(args, tmp_path)
        assert proc.returncode == 1, args
        line = one_error_line(proc)
        assert str(victim) in line
        assert "checksum mismatch (damaged file)" in line
    assert victim.read_bytes() == bytes(data)  # never overwritten
    # A bad record or argument: a usage error (status 2).
    proc = run(["solve", "value", "ayoayo 1,2/3 0-0 s 0 0", "--dir", str(built)], tmp_path)
    assert proc.returncode == 2
    no_traceback(proc)
    assert "not a position record" in proc.stderr


def test_argument_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["solve"],
        ["solve", "build"],  # --max-seeds is required
        ["solve", "build", "--max-seeds", "-1"],
        ["solve", "build", "--max-seeds", "2", "--threads", "1025"],
        ["solve", "build", "--max-seeds", "2", "--rules", "nope"],
        ["solve", "value", WON, "--nodes", "0"],
    ):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2, args
        assert "error" in capsys.readouterr().err


# ------------------------------------------------------------------ level perfect


def test_play_perfect_without_databases_falls_back_with_a_message(tmp_path: Path) -> None:
    proc = run(["play", "--rules", "ayoayo", "--level", "perfect", "--seed", "1"], tmp_path, "q\n")
    assert proc.returncode == 0, proc.stderr
    line = one_error_line(proc)
    assert "no databases for ayoayo" in line
    assert HINT in line
    assert "playing as level max" in line
    assert "computer level max" in proc.stdout
    # The default rules, ayo, have a move limit: counted databases, not built here.
    proc = run(["play", "--level", "perfect", "--seed", "1"], tmp_path, "q\n")
    assert proc.returncode == 0, proc.stderr
    line = one_error_line(proc)
    assert "no databases for ayo" in line
    assert "ayo solve build --rules ayo --max-seeds 12" in line
    assert "computer level max" in proc.stdout
    # Oware's databases (not built here), played with its repetition rule.
    proc = run(["play", "--rules", "oware", "--level", "perfect", "--seed", "1"], tmp_path, "q\n")
    assert proc.returncode == 0, proc.stderr
    line = one_error_line(proc)
    assert "no databases for oware" in line
    assert "ayo solve build --rules oware --max-seeds 20" in line
    assert "computer level max" in proc.stdout
    # Rules with a move limit and a repetition rule have no databases at all.
    proc = run(
        ["play", "--rules", "oware[move_limit=40]", "--level", "perfect", "--seed", "1"],
        tmp_path,
        "q\n",
    )
    assert proc.returncode == 0, proc.stderr
    line = one_error_line(proc)
    assert "cannot prove" in line
    assert HINT in line
    assert "computer level max" in proc.stdout


def test_build_and_play_counted_databases(tmp_path: Path) -> None:
    folder = tmp_path / "counted"
    proc = run(
        ["solve", "build", "--rules", "olopon", "--max-seeds", "4", "--dir", str(folder)],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "built counted layers 0, 1, 2, 3, 4 of olopon[target=none]" in proc.stdout
    proc = run(
        ["play", "--rules", "olopon", "--level", "perfect", "--seed", "1", "--db", str(folder)],
        tmp_path,
        "q\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "computer level perfect" in proc.stdout


def test_play_perfect_with_databases(built: Path, tmp_path: Path) -> None:
    proc = run(
        ["play", "--rules", "ayoayo", "--level", "perfect", "--seed", "1", "--db", str(built)],
        tmp_path,
        "q\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "computer level perfect" in proc.stdout
    # From $AYO_DB_DIR, and a --db folder that does not exist is an error.
    proc = run(
        ["play", "--rules", "ayoayo", "--level", "perfect"],
        tmp_path,
        "q\n",
        extra_env={"AYO_DB_DIR": str(built)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "computer level perfect" in proc.stdout
    proc = run(
        ["play", "--rules", "ayoayo", "--level", "perfect", "--db", str(tmp_path / "no")],
        tmp_path,
        "q\n",
    )
    assert proc.returncode == 1
    assert "no such folder" in one_error_line(proc)


def test_analyze_perfect(built: Path, tmp_path: Path) -> None:
    db = Database.open("ayoayo", built)
    game = Game(position=MIXED)
    moves = db.move_values(game)
    assert moves is not None
    proc = run(["analyze", MIXED, "--level", "perfect", "--db", str(built)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Analysis by perfect(db<=8" in out
    assert "every move's value read from the databases" in out
    for a, v in moves.items():
        text = f"win by {v}" if v > 0 else f"loss by {-v}" if v < 0 else "draw"
        assert f"  {a + 1}: " in out
        assert text in out
    # Without databases: level max, said once.
    proc = run(["analyze", MIXED, "--level", "perfect"], tmp_path)
    assert proc.returncode == 0
    assert "playing as level max" in one_error_line(proc)
    assert "Analysis by level max" in proc.stdout


def test_watch_and_arena_take_level_perfect(tmp_path: Path) -> None:
    # Without databases: level max in its place, said once per command.
    proc = run(["watch", "--rules", "ayoayo", "--levels", "perfect", "1", "--delay", "0"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "playing as level max" in one_error_line(proc)
    assert "Level max" in proc.stdout
    assert "Game record:" in proc.stdout
    proc = run(["arena", "--rules", "ayoayo", "--levels", "perfect", "1", "--games", "2"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "playing as level max" in one_error_line(proc)
    assert "perfect vs 1" in proc.stdout
