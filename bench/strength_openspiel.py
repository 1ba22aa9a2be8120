#!/usr/bin/env python3
"""Strength against an outside reference: an ``ayo.ai`` player against
OpenSpiel's C++ ``MCTSBot`` in ``oware`` (issue 5).

The issue's target: in the ``oware`` preset, ayo at 1 s a move beats
OpenSpiel's C++ MCTSBot at 10,000 simulations a move (random-rollout
evaluator, UCT c = 2, solver on) in >= 95% of 100 games, colours alternated.

Each game is played in both engines at once: ayo's moves come from
``ayo.ai.Player.choose`` on an ``ayo.Game("oware")``, OpenSpiel's from
``pyspiel.MCTSBot`` on a ``pyspiel.load_game("oware")`` state; every move is
applied to both, and after every move the board, both scores and the player
to move must agree (a divergence raises :class:`Divergence`; nothing is
skipped). At the end the winner and OpenSpiel's returns must agree, with the
mappings of ``tests/python/test_openspiel_parity.py`` (OpenSpiel shares out
the seeds left on the board at every end; its 1,000-move cap is an error
here, never a silent draw).

    python bench/strength_openspiel.py                        # 100 games, level max
    python bench/strength_openspiel.py --ayo-time 1.0         # the issue's target run
    python bench/strength_openspiel.py --games 20 --ayo-time 0.5 --json out.json

Game ``i`` (0-based) puts ayo in seat ``i % 2`` (0 = South, who moves
first; 1 = North); its ayo player has seed ``seed + i`` and its MCTSBot and
rollout evaluator seed ``seed + 1_000_000 + i``. See docs/strength-openspiel.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import signal
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import ayo
from ayo.ai import Player

#: The issue's conditions and target.
TARGET_GAMES = 100
TARGET_RATE = 0.95
TARGET_AYO_SECONDS = 1.0
TARGET_SIMULATIONS = 10_000
TARGET_UCT_C = 2.0

DEFAULT_SEED = 20_261_130
TOTAL_SEEDS = 48
Kind = Literal["random", "greedy", "alphabeta", "mcts"]
#: ``--ayo`` names that are kinds (typed for ``Player.from_kind``).
KINDS: dict[str, Kind] = {k: k for k in ("random", "greedy", "alphabeta", "mcts")}


class Divergence(AssertionError):
    """The two engines disagree about the game: an error, never skipped."""


@dataclass
class GameResult:
    """One finished game, from ayo's side."""

    index: int
    ayo_seat: int
    #: +1 ayo won, 0 draw, -1 ayo lost.
    result: int
    reason: str
    plies: int
    #: ``Outcome.scores`` (South, North) and OpenSpiel's final scores.
    scores: tuple[int, int]
    spiel_scores: tuple[int, int]
    ayo_moves: int
    ayo_seconds: float
    mcts_moves: int
    mcts_seconds: float
    #: Simulations MCTSBot ran (its root's visit count), summed over its moves.
    mcts_simulations: int
    record: str


@dataclass
class Summary:
    """A match: the games and their tallies."""

    ayo: str
    mcts: str
    games: list[GameResult] = field(default_factory=list)
    #: Games asked for; fewer were played when the run was interrupted (Ctrl-C).
    planned: int = 0

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.result > 0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.result == 0)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.result < 0)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def spiel_counts(state: Any) -> tuple[list[int], list[int]]:
    """OpenSpiel's board (houses 0..11) and scores, as seed counts.

    Its observation tensor is seeds / 48 (exact for counts up to 48).
    """
    counts = [round(x * TOTAL_SEEDS) for x in state.observation_tensor(0)]
    return counts[:12], counts[12:14]


