"""Every code block of README.md and docs/*.md runs on its own (docs_blocks.py).

The Python and shell blocks run here, one process each; the others are
marked with the CI stage that builds them, which this test checks calls
them. Install instructions cannot reach PyPI's other project named ``ayo``.
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys

import pytest
from conftest import ROOT
from docs_blocks import STAGES, Block, all_blocks, doc_files, problems, run_block, runs_here

from ayo.envs import AyoEnv
from ayo.pettingzoo import raw_env

BLOCKS = all_blocks()
HERE = [b for b in BLOCKS if runs_here(b, "pytest")]


def test_every_block_is_marked() -> None:
    found = [p for b in BLOCKS for p in problems(b)]
    assert not found, "\n".join(found)
    for b in BLOCKS:
        b.runnable_code()  # every substitution matches, in every stage
    assert len(HERE) >= 15


@pytest.mark.parametrize("stage", sorted(set(STAGES) - {"pytest"}))
def test_each_stage_is_run_by_its_script(stage: str) -> None:
    marked = [b for b in BLOCKS if b.stage == stage and not b.not_run]
    assert marked, f"no block of stage {stage}"
    caller = (ROOT / STAGES[stage]).read_text(encoding="utf-8")
    if stage == "rust":
        assert "rust-quickstart:begin" in caller
        assert {b.path for b in marked} == {"README.md"}
    elif stage == "doctest":
        for path in {b.path for b in marked}:
            assert f'include_str!("../../{path}")' in caller, path
    else:
        assert re.search(rf"docs_blocks\.py\"? --stage {stage}\b", caller)


@pytest.mark.parametrize("block", HERE, ids=[b.name for b in HERE])
def test_block_runs(block: Block) -> None:
    proc = run_block(block)
    assert proc.returncode == 0, f"{block.name}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr


def test_readme_rust_quick_start_is_the_example() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme.split("<!-- rust-quickstart:begin", 1)[1].split("<!-- rust-quickstart:end", 1)[0]
    code = part.split("```rust\n", 1)[1].split("```", 1)[0]
    assert code == (ROOT / "examples" / "rust" / "src" / "main.rs").read_text(encoding="utf-8")


#: `pip install` of a requirement named ayo (the other project on PyPI).
OTHER_AYO = re.compile(r"pip install[^\n`#]*?[\s\"'](ayo)(\[[^\]]*\])?(?=[\s\"'`]|$)", re.M)


def test_install_instructions_cannot_reach_another_project() -> None:
    files = [
        *doc_files(),
        *(ROOT / "python").rglob("*.py"),
        *(ROOT / "examples").rglob("*.py"),
        *(ROOT / "bench").rglob("*.py"),
        *(ROOT / "notebooks").glob("*.ipynb"),
    ]
    bad = [
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for path in files
        for m in OTHER_AYO.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "\n".join(bad)
    assert OTHER_AYO.search('pip install "ayo[pettingzoo]"')
    assert OTHER_AYO.search("pip install ayo")
    assert not OTHER_AYO.search('pip install ".[pettingzoo]"')
    assert not OTHER_AYO.search("pip install .   # ayo itself")


def test_illegal_action_defaults_agree_with_the_docs() -> None:
    """The default of ``illegal_action`` in the code, its docstring and the docs."""
    docs = (ROOT / "docs" / "environments.md").read_text(encoding="utf-8")
    gym_default = inspect.signature(AyoEnv).parameters["illegal_action"].default
    pz_default = inspect.signature(raw_env).parameters["illegal_action"].default
    assert (gym_default, pz_default) == ("penalize", "raise")
    assert f'| `illegal_action` | `"{gym_default}"` (default)' in docs
    assert f'`illegal_action="{pz_default}"` (default' in docs
    for cls, default in ((AyoEnv, gym_default), (raw_env, pz_default)):
        doc = " ".join(f"{cls.__doc__} {cls.__init__.__doc__}".split())
        assert f'illegal_action: ``"{default}"`` (default' in doc, cls


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("pettingzoo", "pettingzoo", "pettingzoo"),
        ("openspiel", "pyspiel", "openspiel"),
        ("rllib", "torch", "rllib"),
    ],
)
def test_a_missing_extra_names_the_command_to_run(module: str, blocked: str, extra: str) -> None:
    # The package the extra brings, made unimportable in a fresh interpreter.
    code = f"import sys; sys.modules[{blocked!r}] = None; import ayo.{module}"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ModuleNotFoundError: ayo.{module} needs {blocked}, "), last
    assert f'pip install ".[{extra}]"' in last, last
