"""ayo.jax: the custom calls inside jit, scan, while_loop and vmap, against the numpy side."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax
import jax.numpy as jnp

import ayo
from ayo.jax import JaxEnv
from ayo.stateless import StatelessEnv
from ayo.vector import AyoVectorEnv


def _policy(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniformly random legal action a row (any action where none is legal)."""
    logits = jnp.where(mask, 0.0, -1e9)
    return jax.random.categorical(key, logits).astype(jnp.int32)


@pytest.mark.parametrize("rules", ["ayoayo", "ayo"])
def test_a_1000_step_scan_equals_the_vector_env(rules: str) -> None:
    n, seed, steps = 32, 5, 1000
    env = JaxEnv(rules, max_episode_steps=60)

    def body(
        carry: tuple[jax.Array, jax.Array], _: None
    ) -> tuple[tuple[jax.Array, jax.Array], object]:
        states, key = carry
        key, sub = jax.random.split(key)
        mask = env.legal_mask(states)
        actions = _policy(sub, mask)
        obs = env.observe(states)
        states, rewards, term, trunc, next_mask = env.step_with_mask(states, actions)
        seats = env.agent_seat(states)
        reward = jnp.take_along_axis(rewards, seats[:, None], axis=1)[:, 0]
        return (states, key), (obs, mask, actions, reward, term, trunc, next_mask)

    @jax.jit
    def rollout(states: jax.Array, key: jax.Array) -> object:
        return jax.lax.scan(body, (states, key), length=steps)

    states = env.init(env.vector_seeds(seed, n))
    _, (obs, masks, actions, rewards, term, trunc, nexts) = rollout(states, jax.random.key(0))
    venv = AyoVectorEnv(n, rules, max_episode_steps=60)
    o, _ = venv.reset(seed=seed)
    ended = 0
    for t in range(steps):
        np.testing.assert_array_equal(np.asarray(obs[t]), o["observation"].astype(np.uint8))
        np.testing.assert_array_equal(np.asarray(masks[t]), o["action_mask"].astype(bool))
        o, r, te, tr, _ = venv.step(np.asarray(actions[t]))
        np.testing.assert_array_equal(np.asarray(nexts[t]), o["action_mask"].astype(bool))
        np.testing.assert_array_equal(np.asarray(rewards[t]), r.astype(np.float32))
        np.testing.assert_array_equal(np.asarray(term[t]), te)
        np.testing.assert_array_equal(np.asarray(trunc[t]), tr)
        ended += int(te.sum() + tr.sum())
    assert ended > n  # episodes ended and restarted along the way


def test_vmap_while_loop_and_the_other_calls_match_numpy() -> None:
    env = JaxEnv("olopon", opponent=None, autoreset_mode="Disabled", max_episode_steps=None)
    np_env = env.stateless
    grid = np.stack([np_env.init([1, 2, 3]), np_env.init([4, 5, 6])])  # (2, 3, 96)

    # vmap over the leading axis: the calls see the flattened batch.
    step = jax.jit(jax.vmap(env.step))
    actions = np.argmax(np_env.legal_mask(grid), axis=-1).astype(np.int32)
    got = step(jnp.asarray(grid), jnp.asarray(actions))
    want = np_env.step(grid, actions)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
    kids = jax.jit(jax.vmap(env.children))(jnp.asarray(grid))
    for g, w in zip(kids, np_env.children(grid), strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
    obs = jax.vmap(lambda s: env.observe(s, "absolute"))(jnp.asarray(grid))
    np.testing.assert_array_equal(np.asarray(obs), np_env.observe(grid, "absolute"))

    # A while_loop that plays every game to its end, first legal action each move.
    def cond(c: tuple[jax.Array, jax.Array]) -> jax.Array:
        return ~jnp.all(c[1])

    def body(c: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        s, done = c
        a = jnp.argmax(env.legal_mask(s), axis=-1).astype(jnp.int32)
        s, _, term, trunc = env.step(s, a)
        return s, done | term | trunc

    flat = jnp.asarray(grid.reshape(-1, 96))
    final, _ = jax.jit(lambda s: jax.lax.while_loop(cond, body, (s, jnp.zeros(6, bool))))(flat)
    s = grid.reshape(-1, 96)
    done = np.zeros(6, bool)
    while not done.all():
        s, _, te, tr = np_env.step(s, np.argmax(np_env.legal_mask(s), axis=-1))
        done |= te | tr
    np.testing.assert_array_equal(np.asarray(final), s)


def test_shapes_without_running_and_zero_copy_handover() -> None:
    env = JaxEnv("ayoayo")
    spec = jax.ShapeDtypeStruct((7, 96), jnp.uint8)  # type: ignore[no-untyped-call]
    acts = jax.ShapeDtypeStruct((7,), jnp.int32)  # type: ignore[no-untyped-call]
    shapes = jax.eval_shape(env.step, spec, acts)
    assert [x.shape for x in shapes] == [(7, 96), (7, 2), (7,), (7,)]
    assert jax.eval_shape(env.children, spec)[0].shape == (7, 6, 96)
    host = env.numpy_init([1, 2])
    dev = jnp.from_dlpack(host)
    assert dev.unsafe_buffer_pointer() == host.ctypes.data
    seeds32 = jax.jit(env.init)(jnp.arange(3, dtype=jnp.uint32))
    np.testing.assert_array_equal(np.asarray(seeds32), env.numpy_init([0, 1, 2]))


def test_bad_input_is_refused_and_nothing_aborts() -> None:
    with pytest.raises(ayo.StatelessError, match="repetition"):
        JaxEnv("oware")
    env = JaxEnv("ayoayo")
    states = env.init([1, 2])
    with pytest.raises(ayo.StatelessError):
        env.step(states.astype(jnp.int32), jnp.zeros(2, jnp.int32))
    with pytest.raises(ayo.StatelessError):
        env.step(states, jnp.zeros(3, jnp.int32))
    with pytest.raises(ayo.StatelessError):
        env.step(states, jnp.zeros(2, jnp.float32))
    with pytest.raises(ayo.StatelessError):
        env.legal_mask(states[:, :90])
    # What only the data tells stops the computation with XLA's error.
    step = jax.jit(env.step)
    with pytest.raises(Exception, match=r"ayo \(action\)"):
        np.asarray(step(states, jnp.array([0, 9], jnp.int32))[0])
    bad = states.at[0, 14].set(5)
    with pytest.raises(Exception, match=r"ayo \(state\)"):
        np.asarray(step(bad, jnp.zeros(2, jnp.int32))[0])
    # The handler checks what reaches it without ayo.jax's checks: the spec
    # attribute, the shapes.
    mask = jax.ShapeDtypeStruct((2, 6), jnp.bool_)  # type: ignore[no-untyped-call]
    raw = jax.ffi.ffi_call("ayo_legal_mask", mask)
    with pytest.raises(Exception, match=r"ayo \(rules\): rules with repetition"):
        np.asarray(raw(states, spec="repetition=own_side"))
    with pytest.raises(Exception, match=r"ayo \(options\)"):
        np.asarray(raw(states, spec="opponent=greedy"))
    with pytest.raises(Exception, match=r"ayo \(shape\)"):
        np.asarray(raw(states[:, :90], spec=env.spec))
    # The process goes on, and so do the calls.
    ok = step(states, jnp.argmax(env.legal_mask(states), axis=-1).astype(jnp.int32))
    assert ok[0].shape == (2, 96)
    assert StatelessEnv("ayoayo").spec == env.spec
