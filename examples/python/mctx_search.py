"""Gumbel MuZero search (mctx) on ayo's exact rules, inside one ``jax.jit``.

The search's ``recurrent_fn`` is ``ayo.jax``'s step (an XLA custom call that
runs the Rust engine): the true dynamics, no model. Priors are uniform over
the legal actions and leaf values 0, so the search sees only the game's
outcomes (a network's logits and values would take their place). Plays
``--games`` self-play games of ``--rules`` with the search on both sides,
every move of every game inside one jitted ``lax.while_loop``, then replays
the moves in ``ayo.Game`` and checks the outcomes agree.

    pip install ".[jax]"      # from a clone
    python examples/python/mctx_search.py --rules ayoayo --games 8 --simulations 32
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np

import ayo
from ayo.jax import JaxEnv

#: Logit of an illegal action: far below any legal one, finite (mctx's softmax).
ILLEGAL = -1e9


def search_env(rules: str) -> JaxEnv:
    """Self-play (one move a step), ended states absorbing, no step limit."""
    return JaxEnv(rules, opponent=None, autoreset_mode="Disabled", max_episode_steps=None)


def recurrent_fn_for(env: JaxEnv) -> Any:
    """mctx's ``recurrent_fn`` over ``env``'s step: the mover's reward, discount
    -1 between the two players (0 once the game is over), uniform priors."""

    def recurrent_fn(
        params: Any, key: jax.Array, action: jax.Array, states: jax.Array
    ) -> tuple[mctx.RecurrentFnOutput, jax.Array]:
        del params, key
        mover = env.to_move(states)
        nxt, rewards, terminated, truncated = env.step(states, action.astype(jnp.int32))
        reward = jnp.take_along_axis(rewards, mover[:, None], axis=1)[:, 0]
        mask = env.legal_mask(nxt)
        out = mctx.RecurrentFnOutput(
            reward=reward,
            discount=jnp.where(terminated | truncated, 0.0, -1.0),
            prior_logits=jnp.where(mask, 0.0, ILLEGAL),
            value=jnp.zeros_like(reward),
        )
        return out, nxt

    return recurrent_fn


def search(
    env: JaxEnv, states: jax.Array, key: jax.Array, simulations: int
) -> mctx.PolicyOutput[Any]:
    """One Gumbel MuZero search from each state (the player to move's)."""
    mask = env.legal_mask(states)
    root = mctx.RootFnOutput(
        prior_logits=jnp.where(mask, 0.0, ILLEGAL),
        value=jnp.zeros(states.shape[0]),
        embedding=states,
    )
    return mctx.gumbel_muzero_policy(
        params=(),
        rng_key=key,
        root=root,
        recurrent_fn=recurrent_fn_for(env),
        num_simulations=simulations,
        invalid_actions=~mask,
    )


def self_play(env: JaxEnv, games: int, simulations: int, max_plies: int, seed: int) -> Any:
    """Every game to its end (or ``max_plies``), searched on both sides, in one jit.

    Returns the final states, the actions of each ply (``-1`` once a game is
    over) and whether each game ended.
    """

    def cond(c: tuple[Any, ...]) -> jax.Array:
        _, _, ply, done, _ = c
        going: jax.Array = (ply < max_plies) & ~jnp.all(done)
        return going

    def body(c: tuple[Any, ...]) -> tuple[Any, ...]:
        states, key, ply, done, actions = c
        key, sub = jax.random.split(key)
        action = search(env, states, sub, simulations).action.astype(jnp.int32)
        nxt, _, term, trunc = env.step(states, action)
        actions = actions.at[ply].set(jnp.where(done, -1, action))
        return nxt, key, ply + 1, done | term | trunc, actions

    @jax.jit
    def run(states: jax.Array, key: jax.Array) -> Any:
        actions = jnp.full((max_plies, games), -1, jnp.int32)
        c = (states, key, jnp.int32(0), jnp.zeros(games, bool), actions)
        final, _, _, done, actions = jax.lax.while_loop(cond, body, c)
        return final, actions, done

    states = env.init(np.arange(seed, seed + games, dtype=np.uint64))
    return run(states, jax.random.key(seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="ayoayo", choices=["ayoayo", "ayo", "olopon"])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = search_env(args.rules)
    start = time.perf_counter()
    final, actions, done = self_play(env, args.games, args.simulations, args.max_plies, args.seed)
    np.asarray(final)  # waits for the computation
    seconds = time.perf_counter() - start
    actions = np.asarray(actions)
    for g in range(args.games):
        game = ayo.Game(args.rules)
        for a in actions[:, g]:
            if a < 0:
                break
            game.play(int(a))
        board = np.asarray(env.observe(final[g : g + 1], "absolute"))[0]
        assert list(board[:12]) == list(game.board), "the search's game differs from ayo.Game's"
        ended = bool(np.asarray(done)[g])
        assert ended == (game.outcome is not None)
        print(f"game {g}: {game.ply} plies, {game.outcome or 'not over'}")
    sims = args.simulations
    print(f"{args.games} games, {sims} simulations a move: {seconds:.1f} s (compile included)")


if __name__ == "__main__":
    main()