def check_lockstep(game: ayo.Game, state: Any) -> None:
    """Both engines at the same non-final position, or :class:`Divergence`."""
    where = game.record()
    if state.is_terminal():
        raise Divergence(f"OpenSpiel's game ended, ayo's did not: {where}")
    board, scores = spiel_counts(state)
    if board != [int(s) for s in game.board]:
        raise Divergence(f"boards differ: ayo {list(game.board)}, OpenSpiel {board} at {where}")
    if scores != [int(s) for s in game.stores]:
        raise Divergence(f"scores differ: ayo {list(game.stores)}, OpenSpiel {scores} at {where}")
    if state.current_player() != game.to_move:
        raise Divergence(
            f"player to move differs: ayo {game.to_move}, "
            f"OpenSpiel {state.current_player()} at {where}"
        )
    if state.legal_actions() != game.legal_moves():
        raise Divergence(
            f"legal moves differ: ayo {game.legal_moves()}, "
            f"OpenSpiel {state.legal_actions()} at {where}"
        )


def check_end(game: ayo.Game, state: Any) -> tuple[ayo.Outcome, tuple[int, int]]:
    """Both games over with the same result; returns ayo's outcome and OpenSpiel's scores.

    OpenSpiel moves the seeds left in each row into that player's score at
    every end (the parity test's mappings 1 and 2), ayo only at a
    repetition or no-legal-move end; the winner cannot differ.
    """
    where = game.record()
    outcome = game.outcome
    if outcome is None or not state.is_terminal():
        raise Divergence(
            f"one game over, the other not (ayo {game.status}, "
            f"OpenSpiel terminal={state.is_terminal()}) at {where}"
        )
    board, scores = spiel_counts(state)
    stores = [int(s) for s in game.stores]
    rows = [sum(int(s) for s in game.board[:6]), sum(int(s) for s in game.board[6:])]
    if board != [0] * 12 or scores != [stores[0] + rows[0], stores[1] + rows[1]]:
        raise Divergence(f"final share-out differs: OpenSpiel {board} {scores} at {where}")
    expected = scores if outcome.reason in ("repetition", "no_legal_move") else stores
    if list(outcome.scores) != expected:
        raise Divergence(f"final scores differ: ayo {outcome.scores}, expected {expected}")
    returns = [outcome.result_for(0), outcome.result_for(1)]
    if [int(r) for r in state.returns()] != returns:
        raise Divergence(f"returns differ: ayo {returns}, OpenSpiel {state.returns()} at {where}")
    return outcome, (scores[0], scores[1])


def make_ayo(spec: str, seconds: float | None, seed: int) -> Player:
    """The ayo player: a level (``1``..``8``, ``max``) or a kind, with ``seconds`` a move.

    With a time budget a level stands for its kind (``max`` is alpha-beta),
    so ``--ayo max --ayo-time 1.0`` is level max's search with 1 s a move.
    """
    if spec in KINDS:
        if seconds is None:
            raise SystemExit(f"--ayo {spec} needs --ayo-time")
        return Player.from_kind(KINDS[spec], time=seconds, seed=seed)
    if seconds is None:
        return Player(spec, seed=seed)
    kind = Player(spec, seed=seed).kind
    if kind not in KINDS:
        raise SystemExit(f"level {spec} is a {kind} player, which has no time budget")
    return Player.from_kind(KINDS[kind], time=seconds, seed=seed)


def make_mcts(
    pyspiel: Any,
    spiel_game: Any,
    simulations: int,
    seed: int,
    uct_c: float = TARGET_UCT_C,
    max_memory_mb: int = 1000,
) -> Any:
    """OpenSpiel's C++ MCTSBot with one random rollout per leaf, solver on.

    Signature (open-spiel 2.0.2 pybind): ``MCTSBot(game, evaluator, uct_c,
    max_simulations, max_memory_mb, solve, seed, verbose,
    child_selection_policy=UCT, max_wall_clock_time=-1.0)``, the last two
    left at their defaults (UCT; no wall-clock limit, so the budget is
    simulations only); ``RandomRolloutEvaluator(n_rollouts, seed)``.
    """
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(
        spiel_game,
        evaluator,
        uct_c,
        simulations,
        max_memory_mb,
        True,
        seed,
        False,
    )


