"""ayo.vector.AyoVectorEnv out of memory: a ``MemoryError``, never an abort.

A batch far larger than the address space (``num_envs=30_000_000`` is about
18 GB) is refused with a ``MemoryError`` naming the bytes asked for, and the
interpreter goes on: a small batch made afterwards steps as usual. Each case
runs in a subprocess whose address space is capped with
``resource.setrlimit(RLIMIT_AS)`` 1 GiB above what the interpreter already
holds; the subprocess must exit 0 (not die by a signal) having caught the
error.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from address_limit import child_script

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's"
)

CHILD = child_script(
    """
    import resource
    import sys

    import numpy as np

    import ayo.vector


    num_envs = int(sys.argv[1])
    opponent = None if sys.argv[2] == "self" else sys.argv[2]
    limit_address_space(1024 * 1024 * 1024)
    try:
        ayo.vector.AyoVectorEnv(num_envs, opponent=opponent)
    except MemoryError as e:
        print("caught:", type(e).__name__, e, flush=True)
    else:
        print("the huge batch was made", flush=True)
        sys.exit(3)
    # The interpreter is whole: a small batch works.
    env = ayo.vector.AyoVectorEnv(8, opponent=opponent)
    obs, _ = env.reset(seed=1)
    actions = env.action_masks().argmax(axis=1)
    obs, reward, terminated, truncated, info = env.step(actions)
    assert obs["observation"].shape == (8, 14)
    assert len(env.records()) == 8
    print("small batch ok", flush=True)
    sys.exit(0)
    """
)


def run_child(num_envs: int, opponent: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MALLOC_ARENA_MAX": "2"}
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(num_envs), opponent],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


@pytest.mark.parametrize("opponent", ["random", "self", "greedy"])
def test_a_huge_batch_is_a_memory_error_not_an_abort(opponent: str) -> None:
    """Issue 14, defect 3: ``AyoVectorEnv(30_000_000)`` under a lowered limit."""
    proc = run_child(30_000_000, opponent)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n{out}"
    assert "caught: MemoryError out of memory: could not allocate " in proc.stdout, out
    assert "of a batch of 30000000 games (the batch needs " in proc.stdout, out
    assert "memory allocation of" not in out, out
    assert "small batch ok" in proc.stdout, out


def test_the_largest_batch_asked_for_is_a_memory_error() -> None:
    """The largest ``num_envs`` taken (2**32 - 1) fails the same way."""
    proc = run_child(2**32 - 1, "random")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n{out}"
    assert "caught: MemoryError" in proc.stdout, out
    assert "memory allocation of" not in out, out
    assert "small batch ok" in proc.stdout, out
