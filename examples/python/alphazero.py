"""AlphaZero on ayo: self-play through ayo's batched search, a small network trained in JAX.

Each iteration plays a batch of games to the end with ``ayo.SelfPlay`` (the
search in Rust, the network asked once per round for every tree's leaf),
adds their rows (observation, legal mask, visit-count policy target, final
outcome) to a replay buffer, and trains the network on it with optax's Adam:
cross-entropy against the policy targets (over the legal moves) plus the
squared error of the value against the outcome.

The network is a multilayer perceptron on the environments' 14 features
(seed counts, mover's view), with a head of six move logits and one value
(``tanh``). ``export`` writes it in the file format that ayo's Rust players
read (``ayo_core::players::network``), which is how the learned level ships.

Why JAX and optax: the search hands out one batch of leaves per round, so a
jitted forward pass at a few padded batch sizes is all the network needs,
and a jitted Adam step trains it; both are small and CPU-friendly.
``pip install ".[alphazero]"`` brings them (not dependencies of ``ayo``).

    python examples/python/alphazero.py --rules oware --minutes 10 --out runs/oware
"""

from __future__ import annotations

import argparse
import itertools
import json
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
import optax

import ayo

#: The input scale: seed counts are divided by this before the first layer.
SEED_SCALE = 48.0
OBS = 14
ACTIONS = 6

Params = list[tuple[Any, Any]]


@dataclass
class Config:
    """Everything that decides a training run (with ``seed``, reproducible up to float noise)."""

    rules: str = "oware"
    hidden: tuple[int, ...] = (128, 128)
    games: int = 128  # games of self-play an iteration
    simulations: int = 32
    method: str = "gumbel"
    max_plies: int = 300
    temperature_plies: int = 20
    batch: int = 256
    train_steps: int = 200  # gradient steps an iteration
    buffer: int = 100_000  # rows kept
    lr: float = 1e-3
    weight_decay: float = 1e-4
    seed: int = 0


@dataclass
class History:
    """What a run measured: one entry an iteration."""

    seconds: list[float] = field(default_factory=list)
    #: CPU seconds of the process (all its threads), beside the wall-clock ``seconds``.
    cpu_seconds: list[float] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    policy_loss: list[float] = field(default_factory=list)
    value_loss: list[float] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)


def init_params(hidden: Sequence[int], seed: int) -> Params:
    """He-initialised weights ``(inputs, outputs)`` and zero biases, layer by layer."""
    widths = [OBS, *hidden, ACTIONS + 1]
    keys = jax.random.split(jax.random.PRNGKey(seed), len(widths) - 1)
    params = []
    for k, (a, b) in zip(keys, itertools.pairwise(widths), strict=True):
        w = jax.random.normal(k, (a, b), jnp.float32) * jnp.sqrt(2.0 / a)
        params.append((w, jnp.zeros((b,), jnp.float32)))
    return params


def forward(params: Params, obs: Any, xp: Any = jnp) -> tuple[Any, Any]:
    """Logits ``(n, 6)`` and values ``(n,)`` in [-1, 1]; ``xp`` is jax.numpy or numpy."""
    x = obs / SEED_SCALE
    for w, b in params[:-1]:
        x = xp.maximum(x @ w + b, 0.0)
    w, b = params[-1]
    out = x @ w + b
    return out[:, :ACTIONS], xp.tanh(out[:, ACTIONS])


_forward_jit = jax.jit(forward)


def evaluator(params: Params) -> Callable[[np.ndarray, np.ndarray], tuple[Any, Any]]:
    """``evaluate(obs, mask)`` for ayo's search: a jitted forward pass on padded batches.

    The batch is padded to a power of two so that only a few shapes are compiled.
    """

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[Any, Any]:
        n = obs.shape[0]
        size = max(8, 1 << (n - 1).bit_length())
        padded = np.zeros((size, OBS), np.float32)
        padded[:n] = obs
        logits, values = _forward_jit(params, padded)
        # To numpy first: slicing the JAX arrays would dispatch (and compile
        # for each new n) two more operations a round.
        return np.asarray(logits)[:n], np.asarray(values)[:n]

    return evaluate


