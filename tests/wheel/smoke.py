"""Runs an installed ayo wheel as a new user would, with no Rust toolchain.

Usage: python smoke.py README.md docs/python.md

ci/wheel.sh runs it in a fresh venv, under `env -i` with a PATH that has no
cargo or rustc, from outside the clone (so that `import ayo` finds the wheel,
never the sources). It executes the first Python block of each document given
(the quick starts), plays the Gymnasium env and calls the `ayo` command.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def check_no_rust() -> None:
    for tool in ("cargo", "rustc", "rustup"):
        found = shutil.which(tool)
        if found is not None:
            sys.exit(f"{tool} is on the PATH ({found}): the test must run without Rust")


def check_installed_from_venv() -> None:
    import ayo
    import ayo._ayo

    prefix = Path(sys.prefix).resolve()
    for module in (ayo, ayo._ayo):
        where = Path(str(module.__file__)).resolve()
        if prefix not in where.parents:
            sys.exit(f"{module.__name__} comes from {where}, not from the venv {prefix}")
    print(f"ayo {ayo.__version__} from {Path(str(ayo._ayo.__file__)).name} in {prefix}")


def run_quick_start(doc: Path) -> None:
    blocks = BLOCK.findall(doc.read_text(encoding="utf-8"))
    if not blocks:
        sys.exit(f"{doc} has no Python block")
    print(f"--- {doc.name}: first Python block")
    exec(compile(blocks[0], f"{doc} block 1", "exec"), {"__name__": "__docs__"})


def play_gymnasium_env() -> None:
    import gymnasium
    import numpy as np

    import ayo  # noqa: F401  (registers ayo/Ayo-v0)

    env = gymnasium.make("ayo/Ayo-v0")
    _obs, info = env.reset(seed=3)
    steps = 0
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _obs, _reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    env.close()
    print(f"--- gymnasium ayo/Ayo-v0: an episode of {steps} steps, reset and step work")


def run_command(*args: str, expect: str) -> None:
    ayo_command = shutil.which("ayo")
    if ayo_command is None:
        sys.exit("the `ayo` command is not on the PATH")
    if Path(sys.prefix).resolve() not in Path(ayo_command).resolve().parents:
        sys.exit(f"`ayo` is {ayo_command}, not the venv's")
    done = subprocess.run(
        [ayo_command, *args], capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0 or expect not in done.stdout:
        sys.exit(
            f"`ayo {' '.join(args)}` exited {done.returncode}, expected {expect!r} in its"
            f" output:\n{done.stdout}\n{done.stderr}"
        )
    print(f"--- ayo {' '.join(args)}: exit 0, {len(done.stdout.splitlines())} lines")


def main() -> None:
    docs = [Path(arg) for arg in sys.argv[1:]]
    if not docs:
        sys.exit(__doc__)
    check_no_rust()
    check_installed_from_venv()
    for doc in docs:
        run_quick_start(doc)
    play_gymnasium_env()
    run_command("--help", expect="usage: ayo")
    run_command("rules", "ayoayo", expect="Relay sowing")
    print("wheel smoke test passed")


if __name__ == "__main__":
    main()
