"""ayo's exact rules inside compiled JAX programs (the extra ``ayo[jax]``).

The stateless batch of :mod:`ayo.stateless` registered as XLA FFI custom
calls on the CPU (handlers written in Rust against XLA's C API, no Python in
the call path), so that ``jax.jit``, ``lax.scan``, ``lax.while_loop``,
``jax.vmap`` and mctx's ``recurrent_fn`` run the engine's own rules::

    >>> import jax
    >>> from ayo.jax import JaxEnv
    >>> env = JaxEnv("ayoayo")
    >>> states = env.init(env.vector_seeds(0, 4))
    >>> def body(s, _):
    ...     a = jax.numpy.argmax(env.legal_mask(s), axis=-1)
    ...     s, r, term, trunc = env.step(s, a)
    ...     return s, r
    >>> states, rewards = jax.jit(lambda s: jax.lax.scan(body, s, length=10))(states)
    >>> rewards.shape
    (10, 4, 2)

States are ``uint8`` JAX arrays of shape ``(..., 96)`` (the record of
``docs/jax.md``). Every call is pure (its outputs depend on its inputs
only), so XLA may reorder, fuse away or repeat it as it would any
operation. Under ``jax.vmap`` the calls batch by ``vmap_method=
"broadcast_all"``: the vmapped axes are flattened into the call's batch.
``jax.eval_shape`` works (the result shapes are declared).

The calls are registered for the ``cpu`` platform only. On a machine whose
default device is a GPU, run the program on the CPU device (``with
jax.default_device(jax.devices("cpu")[0])`` or ``jax.jit(f,
device=jax.devices("cpu")[0])``): the states then live in host memory,
and moving observations to the GPU for a network is one transfer per step
(``jax.device_put``), which costs about a PCIe round trip each time.

Bad shapes, dtypes and options are refused while tracing, with
:class:`ayo.StatelessError`. What only the data can tell (an action out of
0..5, a record that is not a state of the rules, an illegal action with
``illegal_action="raise"``) stops the computation with XLA's runtime error,
whose message starts with ``ayo (action):`` or ``ayo (state):``; nothing
aborts the process.
"""

from __future__ import annotations

import ctypes
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ayo._ayo import STATE_BYTES, Rules, _xla_handlers
from ayo.envs import MAX_EPISODE_STEPS
from ayo.stateless import StatelessEnv, _refuse

__all__ = ["JaxEnv", "register"]

_registered = False


def register() -> None:
    """Register ayo's custom calls with XLA (once; :class:`JaxEnv` calls it)."""
    global _registered
    if _registered:
        return
    for name, address in _xla_handlers().items():
        capsule = jax.ffi.pycapsule(ctypes.c_void_p(address))  # type: ignore[no-untyped-call]
        jax.ffi.register_ffi_target(name, capsule, platform="cpu", api_version=1)
    _registered = True


def _check_states(states: Any) -> tuple[int, ...]:
    shape = tuple(np.shape(states))
    dtype = jnp.result_type(states)
    if dtype != jnp.uint8 or len(shape) < 1 or shape[-1] != STATE_BYTES:
        raise _refuse(
            "shape",
            f"states must be uint8 of shape (..., {STATE_BYTES}), not {dtype} {shape}",
        )
    return shape[:-1]


def _sds(shape: tuple[int, ...], dtype: Any) -> Any:
    """A result's declared shape and dtype (``jax.eval_shape`` reads them)."""
    return jax.ShapeDtypeStruct(shape, dtype)  # type: ignore[no-untyped-call]


def _call(name: str, results: Any, **kw: Any) -> Any:
    return jax.ffi.ffi_call(name, results, vmap_method="broadcast_all", **kw)


