"""The CPU kernel (``ayo.kernel``): the one the hot loops run, forced by
``AYO_KERNEL``; each kernel the machine has steps a batch exactly as the
scalar one, and one it lacks (or an unknown name) is refused on import."""

from __future__ import annotations

import os
import subprocess
import sys

import ayo

# A child that prints its kernel and a digest of 200 batch steps of each preset.
CHILD = """
import hashlib
import numpy as np
import ayo
from ayo.vector import AyoVectorEnv

digest = hashlib.sha256()
for preset in ("ayoayo", "ayo", "olopon", "oware"):
    env = AyoVectorEnv(64, rules=preset, max_episode_steps=50)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(200):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = env.step(actions)
        for a in (obs["observation"], obs["action_mask"], reward, terminated, truncated):
            digest.update(np.ascontiguousarray(a).tobytes())
print(ayo.kernel(), digest.hexdigest())
"""


def run_child(kernel: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(ayo.KERNEL_ENV, None)
    if kernel is not None:
        env[ayo.KERNEL_ENV] = kernel
    return subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_the_kernel_is_one_the_cpu_has() -> None:
    kernels = ayo.kernels()
    assert kernels[0] == "scalar"
    assert set(kernels) <= {"scalar", "avx2", "avx512"}
    assert ayo.kernel() in kernels
    assert ayo.KERNEL_ENV == "AYO_KERNEL"


def test_every_kernel_steps_the_batch_as_the_scalar_one() -> None:
    results = {}
    for kernel in ayo.kernels():
        child = run_child(kernel)
        assert child.returncode == 0, child.stderr
        name, digest = child.stdout.split()
        assert name == kernel
        results[kernel] = digest
    assert len(set(results.values())) == 1, results
    # Unset, the best kernel runs.
    child = run_child(None)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split()[0] == ayo.kernels()[-1]


def test_an_unknown_or_missing_kernel_is_refused_on_import() -> None:
    child = run_child("sse9")
    assert child.returncode != 0
    assert "AyoError" in child.stderr
    assert "unknown kernel" in child.stderr
    assert "AYO_KERNEL" in child.stderr
    for kernel in ("avx2", "avx512"):
        if kernel not in ayo.kernels():
            child = run_child(kernel)
            assert child.returncode != 0
            assert "which this CPU lacks" in child.stderr