def mcts_move(bot: Any, state: Any) -> tuple[int, int]:
    """MCTSBot's move and the simulations it ran.

    ``MCTSBot.step(state)`` is ``MCTSearch(state)->BestChild().action``; the
    harness calls those two itself to read the root's visit count (the
    simulations run: fewer than the budget when the solver proves the root).
    ``tests/python/test_strength_harness.py`` checks it picks ``step``'s move.
    """
    root = bot.mcts_search(state)
    return int(root.best_child().action), int(root.explore_count)


def play_game(
    pyspiel: Any,
    spiel_game: Any,
    index: int,
    ayo_spec: str,
    ayo_seconds: float | None,
    simulations: int,
    seed: int,
    uct_c: float = TARGET_UCT_C,
) -> GameResult:
    """Play game ``index`` in both engines in lockstep; ayo in seat ``index % 2``."""
    ayo_seat = index % 2
    player = make_ayo(ayo_spec, ayo_seconds, seed + index)
    bot = make_mcts(pyspiel, spiel_game, simulations, seed + 1_000_000 + index, uct_c)
    game = ayo.Game("oware")
    state = spiel_game.new_initial_state()
    ayo_t = mcts_t = 0.0
    ayo_n = mcts_n = sims = 0
    while not game.is_over:
        check_lockstep(game, state)
        if len(state.history()) >= spiel_game.max_game_length():
            raise Divergence(f"OpenSpiel's {spiel_game.max_game_length()}-move cap reached")
        if game.to_move == ayo_seat:
            t0 = time.perf_counter()
            action = player.choose(game)
            ayo_t += time.perf_counter() - t0
            ayo_n += 1
        else:
            t0 = time.perf_counter()
            action, n = mcts_move(bot, state)
            mcts_t += time.perf_counter() - t0
            mcts_n += 1
            sims += n
        if not game.is_legal(action) or action not in state.legal_actions():
            raise Divergence(f"illegal move {action} at {game.record()}")
        game.play(action)
        state.apply_action(action)
    outcome, spiel_scores = check_end(game, state)
    return GameResult(
        index=index,
        ayo_seat=ayo_seat,
        result=outcome.result_for(ayo_seat),
        reason=outcome.reason,
        plies=game.ply,
        scores=(int(outcome.scores[0]), int(outcome.scores[1])),
        spiel_scores=spiel_scores,
        ayo_moves=ayo_n,
        ayo_seconds=ayo_t,
        mcts_moves=mcts_n,
        mcts_seconds=mcts_t,
        mcts_simulations=sims,
        record=game.record(),
    )


def mcts_speed(pyspiel: Any, spiel_game: Any, simulations: int, repeats: int, seed: int) -> float:
    """MCTSBot's simulations per second from the opening position (median of runs).

    The opening is far from any proven result, so every search runs its full
    budget; the figure is simulations (root visits) over wall time.
    """
    rates = []
    for r in range(repeats):
        bot = make_mcts(pyspiel, spiel_game, simulations, seed + r)
        state = spiel_game.new_initial_state()
        t0 = time.perf_counter()
        root = bot.mcts_search(state)
        dt = time.perf_counter() - t0
        rates.append(int(root.explore_count) / dt)
    return statistics.median(rates)


def verdict(summary: Summary, ayo_seconds: float | None, simulations: int, uct_c: float) -> str:
    """Whether this run meets the issue's target, or why it cannot say."""
    n = len(summary.games)
    differs = []
    if ayo_seconds != TARGET_AYO_SECONDS:
        differs.append(f"ayo budget {summary.ayo}, target 1 s a move")
    if simulations != TARGET_SIMULATIONS:
        differs.append(f"{simulations} simulations, target {TARGET_SIMULATIONS}")
    if uct_c != TARGET_UCT_C:
        differs.append(f"uct_c {uct_c}, target {TARGET_UCT_C}")
    if n != TARGET_GAMES:
        differs.append(f"{n} games, target {TARGET_GAMES}")
    needed = math.ceil(TARGET_RATE * TARGET_GAMES)
    if differs:
        return "not assessed (conditions differ: " + "; ".join(differs) + ")"
    met = summary.wins >= needed
    return f"{'MET' if met else 'NOT MET'} ({summary.wins} wins of {n}, {needed} needed)"


