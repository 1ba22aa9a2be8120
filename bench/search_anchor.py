#!/usr/bin/env python3
"""The search benchmark's anchor (issues #39 and #41): mctx over a JAX Oware.

Times ``mctx.muzero_policy`` and ``mctx.gumbel_muzero_policy`` on CPU with the
JAX Oware of bench/jax_oware.py as their ``recurrent_fn`` (the environment's
step is the dynamics) and a trivial evaluator (uniform prior logits over the
legal moves, value 0), jitted, one search of a batch of start positions a
call; and the same searches with trivial dynamics (the state unchanged,
reward 0: what mctx itself costs, a ceiling for any dynamics). Each figure is
simulations a second (batch x simulations / seconds a call), the median of
``--repeats`` calls after a first, untimed call that compiles; mctx over the
JAX Oware and ayo are timed in turn instead (``--repeats`` turns of each, a
turn an untimed call and three timed ones), and their ratio is the median
of the turn pairs' ratios: the host's speed drifts during a run, and a turn
pair sees the same speed. Beside each figure the
process's CPU time over the wall time of the timed calls (about 1 when the
search runs on one thread), and the simulations a second of CPU time (the
figure over that share): on a machine shared with other work, where a
process gets less than a core, that column is the one to compare.

One core: unless ``XLA_FLAGS`` is already set, the script sets
``--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1`` before
jax is imported (XLA's CPU thread pool off), and it pins every thread of
the process to one CPU (the first it may run on), as ``taskset`` would:
XLA still runs helper threads, which then share that core. ``--all-cores``
leaves the process free to use every core (its CPU time over wall time
then shows how many it took).

Before timing it runs the checker (bench/jax_oware_check.py) and stops if
the JAX Oware disagrees with ayo. Beside mctx: ayo's batched guided search
(``ayo.GuidedSearch``, the same trivial evaluator answering each round from
Python), and OpenSpiel's Python ``MCTSBot`` on its ``oware`` with an
evaluator of the same kind (uniform prior over the legal moves, value 0; no
rollouts), one root at a time as it searches (``--openspiel-roots`` of them).

    python bench/search_anchor.py                 # batches 256 and 1024, 32 and 128 simulations
    python bench/search_anchor.py --smoke         # every timing path once, tiny sizes
    python bench/search_anchor.py --batch 256 --simulations 32 --repeats 9
"""

from __future__ import annotations

import os

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse
import contextlib
import gc
import importlib.metadata
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np

import ayo

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jax_oware
import jax_oware_check

SEED = 20_260_101
METHODS = {"puct": "muzero_policy", "gumbel": "gumbel_muzero_policy"}


@dataclass
class Row:
    """One line of the table."""

    engine: str
    method: str
    dynamics: str
    batch: int
    simulations: int
    #: Median seconds a call (one search of the whole batch); None: not measured.
    seconds: float | None
    note: str = ""
    #: Process CPU time over wall time in the timed calls (about 1: one thread).
    cpu_share: float | None = None

    def sims_per_second(self) -> float | None:
        if self.seconds is None:
            return None
        return self.batch * self.simulations / self.seconds


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Python's cyclic garbage collector off while timing, as ``timeit``
    has it: after jax's compilations the process holds millions of objects,
    and a full collection that falls in one engine's calls would be timed
    as that engine's."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def timed(call: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """The median seconds of ``repeats`` calls, after one untimed call
    (compilation), and the process's CPU time over the wall time of them all."""
    jax.block_until_ready(call())
    times = []
    with no_gc():
        # After the collection `no_gc` makes: its time is neither side's.
        cpu = time.process_time()
        for _ in range(repeats):
            t = time.perf_counter()
            jax.block_until_ready(call())
            times.append(time.perf_counter() - t)
    return statistics.median(times), (time.process_time() - cpu) / sum(times)


