#!/usr/bin/env python3
"""Self-play positions a second: ayo's batched search against mctx, one fixed MLP on both sides.

Both play a batch of Oware games from the start to the end with a Gumbel
search at every move (``gumbel_muzero_policy``'s defaults: 16 considered
actions capped at the 6 legal ones, ``c_visit`` 50, ``c_scale`` 0.1), the
same small network (a multilayer perceptron 14-128-128-7 with fixed random
weights, jitted JAX, on the observation both engines share) evaluating every
leaf, and the most visited (improved-policy) move played:

* ayo: ``ayo.self_play`` (the search in Rust, the network asked once a round
  for every tree's leaf through a jitted forward pass on padded batches);
* mctx: one jitted ``lax.while_loop`` over the plies until every game has
  ended, ``mctx.gumbel_muzero_policy`` with the JAX Oware of
  bench/jax_oware.py as ``recurrent_fn`` (its step the dynamics, the same
  network giving the priors and values).

Rules: ``oware[repetition=off,move_limit=200]``, which the JAX Oware plays
exactly (bench/jax_oware_check.py). A position is a move played by a game
still going. Each figure is the median of ``--repeats`` runs after one that
compiles; one thread for XLA (``XLA_FLAGS`` as bench/search_anchor.py), and
every thread pinned to one CPU as there (``--all-cores`` to leave it free).

    python bench/selfplay_anchor.py                     # batch 256, 32 simulations
    python bench/selfplay_anchor.py --batch 64 --simulations 16 --repeats 1   # a smoke run
"""

from __future__ import annotations

import os

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse
import importlib.metadata
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np

import ayo

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jax_oware
from search_anchor import cpu_model, pin_to_one_cpu

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "python"))
import alphazero

SEED = 20_260_101
HIDDEN = (128, 128)
SEED_SCALE = 48.0
RULES = "oware[repetition=off,move_limit=200]"


def init_params(seed: int) -> list[tuple[jax.Array, jax.Array]]:
    widths = [14, *HIDDEN, 7]
    keys = jax.random.split(jax.random.PRNGKey(seed), len(widths) - 1)
    return [
        (jax.random.normal(k, (a, b)) * jnp.sqrt(2.0 / a), jnp.zeros(b))
        for k, a, b in zip(keys, widths[:-1], widths[1:], strict=True)
    ]