def loss_fn(params: Params, batch: dict[str, Any]) -> tuple[Any, tuple[Any, Any]]:
    logits, values = forward(params, batch["obs"])
    logits = jnp.where(batch["mask"], logits, -1e9)
    policy_loss = optax.softmax_cross_entropy(logits, batch["policy"]).mean()
    value_loss = jnp.mean((values - batch["outcome"]) ** 2)
    return policy_loss + value_loss, (policy_loss, value_loss)


def make_update(
    optimizer: optax.GradientTransformation,
) -> Callable[[Params, Any, dict[str, Any]], tuple[Params, Any, Any, Any]]:
    @jax.jit
    def update(params: Params, opt_state: Any, batch: dict[str, Any]) -> Any:
        (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, aux

    return update


class Buffer:
    """The newest ``capacity`` rows of self-play, sampled uniformly."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.data: dict[str, np.ndarray] = {}

    def add(self, rows: dict[str, np.ndarray]) -> None:
        for key in ("obs", "mask", "policy", "outcome"):
            new = np.asarray(rows[key])
            old = self.data.get(key)
            joined = new if old is None else np.concatenate([old, new])
            self.data[key] = joined[-self.capacity :]

    def __len__(self) -> int:
        return 0 if not self.data else len(self.data["outcome"])

    def sample(self, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
        idx = rng.integers(len(self), size=n)
        return {k: v[idx] for k, v in self.data.items()}


def self_play(params: Params, cfg: Config, seed: int) -> dict[str, np.ndarray]:
    """One batch of games played to the end with the search at every move."""
    data = ayo.self_play(
        cfg.rules,
        evaluator(params),
        games=cfg.games,
        simulations=cfg.simulations,
        method="gumbel" if cfg.method == "gumbel" else "puct",
        max_plies=cfg.max_plies,
        temperature_plies=cfg.temperature_plies,
        seed=seed,
    )
    # Truncated games have no outcome to learn a value from.
    keep = ~data.truncated[data.game]
    return {k: getattr(data, k)[keep] for k in ("obs", "mask", "policy", "outcome")}


def train(
    cfg: Config,
    seconds: float | None = None,
    iterations: int | None = None,
    on_iteration: Callable[[int, Params, History], None] | None = None,
) -> tuple[Params, History]:
    """Self-play and training until ``seconds`` have passed or ``iterations`` are done."""
    if seconds is None and iterations is None:
        raise ValueError("give seconds or iterations")
    params = init_params(cfg.hidden, cfg.seed)
    optimizer = optax.adamw(cfg.lr, weight_decay=cfg.weight_decay)
    opt_state = optimizer.init(params)
    update = make_update(optimizer)
    buffer = Buffer(cfg.buffer)
    rng = np.random.default_rng(cfg.seed)
    history = History()
    start = time.monotonic()
    cpu_start = time.process_time()
    it = 0
    while True:
        if iterations is not None and it >= iterations:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        buffer.add(self_play(params, cfg, cfg.seed * 1_000_003 + it))
        losses = []
        for _ in range(cfg.train_steps):
            batch = {k: jnp.asarray(v) for k, v in buffer.sample(rng, cfg.batch).items()}
            params, opt_state, loss, (pl, vl) = update(params, opt_state, batch)
            losses.append((float(loss), float(pl), float(vl)))
        mean = np.mean(losses, axis=0)
        history.seconds.append(time.monotonic() - start)
        history.cpu_seconds.append(time.process_time() - cpu_start)
        history.loss.append(float(mean[0]))
        history.policy_loss.append(float(mean[1]))
        history.value_loss.append(float(mean[2]))
        history.rows.append(len(buffer))
        it += 1
        if on_iteration is not None:
            on_iteration(it, params, history)
    return params, history


def policy_agent(params: Params) -> Callable[[ayo.Game], int]:
    """The network's most likely legal move (no search)."""
    np_params = [(np.asarray(w), np.asarray(b)) for w, b in params]

    def agent(game: ayo.Game) -> int:
        logits, _ = forward(np_params, game.observation("mover")[None, :], xp=np)
        masked = np.where(game.action_mask(), logits[0], -np.inf)
        return int(np.argmax(masked))

    return agent


def search_agent(
    params: Params,
    simulations: int = 64,
    method: Literal["puct", "gumbel"] = "gumbel",
    seed: int = 0,
) -> Callable[[ayo.Game], int]:
    """The network inside ayo's search, the most visited move (no noise at play time)."""
    evaluate = evaluator(params)

    def agent(game: ayo.Game) -> int:
        search = ayo.GuidedSearch(
            simulations,
            method=method,
            temperature=0.0,
            gumbel_scale=0.0,
            dirichlet_fraction=0.0,
            seed=seed,
        )
        search.run([game], evaluate)
        return int(search.results()[0][0])

    return agent


def export(params: Params, rules: str, path: Path) -> None:
    """Writes the network in ayo's network file format (``ayo_core::players::network``).

    The input scale is folded into the first layer, whose inputs are then raw
    seed counts, and each weight matrix is stored ``(outputs, inputs)`` row-major.
    """
    layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in params]
    w0, b0 = layers[0]
    layers[0] = (w0 / np.float32(SEED_SCALE), b0)
    rules_bytes = rules.encode()
    out = bytearray(b"AYONET1\0")
    out += struct.pack("<I", len(rules_bytes)) + rules_bytes
    out += struct.pack("<I", len(layers))
    for w, b in layers:
        out += struct.pack("<II", w.shape[0], w.shape[1])
        out += np.ascontiguousarray(w.T, dtype="<f4").tobytes()
        out += np.ascontiguousarray(b, dtype="<f4").tobytes()
    h = 0xCBF29CE484222325
    for byte in bytes(out):
        h = ((h ^ byte) * 0x100000001B3) % 2**64
    out += struct.pack("<Q", h)
    path.write_bytes(bytes(out))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="oware")
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--checkpoints", type=float, nargs="*", default=[], help="minutes to save at")
    p.add_argument("--games", type=int, default=Config.games)
    p.add_argument("--simulations", type=int, default=Config.simulations)
    p.add_argument("--method", default=Config.method, choices=["gumbel", "puct"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, required=True, help="folder for checkpoints and history")
    args = p.parse_args(argv)
    cfg = Config(
        rules=args.rules,
        games=args.games,
        simulations=args.simulations,
        method=args.method,
        seed=args.seed,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    marks = sorted(args.checkpoints)

    def on_iteration(it: int, params: Params, history: History) -> None:
        t = history.seconds[-1]
        print(
            f"iteration {it}: {t / 60:.1f} min, loss {history.loss[-1]:.3f} "
            f"(policy {history.policy_loss[-1]:.3f}, value {history.value_loss[-1]:.3f}), "
            f"{history.rows[-1]} rows",
            flush=True,
        )
        while marks and t >= marks[0] * 60:
            name = args.out / f"{args.rules}-{marks.pop(0):g}min.ayonet"
            export(params, cfg.rules, name)
            print(f"saved {name}", flush=True)

    params, history = train(cfg, seconds=args.minutes * 60, on_iteration=on_iteration)
    export(params, cfg.rules, args.out / f"{args.rules}-final.ayonet")
    (args.out / "history.json").write_text(
        json.dumps({"config": asdict(cfg), "history": asdict(history)}, indent=1)
    )
    print(f"saved {args.out}/{args.rules}-final.ayonet and history.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