def timed_pair(
    ours: Callable[[], Any], theirs: Callable[[], Any], repeats: int, block: int = 3
) -> tuple[tuple[float, float], tuple[float, float], list[float]]:
    """``ours`` and ``theirs`` timed in turn, ``repeats`` turns each: a turn
    is an untimed call (after the other side's calls, the caches are the
    other's) and ``block`` timed ones, of which it keeps the median. For
    each side, the median of its turns and its CPU time over wall time (as
    ``timed``); and the speed ratios (theirs' seconds over ours') turn pair
    by turn pair, so that a host whose speed drifts during the run (other
    work on it) moves both sides of a ratio alike."""
    turns: tuple[list[float], list[float]] = ([], [])
    cpu, wall = [0.0, 0.0], [0.0, 0.0]
    with no_gc():
        for _ in range(repeats):
            for side, call in enumerate((ours, theirs)):
                jax.block_until_ready(call())
                times = []
                for _ in range(block):
                    c, t = time.process_time(), time.perf_counter()
                    jax.block_until_ready(call())
                    times.append(time.perf_counter() - t)
                    cpu[side] += time.process_time() - c
                wall[side] += sum(times)
                turns[side].append(statistics.median(times))
    a, b = turns
    ratios = [y / x for x, y in zip(a, b, strict=True)]
    return (
        (statistics.median(a), cpu[0] / wall[0]),
        (statistics.median(b), cpu[1] / wall[1]),
        ratios,
    )


def masked_uniform(mask: jax.Array) -> jax.Array:
    """Uniform prior logits over the legal actions (the trivial evaluator)."""
    return jnp.where(mask, 0.0, jnp.finfo(jnp.float32).min)


def mctx_search(method: str, dynamics: str, batch: int, simulations: int) -> Callable[[], Any]:
    """A jitted search of ``batch`` start positions; returns a call of it."""
    env = jax_oware.Oware()
    step = jax.vmap(env.step)
    rows = jnp.arange(batch)

    def oware_dynamics(params: Any, key: Any, action: Any, state: jax_oware.State) -> Any:
        del params, key
        mover = state.current_player
        state = step(state, action)
        out = mctx.RecurrentFnOutput(
            reward=state.rewards[rows, mover],
            # The players alternate (-1); nothing follows the end (0).
            discount=jnp.where(state.terminated, 0.0, -1.0),
            prior_logits=masked_uniform(state.legal_action_mask),
            value=jnp.zeros(batch, jnp.float32),
        )
        return out, state

    def trivial_dynamics(params: Any, key: Any, action: Any, state: jax_oware.State) -> Any:
        del params, key, action
        out = mctx.RecurrentFnOutput(
            reward=jnp.zeros(batch, jnp.float32),
            discount=-jnp.ones(batch, jnp.float32),
            prior_logits=jnp.zeros((batch, jax_oware.NUM_ACTIONS), jnp.float32),
            value=jnp.zeros(batch, jnp.float32),
        )
        return out, state

    recurrent_fn = oware_dynamics if dynamics == "oware" else trivial_dynamics
    policy = getattr(mctx, METHODS[method])

    @jax.jit
    def search(state: jax_oware.State, key: Any) -> Any:
        root = mctx.RootFnOutput(
            prior_logits=masked_uniform(state.legal_action_mask),
            value=jnp.zeros(batch, jnp.float32),
            embedding=state,
        )
        out = policy(
            params=(),
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            invalid_actions=~state.legal_action_mask,
        )
        return out.action, out.action_weights

    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(SEED), batch))
    key = jax.random.PRNGKey(SEED + 1)
    return lambda: search(state, key)


#: ayo's rows' dynamics: its own rules engine, on the JAX Oware's rule set.
AYO_DYNAMICS = "ayo, same rules"


