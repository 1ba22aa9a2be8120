"""Nothing crosses the boundary: no argument makes the `ayo` command print a traceback.

Every subcommand (as `ayo --help` and `ayo solve --help` list them) is run
as a real program (`python -m ayo.cli`, in a subprocess with a timeout) with
generated bad values for each of its arguments, found from its parser: the
exit status is 0, 1, 2 or 130 and neither output holds "Traceback"; a usage
error (status 2) prints that subcommand's usage line and ends with one
`error:` line. The reproducers of the issue are named regression tests.

The generated cases take a few values of the pool for each argument, in
turn; `AYO_CLI_BAD_ARGS=all` runs every value for every argument (slower).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import ayo
from ayo.cli import build_parser

START = "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"
WON = "ayoayo 0,0,0,0,1,0/2,0,0,0,0,0 23-22 s 0 0"
STATUSES = {0, 1, 2, 130}
TIMEOUT = 30

#: Bad values for any argument: numbers out of range or not numbers, text that
#: is not UTF-8, not a record or too long. None of them, where it happens to
#: be accepted, makes a slow command (no large delay, count or layer).
POOL = [
    "-1",
    "-3",
    str(2**64),
    "99999999999999999999999",
    "1e999",
    "inf",
    "-inf",
    "nan",
    "0x10",
    "1_0",
    "",
    " ",
    "abc",
    "\u0663",  # ARABIC-INDIC DIGIT THREE
    "9" * 5000,
    "\udcff",  # the byte 0xff on the command line: not UTF-8
    "ayoayo[target=none,target=25]",
    "ayoayo[target=04]",
    "x" * 5000,
    "\x1b[2J",
    "Ọlọ́pọ́n",
    "-",
]
PER_ARGUMENT = len(POOL) if os.environ.get("AYO_CLI_BAD_ARGS") == "all" else 3


@dataclass
class Base:
    """A valid, quick command of one subcommand: positionals, options, standard input."""

    positionals: list[str]
    options: dict[str, list[str]] = field(default_factory=dict)
    stdin: str = ""


def bases(tmp: Path) -> dict[tuple[str, ...], Base]:
    """One quick valid command for every subcommand (the set is checked against --help)."""
    db = str(tmp / "db")
    return {
        ("play",): Base([], {"--level": ["1"], "--seed": ["1"]}, stdin="q\n"),
        ("watch",): Base([], {"--levels": ["1", "1"], "--delay": ["0"]}),
        ("arena",): Base([], {"--levels": ["1", "2"], "--games": ["1"], "--openings": ["0"]}),
        ("analyze",): Base([f"oware {START}"], {"--level": ["1"]}),
        ("replay",): Base([f"oware {START} | 3"]),
        ("rules",): Base(["oware"]),
        ("scores",): Base([]),
        ("solve", "build"): Base([], {"--max-seeds": ["2"], "--dir": [db], "--quiet": []}),
        ("solve", "verify"): Base([], {"--dir": [db], "--quiet": []}),
        ("solve", "value"): Base([WON], {"--dir": [db]}),
    }


def run(
    args: Sequence[str],
    cwd: Path,
    stdin: str = "",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``ayo ARGS`` as a program; output decoded leniently (it may hold any bytes)."""
    full_env = dict(os.environ, AYO_DATA_DIR=str(cwd / "data"), NO_COLOR="1")
    full_env.pop("AYO_DB_DIR", None)
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "ayo.cli", *args],
        input=stdin.encode(),
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=TIMEOUT,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def problem(
    args: Sequence[str], proc: subprocess.CompletedProcess[str], path: tuple[str, ...]
) -> str | None:
    """What is wrong with the run of ``args`` (None: nothing)."""
    shown = [a if len(a) < 40 else a[:20] + f"...({len(a)} chars)" for a in args]
    if proc.returncode not in STATUSES:
        return f"{shown}: exit status {proc.returncode}\n{proc.stderr[-2000:]}"
    if "Traceback" in proc.stderr or "Traceback" in proc.stdout:
        return f"{shown}: a traceback\n{proc.stderr[-2000:]}"
    if proc.returncode == 2:
        usage = "usage: ayo " + " ".join(path)
        if not proc.stderr.startswith(usage):
            return f"{shown}: the usage is not {usage!r}\n{proc.stderr[-2000:]}"
        lines = proc.stderr.rstrip("\n").split("\n")
        errors = [x for x in lines if "error:" in x]
        if len(errors) != 1 or not lines[-1].startswith(f"ayo {' '.join(path)}: error: "):
            return f"{shown}: not one error line at the end\n{proc.stderr[-2000:]}"
    return None


def arguments(path: tuple[str, ...]) -> list[argparse.Action]:
    """The arguments of a subcommand that take a value, from its parser."""
    parser = build_parser()
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return [
        a for a in parser._actions if a.nargs != 0 and not isinstance(a, argparse._SubParsersAction)
    ]


def full_command(path: tuple[str, ...], base: Base) -> list[str]:
    """The base command as arguments."""
    return [*path, *base.positionals, *(x for k, v in base.options.items() for x in (k, *v))]


