"""Stateless batches: pure functions over arrays of packed episodes.

A state is a fixed-size record of :data:`STATE_BYTES` (96) bytes: the
position with its counters, the episode's bookkeeping and its two random
streams (``docs/jax.md`` has the byte layout; :data:`STATE_DTYPE` names the
fields as a numpy structured dtype). A batch of states is a ``(..., 96)``
``uint8`` array, and every function maps arrays to new arrays, nothing kept
between calls::

    >>> from ayo.stateless import StatelessEnv
    >>> env = StatelessEnv("ayoayo")
    >>> states = env.init([1, 2, 3])
    >>> states.shape
    (3, 96)
    >>> mask = env.legal_mask(states)
    >>> states, rewards, terminated, truncated = env.step(states, mask.argmax(axis=1))
    >>> rewards.shape
    (3, 2)

``step`` is the batched environment's step (:class:`ayo.vector.AyoVectorEnv`):
the agent's action and the random opponent's reply (``opponent=None``: one
move for the side to move), the same rewards, truncation, penalties and
next-step autoreset; a record initialised from the seeds
:meth:`StatelessEnv.vector_seeds` gives goes through the same games as
``AyoVectorEnv.reset(seed=...)``. Every rule is ayo-core's: each record is
unpacked into the core's episode, stepped, and packed again.

Rules whose games end on a repeated position (``oware``) are refused with
:class:`ayo.StatelessError` (``reason="rules"``): that rule reads every
position since the last capture, which a fixed-size record does not hold.
``Rules("oware", repetition="off")`` with ``max_episode_steps`` (truncation)
is the stateless form of Oware.

Arrays handed out are new, writable, C-contiguous and 64-byte aligned
(``jnp.from_dlpack`` and ``torch.from_numpy`` take them without a copy).
Inputs are read where they lie when they are C-contiguous arrays of the
expected dtype; other inputs are copied once (actions of another integer
dtype are converted to ``int64``). Inputs of another kind (floats for
actions, states that are not ``uint8 (..., 96)``) are refused.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ayo._args import real_arg
from ayo._ayo import STATE_BYTES, Rules, StatelessCore, StatelessError
from ayo.envs import MAX_EPISODE_STEPS
from ayo.envs.ayo_env import core_seed

__all__ = [
    "ALIGNMENT",
    "STATE_BYTES",
    "STATE_DTYPE",
    "StatelessEnv",
    "aligned_empty",
]

#: The alignment, in bytes, of every array this module hands out.
ALIGNMENT = 64

#: The record's fields (little-endian), as a structured dtype of 96 bytes:
#: ``states.view(STATE_DTYPE)`` reads a ``(B, 96)`` batch as ``(B, 1)`` records.
STATE_DTYPE = np.dtype(
    [
        ("pits", np.uint8, (12,)),
        ("stores", np.uint8, (2,)),
        ("to_move", np.uint8),
        ("flags", np.uint8),
        ("no_capture", "<u2"),
        ("reserved", "<u2"),
        ("ply", "<u4"),
        ("steps", "<u4"),
        ("episodes", "<u4"),
        ("opponent_rng", "<u8", (4,)),
        ("seat_rng", "<u8", (4,)),
    ]
)
assert STATE_DTYPE.itemsize == STATE_BYTES

#: Bits of the ``flags`` byte.
FLAG_AGENT_NORTH = 1
FLAG_DONE = 2
FLAG_PENALIZED = 4


def _refuse(reason: str, message: str) -> StatelessError:
    err = StatelessError(message)
    err.reason = reason
    return err


def aligned_empty(shape: Sequence[int], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
    """A new writable C-contiguous array of ``shape`` whose data is 64-byte aligned."""
    dt = np.dtype(dtype)
    shape = tuple(int(s) for s in shape)
    nbytes = math.prod(shape) * dt.itemsize
    raw = np.empty(nbytes + ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + nbytes].view(dt).reshape(shape)


def _states(states: object) -> npt.NDArray[np.uint8]:
    arr = np.asarray(states)
    if arr.dtype != np.uint8 or arr.ndim < 1 or arr.shape[-1] != STATE_BYTES:
        raise _refuse(
            "shape",
            f"states must be a uint8 array of shape (..., {STATE_BYTES}), "
            f"not {arr.dtype} {arr.shape}",
        )
    return np.ascontiguousarray(arr)


class StatelessEnv:
    """The options of a stateless batch, and its pure functions.

    The arguments are :class:`ayo.vector.AyoVectorEnv`'s (with the same
    defaults), less those that keep state or threads: ``opponent`` is
    ``"random"`` or None (self-play); ``autoreset_mode`` is ``"NextStep"``
    (as the batched environment) or ``"Disabled"``, where a state whose
    episode is over steps to itself with zero rewards (what a tree search
    needs at its terminal nodes). ``max_episode_steps`` counts the agent's
    steps (in self-play, moves of each side), as the batched environment.
    """

    def __init__(
        self,
        rules: Rules | str = "ayoayo",
        opponent: Literal["random"] | None = "random",
        agent_seat: Literal[0, 1, "alternate", "random"] = 0,
        perspective: Literal["mover", "absolute"] = "mover",
        reward: Literal["win_loss", "seed_difference"] = "win_loss",
        illegal_action: Literal["raise", "penalize"] = "penalize",
        illegal_penalty: float = -1.0,
        max_episode_steps: int | None = MAX_EPISODE_STEPS,
        autoreset_mode: Literal["NextStep", "Disabled"] = "NextStep",
    ) -> None:
        """Validate the options (see the class docstring)."""
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        steps = None
        if max_episode_steps is not None:
            per = 1 if opponent is not None else 2
            try:
                if isinstance(max_episode_steps, (bool, np.bool_)):
                    raise TypeError
                m = operator.index(max_episode_steps)
            except TypeError:
                raise _refuse(
                    "options",
                    f"max_episode_steps must be an int or None, not {max_episode_steps!r}",
                ) from None
            if not 1 <= m <= (2**32 - 1) // per:
                raise _refuse("options", f"max_episode_steps = {m} is out of range")
            steps = m * per
        self._core = StatelessCore(
            self.rules,
            opponent,
            agent_seat=agent_seat,
            perspective=perspective,
            reward=reward,
            illegal_action=illegal_action,
            illegal_penalty=real_arg(illegal_penalty, "illegal_penalty"),
            max_episode_steps=steps,
            autoreset_mode=autoreset_mode,
        )
        self.perspective = perspective

    @property
    def spec(self) -> str:
        """The options as one line of text (the XLA calls' ``spec`` attribute)."""
        return self._core.spec

    @staticmethod
    def vector_seeds(seed: int, n: int) -> npt.NDArray[np.uint64]:
        """The seeds for :meth:`init` of the games ``AyoVectorEnv.reset(seed=seed)`` starts."""
        return np.array([core_seed(seed + i) for i in range(n)], dtype=np.uint64)

    def init(self, seeds: Sequence[int] | npt.ArrayLike) -> npt.NDArray[np.uint8]:
        """``(B, 96)``: a new episode of each seed (``uint64``), reset."""
        s = np.asarray(seeds)
        if s.ndim != 1 or not (s.dtype.kind in "ui" or (s.size == 0 and s.dtype.kind == "f")):
            raise _refuse("shape", f"seeds must be a 1-d integer array, not {s.dtype} {s.shape}")
        if s.dtype.kind == "i" and (s < 0).any():
            raise _refuse("shape", "seeds must be in 0..2**64-1")
        s = np.ascontiguousarray(s, dtype=np.uint64)
        out = aligned_empty((s.shape[0], STATE_BYTES), np.uint8)
        self._core.init_into(s, out)
        return out

    def step(
        self, states: npt.ArrayLike, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """One step of every game: ``(next_states, rewards, terminated, truncated)``.

        ``rewards`` is ``(..., 2)`` ``float32``: South's and North's rewards
        (``rewards[..., seat]`` is the agent's, as ``AyoVectorEnv``'s
        reward). ``states`` is not changed. An action out of 0..5 (or an
        illegal one with ``illegal_action="raise"``) raises
        :class:`ayo.StatelessError` (``reason="action"``).
        """
        st, acts = self._step_args(states, actions)
        lead = st.shape[:-1]
        nxt = aligned_empty(st.shape, np.uint8)
        rewards = aligned_empty((*lead, 2), np.float32)
        terminated = aligned_empty(lead, np.bool_)
        truncated = aligned_empty(lead, np.bool_)
        self._core.step_into(st, acts, nxt, rewards, terminated, truncated)
        return nxt, rewards, terminated, truncated

    def step_with_mask(
        self, states: npt.ArrayLike, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """:meth:`step`, and the next states' :meth:`legal_mask` from the same pass."""
        st, acts = self._step_args(states, actions)
        lead = st.shape[:-1]
        nxt = aligned_empty(st.shape, np.uint8)
        rewards = aligned_empty((*lead, 2), np.float32)
        terminated = aligned_empty(lead, np.bool_)
        truncated = aligned_empty(lead, np.bool_)
        mask = aligned_empty((*lead, 6), np.bool_)
        self._core.step_into(st, acts, nxt, rewards, terminated, truncated, mask)
        return nxt, rewards, terminated, truncated, mask

    @staticmethod
    def _step_args(
        states: npt.ArrayLike, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        st = _states(states)
        lead = st.shape[:-1]
        acts = np.asarray(actions)
        if acts.dtype.kind not in "ui" or acts.shape != lead:
            raise _refuse(
                "shape",
                f"actions must be an integer array of shape {lead}, not {acts.dtype} {acts.shape}",
            )
        return st, np.ascontiguousarray(acts, dtype=np.int64)

    def legal_mask(self, states: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """``(..., 6)`` ``bool``: the viewer's legal actions (none once the episode is over)."""
        st = _states(states)
        mask = aligned_empty((*st.shape[:-1], 6), np.bool_)
        self._core.legal_mask_into(st, mask)
        return mask

    def observe(
        self, states: npt.ArrayLike, perspective: Literal["mover", "absolute"] | None = None
    ) -> npt.NDArray[np.uint8]:
        """``(..., 14)`` ``uint8``: the board as the viewer sees it (12 pits, 2 stores).

        ``perspective`` defaults to the options'.
        """
        st = _states(states)
        obs = aligned_empty((*st.shape[:-1], 14), np.uint8)
        self._core.observe_into(st, perspective or self.perspective, obs)
        return obs

    def children(
        self, states: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        """``((..., 6, 96), (..., 6))``: each action's next state (:meth:`step`), and its legality.

        An illegal action's child is the state itself, marked invalid.
        """
        st = _states(states)
        lead = st.shape[:-1]
        children = aligned_empty((*lead, 6, STATE_BYTES), np.uint8)
        valid = aligned_empty((*lead, 6), np.bool_)
        self._core.children_into(st, children, valid)
        return children, valid

    @staticmethod
    def fields(states: npt.ArrayLike) -> npt.NDArray[np.void]:
        """The records of ``states`` as :data:`STATE_DTYPE` (a view, no copy)."""
        st = _states(states)
        return st.view(STATE_DTYPE)[..., 0]