def ayo_search(batch: int, simulations: int, method: str) -> Callable[[], Any] | None:
    """ayo's batched guided search (``ayo.GuidedSearch``) with the same trivial
    evaluator: every game of the batch at Oware's start, as mctx's roots,
    under the rules the JAX Oware plays (no repetition rule, the move limit
    of 200 moves without a capture), so that both search the same game;
    a fresh search a call, as each mctx call searches afresh (one
    ``GuidedSearch``, as a self-play loop keeps one: its memory is reserved
    by the first, untimed call). None where this ayo has no guided search."""
    if not hasattr(ayo, "GuidedSearch"):
        return None
    games = [ayo.Game(jax_oware.Oware().rules) for _ in range(batch)]
    # The trivial network's answer, made once: a round's is its first rows
    # (views, no copy), as mctx's trivial evaluator costs nothing in its
    # compiled loop. ayo only reads them.
    logits, values = np.zeros((batch, 6), np.float32), np.zeros(batch, np.float32)

    def evaluate(observations: Any, masks: Any) -> tuple[np.ndarray, np.ndarray]:
        n = len(masks)
        return logits[:n], values[:n]

    searcher = ayo.GuidedSearch(simulations, method="gumbel" if method == "gumbel" else "puct")
    return lambda: searcher.run(games, evaluate)


