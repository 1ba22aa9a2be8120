"""ayo's env-step inside a compiled JAX program, against its anchors (docs/benchmarks.md).

Every figure is a batch of ``--batch`` games stepped ``--steps`` times, one
thread (XLA's CPU client restricted to one thread, ``AyoVectorEnv`` with
``num_threads=1``), after a warm-up run (compilation excluded), best of
``--repeat``; the two rows of each compared pair (``ayo.jax scan`` and
``python loop``, the two replays) are run in turn, so that both see the
same load on a shared host. An env-step is two moves: the agent's (a uniformly random
legal action) and the random opponent's reply. The rules are oware with
the repetition end replaced by a cap of 200 capture-less moves
(``Rules("oware", repetition="off", move_limit=200)``), the rules of the JAX
Oware anchor, which plays them exactly.

The agent's action is the legal action with the largest of six uniforms
drawn before the timing (a select and an argmax in the loop, no
random-number generation: the step is what is timed), the same numbers on
every side.

* ``ayo.jax scan``: ``jax.jit(lax.scan(body))`` where ``body`` picks the
  action from the mask it carries and calls ``step_with_mask`` (one custom
  call a step: the next states and their mask);
* ``python loop``: a Python ``for`` over ``AyoVectorEnv.step`` (the pick
  from the returned mask in numpy), ``copy=False``;
* ``ayo.jax replay``, ``python replay``: the step alone, the actions of
  the ``ayo.jax scan`` run replayed (the same games: the vector env's
  ``reset(seed=0)`` and the records of ``vector_seeds(0, batch)``), a scan
  of ``step`` and a Python loop over ``AyoVectorEnv.step``;
* ``pure_callback``: the same scan with ``AyoVectorEnv.step`` reached
  through ``jax.pure_callback`` (the baseline: a Python round trip a step);
* ``jax oware``: the Pgx-style JAX Oware of ``bench/jax_oware.py`` (branch
  ``jax-anchor``), vmapped, the agent's move, the reply and the autoreset
  in the scan body; measured only when that file exists (``--anchor PATH``
  names another copy), and the output says when it is missing;
* ``pgx connect_four``: Pgx's connect four, one move a step, measured only
  when ``pgx`` is installed.

    python bench/jax_step.py --batch 1024 --steps 1000
"""

from __future__ import annotations

import os

# One thread for XLA's CPU client (before jax is imported).
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "")
    + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

import argparse
import importlib.util
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import ayo
from ayo.jax import JaxEnv
from ayo.vector import AyoVectorEnv