def report(
    summary: Summary,
    ayo_seconds: float | None,
    simulations: int,
    uct_c: float,
    sims_per_s: float | None,
) -> dict[str, Any]:
    """Print the tallies and return them as a dict (for --json)."""
    games = summary.games
    n = len(games)
    lo, hi = wilson(summary.wins, n)
    ayo_t = sum(g.ayo_seconds for g in games)
    ayo_n = sum(g.ayo_moves for g in games)
    mcts_t = sum(g.mcts_seconds for g in games)
    mcts_n = sum(g.mcts_moves for g in games)
    sims = sum(g.mcts_simulations for g in games)
    by_seat = {seat: [g.result for g in games if g.ayo_seat == seat] for seat in (0, 1)}
    reasons: dict[str, int] = {}
    for g in games:
        reasons[g.reason] = reasons.get(g.reason, 0) + 1
    out = {
        "ayo": summary.ayo,
        "mcts": summary.mcts,
        "games": n,
        "games_planned": summary.planned,
        "wins": summary.wins,
        "draws": summary.draws,
        "losses": summary.losses,
        "win_rate": summary.wins / n if n else None,
        "wilson95": [lo, hi],
        "ayo_seconds_per_move": ayo_t / ayo_n if ayo_n else None,
        "mcts_seconds_per_move": mcts_t / mcts_n if mcts_n else None,
        "mcts_simulations_per_move": sims / mcts_n if mcts_n else None,
        "mcts_simulations_per_s_in_games": sims / mcts_t if mcts_t else None,
        "mcts_simulations_per_s_opening": sims_per_s,
        "plies_mean": statistics.mean(g.plies for g in games) if games else None,
        "reasons": reasons,
        "verdict": verdict(summary, ayo_seconds, simulations, uct_c),
    }
    print()
    if n < summary.planned:
        print(f"STOPPED EARLY: {n} of the {summary.planned} games asked for were played")
    print(f"ayo:  {summary.ayo}")
    print(f"MCTS: {summary.mcts}")
    print(
        f"games {n}: ayo wins {summary.wins}, draws {summary.draws}, losses {summary.losses}"
        f"  (as South {by_seat[0].count(1)}/{len(by_seat[0])} won,"
        f" as North {by_seat[1].count(1)}/{len(by_seat[1])} won)"
    )
    if n:
        print(f"ayo win rate {summary.wins / n:.1%}, 95% Wilson interval [{lo:.1%}, {hi:.1%}]")
        print(f"game ends: {reasons}; mean length {out['plies_mean']:.1f} plies")
    if ayo_n:
        print(f"ayo time per move:  {ayo_t / ayo_n:.3f} s over {ayo_n} moves")
    if mcts_n:
        print(
            f"MCTS time per move: {mcts_t / mcts_n:.3f} s over {mcts_n} moves, "
            f"{sims / mcts_n:.0f} simulations a move on average "
            f"({sims / mcts_t:,.0f} simulations/s in the games)"
        )
    if sims_per_s is not None:
        print(f"MCTSBot simulations/s on this machine (opening position): {sims_per_s:,.0f}")
    print(
        f"issue target (>= {TARGET_RATE:.0%} of {TARGET_GAMES} games at "
        f"{TARGET_AYO_SECONDS:g} s/move vs {TARGET_SIMULATIONS:,} simulations): {out['verdict']}"
    )
    return out