def openspiel_rows(
    simulations: list[int], roots: int, repeats: int, batch_of_table: int
) -> list[Row]:
    """OpenSpiel's Python ``MCTSBot`` with a trivial evaluator on ``oware``:
    ``roots`` searches from the start, one after another (the bot searches
    one state at a time, so a batch is a loop); the row's figure is
    simulations a second over them. ``solve=False``: mctx and ayo do not
    solve game ends either."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return [
            Row(
                "OpenSpiel MCTSBot",
                "puct",
                "pyspiel oware",
                0,
                0,
                None,
                'not measured: OpenSpiel is not installed (pip install ".[openspiel]")',
            )
        ]

    class Trivial(mcts.Evaluator):  # type: ignore[misc]
        """Value 0 for both players, a uniform prior over the legal moves."""

        def evaluate(self, state: Any) -> np.ndarray:
            return np.zeros(2)

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    game = pyspiel.load_game("oware")
    out = []
    for sims in simulations:
        bot = mcts.MCTSBot(
            game, 1.25, sims, Trivial(), solve=False, random_state=np.random.RandomState(SEED)
        )
        start = game.new_initial_state()

        def search(bot: Any = bot, start: Any = start) -> None:
            for _ in range(roots):
                bot.mcts_search(start)

        seconds, share = timed(search, repeats)
        note = f"{roots} roots searched one after another; figure scaled to the row's batch"
        out.append(
            Row(
                "OpenSpiel MCTSBot",
                "puct",
                "pyspiel oware",
                batch_of_table,
                sims,
                seconds * batch_of_table / roots,
                note,
                share,
            )
        )
    return out


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def table(rows: list[Row]) -> str:
    out = [
        "| engine | method | dynamics | batch | simulations | ms a call | simulations/s "
        "| CPU/wall | simulations a CPU-second | note |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        sps = r.sims_per_second()
        ms = f"{r.seconds * 1e3:.3g}" if r.seconds is not None else "—"
        figure = f"{sps:,.0f}" if sps is not None else "—"
        share = f"{r.cpu_share:.2f}" if r.cpu_share is not None else "—"
        per_cpu = f"{sps / r.cpu_share:,.0f}" if sps is not None and r.cpu_share else "—"
        out.append(
            f"| {r.engine} | {r.method} | {r.dynamics} | {r.batch or '—'} | {r.simulations or '—'} "
            f"| {ms} | {figure} | {share} | {per_cpu} | {r.note} |"
        )
    return "\n".join(out)


def pin_to_one_cpu() -> int | None:
    """Pins every thread of this process (numpy's and XLA's, started at
    import, and through them any later one) to the first CPU it may run on;
    that CPU, or None where the platform cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    tasks = Path("/proc/self/task")
    for tid in [int(t.name) for t in tasks.iterdir()] if tasks.is_dir() else [0]:
        # A thread may end meanwhile.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.sched_setaffinity(tid, {cpu})
    return cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, action="append", help="default 256 and 1024")
    parser.add_argument("--simulations", type=int, action="append", help="default 32 and 128")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls (default 5)")
    parser.add_argument("--check-games", type=int, default=200, help="checker games (0: skip)")
    parser.add_argument(
        "--openspiel-roots",
        type=int,
        default=32,
        help="searches timed for OpenSpiel's MCTSBot (0: skip)",
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one call each")
    parser.add_argument(
        "--all-cores", action="store_true", help="do not pin the process to one CPU"
    )
    args = parser.parse_args(argv)
    pinned = None if args.all_cores else pin_to_one_cpu()
    batches = args.batch or ([8] if args.smoke else [256, 1024])
    simulations = args.simulations or ([8] if args.smoke else [32, 128])
    repeats = args.repeats or (1 if args.smoke else 5)
    check_games = min(args.check_games, 20) if args.smoke else args.check_games

    print(f"# mctx over a JAX Oware{' (smoke run: figures mean nothing)' if args.smoke else ''}")
    load = os.getloadavg()
    for k, v in {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": shlex.join([sys.executable, *sys.argv]),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "pinned to": "no one CPU" if pinned is None else f"CPU {pinned} (every thread)",
        "load average at start": f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "XLA_FLAGS": os.environ.get("XLA_FLAGS", ""),
        "jax devices": ", ".join(str(d) for d in jax.devices()),
        "versions": ", ".join(
            f"{d} {version(d)}"
            for d in ("ayo-mancala", "jax", "jaxlib", "mctx", "numpy", "open-spiel")
        ),
        "JAX Oware rules": f"ayo's {jax_oware.Oware().rules} (see bench/jax_oware.py)",
        "roots": "the start position, batch copies; trivial evaluator (uniform legal, value 0)",
        "figures": f"median of {repeats} calls (or turns) after a compiling call, seed {SEED}",
    }.items():
        print(f"- {k}: {v}")

    if check_games:
        print(f"\n## Checking the JAX Oware against ayo ({check_games} games a rule set)\n")
        if jax_oware_check.check(check_games, SEED):
            print("\nthe JAX Oware disagrees with ayo: no timing")
            return 1
    else:
        print("\n(the check against ayo was skipped: --check-games 0)")

    rows: list[Row] = []
    ratios: list[str] = []
    step = "JAX Oware step"
    for method in METHODS:
        engine = f"mctx.{METHODS[method]}"
        for batch in batches:
            for sims in simulations:
                theirs = mctx_search(method, "oware", batch, sims)
                ours = ayo_search(batch, sims, method)
                if ours is None:
                    seconds, share = timed(theirs, repeats)
                    rows.append(Row(engine, method, step, batch, sims, seconds, cpu_share=share))
                    continue
                (a, a_share), (b, b_share), r = timed_pair(ours, theirs, repeats)
                rows.append(Row(engine, method, step, batch, sims, b, cpu_share=b_share))
                rows.append(Row("ayo", method, AYO_DYNAMICS, batch, sims, a, cpu_share=a_share))
                ratios.append(
                    f"| {method} | {batch} | {sims} | {statistics.median(r):.2f} "
                    f"| {min(r):.2f} to {max(r):.2f} |"
                )
                print(
                    f"  measured: ayo and {engine}, batch {batch}, {sims} simulations",
                    file=sys.stderr,
                    flush=True,
                )
    if not ratios:
        rows.append(
            Row(
                "ayo",
                "puct, gumbel",
                AYO_DYNAMICS,
                0,
                0,
                None,
                "not measured: this ayo has no batched guided search (ayo.GuidedSearch)",
            )
        )
    for method in METHODS:
        for batch in batches:
            for sims in simulations:
                seconds, share = timed(mctx_search(method, "trivial", batch, sims), repeats)
                engine = f"mctx.{METHODS[method]}"
                name = "trivial (state unchanged)"
                rows.append(Row(engine, method, name, batch, sims, seconds, cpu_share=share))
    roots = min(args.openspiel_roots, 2) if args.smoke else args.openspiel_roots
    if roots > 0:
        rows.extend(openspiel_rows(simulations, roots, repeats, batches[0]))
    print()
    print(table(rows))
    if ratios:
        print()
        print("ayo against mctx over the JAX Oware, timed in turn (a few calls of each, repeated):")
        print("the median of the turn pairs' ratios, and their range.")
        print()
        print("| method | batch | simulations | ayo / mctx (times) | turn pairs' range |")
        print("|---|---:|---:|---:|---|")
        print("\n".join(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