def forward(params: Any, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    x = obs.astype(jnp.float32) / SEED_SCALE
    for w, b in params[:-1]:
        x = jnp.maximum(x @ w + b, 0.0)
    w, b = params[-1]
    out = x @ w + b
    return out[:, :6], jnp.tanh(out[:, 6])


def rust_network(params: Any) -> ayo.Network:
    """The same network as an ``ayo.Network`` (the file format examples/python/alphazero.py
    exports): ``ayo.self_play`` then evaluates every leaf in Rust, no Python a round."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "net.ayonet"
        alphazero.export(params, RULES, path)
        return ayo.Network.open(path)


def numpy_evaluator(params: Any) -> Any:
    """The same network as a numpy forward pass: for a batch of a few hundred
    rows a round, cheaper than a dispatch to XLA."""
    layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in params]

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[Any, Any]:
        x = obs * np.float32(1.0 / SEED_SCALE)
        for w, b in layers[:-1]:
            x = np.maximum(x @ w + b, 0.0)
        w, b = layers[-1]
        out = x @ w + b
        return out[:, :6], np.tanh(out[:, 6])

    return evaluate


def ayo_selfplay(evaluate: Any, batch: int, simulations: int, seed: int) -> int:
    """Plays the batch to the end; the positions played."""
    data = ayo.self_play(
        ayo.Rules("oware", repetition="off", move_limit=200),
        evaluate,
        games=batch,
        simulations=simulations,
        method="gumbel",
        max_plies=10_000,
        temperature_plies=0,
        seed=seed,
    )
    return len(data.obs)


def mctx_selfplay(batch: int, simulations: int) -> Any:
    """A jitted function (params, key) -> positions played."""
    env = jax_oware.Oware(max_no_capture=200)
    step = jax.vmap(env.step)
    rows = jnp.arange(batch)

    def recurrent_fn(params: Any, key: Any, action: Any, state: jax_oware.State) -> Any:
        del key
        mover = state.current_player
        state = step(state, action)
        logits, value = forward(params, state.observation)
        out = mctx.RecurrentFnOutput(
            reward=state.rewards[rows, mover],
            discount=jnp.where(state.terminated, 0.0, -1.0),
            prior_logits=jnp.where(state.legal_action_mask, logits, jnp.finfo(jnp.float32).min),
            value=jnp.where(state.terminated, 0.0, value),
        )
        return out, state

    @jax.jit
    def play(params: Any, key: jax.Array) -> jax.Array:
        key, k0 = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(k0, batch))

        def cond(carry: Any) -> jax.Array:
            state, _, _ = carry
            return ~state.terminated.all()

        def body(carry: Any) -> Any:
            state, key, count = carry
            key, k = jax.random.split(key)
            logits, value = forward(params, state.observation)
            mask = state.legal_action_mask
            root = mctx.RootFnOutput(
                prior_logits=jnp.where(mask, logits, jnp.finfo(jnp.float32).min),
                value=value,
                embedding=state,
            )
            out = mctx.gumbel_muzero_policy(
                params=params,
                rng_key=k,
                root=root,
                recurrent_fn=recurrent_fn,
                num_simulations=simulations,
                invalid_actions=~mask,
                max_num_considered_actions=6,
            )
            live = ~state.terminated
            return step(state, out.action), key, count + live.sum()

        _, _, count = jax.lax.while_loop(cond, body, (state, key, jnp.int32(0)))
        return count

    return play


def timed(run: Any, repeats: int) -> tuple[float, int]:
    """Median positions a second over ``repeats`` runs after a first (compiling) one."""
    run()
    rates = []
    positions = 0
    for _ in range(repeats):
        t = time.perf_counter()
        positions = int(run())
        rates.append(positions / (time.perf_counter() - t))
    return statistics.median(rates), positions


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, nargs="+", default=[256])
    p.add_argument("--simulations", type=int, nargs="+", default=[32])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--all-cores", action="store_true", help="do not pin the process to one CPU")
    args = p.parse_args()
    pinned = None if args.all_cores else pin_to_one_cpu()
    params = init_params(SEED)
    print(f"CPU: {cpu_model()}; jax {jax.__version__}, mctx {importlib.metadata.version('mctx')}, ")
    print(f"ayo {ayo.__version__}; XLA_FLAGS={os.environ['XLA_FLAGS']!r}; rules {RULES}; ")
    print(f"pinned to: {'no one CPU' if pinned is None else f'CPU {pinned} (every thread)'}\n")
    print(
        "| batch | simulations | ayo, network in Rust | ayo, network in numpy "
        "| mctx positions/s | ratio (Rust) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for batch in args.batch:
        for sims in args.simulations:
            net = rust_network(params)
            ayo_rate, ayo_n = timed(
                lambda b=batch, s=sims, n=net: ayo_selfplay(n, b, s, SEED), args.repeats
            )
            evaluate = numpy_evaluator(params)
            np_rate, _ = timed(
                lambda b=batch, s=sims, e=evaluate: ayo_selfplay(e, b, s, SEED), args.repeats
            )
            play = mctx_selfplay(batch, sims)
            key = jax.random.PRNGKey(SEED)
            mctx_rate, mctx_n = timed(
                lambda play=play, key=key: jax.block_until_ready(play(params, key)), args.repeats
            )
            print(
                f"| {batch} | {sims} | {ayo_rate:,.0f} ({ayo_n} positions) | {np_rate:,.0f} "
                f"| {mctx_rate:,.0f} ({mctx_n} positions) | {ayo_rate / mctx_rate:.2f}x |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
