"""The ladder of the computer levels: Bradley-Terry ratings anchored at random = 0.

Plays each level against the next one up (``ayo.eval.round_robin`` with
``pairs="adjacent"``), colours alternated, and prints the ratings with 95%
intervals as a markdown table; with ``--plot`` also draws them (matplotlib).
With ``--db DIR`` (an ``ayo solve build`` folder of the same rules) level
``perfect`` joins the top of the ladder.

    python examples/python/ladder.py --rules oware --games 40 --plot docs/img/ladder-oware.png
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import ayo
import ayo.ai
from ayo.eval import AgentSpec, PairResult, Seeded, round_robin


def _perfect(db: ayo.Database | ayo.CountedDatabase) -> Seeded:
    return Seeded(lambda seed: ayo.ai.Player.perfect(db, seed=seed))


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="oware")
    p.add_argument("--levels", nargs="+", default=["1", "2", "3", "4", "5", "6", "7", "8", "max"])
    p.add_argument("--games", type=int, default=40, help="games a pair (default 40)")
    p.add_argument("--openings", type=int, default=4, help="random plies first (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", type=Path, help="databases for level perfect (top of the ladder)")
    p.add_argument("--plot", type=Path, help="write the ratings as a PNG here")
    args = p.parse_args(argv)

    rules = ayo.Rules(args.rules)
    agents: dict[str, AgentSpec] = {("random" if lv == "1" else lv): lv for lv in args.levels}
    if args.db is not None:
        opener = ayo.CountedDatabase if rules.move_limit is not None else ayo.Database
        agents["perfect"] = _perfect(opener.open(rules, args.db))

    def report(a: str, b: str, pair: PairResult) -> None:
        print(f"  {a} vs {b}: +{pair.wins} ={pair.draws} -{pair.losses}", file=sys.stderr)

    started = time.monotonic()
    t = round_robin(
        agents,
        rules,
        games=args.games,
        seed=args.seed,
        openings=args.openings,
        progress=report,
        pairs="adjacent",
    )
    seconds = time.monotonic() - started
    print(
        f"rules {args.rules}; {args.games} games a pair, adjacent levels, colours alternated, "
        f"{args.openings} random opening plies, seed {args.seed}; {seconds:.0f} s on {_cpu()}\n"
    )
    print(t.table(anchor="random"))
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        rows = t.ratings("random")[::-1]
        fig, ax = plt.subplots(figsize=(6, 0.4 * len(rows) + 1.2))
        ys = range(len(rows))
        ax.errorbar(
            [r.elo for r in rows],
            list(ys),
            xerr=[[r.elo - r.low for r in rows], [r.high - r.elo for r in rows]],
            fmt="o",
            capsize=3,
        )
        ax.set_yticks(list(ys), [r.name for r in rows])
        ax.set_xlabel("Elo (Bradley-Terry, random = 0), 95% intervals")
        ax.set_title(f"ayo levels, {args.rules}")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        print(f"\nplot: {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