def cases(path: tuple[str, ...], base: Base) -> Iterator[list[str]]:
    """The generated bad commands of one subcommand."""
    acts = arguments(path)
    salt = sum(map(ord, "".join(path)))
    for k, act in enumerate(acts):
        picks = [POOL[(salt + 7 * k + j) % len(POOL)] for j in range(PER_ARGUMENT)]
        for bad in picks:
            positionals = list(base.positionals)
            options = dict(base.options)
            if act.option_strings:
                n = act.nargs if isinstance(act.nargs, int) else 1
                options[act.option_strings[0]] = [bad] + ["1"] * (n - 1)
            else:
                index = [a for a in acts if not a.option_strings].index(act)
                positionals[index] = bad
            flat = [x for key, values in options.items() for x in (key, *values)]
            yield [*path, *positionals, *flat]
    # Structure: an option without its value, an unknown option, a stray word.
    full = full_command(path, base)
    for act in acts:
        if act.option_strings:
            yield [*full, act.option_strings[0]]
    yield [*full, "--no-such-option"]
    yield [*full, "--no-such-option=1"]
    if not any(a.nargs in ("?", "*", "+") and not a.option_strings for a in acts):
        yield [*full, "stray"]


def listed(args: list[str], tmp: Path) -> list[str]:
    """The subcommands that ``ayo ARGS --help`` lists."""
    proc = run([*args, "--help"], tmp)
    assert proc.returncode == 0, proc.stderr
    block = proc.stdout.split("positional arguments:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^    (\w+)", block, re.M)


def test_every_subcommand_has_a_base_command(tmp_path: Path) -> None:
    found: set[tuple[str, ...]] = {(c,) for c in listed([], tmp_path) if c != "solve"}
    found |= {("solve", c) for c in listed(["solve"], tmp_path)}
    # `ayo serve` runs until it is stopped, so it has no quick valid command to
    # vary: test_serve.py checks its arguments.
    assert found - {("serve",)} == set(bases(tmp_path))


@pytest.mark.parametrize("path", list(bases(Path("."))), ids=" ".join)
def test_generated_bad_arguments(path: tuple[str, ...], tmp_path: Path) -> None:
    base = bases(tmp_path)[path]
    if path[0] == "solve":  # the base commands of verify and value read these
        built = run(["solve", "build", "--max-seeds", "2", "--dir", str(tmp_path / "db")], tmp_path)
        assert built.returncode == 0, built.stderr
    ok = run(full_command(path, base), tmp_path, base.stdin)
    assert ok.returncode == 0, ok.stderr
    todo = list(cases(path, base))

    def one(args: list[str]) -> str | None:
        return problem(args, run(args, tmp_path, base.stdin), path)

    with ThreadPoolExecutor(max_workers=4) as pool:
        problems = [p for p in pool.map(one, todo) if p is not None]
    assert not problems, f"{len(problems)} of {len(todo)}:\n" + "\n".join(problems[:10])


# ------------------------------------------------------------------ the reproducers


def usage_error(
    args: list[str], tmp: Path, path: tuple[str, ...], *words: str
) -> subprocess.CompletedProcess[str]:
    proc = run(args, tmp)
    assert proc.returncode == 2, proc.stderr
    assert problem(args, proc, path) is None, problem(args, proc, path)
    for w in words:
        assert w in proc.stderr
    return proc


def test_play_seed_minus_one(tmp_path: Path) -> None:
    usage_error(["play", "--seed", "-1"], tmp_path, ("play",), "argument --seed", "0 to")


def test_play_seed_beyond_64_bits(tmp_path: Path) -> None:
    usage_error(["play", "--seed", "99999999999999999999999"], tmp_path, ("play",), "--seed")
    usage_error(["play", "--seed", str(2**64)], tmp_path, ("play",), "--seed")


