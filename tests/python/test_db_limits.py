"""ayo.Database at its limits: out of memory, and a layer missing in the middle.

* Running out of memory while building is a ``MemoryError`` whose message
  names the bytes asked for and what for, not an abort of the interpreter:
  the build runs in a subprocess whose address space is capped with
  ``resource.setrlimit(RLIMIT_AS)`` 256 MiB above what the
  interpreter already holds, enough for a small build but not for a large
  ``max_seeds``. The subprocess must exit 0 (not die by a signal), having
  caught the error, with the layers finished before kept and none half-written.
* A layer file missing below the highest one found is a ``DatabaseError``
  (reason ``"layer_gap"``) naming the file and the layers found, unless
  ``max_seeds`` stops below the gap.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from address_limit import child_script

from ayo import Database, DatabaseError

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's"
)

CHILD = child_script(
    """
    import resource
    import sys
    from pathlib import Path

    import ayo


    folder = Path(sys.argv[1])
    limit_address_space(256 * 1024 * 1024)
    small = ayo.Database.build("ayoayo", 6, None, threads=1)
    assert small.max_seeds == 6
    try:
        ayo.Database.build("ayoayo", 40, folder, threads=1)
    except MemoryError as e:
        print("caught:", type(e).__name__, e, flush=True)
    else:
        print("the large build did not fail", flush=True)
        sys.exit(3)
    # The small database is untouched and still answers (from its layers).
    assert small.value("ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0") == 3
    sys.exit(0)
    """
)


def test_out_of_memory_is_a_memory_error_not_an_abort(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    env = {**os.environ, "MALLOC_ARENA_MAX": "2"}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n{out}"
    assert "caught: MemoryError out of memory:" in proc.stdout, out
    assert "could not allocate " in proc.stdout, out
    assert " of layer " in proc.stdout, out
    assert "memory allocation of" not in out, out
    # The layers finished before are whole and open; nothing half-written.
    files = sorted(p.name for p in folder.iterdir())
    assert files, "no layer was finished before memory ran out"
    assert not [f for f in files if not f.endswith(".ayodb")], files
    db = Database.open("ayoayo", folder)
    assert db.max_seeds == len(files) - 1
    assert db.positions == math.comb(db.max_seeds + 12, 12)


SEARCH_CHILD = child_script(
    """
    import resource
    import sys

    import ayo
    import ayo.ai


    db = ayo.Database.build("ayoayo", 4, None, threads=1)
    above = "ayoayo 2,2,0,0,0,0/2,2,0,0,0,0 20-20 s 0 0"
    game = ayo.Game.from_record(above + " |")
    player = ayo.ai.Player.perfect(db, nodes=10_000)
    # Not held by the layers: searched, on a thread with a 1 GiB stack.
    want = db.value(above, nodes=None)
    limit_address_space(256 * 1024 * 1024)
    for name, call in [
        ("value", lambda: db.value(above, nodes=None)),
        ("move_values", lambda: db.move_values(above, nodes=None)),
    ]:
        try:
            call()
        except MemoryError as e:
            print("caught:", name, type(e).__name__, e, flush=True)
        else:
            print(name, "did not fail", flush=True)
            sys.exit(3)
    # The perfect player falls back to its search rather than failing.
    mv = player.choose(game)
    assert mv in game.legal_moves(), mv
    print("perfect player:", player.source, flush=True)
    # Held boards are read without a thread.
    assert db.value("ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0") == 3
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    assert db.value(above, nodes=None) == want
    sys.exit(0)
    """
)


def test_a_search_thread_that_cannot_start_is_a_memory_error() -> None:
    """Issue 14: ``Solver::board_value`` expected its thread to start; under a
    lowered limit that was a panic, now ``MemoryError`` (and the perfect
    player's fallback)."""
    env = {**os.environ, "MALLOC_ARENA_MAX": "2"}
    proc = subprocess.run(
        [sys.executable, "-c", SEARCH_CHILD],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n{out}"
    for name in ("value", "move_values"):
        assert f"caught: {name} MemoryError out of memory: could not allocate 1073741824 " in (
            proc.stdout
        ), out
    assert "for the stack of the search thread" in proc.stdout, out
    assert "perfect player: fallback" in proc.stdout, out
    assert "PanicException" not in out, out


def test_a_missing_middle_layer_is_an_error(tmp_path: Path) -> None:
    Database.build("ayoayo", 8, tmp_path)
    [gone] = list(tmp_path.glob("*.n05.ayodb"))
    gone.unlink()
    with pytest.raises(DatabaseError, match="layer 5 is missing") as e:
        Database.open("ayoayo", tmp_path)
    assert e.value.reason == "layer_gap"
    assert e.value.path == str(gone)
    assert gone.name in str(e.value)
    assert "0..=4, 6..=8" in str(e.value)
    # Below the gap the layers are all there.
    db = Database.open("ayoayo", tmp_path, max_seeds=4)
    assert db.max_seeds == 4
    # Up to a layer past the gap: the missing layer itself is named.
    with pytest.raises(DatabaseError, match="no database layer for 5 seeds") as e:
        Database.open("ayoayo", tmp_path, max_seeds=6)
    assert e.value.reason == "missing"
    # The last layer missing is no gap: the database stops below it.
    for p in tmp_path.glob("*.n0[6-8].ayodb"):
        p.unlink()
    assert Database.open("ayoayo", tmp_path).max_seeds == 4