def run(
    games: int,
    ayo_spec: str = "max",
    ayo_seconds: float | None = None,
    simulations: int = TARGET_SIMULATIONS,
    seed: int = DEFAULT_SEED,
    uct_c: float = TARGET_UCT_C,
    start: int = 0,
    verbose: bool = True,
) -> Summary:
    """Play games ``start .. start + games - 1``; the harness's entry point."""
    import pyspiel  # untyped C++ module (pyproject: ignore_missing_imports)

    spiel_game = pyspiel.load_game("oware")
    name = make_ayo(ayo_spec, ayo_seconds, seed).name
    mcts_name = (
        f"OpenSpiel C++ MCTSBot, {simulations} simulations, uct_c {uct_c:g}, "
        "RandomRolloutEvaluator(1), solve=True"
    )
    summary = Summary(ayo=name, mcts=mcts_name, planned=games)
    for i in range(start, start + games):
        try:
            g = play_game(pyspiel, spiel_game, i, ayo_spec, ayo_seconds, simulations, seed, uct_c)
        except KeyboardInterrupt:
            # Ctrl-C (SIGINT) stops the run: the unfinished game is dropped,
            # the finished ones are reported as a shorter run.
            print(f"interrupted during game {i}: reporting the {i - start} finished games")
            break
        summary.games.append(g)
        if verbose:
            mark = {1: "win", 0: "draw", -1: "loss"}[g.result]
            print(
                f"game {i:3d}: ayo {'South' if g.ayo_seat == 0 else 'North'} {mark:4s} "
                f"{g.scores[0]:2d}-{g.scores[1]:2d} ({g.reason}, {g.plies} plies)  "
                f"ayo {g.ayo_seconds / max(g.ayo_moves, 1):.3f} s/move, "
                f"MCTS {g.mcts_seconds / max(g.mcts_moves, 1):.3f} s/move  "
                f"[{summary.wins}-{summary.draws}-{summary.losses}]",
                flush=True,
            )
    return summary


def stop(signum: int, frame: object) -> None:
    """SIGTERM: stop like Ctrl-C."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=TARGET_GAMES, help="games (default 100)")
    ap.add_argument("--start", type=int, default=0, help="index of the first game (default 0)")
    ap.add_argument(
        "--ayo",
        default="max",
        help="a level 1..8 or max (default), or a kind: alphabeta, mcts (needs --ayo-time)",
    )
    ap.add_argument(
        "--ayo-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a time budget a move for ayo's search (the level's kind; max = alpha-beta)",
    )
    ap.add_argument("--simulations", type=int, default=TARGET_SIMULATIONS)
    ap.add_argument("--uct-c", type=float, default=TARGET_UCT_C)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument(
        "--speed-repeats",
        type=int,
        default=5,
        help="MCTSBot searches from the opening timed for simulations/s (0: skip)",
    )
    ap.add_argument("--json", default=None, help="write the summary and every game here")
    args = ap.parse_args(argv)
    # Ctrl-C or `kill PID` ends the run early with a report of the finished
    # games (a background job started by a shell ignores SIGINT, hence SIGTERM).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, stop)
    try:
        import pyspiel  # untyped C++ module (pyproject: ignore_missing_imports)
    except ImportError:
        print("OpenSpiel is not installed (pip install open-spiel): nothing measured")
        return 2
    import importlib.metadata

    print(
        f"conditions: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{platform.platform()}; {os.cpu_count()} CPUs; Python {platform.python_version()}; "
        f"ayo {ayo.__version__}; open-spiel {importlib.metadata.version('open-spiel')}; "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    spiel_game = pyspiel.load_game("oware")
    sims_per_s = None
    if args.speed_repeats > 0:
        sims_per_s = mcts_speed(
            pyspiel, spiel_game, args.simulations, args.speed_repeats, args.seed
        )
        print(f"MCTSBot simulations/s (opening, median of {args.speed_repeats}): {sims_per_s:,.0f}")
    summary = run(
        args.games, args.ayo, args.ayo_time, args.simulations, args.seed, args.uct_c, args.start
    )
    out = report(summary, args.ayo_time, args.simulations, args.uct_c, sims_per_s)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    if args.json:
        out["args"] = vars(args)
        out["per_game"] = [asdict(g) for g in summary.games]
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
