"""The code blocks of README.md and docs/*.md, and how CI runs each one.

Every fenced block names its language. Output (``text``, ``ebnf``) is not
run. ``python`` and ``sh`` blocks run on their own, each in a fresh process
(``sh`` with bash, ``-e -o pipefail``, in the repository's root with the
running Python's ``bin`` folder first on the PATH; ``python`` in an empty
temporary folder), with ``HOME``, ``TMPDIR`` and ``AYO_DATA_DIR`` in a
temporary folder of their own. ``rust``, ``toml``, ``c`` and ``cpp`` blocks
are built by the CI stage that has their compiler: stage ``c`` compiles each
``c`` and ``cpp`` block (a C fragment as the body of a function given
``ayo_game *game``, a C++ one of a function of its own; ci/c.sh also builds
and runs the whole programs).

HTML comments on the lines right above a fence say what else a block needs:

``<!-- docs-test: stage NAME -->``
    the block runs (or is built) in CI stage NAME instead of the Python
    tests: ``c`` (ci/c.sh), ``wheel`` (ci/wheel.sh), ``rllib``
    (ci/rllib.sh), each calling ``docs_blocks.py --stage NAME``; ``rust``
    (ci/test.sh pastes README.md's Rust quick start into a crate of its own)
    or ``doctest`` (ayo-core's doctests include the file).
``<!-- docs-test: sub 'OLD' 'NEW' -->``
    the block runs with OLD replaced by NEW: a smaller workload of the same
    command (a database of fewer seeds, fewer iterations).
``<!-- docs-test: stdin 'TEXT' -->``
    TEXT (with ``\\n`` for new lines) is the block's standard input.
``<!-- docs-test: not-run REASON -->``
    the block is not run, for the reason given (it runs for hours, needs
    several machines, or is the CI's own command).

``python tests/python/docs_blocks.py --stage NAME`` runs a stage's blocks;
``--list`` lists every block with its stage.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Languages of output: shown, never run.
OUTPUT = frozenset({"text", "ebnf"})
#: Languages run by this module.
RUN = frozenset({"python", "sh"})
#: Languages built by a CI stage (they need a stage directive or not-run).
BUILT = frozenset({"rust", "toml", "c", "cpp"})
#: Languages this module compiles (in stage c): a whole program, or a
#: fragment as the body of a function.
COMPILED = {"c": ["cc", "-std=c11"], "cpp": ["c++", "-std=c++17"]}
#: The stages and the file that must call each (see check_stage_callers).
STAGES = {
    "pytest": "tests/python/test_docs_blocks.py",
    "c": "ci/c.sh",
    "wheel": "ci/wheel.sh",
    "rllib": "ci/rllib.sh",
    "rust": "ci/test.sh",
    "doctest": "ayo-core/src/lib.rs",
}
#: The time limit of one block, in seconds.
BLOCK_TIMEOUT = 240

FENCE = re.compile(r"^( *)```(\S*)\s*$")
DIRECTIVE = re.compile(r"^<!-- docs-test: (\S+)\s*(.*?)\s*-->$")


@dataclass
class Block:
    """One fenced block: where it is, its language, code and directives."""

    path: str
    line: int
    lang: str
    code: str
    stage: str = "pytest"
    not_run: str = ""
    subs: list[tuple[str, str]] = field(default_factory=list)
    stdin: str = ""

    @property
    def name(self) -> str:
        """``FILE:LINE`` of the opening fence."""
        return f"{self.path}:{self.line}"

    def runnable_code(self) -> str:
        """The code with the block's substitutions made."""
        code = self.code
        for old, new in self.subs:
            if old not in code:
                raise ValueError(f"{self.name}: sub {old!r} matches nothing")
            code = code.replace(old, new)
        return code