class JaxEnv:
    """:class:`ayo.stateless.StatelessEnv`'s functions as JAX operations.

    Takes the same options (``rules``, ``opponent``, ``agent_seat``,
    ``perspective``, ``reward``, ``illegal_action``, ``illegal_penalty``,
    ``max_episode_steps``, ``autoreset_mode``), validated at once.
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
        """Validate the options and register the custom calls."""
        self.stateless = StatelessEnv(
            rules,
            opponent,
            agent_seat=agent_seat,
            perspective=perspective,
            reward=reward,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            max_episode_steps=max_episode_steps,
            autoreset_mode=autoreset_mode,
        )
        self.spec = self.stateless.spec
        self.perspective = perspective
        register()

    vector_seeds = staticmethod(StatelessEnv.vector_seeds)

    def init(self, seeds: Any) -> jax.Array:
        """``(B, 96)``: a new episode of each seed.

        Seeds as ``uint32`` or (with ``jax_enable_x64``) ``uint64`` JAX
        arrays run as a custom call; a numpy array or list of ``uint64``
        seeds (such as :meth:`vector_seeds`) is initialised on the host
        and copied in once.
        """
        if isinstance(seeds, (jax.Array, jax.core.Tracer)):
            dtype = jnp.result_type(seeds)
            if dtype not in (jnp.uint32, jnp.uint64) or np.ndim(seeds) != 1:
                raise _refuse("shape", f"seeds must be 1-d uint32 or uint64, not {dtype}")
            out = _sds((*np.shape(seeds), STATE_BYTES), jnp.uint8)
            return _call("ayo_init", out)(seeds, spec=self.spec)  # type: ignore[no-any-return]
        return jnp.asarray(self.stateless.init(np.asarray(seeds)))

    def step(self, states: Any, actions: Any) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        """``(next_states, rewards (..., 2) float32, terminated, truncated)``, as
        :meth:`ayo.stateless.StatelessEnv.step`. The states' buffer is
        aliased to the next states' (``input_output_aliases``): XLA steps
        them in place where the input is not used again."""
        return self._step(states, actions, False)  # type: ignore[no-any-return]

    def step_with_mask(
        self, states: Any, actions: Any
    ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]:
        """:meth:`step`, and the next states' :meth:`legal_mask` ``(..., 6)``
        from the same call (one pass over the records instead of two)."""
        return self._step(states, actions, True)  # type: ignore[no-any-return]

    def _step(self, states: Any, actions: Any, with_mask: bool) -> Any:
        lead = _check_states(states)
        adtype = jnp.result_type(actions)
        if np.shape(actions) != lead or adtype not in (jnp.int32, jnp.int64):
            raise _refuse(
                "shape",
                f"actions must be int32 or int64 of shape {lead}, not {adtype} {np.shape(actions)}",
            )
        out: tuple[Any, ...] = (
            _sds((*lead, STATE_BYTES), jnp.uint8),
            _sds((*lead, 2), jnp.float32),
            _sds(lead, jnp.bool_),
            _sds(lead, jnp.bool_),
        )
        if with_mask:
            out = (*out, _sds((*lead, 6), jnp.bool_))
        call = _call("ayo_step", out, input_output_aliases={0: 0})
        return call(states, actions, spec=self.spec)

    def legal_mask(self, states: Any) -> jax.Array:
        """``(..., 6)`` ``bool``: the viewer's legal actions."""
        lead = _check_states(states)
        out = _sds((*lead, 6), jnp.bool_)
        return _call("ayo_legal_mask", out)(states, spec=self.spec)  # type: ignore[no-any-return]

    def observe(
        self, states: Any, perspective: Literal["mover", "absolute"] | None = None
    ) -> jax.Array:
        """``(..., 14)`` ``uint8``: the board as the viewer sees it."""
        lead = _check_states(states)
        p = perspective or self.perspective
        if p not in ("mover", "absolute"):
            raise _refuse("options", f'perspective must be "mover" or "absolute", not {p!r}')
        out = _sds((*lead, 14), jnp.uint8)
        return _call(f"ayo_observe_{p}", out)(states, spec=self.spec)  # type: ignore[no-any-return]

    def children(self, states: Any) -> tuple[jax.Array, jax.Array]:
        """``((..., 6, 96), (..., 6))``: each action's next state, and its legality."""
        lead = _check_states(states)
        out = (
            _sds((*lead, 6, STATE_BYTES), jnp.uint8),
            _sds((*lead, 6), jnp.bool_),
        )
        return _call("ayo_children", out)(states, spec=self.spec)  # type: ignore[no-any-return]

    @staticmethod
    def to_move(states: Any) -> jax.Array:
        """``(...,)`` ``int32``: the player to move (0 South, 1 North), byte 14 of the record."""
        return jnp.asarray(states)[..., 14].astype(jnp.int32)

    @staticmethod
    def agent_seat(states: Any) -> jax.Array:
        """``(...,)`` ``int32``: the agent's seat, bit 0 of the flags byte (15)."""
        return (jnp.asarray(states)[..., 15] & 1).astype(jnp.int32)

    def numpy_init(self, seeds: npt.ArrayLike) -> npt.NDArray[np.uint8]:
        """:meth:`ayo.stateless.StatelessEnv.init` (host arrays)."""
        return self.stateless.init(seeds)
