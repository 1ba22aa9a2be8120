"""Batched Ayo games: a Gymnasium ``VectorEnv`` whose step runs entirely in Rust.

>>> import gymnasium
>>> import ayo.envs
>>> envs = gymnasium.make_vec(
...     "ayo/Ayo-v0", num_envs=8, vectorization_mode="vector_entry_point", rules="oware"
... )
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 14), (8, 6))
>>> actions = envs.action_masks().argmax(axis=1)  # the first legal action of each game
>>> obs, rewards, terminated, truncated, info = envs.step(actions)

:class:`AyoVectorEnv` plays ``num_envs`` games of :class:`ayo.envs.AyoEnv` at
once, with the same observations (``"observation"`` ``float32`` ``(N, 14)``,
``"action_mask"`` ``int8`` ``(N, 6)``), actions, rewards, termination and
truncation, so a policy trained on one plays the other. One ``step`` is one
call into the engine for the whole batch (the GIL released; optionally on
several threads); the built-in opponent moves inside that call. With
``opponent=None`` the caller moves for both sides (self-play). For
sb3-contrib's ``MaskablePPO`` see :func:`sb3_vec_env`.
"""

from __future__ import annotations

import copy as _copy
import importlib
import operator
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ayo._args import real_arg
from ayo._ayo import AyoError, Game, Rules, VecCore, VecEpisodeOverError
from ayo.envs import MAX_EPISODE_STEPS, EpisodeOverError
from ayo.envs.ayo_env import core_seed

__all__ = ["AyoVectorEnv", "BatchOpponent", "sb3_vec_env"]

#: A built-in opponent of the batch: ``"random"``, ``"greedy"``, a level
#: ``1``..``8`` or ``"max"``, an :class:`ayo.Player` with a depth or node
#: budget (each game gets its own copy, seeded from the game's seed), or
#: ``None`` for self-play. An alpha-beta opponent in a batch searches with a
#: 4,096-entry transposition table (64 KiB a game, so that thousands of games
#: fit in memory), so its moves can differ from the same level's
#: :class:`ayo.Player`, whose table is larger.
BatchOpponent = str | int | Any | None

Observation = dict[str, npt.NDArray[Any]]

_AUTORESET = {
    AutoresetMode.NEXT_STEP: "NextStep",
    AutoresetMode.SAME_STEP: "SameStep",
    AutoresetMode.DISABLED: "Disabled",
}
_U64 = 2**64