RULES = ayo.Rules("oware", repetition="off", move_limit=200)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def best(run: Callable[[], Any], repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` runs, after one warm-up."""
    jax.block_until_ready(run())
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        jax.block_until_ready(run())
        times.append(time.perf_counter() - t)
    return min(times)


def best_alternated(runs: list[Callable[[], Any]], repeat: int) -> list[float]:
    """:func:`best` of each of ``runs``, their runs taken in turn (a, b, a,
    b, ...): rows compared side by side see the same load on the host."""
    for run in runs:
        jax.block_until_ready(run())
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, ts in zip(runs, times, strict=True):
            t = time.perf_counter()
            jax.block_until_ready(run())
            ts.append(time.perf_counter() - t)
    return [min(ts) for ts in times]


def _pick(u: jax.Array, mask: jax.Array) -> jax.Array:
    """The legal action with the largest of six uniforms ``u`` (a uniformly
    random legal action, from numbers drawn before the timed loop)."""
    # Max, compare and a weighted sum: XLA's CPU argmax (a variadic
    # reduction) cost more than the step here. Rows without a legal action
    # (over, their action ignored) are clamped into range.
    x = jnp.where(mask, u, -1.0)
    hit = x == x.max(axis=-1, keepdims=True)
    index = jnp.arange(x.shape[-1], dtype=jnp.int32)
    return jnp.minimum((hit * index).sum(axis=-1), x.shape[-1] - 1)


def _pick_np(u: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.argmax(np.where(mask, u, -1.0), axis=-1)


def uniforms(steps: int, batch: int, per_step: int, actions: int = 6) -> np.ndarray:
    """A uniform an action of each game for each draw, made before the timing."""
    return np.random.default_rng(0).random((steps, per_step, batch, actions), dtype=np.float32)


def ayo_scan(batch: int, steps: int) -> Callable[[], Any]:
    env = JaxEnv(RULES, max_episode_steps=None)
    states0 = env.init(env.vector_seeds(0, batch))
    mask0 = env.legal_mask(states0)
    us = jnp.asarray(uniforms(steps, batch, 1))

    def body(c: tuple[jax.Array, jax.Array], u: jax.Array) -> tuple[Any, jax.Array]:
        s, mask = c
        s, rewards, _, _, mask = env.step_with_mask(s, _pick(u[0], mask))
        return (s, mask), rewards[:, 0].sum()

    run = jax.jit(lambda s, m, u: jax.lax.scan(body, (s, m), u))
    return lambda: run(states0, mask0, us)


def python_loop(batch: int, steps: int) -> Callable[[], Any]:
    venv = AyoVectorEnv(batch, RULES, max_episode_steps=None, num_threads=1, copy=False)
    us = uniforms(steps, batch, 1)

    def run() -> float:
        obs, _ = venv.reset(seed=0)
        mask = obs["action_mask"]
        total = 0.0
        for t in range(steps):
            obs, reward, _, _, _ = venv.step(_pick_np(us[t, 0], mask))
            mask = obs["action_mask"]
            total += float(reward[0])
        return total

    return run


def callback_scan(batch: int, steps: int) -> Callable[[], Any]:
    venv = AyoVectorEnv(batch, RULES, max_episode_steps=None, num_threads=1, copy=False)
    shapes = (
        jax.ShapeDtypeStruct((batch, 6), jnp.int8),  # type: ignore[no-untyped-call]
        jax.ShapeDtypeStruct((batch,), jnp.float32),  # type: ignore[no-untyped-call]
    )
    us = jnp.asarray(uniforms(steps, batch, 1))

    def host_step(actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        obs, reward, _, _, _ = venv.step(np.asarray(actions))
        return obs["action_mask"].copy(), reward.astype(np.float32)

    def body(mask: jax.Array, u: jax.Array) -> tuple[Any, jax.Array]:
        mask, reward = jax.pure_callback(host_step, shapes, _pick(u[0], mask > 0))
        return mask, reward.sum()

    run = jax.jit(lambda m, u: jax.lax.scan(body, m, u))

    def go() -> Any:
        obs, _ = venv.reset(seed=0)
        return run(jnp.asarray(obs["action_mask"]), us)

    return go


def recorded_actions(batch: int, steps: int) -> np.ndarray:
    """The actions of the ``ayo.jax scan`` run, ``(steps, batch)``: the same
    games as ``AyoVectorEnv.reset(seed=0)`` plays, for the replay rows."""
    env = JaxEnv(RULES, max_episode_steps=None)
    states0 = env.init(env.vector_seeds(0, batch))
    us = jnp.asarray(uniforms(steps, batch, 1))

    def body(c: tuple[jax.Array, jax.Array], u: jax.Array) -> tuple[Any, jax.Array]:
        s, mask = c
        a = _pick(u[0], mask)
        s, _, _, _, mask = env.step_with_mask(s, a)
        return (s, mask), a

    _, actions = jax.jit(lambda s, m, u: jax.lax.scan(body, (s, m), u))(
        states0, env.legal_mask(states0), us
    )
    return np.asarray(actions)


def ayo_replay(actions: np.ndarray) -> Callable[[], Any]:
    env = JaxEnv(RULES, max_episode_steps=None)
    states0 = env.init(env.vector_seeds(0, actions.shape[1]))
    acts = jnp.asarray(actions)

    def body(s: jax.Array, a: jax.Array) -> tuple[jax.Array, jax.Array]:
        s, rewards, _, _ = env.step(s, a)
        return s, rewards[:, 0].sum()

    run = jax.jit(lambda s, a: jax.lax.scan(body, s, a))
    return lambda: run(states0, acts)


def python_replay(actions: np.ndarray) -> Callable[[], Any]:
    venv = AyoVectorEnv(actions.shape[1], RULES, max_episode_steps=None, num_threads=1, copy=False)
    acts = actions.astype(np.int64)

    def run() -> float:
        venv.reset(seed=0)
        total = 0.0
        for a in acts:
            total += float(venv.step(a)[1][0])
        return total

    return run


def oware_anchor(path: Path, batch: int, steps: int) -> Callable[[], Any]:
    spec = importlib.util.spec_from_file_location("jax_oware", path)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["jax_oware"] = mod
    spec.loader.exec_module(mod)
    env = mod.Oware(max_no_capture=200)
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)
    keys = jax.random.split(jax.random.key(0), batch)
    start = init(keys)

    us = jnp.asarray(uniforms(steps, batch, 2))

    def move(state: Any, u: jax.Array) -> Any:
        state = step(state, _pick(u, state.legal_action_mask))
        # Autoreset, as the env-step of ayo's batch: an ended game starts again.
        done = state.terminated | state.truncated
        return jax.tree.map(
            lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), b, a),
            state,
            start,
        )

    def body(state: Any, u: jax.Array) -> tuple[Any, jax.Array]:
        state = move(move(state, u[0]), u[1])  # the agent's move and the reply
        return state, state.rewards[:, 0].sum()

    run = jax.jit(lambda s, u: jax.lax.scan(body, s, u))
    return lambda: run(start, us)


def pgx_connect_four(batch: int, steps: int) -> Callable[[], Any] | None:
    try:
        import pgx  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(env.step)
    start = init(jax.random.split(jax.random.key(0), batch))

    us = jnp.asarray(uniforms(steps, batch, 1, actions=7))

    def body(state: Any, u: jax.Array) -> tuple[Any, jax.Array]:
        state = step(state, _pick(u[0], state.legal_action_mask))
        done = state.terminated | state.truncated
        state = jax.tree.map(
            lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), b, a),
            state,
            start,
        )
        return state, state.rewards[:, 0].sum()

    run = jax.jit(lambda s, u: jax.lax.scan(body, s, u))
    return lambda: run(start, us)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--anchor", type=Path, default=Path(__file__).parent / "jax_oware.py")
    args = parser.parse_args()
    b, t = args.batch, args.steps
    print(f"# {cpu_model()}; jax {jax.__version__}; batch {b}, {t} steps, one thread")
    print(f"# rules: {RULES} (oware, repetition=off, move_limit=200)")
    rows: list[tuple[str, float]] = []

    def report(name: str, seconds: float) -> None:
        rows.append((name, seconds))
        per = seconds / t * 1e6
        rate = b * t / seconds / 1e6
        print(f"{name:<18} {seconds:8.3f} s  {per:9.1f} us/step  {rate:7.3f} M env-steps/s")

    # Each pair whose ratio has a target timed in turn.
    scan, loop = best_alternated([ayo_scan(b, t), python_loop(b, t)], args.repeat)
    report("ayo.jax scan", scan)
    report("python loop", loop)
    report("pure_callback", best(callback_scan(b, t), args.repeat))
    # The step alone: the actions above replayed (no pick in the loop).
    actions = recorded_actions(b, t)
    replays = best_alternated([ayo_replay(actions), python_replay(actions)], args.repeat)
    report("ayo.jax replay", replays[0])
    report("python replay", replays[1])
    if args.anchor.exists():
        report("jax oware", best(oware_anchor(args.anchor, b, t), args.repeat))
    else:
        print(f"jax oware          not measured: {args.anchor} is missing (branch jax-anchor)")
    c4 = pgx_connect_four(b, t)
    if c4 is not None:
        report("pgx connect_four", best(c4, args.repeat))
    else:
        print("pgx connect_four   not measured: pgx is not installed")
    times = dict(rows)
    base = times["ayo.jax scan"]
    for name, seconds in rows:
        if "replay" not in name and name != "ayo.jax scan":
            print(f"# ayo.jax scan vs {name}: {seconds / base:.2f}x")
    replay = times["python replay"] / times["ayo.jax replay"]
    print(f"# ayo.jax replay vs python replay: {replay:.2f}x")


if __name__ == "__main__":
    main()