def doc_files() -> list[Path]:
    """README.md and every docs/*.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def parse(path: Path) -> list[Block]:
    """The fenced blocks of ``path`` with their directives."""
    lines = path.read_text(encoding="utf-8").split("\n")
    rel = path.relative_to(ROOT).as_posix()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent = m.group(1)
        end = i + 1
        while end < len(lines) and lines[end] != indent + "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{rel}:{i + 1}: a fence that is never closed")
        body = [line.removeprefix(indent) for line in lines[i + 1 : end]]
        block = Block(rel, i + 1, m.group(2), "\n".join(body) + "\n")
        j = i - 1
        while j >= 0 and lines[j].lstrip().startswith("<!--"):
            d = DIRECTIVE.match(lines[j].strip())
            if d:
                apply_directive(block, d.group(1), d.group(2))
            j -= 1
        blocks.append(block)
        i = end + 1
    return blocks


def apply_directive(block: Block, kind: str, arg: str) -> None:
    """Records one ``docs-test`` directive on ``block``."""
    where = f"{block.path}:{block.line}"
    if kind == "stage":
        if arg not in STAGES:
            raise ValueError(f"{where}: unknown stage {arg!r}")
        block.stage = arg
    elif kind == "not-run":
        if not arg:
            raise ValueError(f"{where}: not-run needs a reason")
        block.not_run = arg
    elif kind == "sub":
        parts = shlex.split(arg)
        if len(parts) != 2:
            raise ValueError(f"{where}: sub takes 'OLD' 'NEW'")
        block.subs.append((parts[0], parts[1]))
    elif kind == "stdin":
        block.stdin = shlex.split(arg)[0].replace("\\n", "\n")
    else:
        raise ValueError(f"{where}: unknown directive {kind!r}")


def all_blocks() -> list[Block]:
    """Every block of README.md and docs/*.md."""
    return [b for path in doc_files() for b in parse(path)]


def problems(block: Block) -> list[str]:
    """What is wrong with how ``block`` is marked (empty when nothing)."""
    out = []
    if block.lang in OUTPUT:
        if block.stage != "pytest" or block.not_run or block.subs or block.stdin:
            out.append(f"{block.name}: output ({block.lang}) with a directive")
    elif block.lang in BUILT:
        if block.stage == "pytest" and not block.not_run:
            out.append(f"{block.name}: {block.lang} needs a stage or not-run directive")
    elif block.lang not in RUN:
        out.append(f"{block.name}: language {block.lang!r} is none of run, output or built")
    return out


def runs_here(block: Block, stage: str) -> bool:
    """Whether ``--stage stage`` runs ``block``."""
    runnable = block.lang in RUN or block.lang in COMPILED
    return runnable and not block.not_run and block.stage == stage


def compile_source(block: Block) -> str:
    """A block of C or C++ as a file to compile: as it is when it has a
    ``main``, else its ``#include`` lines and then the rest as the body of
    ``fragment(ayo_game *game)`` (C) or ``fragment()`` (C++)."""
    code = block.runnable_code()
    if "int main(" in code:
        return code
    lines = code.split("\n")
    includes = [line for line in lines if line.startswith("#include")]
    body = [line for line in lines if not line.startswith("#include")]
    head = ["#include <stdint.h>", "#include <stdlib.h>", '#include "ayo.h"', *includes]
    # C fragments use a game made elsewhere; C++ ones make their own.
    params = "ayo_game *game" if block.lang == "c" else ""
    signature = f"void fragment({params})"
    return "\n".join([*head, f"{signature};", f"{signature} {{", *body, "}", ""])


def block_env(tmp: Path) -> dict[str, str]:
    """The environment of a block: the running Python first on the PATH and
    HOME, TMPDIR and ayo's data folder in ``tmp``."""
    env = dict(os.environ)
    home = Path.home()
    # cargo and rustup keep their folders when HOME moves.
    env.setdefault("CARGO_HOME", str(home / ".cargo"))
    env.setdefault("RUSTUP_HOME", str(home / ".rustup"))
    for name in ("home", "tmp", "data"):
        (tmp / name).mkdir(exist_ok=True)
    env["HOME"] = str(tmp / "home")
    env["TMPDIR"] = str(tmp / "tmp")
    env["AYO_DATA_DIR"] = str(tmp / "data")
    env["MPLBACKEND"] = "Agg"
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_block(block: Block, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``block`` in a fresh process; the completed process (not checked)."""
    code = block.runnable_code()
    with tempfile.TemporaryDirectory(prefix="ayo-docs-") as t:
        tmp = Path(t)
        env = block_env(tmp)
        if block.lang in COMPILED:
            source = tmp / f"block.{block.lang}"
            source.write_text(compile_source(block), encoding="utf-8")
            warnings = ["-Wall", "-Wextra", "-Werror", "-Wno-unused-variable"]
            args = [*COMPILED[block.lang], *warnings, "-fsyntax-only", f"-I{ROOT / 'include'}"]
            args.append(str(source))
            where = tmp
        elif block.lang == "python":
            script = tmp / "block.py"
            script.write_text(code, encoding="utf-8")
            args = [sys.executable, str(script)]
            where = cwd or tmp
        else:
            args = ["bash", "-e", "-o", "pipefail", "-c", code]
            where = cwd or ROOT
        return subprocess.run(
            args,
            cwd=where,
            env=env,
            input=block.stdin,
            capture_output=True,
            text=True,
            timeout=BLOCK_TIMEOUT,
            check=False,
        )


def main(argv: list[str] | None = None) -> int:
    """Runs (or lists) the blocks of one stage; non-zero when one fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stage", choices=sorted(STAGES), default="pytest")
    parser.add_argument("--cwd", type=Path, help="run the blocks here")
    parser.add_argument("--list", action="store_true", help="list every block")
    args = parser.parse_args(argv)
    blocks = all_blocks()
    if args.list:
        for b in blocks:
            how = f"not run: {b.not_run}" if b.not_run else f"stage {b.stage}"
            print(f"{b.name}  {b.lang}  {'output' if b.lang in OUTPUT else how}")
        return 0
    selected = [b for b in blocks if runs_here(b, args.stage)]
    if not selected:
        print(f"docs_blocks: no block of stage {args.stage}", file=sys.stderr)
        return 1
    failed = 0
    for b in selected:
        print(f"== {b.name} ({b.lang})", flush=True)
        try:
            proc = run_block(b, args.cwd)
        except subprocess.TimeoutExpired:
            print(f"{b.name}: ran past {BLOCK_TIMEOUT}s", file=sys.stderr)
            failed += 1
            continue
        sys.stdout.write(proc.stdout)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            print(f"{b.name}: exit status {proc.returncode}", file=sys.stderr)
            failed += 1
    print(f"docs_blocks: stage {args.stage}: {len(selected) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
