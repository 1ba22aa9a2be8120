#!/usr/bin/env python3
"""The benchmark suite: ayo side by side with OpenSpiel, PettingZoo, Pgx and EnvPool.

One command prints one table (markdown): each row is the ayo figure, the
anchor's figure on the same machine in the same run, and their ratio, each
figure the median of several runs of a fixed amount of work with fixed
seeds. Anchors that are not installed are reported as such.

    python bench/run.py            # the full suite (minutes)
    python bench/run.py --smoke    # a few hundred steps of everything, once
    python bench/run.py --only batch --json out.json

Install the anchors with ``pip install -r bench/requirements.txt`` (next to
an installed ``ayo``). See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.metadata
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np
from batch_actions import policy_steps, recorded_actions, replay_steps

import ayo
from ayo.vector import AyoVectorEnv

SEED = 20_260_101
PRESETS = ("ayoayo", "ayo", "olopon", "oware")
BATCHES = (1, 64, 1024, 4096)
THREADS = (1, 2)

#: A benchmark: given a size (units of work), runs it and returns
#: (units done, seconds). Units are games, plies, steps or copies.
Work = Callable[[int], tuple[float, float]]


class Unavailable(Exception):
    """An anchor that cannot run here (not installed, or failed to start)."""


@dataclass
class Row:
    """One line of the table."""

    group: str
    name: str
    unit: str
    ayo: float | None
    anchor_name: str = ""
    anchor: float | None = None
    anchor_note: str = ""
    target: float | None = None
    #: The median of the per-pair ratios (ayo run / anchor run right after it).
    ratio: float | None = None

    def met(self) -> str:
        if self.target is None:
            return ""
        r = self.ratio
        if r is None:
            return "not measured"
        return "yes" if r >= self.target else "no"


@dataclass
class Settings:
    """Sizes and repeats: the full suite or the smoke run."""

    smoke: bool
    repeats: int

    def size(self, full: int, smoke: int) -> int:
        return smoke if self.smoke else full


def rate(work: Work, size: int) -> float:
    """Units per second of one run."""
    units, seconds = work(size)
    return units / seconds if seconds > 0 else float("inf")


def median_rate(work: Work, size: int, repeats: int) -> float:
    """Median of ``repeats`` runs (after one warm-up run) in units per second."""
    work(max(1, size // 10))
    return statistics.median(rate(work, size) for _ in range(repeats))


@dataclass
class Pair:
    """ayo and an anchor measured in alternation."""

    ayo: float
    anchor: float | None
    note: str
    ratio: float | None


def paired(
    ayo: Work, ayo_size: int, anchor: Callable[[], Work], anchor_size: int, repeats: int
) -> Pair:
    """ayo's and the anchor's runs alternated (ayo, anchor, ayo, anchor, …), so
    that both see the same load on a shared machine: the median of each, and
    the median of the ratios of each ayo run to the anchor run after it. An
    anchor that cannot run leaves ayo's median alone."""
    try:
        other = anchor()
    except Unavailable as err:
        return Pair(median_rate(ayo, ayo_size, repeats), None, str(err), None)
    except ImportError as err:
        note = f"not installed ({err.name or err})"
        return Pair(median_rate(ayo, ayo_size, repeats), None, note, None)
    ayo(max(1, ayo_size // 10))
    other(max(1, anchor_size // 10))
    mine, theirs = [], []
    for _ in range(repeats):
        mine.append(rate(ayo, ayo_size))
        theirs.append(rate(other, anchor_size))
    ratios = [a / b for a, b in zip(mine, theirs, strict=True) if b > 0]
    return Pair(
        statistics.median(mine),
        statistics.median(theirs),
        "",
        statistics.median(ratios) if ratios else None,
    )


def need(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise Unavailable(f"not installed ({module})") from err


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


# ------------------------------------------------------------ random playouts


def ayo_playouts(preset: str) -> Work:
    game = ayo.Game(preset)

    def run(n: int) -> tuple[float, float]:
        t = time.perf_counter()
        game.random_playouts(n, seed=SEED)
        return n, time.perf_counter() - t

    return run


def openspiel_playouts() -> Work:
    pyspiel = need("pyspiel")
    game = pyspiel.load_game("oware")
    bots = [pyspiel.make_uniform_random_bot(p, SEED + p) for p in range(2)]

    def run(n: int) -> tuple[float, float]:
        t = time.perf_counter()
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, SEED + i)
        return n, time.perf_counter() - t

    return run


# --------------------------------------------------------------- Python loop


def ayo_python_loop(preset: str) -> Work:
    def run(plies: int) -> tuple[float, float]:
        rng = random.Random(SEED)
        done = 0
        t = time.perf_counter()
        while done < plies:
            g = ayo.Game(preset)
            while not g.is_over:
                g.play(rng.choice(g.legal_moves()))
                done += 1
        return done, time.perf_counter() - t

    return run


def openspiel_python_loop() -> Work:
    pyspiel = need("pyspiel")
    game = pyspiel.load_game("oware")

    def run(plies: int) -> tuple[float, float]:
        rng = random.Random(SEED)
        done = 0
        t = time.perf_counter()
        while done < plies:
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                done += 1
        return done, time.perf_counter() - t

    return run


# ------------------------------------------------------------- single steps

#: Random priorities per action: "the legal action of highest priority" is a
#: uniformly random legal action, chosen with one numpy call per step.
PRIORITIES = np.random.default_rng(SEED).random((97, 7))


def ayo_gym_step(preset: str, replay: bool = False, direct: bool = False) -> Work:
    """``env.step`` of ``ayo/Ayo-v0`` (made by ``gymnasium.make``, or the bare
    ``AyoEnv`` with ``direct``), each step's action the masked-random choice.

    ``replay``: the actions (and the resets between episodes) are chosen in a
    first, untimed pass and replayed from the same seed, so that only
    ``step`` and ``reset`` are timed, not the benchmark's own numpy policy
    (about 2 us, more than a whole ayo step). The replay is exact: the
    environment is deterministic for a seed, and an illegal action would raise.
    """
    import gymnasium

    from ayo.envs import AyoEnv

    env: Any = AyoEnv(rules=preset) if direct else gymnasium.make("ayo/Ayo-v0", rules=preset)

    def policy_run(steps: int, record: list[int] | None) -> tuple[float, float]:
        obs, _ = env.reset(seed=SEED)
        t = time.perf_counter()
        for k in range(steps):
            a = int(np.argmax(obs["action_mask"] * PRIORITIES[k % 97, :6]))
            if record is not None:
                record.append(a)
            obs, _, terminated, truncated, _ = env.step(a)
            if terminated or truncated:
                obs, _ = env.reset()
        return steps, time.perf_counter() - t

    def replay_run(steps: int) -> tuple[float, float]:
        actions: list[int] = []
        policy_run(steps, actions)
        step, reset = env.step, env.reset
        reset(seed=SEED)
        t = time.perf_counter()
        for a in actions:
            _, _, terminated, truncated, _ = step(a)
            if terminated or truncated:
                reset()
        return steps, time.perf_counter() - t

    return replay_run if replay else functools.partial(policy_run, record=None)


def ayo_vector_step(preset: str, n: int, threads: int, replay: bool = False) -> Work:
    """``AyoVectorEnv.step`` of ``n`` games, the actions picked by one numpy
    call over the masks. ``replay``: the actions are picked in a first,
    untimed pass and replayed from the same seeds, so that only ``step`` is
    timed (exact: the batch is deterministic for its seeds, and an illegal
    action would raise)."""
    # copy=False: the step alone, without copying its arrays out.
    env = AyoVectorEnv(n, rules=preset, num_threads=threads, copy=False)

    def policy_run(steps: int) -> tuple[float, float]:
        return steps * n, policy_steps(env, steps, None, SEED)

    def replay_run(steps: int) -> tuple[float, float]:
        return steps * n, replay_steps(env, recorded_actions(env, steps, SEED), SEED)

    return replay_run if replay else policy_run


def aec_step(make: Callable[[], Any], actions: int, replay: bool = False) -> Work:
    """A PettingZoo AEC env: one step is one move plus the next observation
    and mask (``env.last()``). ``replay`` as in :func:`ayo_gym_step`."""
    env = make()

    def mask_of(obs: Any) -> Any:
        if isinstance(obs, dict):
            return obs["action_mask"]
        return env.infos[env.agent_selection]["action_mask"]

    def policy_run(steps: int, record: list[int | None] | None) -> tuple[float, float]:
        env.reset(seed=SEED)
        t = time.perf_counter()
        for k in range(steps):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                obs, *_ = env.last()
                if record is not None:
                    record.append(None)
            a = int(np.argmax(mask_of(obs) * PRIORITIES[k % 97, :actions]))
            if record is not None:
                record.append(a)
            env.step(a)
        return steps, time.perf_counter() - t

    def replay_run(steps: int) -> tuple[float, float]:
        moves: list[int | None] = []
        policy_run(steps, moves)
        env.reset(seed=SEED)
        t = time.perf_counter()
        for a in moves:
            if a is None:
                env.reset()
                continue
            obs, *_ = env.last()
            mask_of(obs)
            env.step(a)
        return steps, time.perf_counter() - t

    return replay_run if replay else functools.partial(policy_run, record=None)


def pettingzoo_connect_four(replay: bool = False) -> Work:
    classic = need("pettingzoo.classic")
    try:
        return aec_step(lambda: classic.connect_four_v3.env(), 7, replay)
    except ImportError as err:
        raise Unavailable(f"not installed ({err.name})") from err


def shimmy_oware(replay: bool = False) -> Work:
    shimmy = need("shimmy")
    need("pyspiel")
    return aec_step(lambda: shimmy.OpenSpielCompatibilityV0(game_name="oware"), 6, replay)


# ------------------------------------------------------------------ batches


@functools.cache
def pgx_connect_four(n: int, replay: bool = False) -> Work:
    """Pgx's batched step, the random legal action drawn inside the same jit.
    ``replay``: the actions (and the step's keys) are drawn in a first,
    untimed pass and replayed through a jit of the step alone."""
    jax = need("jax")
    pgx = need("pgx")
    experimental = need("pgx.experimental")
    jnp = jax.numpy
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = experimental.auto_reset(env.step, env.init)

    def policy(state: Any, key: Any) -> tuple[Any, Any]:
        k1, k2 = jax.random.split(key)
        noise = jax.random.uniform(k1, state.legal_action_mask.shape)
        action = jnp.argmax(jnp.where(state.legal_action_mask, noise, -1.0), axis=1)
        return action, jax.random.split(k2, n)

    @jax.jit
    def batch_step(state: Any, key: Any) -> Any:
        action, keys = policy(state, key)
        return jax.vmap(step)(state, action, keys)

    decide = jax.jit(policy)
    step_only = jax.jit(jax.vmap(step))

    def replay_run(steps: int) -> tuple[float, float]:
        key = jax.random.PRNGKey(SEED)
        state = init(jax.random.split(key, n))
        keys = jax.random.split(jax.random.PRNGKey(SEED + 1), steps)
        recorded = []
        for k in range(steps):
            action, step_keys = decide(state, keys[k])
            recorded.append((action, step_keys))
            state = step_only(state, action, step_keys)
        state = init(jax.random.split(key, n))
        jax.block_until_ready((state, recorded))
        t = time.perf_counter()
        for action, step_keys in recorded:
            state = step_only(state, action, step_keys)
        jax.block_until_ready(state)
        return steps * n, time.perf_counter() - t

    def run(steps: int) -> tuple[float, float]:
        key = jax.random.PRNGKey(SEED)
        state = init(jax.random.split(key, n))
        keys = jax.random.split(jax.random.PRNGKey(SEED + 1), steps)
        state = batch_step(state, keys[0])  # compile outside the timing
        jax.block_until_ready(state)
        t = time.perf_counter()
        for k in range(steps):
            state = batch_step(state, keys[k])
        jax.block_until_ready(state)
        return steps * n, time.perf_counter() - t

    return replay_run if replay else run


@functools.cache
def envpool_connect_four(n: int, threads: int) -> Work:
    envpool = need("envpool")
    try:
        env = envpool.make(
            "ConnectFour-v1", env_type="gymnasium", num_envs=n, num_threads=threads, seed=SEED
        )
    except Exception as err:  # an envpool without the game
        raise Unavailable(f"ConnectFour-v1 unavailable: {err}") from err
    noise = np.random.default_rng(SEED).random((97, n, 7))

    def run(steps: int) -> tuple[float, float]:
        _, info = env.reset()
        t = time.perf_counter()
        for k in range(steps):
            a = np.argmax(info["legal_action_mask"] * noise[k % 97], axis=1).astype(np.int32)
            _, _, _, _, info = env.step(a)
        return steps * n, time.perf_counter() - t

    return run


def replay_process(conn: Connection, preset: str, n: int, steps: int) -> None:
    """A process of :class:`ReplayProcesses`: records ``steps`` steps of a
    one-thread batch of ``n`` games, then replays the first ``k`` of them
    each time it receives ``k`` (``None``: stop) and sends back the seconds."""
    env = AyoVectorEnv(n, rules=preset, num_threads=1, copy=False)
    recorded = recorded_actions(env, steps, SEED)
    conn.send(0.0)
    while (k := conn.recv()) is not None:
        conn.send(replay_steps(env, recorded[:k], SEED))
    env.close()


class ReplayProcesses:
    """Two processes, each replaying a one-thread batch (as the target rows
    do): run at once, they show how two independent copies of the step
    scale on this machine's two cores, the most two threads of one batch
    can be expected to reach here (a shared host's second vCPU comes and
    goes)."""

    def __init__(self, preset: str, n: int, steps: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.n = n
        self.conns: list[Connection] = []
        self.procs: list[BaseProcess] = []
        for _ in range(2):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=replay_process, args=(theirs, preset, n, steps))
            proc.start()
            self.conns.append(mine)
            self.procs.append(proc)
        for conn in self.conns:
            conn.recv()  # recorded

    def run(self, copies: int, steps: int) -> tuple[float, float]:
        """``copies`` processes replay ``steps`` steps at once: the units of
        all and the seconds until the last is done."""
        for conn in self.conns[:copies]:
            conn.send(steps)
        seconds = max(conn.recv() for conn in self.conns[:copies])
        return copies * steps * self.n, seconds

    def close(self) -> None:
        for conn in self.conns:
            conn.send(None)
        for proc in self.procs:
            proc.join()


# ------------------------------------------------------------------- copies


def calls(fn: Callable[[], object]) -> Work:
    """``fn()`` called n times."""

    def run(n: int) -> tuple[float, float]:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return n, time.perf_counter() - t

    return run


def ayo_copy() -> Work:
    g = ayo.Game("oware")
    rng = random.Random(SEED)
    for _ in range(20):
        g.play(rng.choice(g.legal_moves()))
    return calls(g.copy)


def openspiel_clone() -> Work:
    pyspiel = need("pyspiel")
    s = pyspiel.load_game("oware").new_initial_state()
    rng = random.Random(SEED)
    for _ in range(20):
        s.apply_action(rng.choice(s.legal_actions()))
    return calls(s.clone)


# -------------------------------------------------------------------- suite


def suite(cfg: Settings, only: set[str] | None) -> list[Row]:
    rows: list[Row] = []
    r = cfg.repeats

    def want(group: str) -> bool:
        return only is None or group in only

    def add(
        group: str, name: str, unit: str, anchor_name: str, p: Pair, target: float | None = None
    ) -> None:
        rows.append(Row(group, name, unit, p.ayo, anchor_name, p.anchor, p.note, target, p.ratio))
        print(f"  {group}: {name} / {anchor_name}: done", file=sys.stderr, flush=True)

    if want("playouts"):
        size = cfg.size(4000, 20)
        for preset in PRESETS:
            name = f"native random playouts, {preset}"
            anchor = "OpenSpiel C++ oware, evaluate_bots(uniform random)"
            if preset == "oware":
                p = paired(ayo_playouts(preset), size * 2, openspiel_playouts, size, r)
            else:
                ayo_rate = median_rate(ayo_playouts(preset), size * 2, r)
                p = Pair(ayo_rate, None, "no such game in OpenSpiel", None)
            add("playouts", name, "games/s", anchor, p)
    if want("loop"):
        size = cfg.size(200_000, 300)
        p = paired(ayo_python_loop("oware"), size, openspiel_python_loop, size, r)
        name = "Python loop (legal moves + play), oware"
        add("loop", name, "plies/s", "OpenSpiel Python oware loop", p, 1.5)
    if want("step"):
        size = cfg.size(100_000, 300)
        small = cfg.size(5_000, 300)  # the Python anchors are slower
        gym = 'env.step + obs + mask, oware: gymnasium.make("ayo/Ayo-v0")'
        bare = "env.step + obs + mask, oware: AyoEnv (no wrappers)"
        vec_name = "env.step + obs + mask, oware: AyoVectorEnv(num_envs=1)"
        pz = "PettingZoo connect_four_v3"
        replayed = " (recorded legal actions replayed: step only)"
        policy = " (numpy masked-random policy in the loop)"

        def pz_replay() -> Work:
            return pettingzoo_connect_four(replay=True)

        p = paired(ayo_gym_step("oware", replay=True), small * 4, pz_replay, small, r)
        add("step", gym + replayed, "steps/s", pz + replayed, p, 50)
        p = paired(ayo_gym_step("oware", True, direct=True), small * 4, pz_replay, small, r)
        add("step", bare + replayed, "steps/s", pz + replayed, p)
        p = paired(ayo_gym_step("oware"), small * 4, pettingzoo_connect_four, small, r)
        add("step", gym + policy, "steps/s", pz + policy, p)
        p = paired(ayo_vector_step("oware", 1, 1), size, pettingzoo_connect_four, small, r)
        add("step", vec_name + policy, "steps/s", pz + policy, p)
        p = paired(ayo_gym_step("oware"), small * 4, shimmy_oware, small, r)
        add("step", gym + policy, "steps/s", "OpenSpiel oware through Shimmy" + policy, p)
    if want("batch"):
        replayed = " (recorded legal actions replayed: step only)"
        policy = " (masked-random policy in the loop)"
        for n in BATCHES:
            steps = cfg.size(max(50, 200_000 // n), max(3, 300 // n))
            # The anchors' single steps cost more (jit dispatch): fewer of them.
            few = cfg.size(min(3_000, steps), max(3, 300 // n))
            for threads in THREADS:
                label = f"batch {n}, {threads} thread{'s' if threads > 1 else ''}"
                for preset in ("oware", "ayoayo"):
                    target = None
                    if n == 1024:
                        target = 10 if preset == "oware" else 3
                        # The target rows: the step alone on both sides.
                        ours = ayo_vector_step(preset, n, threads, replay=True)
                        pgx_replay = functools.partial(pgx_connect_four, n, True)
                        p = paired(ours, steps, pgx_replay, few, r)
                        pgx = "Pgx connect_four (CPU jax, jit+vmap)"
                        add(
                            "batch",
                            f"{label}, {preset}{replayed}",
                            "env-steps/s",
                            pgx + replayed,
                            p,
                            target,
                        )
                    ours = ayo_vector_step(preset, n, threads)
                    p = paired(ours, steps, lambda n=n: pgx_connect_four(n), few, r)
                    pgx = "Pgx connect_four (CPU jax, jit+vmap)"
                    add("batch", f"{label}, {preset}{policy}", "env-steps/s", pgx + policy, p)
                    p = paired(
                        ours, steps, lambda n=n, t=threads: envpool_connect_four(n, t), few, r
                    )
                    envpool = f"EnvPool ConnectFour-v1 (num_threads={threads})"
                    add("batch", f"{label}, {preset}{policy}", "env-steps/s", envpool + policy, p)
    if want("threads"):
        # Two threads against one (target >= 1.8x), each pair in alternation,
        # and beside them what two independent processes reach on this host.
        # Runs of a few tens of ms on a host whose second vCPU comes and
        # goes: three times the pairs of the other groups.
        n, pairs = 1024, 3 * r
        steps = cfg.size(max(50, 200_000 // n), max(3, 300 // n))
        replayed = " (recorded legal actions replayed: step only)"
        for preset in ("oware", "ayoayo"):
            ours = ayo_vector_step(preset, n, 2, replay=True)
            one = functools.partial(ayo_vector_step, preset, n, 1, True)
            p = paired(ours, steps, one, steps, pairs)
            name = f"batch {n}, 2 threads, {preset}{replayed}"
            add("threads", name, "env-steps/s", "the same batch on 1 thread", p, 1.8)
        procs = ReplayProcesses("oware", n, steps)
        try:
            p = paired(
                lambda k: procs.run(2, k), steps, lambda: lambda k: procs.run(1, k), steps, pairs
            )
        finally:
            procs.close()
        name = f"two processes at once, each a 1-thread batch {n}, oware{replayed}"
        add("threads", name, "env-steps/s", "one such process alone (the host's 2-core scaling)", p)
    if want("copy"):
        size = cfg.size(300_000, 300)
        p = paired(ayo_copy(), size, openspiel_clone, size, r)
        name = "copy a mid-game state from Python (Game.copy)"
        add("copy", name, "copies/s", "OpenSpiel oware state.clone()", p)
    return rows


def fmt(x: float | None) -> str:
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def conditions() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpu": cpu,
        "kernel": f"{ayo.kernel()} (of {', '.join(ayo.kernels())}; {ayo.KERNEL_ENV} forces one)",
        "cores": os.cpu_count(),
        "load average at start": f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "python": platform.python_version(),
        "versions": {
            d: version(d)
            for d in (
                "ayo",
                "numpy",
                "gymnasium",
                "open-spiel",
                "pettingzoo",
                "shimmy",
                "pgx",
                "jax",
                "envpool",
            )
        },
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "(unset)"),
        "OPENBLAS_L2_SIZE": os.environ.get("OPENBLAS_L2_SIZE", "(unset)"),
    }


def table(rows: list[Row]) -> str:
    out = [
        "| benchmark | unit | ayo | anchor | anchor figure | ratio | target | met |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    for row in rows:
        anchor = fmt(row.anchor) if row.anchor is not None else (row.anchor_note or "—")
        ratio = f"{row.ratio:.2f}x" if row.ratio is not None else "—"
        target = f">= {row.target:g}x" if row.target is not None else ""
        out.append(
            f"| {row.name} | {row.unit} | {fmt(row.ayo)} | {row.anchor_name} | {anchor} "
            f"| {ratio} | {target} | {row.met()} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps each, once")
    parser.add_argument("--repeats", type=int, default=None, help="runs per figure (default 5)")
    parser.add_argument(
        "--only",
        action="append",
        choices=["playouts", "loop", "step", "batch", "threads", "copy"],
        help="run only these groups (repeatable)",
    )
    parser.add_argument("--json", help="also write the rows and conditions to this file")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.smoke else 5)
    cfg = Settings(smoke=args.smoke, repeats=repeats)
    cond = conditions()
    print(f"# ayo benchmark suite{' (smoke run: figures mean nothing)' if args.smoke else ''}")
    for k, v in cond.items():
        print(f"- {k}: {v}")
    print(f"- median of {repeats} run(s) per figure, seed {SEED}\n", flush=True)
    rows = suite(cfg, set(args.only) if args.only else None)
    print(table(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "conditions": cond,
                    "repeats": repeats,
                    "smoke": args.smoke,
                    "rows": [{**row.__dict__, "met": row.met()} for row in rows],
                },
                f,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