def _int_arg(value: object, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..=hi`` (if given); else ``AyoError`` naming ``name``."""
    if isinstance(value, (bool, np.bool_)):
        raise AyoError(f"{name} must be an int, not the bool {value!r}")
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise AyoError(f"{name} must be an int, not {type(value).__name__}") from None
    if lo is not None and hi is not None and not lo <= v <= hi:
        raise AyoError(f"{name} = {v} is out of range (expected an int {lo}..={hi})")
    return v


def _seed_list(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """Per-game seeds as Gymnasium's vector envs take them."""
    if seed is None:
        return [None] * n
    if isinstance(seed, bool):
        raise AyoError("a seed is an integer, not a bool")
    if isinstance(seed, (int, np.integer)):
        base = _int_arg(seed, "seed")
        seeds: list[int | None] = [base + i for i in range(n)]
    else:
        seeds = [None if s is None else _int_arg(s, "seed") for s in seed]
        if len(seeds) != n:
            raise AyoError(f"expected {n} seeds (one per game), got {len(seeds)}")
    for s in seeds:
        if s is not None and not 0 <= s < _U64:
            raise AyoError(f"seeds must be integers in 0..2**64-1, not {s}")
    return seeds


class AyoVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``ayo/Ayo-v0`` stepped together in Rust.

    Args:
        num_envs: the number of games.
        rules, agent_seat, perspective, reward, illegal_action,
            illegal_penalty: as :class:`ayo.envs.AyoEnv` (``agent_seat``
            ``"alternate"`` and ``"random"`` are per game).
        opponent: see :data:`BatchOpponent`; Python callables cannot run
            inside the batch (use ``vectorization_mode="sync"`` for those,
            or self-play).
        max_episode_steps: agent steps before an episode is truncated
            (``gymnasium.make_vec`` passes the registered 200); ``None``
            for no cap. In self-play each step is one side's move and the
            cap is ``2 * max_episode_steps`` moves, the same game length.
        autoreset_mode: a :class:`gymnasium.vector.AutoresetMode` (or its
            value): ``NEXT_STEP`` (default), ``SAME_STEP`` (the last
            observation of an ended episode is in ``info["final_obs"]``) or
            ``DISABLED`` (reset ended games with
            ``reset(options={"reset_mask": mask})``; stepping one first raises
            :class:`ayo.envs.EpisodeOverError`).
        num_threads: most threads a step uses (from 128 games, each
            thread stepping its own share of the games; never more threads
            than CPUs; 0 or None: one a CPU, at most 1024, the rule of every
            thread count in ayo); results are identical for any number.
            The extra threads spin for up to 0.1 ms after a step waiting for
            the next one (a busy core between steps), then sleep.
        copy: return new arrays from every ``reset`` and ``step`` (the
            default, as Gymnasium's vector envs). With ``copy=False`` every
            call returns the same arrays (observations, masks, rewards,
            flags and ``info``'s arrays), rewritten in place by the next
            call: faster, for a loop that reads each step's arrays before
            the next step (copy what you keep).

    Self-play (``opponent=None``): each step plays ``actions[i]`` for the
    side to move in game ``i``; the observation, the mask and
    ``info["to_move"]`` are for the side to move next, and the reward is for
    the side that just moved (zero-sum: the other side's is its negative).

    ``info`` has the keys of a ``SyncVectorEnv`` of single environments,
    each with its ``_`` mask: ``"action_mask"`` (``bool`` ``(N, 6)``),
    ``"agent_seat"``, ``"to_move"`` and ``"ply"`` (``"to_move"`` is the seat
    key in self-play), ``"opponent_moves"`` (``int8`` ``(N,)``: the
    opponent's action this step, -1 where it did not move, where the single
    environment lists them); games that ended by the rules this step add
    ``"outcome"`` (an object array of :class:`ayo.Outcome`, None elsewhere)
    and, as arrays, ``"scores"`` (South, North) and ``"winner"`` (0, 1 or -1
    for a draw); penalized illegal actions add ``"illegal_action"``; each
    masked to those games (in ``info["final_info"]`` with ``SAME_STEP``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it so)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | str = "ayoayo",
        opponent: BatchOpponent = "random",
        agent_seat: Literal[0, 1, "alternate", "random"] = 0,
        perspective: Literal["mover", "absolute"] = "mover",
        reward: Literal["win_loss", "seed_difference"] = "win_loss",
        illegal_action: Literal["raise", "penalize"] = "penalize",
        illegal_penalty: float = -1.0,
        max_episode_steps: int | None = MAX_EPISODE_STEPS,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        num_threads: int | None = 1,
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        """Build the batch (see the class docstring)."""
        # What pickling rebuilds the batch from (with its games' state).
        self._args: dict[str, Any] = {
            "num_envs": num_envs,
            "rules": rules,
            "opponent": opponent,
            "agent_seat": agent_seat,
            "perspective": perspective,
            "reward": reward,
            "illegal_action": illegal_action,
            "illegal_penalty": illegal_penalty,
            "max_episode_steps": max_episode_steps,
            "autoreset_mode": autoreset_mode,
            "num_threads": num_threads,
            "copy": copy,
            "render_mode": render_mode,
        }
        if callable(opponent) and not hasattr(opponent, "budget"):
            raise ValueError(
                "a Python callable opponent cannot run inside the batch: use "
                'gymnasium.make_vec(..., vectorization_mode="sync") or opponent=None'
            )
        if render_mode is not None:
            raise ValueError("AyoVectorEnv does not render (render_mode must be None)")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError as err:
            raise ValueError(f"unknown autoreset_mode {autoreset_mode!r}") from err
        n = _int_arg(num_envs, "num_envs", -(2**63), 2**32 - 1)
        if n < 1:
            raise AyoError(f"num_envs must be at least 1, not {n}")
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        self.self_play = opponent is None
        steps = None
        if max_episode_steps is not None:
            per = 2 if self.self_play else 1
            steps = _int_arg(max_episode_steps, "max_episode_steps", 1, (2**32 - 1) // per) * per
        threads = 0 if num_threads is None else _int_arg(num_threads, "num_threads", 0, 2**63 - 1)
        entropy = (
            np.random.SeedSequence()
            .generate_state(n, dtype=np.uint64)
            .astype(np.uint64, copy=False)
        )
        self._core = VecCore(
            n,
            self.rules,
            opponent,
            entropy,
            agent_seat=agent_seat,
            perspective=perspective,
            reward=reward,
            illegal_action=illegal_action,
            illegal_penalty=real_arg(illegal_penalty, "illegal_penalty"),
            max_episode_steps=steps,
            autoreset_mode=_AUTORESET[mode],
            num_threads=threads,
        )
        self.num_envs = n
        self.autoreset_mode = mode
        # The single environment's options, for get_attr.
        self._options: dict[str, Any] = {
            "opponent": opponent,
            "perspective": perspective,
            "reward_kind": reward,
            "illegal_action": illegal_action,
            "illegal_penalty": float(illegal_penalty),
        }
        self._user_attrs: dict[str, list[Any]] = {}
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.copy = bool(copy)
        self.render_mode = None
        self.max_episode_steps = max_episode_steps
        self.single_action_space = spaces.Discrete(self.rules.num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, self.rules.num_actions))
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=float(self.rules.total_seeds), shape=(14,), dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    low=0, high=1, shape=(self.rules.num_actions,), dtype=np.int8
                ),
            }
        )
        self.observation_space = batch_space(self.single_observation_space, n)
        core = self._core
        self._obs: Observation = {"observation": core.obs, "action_mask": core.obs_mask}
        self._mask = core.mask
        self._reward = core.reward
        self._terminated = core.terminated
        self._truncated = core.truncated
        self._all = np.ones(n, dtype=np.bool_)
        self._seat_key = "to_move" if self.self_play else "agent_seat"
        self._info: dict[str, Any] = {
            "action_mask": self._mask,
            "_action_mask": self._all,
            self._seat_key: core.seat,
            f"_{self._seat_key}": self._all,
            "ply": core.ply,
            "_ply": self._all,
        }
        if not self.self_play:
            # The single environment's other keys (a SyncVectorEnv's info).
            self._info.update(
                {
                    "to_move": core.to_move,
                    "_to_move": self._all,
                    "opponent_moves": core.replied,
                    "_opponent_moves": self._all,
                }
            )
        self._needs_reset = True
        # Without copies and with the next step's autoreset, one call into
        # the engine makes the whole step's return value.
        self._whole_step = not self.copy and mode != AutoresetMode.SAME_STEP
        core.gym_returns(self._obs, self._info)

    # ----------------------------------------------------------------- state

    @property
    def num_threads(self) -> int:
        """Most threads a step uses."""
        return int(self._core.num_threads)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions of every game, ``bool`` ``(N, 6)`` (all False once a game is over)."""
        return self._mask.copy() if self.copy else self._mask

    def records(self) -> list[str]:
        """Each game's record (start position and moves so far), for inspection."""
        return list(self._core.records())

    # ------------------------------------------- the games as sub-environments

    #: Attributes of the single environment that every game of the batch
    #: shares, fixed at construction.
    _SHARED = (
        "rules",
        "opponent",
        "perspective",
        "reward_kind",
        "illegal_action",
        "illegal_penalty",
        "render_mode",
        "metadata",
        "spec",
    )

    def _game_attr(self, name: str) -> list[Any]:
        """``name`` of each game, as the single ``AyoEnv`` of that game would give it."""
        if name in self._user_attrs:
            return list(self._user_attrs[name])
        if name in self._SHARED:
            value = self._options[name] if name in self._options else getattr(self, name, None)
            return [value] * self.num_envs
        if name == "agent_seat" and not self.self_play:
            return [int(s) for s in self._core.seat]
        if name == "game":
            return [Game.from_record(r) for r in self._core.records()]
        if name == "action_masks":
            masks = self._mask.copy()
            return [lambda row=row: row for row in masks]
        if name == "action_space":
            return [self.single_action_space] * self.num_envs
        if name == "observation_space":
            return [self.single_observation_space] * self.num_envs
        raise AttributeError(f"the games of an AyoVectorEnv have no attribute {name!r}")

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``name`` of each game, called with ``args`` if it is a method (as
        ``SyncVectorEnv.call``): e.g. ``call("action_masks")``, or a value
        set with :meth:`set_attr`."""
        return tuple(v(*args, **kwargs) if callable(v) else v for v in self._game_attr(name))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """``name`` of each game (as ``SyncVectorEnv.get_attr``): the options
        every game shares (``"rules"``, ``"illegal_action"``, …), each game's
        ``"agent_seat"`` and ``"game"`` (a copy of its :class:`ayo.Game`), or a
        value set with :meth:`set_attr`."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Sets ``name`` on each game (one value each from a list or tuple,
        else the same for all), as ``SyncVectorEnv.set_attr``. The engine's
        own attributes (the options, ``agent_seat``, ``game``) are fixed for a
        running batch and raise :class:`ayo.AyoError`; other names hold what
        they are given (for a training loop's own bookkeeping)."""
        if name in self._SHARED or name in ("agent_seat", "game", "action_masks"):
            raise AyoError(
                f"{name!r} is fixed for a running AyoVectorEnv: make a new one "
                "(reset(options={'agent_seat': ...}) chooses the next episodes' seat)"
            )
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise AyoError(f"expected {self.num_envs} values (one per game), got {len(values)}")
        self._user_attrs[name] = list(values)

    def _out(
        self,
    ) -> tuple[Observation, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        if self.copy:
            return (
                {k: v.copy() for k, v in self._obs.items()},
                self._reward.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
            )
        return self._obs, self._reward, self._terminated, self._truncated

    def _end_info(self, over: int, penalized: int) -> dict[str, Any]:
        """Scores, winners and penalized actions of the games that ended this step
        (``over`` and ``penalized`` count them: nothing is read when none did)."""
        core = self._core
        info: dict[str, Any] = {}
        if over:
            ended = core.game_over
            outcomes = core.outcomes()
            info["outcome"] = outcomes.copy() if self.copy else outcomes
            info["_outcome"] = ended.copy()
            if self.copy:
                info["scores"], info["_scores"] = core.scores.copy(), ended.copy()
                info["winner"], info["_winner"] = core.winner.copy(), ended.copy()
            else:
                info["scores"], info["_scores"] = core.scores, ended
                info["winner"], info["_winner"] = core.winner, ended
        if penalized:
            illegal = core.illegal.copy()
            info["illegal_action"], info["_illegal_action"] = illegal, illegal >= 0
        return info

    def _step_info(self, ended: int, over: int, penalized: int) -> dict[str, Any]:
        info = dict(self._info)
        if self.copy:
            info = {k: v.copy() for k, v in info.items()}
        if ended == 0:
            return info
        end = self._end_info(over, penalized)
        if self.autoreset_mode != AutoresetMode.SAME_STEP:
            info.update(end)
            return info
        core = self._core
        mask = core.ended.copy()
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(mask):
            final_obs[i] = {
                "observation": core.final_obs[i].copy(),
                "action_mask": core.final_obs_mask[i].copy(),
            }
        info["final_obs"], info["_final_obs"] = final_obs, mask
        info["final_info"], info["_final_info"] = end, mask.copy()
        return info

    # -------------------------------------------------------------- gymnasium

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observation, dict[str, Any]]:
        """Start new episodes: in every game, or where ``options["reset_mask"]`` is True.

        ``seed``: ``None`` (each game goes on with its own random stream),
        an int ``s`` (game ``i`` is seeded as a single ``AyoEnv`` reset with
        seed ``s + i``, as ``SyncVectorEnv`` seeds its environments, so both
        play the same games) or one seed (or None) per game. ``options``
        may also hold ``"agent_seat"`` (0 or 1) for these episodes.
        """
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        agent_seat = options.pop("agent_seat", None)
        if options:
            raise ValueError(f"unknown reset options: {sorted(options)}")
        seeds = _seed_list(seed, self.num_envs)
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            super().reset(seed=int(seed))
        mask: npt.NDArray[np.bool_] | None = None
        if reset_mask is not None:
            if not isinstance(reset_mask, np.ndarray) or reset_mask.dtype != np.bool_:
                raise ValueError("options['reset_mask'] must be a numpy bool array")
            if reset_mask.shape != (self.num_envs,):
                raise ValueError(
                    f"options['reset_mask'] must have shape ({self.num_envs},), "
                    f"not {reset_mask.shape}"
                )
            if not reset_mask.any():
                raise ValueError("options['reset_mask'] must have at least one True value")
            if self._needs_reset and not reset_mask.all():
                raise ValueError("the first reset must reset every game")
            mask = np.ascontiguousarray(reset_mask)
        if agent_seat is not None and (isinstance(agent_seat, bool) or agent_seat not in (0, 1)):
            raise ValueError(f"agent_seat must be 0 or 1, not {agent_seat!r}")
        # Game i seeded with s is seeded as a single AyoEnv reset with s.
        core_seeds = None if seed is None else [None if s is None else core_seed(s) for s in seeds]
        self._core.reset(mask=mask, seeds=core_seeds, agent_seat=agent_seat)
        self._needs_reset = False
        obs, _, _, _ = self._out()
        info = dict(self._info)
        if self.copy:
            info = {k: v.copy() for k, v in info.items()}
        return obs, info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observation,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play ``actions[i]`` (0..5, relative to the mover) in every game ``i``.

        With an opponent, each game's opponent replies inside the same call.
        An action outside 0..5 raises :class:`ayo.IllegalMoveError`, as does an
        illegal one unless ``illegal_action="penalize"``; a raised error
        leaves every game as it was. Games whose episode ended at the
        previous step are reset instead (``NEXT_STEP``; their action is
        ignored).
        """
        if self._needs_reset:
            raise EpisodeOverError("call reset() before step()")
        if self._whole_step:
            try:
                try:
                    return self._core.gym_step(actions)  # type: ignore[arg-type]
                except TypeError:  # not a 1-d int64 array: convert (or raise ValueError)
                    return self._core.gym_step(self._actions(actions))
            except VecEpisodeOverError as err:
                raise EpisodeOverError(str(err)) from err
        try:
            try:
                ended, over, penalized = self._core.step(actions)  # type: ignore[arg-type]
            except TypeError:  # not a 1-d int64 array: convert (or raise ValueError)
                ended, over, penalized = self._core.step(self._actions(actions))
        except VecEpisodeOverError as err:
            raise EpisodeOverError(str(err)) from err
        if ended == 0 and not self.copy:
            return self._obs, self._reward, self._terminated, self._truncated, dict(self._info)
        obs, reward, terminated, truncated = self._out()
        return obs, reward, terminated, truncated, self._step_info(ended, over, penalized)

    def _actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """``actions`` as a contiguous ``int64`` array of shape ``(N,)``, or ValueError."""
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {a.shape}")
        return np.ascontiguousarray(a, dtype=np.int64)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in the extension object."""

    # ------------------------------------------------------ pickle and copies

    def __getstate__(self) -> dict[str, Any]:
        """The arguments, every game's state (its record, seat, step count and
        random streams) and what ``set_attr`` holds; a batch whose opponent is
        a computer player raises :class:`ayo.AyoError` (that player's own
        state is not kept)."""
        return {
            "args": self._args,
            "games": self._core.__getstate__(),
            "needs_reset": self._needs_reset,
            "user_attrs": self._user_attrs,
            "np_random": getattr(self, "_np_random", None),
            "np_random_seed": getattr(self, "_np_random_seed", None),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A batch made with the same arguments, its games restored: it plays
        on exactly as the original would (the same moves, the same draws)."""
        # Checked as strictly as the constructor's arguments: each part's
        # type here, the games' bookkeeping against the games in the core.
        keys = {"args", "games", "needs_reset", "user_attrs", "np_random", "np_random_seed"}
        if not isinstance(state, dict) or set(state) != keys:
            raise AyoError(f"not an AyoVectorEnv state (a dict of {sorted(keys)})")
        if not isinstance(state["args"], dict) or not isinstance(state["games"], str):
            raise AyoError("an AyoVectorEnv state's args must be a dict and its games a str")
        if not isinstance(state["needs_reset"], bool):
            raise AyoError("an AyoVectorEnv state's needs_reset must be a bool")
        attrs = state["user_attrs"]
        if not isinstance(attrs, dict) or not all(
            isinstance(k, str) and isinstance(v, list) for k, v in attrs.items()
        ):
            raise AyoError("an AyoVectorEnv state's user_attrs must map names to lists")
        rng = state["np_random"]
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise AyoError("an AyoVectorEnv state's np_random must be a numpy Generator or None")
        self.__init__(**state["args"])  # type: ignore[misc]
        if any(len(v) != self.num_envs for v in attrs.values()):
            raise AyoError(f"an AyoVectorEnv state's user_attrs must hold {self.num_envs} values")
        self._core.__setstate__(state["games"])
        self._needs_reset = state["needs_reset"]
        self._user_attrs = {k: list(v) for k, v in attrs.items()}
        if state["np_random"] is not None:
            self._np_random = state["np_random"]
            self._np_random_seed = state["np_random_seed"]

    def __repr__(self) -> str:
        opponent = "self-play" if self.self_play else "opponent"
        return (
            f"AyoVectorEnv(num_envs={self.num_envs}, rules={self.rules.preset or self.rules!s}, "
            f"{opponent}, autoreset_mode={self.autoreset_mode.name})"
        )


def sb3_vec_env(env: AyoVectorEnv | None = None, **kwargs: Any) -> Any:
    """A Stable-Baselines3 ``VecEnv`` over an :class:`AyoVectorEnv` (for ``MaskablePPO``).

    Pass an env made with ``autoreset_mode=AutoresetMode.SAME_STEP`` (SB3's
    convention: an ended game restarts in the same step and its last
    observation is ``infos[i]["terminal_observation"]``), or the keyword
    arguments of :class:`AyoVectorEnv` to make one. ``action_masks`` comes
    from the batch (``env_method("action_masks")``, as sb3-contrib asks).
    Needs ``stable-baselines3``.
    """
    vec_env_module = importlib.import_module("stable_baselines3.common.vec_env")
    if env is None:
        env = AyoVectorEnv(autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
    elif kwargs:
        raise ValueError("pass either an env or keyword arguments, not both")
    if env.autoreset_mode != AutoresetMode.SAME_STEP:
        raise ValueError("Stable-Baselines3 needs autoreset_mode=AutoresetMode.SAME_STEP")
    if env.self_play:
        raise ValueError("Stable-Baselines3 trains one seat: give the env an opponent")
    cls = type("AyoSB3VecEnv", (_SB3Adapter, vec_env_module.VecEnv), {})
    return cls(env)


class _SB3Adapter:
    """The methods of SB3's ``VecEnv`` over an :class:`AyoVectorEnv`."""

    def __init__(self, env: AyoVectorEnv) -> None:
        self.env = env
        base: Any = super()
        base.__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: npt.NDArray[np.int64] = np.zeros(env.num_envs, dtype=np.int64)

    def reset(self) -> Observation:
        """Reset every game (seeds from ``seed()``, if any); the observations."""
        seeds: list[int | None] = list(getattr(self, "_seeds", [None] * self.env.num_envs))
        seed = None if all(s is None for s in seeds) else seeds
        obs, _ = self.env.reset(seed=seed)
        if hasattr(self, "_reset_seeds"):
            self._reset_seeds()
        return {k: v.copy() for k, v in obs.items()}

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.env.num_envs)

    def step_wait(
        self,
    ) -> tuple[Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Step every game; SB3's (obs, rewards, dones, infos)."""
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.env.num_envs)]
        if dones.any():
            final_obs = info["final_obs"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return (
            {k: v.copy() for k, v in obs.items()},
            reward.astype(np.float32),
            dones,
            infos,
        )

    def close(self) -> None:
        """Close the batch."""
        self.env.close()

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.env.num_envs))
        if isinstance(indices, int):
            return [indices]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of the batch, once per game asked for."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether the batch has the attribute."""
        return hasattr(self.env, attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Attributes of the batch are fixed at construction."""
        raise AttributeError(f"cannot set {attr_name!r} on an Ayo batch")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` per game; other methods are called on the batch once per game."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i].copy() for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [_copy.copy(result) for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False for _ in self._indices(indices)]
