"""RLlib (Ray) for Ayo: a native ``MultiAgentEnv``, its module specs and a self-play mapping.

>>> from ayo.rllib import AyoMultiAgentEnv, self_play_mapping, multi_module_spec
>>> from ray.rllib.algorithms.ppo import PPOConfig
>>> config = (
...     PPOConfig()
...     .environment(AyoMultiAgentEnv, env_config={"rules": "oware"})
...     .multi_agent(
...         policies={"main", "frozen"},
...         policy_mapping_fn=self_play_mapping("main", ["frozen"]),
...         policies_to_train=["main"],
...     )
...     .rl_module(rl_module_spec=multi_module_spec("oware", ["main", "frozen"]))
... )

Agents are the seats ``"player_0"`` (South, moves first) and ``"player_1"``
(North); only the agent to move gets an observation, and both get the last one.
A game against a computer player (``opponent``: a level of
:class:`ayo.ai.Player`, played in the environment) has one agent,
``"player_0_vs_computer"`` or ``"player_1_vs_computer"`` by its seat, so a
policy mapping can tell the two kinds of game apart (:func:`self_play_mapping`
does).

Observations are dicts with RLlib's action-masking keys: ``"observations"``
(``float32`` seed counts, shape ``(14,)``, as ``observation`` in the other
environments) and ``"action_mask"`` (``float32`` 0/1, shape ``(6,)``; all 0 in
a final observation), which RLlib's ``ActionMaskingTorchRLModule`` (the
module of :func:`module_spec`) reads to sample legal actions only.

The turn loop is the Rust core's ``ayo_core::episode`` through
:class:`ayo._ayo.EpisodeCore`, in self-play (both seats are agents) or against
the computer player (the core calls it for its seat), as for the PettingZoo and
Gymnasium environments; this module only shapes it as RLlib's API.

Requires ``ray[rllib]`` and ``torch``; ``import ayo`` does not import this
module.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ayo._extras import missing_extra

try:
    import torch
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
except ImportError as e:
    raise missing_extra("rllib", "rllib", e) from None

from ayo import display
from ayo._ayo import EpisodeCore, EpisodeOverError, Game, Outcome, Rules
from ayo.ai import Player

__all__ = [
    "AGENTS",
    "COMPUTER_GAME_AGENTS",
    "AyoMultiAgentEnv",
    "SelfPlayCallback",
    "action_space",
    "module_player",
    "module_spec",
    "multi_module_spec",
    "observation_space",
    "self_play_mapping",
]

#: The agents of a self-play game: South's seat, North's seat.
AGENTS = ("player_0", "player_1")
#: The one agent of a game against the computer player, by its seat.
COMPUTER_GAME_AGENTS = ("player_0_vs_computer", "player_1_vs_computer")

#: The options of :class:`AyoMultiAgentEnv` and their defaults.
DEFAULTS: dict[str, Any] = {
    "rules": "ayoayo",
    "perspective": "mover",
    "reward": "win_loss",
    "illegal_action": "raise",
    "illegal_reward": -1.0,
    "max_plies": 400,
    "opponent": None,
    "opponent_share": 1.0,
    "opponent_seat": "alternate",
    "render_mode": None,
}

Observation = dict[str, npt.NDArray[np.float32]]
MultiAgentDict = dict[str, Any]


def _rules(rules: Rules | str) -> Rules:
    return rules if isinstance(rules, Rules) else Rules(rules)


def observation_space(rules: Rules | str = "ayoayo") -> spaces.Dict:
    """Every agent's observation space under ``rules``."""
    r = _rules(rules)
    return spaces.Dict(
        {
            "observations": spaces.Box(0.0, float(r.total_seeds), shape=(14,), dtype=np.float32),
            "action_mask": spaces.Box(0.0, 1.0, shape=(r.num_actions,), dtype=np.float32),
        }
    )


def action_space(rules: Rules | str = "ayoayo") -> spaces.Discrete:
    """Every agent's action space under ``rules``: ``Discrete(6)``, the mover's pits."""
    return spaces.Discrete(_rules(rules).num_actions)


