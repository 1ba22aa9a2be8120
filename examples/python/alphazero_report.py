"""Grades the checkpoints of examples/python/alphazero.py: strength and perfect-move accuracy.

For each network file given (``RULES-10min.ayonet``, ...), the network plays
inside ayo's search (``ayo.Network.player``, the learned level's player)
against levels 1, 2, 3, 4 and ``max`` with colours alternated, and is graded
against perfect play on positions sampled from the endgame databases
(``ayo.datasets``). Prints a markdown table; with ``--plot`` draws the score
against each level over training time (matplotlib).

    python examples/python/alphazero_report.py --rules oware --db DB \\
        runs/oware/oware-10min.ayonet runs/oware/oware-30min.ayonet --plot strength.png
"""

from __future__ import annotations

import argparse
import platform
import re
import time
from pathlib import Path

import ayo
from ayo import datasets
from ayo.eval import move_accuracy, round_robin


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _minutes(path: Path) -> float:
    m = re.search(r"-(\d+(?:\.\d+)?)min\.ayonet$", path.name)
    return float(m.group(1)) if m else float("nan")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("networks", nargs="+", type=Path)
    p.add_argument("--rules", default="oware")
    p.add_argument("--levels", nargs="+", default=["1", "2", "3", "4", "max"])
    p.add_argument("--games", type=int, default=200, help="games against each level")
    p.add_argument("--max-games", type=int, default=40, help="games against level max")
    p.add_argument("--simulations", type=int, default=64)
    p.add_argument("--db", type=Path, help="endgame databases of the rules (for the accuracy)")
    p.add_argument("--positions", type=int, default=1000)
    p.add_argument("--seeds", type=int, nargs=2, default=[6, 12], metavar=("LOW", "HIGH"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--plot", type=Path)
    args = p.parse_args(argv)

    rules = ayo.Rules(args.rules)
    sample = None
    if args.db is not None:
        opener = ayo.CountedDatabase if rules.move_limit is not None else ayo.Database
        db = opener.open(rules, args.db)
        low, high = args.seeds
        sample = datasets.sample(db, args.positions, range(low, high + 1), seed=args.seed)

    print(
        f"rules {args.rules}; the network in ayo's search, {args.simulations} simulations a move; "
        f"{args.games} games against each level ({args.max_games} against max), colours "
        f"alternated, 2 random opening plies; accuracy over {args.positions} positions of "
        f"{args.seeds[0]}..{args.seeds[1]} seeds; {_cpu()}\n"
    )
    head = " | ".join(f"vs {lv}" for lv in args.levels)
    print(f"| network | minutes | {head} | perfect-move accuracy | mean seed loss |")
    print("|---|---:|" + "---:|" * len(args.levels) + "---:|---:|")
    scores: dict[str, list[float]] = {lv: [] for lv in args.levels}
    minutes = []
    for path in args.networks:
        net = ayo.Network.open(path)
        started = time.monotonic()
        row = []
        for lv in args.levels:
            games = args.max_games if lv == "max" else args.games
            t = round_robin(
                {"net": net.player(args.simulations, seed=args.seed), lv: lv},
                rules,
                games=games,
                seed=args.seed,
            )
            score = t.pairs[(0, 1)].score
            scores[lv].append(score)
            row.append(f"{score:.1%}")
        acc = loss = "-"
        if sample is not None:
            a = move_accuracy(net.player(args.simulations, seed=args.seed), sample)
            acc, loss = f"{a.accuracy:.1%}", f"{a.mean_seed_loss:.2f}"
        minutes.append(_minutes(path))
        print(
            f"| {path.name} | {minutes[-1]:g} | {' | '.join(row)} | {acc} | {loss} |"
            f"  <!-- {time.monotonic() - started:.0f} s -->",
            flush=True,
        )
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        for lv in args.levels:
            ax.plot(minutes, [100 * s for s in scores[lv]], marker="o", label=f"vs level {lv}")
        ax.set_xlabel("minutes of training")
        ax.set_ylabel("score (%)")
        ax.set_ylim(0, 100)
        ax.set_title(f"AlphaZero on ayo: {args.rules}")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        print(f"\nplot: {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
