"""Oware in JAX, in Pgx's style: the anchor environment of the search benchmark.

Written for the benchmark from docs/rules.md (not from ayo's code, not from
Pgx's): a state pytree of fixed-shape arrays, ``init(key)``, ``step(state,
action)``, ``observe(state)``, the legal action mask, rewards and the
terminated flag, every function pure, branch-free (selects and ``lax``
control flow only) and usable under ``jax.jit`` and ``jax.vmap``.

The rules are ayo's ``oware`` preset:

* twelve pits 0..=11 in sowing order, South (player 0) owns 0..=5 and moves
  first, North (player 1) owns 6..=11; 4 seeds a pit; action ``a`` (0..=5)
  lifts the mover's ``a``-th pit (absolute ``a`` for South, ``a + 6`` for
  North);
* a single lap that skips its origin (a lap of 12 seeds or more passes over
  the pit it came from);
* a last seed that makes 2 or 3 in the opponent's row captures that pit and
  the unbroken run of 2s and 3s before it on the opponent's row; a capture
  that would take every seed of the opponent's row (a grand slam) is
  forfeited, the board staying as sown;
* strict feeding: when the opponent's row is empty only the moves that put
  seeds into it are legal (for single laps with a forfeited grand slam that
  is the moves whose seeds reach the row: ``seeds >= 6 - action``); a player
  with no legal move ends the game;
* the end, checked after every move in this order: a store of 25 or more (the
  scores are the stores); the move cap below; no legal move for the player to
  move. After the last two each player adds the seeds of their own row.

**The one difference from ayo.** ayo's ``oware`` ends a game when a position
(board, stores, player to move) repeats one seen since the last capture. That
needs the game's history, which a fixed-shape state does not keep; here it is
replaced by a cap on capture-less moves: ``max_no_capture`` moves in a row
without a capture end the game, each player taking their own row, as a
repetition does (a forfeited grand slam is not a capture). So this
environment plays exactly ayo's ``oware[repetition=off,move_limit=N]`` with
``N = max_no_capture`` (:data:`MAX_NO_CAPTURE` by default), which the checker
(bench/jax_oware_check.py) compares move for move against ayo itself, and it
agrees with plain ``oware`` on every move of a game up to the move that
repeats a position (or that reaches the cap first). What it costs the
comparison: ayo keeps and searches the positions since the last capture on
every move (and its legal mask and outcome are exact for ``oware``), this
environment only counts, so each of its steps does a little less work than
ayo's; a game that cycles goes on here until the cap (at most
``max_no_capture`` moves) where ayo ends it at the repeat.

Conventions, as in Pgx: ``rewards`` is indexed by player (South, North) and
is +1/-1/0 on the move that ends the game, 0 otherwise; stepping a terminated
state returns it unchanged with zero rewards; an illegal action ends the game
at once, the mover losing (-1, +1 to the other), the board unchanged. Unlike
Pgx, the legal action mask of a terminated state is all False (as ayo's is);
``scores`` holds the final scores once the game is over.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

NUM_PITS = 12
NUM_ACTIONS = 6
SEEDS_PER_PIT = 4
TARGET = 25
#: The default cap on capture-less moves that stands in for ayo's repetition end.
MAX_NO_CAPTURE = 200

_PITS = jnp.arange(NUM_PITS, dtype=jnp.int32)
_ACTIONS = jnp.arange(NUM_ACTIONS, dtype=jnp.int32)
_NORTH_ROW = _PITS >= NUM_ACTIONS


class State(NamedTuple):
    """One game: a pytree of fixed-shape arrays (add a leading axis under vmap)."""

    #: Seeds in pits 0..=11 (absolute numbering, South's row first).
    board: jax.Array
    #: Seeds in the stores of South and North.
    stores: jax.Array
    #: The player to move: 0 South, 1 North.
    current_player: jax.Array
    #: Legal actions 0..=5 of the player to move (all False once terminated).
    legal_action_mask: jax.Array
    #: What the player to move sees (:func:`observe`).
    observation: jax.Array
    #: Reward of this step for South and North.
    rewards: jax.Array
    terminated: jax.Array
    #: Always False: the move cap is a rule end here (kept for Pgx's ``auto_reset``).
    truncated: jax.Array
    #: Final scores of South and North (0, 0 while the game goes on).
    scores: jax.Array
    #: Moves in a row without a capture.
    no_capture: jax.Array
    #: Moves played.
    step_count: jax.Array


def legal_action_mask(board: jax.Array, player: jax.Array) -> jax.Array:
    """Legal actions of ``player`` on ``board`` (before any end is applied)."""
    own = jnp.where(player == 0, board[:NUM_ACTIONS], board[NUM_ACTIONS:])
    opponent_seeds = jnp.where(player == 0, board[NUM_ACTIONS:], board[:NUM_ACTIONS]).sum()
    # Strict feeding: an empty opponent row must be reached by the lap; a
    # single lap from the a-th pit reaches it with at least 6 - a seeds.
    return (own > 0) & ((opponent_seeds > 0) | (own >= NUM_ACTIONS - _ACTIONS))


def observe(state: State, player_id: jax.Array | int | None = None) -> jax.Array:
    """A player's view (the player to move's by default): their row, the
    opponent's row (each in sowing order), their store, the opponent's store,
    as float32 seed counts (14 values): the layout of ayo's ``Game.observation()``."""
    player = state.current_player if player_id is None else jnp.asarray(player_id, jnp.int32)
    return _observe(state.board, state.stores, player)