def _observation(board: npt.NDArray[np.float32], mask: npt.NDArray[Any]) -> Observation:
    return {"observations": board, "action_mask": mask.astype(np.float32)}


class AyoMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]  # untyped base
    """Two-seat Ayo as an RLlib ``MultiAgentEnv``.

    Takes RLlib's ``env_config`` (a mapping; RLlib passes its ``EnvContext``)
    and keyword arguments, which win over it. The options:

    - ``rules``: a :class:`ayo.Rules` or a preset name (default ``"ayoayo"``).
    - ``perspective``: ``"mover"`` (default: each agent sees its own row first;
      the one that suits a module shared by both seats) or ``"absolute"``.
    - ``reward``: ``"win_loss"`` (+1/0/-1 to each agent at the end) or
      ``"seed_difference"`` (each move's change in store difference, the final
      scores at the end), as in :mod:`ayo.pettingzoo`.
    - ``illegal_action``: ``"raise"`` (default: :class:`ayo.IllegalMoveError`;
      a masking module never plays one) or ``"penalize"`` (the mover gets
      ``illegal_reward`` and the game ends).
    - ``max_plies``: truncate a self-play game after this many moves in all
      (default 400, as the PettingZoo environment), or ``None``; a game against
      the computer after ``max_plies // 2`` of the agent's moves (each with the
      computer's replies).
    - ``opponent``: ``None`` (default: self-play, both seats are agents) or a
      level of :class:`ayo.ai.Player` (``1``..``8`` or ``"max"``) that plays
      the other seat inside the environment.
    - ``opponent_share``: the share of games played against ``opponent``
      (default 1.0); the others are self-play. Drawn at each reset from the
      environment's ``np_random``.
    - ``opponent_seat``: the agent's seat in games against the computer:
      ``"alternate"`` (default), ``"random"``, ``0`` or ``1``.
    - ``render_mode``: ``None``, ``"ansi"`` or ``"rgb_array"``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it so)
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 4,
    }

    def __init__(self, config: Mapping[str, Any] | None = None, **options: Any) -> None:
        """Check the options and build the spaces (see the class docstring)."""
        super().__init__()
        given = {**dict(config or {}), **options}
        unknown = set(given) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown AyoMultiAgentEnv options: {sorted(unknown)}")
        opts = {**DEFAULTS, **given}
        self.rules = _rules(opts["rules"])
        max_plies = opts["max_plies"]
        if max_plies is not None and (
            isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 2
        ):
            raise ValueError(f"max_plies must be an integer >= 2 or None, not {max_plies!r}")
        share = opts["opponent_share"]
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise ValueError(f"opponent_share must be a number in [0, 1], not {share!r}")
        seat = opts["opponent_seat"]
        if seat not in (0, 1, "alternate", "random") or isinstance(seat, bool):
            raise ValueError(f'opponent_seat must be 0, 1, "alternate" or "random", not {seat!r}')
        render_mode = opts["render_mode"]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        level = opts["opponent"]
        if level is not None:
            # Raises ValueError, naming the levels, for an unknown one.
            Player.describe_level(level)
        # The core checks the other options (an AyoError, a ValueError, names the bad one).
        episode = {
            "perspective": opts["perspective"],
            "reward": opts["reward"],
            "illegal_action": opts["illegal_action"],
            "illegal_penalty": float(opts["illegal_reward"]),
        }
        self._self_play = EpisodeCore(
            self.rules, opponent="self_play", max_steps=max_plies, **episode
        )
        self._vs_computer = EpisodeCore(
            self.rules,
            opponent="external",
            agent_seat="0" if seat == "alternate" else str(seat),
            max_steps=None if max_plies is None else max_plies // 2,
            **episode,
        )
        self.perspective = opts["perspective"]
        self.reward_kind = opts["reward"]
        self.illegal_action = opts["illegal_action"]
        self.illegal_reward = float(opts["illegal_reward"])
        self.max_plies: int | None = max_plies
        self.opponent_level: int | str | None = level
        self.opponent_share = float(share) if level is not None else 0.0
        self.opponent_seat = seat
        self.render_mode: str | None = render_mode
        #: The computer player (made here: a Player does not pickle, and Ray
        #: sends the options, not the environment, to its workers).
        self._computer: Player | None = None if level is None else Player(level)
        self._computer_seat_next = 0

        self.possible_agents = [*AGENTS, *COMPUTER_GAME_AGENTS]
        self.agents: list[str] = []
        self.observation_spaces = {a: observation_space(self.rules) for a in self.possible_agents}
        # One space each, so that each is seeded on its own.
        self.action_spaces = {a: action_space(self.rules) for a in self.possible_agents}
        self._core = self._self_play
        self._computer_game = False

    # ------------------------------------------------------------------ state

    @property
    def game(self) -> Game:
        """A copy of the game being played."""
        return self._core.game

    @property
    def computer_game(self) -> bool:
        """Whether the current game is against the computer player."""
        return self._computer_game

    def _computer_agent(self) -> str:
        return COMPUTER_GAME_AGENTS[self._core.agent_seat]

    def _observe(self, seat: int) -> Observation:
        return _observation(*self._core.observe_seat(seat))

    # ---------------------------------------------------------------- RLlib API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """Start a game; return the observation of the agent to move.

        ``seed`` seeds the choice of game (self-play or against the computer),
        the agent's seat when ``opponent_seat="random"``, the action spaces and
        the computer player. ``options`` may hold ``"position"``, a position
        record to start from.
        """
        options = dict(options or {})
        position = options.pop("position", None)
        if options:
            raise ValueError(f"unknown reset options: {sorted(options)}")
        game = Game(self.rules, position) if position is not None else None
        if game is not None and game.is_over:
            raise ValueError("the start position is already over")
        super().reset(seed=seed)
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
            self._computer_seat_next = 0
            if self.opponent_level is not None:
                self._computer = Player(
                    self.opponent_level, seed=int(self.np_random.integers(2**63))
                )
            self._vs_computer.seed(int(self.np_random.integers(2**63)))
        self._computer_game = bool(self.np_random.random() < self.opponent_share)
        if not self._computer_game:
            self._core = self._self_play
            self._core.reset(game)
            self.agents = list(AGENTS)
            return {AGENTS[self._core.to_move]: self._observe(self._core.to_move)}, {}
        self._core = self._vs_computer
        seat: int | None = None
        if self.opponent_seat == "alternate":
            seat = self._computer_seat_next
            self._computer_seat_next = 1 - seat
        obs, _ = self._core.reset(game, seat, self._computer)
        agent = self._computer_agent()
        self.agents = [agent]
        return {agent: _observation(obs["observation"], obs["action_mask"])}, {}

    def step(
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Play the action of the agent to move (the only key of ``action_dict``).

        Returns RLlib's five dicts. The next agent to move gets its
        observation; when the game ends (``"__all__"`` terminated, or
        truncated after ``max_plies``) every agent gets its final observation,
        its reward and ``info["outcome"]`` (an :class:`ayo.Outcome`; not after
        a penalized illegal action, whose info has ``"illegal_action"``).
        """
        if self._core.done:
            raise EpisodeOverError("the game is over: call reset()")
        if self._computer_game:
            return self._step_vs_computer(action_dict)
        mover = AGENTS[self._core.to_move]
        if set(action_dict) != {mover}:
            raise ValueError(f"{mover} is to move: expected its action only, got {action_dict!r}")
        rewards, terminated, truncated, outcome, illegal = self._core.turn(action_dict[mover])
        reward = {agent: float(rewards[seat]) for seat, agent in enumerate(AGENTS)}
        if not (terminated or truncated):
            nxt = self._core.to_move
            obs = {AGENTS[nxt]: self._observe(nxt)}
            return obs, reward, {"__all__": False}, {"__all__": False}, {}
        obs = {agent: self._observe(seat) for seat, agent in enumerate(AGENTS)}
        infos = {agent: self._end_info(outcome, illegal) for agent in AGENTS}
        if illegal is not None:
            infos[mover]["illegal_action"] = int(illegal)
        return obs, reward, {"__all__": terminated}, {"__all__": truncated}, infos

    def _step_vs_computer(
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        agent = self._computer_agent()
        if set(action_dict) != {agent}:
            raise ValueError(f"{agent} is to move: expected its action only, got {action_dict!r}")
        obs, reward, terminated, truncated, info = self._core.step(
            action_dict[agent], self._computer
        )
        observation = {agent: _observation(obs["observation"], obs["action_mask"])}
        infos: MultiAgentDict = {}
        if terminated or truncated:
            illegal = info.get("illegal_action")
            infos = {agent: self._end_info(info.get("outcome"), illegal)}
            if illegal is not None:
                infos[agent]["illegal_action"] = int(illegal)
        return (
            observation,
            {agent: float(reward)},
            {"__all__": terminated},
            {"__all__": truncated},
            infos,
        )

    @staticmethod
    def _end_info(outcome: Outcome | None, illegal: int | None) -> dict[str, Any]:
        return {} if outcome is None or illegal is not None else {"outcome": outcome}

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as text (``"ansi"``) or an RGB image (``"rgb_array"``)."""
        return display.render(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def self_play_mapping(
    main: str = "main", opponents: Sequence[str] = ("frozen",)
) -> Callable[..., str]:
    """An ``agent_to_module_mapping_fn`` (RLlib's ``policy_mapping_fn``) for self-play.

    In a self-play game ``main`` plays one seat and one of ``opponents`` the
    other; both are chosen from the episode's id, so every game pits ``main``
    against an opponent, as South or North equally often. The agent of a game
    against the computer player is always ``main``.
    """
    pool = list(opponents)
    if not pool:
        raise ValueError("opponents must name at least one module")

    def mapping(agent_id: str, episode: Any, **_: Any) -> str:
        if agent_id in COMPUTER_GAME_AGENTS:
            return main
        draw = zlib.crc32(str(episode.id_).encode())
        if AGENTS.index(agent_id) == draw % 2:
            return main
        return pool[(draw // 2) % len(pool)]

    return mapping


class SelfPlayCallback(RLlibCallback):  # type: ignore[misc]  # untyped base
    """Self-play against frozen copies: RLlib callbacks that score ``main`` and refresh them.

    At the end of every game ``main`` played, counts its games and wins
    against each opponent (a frozen module, or ``"computer"`` for the
    computer player) under the env runners' metrics ``ayo/games_vs_<opponent>``
    and ``ayo/wins_vs_<opponent>`` (sums over the iteration; a win is the
    final ``info["outcome"]`` naming ``main``'s seat, whatever the reward). At the start the
    frozen modules become copies of ``main``; after an iteration in which
    ``main`` won more than ``threshold`` of at least ``min_games`` games against
    ``frozen[0]``, that module becomes a copy of ``main`` again (in the learner
    and in every env runner), and ``result["ayo/frozen_updates"]`` counts how
    often that happened. Pass it as
    ``config.callbacks(functools.partial(SelfPlayCallback, threshold=0.6))``.
    """

    def __init__(
        self,
        main: str = "main",
        frozen: Sequence[str] = ("frozen",),
        threshold: float = 0.6,
        min_games: int = 10,
    ) -> None:
        """See the class docstring."""
        super().__init__()
        if not frozen:
            raise ValueError("frozen must name at least one module")
        self.main = main
        self.frozen = list(frozen)
        self.threshold = float(threshold)
        self.min_games = int(min_games)
        self.updates = 0

    def _copy_main(self, algorithm: Any, targets: Sequence[str]) -> None:
        learners = algorithm.learner_group
        weights = learners.get_weights([self.main])[self.main]
        learners.set_weights(dict.fromkeys(targets, weights))
        algorithm.env_runner_group.sync_weights(
            from_worker_or_learner_group=learners, policies=list(targets), inference_only=True
        )

    def on_algorithm_init(self, *, algorithm: Any, **kwargs: Any) -> None:
        """Make every frozen module a copy of ``main``."""
        self._copy_main(algorithm, self.frozen)

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        """Count ``main``'s game, and its win (from the outcome), against its opponent."""
        if metrics_logger is None:
            return
        for agent, chunk in episode.agent_episodes.items():
            if episode.module_for(agent) != self.main:
                continue
            if agent in COMPUTER_GAME_AGENTS:
                seat, opponent = COMPUTER_GAME_AGENTS.index(agent), "computer"
            else:
                seat = AGENTS.index(agent)
                opponent = episode.module_for(AGENTS[1 - seat])
            outcome = chunk.get_infos(-1).get("outcome")
            won = outcome is not None and outcome.winner == seat
            metrics_logger.log_value(f"ayo/games_vs_{opponent}", 1, reduce="sum")
            metrics_logger.log_value(f"ayo/wins_vs_{opponent}", float(won), reduce="sum")

    def on_train_result(self, *, algorithm: Any, result: dict[str, Any], **kwargs: Any) -> None:
        """Refresh ``frozen[0]`` when ``main`` beat it often enough in this iteration."""
        runners = result.get("env_runners", {})
        games = float(runners.get(f"ayo/games_vs_{self.frozen[0]}", 0))
        wins = float(runners.get(f"ayo/wins_vs_{self.frozen[0]}", 0))
        if games >= self.min_games and wins > self.threshold * games:
            self._copy_main(algorithm, self.frozen[:1])
            self.updates += 1
        result["ayo/frozen_updates"] = self.updates


def module_spec(
    rules: Rules | str = "ayoayo",
    *,
    hiddens: Sequence[int] = (256, 256),
    model_config: Mapping[str, Any] | None = None,
) -> RLModuleSpec:
    """A PPO module that samples legal actions only: RLlib's ``ActionMaskingTorchRLModule``.

    Its spaces are :func:`observation_space` and :func:`action_space`;
    ``hiddens`` are the layer sizes of its MLP encoder; ``model_config``
    (fields of RLlib's ``DefaultModelConfig``) overrides any of it.
    """
    config = DefaultModelConfig(fcnet_hiddens=list(hiddens), **dict(model_config or {}))
    return RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=observation_space(rules),
        action_space=action_space(rules),
        model_config=config,
    )


def multi_module_spec(
    rules: Rules | str = "ayoayo",
    module_ids: Sequence[str] = ("main", "frozen"),
    *,
    hiddens: Sequence[int] = (256, 256),
    model_config: Mapping[str, Any] | None = None,
) -> MultiRLModuleSpec:
    """One :func:`module_spec` for each of ``module_ids``, as RLlib's ``MultiRLModuleSpec``."""
    spec = module_spec(rules, hiddens=hiddens, model_config=model_config)
    return MultiRLModuleSpec(rl_module_specs={m: spec for m in module_ids})


def module_player(
    module: Any, perspective: Literal["mover", "absolute"] = "mover"
) -> Callable[[Game], int]:
    """Turn an RLModule of :func:`module_spec` into a player: ``(game) -> action``.

    The player gives the module the observation of the player to move (as
    the environment would) and plays the most likely action of its masked
    output (``forward_inference``), so it plays legal moves only. It is
    callable like :class:`ayo.ai.Player`, e.g. as ``AyoEnv``'s ``opponent``.
    """
    if perspective not in ("mover", "absolute"):
        raise ValueError(f'perspective must be "mover" or "absolute", not {perspective!r}')

    def play(game: Game) -> int:
        obs = _observation(game.observation(perspective), game.action_mask())
        batch = {Columns.OBS: {k: torch.from_numpy(v)[None] for k, v in obs.items()}}
        with torch.no_grad():
            out = module.forward_inference(batch)
        return int(torch.argmax(out[Columns.ACTION_DIST_INPUTS][0]).item())

    return play