def test_the_largest_seed_plays(tmp_path: Path) -> None:
    top = str(2**64 - 1)
    proc = run(["play", "--level", "1", "--seed", top], tmp_path, "q\n")
    assert proc.returncode == 0, proc.stderr
    # watch and arena add to the seed (North's is one more): it wraps.
    proc = run(["watch", "--levels", "1", "1", "--delay", "0", "--seed", top], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["arena", "--levels", "1", "2", "--games", "2", "--seed", top], tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_solve_verify_from_seeds_negative(tmp_path: Path) -> None:
    db = str(tmp_path / "db")
    built = run(["solve", "build", "--max-seeds", "2", "--dir", db, "--quiet"], tmp_path)
    assert built.returncode == 0, built.stderr
    path = ("solve", "verify")
    usage_error(["solve", "verify", "--dir", db, "--from-seeds", "-3"], tmp_path, path, "0 to 40")
    proc = run(["solve", "verify", "--dir", db, "--from-seeds", "1", "--quiet"], tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_solve_build_max_seeds_41_is_a_usage_error(tmp_path: Path) -> None:
    args = ["solve", "build", "--max-seeds", "41", "--dir", str(tmp_path / "db")]
    usage_error(args, tmp_path, ("solve", "build"), "--max-seeds", "0 to 40")
    assert not (tmp_path / "db").exists()


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e999", "61", "-0.5"])
def test_watch_delay_is_finite_and_bounded(tmp_path: Path, value: str) -> None:
    args = ["watch", "--rules", "oware", "--delay", value]
    usage_error(args, tmp_path, ("watch",), "argument --delay")
    usage_error(["play", "--delay", value], tmp_path, ("play",), "argument --delay")


def test_rules_on_an_ascii_terminal(tmp_path: Path) -> None:
    env = {"LC_ALL": "C", "PYTHONIOENCODING": "ascii"}
    proc = run(["rules", "olopon"], tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "\\u1ecc" in proc.stdout  # the "Ọ" of Ọlọ́pọ́n, escaped
    proc = run(["rules"], tmp_path, env={**env, "PYTHONIOENCODING": "ascii:strict"})
    assert proc.returncode == 0, proc.stderr


def test_an_argument_that_is_not_utf8(tmp_path: Path) -> None:
    for args, path in [
        (["rules", "\udcff"], ("rules",)),
        (["play", "--rules", "ayo\udcff"], ("play",)),
        (["analyze", "oware \udcff"], ("analyze",)),
        (["solve", "value", "\udcff"], ("solve", "value")),
    ]:
        usage_error(args, tmp_path, path, "not valid UTF-8")


def test_subcommand_errors_print_the_subcommands_usage(tmp_path: Path) -> None:
    usage_error(["scores", "extra"], tmp_path, ("scores",), "unrecognized arguments: extra")
    usage_error(["rules", "chess"], tmp_path, ("rules",), "unknown rules preset")
    usage_error(["arena", "--levels", "3"], tmp_path, ("arena",), "at least two")
    usage_error(["solve", "build"], tmp_path, ("solve", "build"), "--max-seeds")
    usage_error(["solve"], tmp_path, ("solve",), "ACTION")


def test_version(tmp_path: Path) -> None:
    proc = run(["--version"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"ayo {ayo.__version__}"


def test_the_level_message_lists_perfect(tmp_path: Path) -> None:
    for args, path in [
        (["play", "--level", "9"], ("play",)),
        (["watch", "--levels", "1", "eleven"], ("watch",)),
        (["analyze", f"oware {START}", "--level", "9"], ("analyze",)),
        (["arena", "--levels", "1", "9"], ("arena",)),
    ]:
        proc = usage_error(args, tmp_path, path, "not a level")
        assert "max, learned or perfect" in proc.stderr


def test_duplicate_keys_and_leading_zeros_in_rules_text(tmp_path: Path) -> None:
    proc = usage_error(["rules", "ayoayo[target=none,target=25]"], tmp_path, ("rules",))
    assert "`target` is given twice" in proc.stderr
    proc = usage_error(["rules", "oware[seeds_per_pit=04]"], tmp_path, ("rules",))
    assert "`seeds_per_pit`" in proc.stderr
    usage_error(["rules", "ayo", "--rule", "target=025"], tmp_path, ("rules",), "`target`")


def test_output_that_cannot_be_written(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"))
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "ayo.cli", "rules"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=TIMEOUT,
            check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr.startswith("ayo: "), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def started(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``ayo ARGS`` started, its outputs piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "ayo.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # SIGINT as a terminal's Ctrl-C finds it, even when the tests run
        # with SIGINT ignored (under nohup, or `&` in a script): Python
        # installs its KeyboardInterrupt handler only over the default.
        preexec_fn=default_sigint,
    )


def default_sigint() -> None:
    """Restores SIGINT's default action (in a child, before it runs ayo)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_closed_streams_and_a_closed_pipe(tmp_path: Path) -> None:
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"))
    watch = [sys.executable, "-m", "ayo.cli", "watch", "--levels", "1", "1", "--delay", "0"]
    for fd in (0, 1):  # `ayo watch <&-` and `ayo watch >&-`
        proc = subprocess.run(
            watch,
            stdin=subprocess.DEVNULL if fd else None,
            stdout=subprocess.DEVNULL if not fd else None,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=TIMEOUT,
            check=False,
            preexec_fn=lambda fd=fd: os.close(fd),
        )
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr, proc.stderr
    # A reader that goes away: the rest of the output is dropped quietly.
    proc2 = started(["arena", "--levels", "1", "2", "--games", "200"], env)
    assert proc2.stdout is not None
    assert proc2.stderr is not None
    proc2.stdout.readline()
    proc2.stdout.close()
    err = proc2.stderr.read().decode()
    assert proc2.wait(timeout=TIMEOUT) == 0, err
    assert "Traceback" not in err, err
    assert "Exception ignored" not in err, err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_is_status_130(tmp_path: Path) -> None:
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"))
    proc = started(["watch", "--levels", "1", "1", "--delay", "30"], env)
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.readline()  # the first board: the game is on
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=TIMEOUT) == 130
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert "Traceback" not in err, err
