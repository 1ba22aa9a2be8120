"""The single-agent Gymnasium environment ``ayo/Ayo-v0``.

The agent plays one seat of an Ayo game against a built-in opponent. The whole
episode (the seat, the opponent's replies, observations, masks, rewards, illegal
actions) is the Rust core's ``ayo_core::episode`` through
:class:`ayo._ayo.EpisodeCore`, as for the batched and PettingZoo environments;
this module only shapes it as Gymnasium's API.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding

from ayo import display
from ayo._args import real_arg, seed_arg
from ayo._ayo import AyoError, EpisodeCore, Game, Rules
from ayo._ayo import EpisodeOverError as _CoreEpisodeOver

__all__ = [
    "AyoEnv",
    "EpisodeOverError",
    "Opponent",
    "Seat",
    "core_seed",
    "observation_opponent",
    "seat_view",
]

#: An opponent policy: given a copy of the game (its player to move is the
#: opponent), return an action 0..5 relative to the mover.
Opponent = Callable[[Game], int]
#: The agent's seat: 0 (South), 1 (North), or chosen at each reset.
Seat = Literal[0, 1, "alternate", "random"]

Observation = dict[str, Any]

_PERSPECTIVES = ("mover", "absolute")


class EpisodeOverError(ResetNeeded, _CoreEpisodeOver):
    """``step`` was called before ``reset`` or after the episode ended."""


def core_seed(seed: int) -> int:
    """The seed of the core's streams (seats, the opponent) after ``reset(seed=seed)``.

    As Gymnasium seeds an environment: ``np_random`` from ``seed``, and the
    core from its first draw. :class:`ayo.vector.AyoVectorEnv` seeds game
    ``i`` with ``core_seed(seed + i)``, so that it plays the same games as a
    ``SyncVectorEnv`` of this environment.
    """
    rng, _ = seeding.np_random(seed)
    return _core_seed_from(rng)


def _core_seed_from(rng: np.random.Generator) -> int:
    return int(rng.integers(2**63))


def seat_view(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """Board and stores of ``game`` seen from ``seat``, as ``float32`` ``(14,)``.

    Seat ``seat``'s row comes first (its pits in sowing order, so index ``i``
    is its action ``i``), then the other row, then its store and the other
    store. When ``seat`` is to move this is ``game.observation("mover")``;
    it is built from ``game.observation("absolute")`` so that it also holds
    when the other player is to move (for instance in a final position).
    """
    absolute = game.observation("absolute")
    if seat == 0:
        return absolute
    return np.concatenate([absolute[6:12], absolute[0:6], absolute[13:14], absolute[12:13]])


def observation_opponent(
    policy: Callable[[Observation], Any], perspective: Literal["mover", "absolute"] = "mover"
) -> Opponent:
    """Turn a policy over this environment's observations into an opponent.

    ``policy`` receives ``{"observation": ..., "action_mask": ...}`` exactly as
    the agent would in the opponent's seat (``perspective`` as in
    :class:`AyoEnv`) and returns an action; this is how a frozen copy of a
    trained agent plays the other seat in self-play, e.g. with
    sb3-contrib: ``observation_opponent(lambda obs: frozen.predict(obs,
    action_masks=obs["action_mask"].astype(bool), deterministic=True)[0])``.
    """
    if perspective not in _PERSPECTIVES:
        raise ValueError(f"perspective must be one of {_PERSPECTIVES}, not {perspective!r}")

    def play(game: Game) -> int:
        obs = {
            "observation": game.observation(perspective),
            "action_mask": game.action_mask().astype(np.int8),
        }
        return operator.index(np.asarray(policy(obs)).item())

    return play


class AyoEnv(gym.Env[Observation, np.int64]):
    """One seat of an Ayo game against a built-in opponent.

    Args:
        rules: a :class:`ayo.Rules` or a preset name (``"ayoayo"``, ``"ayo"``,
            ``"olopon"``, ``"oware"``).
        opponent: ``"random"`` (uniformly random legal moves, drawn in Rust
            from a stream seeded from the environment's ``np_random``, so
            seeded resets reproduce them) or any
            callable ``(game) -> action``; it gets a copy of the game with the
            opponent to move. A computer player ``ayo.ai.Player(level)`` is
            such a callable; :func:`observation_opponent` adapts policies that
            take observations. A callable's own randomness is not reseeded by
            ``reset(seed=...)``.
        agent_seat: ``0`` (South, moves first), ``1`` (North), ``"alternate"``
            (South in the first episode, then alternating; a seeded reset starts
            again with South) or ``"random"`` (drawn from ``np_random``). A reset
            may name the seat with ``options={"agent_seat": 0 or 1}``.
        perspective: ``"mover"`` (default: the agent's own row first, index
            ``i`` being action ``i``, then the opponent's row, the agent's store
            and the opponent's) or ``"absolute"`` (South's row, North's row,
            South's store, North's store).
        reward: ``"win_loss"`` (+1 win, 0 draw, -1 loss, at the end only) or
            ``"seed_difference"``: each step gives the change in (agent's store -
            opponent's store) over the agent's move and the opponent's reply;
            at the end the final scores (after any end-of-game share-out of the
            seeds left on the board) are used, so an episode's return is the
            final margin in seeds (or the store margin when it is truncated).
        illegal_action: ``"penalize"`` (default: reward ``illegal_penalty``,
            the episode terminates with ``info["illegal_action"]`` set) or
            ``"raise"`` (:class:`ayo.IllegalMoveError`, nothing changes).
        illegal_penalty: the reward of an illegal action when penalized.
        render_mode: ``None``, ``"ansi"`` (text board) or ``"rgb_array"``
            (``uint8`` image drawn with numpy).

    Observations are dicts: ``"observation"`` (``float32`` seed counts, shape
    ``(14,)``, in ``[0, total_seeds]``) and ``"action_mask"`` (``int8``, shape
    ``(6,)``, 1 for legal actions; all 0 once the episode is over). The mask is
    also ``info["action_mask"]`` (the same array object) and
    :meth:`action_masks` (sb3-contrib's ``MaskablePPO`` convention).
    ``terminated`` marks a real end of the game (``info["outcome"]`` is the
    :class:`ayo.Outcome`) or a penalized illegal action; truncation comes from
    ``max_episode_steps`` (``gymnasium.make``'s ``TimeLimit``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it so)
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: Rules | str = "ayoayo",
        opponent: Literal["random"] | Opponent = "random",
        agent_seat: Seat = 0,
        perspective: Literal["mover", "absolute"] = "mover",
        reward: Literal["win_loss", "seed_difference"] = "win_loss",
        illegal_action: Literal["raise", "penalize"] = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        """Check the options and build the spaces (see the class docstring)."""
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        if not (opponent == "random" or callable(opponent)):
            raise ValueError(f'opponent must be "random" or a callable, not {opponent!r}')
        if agent_seat not in (0, 1, "alternate", "random") or isinstance(agent_seat, bool):
            raise ValueError(
                f'agent_seat must be 0, 1, "alternate" or "random", not {agent_seat!r}'
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        penalty = real_arg(illegal_penalty, "illegal_penalty")
        # The core checks the other options (an AyoError, a ValueError, names the bad one).
        self._core = EpisodeCore(
            self.rules,
            opponent="random" if opponent == "random" else "external",
            agent_seat=str(agent_seat),
            perspective=perspective,
            reward=reward,
            illegal_action=illegal_action,
            illegal_penalty=penalty,
        )
        self.opponent = opponent
        self.agent_seat_option: Seat = agent_seat
        self.perspective = perspective
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = penalty
        self.render_mode = render_mode

        self.action_space = spaces.Discrete(self.rules.num_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=float(self.rules.total_seeds), shape=(14,), dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    low=0, high=1, shape=(self.rules.num_actions,), dtype=np.int8
                ),
            }
        )
        #: The callable opponent, as the core calls it (None: the random opponent).
        self._reply: Callable[[Game], int] | None = (
            None if opponent == "random" else self._callable_reply
        )
        self._started = False
        self._seeded = False

    # ------------------------------------------------------------------ state

    @property
    def game(self) -> Game:
        """A copy of the game being played."""
        if not self._started:
            raise EpisodeOverError("call reset() first")
        return self._core.game

    @property
    def agent_seat(self) -> int:
        """The agent's seat in the current episode: 0 (South) or 1 (North)."""
        return int(self._core.agent_seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions now, as a ``bool`` array (sb3-contrib ``MaskablePPO``)."""
        return self._core.action_mask().astype(bool)

    def _callable_reply(self, game: Game) -> int:
        assert callable(self.opponent)
        reply = self.opponent(game)
        # Only an int (or a numpy integer scalar) is a move: True, [1] or
        # array([3]) are a policy's mistakes, not actions to play.
        if isinstance(reply, (bool, np.bool_)) or not isinstance(reply, (int, np.integer)):
            raise AyoError(
                f"the opponent {self.opponent!r} returned {reply!r}: "
                "it must return an int 0..5 (the mover's pit, 0 its first)"
            )
        return int(reply)  # the core refuses one outside 0..5 (IllegalMoveError)

    # -------------------------------------------------------------- gymnasium

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode; the opponent moves first when it has South's seat.

        ``options`` may hold ``"agent_seat"`` (0 or 1, this episode only) and
        ``"position"`` (a position record to start from instead of the rules'
        start). A seeded reset also restarts the ``"alternate"`` seat order.
        """
        seed = seed_arg(seed)
        options = dict(options or {})
        unknown = set(options) - {"agent_seat", "position"}
        if unknown:
            raise ValueError(f"unknown reset options: {sorted(unknown)}")
        seat: Any = options.get("agent_seat")
        if seat is not None and (
            isinstance(seat, (bool, np.bool_))
            or not isinstance(seat, (int, np.integer))
            or seat not in (0, 1)
        ):
            # Checked before the environment changes: a float 0.0 equals 0
            # but is no seat, and the core would refuse it after the reseed.
            raise ValueError(f"agent_seat must be 0 or 1, not {seat!r}")
        position = options.get("position")
        game = Game(self.rules, position) if position is not None else None
        if game is not None and game.is_over:
            raise ValueError("the start position is already over")
        # The options are valid: from here on the environment changes.
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            # The core's streams (seats, the random opponent) from np_random.
            self._core.seed(_core_seed_from(self.np_random))
            self._seeded = True
        self._started = True
        return self._core.reset(game, None if seat is None else int(seat), self._reply)

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action`` (0..5, relative to the agent) and the opponent's reply.

        Returns ``(observation, reward, terminated, truncated, info)``; ``info``
        has ``"action_mask"``, ``"opponent_moves"`` (the opponent's actions this
        step) and, at the end of the game, ``"outcome"``. An action outside
        0..5 raises ``ValueError``; an illegal one raises
        :class:`ayo.IllegalMoveError` or is penalized (``illegal_action``).
        Either way a raised error leaves the environment as it was.
        """
        try:
            return self._core.step(action, self._reply)
        except _CoreEpisodeOver as err:
            raise EpisodeOverError(str(err)) from None

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as text (``"ansi"``) or an RGB image (``"rgb_array"``)."""
        return display.render(self.game, self.render_mode)

    def __repr__(self) -> str:
        return (
            f"AyoEnv(rules={self.rules.preset or self.rules!s}, "
            f"agent_seat={self.agent_seat_option!r}, reward={self.reward_kind!r})"
        )
