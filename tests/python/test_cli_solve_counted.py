"""``ayo solve verify`` and ``ayo solve value`` on counted databases (rules
with a move limit: ``olopon``, ``ayo``).

The program runs as a real process (python -m ayo.cli) with its data folder
in a temporary directory. Layers of at most 6 seeds; expectations come from
ayo.CountedDatabase, not fixed text.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from cli_run import ayo_command as run

from ayo import CountedDatabase, Game

# 6 seeds, North to move, 5 moves without a capture behind it.
ABOVE = "olopon 0,2,0,1,0,0/1,0,1,0,0,1 20-22 n 5 9"
# 3 seeds, held by layers to 4.
HELD = "olopon 0,0,0,0,0,1/1,0,0,0,0,1 24-21 s 0 0"


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the olopon counted layers to 4 seeds, built by ``ayo solve build``."""
    home = tmp_path_factory.mktemp("home")
    folder = home / "db"
    proc = run(
        ["solve", "build", "--rules", "olopon", "--max-seeds", "4", "--dir", str(folder)], home
    )
    assert proc.returncode == 0, proc.stderr
    return folder


def test_verify_checks_every_count_of_every_layer(counted: Path, tmp_path: Path) -> None:
    proc = run(["solve", "verify", "--rules", "olopon", "--dir", str(counted), "-q"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    values = sum(math.comb(n + 11, 11) for n in range(5)) * 41
    assert (
        f"verified counted layers 0, 1, 2, 3, 4 (every no-capture count 0..=40) of "
        f"olopon[target=none] in {counted}: {values:,} values, 0 failed"
    ) in proc.stdout
    proc = run(
        ["solve", "verify", "--rules", "olopon", "--dir", str(counted), "--max-seeds", "2"],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"{sum(math.comb(n + 11, 11) for n in range(3)) * 41:,} values, 0 failed" in proc.stdout
    # Layers to check from: not for counted databases, which are checked whole.
    proc = run(
        ["solve", "verify", "--rules", "olopon", "--dir", str(counted), "--from-seeds", "3"],
        tmp_path,
    )
    assert proc.returncode == 2
    assert "counted databases are verified whole" in proc.stderr


def test_verify_finds_a_damaged_file(counted: Path, tmp_path: Path) -> None:
    folder = tmp_path / "damaged"
    folder.mkdir()
    for f in counted.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    layer = next(folder.glob("*.n03.ayocnt"))
    data = bytearray(layer.read_bytes())
    data[-1] ^= 1
    layer.write_bytes(bytes(data))
    proc = run(["solve", "verify", "--rules", "olopon", "--dir", str(folder)], tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "checksum" in proc.stderr


@pytest.mark.parametrize("text", [HELD, ABOVE])
def test_value_prints_the_exact_value_and_every_move(
    counted: Path, tmp_path: Path, text: str
) -> None:
    # Expectations from layers that hold every board of the position.
    db = CountedDatabase.build("olopon", 6)
    game = Game(position=text)
    moves = db.move_values(game)
    assert moves
    value = max(moves.values())
    assert db.value(game) == value
    mover = ("South", "North")[game.to_move]
    best = min(a for a, v in moves.items() if v == value)

    proc = run(["solve", "value", text, "--dir", str(counted)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Databases: olopon[target=none], counted layers 0, 1, 2, 3, 4" in out
    assert f"Value: {value:+d} for {mover} (exact)" in out
    assert f"Best move: {best + 1} " in out
    for a, v in moves.items():
        assert f"  {a + 1}: {v:+d}" in out
    assert out.count("\n  ") == len(moves)


def test_value_needs_its_budget_and_its_databases(counted: Path, tmp_path: Path) -> None:
    proc = run(["solve", "value", ABOVE, "--dir", str(counted), "--nodes", "1"], tmp_path)
    assert proc.returncode == 1
    assert "more than 1 nodes" in proc.stderr
    proc = run(
        ["solve", "value", "ayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", "--dir", str(counted)], tmp_path
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no counted databases for ayo" in lines[0]
    assert "ayo solve build --rules ayo --max-seeds 12" in lines[0]


def test_value_at_the_move_limit(counted: Path, tmp_path: Path) -> None:
    # North could move, but the 40th move without a capture ended the game:
    # each side keeps its row (3 seeds each), so nothing more changes hands.
    at_limit = "olopon 0,2,0,1,0,0/1,0,1,0,0,1 20-22 n 40 40"
    assert CountedDatabase.build("olopon", 6).value(at_limit) == 0
    proc = run(["solve", "value", at_limit, "--dir", str(counted)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Value: +0 for North (exact)" in proc.stdout
    assert "The game is over: 40 moves in a row without a capture." in proc.stdout
    assert "Best move" not in proc.stdout
