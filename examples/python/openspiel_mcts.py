#!/usr/bin/env python3
"""OpenSpiel's MCTS against a uniformly random player on an ayo game.

    python examples/python/openspiel_mcts.py                      # ayoayo, 100 games
    python examples/python/openspiel_mcts.py --rules oware --games 20 --simulations 200
    python examples/python/openspiel_mcts.py --bot cpp            # OpenSpiel's C++ MCTSBot

The game comes from ``ayo.openspiel`` (the engine's rules, wrapped as an
OpenSpiel game). ``--bot python`` (default) is
``open_spiel.python.algorithms.mcts.MCTSBot`` played by
``open_spiel.python.algorithms.evaluate_bots``; ``--bot cpp`` is
``pyspiel.MCTSBot`` played by ``pyspiel.evaluate_bots``, which calls the
bot's ``step`` in C++ with the GIL held (``step`` called from Python crashes
on a Python game; see docs/environments.md, "OpenSpiel"). MCTS takes South in even games and North
in odd ones. Prints MCTS's wins, draws and losses, its win rate, and games
and MCTS moves per second (wall clock; the CPU time as well, for a busy
machine).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

from ayo.openspiel import load_game


def make_mcts(game: Any, kind: str, simulations: int, seed: int) -> Any:
    if kind == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        solve=True,
        random_state=rng,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="ayoayo", help="a preset or any rules text")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations a move")
    parser.add_argument("--bot", choices=["python", "cpp"], default="python")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = load_game(args.rules)
    wins = draws = losses = moves = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.games):
        seat = i % 2
        bots = [pyspiel.make_uniform_random_bot(1 - seat, args.seed + i)]
        bots.insert(seat, make_mcts(game, args.bot, args.simulations, args.seed + i))
        state = game.new_initial_state()
        if args.bot == "cpp":
            returns = pyspiel.evaluate_bots(state, bots, args.seed + i)
        else:
            returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(args.seed + i))
        moves += (len(state.history()) + 1 - seat) // 2  # MCTS's own moves
        result = returns[seat]
        wins += result > 0
        draws += result == 0
        losses += result < 0
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start

    print(f"{game} ({args.bot} MCTSBot, {args.simulations} simulations a move) vs random")
    print(f"MCTS: {wins} wins, {draws} draws, {losses} losses of {args.games} games")
    print(f"win rate {wins / args.games:.1%}")
    print(
        f"{seconds:.1f} s ({cpu:.1f} s CPU): {args.games / seconds:.2f} games/s, "
        f"{moves / seconds:.1f} MCTS moves/s (each up to {args.simulations} simulations)"
    )


if __name__ == "__main__":
    main()