def _observe(board: jax.Array, stores: jax.Array, player: jax.Array) -> jax.Array:
    rows = jnp.where(player == 0, board, jnp.roll(board, NUM_ACTIONS))
    own_stores = jnp.where(player == 0, stores, stores[::-1])
    return jnp.concatenate([rows, own_stores]).astype(jnp.float32)


def _final_scores(board: jax.Array, stores: jax.Array, target_end: jax.Array) -> jax.Array:
    rows = jnp.stack([board[:NUM_ACTIONS].sum(), board[NUM_ACTIONS:].sum()])
    return jnp.where(target_end, stores, stores + rows)


def _rewards(scores: jax.Array) -> jax.Array:
    s = jnp.sign(scores[0] - scores[1]).astype(jnp.float32)
    return jnp.stack([s, -s])


def from_position(
    board: jax.Array,
    stores: jax.Array,
    current_player: jax.Array,
    no_capture: jax.Array | int = 0,
    step_count: jax.Array | int = 0,
    max_no_capture: int = MAX_NO_CAPTURE,
) -> State:
    """A state set up from a position; an end it already meets applies at once."""
    board = jnp.asarray(board, jnp.int32)
    stores = jnp.asarray(stores, jnp.int32)
    player = jnp.asarray(current_player, jnp.int32)
    no_capture = jnp.asarray(no_capture, jnp.int32)
    mask = legal_action_mask(board, player)
    target_end = (stores >= TARGET).any()
    terminated = target_end | (no_capture >= max_no_capture) | ~mask.any()
    scores = jnp.where(terminated, _final_scores(board, stores, target_end), 0)
    return State(
        board=board,
        stores=stores,
        current_player=player,
        legal_action_mask=mask & ~terminated,
        observation=_observe(board, stores, player),
        rewards=jnp.zeros(2, jnp.float32),
        terminated=terminated,
        truncated=jnp.asarray(False),
        scores=scores,
        no_capture=no_capture,
        step_count=jnp.asarray(step_count, jnp.int32),
    )


def init(key: jax.Array, max_no_capture: int = MAX_NO_CAPTURE) -> State:
    """The start position, South to move. ``key`` is unused (Pgx's signature)."""
    del key
    return from_position(
        jnp.full(NUM_PITS, SEEDS_PER_PIT, jnp.int32),
        jnp.zeros(2, jnp.int32),
        0,
        max_no_capture=max_no_capture,
    )


