"""mctx's Gumbel MuZero search on ayo.jax's step (examples/python/mctx_search.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")
import jax

import ayo
from ayo.stateless import StatelessEnv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "mctx_search.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mctx_search", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _last_positions(rules: str, games: int) -> tuple[list[list[int]], np.ndarray]:
    """Random games to their end: the moves before each last move, and the state there."""
    env = StatelessEnv(rules, opponent=None, autoreset_mode="Disabled", max_episode_steps=None)
    rng = np.random.default_rng(1)
    histories, states = [], []
    for g in range(games):
        game = ayo.Game(rules)
        moves: list[int] = []
        while True:
            legal = np.flatnonzero(game.action_mask())
            a = int(rng.choice(legal))
            after = game.copy()
            after.play(a)
            if after.outcome is not None:
                break
            game, moves = after, [*moves, a]
        state = env.init([g])
        for a in moves:
            state = env.step(state, [a])[0]
        histories.append(moves)
        states.append(state[0])
    return histories, np.stack(states)


@pytest.mark.parametrize("rules", ["ayoayo", "ayo"])
def test_the_search_picks_legal_moves_and_its_terminal_values_are_ayos(rules: str) -> None:
    ex = _example()
    env = ex.search_env(rules)
    histories, states = _last_positions(rules, games=6)
    out = jax.jit(lambda s, k: ex.search(env, s, k, 24))(states, jax.random.key(0))
    actions = np.asarray(out.action)
    mask = np.asarray(env.legal_mask(states))
    assert mask[np.arange(len(actions)), actions].all()
    tree = out.search_tree
    visits = np.asarray(tree.children_visits[:, 0])
    rewards = np.asarray(tree.children_rewards[:, 0])
    discounts = np.asarray(tree.children_discounts[:, 0])
    terminal_children = 0
    for g, moves in enumerate(histories):
        for a in np.flatnonzero(visits[g]):
            game = ayo.Game(rules)
            for m in moves:
                game.play(m)
            mover = game.to_move
            game.play(int(a))
            if game.outcome is None:
                assert (rewards[g, a], discounts[g, a]) == (0.0, -1.0)
            else:
                terminal_children += 1
                assert rewards[g, a] == game.outcome.result_for(mover)
                assert discounts[g, a] == 0.0
    # Each root's game ends with one of its moves: the search saw those ends.
    assert terminal_children >= len(histories)


def test_self_play_inside_one_jit_replays_in_game() -> None:
    ex = _example()
    env = ex.search_env("ayoayo")
    final, actions, done = ex.self_play(env, games=2, simulations=8, max_plies=300, seed=3)
    actions = np.asarray(actions)
    for g in range(2):
        game = ayo.Game("ayoayo")
        for a in actions[:, g]:
            if a < 0:
                break
            assert game.action_mask()[a]
            game.play(int(a))
        assert bool(np.asarray(done)[g]) == (game.outcome is not None)
        board = np.asarray(env.observe(final[g : g + 1], "absolute"))[0, :12]
        assert list(board) == list(game.board)
