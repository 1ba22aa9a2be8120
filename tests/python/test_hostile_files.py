"""Database folders under hostile conditions (issue #37).

A FIFO with a layer file's name, a write that fails half way, an empty
folder name: each is a ``DatabaseError`` at once, and nothing is left behind.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ayo import CountedDatabase, Database, DatabaseError


def layer_names(rules: str, kind: type[Database] | type[CountedDatabase], tmp: Path) -> list[str]:
    """The names of the layer files of ``rules``, from a small build."""
    folder = tmp / f"names-{rules}"
    kind.build(rules, 1, folder)
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(("rules", "kind"), [("ayoayo", Database), ("olopon", CountedDatabase)])
def test_a_fifo_named_like_a_layer_file_is_refused_not_waited_on(
    tmp_path: Path, rules: str, kind: type[Database] | type[CountedDatabase]
) -> None:
    names = layer_names(rules, kind, tmp_path)
    folder = tmp_path / "with-fifo"
    folder.mkdir()
    os.mkfifo(folder / names[0])
    # In a child with a time limit: before the fix the open waited for ever.
    script = textwrap.dedent(
        f"""
        import ayo
        for call in (
            lambda: ayo.{kind.__name__}.open({rules!r}, {str(folder)!r}),
            lambda: ayo.{kind.__name__}.open({rules!r}, {str(folder)!r}, max_seeds=1),
            lambda: ayo.{kind.__name__}.build({rules!r}, 1, {str(folder)!r}),
        ):
            try:
                call()
            except ayo.DatabaseError as e:
                # Read as not a file ("io"), or not counted as a layer file at all.
                assert e.reason in ("io", "missing"), e
                assert e.reason == "missing" or "not a regular file" in str(e), e
            else:
                raise SystemExit("a FIFO was read as a layer file")
        print("refused")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "refused\n"


def test_a_failed_write_leaves_no_partial_file(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    # Files may not grow past 1000 bytes: layer 4 (1,365 boards) fails half way.
    script = textwrap.dedent(
        f"""
        import resource, signal
        import ayo
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))
        try:
            ayo.Database.build("ayoayo", 5, {str(folder)!r})
        except ayo.DatabaseError as e:
            print(e.reason)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "io\n"
    names = sorted(p.name for p in folder.iterdir())
    assert names
    assert not [n for n in names if n.endswith(".partial")], names
    # The finished layers are whole: the build resumes from them.
    assert Database.open("ayoayo", folder).max_seeds == 3


@pytest.mark.parametrize(
    "call",
    [
        lambda: Database.build("ayoayo", 1, ""),
        lambda: Database.open("ayoayo", ""),
        lambda: Database.open("ayoayo", "", max_seeds=1),
        lambda: CountedDatabase.build("olopon", 1, ""),
        lambda: CountedDatabase.open("olopon", ""),
        lambda: CountedDatabase.open("olopon", "", max_seeds=1),
    ],
)
def test_an_empty_folder_name_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: object
) -> None:
    monkeypatch.chdir(tmp_path)
    assert callable(call)
    with pytest.raises(DatabaseError, match="folder name is empty"):
        call()
    assert list(tmp_path.iterdir()) == []