def _sow_and_capture(
    board: jax.Array, player: jax.Array, action: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """One move on the board: the lap, then the 2-or-3 chain unless it is a
    grand slam. Returns the new board and the seeds captured."""
    origin = player * NUM_ACTIONS + action
    seeds = board[origin]
    # One lap in closed form: the 11 other pits, at distance 1..=11 from the
    # origin, each get seeds // 11, and the first seeds % 11 of them one more.
    dist = (_PITS - origin) % NUM_PITS
    laps, extra = seeds // 11, seeds % 11
    sown = jnp.where(dist == 0, 0, board + laps + (dist <= extra))
    last = (origin + (seeds - 1) % 11 + 1) % NUM_PITS
    # The chain: walking back from the last pit over the opponent's row while
    # pits hold 2 or 3. Pits after the last one count as links so that a
    # suffix product over the 12 pits marks exactly the chain.
    opponent_row = (player == 0) == _NORTH_ROW
    two_three = opponent_row & ((sown == 2) | (sown == 3))
    link = two_three | (last < _PITS)
    chain = jnp.cumprod(link[::-1].astype(jnp.int32))[::-1].astype(bool) & (last >= _PITS)
    taken = jnp.where(chain, sown, 0).sum()
    grand_slam = taken == jnp.where(opponent_row, sown, 0).sum()
    taken = jnp.where(grand_slam, 0, taken)
    return jnp.where(chain & (taken > 0), 0, sown), taken


def step(state: State, action: jax.Array, max_no_capture: int = MAX_NO_CAPTURE) -> State:
    """Play ``action`` (0..=5) for the player to move."""
    action = jnp.asarray(action, jnp.int32)
    player = state.current_player
    illegal = ~state.legal_action_mask[action]
    board, taken = _sow_and_capture(state.board, player, action)
    stores = state.stores.at[player].add(taken)
    no_capture = jnp.where(taken > 0, 0, state.no_capture + 1)
    nxt = 1 - player
    mask = legal_action_mask(board, nxt)
    target_end = (stores >= TARGET).any()
    terminated = target_end | (no_capture >= max_no_capture) | ~mask.any()
    scores = jnp.where(terminated, _final_scores(board, stores, target_end), 0)
    rewards = jnp.where(terminated, _rewards(scores), 0.0)
    played = State(
        board=board,
        stores=stores,
        current_player=nxt,
        legal_action_mask=mask & ~terminated,
        observation=_observe(board, stores, nxt),
        rewards=rewards,
        terminated=terminated,
        truncated=state.truncated,
        scores=scores,
        no_capture=no_capture,
        step_count=state.step_count + 1,
    )
    # An illegal action: the mover loses at once, the board unchanged.
    loss = jnp.where(player == 0, jnp.array([-1.0, 1.0]), jnp.array([1.0, -1.0]))
    refused = state._replace(
        legal_action_mask=jnp.zeros_like(state.legal_action_mask),
        rewards=loss.astype(jnp.float32),
        terminated=jnp.asarray(True),
        step_count=state.step_count + 1,
    )
    # A state already over stays as it is, with zero rewards.
    over = state._replace(rewards=jnp.zeros_like(state.rewards))
    return jax.tree_util.tree_map(
        lambda o, r, p: jnp.where(state.terminated, o, jnp.where(illegal, r, p)),
        over,
        refused,
        played,
    )


class Oware:
    """The environment object, Pgx-like: ``env.init(key)``, ``env.step(state,
    action)``, ``env.observe(state)``; bind a different move cap with
    ``Oware(max_no_capture=N)``."""

    id = "oware"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, max_no_capture: int = MAX_NO_CAPTURE) -> None:
        self.max_no_capture = max_no_capture

    def init(self, key: jax.Array) -> State:
        return init(key, self.max_no_capture)

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """``key`` is unused (the game has no chance): Pgx's signature."""
        return step(state, action, self.max_no_capture)

    def observe(self, state: State, player_id: jax.Array | int | None = None) -> jax.Array:
        return observe(state, player_id)

    @property
    def rules(self) -> str:
        """The ayo rule set this environment plays exactly."""
        return f"oware[repetition=off,move_limit={self.max_no_capture}]"
