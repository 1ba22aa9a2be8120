"""The Gymnasium environment ``ayo/Ayo-v0`` (python/ayo/envs)."""

from __future__ import annotations

import copy
import doctest
import pickle
from typing import Any, Literal

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import ayo
import ayo.ai
import ayo.envs
from ayo.envs import MAX_EPISODE_STEPS, AyoEnv, EpisodeOverError, observation_opponent, seat_view

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]


def masked_random(rng: np.random.Generator, obs: dict[str, Any]) -> int:
    """A uniformly random legal action from an observation's mask."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(rng.choice(legal))


def run_episode(env: gymnasium.Env[Any, Any], seed: int, policy_seed: int) -> list[Any]:
    """Play one episode with masked random actions; return everything observed."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    log: list[Any] = [(obs["observation"].tolist(), obs["action_mask"].tolist(), info["ply"])]
    while True:
        obs, reward, terminated, truncated, info = env.step(masked_random(rng, obs))
        log.append(
            (
                obs["observation"].tolist(),
                obs["action_mask"].tolist(),
                reward,
                terminated,
                truncated,
                info["opponent_moves"],
                info.get("outcome"),
            )
        )
        if terminated or truncated:
            return log


def legal_step_until_gap(env: AyoEnv, seed: int) -> tuple[dict[str, Any], int]:
    """Reset and play legal moves until some action is illegal; return (obs, that action)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    while obs["action_mask"].all():
        obs, _, terminated, _, _ = env.step(masked_random(rng, obs))
        assert not terminated, "the game ended before any pit emptied"
    return obs, int(np.flatnonzero(obs["action_mask"] == 0)[0])


# ---------------------------------------------------------------- registration


def test_registered_with_time_limit() -> None:
    spec = gymnasium.spec("ayo/Ayo-v0")
    assert spec.max_episode_steps == MAX_EPISODE_STEPS
    env = gymnasium.make("ayo/Ayo-v0", rules="oware")
    assert isinstance(env.unwrapped, AyoEnv)
    assert env.unwrapped.rules == ayo.Rules("oware")


def test_made_env_enforces_reset_first_without_the_wrappers() -> None:
    # Registered without OrderEnforcing and the passive checker (a third of
    # a step's cost); AyoEnv itself refuses to step or render before reset.
    env = gymnasium.make("ayo/Ayo-v0", rules="oware", render_mode="ansi")
    assert isinstance(env, gymnasium.wrappers.TimeLimit)
    assert env.env is env.unwrapped
    with pytest.raises(ResetNeeded):
        env.step(0)
    with pytest.raises(ResetNeeded):
        env.render()
    env.reset(seed=0)
    env.step(0)
    checked = gymnasium.make("ayo/Ayo-v0", disable_env_checker=False)
    assert "PassiveEnvChecker" in str(checked)


def test_make_with_module_prefix() -> None:
    env = gymnasium.make("ayo.envs:ayo/Ayo-v0")
    assert isinstance(env.unwrapped, AyoEnv)


# ---------------------------------------------------------------- check_env


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"agent_seat": 1, "reward": "seed_difference", "perspective": "absolute"},
        {"agent_seat": "alternate", "render_mode": "ansi"},
        {"agent_seat": "random", "render_mode": "rgb_array"},
    ],
)
def test_check_env(preset: str, options: dict[str, Any]) -> None:
    # With the default options: check_env steps with unmasked random actions,
    # and the default illegal_action="penalize" ends such an episode.
    env = gymnasium.make("ayo/Ayo-v0", rules=preset, **options)
    check_env(env.unwrapped)


# ---------------------------------------------------------------- spaces and observations


def test_spaces() -> None:
    env = AyoEnv("oware")
    assert env.action_space == gymnasium.spaces.Discrete(6)
    obs_space = env.observation_space
    assert isinstance(obs_space, gymnasium.spaces.Dict)
    board = obs_space["observation"]
    mask = obs_space["action_mask"]
    assert isinstance(board, gymnasium.spaces.Box)
    assert isinstance(mask, gymnasium.spaces.Box)
    assert board.shape == (14,)
    assert board.dtype == np.float32
    assert float(board.high.max()) == 48.0
    assert mask.dtype == np.int8
    assert mask.shape == (6,)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", [0, 1])
def test_observation_is_the_movers_view(preset: str, seat: Literal[0, 1]) -> None:
    env = AyoEnv(preset, agent_seat=seat)
    rng = np.random.default_rng(seat)
    obs, info = env.reset(seed=7)
    for _ in range(200):
        game = env.game
        assert game.to_move == seat
        np.testing.assert_array_equal(obs["observation"], game.observation("mover"))
        np.testing.assert_array_equal(obs["action_mask"], game.action_mask().astype(np.int8))
        # One array, shared by the observation and info (one fewer to make a step).
        assert info["action_mask"] is obs["action_mask"]
        np.testing.assert_array_equal(env.action_masks(), game.action_mask())
        assert env.action_masks().dtype == np.bool_
        assert obs["observation"].dtype == np.float32
        assert env.observation_space.contains(obs)
        obs, _, terminated, _, info = env.step(masked_random(rng, obs))
        if terminated:
            np.testing.assert_array_equal(obs["observation"], seat_view(env.game, seat))
            assert not obs["action_mask"].any()
            assert not env.action_masks().any()
            break
    else:
        pytest.fail("the game did not end in 200 agent steps")


def test_seat_view_rotates_the_absolute_board() -> None:
    game = ayo.Game("oware")
    game.play(5)  # North to move
    absolute = game.observation("absolute")
    north = seat_view(game, 1)
    np.testing.assert_array_equal(north, game.observation("mover"))
    np.testing.assert_array_equal(north[:6], absolute[6:12])
    np.testing.assert_array_equal(north[6:12], absolute[:6])
    assert (north[12], north[13]) == (absolute[13], absolute[12])
    np.testing.assert_array_equal(seat_view(game, 0), absolute)


def test_absolute_perspective() -> None:
    env = AyoEnv("ayoayo", agent_seat=1, perspective="absolute")
    obs, _ = env.reset(seed=3)
    np.testing.assert_array_equal(obs["observation"], env.game.observation("absolute"))


# ---------------------------------------------------------------- seats and the opponent


def test_opponent_moves_first_when_agent_is_north() -> None:
    env = AyoEnv("ayoayo", agent_seat=1)
    _, info = env.reset(seed=11)
    game = env.game
    assert game.ply == 1
    assert game.to_move == 1
    assert info["agent_seat"] == 1
    assert len(info["opponent_moves"]) == 1
    assert game.moves == [info["opponent_moves"][0]]


def test_alternate_seats_and_seeded_restart() -> None:
    env = AyoEnv("oware", agent_seat="alternate")
    seats = []
    for i in range(4):
        _, info = env.reset(seed=5 if i == 0 else None)
        seats.append(info["agent_seat"])
    assert seats == [0, 1, 0, 1]
    _, info = env.reset(seed=5)
    assert info["agent_seat"] == 0


def test_random_seat_uses_np_random() -> None:
    env = AyoEnv("oware", agent_seat="random")
    seats = [env.reset(seed=s)[1]["agent_seat"] for s in range(40)]
    assert set(seats) == {0, 1}
    again = [env.reset(seed=s)[1]["agent_seat"] for s in range(40)]
    assert seats == again


def test_reset_options_seat_and_position() -> None:
    start = ayo.Game("oware")
    for a in (0, 5, 1):
        start.play(a)
    env = AyoEnv("oware", agent_seat=0)
    obs, info = env.reset(seed=0, options={"agent_seat": 1, "position": start.position_record()})
    assert info["agent_seat"] == 1
    np.testing.assert_array_equal(obs["observation"], env.game.observation("mover"))
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"seat": 1})
    with pytest.raises(ValueError, match="agent_seat"):
        env.reset(options={"agent_seat": 2})
    with pytest.raises(ayo.RecordError):
        env.reset(options={"position": "not a position"})


def test_random_opponent_plays_legal_moves_and_env_rng() -> None:
    env = AyoEnv("ayoayo", agent_seat=1)
    env.reset(seed=1)
    first = env.game.moves[0]
    env.reset(seed=1)
    assert env.game.moves[0] == first
    openings = {env.reset(seed=s)[1]["opponent_moves"][0] for s in range(60)}
    assert openings == set(range(6))


def assert_same_step(fast: tuple[Any, ...], slow: tuple[Any, ...]) -> None:
    """Two steps' (or resets') results are equal, value, type and dtype alike."""
    assert len(fast) == len(slow)
    for got, want in zip(fast, slow, strict=True):
        if isinstance(want, dict):
            assert isinstance(got, dict)
            assert got.keys() == want.keys()
            assert_same_step(tuple(got.values()), tuple(want.values()))
        elif isinstance(want, np.ndarray):
            assert isinstance(got, np.ndarray)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
        else:
            assert type(got) is type(want)
            assert got == want


@pytest.mark.parametrize("preset", ["ayoayo", "ayo", "olopon", "oware"])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("perspective", ["mover", "absolute"])
@pytest.mark.parametrize("reward", ["win_loss", "seed_difference"])
def test_random_opponent_steps_in_rust_as_the_python_path_would(
    preset: str, seat: Literal[0, 1], perspective: Any, reward: Any
) -> None:
    """The random opponent's one-call steps (ayo-py/src/env.rs) give exactly
    what the general Python path gives when the same replies are played."""
    fast = AyoEnv(preset, agent_seat=seat, perspective=perspective, reward=reward)
    replies: list[int] = []
    slow = AyoEnv(
        preset,
        opponent=lambda game: replies.pop(0),
        agent_seat=seat,
        perspective=perspective,
        reward=reward,
    )
    rng = np.random.default_rng(7)
    steps = 0
    for episode in range(4):
        obs, info = fast.reset(seed=episode)
        replies[:] = info["opponent_moves"]
        assert_same_step((obs, info), slow.reset(seed=episode))
        done = False
        while not done:
            action = masked_random(rng, obs)
            result = fast.step(action)
            replies[:] = result[4]["opponent_moves"]
            assert_same_step(result, slow.step(action))
            assert not replies
            obs, done = result[0], result[2] or result[3]
            steps += 1
        assert "outcome" in result[4]
    assert steps > 10


def test_callable_opponent_gets_a_copy() -> None:
    seen: list[ayo.Game] = []

    def lowest_then_mutate(game: ayo.Game) -> int:
        seen.append(game.copy())
        action = game.legal_moves()[0]
        game.play(action)  # only the copy changes
        return action

    env = AyoEnv("oware", opponent=lowest_then_mutate, agent_seat=1)
    _, info = env.reset(seed=0)
    assert info["opponent_moves"] == [0]
    assert env.game.ply == 1
    assert seen[0].ply == 0
    assert seen[0].to_move == 0
    *_, info = env.step(3)
    assert env.game.ply == 3
    assert seen[1].to_move == 0
    assert info["opponent_moves"] == [seen[1].legal_moves()[0]]


def test_opponent_illegal_move_leaves_env_unchanged() -> None:
    calls = 0

    def bad(game: ayo.Game) -> int:
        nonlocal calls
        calls += 1
        if calls == 1:
            return 0
        # the first empty pit of the opponent, or an out-of-range action
        empty = np.flatnonzero(~game.action_mask())
        return int(empty[0]) if empty.size else 9

    env = AyoEnv("oware", opponent=bad, agent_seat=1)
    env.reset(seed=0)
    before = env.game.record()
    with pytest.raises(ayo.IllegalMoveError):
        env.step(2)
    assert env.game.record() == before


def test_observation_opponent() -> None:
    seen: list[dict[str, Any]] = []

    def policy(obs: dict[str, Any]) -> np.int64:
        seen.append(obs)
        mask: np.ndarray[Any, np.dtype[np.int8]] = obs["action_mask"]
        action: np.int64 = np.int64(int(np.flatnonzero(mask).max()))
        return action

    env = AyoEnv("oware", opponent=observation_opponent(policy), agent_seat=1)
    _, info = env.reset(seed=0)
    assert info["opponent_moves"] == [5]
    np.testing.assert_array_equal(seen[0]["observation"], ayo.Game("oware").observation())
    assert seen[0]["action_mask"].dtype == np.int8
    with pytest.raises(ValueError, match="perspective"):
        observation_opponent(policy, perspective="south")  # type: ignore[arg-type]


# ---------------------------------------------------------------- rewards and ends


@pytest.mark.parametrize("preset", PRESETS)
def test_win_loss_reward_and_outcome(preset: str) -> None:
    env = AyoEnv(preset, agent_seat="alternate")
    ended_on = set()
    for episode in range(30):
        rng = np.random.default_rng(episode)
        obs, info = env.reset(seed=episode if episode == 0 else None)
        seat = info["agent_seat"]
        rewards = []
        while True:
            obs, reward, terminated, truncated, info = env.step(masked_random(rng, obs))
            rewards.append(reward)
            if terminated or truncated:
                break
        assert not truncated
        outcome = info["outcome"]
        assert outcome == env.game.outcome
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)
        assert rewards[-1] == expected
        # who made the last move: the agent, or the opponent's reply
        last_mover = 0 if env.game.moves[-1] < 6 else 1
        ended_on.add(last_mover == seat)
        with pytest.raises(EpisodeOverError):
            env.step(0)
    # both kinds of end occurred: on the agent's move and on the opponent's reply
    assert ended_on == {True, False}


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_difference_reward_sums_to_final_margin(preset: str) -> None:
    env = AyoEnv(preset, agent_seat="alternate", reward="seed_difference")
    for episode in range(10):
        rng = np.random.default_rng(100 + episode)
        obs, info = env.reset(seed=episode)
        seat = info["agent_seat"]
        total = 0.0
        stores_before = env.game.stores.astype(int)
        margin_before = stores_before[seat] - stores_before[1 - seat]
        while True:
            obs, reward, terminated, _, info = env.step(masked_random(rng, obs))
            stores = env.game.stores.astype(int)
            if not terminated:
                assert reward == (stores[seat] - stores[1 - seat]) - margin_before
                margin_before = stores[seat] - stores[1 - seat]
            total += reward
            if terminated:
                break
        scores = info["outcome"].scores
        assert total == scores[seat] - scores[1 - seat]


def test_truncation_by_time_limit() -> None:
    env = gymnasium.make("ayo/Ayo-v0", rules="oware", max_episode_steps=3)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    flags = []
    for _ in range(3):
        obs, _, terminated, truncated, _ = env.step(masked_random(rng, obs))
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, False), (False, True)]


# ---------------------------------------------------------------- illegal actions


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = AyoEnv("oware", illegal_action="raise")
    obs, action = legal_step_until_gap(env, seed=4)
    before = env.game.record()
    with pytest.raises(ayo.IllegalMoveError) as err:
        env.step(action)
    assert err.value.reason
    assert env.game.record() == before
    # the episode goes on
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)
    assert env.game.ply > 0


def test_illegal_action_penalized() -> None:
    env = AyoEnv("oware", illegal_action="penalize", illegal_penalty=-5)
    _, action = legal_step_until_gap(env, seed=4)
    before = env.game.record()
    obs, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert info["illegal_action"] == action
    assert "outcome" not in info
    assert env.game.record() == before
    assert not obs["action_mask"].any()
    with pytest.raises(EpisodeOverError):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 6, 2.5, "1", None])
def test_action_outside_space(action: Any) -> None:
    env = AyoEnv("oware", illegal_action="penalize")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert env.game.ply == 0


def test_numpy_integer_action() -> None:
    env = AyoEnv("oware")
    env.reset(seed=0)
    env.step(np.int64(3))
    assert env.game.moves[0] == 3


def test_step_before_reset() -> None:
    env = AyoEnv()
    with pytest.raises(EpisodeOverError):
        env.step(0)
    assert issubclass(EpisodeOverError, ValueError)
    assert issubclass(EpisodeOverError, ResetNeeded)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "mancala"},
        {"opponent": "greedy"},
        {"agent_seat": 2},
        {"agent_seat": True},
        {"perspective": "north"},
        {"reward": "score"},
        {"illegal_action": "ignore"},
        {"render_mode": "human"},
    ],
)
def test_bad_options(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 (each option has its own message)
        AyoEnv(**kwargs)


# ---------------------------------------------------------------- reproducibility


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", [0, 1, "alternate", "random"])
def test_seeded_episodes_reproduce(preset: str, seat: Any) -> None:
    a = gymnasium.make("ayo/Ayo-v0", rules=preset, agent_seat=seat)
    b = gymnasium.make("ayo/Ayo-v0", rules=preset, agent_seat=seat)
    for seed in range(5):
        assert run_episode(a, seed, policy_seed=seed) == run_episode(b, seed, policy_seed=seed)
    # the same env, reseeded, replays its first episode too
    assert run_episode(a, 0, policy_seed=0) == run_episode(b, 0, policy_seed=0)
    # and the seed matters (the opponent's moves differ)
    logs = {repr(run_episode(a, seed, policy_seed=0)) for seed in range(5)}
    assert len(logs) > 1


def test_deepcopy_and_pickle_keep_the_episode() -> None:
    env = AyoEnv("ayoayo", agent_seat=1)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=2)
    for _ in range(3):
        obs, _, _, _, _ = env.step(masked_random(rng, obs))
    record = env.game.record()
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    action = masked_random(rng, obs)
    expected = env.step(action)
    for clone in clones:
        assert clone.game.record() == record  # nothing shared: the env's step left it alone
        got = clone.step(action)
        np.testing.assert_array_equal(got[0]["observation"], expected[0]["observation"])
        assert got[1:4] == expected[1:4]
        assert clone.game.record() == env.game.record()


# ---------------------------------------------------------------- rendering


def test_render_modes() -> None:
    env = AyoEnv("oware", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert "South to move" in text
    image_env = AyoEnv("oware", render_mode="rgb_array")
    image_env.reset(seed=0)
    image = image_env.render()
    assert isinstance(image, np.ndarray)
    assert image.dtype == np.uint8
    assert image.ndim == 3
    assert image.shape[2] == 3
    plain = AyoEnv("oware")
    with pytest.raises(ResetNeeded):
        plain.render()
    plain.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert plain.render() is None


def test_reset_that_ends_on_the_opening_move() -> None:
    # South (the opponent) has one move, 5 -> 6 making 2: a capture to 25.
    start = ayo.Game.from_setup("oware", [0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0], (23, 18))
    env = AyoEnv("oware", agent_seat=1)
    with pytest.raises(ValueError, match="opening"):
        env.reset(seed=0, options={"position": start.position_record()})
    with pytest.raises(EpisodeOverError):
        env.step(0)
    over = start.copy()
    over.play(5)
    assert over.outcome is not None
    with pytest.raises(ValueError, match="already over"):
        env.reset(options={"position": over.position_record()})


def test_computer_player_as_opponent() -> None:
    env = gymnasium.make("ayo/Ayo-v0", rules="oware", opponent=ayo.ai.Player("3", seed=1))
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    replies: list[int] = []
    while True:
        obs, _, terminated, truncated, info = env.step(masked_random(rng, obs))
        replies += info["opponent_moves"]
        if terminated or truncated:
            break
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert isinstance(game, ayo.Game)
    # the opponent's moves are the North moves of the game's record
    assert [pit - 6 for pit in game.moves if pit >= 6] == replies
    assert terminated
    assert info["outcome"] == game.outcome


def test_docstring_examples() -> None:
    result = doctest.testmod(ayo.envs)
    assert result.attempted > 0
    assert result.failed == 0


def test_sync_vector_env_with_masks() -> None:
    envs = gymnasium.make_vec("ayo/Ayo-v0", num_envs=3, vectorization_mode="sync", rules="oware")
    envs.single_action_space.seed(0)
    obs, _ = envs.reset(seed=0)
    ends = 0
    for _ in range(400):
        # after an episode ends its mask is all zeros; sample() then gives 0,
        # which the next-step autoreset ignores
        actions = np.array([envs.single_action_space.sample(mask=m) for m in obs["action_mask"]])
        obs, rewards, terminated, _, _ = envs.step(actions)
        ends += int(terminated.sum())
        assert set(rewards[terminated].tolist()) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
    assert ends >= 3
    envs.close()


def test_bad_reset_changes_nothing() -> None:
    env = AyoEnv("oware", agent_seat="alternate")
    env.reset(seed=3)
    env.step(2)
    record = env.game.record()
    rng_state = env.np_random.bit_generator.state
    for options in ({"agent_seat": 5}, {"position": "nonsense"}, {"colour": "red"}):
        with pytest.raises(ValueError):  # noqa: PT011 (three different messages)
            env.reset(seed=9, options=options)
        assert env.game.record() == record
        assert env.np_random.bit_generator.state == rng_state
        assert env.agent_seat == 0
    env.step(env.game.legal_moves()[0])  # the episode goes on
    assert env.game.ply == 4


def test_opponent_failing_at_reset_leaves_no_episode() -> None:
    def broken(game: ayo.Game) -> int:
        raise RuntimeError("policy crashed")

    env = AyoEnv("oware", opponent=broken, agent_seat=1)
    with pytest.raises(RuntimeError, match="crashed"):
        env.reset(seed=0)
    with pytest.raises(EpisodeOverError):
        env.step(0)
