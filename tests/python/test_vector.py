"""The batched environment ayo.vector.AyoVectorEnv (make_vec's vector_entry_point)."""

from __future__ import annotations

import warnings
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.vector import AutoresetMode

import ayo
from ayo.envs import AyoEnv, EpisodeOverError, seat_view
from ayo.vector import AyoVectorEnv

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]


def random_legal(rng: np.random.Generator, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per row (0 where a row has none)."""
    noise = rng.random(masks.shape) * masks
    return np.asarray(noise.argmax(axis=1), dtype=np.int64)


def snapshot(env: AyoVectorEnv) -> tuple[Any, ...]:
    """Copies of everything a step can change (for 'nothing changed' checks)."""
    obs = env._obs
    return (
        env.records(),
        obs["observation"].copy(),
        obs["action_mask"].copy(),
        env.action_masks().copy(),
    )


def same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return a[0] == b[0] and all(np.array_equal(x, y) for x, y in zip(a[1:], b[1:], strict=True))


# ---------------------------------------------------------------- creation


def test_make_vec_uses_the_vector_entry_point() -> None:
    envs = gymnasium.make_vec(
        "ayo/Ayo-v0", num_envs=5, vectorization_mode="vector_entry_point", rules="oware"
    )
    assert isinstance(envs.unwrapped, AyoVectorEnv)
    single = gymnasium.make("ayo/Ayo-v0", rules="oware")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert isinstance(envs.unwrapped, AyoVectorEnv)
    assert envs.unwrapped.max_episode_steps == ayo.envs.MAX_EPISODE_STEPS
    obs, info = envs.reset(seed=3)
    assert obs["observation"].shape == (5, 14)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (5, 6)
    assert obs["action_mask"].dtype == np.int8
    assert info["action_mask"].dtype == np.bool_
    assert envs.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"].astype(bool), info["action_mask"])
    envs.close()


def test_arrays_are_preallocated_and_reused_without_copies() -> None:
    env = AyoVectorEnv(4, rules="ayo", copy=False)
    obs, _ = env.reset(seed=1)
    masks = env.action_masks()
    obs2, rewards, terminated, truncated, _ = env.step(masks.argmax(axis=1))
    assert obs2["observation"] is obs["observation"]
    assert env.action_masks() is masks
    _, rewards2, terminated2, truncated2, _ = env.step(env.action_masks().argmax(axis=1))
    assert rewards2 is rewards
    assert terminated2 is terminated
    assert truncated2 is truncated


def test_returned_arrays_are_never_overwritten_by_default() -> None:
    env = AyoVectorEnv(4, rules="ayo")
    first, first_info = env.reset(seed=1)
    kept = {k: v.copy() for k, v in first.items()}
    kept_mask = first_info["action_mask"].copy()
    masks = env.action_masks()
    second, *_ = env.step(masks.argmax(axis=1))
    assert first["observation"] is not second["observation"]
    assert not np.array_equal(first["observation"], second["observation"])
    for _ in range(30):
        env.step(env.action_masks().argmax(axis=1))
    # What reset and the first step returned is as they returned it.
    for k in kept:
        assert np.array_equal(first[k], kept[k])
    assert np.array_equal(first_info["action_mask"], kept_mask)
    assert masks is not env.action_masks()


# ------------------------------------------------- parity with the single env


def run_first_episodes(
    env: AyoVectorEnv, seed: int
) -> tuple[list[list[int]], list[list[tuple[Any, ...]]], list[str], list[int]]:
    """Steps random legal actions until every game's first episode ended.

    Returns per game: the agent's actions, what each step returned
    (observation, mask, reward, terminated, truncated), the game record at
    the end, and the agent's seat.
    """
    n = env.num_envs
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seats = [int(s) for s in info["agent_seat"]]
    actions: list[list[int]] = [[] for _ in range(n)]
    steps: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
    records = [""] * n
    first = [(obs["observation"][j].copy(), obs["action_mask"][j].copy()) for j in range(n)]
    done = np.zeros(n, dtype=bool)
    while not done.all():
        a = random_legal(rng, env.action_masks())
        obs, reward, terminated, truncated, _ = env.step(a)
        for i in np.flatnonzero(~done):
            actions[i].append(int(a[i]))
            steps[i].append(
                (
                    obs["observation"][i].copy(),
                    obs["action_mask"][i].copy(),
                    float(reward[i]),
                    bool(terminated[i]),
                    bool(truncated[i]),
                )
            )
        ended = (terminated | truncated) & ~done
        for k in np.flatnonzero(ended):
            records[k] = env.records()[k]
        done |= ended
    for j in range(n):
        steps[j].insert(0, first[j])
    return actions, steps, records, seats


def scripted(moves: list[int]) -> Any:
    """An opponent that replays the absolute pits of a record, by ply."""

    def play(game: ayo.Game) -> int:
        return moves[game.ply] % 6

    return play


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("reward", ["win_loss", "seed_difference"])
def test_each_game_matches_the_single_env(
    preset: str, reward: Literal["win_loss", "seed_difference"]
) -> None:
    """Same observations, masks, rewards, terminations and truncations as
    gymnasium.make("ayo/Ayo-v0") fed the same agent and opponent moves."""
    env = AyoVectorEnv(6, rules=preset, reward=reward, agent_seat="alternate", max_episode_steps=40)
    actions, steps, records, seats = run_first_episodes(env, seed=11)
    assert set(seats) == {0}
    for i in range(env.num_envs):
        moves = ayo.Game.from_record(records[i]).moves
        single = gymnasium.make(
            "ayo/Ayo-v0",
            rules=preset,
            reward=reward,
            opponent=scripted(moves),
            agent_seat=seats[i],
            max_episode_steps=40,
        )
        obs, _ = single.reset(seed=0)
        assert np.array_equal(obs["observation"], steps[i][0][0])
        assert np.array_equal(obs["action_mask"], steps[i][0][1])
        for a, (o, m, r, te, tr) in zip(actions[i], steps[i][1:], strict=True):
            obs, reward_, terminated, truncated, _ = single.step(a)
            assert np.array_equal(obs["observation"], o), (preset, i)
            assert np.array_equal(obs["action_mask"], m), (preset, i)
            assert (reward_, terminated, truncated) == (r, te, tr), (preset, i)
        assert terminated or truncated


def test_agent_seat_north_and_alternate_match_the_single_env() -> None:
    env = AyoVectorEnv(4, rules="oware", agent_seat=1)
    actions, steps, records, seats = run_first_episodes(env, seed=5)
    assert seats == [1, 1, 1, 1]
    for i in range(4):
        moves = ayo.Game.from_record(records[i]).moves
        single = AyoEnv(rules="oware", opponent=scripted(moves), agent_seat=1)
        obs, _ = single.reset()
        assert np.array_equal(obs["observation"], steps[i][0][0])
        for a, (o, _m, r, te, _tr) in zip(actions[i], steps[i][1:], strict=True):
            obs, reward, terminated, _, _ = single.step(a)
            assert np.array_equal(obs["observation"], o)
            assert (reward, terminated) == (r, te)
    # "alternate": each game's seat alternates from South, per game.
    alt = AyoVectorEnv(3, rules="oware", agent_seat="alternate", autoreset_mode="Disabled")
    _, info = alt.reset(seed=0)
    assert list(info["agent_seat"]) == [0, 0, 0]
    _, info = alt.reset(options={"reset_mask": np.array([True, False, True])})
    assert list(info["agent_seat"]) == [1, 0, 1]
    _, info = alt.reset(seed=0)
    assert list(info["agent_seat"]) == [0, 0, 0]


def test_observations_are_the_agents_view() -> None:
    for perspective in ("mover", "absolute"):
        env = AyoVectorEnv(8, rules="ayoayo", agent_seat="random", perspective=perspective)
        obs, info = env.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(10):
            records = env.records()
            for i, record in enumerate(records):
                game = ayo.Game.from_record(record)
                seat = int(info["agent_seat"][i])
                expected = (
                    game.observation("absolute")
                    if perspective == "absolute"
                    else seat_view(game, seat)
                )
                assert np.array_equal(obs["observation"][i], expected)
                if not game.is_over and game.to_move == seat:
                    assert np.array_equal(info["action_mask"][i], game.action_mask())
                else:
                    assert not info["action_mask"][i].any()
            obs, _, _, _, info = env.step(random_legal(rng, env.action_masks()))


# ------------------------------------------------------ seeds and threads


def trajectory(env: AyoVectorEnv, seed: int, steps: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs["observation"].copy(),)]
    for _ in range(steps):
        obs, r, te, tr, info = env.step(random_legal(rng, env.action_masks()))
        out.append(
            (
                obs["observation"].copy(),
                obs["action_mask"].copy(),
                r.copy(),
                te.copy(),
                tr.copy(),
                info["agent_seat"].copy(),
            )
        )
    return out


def equal_trajectories(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(s, t, strict=True))
        for s, t in zip(a, b, strict=True)
    )


@pytest.mark.parametrize(
    ("preset", "n", "opponent"),
    [("ayoayo", 2048, "random"), ("oware", 2048, "random"), ("ayo", 1001, "greedy")],
)
def test_two_threads_give_the_single_threaded_results(preset: str, n: int, opponent: str) -> None:
    # Each thread steps a share of the games (the caller takes a late
    # helper's share); 1001 games leave the shares uneven.
    kwargs: dict[str, Any] = {
        "rules": preset,
        "opponent": opponent,
        "agent_seat": "random",
        "reward": "seed_difference",
    }
    one = AyoVectorEnv(n, num_threads=1, **kwargs)
    two = AyoVectorEnv(n, num_threads=2, **kwargs)
    assert two.num_threads == 2
    assert equal_trajectories(trajectory(one, 7, 120), trajectory(two, 7, 120))


def test_seeds_reproduce_and_distinguish_games() -> None:
    a = AyoVectorEnv(16, rules="ayo", agent_seat="random")
    b = AyoVectorEnv(16, rules="ayo", agent_seat="random")
    first = trajectory(a, 3, 60)
    assert equal_trajectories(first, trajectory(b, 3, 60))
    assert equal_trajectories(first, trajectory(a, 3, 60))  # a seeded reset restarts the streams
    assert not equal_trajectories(first, trajectory(b, 4, 60))
    # Seeds are per game: game i of seed s is game 0 of seed s + i.
    single = AyoVectorEnv(1, rules="ayo", agent_seat="random")
    one = trajectory(single, 5, 30)
    many = trajectory(AyoVectorEnv(3, rules="ayo", agent_seat="random"), 3, 30)
    # Same game stream, but the agent's random actions differ: compare the start.
    assert np.array_equal(one[0][0][0], many[0][0][2])
    env = AyoVectorEnv(3, rules="oware")
    env.reset(seed=[1, None, 2])
    with pytest.raises(ValueError, match="expected 3 seeds"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seeds must be"):
        env.reset(seed=-1)


# ------------------------------------------------------------ autoreset


def play_until_an_end(
    env: AyoVectorEnv, rng: np.random.Generator
) -> tuple[npt.NDArray[np.bool_], dict[str, Any]]:
    for _ in range(2000):
        _, _, te, tr, info = env.step(random_legal(rng, env.action_masks()))
        if (te | tr).any():
            return te | tr, info
    raise AssertionError("no episode ended")


def test_next_step_autoreset() -> None:
    env = AyoVectorEnv(8, rules="ayoayo")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    ended, info = play_until_an_end(env, rng)
    assert "final_obs" not in info
    over = info["_scores"]
    assert over.any()
    assert (info["scores"][over].sum(axis=1) <= 48).all()
    for i in np.flatnonzero(ended):
        assert not env.action_masks()[i].any()  # the final observation
    # The next step resets those games whatever their action.
    a = random_legal(rng, env.action_masks())
    obs, reward, te, tr, _ = env.step(a)
    start = AyoVectorEnv(1, rules="ayoayo").reset(seed=0)[0]["observation"][0]
    for i in np.flatnonzero(ended):
        assert reward[i] == 0
        assert not te[i]
        assert not tr[i]
        assert np.array_equal(obs["observation"][i], start)
        assert ayo.Game.from_record(env.records()[i]).ply == 0


def test_same_step_autoreset() -> None:
    env = AyoVectorEnv(8, rules="oware", autoreset_mode=AutoresetMode.SAME_STEP)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    ended, info = play_until_an_end(env, rng)
    assert np.array_equal(info["_final_obs"], ended)
    assert np.array_equal(info["_final_info"], ended)
    obs = env._obs
    start = AyoVectorEnv(1, rules="oware").reset(seed=0)[0]["observation"][0]
    for i in range(env.num_envs):
        if ended[i]:
            final = info["final_obs"][i]
            assert final["observation"].sum() == 48
            assert not np.array_equal(final["observation"], start)
            assert np.array_equal(obs["observation"][i], start)  # already a new episode
            assert env.action_masks()[i].any()
        else:
            assert info["final_obs"][i] is None


def test_disabled_autoreset_and_reset_mask() -> None:
    env = AyoVectorEnv(6, rules="ayoayo", autoreset_mode="Disabled")
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    ended, _ = play_until_an_end(env, rng)
    before = snapshot(env)
    with pytest.raises(EpisodeOverError, match="reset_mask"):
        env.step(random_legal(rng, env.action_masks()))
    assert same(before, snapshot(env))
    with pytest.raises(ValueError, match="numpy bool"):
        env.reset(options={"reset_mask": list(ended)})
    with pytest.raises(ValueError, match="at least one"):
        env.reset(options={"reset_mask": np.zeros(6, dtype=bool)})
    obs, _ = env.reset(options={"reset_mask": ended})
    records = env.records()
    for i in range(6):
        if ended[i]:
            assert ayo.Game.from_record(records[i]).ply == 0
        else:
            assert records[i] == before[0][i]
            assert np.array_equal(obs["observation"][i], before[1][i])
    env.step(random_legal(rng, env.action_masks()))


# ------------------------------------------------------------- bad input


def test_bad_actions_raise_and_change_nothing() -> None:
    env = AyoVectorEnv(4, rules="oware", illegal_action="raise")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(random_legal(rng, env.action_masks()))
    before = snapshot(env)
    legal = random_legal(rng, env.action_masks())
    for bad_value in (6, -1, 2**40):
        bad = legal.copy()
        bad[2] = bad_value
        with pytest.raises(ayo.IllegalMoveError, match="game 2") as err:
            env.step(bad)
        assert err.value.reason == "action_out_of_range"
        assert same(before, snapshot(env))
    illegal = np.flatnonzero(~env.action_masks()[1])
    if illegal.size:
        bad = legal.copy()
        bad[1] = illegal[0]
        with pytest.raises(ayo.IllegalMoveError, match="game 1"):
            env.step(bad)
        assert same(before, snapshot(env))
    with pytest.raises(ValueError, match="expected 4 actions"):
        env.step(legal[:3])
    with pytest.raises(ValueError, match="shape"):
        env.step(legal.reshape(2, 2))
    with pytest.raises(ValueError, match="integers"):
        env.step(legal.astype(np.float64))
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"colour": 1})
    assert same(before, snapshot(env))
    # Any integer sequence of the right length is accepted (lists, other
    # dtypes, strided views) and gives the same step.
    twin = AyoVectorEnv(4, rules="oware")
    twin.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        twin.step(random_legal(rng, twin.action_masks()).astype(np.int8).tolist())
    strided = np.repeat(legal, 2)[::2]
    assert not strided.flags.c_contiguous
    env.step(legal)
    twin.step(strided)
    assert same(snapshot(env), snapshot(twin))
    with pytest.raises(EpisodeOverError):
        AyoVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_retyped_output_arrays_are_refused_and_change_nothing() -> None:
    # The step writes into its own arrays, which the caller holds with
    # copy=False: one retyped in place is refused before any game moves; an
    # equivalent dtype (another object for float32) is still written.
    env = AyoVectorEnv(4, rules="oware", copy=False)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    env.step(random_legal(rng, env.action_masks()))
    legal = random_legal(rng, env.action_masks())
    records = env.records()
    # Any: numpy's stubs make dtype read-only, but an array's dtype can be set.
    reward: Any = env.step(legal)[1]
    assert reward.dtype == np.float64
    twin = AyoVectorEnv(4, rules="oware", copy=False)
    twin.reset(seed=0)
    twin.step(random_legal(np.random.default_rng(0), twin.action_masks()))
    assert twin.records() == records
    reward.dtype = np.dtype(np.int64)
    with pytest.raises(ayo.AyoError, match="reshaped or retyped"):
        env.step(random_legal(rng, env.action_masks()))
    reward.dtype = np.dtype(np.float64)
    observation: Any = obs["observation"]
    observation.dtype = np.dtype(np.float32, metadata={"unit": "seeds"})
    assert observation.dtype is not np.dtype(np.float32)
    twin.step(legal)
    assert env.records() == twin.records()
    actions = random_legal(rng, env.action_masks())
    env.step(actions)
    twin.step(actions)
    assert env.records() == twin.records()
    assert np.array_equal(observation, twin._obs["observation"])
    # Strides set in place (deprecated by numpy, still possible) keep the
    # array's length and dtype but not its order: refused too.
    rewards: Any = twin.step(actions)[1]
    records = twin.records()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        rewards.strides = (0,)
    with pytest.raises(ayo.AyoError, match="no longer contiguous"):
        twin.step(random_legal(rng, twin.action_masks()))
    assert twin.records() == records


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"opponent": "minimax"}, "opponent must be"),
        ({"opponent": 9}, "opponent must be"),
        ({"opponent": True}, "opponent must be"),
        ({"opponent": lambda g: 0}, "callable"),
        ({"agent_seat": 2}, "agent_seat"),
        ({"perspective": "north"}, "perspective"),
        ({"reward": "points"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"max_episode_steps": 0}, "max_episode_steps"),
        ({"autoreset_mode": "Sometimes"}, "autoreset_mode"),
        ({"num_threads": -1}, "num_threads"),
        ({"num_threads": 1025}, "num_threads"),
        ({"num_envs": 0}, "num_envs"),
        ({"rules": "mancala"}, "mancala"),
    ],
)
def test_bad_options_raise_value_errors(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {"num_envs": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        AyoVectorEnv(**args)


def test_penalized_illegal_actions_end_the_episode() -> None:
    env = AyoVectorEnv(
        3, rules="oware", illegal_action="penalize", illegal_penalty=-2.5, agent_seat=1
    )
    env.reset(seed=0)
    masks = env.action_masks()
    a = masks.argmax(axis=1)
    illegal = np.flatnonzero(~masks[0])
    while illegal.size == 0:  # every pit playable: play on until one is not
        env.step(a)
        masks = env.action_masks()
        a = masks.argmax(axis=1)
        illegal = np.flatnonzero(~masks[0])
    a[0] = illegal[0]
    _, reward, terminated, truncated, info = env.step(a)
    assert reward[0] == -2.5
    assert terminated[0]
    assert not truncated[0]
    assert info["_illegal_action"].tolist() == [True, False, False]
    assert info["illegal_action"][0] == illegal[0]
    assert not env.action_masks()[0].any()


# ------------------------------------------------------------- opponents


@pytest.mark.parametrize("opponent", ["greedy", 3, "2"])
def test_computer_players_as_batch_opponents(opponent: str | int) -> None:
    env = AyoVectorEnv(4, rules="oware", opponent=opponent, agent_seat="alternate")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        env.step(random_legal(rng, env.action_masks()))
    again = AyoVectorEnv(4, rules="oware", opponent=opponent, agent_seat="alternate")
    env2_traj = trajectory(again, 1, 30)
    assert equal_trajectories(trajectory(env, 1, 30), env2_traj)


def test_a_player_object_is_copied_per_game() -> None:
    """An ayo.Player plays as its kind and budget, seeded per game like a level."""
    player = ayo._ayo.Player.from_kind("alphabeta", depth=2, seed=5)
    by_player = trajectory(AyoVectorEnv(3, rules="ayo", opponent=player), 2, 20)
    # Level 6 in collect-on-4 games (ayo) is alpha-beta at depth 2.
    by_level = trajectory(AyoVectorEnv(3, rules="ayo", opponent=6), 2, 20)
    assert equal_trajectories(by_player, by_level)
    by_level = trajectory(AyoVectorEnv(3, rules="oware", opponent=3), 2, 20)
    by_player = trajectory(AyoVectorEnv(3, rules="oware", opponent=player), 2, 20)
    assert equal_trajectories(by_player, by_level)
    timed = ayo._ayo.Player.from_kind("alphabeta", time=0.01)
    with pytest.raises(ValueError, match="time budget"):
        AyoVectorEnv(2, opponent=timed)


def test_a_level_plays_its_budget_for_the_rules() -> None:
    """A level (a number, a name or a Player made from one) plays the level's
    budget for the batch's rules: in ayo (collect-on-4) level 4 is MCTS with
    12 simulations, elsewhere alpha-beta at depth 4."""
    mcts = ayo._ayo.Player.from_kind("mcts", nodes=12)
    alphabeta = ayo._ayo.Player.from_kind("alphabeta", depth=4)
    for rules, same in (("ayo", mcts), ("oware", alphabeta)):
        want = trajectory(AyoVectorEnv(3, rules=rules, opponent=same), 2, 12)
        for level in (4, "4", ayo._ayo.Player(4)):
            got = trajectory(AyoVectorEnv(3, rules=rules, opponent=level), 2, 12)
            assert equal_trajectories(got, want), (rules, level)


# ------------------------------------------------------------- self-play


def test_self_play_moves_for_the_side_to_move() -> None:
    """Each step plays one move of the side to move; its reward is that
    side's margin change; the observation is the next mover's view."""
    env = AyoVectorEnv(5, rules="ayoayo", opponent=None, reward="seed_difference")
    obs, info = env.reset(seed=8)
    assert "to_move" in info
    assert "agent_seat" not in info
    rng = np.random.default_rng(8)
    games = [ayo.Game.from_record(r) for r in env.records()]
    pending = np.zeros(5, dtype=bool)
    checked = 0
    for _ in range(300):
        a = random_legal(rng, env.action_masks())
        expected = np.zeros(5)
        for i, g in enumerate(games):
            if pending[i]:
                games[i] = ayo.Game("ayoayo")
                continue
            mover = g.to_move
            before = int(g.stores[mover]) - int(g.stores[1 - mover])
            assert info["to_move"][i] == mover
            g.play(int(a[i]))
            scores = g.outcome.scores if g.outcome is not None else tuple(g.stores)
            expected[i] = int(scores[mover]) - int(scores[1 - mover]) - before
        obs, reward, terminated, truncated, info = env.step(a)
        assert np.array_equal(reward, expected)
        for i, g in enumerate(games):
            assert terminated[i] == (g.outcome is not None)
            assert env.records()[i] == g.record()
            if not terminated[i]:
                assert np.array_equal(obs["observation"][i], g.observation("mover"))
                assert np.array_equal(info["action_mask"][i], g.action_mask())
                checked += 1
        pending = terminated | truncated
    assert checked > 1000


def test_self_play_win_loss_and_truncation() -> None:
    env = AyoVectorEnv(4, rules="oware", opponent=None, max_episode_steps=5)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(1, 11):
        _, reward, terminated, truncated, _ = env.step(random_legal(rng, env.action_masks()))
        # 5 agent steps = 10 moves of self-play
        assert truncated.all() == (step == 10)
        assert not terminated.any()
        assert not reward.any()


# --------------------------------------------------------------- the GIL


def test_step_releases_the_gil() -> None:
    from test_core_threads import python_progress_during

    # Enough games that a step lasts well over 20 ms on any machine.
    env = AyoVectorEnv(400_000, rules="ayoayo")
    env.reset(seed=0)
    actions = env.action_masks().argmax(axis=1)
    duration, inside = python_progress_during(lambda: env.step(actions))
    assert duration > 0.02
    assert inside >= 3


def test_module_examples_run() -> None:
    import doctest

    import ayo.vector

    result = doctest.testmod(ayo.vector)
    assert result.attempted >= 5
    assert result.failed == 0
